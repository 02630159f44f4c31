/**
 * Text for full-text search: wikitext with its markup stripped (what a reader sees of the source, as
 * MediaWiki's SearchUpdate indexes it), and the folding that makes a word and its spelling variants one
 * search token.
 *
 * Folding (`foldForSearch`) is done here, in JS, before indexing and before querying, because SQLite
 * FTS5's unicode61 tokenizer cannot do it exactly for Ukrainian:
 *  - its `remove_diacritics` strips every mark, so й/и, ї/і, ў/у and ё/е would merge; they are different
 *    letters (ё/е are kept apart in Ukrainian and Russian titles), while Latin é/e or a stress mark on
 *    a Cyrillic vowel (мі́сто) should fold;
 *  - it treats ' (U+0027) and ’ (U+2019) as separators and ʼ (U+02BC) as a letter, so пам'ять, пам’ять
 *    and памʼять would be three different token sequences. Inside a word all four apostrophes (' ’ ʼ ‘)
 *    become U+02BC here; at a word's edge they stay quotes (separators).
 * The folded text holds only letters, digits and single spaces, so any tokenizer that splits on ASCII
 * spaces (FTS5's `ascii`, PostgreSQL's `simple`) sees exactly the tokens `searchTokens` sees in JS.
 */
import { htmlspecialchars } from './html.js';
import { decodeCharReferences, type TitleCodec } from './titles.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA } from './namespaces.js';

/** Cyrillic letters whose diacritic makes another letter: kept as they are. */
const KEEP = new Set(['й', 'Й', 'ї', 'Ї', 'ё', 'Ё', 'ў', 'Ў']);
/**
 * Latin letters with diacritics and the Cyrillic ones outside the Ukrainian and Russian alphabets
 * (ѐ, ѓ, ќ, ӑ, …): exactly the characters of these blocks that decompose, so that the common letters
 * (і, є, ї) never take the slow path.
 */
const DIACRITIC_LETTERS = (() => {
  let cls = '';
  for (const [a, b] of [
    [0xc0, 0x24f],
    [0x1e00, 0x1eff],
    [0x400, 0x4ff],
  ]) {
    for (let cp = a; cp <= b; cp++) {
      const c = String.fromCodePoint(cp);
      if (c.normalize('NFD') !== c && !KEEP.has(c)) cls += c;
    }
  }
  return new RegExp(`[${cls}]`, 'g');
})();
const MARKS = /\p{M}/gu;
const HAS_MARK = /\p{M}/u;
const APOSTROPHES = /['’ʼ‘]/;
const APOSTROPHE_IN_WORD = /(?<=[\p{L}\p{N}])['’ʼ‘](?=[\p{L}\p{N}])/gu;
const NON_TOKEN = /[^\p{L}\p{N}]+/gu;
export const APOSTROPHE = 'ʼ';

const letterCache = new Map<string, string>();
function foldLetter(c: string): string {
  if (KEEP.has(c)) return c;
  let f = letterCache.get(c);
  if (f === undefined) {
    f = c.normalize('NFD').replace(MARKS, '');
    letterCache.set(c, f);
  }
  return f;
}

/** FAST's classes of a UTF-16 unit */
const F_SLOW = 0;
/** a letter or digit (\p{L}\p{N}) whose lowercase is one unit, itself a letter or digit */
const F_TOKEN = 1;
/** neither letter nor digit, nor an apostrophe: a separator */
const F_SEPARATOR = 2;
/** ' ’ ‘: U+02BC inside a word, else a separator (ʼ itself is a letter) */
const F_APOSTROPHE = 3;

/**
 * The units of the common scripts (Latin, Cyrillic, general punctuation) whose folding the fast path
 * below does exactly as the regular expressions of the general one: no mark, no letter that decomposes
 * (but й, ї, ё, ў, kept as they are), a lowercase of one unit that does not depend on its neighbours (Greek's final sigma is left out with
 * Greek). Anything else (F_SLOW) sends the whole text down the general path.
 */
const FAST = (() => {
  const table = new Uint8Array(0x2100);
  const ln = /^[\p{L}\p{N}]$/u;
  for (let c = 0; c < table.length; c++) {
    if ((c >= 0x300 && c < 0x400) || (c >= 0x1f00 && c < 0x2000) || c === 0x130) continue; // marks, Greek; İ
    const ch = String.fromCharCode(c);
    if (HAS_MARK.test(ch) || (ch.normalize('NFD') !== ch && !KEEP.has(ch))) continue;
    const lower = ch.toLowerCase();
    // (the lowercase is looked up in this table too: Ⱥ's, ⱥ, is beyond it)
    if (
      lower.length !== 1 ||
      lower.charCodeAt(0) >= table.length ||
      HAS_MARK.test(lower) ||
      (lower.normalize('NFD') !== lower && !KEEP.has(lower))
    )
      continue;
    if (ch === "'" || ch === '’' || ch === '‘') table[c] = F_APOSTROPHE;
    else if (ln.test(ch)) table[c] = ln.test(lower) ? F_TOKEN : F_SLOW;
    else table[c] = ln.test(lower) ? F_SLOW : F_SEPARATOR;
  }
  return table;
})();

/**
 * Lowercased, diacritics folded as described above, apostrophes inside words unified, everything that
 * is not a letter or digit turned into single spaces; no leading or trailing space.
 */
export function foldForSearch(text: string): string {
  // most text (titles, page texts) is Ukrainian, Russian and English without marks: one scan of the
  // lowercased text instead of five regular expressions over it (a tenth of the import's analysis)
  const n = text.length;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x2100 || FAST[c] === F_SLOW) return foldGeneral(text);
  }
  const s = text.toLowerCase();
  let out = '';
  let start = -1;
  for (let i = 0; i < n; i++) {
    const k = FAST[s.charCodeAt(i)];
    if (k === F_TOKEN) {
      if (start < 0) start = i;
      continue;
    }
    if (k === F_APOSTROPHE && start >= 0 && i + 1 < n && FAST[s.charCodeAt(i + 1)] === F_TOKEN && FAST[s.charCodeAt(i - 1)] === F_TOKEN) {
      // inside a word: the word goes on with U+02BC
      out += s.slice(start, i) + APOSTROPHE;
      start = i + 1;
      continue;
    }
    if (start >= 0) {
      out += s.slice(start, i) + ' ';
      start = -1;
    }
  }
  if (start >= 0) out += s.slice(start);
  else if (out.endsWith(' ')) out = out.slice(0, -1);
  return out;
}

/** foldForSearch by its definition, for any text */
export function foldGeneral(text: string): string {
  let s = text;
  if (HAS_MARK.test(s)) {
    s = s.normalize('NFC');
    // marks left after composition (a stress accent on a Cyrillic vowel) carry no letter identity
    s = s.replace(MARKS, '');
  }
  s = s.replace(DIACRITIC_LETTERS, foldLetter).toLowerCase();
  // toLowerCase may decompose (İ → i̇); drop what it added
  if (HAS_MARK.test(s)) s = s.replace(MARKS, '');
  if (APOSTROPHES.test(s)) s = s.replace(APOSTROPHE_IN_WORD, APOSTROPHE);
  return s.replace(NON_TOKEN, ' ').trim();
}

/** The folded tokens of a text, as the index sees them. */
export function searchTokens(text: string): string[] {
  const f = foldForSearch(text);
  return f === '' ? [] : f.split(' ');
}

/** A word of the original text with its place: what snippets highlight. */
export interface TextWord {
  start: number;
  end: number;
  folded: string;
}

const WORD = /[\p{L}\p{N}\p{M}]+(?:['’ʼ‘][\p{L}\p{N}\p{M}]+)*/gu;

/** The words of an (unfolded) text with their offsets; each folds to exactly one search token. */
export function textWords(text: string): TextWord[] {
  const out: TextWord[] = [];
  for (const m of text.matchAll(WORD)) {
    const folded = foldForSearch(m[0]);
    if (folded !== '' && !folded.includes(' ')) out.push({ start: m.index!, end: m.index! + m[0].length, folded });
    else if (folded !== '') {
      // a word that folds to several tokens (a rare compatibility character): highlight it as its first
      out.push({ start: m.index!, end: m.index! + m[0].length, folded: folded.split(' ')[0] });
    }
  }
  return out;
}

export interface StripOptions {
  /** lowercase namespace names (local, canonical, aliases) of files: [[Файл:X|…|caption]] keeps the caption */
  fileNamespaces: ReadonlySet<string>;
  /** lowercase prefixes whose links are dropped: categories, interlanguage codes */
  droppedPrefixes: ReadonlySet<string>;
}

/** Lowercase namespace names (local, canonical, aliases) of some namespaces. */
function namespaceNames(codec: TitleCodec, ids: number[]): Set<string> {
  const out = new Set<string>();
  for (const id of ids) {
    const n = codec.namespaces.get(id);
    if (n?.name) out.add(n.name.toLowerCase());
    if (n?.canonical) out.add(n.canonical.toLowerCase());
  }
  for (const a of codec.aliases) if (ids.includes(a.id)) out.add(a.alias.toLowerCase().replace(/_/g, ' '));
  return out;
}

/** Strip options of a wiki: its file and category namespace names, and the interlanguage prefixes. */
export function stripOptions(codec: TitleCodec, languageCodes: Iterable<string>): StripOptions {
  return {
    fileNamespaces: namespaceNames(codec, [NS_FILE, NS_MEDIA]),
    droppedPrefixes: new Set([...namespaceNames(codec, [NS_CATEGORY]), ...languageCodes]),
  };
}

const MAX_NESTING_PASSES = 20;

/** Remove innermost {{…}} (templates, parser functions, parameters) until none is left. */
function removeTemplates(s: string): string {
  for (let i = 0; i < MAX_NESTING_PASSES && s.includes('{{'); i++) {
    const next = s.replace(/\{\{(?:(?!\{\{|\}\})[\s\S])*\}\}/g, ' ');
    if (next === s) break;
    s = next;
  }
  return s;
}

function linkText(inner: string, opts: StripOptions): string {
  const parts = inner.split('|');
  const target = parts[0].trim();
  const colon = target.indexOf(':');
  if (colon > 0 && !target.startsWith(':')) {
    const prefix = target.slice(0, colon).trim().toLowerCase().replace(/_/g, ' ');
    if (opts.droppedPrefixes.has(prefix)) return ' ';
    // a file's caption is its last option; the options themselves (thumb, 200px, link=…) are not text
    if (opts.fileNamespaces.has(prefix)) return parts.length > 1 ? ' ' + parts[parts.length - 1] + ' ' : ' ';
  }
  if (parts.length > 1) return parts.slice(1).join('|');
  return target.replace(/^:/, '').replace(/_/g, ' ');
}

/** Remove [[…]] links innermost first (captions of files may hold links), keeping what a reader sees. */
function replaceLinks(s: string, opts: StripOptions): string {
  for (let i = 0; i < MAX_NESTING_PASSES && s.includes('[['); i++) {
    const next = s.replace(
      /\[\[((?:(?!\[\[|\]\])[\s\S])*)\]\]([\p{L}]*)/gu,
      (_m, inner: string, trail: string) => linkText(inner, opts) + trail,
    );
    if (next === s) break;
    s = next;
  }
  return s;
}

function tableLine(line: string): string {
  const t = line.trimStart();
  if (t.startsWith('{|') || t.startsWith('|}') || t.startsWith('|-')) return '';
  if (t.startsWith('|+')) return t.slice(2);
  if (!t.startsWith('|') && !t.startsWith('!')) return line;
  // cells: `| attrs | text || text`; the attributes before a single | are not text
  return t
    .slice(1)
    .split(/\|\||!!/)
    .map((cell) => {
      const bar = cell.indexOf('|');
      return bar >= 0 && !cell.slice(0, bar).includes('[') ? cell.slice(bar + 1) : cell;
    })
    .join(' ');
}

/**
 * Wikitext → plain text: comments, template and parser-function calls, tags (their text kept, except
 * of those that hold no prose), table syntax, link brackets (labels kept; category and interlanguage
 * links dropped), external link URLs (labels kept), bold/italic quotes, heading and list markers and
 * behaviour switches are removed; character references decoded.
 */
export function stripMarkup(text: string, opts: StripOptions): string {
  let s = text.replace(/<!--[\s\S]*?(?:-->|$)/g, ' ');
  s = s.replace(/<(script|style|math|templatedata|graph|timeline)\b[^>]*>[\s\S]*?<\/\1\s*>/gi, ' ');
  s = s.replace(/<ref\b[^>]*\/>/gi, ' ');
  // a gallery line is `File:Name.png|caption`: its caption is the text, as for [[File:…|caption]]
  s = s.replace(/<gallery\b[^>]*>([\s\S]*?)<\/gallery\s*>/gi, (_m, body: string) =>
    body
      .split('\n')
      .map((line) => (line.includes('|') ? line.slice(line.lastIndexOf('|') + 1) : ''))
      .join('\n'),
  );
  s = removeTemplates(s);
  s = s.replace(/\{\{\{[^{}]*\}\}\}/g, ' ');
  s = replaceLinks(s, opts);
  s = s.replace(/\[(?:https?:|ftp:|mailto:|\/\/)[^\s\]]*\s*([^\]]*)\]/gi, '$1');
  s = s.replace(/\b(?:https?|ftp):\/\/[^\s<>\]]+/gi, ' ');
  s = s.replace(/<\/?[A-Za-z][^>]*>/g, ' ');
  s = s.replace(/__[A-ZА-ЯЇІЄҐ_]+__/g, ' ');
  s = s.replace(/'{2,}/g, '');
  s = s
    .split('\n')
    .map((line) => {
      let l = tableLine(line);
      const h = /^\s*(={1,6})(.*?)\1\s*$/.exec(l);
      if (h) l = h[2];
      return l.replace(/^[*#:;]+\s*/, '').replace(/^-{4,}/, '');
    })
    .join('\n');
  s = decodeCharReferences(s);
  return s
    .replace(/[ \t]+/g, ' ')
    .replace(/\n\s*\n+/g, '\n')
    .trim();
}

/** Section headings of wikitext, in order, as their text (for sectiontitle/sectionsnippet). */
export function sectionHeadings(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/^(={1,6})(.+?)\1\s*$/gm)) out.push(m[2].trim());
  return out;
}

/** Does this word of a text match one of the query's terms (exact token, a prefix for `word*`, or another form of a lemma)? */
export type TermMatcher = (folded: string) => boolean;

/**
 * `lemmas`: the lemmas the query's words also match (search-query.ts); a word of the text whose lemmas
 * (`lemmasOf`, morphology.ts) include one of them is marked too: `Києві` marks Київ and Києва.
 */
export function termMatcher(
  terms: ReadonlyArray<{ token: string; prefix: boolean }>,
  lemmas: ReadonlySet<string> = new Set(),
  lemmasOf: (folded: string) => readonly string[] = () => [],
): TermMatcher {
  const exact = new Set(terms.filter((t) => !t.prefix).map((t) => t.token));
  const prefixes = terms.filter((t) => t.prefix).map((t) => t.token);
  if (lemmas.size === 0) return (w) => exact.has(w) || prefixes.some((p) => w.startsWith(p));
  // a form keeps its lemma's first letter (the dictionary's rules change endings): most words need no look-up
  const initials = new Set([...lemmas].map((l) => l[0]));
  return (w) => exact.has(w) || prefixes.some((p) => w.startsWith(p)) || (initials.has(w[0]) && lemmasOf(w).some((l) => lemmas.has(l)));
}

const MATCH_OPEN = '<span class="searchmatch">';
const MATCH_CLOSE = '</span>';

/** The whole text, HTML-escaped, with every matching word in a searchmatch span. */
export function highlightAll(text: string, match: TermMatcher): string {
  let out = '';
  let at = 0;
  for (const w of textWords(text)) {
    if (!match(w.folded)) continue;
    out += htmlspecialchars(text.slice(at, w.start)) + MATCH_OPEN + htmlspecialchars(text.slice(w.start, w.end)) + MATCH_CLOSE;
    at = w.end;
  }
  return out + htmlspecialchars(text.slice(at));
}

const CONTEXT_CHARS = 75;
const CONTEXT_LINES = 2;
const ELLIPSIS = '...';

/**
 * A text snippet as SearchHighlighter::highlightSimple builds it: the first CONTEXT_LINES lines that
 * hold a match, each cut to CONTEXT_CHARS characters of context on both sides of its matches, matches
 * wrapped in searchmatch spans, HTML-escaped around them, each line ending with a newline.
 */
export function textSnippet(plain: string, match: TermMatcher): string {
  let out = '';
  let lines = 0;
  for (const line of plain.split('\n')) {
    if (lines === CONTEXT_LINES) break;
    const hits = textWords(line).filter((w) => match(w.folded));
    if (hits.length === 0) continue;
    lines++;
    const first = hits[0].start;
    const last = hits[hits.length - 1].end;
    let start = Math.max(0, first - CONTEXT_CHARS);
    let end = Math.min(line.length, last + CONTEXT_CHARS);
    // never cut inside a word: move the cut to the next/previous space
    if (start > 0) {
      const sp = line.indexOf(' ', start);
      start = sp >= 0 && sp < first ? sp + 1 : start;
    }
    if (end < line.length) {
      const sp = line.lastIndexOf(' ', end);
      end = sp > last ? sp : end;
    }
    const piece = line.slice(start, end);
    out += (start > 0 ? ELLIPSIS : '') + highlightAll(piece, match) + (end < line.length ? ELLIPSIS : '') + '\n';
  }
  return out;
}

/** str_word_count over Unicode words: the number of words a reader sees in the text. */
export function wordCount(plain: string): number {
  let n = 0;
  for (const _ of plain.matchAll(WORD)) n++;
  return n;
}
