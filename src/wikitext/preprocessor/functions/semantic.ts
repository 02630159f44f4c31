/**
 * Semantic MediaWiki's parser functions that output something: the inline queries #ask and #show, and
 * #concept. The answers come from the caller (PreprocessContext.inlineQuery); the others (#set,
 * #subobject …) stay as written for the annotation parser.
 */
import { LITERAL } from '../expander.js';
import type { ParserFunctionTable } from './table.js';

export function registerSemanticFunctions(table: ParserFunctionTable): void {
  for (const fn of ['ask', 'show'] as const) {
    table.registerCaseInsensitive(['#' + fn], (expander, call) => {
      if (!expander.ctx.inlineQuery) return LITERAL;
      const r = expander.ctx.inlineQuery(fn, expander.allTrimmedArgs(call));
      if (r === undefined) return LITERAL;
      if (!r.expand) return r.text;
      // ResultPrinter::$maxRecursionDepth: a template printer's output inside another's nests at most 2 deep
      if (expander.inlineTemplateDepth >= 2) return '';
      expander.inlineTemplateDepth++;
      try {
        // in the calling frame, so that template depth accumulates through query output
        return expander.expandGenerated(r.text, call.frame, false);
      } finally {
        expander.inlineTemplateDepth--;
      }
    });
  }

  // SMW's {{#concept:}}: its description box, made by the same caller (it needs the properties' types)
  table.registerCaseInsensitive(['#concept'], (expander, call) => {
    if (!expander.ctx.inlineQuery) return LITERAL;
    const fn = expander.conceptSeen ? 'concept-again' : 'concept';
    expander.conceptSeen = true;
    return expander.ctx.inlineQuery(fn, expander.allTrimmedArgs(call))?.text ?? LITERAL;
  });
}
