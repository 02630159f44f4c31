/**
 * Extension point of the importer's second pass. Other parts of wikiquery (the Semantic MediaWiki
 * importer first) see every page once, with its template-expanded text, without a pass of their own
 * over the dump and without the importer knowing what they extract.
 *
 * Order of calls, all on the import's writer (nothing is visible until the import succeeds and the
 * writer publishes the database); a hook writes through its area of the writer, never SQL:
 *   begin(w, ctx)   -- after pass 1 (page, page_text, redirect, image, message rows exist) and before
 *                      the first page of pass 2; create your tables / prepare statements here
 *   page(p, text)   -- once per page in page_id order, inside the importer's batch transaction
 *
 * Pages are analysed on worker threads. A hook whose work on a page's text is pure can name an
 * `analyzer` module: it runs there, and page() gets its result (and no text) on the main thread.
 *   finish(w, ctx) -- after all link tables of pass 2 are written, before their indexes
 *   finishOwnTables(w, ctx) -- after finish(), before ANALYZE: the rest of the hook's work on its own
 *                      tables. When pages have inline queries, at once (the links of their results need
 *                      the hook's data); else after the category table, while the query-page reports are
 *                      computed on a thread of their own from the link tables, page, redirect, image and
 *                      category -- tables it must not write
 */
import type { ImportSource, ImportWriter, Store } from '../store/import-writer.js';
import type { TitleCodec } from '../wiki/titles.js';

export interface PageAnalysis {
  pageId: number;
  ns: number;
  /** title without namespace prefix, underscores */
  dbkey: string;
  isRedirect: boolean;
  /** latest revision time, TS_MW (YYYYMMDDhhmmss) */
  latestTimestamp: string;
  /** the page's {{DEFAULTSORT:…}}, when it has one */
  defaultSort?: string;
  /** DB keys of the categories the page is in (as written to categorylinks, tracking categories included) */
  categories: string[];
}

export interface HookContext {
  codec: TitleCodec;
  /** content language code, e.g. 'uk' */
  lang: string;
  log: (line: string) => void;
  /** a new step of the import's timings begins (--timings): for the sub-steps of a long finish() */
  step?: (name: string) => void;
  /**
   * Before pass 2 (from begin()): the pages of namespace `ns` analysed as pass 2 will analyse them, in page
   * id order, each with this hook's analyzer result -- for a hook that must know what some pages say
   * before it sees the others (SMW: the types the Property: pages declare).
   */
  analyzeNamespace?: (ns: number, each: (page: PageAnalysis, analyzed: unknown) => void) => Promise<void>;
}

/**
 * The part of a hook that reads a page's expanded text, run on the analysis workers: a module exporting
 * it as `analyzer`. Its result must survive structuredClone (plain objects, arrays, Maps, Sets).
 */
export type HookAnalyzer = (
  page: PageAnalysis,
  expandedText: string,
  ctx: {
    codec: TitleCodec;
    lang: string;
    /** in pass 2: what the hook's analyzerData() gave after begin() (undefined in the pre-pass of begin()) */
    data?: unknown;
    /** the database as pass 1 left it (pages, redirects, files, messages), read-only */
    source?: ImportSource;
  },
) => unknown;

export interface PageAnalysisHook {
  /** shown in log lines and errors */
  name: string;
  /** URL of a module exporting a HookAnalyzer as `analyzer` (see above) */
  analyzer?: string;
  begin?(writer: ImportWriter, ctx: HookContext): void | Promise<void>;
  /** after begin(): data every analyzer of pass 2 is given (plain data: it is copied to each worker) */
  analyzerData?(): unknown;
  /**
   * `expandedText` is the page text after template expansion (the raw text when no expansion applies);
   * for a hook with an `analyzer`, it is '' and `analyzed` is what the analyzer returned for the page.
   */
  page(page: PageAnalysis, expandedText: string, analyzed?: unknown): void | Promise<void>;
  finish?(writer: ImportWriter, ctx: HookContext): void | Promise<void>;
  /** see the order of calls above: beside the reports' thread when it can, so never their tables */
  finishOwnTables?(writer: ImportWriter, ctx: HookContext): void | Promise<void>;
}

/** A page as the --render pass gives it to the renderer: the latest revision of a content page. */
export interface PageToRender {
  pageId: number;
  revId: number;
  ns: number;
  dbkey: string;
  text: string;
}

/**
 * `import --render`: fills the parser cache table with the serving renderer's output. The importer has no
 * renderer of its own (it is serving code, src/modules/page-renderer.ts); the CLI supplies this.
 */
export interface PageRenderer {
  /** the renderer version stored with each output */
  version: number;
  /** set up over the import's finished database (read through the serving Store); returns the page renderer */
  open(store: Store): Promise<(page: PageToRender) => Promise<{ optionsKey: string; output: string }>>;
}
