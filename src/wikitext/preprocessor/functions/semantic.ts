/**
 * Semantic MediaWiki's parser functions that output something: the inline queries #ask and #show, and
 * #concept. The answers come from the caller (PreprocessContext.inlineQuery); the others (#set,
 * #subobject …) stay as written for the annotation parser.
 */
import { LITERAL } from '../expander.js';
import type { ParserFunctionTable } from './table.js';

export function registerSemanticFunctions(table: ParserFunctionTable): void {
  for (const fn of ['ask', 'show'] as const) {
    table.registerCaseInsensitive(['#' + fn], (ex, c) => {
      if (!ex.ctx.inlineQuery) return LITERAL;
      const r = ex.ctx.inlineQuery(fn, ex.allTrimmedArgs(c));
      if (r === undefined) return LITERAL;
      if (!r.expand) return r.text;
      // ResultPrinter::$maxRecursionDepth: a template printer's output inside another's nests at most 2 deep
      if (ex.inlineTemplateDepth >= 2) return '';
      ex.inlineTemplateDepth++;
      try {
        // in the calling frame, so that template depth accumulates through query output
        return ex.expandGenerated(r.text, c.frame, false);
      } finally {
        ex.inlineTemplateDepth--;
      }
    });
  }

  // SMW's {{#concept:}}: its description box, made by the same caller (it needs the properties' types)
  table.registerCaseInsensitive(['#concept'], (ex, c) => {
    if (!ex.ctx.inlineQuery) return LITERAL;
    const fn = ex.conceptSeen ? 'concept-again' : 'concept';
    ex.conceptSeen = true;
    return ex.ctx.inlineQuery(fn, ex.allTrimmedArgs(c))?.text ?? LITERAL;
  });
}
