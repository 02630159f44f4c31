/**
 * Parser::replaceExternalLinks and doMagicLinks of MediaWiki 1.25: [url text], numbered [url], bare
 * URLs (class "external text|autonumber|free", rel="nofollow"), and the magic links RFC n, PMID n and
 * ISBN n (1.25: a word boundary on both sides, no newline inside, &nbsp; and other spaces allowed).
 */
import { PROTOCOL_ALTERNATION, PROTOCOL_ALTERNATION_NO_REL, cleanUrl } from '../../wiki/external-urls.js';
import { escapeHtml } from '../sanitizer.js';
import { splitFreeUrl } from '../external-links.js';
import type { RenderOutput } from './env.js';

const URL_CHAR = '[^\\][<>"\\x00-\\x20\\x7F\\p{Zs}]';
const PROTOCOL_AT = new RegExp(`(?:${PROTOCOL_ALTERNATION})`, 'iy');
const URL_CHAR_RE = new RegExp(URL_CHAR, 'u');
// Parser::EXT_LINK_ADDR's bracketed IPv6 host, which may open the address of a bracketed link
const IPV6_HOST_AT = /\[[0-9a-fA-F:.]+\]/y;
const ZS_RE = /\p{Zs}/u;
// Parser::SPACE_NOT_NL: a tab, a no-break space written as an entity, or any Unicode space separator
const SPACE = '(?:\\t|&nbsp;|&#0*160;|&#[Xx]0*[Aa]0;|\\p{Zs})';
const SPACE_RE = new RegExp(SPACE, 'gu');
const SPDASH = `(?:-|${SPACE})`;
// the protocols are case-insensitive, RFC, PMID and ISBN are not ((?i:…) in 1.25's pattern)
const FREE = new RegExp(
  `(<a[ \\t\\r\\n>][\\s\\S]*?<\\/a>)|(<[\\s\\S]*?>)|(\\b(?:${PROTOCOL_ALTERNATION_NO_REL.replace(/[a-z]/g, (c) => `[${c}${c.toUpperCase()}]`)})${URL_CHAR}+)` +
    `|\\b(?:RFC|PMID)${SPACE}+([0-9]+)\\b|\\bISBN${SPACE}+((?:97[89]${SPDASH}?)?(?:[0-9]${SPDASH}?){9}[0-9Xx])\\b`,
  'gu',
);

/** what the magic links point at: the content language's rfcurl/pubmedurl messages, Special:BookSources */
export interface MagicLinkTargets {
  /** "$1" = the number */
  rfcurl: string;
  pubmedurl: string;
  /** the local URL of Special:BookSources/<isbn> */
  bookSources(isbn: string): string;
}
const LINK_TRAIL = /^([a-zабвгґдеєжзиіїйклмнопрстуфхцчшщьюяʼ’“»]+)([\s\S]*)$/u;

function makeExternalLink(url: string, text: string, type: string): string {
  return `<a rel="nofollow" class="external ${type}" href="${escapeHtml(url)}">${text}</a>`;
}

export class ExternalLinkPass {
  private autonumber = 0;
  constructor(
    private readonly out: RenderOutput,
    private readonly magic?: MagicLinkTargets,
  ) {}

  /**
   * The bracketed links: what mExtLinkBracketedRegex matches ("[" protocol URL-characters, spaces, a text
   * without "]", newlines or control characters, "]"), found by a scan instead of the regex, whose lazy
   * text part would rescan the rest of the line from every "[" that has no "]" (quadratic on long lines).
   */
  replaceExternalLinks(text: string): string {
    if (!text.includes('[')) return text;
    // for every position: where the text part of a link starting there would have to stop
    const n = text.length;
    const stop = new Int32Array(n + 1);
    stop[n] = n;
    for (let i = n - 1; i >= 0; i--) {
      const c = text.charCodeAt(i);
      stop[i] = c === 0x5d || (c <= 0x1f && c !== 0x09) ? i : stop[i + 1];
    }
    const out: string[] = [];
    let last = 0;
    let pending: { url: string; label: string; type: string; at: number; end: number } | null = null;
    const flush = (upTo: number) => {
      if (!pending) return;
      let trail = text.slice(pending.end, upTo);
      let dtrail = '';
      if (pending.type !== 'autonumber') {
        const t = LINK_TRAIL.exec(trail);
        if (t) {
          dtrail = t[1];
          trail = t[2];
        }
      }
      const clean = cleanUrl(pending.url);
      out.push(makeExternalLink(clean, pending.label, pending.type) + dtrail + trail);
      this.out.externalLinks.push(clean);
      pending = null;
    };
    let i = text.indexOf('[');
    while (i >= 0) {
      PROTOCOL_AT.lastIndex = i + 1;
      const pm = PROTOCOL_AT.exec(text);
      if (pm) {
        let j = i + 1 + pm[0].length;
        IPV6_HOST_AT.lastIndex = j;
        if (IPV6_HOST_AT.test(text)) j = IPV6_HOST_AT.lastIndex;
        while (j < n && URL_CHAR_RE.test(text[j])) j++;
        if (j > i + 1 + pm[0].length) {
          let k = j;
          while (k < n && ZS_RE.test(text[k])) k++;
          const close = stop[k];
          if (close < n && text.charCodeAt(close) === 0x5d) {
            if (pending) flush(i);
            else out.push(text.slice(last, i));
            let url = text.slice(i + 1, j);
            let label = text.slice(k, close);
            const lt = /&(lt|gt);/.exec(url);
            if (lt) {
              label = url.slice(lt.index) + ' ' + label;
              url = url.slice(0, lt.index);
            }
            let type = label === url ? 'free' : 'text';
            if (label === '') {
              label = `[${++this.autonumber}]`;
              type = 'autonumber';
            }
            pending = { url, label, type, at: i, end: close + 1 };
            last = close + 1;
            i = text.indexOf('[', close + 1);
            continue;
          }
        }
      }
      i = text.indexOf('[', i + 1);
    }
    if (pending) flush(n);
    else out.push(text.slice(last));
    return out.join('');
  }

  doMagicLinks(text: string): string {
    return text.replace(FREE, (m0, a?: string, tag?: string, url?: string, num?: string, isbn?: string) => {
      if (a || tag) return m0;
      if (num) {
        if (!this.magic) return m0;
        // Linker::makeExternalLink: no rel, not an external link of the page
        const rfc = m0.startsWith('RFC');
        const href = (rfc ? this.magic.rfcurl : this.magic.pubmedurl).replace(/\$1/g, num);
        return `<a class="external mw-magiclink-${rfc ? 'rfc' : 'pmid'}" href="${escapeHtml(href)}">${rfc ? 'RFC' : 'PMID'} ${num}</a>`;
      }
      if (isbn) {
        if (!this.magic) return m0;
        const shown = isbn.replace(SPACE_RE, ' ');
        const digits = shown.replace(/[- ]/g, '').replace(/x/g, 'X');
        return `<a href="${escapeHtml(this.magic.bookSources(digits))}" class="internal mw-magiclink-isbn">ISBN ${shown}</a>`;
      }
      if (!url) return m0;
      const { url: u, trail } = splitFreeUrl(url);
      // Parser::makeFreeExternalLink: the text shown is the cleaned URL too, escaped
      const clean = cleanUrl(u);
      this.out.externalLinks.push(clean);
      return makeExternalLink(clean, escapeHtml(clean), 'free') + trail;
    });
  }
}
