/**
 * Parser::getSection / extractSections of MediaWiki 1.25 ('get' mode): section N is the top-level
 * heading the preprocessor numbered N with everything up to the next heading of its level or higher;
 * section 0 is what precedes the first heading. "T-N" counts in the transclusion view of the text
 * (what a template's T-N edit link names). The text comes back as written, right-trimmed.
 */
import { topLevelHeadings } from './preprocessor/tokenizer.js';

/** the text of section `id` ("0", "3", "T-2"), or null when there is no such section */
export function getSection(text: string, id: string): string | null {
  const m = /^(T-)?(\d+)$/.exec(id);
  if (!m) return null;
  const index = Number(m[2]);
  const heads = topLevelHeadings(text, m[1] !== undefined);
  let from = 0;
  let level = 1000; // section 0 nests nothing: the first heading ends it
  let k = 0;
  if (index !== 0) {
    while (k < heads.length && heads[k].index !== index) k++;
    if (k === heads.length) return null;
    from = heads[k].start;
    level = heads[k].level;
    k++;
  }
  while (k < heads.length && heads[k].level > level) k++;
  const to = k < heads.length ? heads[k].start : text.length;
  return text.slice(from, to).replace(/[ \t\n\r\0\x0B]+$/, '');
}
