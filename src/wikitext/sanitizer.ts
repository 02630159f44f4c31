/**
 * MediaWiki 1.25's Sanitizer, for HTML written in wikitext: which tags pass (the rest is escaped as
 * text), which attributes each keeps, CSS checked for script-bearing constructs, ids escaped, character
 * references normalised. Whatever a page says, the output holds no script element, no event handler
 * attribute and no URL attribute at all (wikitext may not write <a>, <img> or href= in HTML).
 */
import { decodeCharReferences } from '../wiki/titles.js';
import { htmlspecialchars } from '../wiki/html.js';
import { PROTOCOL_ALTERNATION_NO_REL } from '../wiki/external-urls.js';

const PAIRS_STATIC =
  'b bdi del i ins u font big small sub sup h1 h2 h3 h4 h5 h6 cite code em s strike strong tt var div center blockquote ol ul dl table caption pre ruby rb rp rt rtc p span abbr dfn kbd samp data time mark'.split(
    ' ',
  );
const SINGLE = 'br wbr hr li dt dd meta link'.split(' ');
const SINGLE_ONLY = new Set('br wbr hr meta link'.split(' '));
const NEST = new Set(
  'table tr td th div blockquote ol ul li dl dt dd font big small sub sup span var kbd samp em strong q ruby bdo'.split(' '),
);
const TABLE_TAGS = new Set(['td', 'th', 'tr']);
const _LIST_TAGS = new Set(['ul', 'ol']);
/** every tag a page may write (Sanitizer::removeHTMLtags' $htmlelements) */
export const ALLOWED_TAGS = new Set([...PAIRS_STATIC, ...SINGLE, 'tr', 'td', 'th', 'q', 'bdo']);
const PAIRS = new Set([...PAIRS_STATIC, ...SINGLE.filter((t) => !SINGLE_ONLY.has(t)), 'tr', 'td', 'th', 'q', 'bdo']);

const COMMON = [
  'id',
  'class',
  'style',
  'lang',
  'dir',
  'title',
  'aria-describedby',
  'aria-flowto',
  'aria-label',
  'aria-labelledby',
  'aria-owns',
  'role',
  'about',
  'property',
  'resource',
  'datatype',
  'typeof',
  'itemid',
  'itemprop',
  'itemref',
  'itemscope',
  'itemtype',
];
const BLOCK = [...COMMON, 'align'];
const TABLE_ALIGN = ['align', 'valign'];
const TABLE_CELL = ['abbr', 'axis', 'headers', 'scope', 'rowspan', 'colspan', 'nowrap', 'width', 'height', 'bgcolor'];

/** Sanitizer::setupAttributeWhitelist of 1.25 */
const WHITELIST: Record<string, Set<string>> = {};
function allow(tags: string, attrs: string[]): void {
  for (const t of tags.split(' ')) WHITELIST[t] = new Set(attrs);
}
allow('div center h1 h2 h3 h4 h5 h6 p pre', BLOCK);
allow('span bdi abbr dfn kbd samp var code tt b i u s strike strong em small big sub sup ruby rb rp rt rtc mark', COMMON);
allow('blockquote q', [...COMMON, 'cite']);
allow('ins del', [...COMMON, 'cite', 'datetime']);
allow('bdo', COMMON);
allow('br', ['id', 'class', 'title', 'style', 'clear']);
allow('cite', COMMON);
allow('ul', [...COMMON, 'type']);
allow('ol', [...COMMON, 'type', 'start']);
allow('li', [...COMMON, 'type', 'value']);
allow('dl dt dd', COMMON);
allow('table', [...COMMON, 'summary', 'width', 'border', 'frame', 'rules', 'cellspacing', 'cellpadding', 'align', 'bgcolor']);
allow('caption', BLOCK);
allow('thead tfoot tbody', [...COMMON, ...TABLE_ALIGN]);
allow('colgroup col', [...COMMON, 'span', ...TABLE_ALIGN]);
allow('tr', [...COMMON, 'bgcolor', ...TABLE_ALIGN]);
allow('td th', [...COMMON, ...TABLE_CELL, ...TABLE_ALIGN]);
allow('img', [...COMMON, 'alt', 'src', 'width', 'height']);
allow('font', [...COMMON, 'size', 'color', 'face']);
allow('hr', [...COMMON, 'width']);
allow('data', [...COMMON, 'value']);
allow('time', [...COMMON, 'datetime']);
allow('meta', ['itemprop', 'content']);
allow('link', ['itemprop', 'href']);

const EVIL_URI = /(^|\s|\*\/\s*)(javascript|vbscript)([^\w]|$)/i;
const INSECURE_CSS =
  /(?:expression|filter\s*:|accelerator\s*:|-o-link\s*:|-o-link-source\s*:|-o-replace\s*:|url\s*\(|image\s*\(|image-set\s*\()/i;

/** Sanitizer::checkCss: the style value, or a comment in its place when it could load or run anything. */
export function checkCss(value: string): string {
  let v = decodeCharReferences(value);
  // CSS escapes (\6a, \:) decoded, comments removed: "ex/**/pression" and "\65xpression" are caught
  v = v.replace(/\\([0-9A-Fa-f]{1,6})[ \n\r\t\f]?/g, (_m, hex: string) => {
    const cp = parseInt(hex, 16);
    return cp > 0 && cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff) ? String.fromCodePoint(cp) : '\ufffd';
  });
  v = v.replace(/\\(.)/gs, '$1');
  v = v.replace(/[\u0000-\u0008\u000b\u000e-\u001f\u007f]/g, '\ufffd');
  const commented = v.indexOf('/*');
  if (commented >= 0) {
    const end = v.indexOf('*/', commented + 2);
    if (end < 0) v = v.slice(0, commented);
    v = v.replace(/\/\*[\s\S]*?\*\//g, ' ');
  }
  // full-width and other look-alike letters folded (Sanitizer's IPA/fullwidth normalisation)
  const folded = v.normalize('NFKC').replace(/[ʀɴ]/g, (c) => (c === 'ʀ' ? 'r' : 'n'));
  if (INSECURE_CSS.test(folded) || INSECURE_CSS.test(v)) return '/* insecure input */';
  return v;
}

/** Sanitizer::escapeId (legacy, 1.25 default): "Історія" → ".D0.86.D1.81…", spaces → underscores. */
export function escapeId(id: string, noninitial = false): string {
  let s = encodeURIComponent(id.replace(/ /g, '_')).replace(/[!'()*~]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  // PHP urlencode leaves "-_." and alphanumerics; JS leaves also "!'()*~" (escaped above)
  s = s.replace(/%3A/g, ':').replace(/%/g, '.');
  if (!noninitial && !/^[a-zA-Z]/.test(s)) s = 'x' + s;
  return s;
}

const ATTR_RE = /([^\s/>=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([a-zA-Z0-9!#$%&()*,\-./:;<>?@[\]^_`{|}~]+)|(?=\s)))?/g;

/** Sanitizer::decodeTagAttributes: name → value (names lower-cased, values' character references decoded). */
export function decodeTagAttributes(text: string): Map<string, string> {
  const out = new Map<string, string>();
  if (text.trim() === '') return out;
  const clean = text.replace(/[\u0000-\u0008\u000b\u000e-\u001f]/g, ' ');
  for (const m of clean.matchAll(ATTR_RE)) {
    const name = m[1].toLowerCase();
    if (!/^[:A-Z_a-z0-9][:A-Z_a-z-.0-9]*$/.test(name)) continue;
    const raw = m[2] ?? m[3] ?? m[4] ?? '';
    out.set(name, decodeCharReferences(raw.replace(/[\t\r\n]/g, ' ')));
  }
  return out;
}

const URL_PROTOCOLS_RE = new RegExp(`\\b(${PROTOCOL_ALTERNATION_NO_REL})`, 'gi');

/** Sanitizer::encodeAttribute */
export function encodeAttribute(v: string): string {
  return htmlspecialchars(v, 'both').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

/** Sanitizer::safeEncodeAttribute: also hides what later wikitext passes would read as markup. */
export function safeEncodeAttribute(v: string): string {
  let e = encodeAttribute(v);
  e = e
    .replace(/[{}[\]|]/g, (c) => `&#${c.charCodeAt(0)};`)
    .replace(/''/g, '&#39;&#39;')
    .replace(/__/g, '&#95;_')
    .replace(/ISBN/g, '&#73;SBN')
    .replace(/RFC/g, '&#82;FC')
    .replace(/PMID/g, '&#80;MID')
    .replace(/~~~/g, '&#126;~~');
  return e.replace(URL_PROTOCOLS_RE, (p) => p.replace(':', '&#58;'));
}

/** Sanitizer::validateAttributes: what of these attributes a tag keeps. */
export function validateAttributes(attrs: Map<string, string>, element: string): Map<string, string> {
  const wl = WHITELIST[element] ?? new Set<string>();
  const out = new Map<string, string>();
  for (const [name, value0] of attrs) {
    let value = value0;
    if (!wl.has(name) && !/^data-[^:]*$/i.test(name)) continue;
    if (name.startsWith('on')) continue;
    if (name === 'style') value = checkCss(value);
    if (name === 'id') value = escapeId(value, true);
    if (
      ['rel', 'rev', 'about', 'property', 'resource', 'datatype', 'typeof', 'itemid', 'itemprop', 'itemref', 'itemtype'].includes(name) &&
      EVIL_URI.test(value)
    )
      continue;
    if (name === 'href' || name === 'src') {
      if (!/^(?:https?:|ftps?:|mailto:|\/\/)/i.test(value)) continue;
    }
    if (/^data-/i.test(name) && EVIL_URI.test(value)) continue;
    out.set(name, value);
  }
  if (out.has('itemscope') === false) {
    out.delete('itemtype');
    out.delete('itemid');
  }
  return out;
}

/** Sanitizer::fixTagAttributes: the attribute text of an allowed tag, " a=\"v\"…", or ''. */
export function fixTagAttributes(text: string, element: string, adjust?: (attrs: Map<string, string>) => void): string {
  if (text.trim() === '') return '';
  const decoded = decodeTagAttributes(text);
  adjust?.(decoded);
  const attrs = validateAttributes(decoded, element);
  let out = '';
  for (const [k, v] of attrs) out += ` ${k}="${safeEncodeAttribute(v)}"`;
  return out;
}

/**
 * Sanitizer::removeHTMLtags: tags that are allowed keep their sanitised attributes and are balanced
 * (a stray close tag is escaped, unclosed ones are closed at the end); every other "<" is text.
 */
export interface RemoveHtmlOptions {
  /** allowed tags this caller refuses too (DISPLAYTITLE's block tags: Sanitizer's $removetags) */
  removeTags?: ReadonlySet<string>;
  /** sees (and may change) the decoded attributes of each opening tag before they are validated */
  adjustAttributes?: (attrs: Map<string, string>) => void;
}

export function removeHtmlTags(text: string, o: RemoveHtmlOptions = {}): string {
  // comments left after preprocessing come from parser functions' output (SMW's printers write some)
  const parts = removeHtmlComments(text).split('<');
  let out = parts[0].replace(/>/g, '&gt;');
  const stack: string[] = [];
  const tagRe = /^(\/?)([\w-]+)([^<>]*?)(\/?>)([\s\S]*)$/;
  for (let i = 1; i < parts.length; i++) {
    const x = parts[i];
    const m = tagRe.exec(x);
    let ok = false;
    if (m) {
      const slash = m[1];
      const t = m[2].toLowerCase();
      const params = m[3];
      const brace = m[4];
      const rest = m[5];
      if (ALLOWED_TAGS.has(t) && !o.removeTags?.has(t)) {
        let badtag = false;
        const close = slash === '/';
        let selfClose = brace === '/>';
        let newparams = '';
        if (close) {
          if (SINGLE_ONLY.has(t)) badtag = true;
          else if (stack.length === 0 || stack[stack.length - 1] !== t) {
            // close an open one further down only when everything above may be left open (optional ends)
            const at = stack.lastIndexOf(t);
            if (at >= 0 && stack.slice(at + 1).every((o) => SINGLE.includes(o) || TABLE_TAGS.has(o))) {
              stack.length = at;
            } else badtag = true;
          } else stack.pop();
        } else {
          // <meta> and <link> only carry microdata (1.25: without itemprop they are no tags)
          if ((t === 'meta' || t === 'link') && !decodeTagAttributes(params).has('itemprop')) badtag = true;
          else if (SINGLE_ONLY.has(t)) selfClose = true;
          else if (TABLE_TAGS.has(t) && !stack.includes('table')) badtag = true;
          else if (stack.includes(t) && !NEST.has(t)) badtag = true;
          // a self-closed pair tag (<span/>) is no tag at all (bug 5487)
          else if (selfClose && PAIRS.has(t)) badtag = true;
          else if (!selfClose) stack.push(t);
          newparams = fixTagAttributes(params, t, o.adjustAttributes);
        }
        if (!badtag) {
          out += close ? `</${t}>` : `<${t}${newparams}${selfClose ? ' /' : ''}>`;
          out += rest.replace(/>/g, '&gt;');
          ok = true;
        }
      }
    }
    if (!ok) out += '&lt;' + x.replace(/>/g, '&gt;');
  }
  while (stack.length) out += `</${stack.pop()}>`;
  return out;
}

/**
 * Sanitizer::removeHTMLcomments: each terminated comment goes; when it stands between two newlines
 * (spaces aside), its line goes with it.
 */
export function removeHtmlComments(text: string): string {
  let out = text;
  let start: number;
  while ((start = out.indexOf('<!--')) !== -1) {
    let end = out.indexOf('-->', start + 4);
    if (end === -1) break;
    end += 3;
    let spaceStart = Math.max(start - 1, 0);
    let spaceLen = end - spaceStart;
    while (out[spaceStart] === ' ' && spaceStart > 0) {
      spaceStart--;
      spaceLen++;
    }
    while (out[spaceStart + spaceLen] === ' ') spaceLen++;
    if (out[spaceStart] === '\n' && out[spaceStart + spaceLen] === '\n') {
      out = out.slice(0, spaceStart) + '\n' + out.slice(spaceStart + spaceLen + 1);
    } else out = out.slice(0, start) + out.slice(end);
  }
  return out;
}

/** Sanitizer::normalizeCharReferences: a "&" that begins no valid reference becomes "&amp;". */
export function normalizeCharReferences(text: string): string {
  return text.replace(/&([A-Za-z0-9\x80-\uffff]+;|#[0-9]+;|#[xX][0-9A-Fa-f]+;)?/g, (m, ref?: string) => {
    if (ref === undefined) return '&amp;';
    if (ref.startsWith('#')) {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      const valid =
        cp === 9 ||
        cp === 0xa ||
        cp === 0xd ||
        (cp >= 0x20 && cp <= 0xd7ff) ||
        (cp >= 0xe000 && cp <= 0xfffd) ||
        (cp >= 0x10000 && cp <= 0x10ffff);
      if (!valid) return '&amp;' + ref;
      return ref[1] === 'x' || ref[1] === 'X' ? `&#x${ref.slice(2)}` : `&#${cp};`;
    }
    // Sanitizer::normalizeEntity: &lt; &gt; &amp; &quot; stay, other known names become numeric references
    if (['amp;', 'lt;', 'gt;', 'quot;'].includes(ref)) return m;
    const ch = decodeCharReferences(m);
    return ch !== m ? `&#${ch.codePointAt(0)};` : '&amp;' + ref;
  });
}

/** htmlspecialchars with ENT_NOQUOTES off: text and attribute values MediaWiki builds itself. */
export function escapeHtml(s: string): string {
  return htmlspecialchars(s);
}
