/**
 * Pass 2's analysis of one page, free of writes: expansion, links (with tracking categories), what the
 * analysis hooks compute from the expanded text, and the page's full-text index row. It runs on the
 * analysis workers (analysis-worker.ts), each with a read-only view of the database being built, and
 * the main thread writes the results in page id order (link-pass.ts). Everything a worker needs to
 * analyse pages exactly as the main thread would is in `AnalysisSetup` (it crosses the thread boundary).
 */
import { TitleCodec } from '../wiki/titles.js';
import type { NamespaceInfo } from '../wiki/namespaces.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIA, NS_SPECIAL } from '../wiki/namespaces.js';
import { fallbackChain } from '../wiki/language.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import { extractLinks, LANGUAGE_CODES, type PageLinks } from '../wikitext/links.js';
import { redirectTargetAndText } from '../wikitext/redirect.js';
import { foldForSearch, stripMarkup, stripOptions, type StripOptions } from '../wiki/search-text.js';
import { LemmaMemo, lemmaKeys, lemmaText } from '../wiki/morphology.js';
import type { ImportSource, PageWithText, SearchRow, TitleRef } from '../store/import-writer.js';
import { createExpander, type Expander, type Expansion } from './expand.js';
import type { InlineQueryOutput } from '../wikitext/expansion-rounds.js';
import { TRACKING_MESSAGES } from '../wikitext/render/env.js';
import { loadInterwikiMap } from './interwiki-file.js';
import type { HookAnalyzer, PageAnalysis } from './hooks.js';

/** What analysis needs besides the database: plain data, so that a worker can be given it. */
export interface AnalysisSetup {
  siteName: string;
  /** the dump's namespaces (the title codec is built from them as pass 1 built it) */
  namespaces?: NamespaceInfo[];
  /** content language */
  lang: string;
  interwikiFile?: string;
  /** the import's clock (ms since the epoch): {{CURRENTYEAR}} and friends are the same on every page */
  now: number;
  /** per analysis hook: the module of its HookAnalyzer (see hooks.ts), or null when it wants the text */
  hookAnalyzers: Array<string | null>;
  /** per analysis hook: its analyzerData() (pass 2; not in the pre-pass of begin()) */
  hookData?: unknown[];
  /** build the full-text index rows */
  searchIndex: boolean;
}

/** A page's link rows as flat lists (cheap to pass between threads), each target once. */
export interface LinkRows {
  /** namespace, DB key, namespace, DB key, … */
  pages: Array<number | string>;
  files: string[];
  /** transcluded pages: namespace, DB key, … */
  templates: Array<number | string>;
  /** category, sort key, sort key prefix, … */
  categories: string[];
  /** language code, title, … */
  langs: string[];
  external: string[];
  /** prefix, title, … */
  interwikis: string[];
  /** name, value, … */
  props: string[];
}

export interface PageResult {
  page: { id: number; ns: number; dbkey: string; latestTimestamp: string };
  /** null for pages whose content model has no links (CSS, JavaScript, JSON) */
  links: LinkRows | null;
  analysis: PageAnalysis;
  /** the expanded text (the raw one without links), when a hook has no analyzer of its own */
  text?: string;
  /** per hook: its analyzer's result (undefined for hooks without one) */
  hooks: unknown[];
  /** the page's row of the full-text index (pages that are no redirects) */
  search?: SearchRow;
  /** the text calls {{#ask:}} / {{#show:}} (their links are added once the semantic data is complete) */
  inlineQueries?: boolean;
}

/** file names whose existence a PageAnalyzer keeps (see fileExists) */
const FILE_CACHE = 20000;

/** cl_sortkey is varbinary(230) in MediaWiki: longer keys are cut there, so they are here. */
const SORTKEY_BYTES = 230;

/**
 * The 'uppercase' category collation of 1.25: the sort key is the uppercased prefix, a newline and the
 * title text (Title::getCategorySortkey), or just the uppercased title text when there is no prefix.
 * Binary (memcmp) order of this key is the member order of a category.
 */
export function categorySortKey(prefix: string, titleText: string): string {
  const key = (prefix === '' ? titleText : prefix.replace(/[\n\t]/g, ' ') + '\n' + titleText).toUpperCase();
  return truncateUtf8(key, SORTKEY_BYTES);
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length * 3 <= maxBytes || Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  const buf = Buffer.from(s, 'utf8');
  let end = maxBytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--; // never cut inside a character
  return buf.subarray(0, end).toString('utf8');
}

/** a message in the content language: the wiki's MediaWiki: override, else the first along the fallback chain */
export function contentMessage(source: Pick<ImportSource, 'messages'>, lang: string, key: string): string | undefined {
  let text = source.messages.override(lang, key);
  for (const l of fallbackChain(lang)) {
    if (text !== undefined) break;
    text = source.messages.text(l, key);
  }
  return text;
}

/**
 * Tracking categories (Parser::addTrackingCategory): the category named by a message in the content
 * language, as the wiki overrides it or the message files give it; '-' or no message disables it.
 */
function trackingCategories(source: ImportSource, codec: TitleCodec, lang: string): Map<string, string | null> {
  const out = new Map<string, string | null>();
  const catPrefix = codec.nsName(NS_CATEGORY) ?? 'Category';
  // the expansion's own (ExpandedPage.trackingCategories) among them
  for (const key of TRACKING_MESSAGES) {
    const text = contentMessage(source, lang, key);
    const t = text === undefined || text.trim() === '-' ? null : codec.parse(`${catPrefix}:${text.trim()}`, 0);
    out.set(key, t && t.ns === NS_CATEGORY ? t.dbkey : null);
  }
  return out;
}

export class PageAnalyzer {
  private readonly tracking: Map<string, string | null>;
  private readonly expander: Expander;
  private readonly strip: StripOptions | null;
  private readonly wantsText: boolean;
  private readonly files = new Map<string, boolean>();

  private constructor(
    private readonly source: ImportSource,
    readonly codec: TitleCodec,
    private readonly interwiki: InterwikiMap,
    private readonly setup: AnalysisSetup,
    private readonly analyzers: Array<HookAnalyzer | null>,
    /** the lemmas of the tokens met so far (search rows) */
    private readonly lemmas: LemmaMemo,
  ) {
    this.tracking = trackingCategories(source, codec, setup.lang);
    this.expander = createExpander(source.pages, codec, {
      siteName: setup.siteName,
      now: new Date(setup.now),
      message: (key) => contentMessage(source, setup.lang, key),
      lang: setup.lang,
      messages: source.messages,
    });
    this.strip = setup.searchIndex ? stripOptions(codec, LANGUAGE_CODES) : null;
    this.wantsText = setup.hookAnalyzers.some((m) => m === null);
  }

  /**
   * `lemmas`: a memo shared with other analysers of the thread (the dictionary's answers never change, and
   * an analyser made per batch would otherwise look every word up again)
   */
  static async create(source: ImportSource, setup: AnalysisSetup, interwiki?: InterwikiMap, lemmas?: LemmaMemo): Promise<PageAnalyzer> {
    const codec = TitleCodec.forSite(setup.siteName, setup.namespaces);
    const analyzers = await Promise.all(
      setup.hookAnalyzers.map(async (m) => (m === null ? null : ((await import(m)) as { analyzer: HookAnalyzer }).analyzer)),
    );
    return new PageAnalyzer(source, codec, interwiki ?? loadInterwikiMap(setup.interwikiFile), setup, analyzers, lemmas ?? new LemmaMemo());
  }

  chunk(afterId: number, limit: number): PageResult[] {
    return this.source.pages.chunkWithText(afterId, limit).map((p) => this.analyze(p));
  }

  /** each page's result handed to `sink` as soon as it is made (result-codec.ts encodeChunk); the count */
  chunkInto(afterId: number, limit: number, sink: (r: PageResult) => void): number {
    const pages = this.source.pages.chunkWithText(afterId, limit);
    for (let i = 0; i < pages.length; i++) {
      const page = pages[i]!;
      // the page's text goes with its result, not with the chunk
      (pages as Array<PageWithText | undefined>)[i] = undefined;
      sink(this.analyze(page));
    }
    return pages.length;
  }

  analyze(page: PageWithText): PageResult {
    const r = page.model !== 'wikitext' ? this.unlinked(page) : this.wikitext(page);
    if (this.strip !== null && !page.isRedirect) r.search = this.searchRow(page, this.strip);
    return r;
  }

  /** CSS, JavaScript, JSON pages have no links; the hooks still see them */
  private unlinked(page: PageWithText): PageResult {
    return this.withHooks({ page: head(page), links: null, analysis: pageAnalysis(page, []), hooks: [] }, page.text);
  }

  private withHooks(r: PageResult, text: string): PageResult {
    const { lang, hookData } = this.setup;
    r.hooks = this.analyzers.map((a, i) => a?.(r.analysis, text, { codec: this.codec, lang, data: hookData?.[i], source: this.source }));
    if (this.wantsText) r.text = text;
    return r;
  }

  private wikitext(page: PageWithText): PageResult {
    const { exp, links } = this.expandAndLink(page);
    const analysis = pageAnalysis(page, [...links.categories.keys()]);
    analysis.defaultSort = exp.defaultSort;
    const r = this.withHooks(
      { page: head(page), links: linkRows(links, exp.templates, page.dbkey.replace(/_/g, ' ')), analysis, hooks: [] },
      exp.text,
    );
    if (exp.inlineQueries) r.inlineQueries = true;
    return r;
  }

  /**
   * What LinksUpdate records of one page: its expansion's links, the redirect target, #ifexist targets and
   * the tracking categories the parse adds. `answers` holds outputs of the page's {{#ask:}} calls (the
   * late pass of link-pass.ts); calls without one stay as written.
   */
  expandAndLink(page: PageWithText, answers?: ReadonlyMap<string, InlineQueryOutput>): { exp: Expansion; links: PageLinks } {
    const { codec, interwiki, tracking } = this;
    // a redirect renders the text after its redirect link; the target is a page link of its own
    let text = page.text;
    let redirectLink: TitleRef | null = null;
    let redirectInterwiki: { prefix: string; title: string } | null = null;
    const redirect = page.isRedirect ? redirectTargetAndText(page.text, codec, interwiki) : null;
    if (redirect) {
      text = redirect.rest;
      const t = redirect.target;
      // ParserOutput::addLink: an interwiki title is an interwiki link; no special pages; Media: links the file page
      if (t.interwiki) redirectInterwiki = { prefix: t.interwiki, title: t.dbkey };
      else if (t.ns !== NS_SPECIAL && t.dbkey !== '') redirectLink = { ns: t.ns === NS_MEDIA ? NS_FILE : t.ns, dbkey: t.dbkey };
    }
    const exp = this.expander.expand({ ns: page.ns, dbkey: page.dbkey, text }, answers);
    const defaultSort = exp.defaultSort;
    const links = extractLinks(exp.text, { codec, ns: page.ns, dbkey: page.dbkey, defaultSort, interwiki });
    const addTracking = (key: string) => {
      const cat = tracking.get(key);
      if (cat && !links.categories.has(cat)) links.categories.set(cat, defaultSort ?? '');
    };
    if (redirectLink) links.pages.set(`${redirectLink.ns}|${redirectLink.dbkey}`, redirectLink);
    if (redirectInterwiki) links.interwikis.set(`${redirectInterwiki.prefix}|${redirectInterwiki.title}`, redirectInterwiki);
    if (links.props.has('hiddencat') && page.ns === NS_CATEGORY) addTracking('hidden-category-category');
    // $wgExemptFromUserRobotsControl defaults to the content namespaces: __INDEX__/__NOINDEX__ do nothing there
    if (page.ns !== 0 && links.props.has('noindex')) addTracking('noindex-category');
    else if (page.ns !== 0 && links.props.has('index')) addTracking('index-category');
    for (const f of links.embeddedFiles) {
      if (!this.fileExists(f)) {
        addTracking('broken-file-category');
        break;
      }
    }
    if (exp.displayTitleIgnored) addTracking('restricted-displaytitle-ignored');
    for (const key of exp.trackingCategories ?? []) addTracking(key);
    // {{#ifexist:}} targets are links of the page (MediaWiki records them so that the page is
    // re-parsed when they are created)
    for (const t of exp.links) if (!links.pages.has(`${t.ns}|${t.dbkey}`)) links.pages.set(`${t.ns}|${t.dbkey}`, t);
    if (defaultSort !== undefined) links.props.set('defaultsort', defaultSort);
    if (exp.displayTitle !== undefined) links.props.set('displaytitle', exp.displayTitle);
    return { exp, links };
  }

  /**
   * Whether a file is in the image table (final before pass 2): the same few files are embedded by many
   * pages, so nearly every look-up repeats an earlier one; the answers are kept, up to FILE_CACHE names at
   * a time.
   */
  private fileExists(name: string): boolean {
    let known = this.files.get(name);
    if (known === undefined) {
      known = this.source.files.exists(name);
      if (this.files.size >= FILE_CACHE) this.files.clear();
      this.files.set(name, known);
    }
    return known;
  }

  /** the page's row of the full-text index as analyze() makes it (undefined: a redirect, or no index) */
  searchRowOf(page: PageWithText): SearchRow | undefined {
    return this.strip !== null && !page.isRedirect ? this.searchRow(page, this.strip) : undefined;
  }

  /** Title, redirect titles and the source text with markup stripped, folded for search. */
  private searchRow(page: PageWithText, strip: StripOptions): SearchRow {
    const title = foldForSearch(page.dbkey.replace(/_/g, ' '));
    const redirects = page.redirected === false ? [] : this.source.redirectsTo(page).map((k) => foldForSearch(k.replace(/_/g, ' ')));
    const text = foldForSearch(page.model === 'wikitext' ? stripMarkup(page.text, strip) : page.text);
    const memo = this.lemmas;
    const keys = new Set(lemmaKeys(title, memo));
    for (const r of redirects) for (const k of lemmaKeys(r, memo)) keys.add(k);
    return {
      id: page.id,
      ns: page.ns,
      title,
      redirects,
      text,
      titleLemmas: lemmaText(title, memo),
      redirectLemmas: lemmaText(redirects.join(' '), memo),
      textLemmas: lemmaText(text, memo),
      lemmaKeys: [...keys],
    };
  }
}

/** What the hooks are told of a page; a wikitext page's analysis then gets its defaultSort (maybe undefined) */
function pageAnalysis(p: PageWithText, categories: string[]): PageAnalysis {
  return { pageId: p.id, ns: p.ns, dbkey: p.dbkey, isRedirect: p.isRedirect, latestTimestamp: p.latestTimestamp, categories };
}

function head(p: PageWithText): PageResult['page'] {
  return { id: p.id, ns: p.ns, dbkey: p.dbkey, latestTimestamp: p.latestTimestamp };
}

export function linkRows(links: PageLinks, templates: TitleRef[], titleText: string): LinkRows {
  const pages: Array<number | string> = [];
  for (const t of links.pages.values()) pages.push(t.ns, t.dbkey);
  const tl: Array<number | string> = [];
  for (const t of templates) tl.push(t.ns, t.dbkey);
  const categories: string[] = [];
  for (const [cat, prefix] of links.categories) categories.push(cat, categorySortKey(prefix, titleText), prefix);
  const langs: string[] = [];
  for (const [lang, title] of links.langs) langs.push(lang, title);
  const interwikis: string[] = [];
  for (const l of links.interwikis.values()) interwikis.push(l.prefix, l.title);
  const props: string[] = [];
  for (const [name, value] of links.props) props.push(name, value);
  return { pages, files: [...links.files], templates: tl, categories, langs, external: [...links.external], interwikis, props };
}
