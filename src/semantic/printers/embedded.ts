/**
 * EmbeddedResultPrinter: each result page transcluded under its title.
 */
import type { TitleCodec } from '../../wiki/titles.js';
import type { PrintValue } from '../datavalues/wiki-text.js';
import { boolParam, given } from './parameters.js';
import { furtherResultsLink, linkFurther, type PrintInput, type PrintOutput } from './result-printer.js';

/** SMWWikiPageValue::getLongWikiText of a result page (no property: the namespace is shown), linked or not. */
function longPageText(v: PrintValue, linked: boolean, codec: TitleCodec): string {
  const prefixed = codec.prefixedText(v.ns!, v.dbkey!);
  const fragment = v.subobject ?? '';
  if (!linked) return prefixed + (fragment !== '' ? '#' + fragment : '');
  const caption = prefixed + (fragment !== '' && fragment[0] !== '_' ? '#' + fragment : '');
  const target = prefixed.replace(/'/g, '&#x0027;') + (fragment !== '' ? '#' + fragment : '');
  return v.ns === 6 ? `[[${target}|${caption}|frameless|border|text-top]]` : `[[:${target}|${caption}]]`;
}

/** EmbeddedResultPrinter: each result page transcluded (not the page being parsed), under its title. */
export function printEmbedded(o: PrintInput): PrintOutput {
  const format = given(o, 'embedformat') ?? 'h1';
  const showHead = !boolParam(o, 'embedonly');
  let result = '';
  let footer = '';
  let embStart = '';
  let embEnd = '';
  let headStart = '';
  let headEnd = '';
  if (format === 'ol' || format === 'ul') {
    result += `<${format}>`;
    footer = `</${format}>`;
    embStart = '<li>';
    headEnd = '<br />\n';
    embEnd = '</li>\n';
  } else {
    headStart = `<${format}>`;
    headEnd = `</${format}>\n`;
  }
  for (const row of o.rows) {
    const page = row.subject;
    result += embStart;
    if (showHead) result += headStart + longPageText(page, true, o.codec) + headEnd;
    const plain = longPageText(page, false, o.codec);
    if (plain === o.pageTitle) result += '<b>' + plain + '</b>';
    else result += page.ns === 0 ? '{{:' + page.dbkey + '}}' : '{{' + plain + '}}';
    result += embEnd;
  }
  if (linkFurther(o)) result += embStart + furtherResultsLink(o, o.rows.length) + embEnd;
  return { text: result + footer, templates: true };
}
