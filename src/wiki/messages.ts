/**
 * Interface messages as MediaWiki 1.25 resolves them (MessageCache::get, Message::plain()), over the
 * catalogs and local overrides of the store.
 *
 * Lookup (MessageCache::getMessageFromFallbackChain): for a language L, the override page of L
 * (MediaWiki:Key for the content language, MediaWiki:Key/L otherwise), then L's merged catalog (L and
 * its fallbacks, as LocalisationCache merges them), then the override pages of L's fallbacks, then the
 * content language's override and merged catalog, then the override pages of the content language's
 * fallbacks; a key "a/b" unknown everywhere is finally looked up as message a in language b.
 *
 * Transformation ({{…}} of Message::text(), MessageCache::transform) is the wikitext engine's: see
 * src/wikitext/message-transform.ts.
 */
import { fallbackChain, isValidBuiltInCode, isValidCodeMw, lcfirst, ucfirst } from './language.js';
import type { TitleCodec } from './titles.js';
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

/** MessageCache::get and the Message class of MediaWiki 1.25 for one request. */
export class Messages {
  private readonly fetched = new Map<string, string | false>();

  constructor(
    private readonly src: MessageSource,
    /** the wiki the messages are transformed for */
    readonly env: ParserEnv,
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
    if (message !== undefined)
      out = message.includes('&')
        ? message.split('&#32;').join(' ').split('&nbsp;').join('\u00a0').split('&#160;').join('\u00a0')
        : message;
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

  /** What Message::text() transforms: the text (overrides read) with $1… replaced; false when the message does not exist. */
  withParameters(key: string, args: readonly string[], code: string): string | false {
    const s = this.get(key, true, code);
    return s === false ? false : replaceParameters(qqxParams(s, args), args);
  }
}

/** Message::toString's "$*" (the parameter list for uselang=qqx). */
function qqxParams(s: string, args: readonly string[]): string {
  if (!s.includes('$*')) return s;
  const list = args.length ? ': $' + args.map((_, i) => i + 1).join(', $') : '';
  return s.split('$*').join(list);
}
