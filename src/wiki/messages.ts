/**
 * Interface messages as MediaWiki 1.25 resolves and renders them (MessageCache::get, Message::plain()
 * and Message::text(), Parser::transformMsg), over the catalogs and local overrides of the store.
 *
 * Lookup (MessageCache::getMessageFromFallbackChain): for a language L, the override page of L
 * (MediaWiki:Key for the content language, MediaWiki:Key/L otherwise), then L's merged catalog (L and
 * its fallbacks, as LocalisationCache merges them), then the override pages of L's fallbacks, then the
 * content language's override and merged catalog, then the override pages of the content language's
 * fallbacks; a key "a/b" unknown everywhere is finally looked up as message a in language b.
 *
 * Transformation ({{…}} of Message::text()): a preprocessor with MediaWiki's brace and bracket matching,
 * comments, <nowiki>-style tags and inclusion control tags, and the parser functions and variables a
 * message uses: PLURAL, GENDER, GRAMMAR, int, lc, uc, lcfirst, ucfirst, formatnum, ns, padleft,
 * padright; SITENAME, CONTENTLANGUAGE, PAGENAME, FULLPAGENAME, NAMESPACE, NAMESPACENUMBER, CURRENTVERSION,
 * CURRENTYEAR and "!"; other {{Name}} are template transclusions (a missing template becomes the link
 * text "[[:Шаблон:Name]]", as MediaWiki renders it).
 */
import { convertPlural, fallbackChain, isValidBuiltInCode, isValidCodeMw, lcfirst, ucfirst } from './language.js';
import { ukGenitive, NS_SPECIAL, NS_TEMPLATE } from './namespaces.js';
import type { TitleCodec } from './titles.js';
import { MEDIAWIKI_VERSION } from './wiki.js';
import { htmlspecialchars } from './html.js';

/** Where messages come from: one language's catalog and one language's override pages, no fallback. */
export interface MessageSource {
  catalogText(lang: string, key: string): string | undefined;
  /** override read by MessageCache for `lang`; `key` is the page title with its first letter lowercased */
  overrideText(lang: string, key: string): string | undefined;
}

/** What the {{…}} transformation needs to know about the wiki. */
export interface ParserEnv {
  codec: TitleCodec;
  siteName: string;
  contentLang: string;
  /** text of a page to transclude, after redirects (Parser::statelessFetchTemplate); null when missing */
  fetchTemplate(ns: number, dbkey: string): string | null;
}

/** One stored text: a catalog entry or a local override (the store's StoredMessage, by shape). */
export interface StoredText {
  source: 'catalog' | 'override';
  lang: string;
  key: string;
  text: string;
}

/**
 * The stored texts and template pages one request's rendering reads, held in memory so that rendering
 * stays synchronous over an asynchronous store. The caller fills it in batches; whatever a render asks
 * for that was never fetched is answered as absent and recorded in `wanted*`, so the caller can fetch
 * exactly that and render again (a bounded number of rounds) — the answer is then the one MediaWiki gives.
 */
export class MessageSnapshot implements MessageSource {
  // language → key → text: nested maps, so that a read builds no composite key string (a render reads
  // every message along its fallback chain; the garbage of pair strings was a fifth of allmessages' time)
  private readonly catalog = new Map<string, Map<string, string>>();
  private readonly override = new Map<string, Map<string, string>>();
  /** language → keys fetched (present or known absent) */
  private readonly fetched = new Map<string, Set<string>>();
  private readonly templates = new Map<string, string | null>();
  /** language → keys asked for but never fetched */
  readonly wantedTexts = new Map<string, Set<string>>();
  readonly wantedTemplates = new Map<string, { ns: number; dbkey: string }>();

  /** Record a fetch of `keys` in `langs` and the rows it found. */
  addTexts(langs: readonly string[], keys: readonly string[], rows: readonly StoredText[]): void {
    for (const l of langs) {
      let f = this.fetched.get(l);
      if (!f) this.fetched.set(l, (f = new Set()));
      for (const k of keys) f.add(k);
    }
    for (const r of rows) {
      const maps = r.source === 'catalog' ? this.catalog : this.override;
      let m = maps.get(r.lang);
      if (!m) maps.set(r.lang, (m = new Map()));
      m.set(r.key, r.text);
    }
    for (const l of langs) {
      const w = this.wantedTexts.get(l);
      if (!w) continue;
      for (const k of keys) w.delete(k);
      if (w.size === 0) this.wantedTexts.delete(l);
    }
  }

  /** Record the text of a page to transclude (null: no such page). */
  addTemplate(ns: number, dbkey: string, text: string | null): void {
    this.templates.set(ns + ':' + dbkey, text);
    this.wantedTemplates.delete(ns + ':' + dbkey);
  }

  get complete(): boolean {
    return this.wantedTexts.size === 0 && this.wantedTemplates.size === 0;
  }

  catalogText(lang: string, key: string): string | undefined {
    return this.read(this.catalog, lang, key);
  }

  /** Whether the texts of the key in this language were fetched (a question of the loader: nothing is recorded). */
  isFetched(lang: string, key: string): boolean {
    return this.fetched.get(lang)?.has(key) ?? false;
  }

  /** Whether a fetched catalog holds the key (a question of the loader, not of a render: nothing is recorded). */
  catalogHas(lang: string, key: string): boolean {
    return this.catalog.get(lang)?.has(key) ?? false;
  }

  overrideText(lang: string, key: string): string | undefined {
    return this.read(this.override, lang, key);
  }

  template(ns: number, dbkey: string): string | null {
    const k = ns + ':' + dbkey;
    const t = this.templates.get(k);
    if (t !== undefined) return t;
    this.wantedTemplates.set(k, { ns, dbkey });
    return null;
  }

  private read(maps: Map<string, Map<string, string>>, lang: string, key: string): string | undefined {
    if (!this.fetched.get(lang)?.has(key)) {
      let w = this.wantedTexts.get(lang);
      if (!w) this.wantedTexts.set(lang, (w = new Set()));
      w.add(key);
    }
    return maps.get(lang)?.get(key);
  }
}

/** Whether lookupKeys(key) is just [key]: the key is in the stored form already (no space, lcfirst). */
export function isStoredKeyForm(key: string): boolean {
  if (key === '' || key.includes(' ')) return false;
  const c = key.charCodeAt(0);
  return c < 128 ? !(c >= 65 && c <= 90) : lcfirst(key) === key;
}

/** The stored keys MessageCache may read for a message key (its lcfirst form, as catalogs and overrides store them). */
export function lookupKeys(key: string): string[] {
  let lckey = key.replace(/ /g, '_');
  if (lckey === '') return [];
  lckey = key.charCodeAt(0) < 128 ? lckey[0].toLowerCase() + lckey.slice(1) : lcfirst(lckey);
  return lckey === key ? [key] : [key, lckey];
}

/** The title a message is rendered for ({{PAGENAME}} and friends); MediaWiki's default is "API". */
export interface RenderTitle {
  ns: number;
  dbkey: string;
}

/**
 * The user language of a request (RequestContext::getLanguage with uselang): 'user' (the default) and
 * 'content' mean the content language for an anonymous client; other values are lowercased and must
 * be valid codes, otherwise the content language is used.
 */
export function userLanguage(uselang: string | undefined, contentLang: string): string {
  let code = uselang ?? 'user';
  if (code === 'user' || code === 'content') return contentLang;
  code = code.toLowerCase();
  // PHP empty(): '' and '0' are empty
  if (code === '' || code === '0' || !isValidCodeMw(code) || code === 'qqq') return contentLang;
  return code;
}

/** Language::getFallbacksFor: the fallback languages of a code (not the code itself). */
export function languageFallbacks(code: string): string[] {
  if (code === 'en' || !isValidBuiltInCode(code)) return [];
  return fallbackChain(code).slice(1);
}

/** The catalogs LocalisationCache merges for a code, most specific first (a code of no built-in form is English). */
export function catalogLanguages(code: string): string[] {
  return isValidBuiltInCode(code) ? fallbackChain(code) : ['en'];
}

/** PHP strtr with the replacement array {'$1': args[0], '$2': args[1], …}: longest key first, one pass. */
export function replaceParameters(text: string, args: readonly string[]): string {
  if (args.length === 0 || !text.includes('$')) return text;
  return text.replace(/\$(\d+)/g, (all, digits: string) => {
    for (let len = digits.length; len > 0; len--) {
      const d = digits.slice(0, len);
      if (d[0] === '0') continue;
      const n = Number(d);
      if (n >= 1 && n <= args.length) return args[n - 1] + digits.slice(len);
    }
    return all;
  });
}

/** PHP's loose != between two strings: numeric strings compare as numbers. */
export function phpLooseEquals(a: string, b: string): boolean {
  if (a === b) return true;
  const num = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
  return num.test(a) && num.test(b) && Number(a) === Number(b);
}

/** MessageCache::get and the Message class of MediaWiki 1.25 for one request. */
export class Messages {
  private readonly fetched = new Map<string, string | false>();

  constructor(
    private readonly src: MessageSource,
    private readonly env: ParserEnv,
  ) {}

  get contentLang(): string {
    return this.env.contentLang;
  }

  /** Language::getMessage: the merged catalog of a code. */
  catalogMessage(code: string, lckey: string): string | undefined {
    for (const l of catalogLanguages(code)) {
      const t = this.src.catalogText(l, lckey);
      if (t !== undefined) return t;
    }
    return undefined;
  }

  /** MessageCache::getMsgFromNamespace: one page of one language's message cache. */
  private fromNamespace(title: string, code: string): string | undefined {
    if (code === this.env.contentLang) {
      // the content language's cache holds only pages without a '/'
      if (title.includes('/')) return undefined;
      return this.src.overrideText(code, lcfirst(title));
    }
    const suffix = '/' + code;
    if (!title.endsWith(suffix) || title.length === suffix.length) return undefined;
    return this.src.overrideText(code, lcfirst(title.slice(0, -suffix.length)));
  }

  /** MessageCache::get: the text of a message in a language, or false when it does not exist. */
  get(key: string, useDB: boolean, code: string): string | false {
    if (key === '') return false;
    const cacheKey = `${useDB ? 1 : 0}\u0000${code}\u0000${key}`;
    const hit = this.fetched.get(cacheKey);
    if (hit !== undefined) return hit;
    let lckey = key.replace(/ /g, '_');
    let uckey: string;
    if (key.charCodeAt(0) < 128) {
      lckey = lckey[0].toLowerCase() + lckey.slice(1);
      uckey = lckey[0].toUpperCase() + lckey.slice(1);
    } else {
      lckey = lcfirst(lckey);
      uckey = ucfirst(lckey);
    }
    let message = this.fromFallbackChain(code, lckey, uckey, useDB);
    if (message === undefined) {
      const parts = lckey.split('/');
      if (parts.length === 2 && parts[1] !== '') message = this.catalogMessage(parts[1], parts[0]);
    }
    let out: string | false = false;
    // the three entities MessageCache decodes all start with '&' (most messages have none)
    if (message !== undefined) out = message.includes('&') ? message.split('&#32;').join(' ').split('&nbsp;').join('\u00a0').split('&#160;').join('\u00a0') : message;
    this.fetched.set(cacheKey, out);
    return out;
  }

  private fromFallbackChain(code: string, lckey: string, uckey: string, useDB: boolean): string | undefined {
    const content = this.env.contentLang;
    const pageFor = (c: string) => (c === content ? this.fromNamespace(uckey, c) : this.fromNamespace(`${uckey}/${c}`, c));
    let m: string | undefined;
    if (useDB && (m = pageFor(code)) !== undefined) return m;
    if ((m = this.catalogMessage(code, lckey)) !== undefined) return m;
    const fallbacks = languageFallbacks(code);
    const siteFallbacks = [content, ...languageFallbacks(content)].filter((c) => !fallbacks.includes(c));
    if (useDB) for (const c of fallbacks) if ((m = pageFor(c)) !== undefined) return m;
    if (useDB && (m = this.fromNamespace(uckey, content)) !== undefined) return m;
    if ((m = this.catalogMessage(content, lckey)) !== undefined) return m;
    if (useDB) {
      for (const c of siteFallbacks) {
        m = this.fromNamespace(`${uckey}/${c}`, c);
        if (m === undefined && c === content) m = this.fromNamespace(uckey, c);
        if (m !== undefined) return m;
      }
    }
    return undefined;
  }

  /** Message::exists() */
  exists(key: string, code: string, useDB = true): boolean {
    return this.get(key, useDB, code) !== false;
  }

  /** Message::plain(): the raw text with $1… replaced by the arguments. */
  plain(key: string, args: readonly string[], code: string, useDB = true): string {
    const s = this.get(key, useDB, code);
    if (s === false) return '<' + htmlspecialchars(key) + '>';
    return replaceParameters(qqxParams(s, args), args);
  }

  /** Message::text(): $1… replaced, then {{…}} transformed (Parser::transformMsg) for `title`. */
  text(key: string, args: readonly string[], code: string, title: RenderTitle): string {
    const s = this.get(key, true, code);
    if (s === false) return '&lt;' + htmlspecialchars(key) + '&gt;';
    return this.transform(replaceParameters(qqxParams(s, args), args), code, title);
  }

  /** MessageCache::transform: preprocess only when there is a "{{". */
  transform(text: string, code: string, title: RenderTitle): string {
    if (!text.includes('{{')) return text;
    return new Expander(this, this.env, code, title).expandRoot(text);
  }
}

/** Message::toString's "$*" (the parameter list for uselang=qqx). */
function qqxParams(s: string, args: readonly string[]): string {
  if (!s.includes('$*')) return s;
  const list = args.length ? ': $' + args.map((_, i) => i + 1).join(', $') : '';
  return s.split('$*').join(list);
}

// ---------------------------------------------------------------------------------------------------
// Preprocessor: text → nodes (Preprocessor_Hash::preprocessToObj of 1.25, the parts messages need)
// ---------------------------------------------------------------------------------------------------

type PNode = string | TemplateNode | EqualsNode | CommentNode;
interface TemplateNode {
  t: 'tpl' | 'arg';
  /** parts[0] is the title (or argument name), the others the arguments */
  parts: PNode[][];
}
interface EqualsNode {
  t: 'eq';
}
interface CommentNode {
  t: 'comment';
}

interface Piece {
  open: '{' | '[';
  count: number;
  parts: PNode[][];
  /** whether each part already has its "=" */
  eq: boolean[];
}

/** Tags whose content the preprocessor leaves alone (core parser tags of 1.25). */
const LITERAL_TAGS = ['nowiki', 'pre', 'gallery', 'indicator'];

function pushText(list: PNode[], s: string): void {
  if (s === '') return;
  const last = list.length - 1;
  if (last >= 0 && typeof list[last] === 'string') list[last] = (list[last] as string) + s;
  else list.push(s);
}

function pushNodes(list: PNode[], nodes: PNode[]): void {
  for (const n of nodes) typeof n === 'string' ? pushText(list, n) : list.push(n);
}

/** Piece that never closed (or a [[…]]): its text back, children kept as nodes. */
function breakSyntax(p: Piece, openingCount = p.count): PNode[] {
  const out: PNode[] = [p.open.repeat(openingCount)];
  p.parts.forEach((part, i) => {
    if (i > 0) pushText(out, '|');
    for (const n of part) {
      if (typeof n === 'string') pushText(out, n);
      else if (n.t === 'eq') pushText(out, '=');
      else out.push(n);
    }
  });
  return out;
}

export function preprocess(input: string, forInclusion: boolean): PNode[] {
  let text = input;
  if (forInclusion && text.includes('<onlyinclude>') && text.includes('</onlyinclude>')) {
    // only the <onlyinclude> sections are transcluded
    const pieces: string[] = [];
    const re = /<onlyinclude>([\s\S]*?)(?:<\/onlyinclude>|$)/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) pieces.push(m[1]);
    text = pieces.join('');
  }
  const ignoredTags = forInclusion ? ['includeonly'] : ['noinclude', 'onlyinclude'];
  const ignoredElement = forInclusion ? 'noinclude' : 'includeonly';
  const root: PNode[] = [];
  const stack: Piece[] = [];
  const accum = (): PNode[] => {
    const top = stack[stack.length - 1];
    return top ? top.parts[top.parts.length - 1] : root;
  };
  const n = text.length;
  let i = 0;
  while (i < n) {
    const c = text[i];
    const top = stack[stack.length - 1];
    if (c === '<') {
      if (text.startsWith('<!--', i)) {
        const end = text.indexOf('-->', i + 4);
        accum().push({ t: 'comment' });
        i = end < 0 ? n : end + 3;
        continue;
      }
      const tag = /^<(\/?)([A-Za-z][\w-]*)(\s[^>]*?)?(\/?)>/.exec(text.slice(i, i + 512));
      if (tag) {
        const name = tag[2].toLowerCase();
        if (ignoredTags.includes(name)) {
          i += tag[0].length;
          continue;
        }
        if (name === ignoredElement && tag[1] === '') {
          if (tag[4] === '/') {
            i += tag[0].length;
            continue;
          }
          const close = new RegExp(`</${name}\\s*>`, 'ig');
          close.lastIndex = i + tag[0].length;
          const m = close.exec(text);
          i = m ? m.index + m[0].length : n;
          continue;
        }
        if (LITERAL_TAGS.includes(name) && tag[1] === '') {
          if (tag[4] === '/') {
            pushText(accum(), tag[0]);
            i += tag[0].length;
            continue;
          }
          const close = new RegExp(`</${name}\\s*>`, 'ig');
          close.lastIndex = i + tag[0].length;
          const m = close.exec(text);
          if (m) {
            pushText(accum(), text.slice(i, m.index + m[0].length));
            i = m.index + m[0].length;
          } else {
            pushText(accum(), tag[0]);
            i += tag[0].length;
          }
          continue;
        }
      }
      pushText(accum(), c);
      i++;
      continue;
    }
    if (c === '{' || c === '[') {
      let run = 1;
      while (text[i + run] === c) run++;
      if (run >= 2) stack.push({ open: c, count: run, parts: [[]], eq: [false] });
      else pushText(accum(), c);
      i += run;
      continue;
    }
    if (top && c === (top.open === '{' ? '}' : ']')) {
      let run = 1;
      while (text[i + run] === c) run++;
      let matching = Math.min(run, top.count, top.open === '{' ? 3 : 2);
      if (matching < 2) {
        pushText(accum(), c.repeat(run));
        i += run;
        continue;
      }
      stack.pop();
      const element: PNode[] =
        top.open === '[' ? [...breakSyntax(top, matching), ']'.repeat(matching)] : [{ t: matching === 3 ? 'arg' : 'tpl', parts: top.parts }];
      i += matching;
      if (matching < top.count) {
        const rest = top.count - matching;
        if (rest >= 2) stack.push({ open: top.open, count: rest, parts: [[]], eq: [false] });
        else pushText(accum(), top.open.repeat(rest));
      }
      pushNodes(accum(), element);
      continue;
    }
    if (top && top.open === '{' && c === '|') {
      top.parts.push([]);
      top.eq.push(false);
      i++;
      continue;
    }
    if (top && top.open === '{' && c === '=' && top.parts.length > 1 && !top.eq[top.eq.length - 1]) {
      top.eq[top.eq.length - 1] = true;
      accum().push({ t: 'eq' });
      i++;
      continue;
    }
    pushText(accum(), c);
    i++;
  }
  while (stack.length) {
    const p = stack.pop()!;
    pushNodes(accum(), breakSyntax(p));
  }
  return root;
}

// ---------------------------------------------------------------------------------------------------
// Expansion (PPFrame::expand, Parser::braceSubstitution and the core parser functions)
// ---------------------------------------------------------------------------------------------------

interface FrameArg {
  nodes: PNode[];
  named: boolean;
}

interface Frame {
  parent: Frame | null;
  /** null for the root frame of the message; numbered arguments are looked up before named ones */
  args: { numbered: Map<string, FrameArg>; named: Map<string, FrameArg> } | null;
  /** prefixed DB key of the template this frame expands (loop check) */
  key: string | null;
}

const MAX_EXPAND_DEPTH = 40;

// prototype-less maps: keys come from the message text ({{constructor}} is no magic word)
const FUNCTION_SYNONYMS: Record<string, string> = Object.create(null);
for (const [id, names] of Object.entries({
  int: ['int', 'внутр'],
  plural: ['plural', 'множина', 'множественное_число'],
  gender: ['gender', 'стать', 'пол'],
  grammar: ['grammar', 'відмінок', 'падеж'],
  lc: ['lc', 'нр', 'нижній_регістр', 'малими_буквами', 'маленькими_буквами'],
  uc: ['uc', 'вр', 'верхній_регістр', 'великими_буквами', 'большими_буквами'],
  lcfirst: ['lcfirst', 'нр_перша', 'перша_буква_мала', 'первая_буква_маленькая'],
  ucfirst: ['ucfirst', 'вр_перша', 'перша_буква_велика', 'первая_буква_большая'],
  formatnum: ['formatnum', 'форматувати_число', 'форматировать_число'],
  ns: ['ns', 'пн', 'пи'],
  padleft: ['padleft', 'заповнити_ліворуч', 'заполнить_слева'],
  padright: ['padright', 'заповнити_праворуч', 'заполнить_справа'],
})) {
  for (const n of names) FUNCTION_SYNONYMS[n] = id;
}

/** Case-sensitive variables (magic words with flag 1), with their uk and ru synonyms. */
const VARIABLE_SYNONYMS: Record<string, string> = Object.create(null);
for (const [id, names] of Object.entries({
  sitename: ['SITENAME', 'НАЗВА_САЙТУ', 'НАЗВАНИЕ_САЙТА'],
  contentlanguage: ['CONTENTLANGUAGE', 'CONTENTLANG', 'МОВА_ВМІСТУ', 'ЯЗЫК_СОДЕРЖАНИЯ'],
  pagename: ['PAGENAME', 'НАЗВА_СТОРІНКИ', 'НАЗВАНИЕ_СТРАНИЦЫ'],
  fullpagename: ['FULLPAGENAME', 'ПОВНА_НАЗВА_СТОРІНКИ', 'ПОЛНОЕ_НАЗВАНИЕ_СТРАНИЦЫ'],
  namespace: ['NAMESPACE', 'ПРОСТІР_НАЗВ', 'ПРОСТРАНСТВО_ИМЁН'],
  namespacenumber: ['NAMESPACENUMBER'],
  currentversion: ['CURRENTVERSION', 'ПОТОЧНА_ВЕРСІЯ', 'ТЕКУЩАЯ_ВЕРСИЯ'],
  currentyear: ['CURRENTYEAR', 'ПОТОЧНИЙ_РІК', 'ТЕКУЩИЙ_ГОД'],
  '!': ['!'],
})) {
  for (const n of names) VARIABLE_SYNONYMS[n] = id;
}

/** wfEscapeWikiText (what {{PAGENAME}} returns), for the characters a title can hold. */
function escapeWikiText(s: string): string {
  const repl: Record<string, string> = {
    '"': '&#34;', '&': '&#38;', "'": '&#39;', '<': '&#60;', '=': '&#61;', '>': '&#62;',
    '[': '&#91;', ']': '&#93;', '{': '&#123;', '|': '&#124;', '}': '&#125;', ';': '&#59;',
  };
  return s
    .replace(/["&'<=>[\]{|};]/g, (c) => repl[c])
    .replace(/__/g, '_&#95;')
    .replace(/:\/\//g, '&#58;//');
}

/** Language::parseFormattedNumber for uk/ru (NBSP groups, decimal comma) and the default. */
function parseFormattedNumber(s: string, lang: string): string {
  let out = s;
  if (usesSpaceSeparators(lang)) out = out.replace(/[,\u00a0]/g, (c) => (c === ',' ? '.' : ','));
  return out.replace(/,/g, '');
}

function usesSpaceSeparators(lang: string): boolean {
  return lang === 'uk' || lang === 'ru' || lang === 'be' || lang === 'rue';
}

/** Language::formatNum of a number-like string (commafy, then the separator table). */
function formatNum(s: string, lang: string): string {
  const commafy = (x: string) => [...[...x].reverse().join('').replace(/(\d{3})(?=\d)(?!\d*\.)/g, '$1,')].reverse().join('');
  if (usesSpaceSeparators(lang)) {
    const grouped = /^-?\d{1,4}(\.\d+)?$/.test(s) ? s : commafy(s);
    return grouped.replace(/[,.]/g, (c) => (c === ',' ? '\u00a0' : ','));
  }
  return commafy(s);
}

/** PHP (float) of a string: the leading number, 0 when there is none. */
function phpFloat(s: string): number {
  const m = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(s);
  return m ? Number(m[0].trim()) : 0;
}

/** Language::convertGrammar: LanguageUk's genitive and accusative; other languages keep the word. */
function convertGrammar(word: string, grammarCase: string, lang: string): string {
  if (lang !== 'uk') return word;
  if (/[a-zA-Z_]/.test(word)) return word;
  if (grammarCase === 'genitive') return ukGenitive(word);
  if (grammarCase === 'accusative') {
    if (/[вВ]ікі$/.test(word)) return word;
    if (word.endsWith('ія')) return word.slice(0, -2) + 'ію';
  }
  return word;
}

class Expander {
  private depth = 0;

  constructor(
    private readonly messages: Messages,
    private readonly env: ParserEnv,
    /** user language = target language of the message */
    private readonly lang: string,
    private readonly title: RenderTitle,
  ) {}

  expandRoot(text: string): string {
    return this.expand(preprocess(text, false), { parent: null, args: null, key: null });
  }

  private expand(nodes: PNode[], frame: Frame): string {
    if (this.depth >= MAX_EXPAND_DEPTH) return '<span class="error">Expansion depth limit exceeded</span>';
    this.depth++;
    try {
      let out = '';
      for (const node of nodes) {
        if (typeof node === 'string') out += node;
        else if (node.t === 'eq') out += '=';
        else if (node.t === 'comment') continue;
        else if (node.t === 'tpl') out += this.braceSubstitution(node, frame);
        else out += this.argSubstitution(node, frame);
      }
      return out;
    } finally {
      this.depth--;
    }
  }

  private argSubstitution(node: TemplateNode, frame: Frame): string {
    const name = this.expand(node.parts[0], frame).trim();
    const arg = frame.args?.numbered.get(name) ?? frame.args?.named.get(name);
    if (arg && frame.parent) {
      const v = this.expand(arg.nodes, frame.parent);
      return arg.named ? v.trim() : v;
    }
    if (node.parts.length > 1) return this.expand(node.parts[1], frame);
    return '{{{' + node.parts.map((p) => this.expand(p, frame)).join('|') + '}}}';
  }

  private braceSubstitution(node: TemplateNode, frame: Frame): string {
    const titleWithSpaces = this.expand(node.parts[0], frame);
    const part1 = titleWithSpaces.trim();
    const args = node.parts.slice(1);
    if (args.length === 0) {
      const id = VARIABLE_SYNONYMS[part1];
      if (id !== undefined) return this.variable(id);
    }
    const colon = part1.indexOf(':');
    if (colon >= 0) {
      const id = FUNCTION_SYNONYMS[part1.slice(0, colon).toLowerCase()];
      if (id !== undefined) {
        const fargs = [part1.slice(colon + 1).trim(), ...args.map((a) => this.expand(a, frame).trim())];
        const r = this.parserFunction(id, fargs);
        // a result to parse again ({{int:}}) is expanded in a child frame holding the call's arguments
        if (r !== null) return r.reparse ? this.expand(preprocess(r.text, false), { parent: frame, args: this.frameArgs(args, frame), key: null }) : r.text;
      }
    }
    const title = this.env.codec.parse(part1, NS_TEMPLATE);
    if (title === null || title.ns === NS_SPECIAL) {
      return '{{' + [titleWithSpaces, ...args.map((a) => this.expand(a, frame))].join('|') + '}}';
    }
    const key = `${title.ns}:${title.dbkey}`;
    const titleText = this.env.codec.prefixedText(title.ns, title.dbkey);
    for (let f: Frame | null = frame; f; f = f.parent) {
      if (f.key === key) {
        const warn = this.messages.get('parser-template-loop-warning', true, this.env.contentLang);
        return '<span class="error">' + replaceParameters(warn === false ? 'Template loop detected: [[$1]]' : warn, [titleText]) + '</span>';
      }
    }
    const text = title.ns >= 0 ? this.env.fetchTemplate(title.ns, title.dbkey) : null;
    if (text === null) return `[[:${titleText}]]`;
    return this.expand(preprocess(text, true), { parent: frame, args: this.frameArgs(args, frame), key });
  }

  /** PPTemplateFrame's arguments: "name=value" parts are named (trimmed), the others numbered from 1. */
  private frameArgs(args: PNode[][], frame: Frame): NonNullable<Frame['args']> {
    const out = { numbered: new Map<string, FrameArg>(), named: new Map<string, FrameArg>() };
    let index = 1;
    for (const a of args) {
      const eq = a.findIndex((n) => typeof n !== 'string' && n.t === 'eq');
      if (eq < 0) out.numbered.set(String(index++), { nodes: a, named: false });
      else out.named.set(this.expand(a.slice(0, eq), frame).trim(), { nodes: a.slice(eq + 1), named: true });
    }
    return out;
  }

  private variable(id: string): string {
    const { codec } = this.env;
    switch (id) {
      case 'sitename':
        return this.env.siteName;
      case 'contentlanguage':
        return this.env.contentLang;
      case 'pagename':
        return escapeWikiText(this.title.dbkey.replace(/_/g, ' '));
      case 'fullpagename':
        return escapeWikiText(codec.prefixedText(this.title.ns, this.title.dbkey));
      case 'namespace':
        return (codec.nsName(this.title.ns) ?? '').replace(/_/g, ' ');
      case 'namespacenumber':
        return String(this.title.ns);
      case 'currentversion':
        return MEDIAWIKI_VERSION;
      case 'currentyear':
        return String(new Date().getUTCFullYear());
      case '!':
        return '|';
    }
    return '';
  }

  /** A core parser function; null when MediaWiki would say "not found" (the call becomes a transclusion). */
  private parserFunction(id: string, a: string[]): { text: string; reparse?: boolean } | null {
    const lang = this.lang;
    switch (id) {
      case 'int':
        if (a[0] === '') return null;
        return { text: this.messages.plain(a[0], a.slice(1), lang), reparse: true };
      case 'plural': {
        const num = parseFormattedNumber(a[0], lang);
        const n = /^\d+$/.test(num) ? Number(num) : phpFloat(num);
        return { text: convertPlural(n, a.slice(1), lang) };
      }
      case 'gender': {
        // Nobody has a gender preference here: every user is "unknown", which takes the third form,
        // else the first.
        const forms = a.slice(1);
        if (forms.length === 0) return { text: '' };
        if (forms.length === 1) return { text: forms[0] };
        return { text: forms[2] ?? forms[0] };
      }
      case 'grammar':
        return { text: convertGrammar(a[1] ?? '', a[0], lang) };
      case 'lc':
        return { text: a[0].toLowerCase() };
      case 'uc':
        return { text: a[0].toUpperCase() };
      case 'lcfirst':
        return { text: lcfirst(a[0]) };
      case 'ucfirst':
        return { text: ucfirst(a[0]) };
      case 'formatnum': {
        const flag = a[1] ?? '';
        if (flag === 'R' || flag === 'Н') return { text: parseFormattedNumber(a[0], lang) };
        if (flag === 'NOSEP') return { text: a[0] };
        return { text: formatNum(a[0], lang) };
      }
      case 'ns': {
        let index: number | undefined;
        if (/^[+-]?\d/.test(a[0]) && Math.trunc(phpFloat(a[0])) !== 0) index = Math.trunc(phpFloat(a[0]));
        else if (a[0] === '0') index = 0;
        else index = this.env.codec.nsIdFromPrefix(a[0].replace(/ /g, '_'));
        if (index === undefined) return null;
        return { text: (this.env.codec.nsName(index) ?? '').replace(/_/g, ' ') };
      }
      case 'padleft':
      case 'padright': {
        const s = a[0];
        const len = Math.min(Math.trunc(phpFloat(a[1] ?? '0')), 500);
        const pad = a[2] === undefined || a[2] === '' ? '0' : a[2];
        const have = [...s].length;
        if (len <= have) return { text: s };
        const padChars = [...pad];
        let filler = '';
        for (let k = 0; k < len - have; k++) filler += padChars[k % padChars.length];
        return { text: id === 'padleft' ? filler + s : s + filler };
      }
    }
    return null;
  }
}
