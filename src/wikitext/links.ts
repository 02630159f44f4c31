/**
 * Links of a page's (expanded) wikitext, as MediaWiki 1.25's Parser::replaceInternalLinks2 records them
 * in its ParserOutput: page links, file links, category links with their sort key prefix,
 * interlanguage links, and the double-underscore page properties.
 *
 * The text is cut at every "[[" (as MediaWiki does, so a plain link's label can never contain "[[");
 * each piece is matched against "target]]" / "target|label]]". A file link's caption may hold further
 * links: the piece then only reads "target|caption…" and the following pieces must close it (the
 * lookahead of the original); the caption's own links are simply the following pieces.
 *
 * Not page links: [[P::V]] (Semantic MediaWiki annotations, handled by the semantic importer),
 * [[:en:X]] / [[wikipedia:X]] (interwiki links, recorded apart), [[Спеціальна:X]], self-links without a
 * fragment. An image's `link=`/`посилання=` option links its target (a page, or a URL: an external link).
 */
import { decodeCharReferences, type TitleCodec } from '../wiki/titles.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA, NS_SPECIAL } from '../wiki/namespaces.js';
import { stripForLinks } from './strip.js';
import { DOUBLE_UNDERSCORE_RE, doubleUnderscoreProp } from './magic-words.js';
import { externalLinks } from './external-links.js';
import { defaultInterwikiMap, type InterwikiMap } from '../wiki/interwiki.js';
import { PROTOCOL_ALTERNATION, cleanUrl, replaceUnusualEscapes } from '../wiki/external-urls.js';

export { LANGUAGE_CODES } from '../wiki/language-codes.js';

// Title::legalChars() plus '#' and '%', as the link regexes of the parser use them.
const TC = ' %!"$&\'()*,\\-./0-9:;=?@A-Z\\\\^_`a-z~\\u0080-\\uffff+#';
const E1 = new RegExp(`^([${TC}]+)(?:\\|([\\s\\S]+?))?]]`);
const E1_IMG = new RegExp(`^([${TC}]+)\\|([\\s\\S]*)$`);
// wfUrlProtocols() of 1.25: a link target starting with one of these is no internal link
const URL_PROTOCOL = new RegExp(`^(?:${PROTOCOL_ALTERNATION})`, 'i');
const PREFIX = /^[ _]*([A-Za-z][A-Za-z0-9-]*)[ _]*:(.*)$/s;

export interface LinkContext {
  codec: TitleCodec;
  /** the page whose text this is */
  ns: number;
  dbkey: string;
  /** the page's DEFAULTSORT: the sort key prefix of category links without one */
  defaultSort?: string;
  /** the interwiki map (default: data/interwiki.list) */
  interwiki?: InterwikiMap;
}

export interface PageLinks {
  /** page links, keyed `${ns}|${dbkey}` */
  pages: Map<string, { ns: number; dbkey: string }>;
  /** file names (DB keys) used by [[Файл:…]], [[Медіа:…]] and <gallery> */
  files: Set<string>;
  /** the subset embedded with [[Файл:…]] (MediaWiki tracks those that do not exist as broken) */
  embeddedFiles: Set<string>;
  /** category DB key → sort key prefix ('' when none); a later link to the same category wins */
  categories: Map<string, string>;
  /** language code → title text (the first link per language wins) */
  langs: Map<string, string>;
  /** page properties from double-underscore switches → value ('' as MediaWiki stores them) */
  props: Map<string, string>;
  /** interwiki links: `${prefix}|${dbkey}` → prefix and title (DB key, as written: no capitalisation) */
  interwikis: Map<string, { prefix: string; title: string }>;
  /** external URLs, each once, as el_to stores them */
  external: Set<string>;
}

/** PHP rawurldecode for link targets: %XX → bytes, read as UTF-8 (left as is when that is no UTF-8). */
export function rawUrlDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/%(?![0-9A-Fa-f]{2})/g, '%25'));
  } catch {
    return s;
  }
}

export function extractLinks(text: string, ctx: LinkContext): PageLinks {
  const result: PageLinks = {
    pages: new Map(),
    files: new Set(),
    embeddedFiles: new Set(),
    categories: new Map(),
    langs: new Map(),
    props: new Map(),
    interwikis: new Map(),
    external: new Set(),
  };
  const stripped = stripForLinks(text);
  scanLinks(stripped.text, ctx, result);
  for (const url of externalLinks(stripped.text)) result.external.add(url);
  for (const body of stripped.galleries) galleryLinks(body, ctx, result);
  doubleUnderscores(stripped.text, result);
  return result;
}

function scanLinks(text: string, ctx: LinkContext, out: PageLinks): void {
  if (!text.includes('[[')) return;
  const pieces = text.split('[[');
  let closes: boolean[] | undefined;
  for (let i = 1; i < pieces.length; i++) {
    const line = pieces[i];
    let m = E1.exec(line);
    let mightBeImage = false;
    if (!m) {
      m = E1_IMG.exec(line);
      if (!m) continue;
      mightBeImage = true;
    }
    let target = m[1];
    const label = m[2] ?? '';
    if (target.includes('%')) target = rawUrlDecode(target);
    if (URL_PROTOCOL.test(target)) continue;
    if (target.includes('::')) continue; // [[Property::value]]
    target = subpageTarget(target, ctx);
    const forced = target.startsWith(':');
    const link = forced ? target.slice(1) : target;

    const pm = PREFIX.exec(link);
    if (pm && ctx.codec.nsIdFromPrefix(pm[1]) === undefined) {
      const interwiki = ctx.interwiki ?? defaultInterwikiMap();
      const prefix = pm[1].toLowerCase();
      if (interwiki.get(prefix)) {
        // an interlanguage link, unless escaped with ':' or on a talk page (then it is an interwiki link)
        if (!forced && !mightBeImage && ctx.ns % 2 === 0 && interwiki.isLanguage(prefix)) {
          if (!out.langs.has(prefix)) out.langs.set(prefix, pm[2].replace(/[ _]+/g, ' ').trim());
          continue;
        }
        const title = interwikiTitle(pm[2]);
        if (title !== null) out.interwikis.set(`${prefix}|${title}`, { prefix, title });
        continue;
      }
    }

    const t = ctx.codec.parse(link, 0);
    if (t === null) continue;
    if (mightBeImage && !(t.ns === NS_FILE && !forced && (closes ??= imageCloses(pieces))[i])) continue;

    if (!forced && t.ns === NS_FILE) {
      out.files.add(t.dbkey);
      out.embeddedFiles.add(t.dbkey);
      imageLinkOption(label, ctx, out);
      continue;
    }
    if (!forced && t.ns === NS_CATEGORY) {
      const sortKey = label === '' ? (ctx.defaultSort ?? '') : label;
      out.categories.set(t.dbkey, decodeCharReferences(sortKey).replace(/\n/g, ''));
      continue;
    }
    if (t.ns === NS_MEDIA) {
      out.files.add(t.dbkey);
      continue;
    }
    if (t.ns === NS_SPECIAL) continue;
    if (t.fragment === '' && t.ns === ctx.ns && t.dbkey === ctx.dbkey) continue; // self-link
    out.pages.set(`${t.ns}|${t.dbkey}`, { ns: t.ns, dbkey: t.dbkey });
  }
}

/**
 * MediaWikiTitleCodec::splitTitle after an interwiki prefix: the rest is the title on the other wiki,
 * whitespace folded to '_', a leading ':' dropped, the fragment cut off; no capitalisation. Null for
 * text MediaWiki refuses as a title.
 */
function interwikiTitle(rest: string): string | null {
  let t = decodeCharReferences(rest)
    .replace(/[ _\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (t.startsWith(':')) t = t.slice(1).replace(/^_+/, '');
  const hash = t.indexOf('#');
  if (hash >= 0) t = t.slice(0, hash).replace(/_+$/, '');
  if (/[\u0000-\u001f<>[\]|{}\u007f\ufffd]/.test(t)) return null;
  return t;
}

// img_link of MessagesUk.php (case-sensitive, like every image option)
const IMAGE_LINK = /^(?:посилання|link)=([\s\S]*)$/;
const URL_ONLY = /^[^\][<>"\x00-\x20\x7F\p{Zs}]+$/u;

/**
 * Parser::makeImage's `link=` option: a page title becomes a page link (ParserOutput::addLink, which
 * records self-links too), a URL an external link; an empty value only unlinks the image. The options
 * are the '|'-separated parts of the image's text up to its caption's first nested link.
 */
function imageLinkOption(label: string, ctx: LinkContext, out: PageLinks): void {
  if (!label.includes('=')) return;
  for (const raw of label.split('|')) {
    const m = IMAGE_LINK.exec(raw.trim());
    if (!m) continue;
    const value = m[1];
    if (value === '') continue;
    if (URL_PROTOCOL.test(value)) {
      if (URL_ONLY.test(value)) out.external.add(replaceUnusualEscapes(cleanUrl(value)));
      continue;
    }
    const pm = PREFIX.exec(value);
    if (pm && ctx.codec.nsIdFromPrefix(pm[1]) === undefined && (ctx.interwiki ?? defaultInterwikiMap()).get(pm[1])) continue;
    const t = ctx.codec.parse(value, 0);
    if (t === null || t.ns === NS_SPECIAL || t.dbkey === '') continue;
    const ns = t.ns === NS_MEDIA ? NS_FILE : t.ns;
    out.pages.set(`${ns}|${t.dbkey}`, { ns, dbkey: t.dbkey });
  }
}

/**
 * The parser's lookahead for "[[File:X|caption with [[links]] …]]", for every piece at once: following
 * pieces with exactly one "]]" belong to the caption; one with two closes the image; one with none means
 * the image never closes. Worked out backwards in one pass (a page of "[[Файл:A.png|[[B]]" repeated
 * would otherwise look ahead to its end from every piece).
 */
function imageCloses(pieces: string[]): boolean[] {
  const out = new Array<boolean>(pieces.length).fill(false);
  // whether the pieces after j close an image opened before them
  let after = false;
  for (let j = pieces.length - 1; j >= 1; j--) {
    out[j] = after;
    const first = pieces[j].indexOf(']]');
    if (first < 0) after = false;
    else if (pieces[j].indexOf(']]', first + 2) >= 0) after = true;
  }
  return out;
}

/**
 * Parser::maybeDoSubpageLink (Linker::normalizeSubpageLink): "/Sub" and "../Sibling" relative to the
 * page, in namespaces with subpages; trailing slashes only hide the path in the label.
 */
function subpageTarget(target: string, ctx: LinkContext): string {
  if (!(target.startsWith('/') || target.startsWith('../'))) return target;
  if (!ctx.codec.namespaces.get(ctx.ns)?.subpages) return target;
  const base = ctx.codec.prefixedText(ctx.ns, ctx.dbkey);
  if (target.startsWith('/')) return base + '/' + target.slice(1).replace(/\/+$/, '').trim();
  const pieces = target.split('../');
  const up = pieces.length - 1;
  const parts = base.split('/');
  if (parts.length <= up) return target; // above the root page: the text stays a plain title
  const rest = pieces[pieces.length - 1].replace(/\/+$/, '').trim();
  const ret = parts.slice(0, -up).join('/');
  return rest === '' ? ret : ret + '/' + rest;
}

/** <gallery> lines: "Файл:A.png|caption" or "A.png|caption"; captions are wikitext with links. */
function galleryLinks(body: string, ctx: LinkContext, out: PageLinks): void {
  for (const line of body.split('\n')) {
    const m = /^([^|]+)(?:\|([\s\S]*))?$/.exec(line);
    if (!m) continue;
    const name = m[1].includes('%') ? rawUrlDecode(m[1]) : m[1];
    const t = ctx.codec.parse(name, NS_FILE);
    if (t !== null && t.ns === NS_FILE) {
      out.files.add(t.dbkey);
      // TraditionalImageGallery tracks a missing file as broken, as [[Файл:…]] does
      out.embeddedFiles.add(t.dbkey);
    }
    if (m[2]) scanLinks(m[2], ctx, out);
  }
}

function doubleUnderscores(text: string, out: PageLinks): void {
  if (!text.includes('__')) return;
  for (const m of text.matchAll(DOUBLE_UNDERSCORE_RE)) {
    const prop = doubleUnderscoreProp(m[0]);
    if (prop !== undefined) out.props.set(prop, '');
  }
}
