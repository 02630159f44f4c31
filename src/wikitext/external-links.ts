/**
 * External links of a page's text, as MediaWiki 1.25's parser registers them (ParserOutput::addExternalLink):
 * bracketed links `[URL label]` (Parser::replaceExternalLinks, protocol-relative URLs included) and free
 * URLs in running text (Parser::doMagicLinks, not protocol-relative), each cleaned (Sanitizer::cleanUrl)
 * and with harmless %-escapes undone (Parser::replaceUnusualEscapes). Free URLs inside internal link
 * labels and HTML tags are not links (MediaWiki has replaced those by then); image `link=` URLs are
 * added by the link scanner.
 *
 * Every regex here is a single left-to-right pass without nested quantifiers: linear in the text.
 */
import { PROTOCOL_ALTERNATION, PROTOCOL_ALTERNATION_NO_REL, cleanUrl, replaceUnusualEscapes } from '../wiki/external-urls.js';

const URL_CHAR = '[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}]';
const EXT_LINK_ADDR = '(?:[0-9.]+|\\[(?:[0-9a-fA-F:.]+)\\]|[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}])';
// Parser::mExtLinkBracketedRegex, in two steps: the URL at a '[' (sticky), then the label up to the next
// ']' -- found with a remembered search, so that a line of unclosed "[http://…" stays linear
const BRACKET_URL = new RegExp(`\\[((?:${PROTOCOL_ALTERNATION})${EXT_LINK_ADDR}${URL_CHAR}*)\\p{Zs}*`, 'iuy');
const LABEL_STOP = /[\]\x00-\x08\x0a-\x1f]/g;
const FREE = new RegExp(`(?<![\\p{L}\\p{N}_])(?:${PROTOCOL_ALTERNATION_NO_REL})${URL_CHAR}+`, 'giu');
// innermost [[…]] (link labels hide their text from the free-URL scan) and HTML tags
const INTERNAL_OR_TAG = /\[\[[^[\]]*\]\]|<[^<>]*>/g;

export function externalLinks(text: string): string[] {
  const out = new Set<string>();
  if (!text.includes(':')) return [];
  let rest = '';
  let last = 0;
  let stopFrom = -1;
  let stopAt = -1;
  for (let i = text.indexOf('['); i >= 0; ) {
    BRACKET_URL.lastIndex = i;
    const m = BRACKET_URL.exec(text);
    if (m) {
      const from = BRACKET_URL.lastIndex;
      if (!(stopFrom >= 0 && stopFrom <= from && (stopAt < 0 || stopAt >= from))) {
        LABEL_STOP.lastIndex = from;
        const stop = LABEL_STOP.exec(text);
        stopFrom = from;
        stopAt = stop ? stop.index : -1;
      }
      if (stopAt >= 0 && text[stopAt] === ']') {
        out.add(registered(cutAtEscapedBrackets(m[1])));
        rest += text.slice(last, i) + ' ';
        last = stopAt + 1;
        i = text.indexOf('[', last);
        continue;
      }
    }
    i = text.indexOf('[', i + 1);
  }
  rest += text.slice(last);
  for (const m of rest.replace(INTERNAL_OR_TAG, ' ').matchAll(FREE)) {
    const { url } = splitFreeUrl(m[0]);
    if (url !== '') out.add(registered(url));
  }
  return [...out];
}

function registered(url: string): string {
  return replaceUnusualEscapes(cleanUrl(url));
}

/** '&lt;'/'&gt;' end a URL (they were '<'/'>' in the source, RFC 2396) */
function cutAtEscapedBrackets(url: string): string {
  const m = /&(lt|gt);/.exec(url);
  return m ? url.slice(0, m.index) : url;
}

/**
 * Parser::makeFreeExternalLink: where a free URL ends -- '&lt;'/'&gt;' end it, and trailing punctuation
 * is not part of it (')' only when the URL has no '('). The URL and the text after it.
 */
export function splitFreeUrl(raw: string): { url: string; trail: string } {
  const url = cutAtEscapedBrackets(raw);
  const sep = url.includes('(') ? ',;.:!?' : ',;.:!?)';
  let n = url.length;
  while (n > 0 && sep.includes(url[n - 1])) n--;
  return { url: url.slice(0, n), trail: raw.slice(n) };
}
