/**
 * CoreParserFunctions::displaytitle of 1.25 with $wgRestrictDisplayTitle (the default): the text, with
 * '' and ''' made italic and bold and the tags a title may not hold escaped, becomes the page's
 * `displaytitle` property only when, stripped of its tags, it is a title equal to the page's own
 * (without a fragment); otherwise it is ignored.
 */
import { decodeCharReferences, type TitleCodec } from '../wiki/titles.js';
import { htmlspecialchars } from '../wiki/html.js';

// Sanitizer's list minus the block tags DISPLAYTITLE refuses ($bad of displaytitle)
const ALLOWED = new Set(
  ('b bdi del i ins u font big small sub sup cite code em s strike strong tt var abbr dfn kbd samp data time mark span q wbr').split(' '),
);

function doQuotes(text: string): string {
  return text
    .replace(/'''''(.+?)'''''/g, '<i><b>$1</b></i>')
    .replace(/'''(.+?)'''/g, '<b>$1</b>')
    .replace(/''(.+?)''/g, '<i>$1</i>');
}

/** Sanitizer::removeHTMLtags for a title: allowed tags stay, every other '<' is escaped. */
function removeHtmlTags(text: string): string {
  return text.replace(/<(\/?)([A-Za-z][A-Za-z0-9]*)([^<>]*)>|</g, (all, close: string | undefined, name: string | undefined, attrs: string | undefined) => {
    if (name !== undefined && ALLOWED.has(name.toLowerCase())) return `<${close}${name.toLowerCase()}${close ? '' : attrs ?? ''}>`;
    return htmlspecialchars(all);
  });
}

export function displayTitleProp(raw: string, page: { ns: number; dbkey: string }, codec: TitleCodec): string | null {
  const text = removeHtmlTags(doQuotes(raw));
  const plain = decodeCharReferences(text.replace(/<[^<>]*>/g, ''));
  const t = codec.parse(plain, 0);
  if (t === null || t.fragment !== '' || t.ns !== page.ns || t.dbkey !== page.dbkey) return null;
  return text;
}
