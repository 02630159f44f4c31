/**
 * CoreParserFunctions::displaytitle of 1.25 with $wgRestrictDisplayTitle (the default): the text, with
 * '' and ''' made italic and bold, extension-tag output dropped, the block tags a title may not hold
 * escaped and styles that could hide or fake the title neutralised, becomes the page's `displaytitle`
 * only when, stripped of its tags, it is a title equal to the page's own (without a fragment);
 * otherwise it is ignored and the page joins the tracking category "restricted-displaytitle-ignored".
 */
import type { TitleCodec } from '../wiki/titles.js';
import { decodeCharReferences } from '../wiki/titles.js';
import { checkCss, normalizeCharReferences, removeHtmlTags } from './sanitizer.js';
import { doQuotes } from './render/quotes.js';

// displaytitle's $bad: tags allowed in wikitext that a title may not hold
const BAD = new Set('h1 h2 h3 h4 h5 h6 div blockquote ol ul li hr table tr th td dl dd caption p ruby rb rt rtc rp br'.split(' '));

/** the callback of removeHTMLtags: a style that could hide the real title goes */
function restrictStyle(attrs: Map<string, string>): void {
  const style = attrs.get('style');
  if (style === undefined) return;
  const checked = checkCss(style);
  attrs.set('style', /(display|user-select|visibility)\s*:/i.test(checked) ? '/* attempt to bypass $wgRestrictDisplayTitle */' : checked);
}

/** the HTML {{DISPLAYTITLE:raw}} would show (before the title check) */
function filterDisplayTitle(raw: string): string {
  return normalizeCharReferences(removeHtmlTags(doQuotes(raw), { removeTags: BAD, adjustAttributes: restrictStyle }));
}

/** Sanitizer::stripAllTags: the text a title is compared with */
function stripAllTags(html: string): string {
  return decodeCharReferences(html.replace(/<[^<>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}

/** The displaytitle property of {{DISPLAYTITLE:raw}} on `page`, or null when it is refused. */
export function displayTitleProp(raw: string, page: { ns: number; dbkey: string }, codec: TitleCodec): string | null {
  const text = filterDisplayTitle(raw);
  const t = codec.parse(stripAllTags(text), 0);
  if (t === null || t.fragment !== '' || t.ns !== page.ns || t.dbkey !== page.dbkey) return null;
  return text;
}
