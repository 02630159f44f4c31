/**
 * A wikitext preprocessor after MediaWiki 1.25's Preprocessor_Hash + Parser::braceSubstitution: it
 * expands templates, template parameters, parser functions and magic variables, so that the link,
 * category and Semantic MediaWiki annotation extraction that follows sees what MediaWiki saw.
 *
 * Two stages, as in MediaWiki, each in its own file of this folder:
 *  1. tokenizer.ts (Preprocessor_Hash) — a single left-to-right scan with an explicit stack (no
 *     recursion, so no input can overflow the call stack) building the tree of tree.ts. Comments and
 *     <noinclude>/<includeonly> sections are dropped here, according to whether the text is the page
 *     itself or a transcluded template.
 *  2. expander.ts (PPFrame::expand, Parser::braceSubstitution) — walks the tree in frames (frame.ts,
 *     one per template call, holding its arguments) and produces text, calling the parser functions
 *     of functions/ (one file per family, listed in functions/registry.ts) and the magic variables of
 *     magic-variables.ts. Three limits (expansion depth, expanded bytes, visited nodes) bound the
 *     work: when one is hit the rest is left unexpanded, `limitHit` says which, and nothing is thrown.
 * context.ts holds what an expansion is given and returns; site-tables.ts the namespace names and
 * extension tags it knows; xml.ts prints a tree as the API's parsetree.
 *
 * What MediaWiki renders as markup is output as the wikitext that produces it: a missing template
 * becomes the red link `[[:Шаблон:Name]]` (leading colon: never a category or file), a loop
 * `<span class="error">Template loop detected: [[Шаблон:Name]]</span>`, #expr errors
 * `<strong class="error">Expression error: …</strong>`; page names are escaped with HTML character
 * references as wfEscapeWikiText does ("Кам'янка" → "Кам&#39;янка"), which title parsing decodes.
 *
 * Deliberate differences from MediaWiki, because this output feeds a later parsing stage rather than
 * HTML: extension tags (<ref>, <gallery>, <nowiki>, …) are kept verbatim, content unexpanded;
 * Semantic MediaWiki and Semantic Forms parser functions other than #arraymap/#arraymaptemplate, as
 * well as unknown `{{#name:…}}` functions and #time, are output as `{{#name:…|…}}` with their
 * arguments expanded (values untrimmed, as written); `{{=}}` gives "=" when no such template exists;
 * variables and functions needing the live wiki (NUMBEROFARTICLES, fullurl: …) stay as written; a limit leaves the source text of what it
 * stopped instead of an error message.
 *
 * As in 1.25, a plain `{{subst:…}}` outside the pre-save transform stays as written and `safesubst:`
 * expands like a plain call; the pre-save transform (outputType 'wiki') expands only those two.
 *
 * This module is pure: all page access goes through the context's callbacks.
 */
import { Expander } from './expander.js';
import { MAGIC_VARIABLES } from './magic-variables.js';
import { PARSER_FUNCTIONS } from './functions/registry.js';
import type { ExpandResult, PreprocessContext } from './context.js';

/** Expand the templates, parameters, parser functions and variables of a page's wikitext. */
export function expandWikitext(text: string, ctx: PreprocessContext): ExpandResult {
  const ex = new Expander(ctx, PARSER_FUNCTIONS, MAGIC_VARIABLES);
  let out: string;
  try {
    const tree = ex.parse(text, false, ctx.outputType === 'wiki');
    out = ex.expand(tree, ex.rootFrame);
    ex.finish();
  } catch (e) {
    // Defensive only: every limit is handled without exceptions, but a host stack overflow
    // (RangeError) must not take the importer down with it.
    if (!(e instanceof RangeError)) throw e;
    out = text;
    ex.limitHit = 'error';
  }
  const result: ExpandResult = { text: out, templates: [...ex.templates.values()], links: [...ex.links.values()] };
  if (ctx.limitReport) result.report = ex.report();
  if (ex.defaultSort !== undefined) result.defaultSort = ex.defaultSort;
  if (ex.displayTitle !== undefined) result.displayTitle = ex.displayTitle;
  if (ex.displayTitleIgnored) result.displayTitleIgnored = true;
  if (ctx.headingMarkers) result.headings = ex.headings;
  if (ex.limitHit !== undefined) result.limitHit = ex.limitHit;
  if (ex.trackingCategories !== null) result.trackingCategories = [...ex.trackingCategories];
  return result;
}
