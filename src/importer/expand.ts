/**
 * Template expansion for pass 2: the one place where a page's text becomes the text its links are read
 * from. The expansion is the engine's round (src/wikitext/expansion-rounds.ts expandRound), as for action=parse
 * and expandtemplates; templates come synchronously from the database being built (the import writer's
 * pages after pass 1) through a small LRU cache, following one redirect as MediaWiki's
 * Parser::statelessFetchTemplate does, so one round answers everything.
 */
import type { ImportSource } from '../store/import-writer.js';
import type { TitleCodec } from '../wiki/titles.js';
import { TemplateTreeCache } from '../wikitext/preprocessor/tree.js';
import {
  expandRound,
  PageSnapshot,
  type ExpandOptions,
  type InlineQueryCall,
  type InlineQueryOutput,
  type PageSource,
} from '../wikitext/expansion-rounds.js';
import type { MessageSource } from '../wiki/messages.js';

/** the page lookups expansion needs */
type ImportPages = Pick<ImportSource['pages'], 'byTitle' | 'redirectOf' | 'textOf'>;

export interface TitleRef {
  ns: number;
  dbkey: string;
}

export interface Expansion {
  text: string;
  /** transcluded pages, each once (redirects and their targets) */
  templates: TitleRef[];
  /** pages the expansion itself links to ({{#ifexist:}} targets), besides the links of the text */
  links: TitleRef[];
  defaultSort?: string;
  /** the HTML of the {{DISPLAYTITLE:…}} that applies */
  displayTitle?: string;
  /** a {{DISPLAYTITLE:…}} was refused: the page is tracked in restricted-displaytitle-ignored */
  displayTitleIgnored?: boolean;
  /** which limit stopped (part of) the expansion: 'depth' | 'size' | 'nodes' | 'error' */
  limitHit?: string;
  /** tracking categories the expansion adds (message keys) */
  trackingCategories?: string[];
  /** the text calls {{#ask:}} / {{#show:}} (their links are added once the semantic data is complete) */
  inlineQueries: boolean;
  /** inline query calls the answers given did not hold (left as written in `text`) */
  wantedQueries: InlineQueryCall[];
}

export interface PageToExpand {
  ns: number;
  dbkey: string;
  text: string;
}

export interface Expander {
  /** `answers`: the outputs of the page's inline queries known so far (queryKey → output); the others stay as written */
  expand(page: PageToExpand, answers?: ReadonlyMap<string, InlineQueryOutput>): Expansion;
}

type CachedPage = { text: string; ns: number; dbkey: string } | null;

/** LRU of template texts: bounded by entries and by characters, since one template can be huge. */
class TextCache {
  private readonly map = new Map<string, CachedPage>();
  private chars = 0;
  constructor(
    private readonly maxEntries: number,
    private readonly maxChars: number,
  ) {}

  get(key: string): CachedPage | undefined {
    const v = this.map.get(key);
    if (v === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, v);
    return v;
  }

  set(key: string, v: CachedPage): void {
    this.map.set(key, v);
    this.chars += v?.text.length ?? 0;
    while (this.map.size > this.maxEntries || this.chars > this.maxChars) {
      const [oldest, page] = this.map.entries().next().value as [string, CachedPage];
      this.map.delete(oldest);
      this.chars -= page?.text.length ?? 0;
    }
  }
}

/** Page lookups by title in the database under construction (after the pages are indexed by title). */
export class PageLookup implements PageSource {
  private readonly cache = new TextCache(4000, 32 * 1024 * 1024);

  constructor(
    private readonly pages: ImportPages,
    readonly codec: TitleCodec,
    /** the message files and MediaWiki: overrides already imported, for {{int:}} */
    readonly messages?: MessageSource,
  ) {}

  exists(t: TitleRef): boolean {
    return this.pages.byTitle(t) !== undefined;
  }

  /**
   * Text of a page, after one redirect hop (Parser::statelessFetchTemplate), with the title of the page
   * it comes from; null when there is no such page. Cached by the title asked for.
   */
  template(t: TitleRef): { text: string; ns: number; dbkey: string } | null {
    const key = `${t.ns}|${t.dbkey}`;
    let page = this.cache.get(key);
    if (page === undefined) {
      page = this.load(t);
      this.cache.set(key, page);
    }
    return page;
  }

  private load(t: TitleRef): CachedPage {
    let row = this.pages.byTitle(t);
    let from = t;
    if (row?.isRedirect) {
      const target = this.pages.redirectOf(row.id);
      if (target) {
        from = { ns: target.ns, dbkey: target.dbkey };
        row = this.pages.byTitle(target);
      }
    }
    const text = row ? this.pages.textOf(row.id) : undefined;
    return text === undefined ? null : { text, ns: from.ns, dbkey: from.dbkey };
  }
}

/** Full template expansion with the engine, templates read through the lookup. */
export class PreprocessorExpander implements Expander {
  private readonly base: {
    codec: TitleCodec;
    siteName: string;
    now: Date;
    treeCache: TemplateTreeCache;
    message?: (key: string) => string | undefined;
    contentLang?: string;
  };

  constructor(
    private readonly lookup: PageLookup,
    opts: ExpanderOptions,
  ) {
    this.base = {
      codec: lookup.codec,
      siteName: opts.siteName,
      // one clock for the whole import: {{CURRENTYEAR}} and friends are the same on every page
      now: opts.now,
      // a template used on thousands of pages is parsed once per import
      treeCache: new TemplateTreeCache(),
      message: opts.message,
      // LinksUpdate parses with the canonical parser options: {{int:}} in the content language
      contentLang: opts.lang,
    };
  }

  expand(page: PageToExpand, answers?: ReadonlyMap<string, InlineQueryOutput>): Expansion {
    const snap = new PageSnapshot(this.lookup);
    if (answers) for (const [k, v] of answers) snap.queries.set(k, v);
    const b = this.base;
    // a literal, not a spread of the base: the same object shape on every page
    const o: ExpandOptions = {
      codec: b.codec,
      title: { ns: page.ns, dbkey: page.dbkey },
      siteName: b.siteName,
      now: b.now,
      treeCache: b.treeCache,
      message: b.message,
      contentLang: b.contentLang,
      inlineQueries: true,
    };
    const round = expandRound(page.text, snap, o);
    const r = round.result;
    return {
      text: r.text,
      templates: r.templates,
      links: r.links,
      defaultSort: r.defaultSort,
      displayTitle: r.displayTitle,
      displayTitleIgnored: r.displayTitleIgnored,
      limitHit: r.limitHit,
      trackingCategories: r.trackingCategories,
      inlineQueries: round.wantedQueries.length > 0 || (answers !== undefined && answers.size > 0),
      wantedQueries: round.wantedQueries,
    };
  }
}

export interface ExpanderOptions {
  siteName: string;
  now: Date;
  /** a message in the content language (the wiki's override, else the message files') */
  message?: (key: string) => string | undefined;
  /** the content language */
  lang?: string;
  /** the imported messages by language: catalog entries and MediaWiki: overrides */
  messages?: { text(lang: string, key: string): string | undefined; override(lang: string, key: string): string | undefined };
}

export function createExpander(pages: ImportPages, codec: TitleCodec, opts: ExpanderOptions): Expander {
  const m = opts.messages;
  const messages: MessageSource | undefined = m && {
    catalogText: (lang, key) => m.text(lang, key),
    overrideText: (lang, key) => m.override(lang, key),
  };
  return new PreprocessorExpander(new PageLookup(pages, codec, messages), opts);
}
