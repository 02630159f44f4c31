/**
 * The importer's side of the store: everything an import writes (and the little it reads back while it
 * runs), in domain terms, with no SQL and no backend type. The importer (src/importer/) decides what is
 * written and in which order; a backend (src/store/sqlite/import/) decides how. `openImportWriter`
 * (src/store/open.ts) opens one for a `--db` location.
 *
 * Row writes and look-ups are synchronous: they run hundreds of thousands of times per import, inside
 * the template expander's synchronous callbacks too, and a backend that talks over a network buffers
 * them (and pre-loads what the look-ups need) rather than making a round trip per row. The long phases
 * (search index, finish) return promises.
 *
 * Nothing written is visible to readers until `finish()` publishes the whole database at once; `abort()`
 * throws everything away and leaves the location as it was.
 */
import type { InterwikiMap } from '../wiki/interwiki.js';
import type { RevisionHeader } from '../wiki/revisions.js';
import type { FileRow } from './file-store.js';
import type { SiteStatistics } from './site-store.js';
import type { Store } from './store.js';

/** the read side, as serving sees it: what `ImportWriter.readStore()` returns */
export type { Store };

export interface TitleRef {
  ns: number;
  dbkey: string;
}

export interface SiteMeta {
  siteinfo: { sitename: string; dbname: string; base: string; generator: string; case: string; lang: string };
  lang: string;
  importTime: string;
  importId: string;
  namespaces: Array<{ id: number; name: string; canonical?: string | null; case: string }>;
}

/** One page with its first and latest revision's metadata (the `page` row). */
export interface PageRow {
  id: number;
  ns: number;
  dbkey: string;
  isRedirect: boolean;
  len: number;
  latestRevId: number;
  touched: string;
  revisionCount: number;
  model: string;
  firstRevId: number;
  firstTimestamp: string;
  firstUser: string;
  firstUserId: number;
  firstLen: number | null;
  firstSha1: string;
  firstComment: string;
  firstMinor: boolean;
  latestTimestamp: string;
  latestUser: string;
  latestUserId: number;
  latestComment: string;
  latestSha1: string;
  latestMinor: boolean;
  latestParentId: number;
  random: number;
}

export interface RedirectRow {
  ns: number;
  dbkey: string;
  fragment: string;
  interwiki: string;
}

/** A page as pass 2 reads it, in page id order. */
export interface PageWithText {
  id: number;
  ns: number;
  dbkey: string;
  isRedirect: boolean;
  latestTimestamp: string;
  latestRevId: number;
  model: string;
  text: string;
  /** whether some page redirects to this one (when the reader knows it; else ask redirectsTo) */
  redirected?: boolean;
}

export interface Uploader {
  user: string;
  userId: number;
  timestamp: string;
  comment: string;
}

export interface RevisionInput extends RevisionHeader {
  page: number;
  ns: number;
  /** null when the dump has no text (deleted) */
  text: string | null;
  /** the text in its stored form, made off the writing thread (encodeRevisionText in open.ts): `text` is not read then */
  encodedText?: Uint8Array;
  len: number | null;
  sha1: string;
  model: string;
  format: string;
}

export interface LogInput {
  id: number;
  type: string;
  action: string;
  timestamp: string;
  user: string;
  userId: number;
  ns: number;
  dbkey: string;
  comment: string;
  params: string;
  deleted: number;
  /** log_page as the upstream's log gives it (follow); absent: the page at the title when it is written */
  page?: number;
}

/** an image row as the import writes it: the stored columns of FileRow, the SHA-1 in both forms, the uploader and path */
export interface ImageRow extends Pick<FileRow, 'name' | 'size' | 'width' | 'height' | 'bits' | 'mediaType' | 'majorMime' | 'minorMime'> {
  sha1Base36: string;
  sha1Hex: string;
  uploader: Uploader;
  /** the file's path below --files, '/'-separated */
  path: string;
}

export interface CategoryLinkRow {
  from: number;
  to: string;
  sortkey: string;
  sortkeyPrefix: string;
  timestamp: string;
  type: 'page' | 'subcat' | 'file';
}

/** One page of the full-text index, its texts folded for search (src/wiki/search-text.ts) already. */
export interface SearchRow {
  id: number;
  ns: number;
  /** the title text (without namespace prefix) */
  title: string;
  /** the titles of the pages that redirect to it, in page id order */
  redirects: string[];
  /** the text with markup stripped */
  text: string;
  /** the lemmas of the tokens of the title, of the redirect titles and of the text (src/wiki/morphology.ts) */
  titleLemmas: string;
  redirectLemmas: string;
  textLemmas: string;
  /** the lemma keys of the title and of the redirect titles, each once */
  lemmaKeys: string[];
}

/** The full-text index, filled during pass 2 (pages that are no redirects, in page id order). */
export interface SearchImportWriter {
  begin(): void;
  page(row: SearchRow): void;
  /** write the pages queued so far (a batch also does when it commits); its queue stays small */
  flush(): void;
  /** the index made compact; its size */
  finish(): SearchIndexResult;
}

export interface SearchIndexResult {
  pages: number;
  redirectTitles: number;
  /** bytes the index takes, and the whole database so far */
  indexBytes: number;
  databaseBytes: number;
}

export interface ReportOptions {
  /** keep at most this many rows per report (MediaWiki's $wgQueryCacheLimit is 1000); default: all */
  maxRows?: number | null;
  /** called after each report with its name, row count and seconds */
  onReport?: (name: string, rows: number, seconds: number) => void;
}

/** pass 1: pages, their latest texts, redirects, and the scratch upload facts the file import reads */
export interface PageImportWriter {
  /** false when the page id is taken already (concatenated dumps) */
  insert(row: PageRow): boolean;
  /** the latest revision of an inserted page */
  latestOf(id: number): { timestamp: string; revId: number };
  /** remove a page with its text and redirect; true when it was a redirect */
  remove(id: number): boolean;
  insertText(id: number, text: string): void;
  insertRedirect(id: number, target: RedirectRow): void;
  /**
   * After pass 1: index pages by title. A title held by two page ids keeps the page whose latest revision
   * is newer (then the higher id); the others are removed. Returns how many were removed.
   */
  indexTitles(): number;
  /** pages (of namespace `ns` when given) */
  count(ns?: number): number;
  redirectCount(): number;
  /** pass 2's reading: up to `limit` pages with id > `afterId`, in id order */
  chunkWithText(afterId: number, limit: number): PageWithText[];
  /** the id of the last page of the chunk that chunkWithText(afterId, limit) reads; null: none after afterId */
  chunkEnd(afterId: number, limit: number): number | null;
  /** up to `limit` pages of namespace `ns` with id > `afterId`, in id order (what chunkWithText reads of them) */
  chunkInNamespace(ns: number, afterId: number, limit: number): PageWithText[];
  /** the pages of these ids (those that exist), in id order, as chunkWithText reads them */
  withText(ids: readonly number[]): PageWithText[];
  /** pages of one namespace with their texts, in title order (MediaWiki: pages for the message overrides) */
  inNamespaceWithText(ns: number): Array<{ dbkey: string; text: string; model: string }>;
  /** template look-ups of the expander (after indexTitles) */
  byTitle(t: TitleRef): { id: number; isRedirect: boolean } | undefined;
  redirectOf(id: number): TitleRef | undefined;
  /** the target of the redirect page titled `t`; undefined when `t` is no redirect (or no page) */
  redirectTarget(t: TitleRef): TitleRef | undefined;
  textOf(id: number): string | undefined;
  /** the first revision's author of a page, as an uploader */
  firstRevisionUploader(t: TitleRef): Uploader | undefined;
}

/** Who uploaded which file: the dump's <upload> records, completed from uploads.json; dropped before pass 2 */
export interface UploadFactsWriter {
  /** the newest upload of a file wins */
  record(name: string, u: Uploader): void;
  /** only when nothing is known of the file yet */
  fillIn(name: string, u: Uploader): void;
  get(name: string): Uploader | undefined;
  drop(): void;
}

export interface HistoryImportWriter {
  readonly revisions: number;
  readonly logItems: number;
  writeRevision(r: RevisionInput): void;
  writeLog(l: LogInput): void;
  /** after pass 1: drop revisions of skipped pages, derive users, contributors, recent changes */
  finish(): { users: number; recentChanges: number };
}

export interface FileImportWriter {
  write(r: ImageRow): void;
  exists(name: string): boolean;
  /** once every file is written (pass 1's pages are in): each file's duplicates and description page */
  finish(): void;
}

export interface MessageImportWriter {
  write(lang: string, key: string, text: string): void;
  writeOverride(lang: string, key: string, text: string): void;
  count(): number;
  /** languages with at least one message */
  languages(): string[];
  text(lang: string, key: string): string | undefined;
  override(lang: string, key: string): string | undefined;
}

/**
 * The link rows of one page, what LinksUpdate writes for it: the import's pass 2 (LinkImportWriter) and the
 * updater's live tables (UpdateWriter's links.rows) take them alike. The per-page tables' writes return
 * the rows they added.
 */
export interface PageLinkRows {
  pageLink(from: number, fromNs: number, to: TitleRef): void;
  imageLink(from: number, fromNs: number, file: string): void;
  templateLink(from: number, fromNs: number, to: TitleRef): void;
  /** 1 when the row is new, 0 when the page has it already; undefined where rows are queued and counted at the end (the import) */
  categoryLink(row: CategoryLinkRow): number | undefined;
  langLink(from: number, lang: string, title: string): number;
  externalLinks(from: number, urls: Iterable<string>): number;
  interwikiLinks(from: number, links: Iterable<{ prefix: string; title: string }>): number;
  pageProp(page: number, name: string, value: string): number;
}

/** pass 2: what LinksUpdate writes for a page; the page, image, template and category links are queued (counted by finish()) */
export interface LinkImportWriter extends PageLinkRows {
  interwikiMap(map: InterwikiMap): void;
  /** before the first page of pass 2 */
  begin(): void;
  categoryLink(row: CategoryLinkRow): undefined;
  /** after the last page: the page, image, template and category links, counted */
  finish(): { pagelinks: number; imagelinks: number; templatelinks: number; categorylinks: number };
  /**
   * After finish(): links a page gains once the whole wiki is known (its inline queries' results, as a
   * refresh of the page records them); the rows it has already are kept. The rows are queued:
   * flushSupplement() writes the rest and returns the rows added since it was last called.
   */
  supplement(from: number, fromNs: number, links: LateLinks): void;
  flushSupplement(): LateLinkCounts;
}

/** a page's links in the flat lists pass 2 writes them from */
export interface LateLinks {
  /** namespace, DB key, … */
  pages: ReadonlyArray<number | string>;
  files: readonly string[];
  /** namespace, DB key, … */
  templates: ReadonlyArray<number | string>;
  /** category, sort key, sort key prefix, … */
  categories: readonly string[];
  /** cl_timestamp and cl_type of the category rows */
  timestamp: string;
  categoryType: CategoryLinkRow['type'];
}

export interface LateLinkCounts {
  pagelinks: number;
  imagelinks: number;
  templatelinks: number;
  categorylinks: number;
}

/** tables derived from the finished link tables */
export interface DerivedImportWriter {
  /** the category table (members counted by kind, hidden categories); returns its rows */
  categories(): number;
  /** rows of the category table so far */
  categoryCount(): number;
  /** initSiteStats.php's figures (content pages counted by the 'link' method) */
  statistics(): SiteStatistics;
  writeStatistics(stats: SiteStatistics): void;
  /** the tables the reports read (index areas too): complete before startReports, unchanged until joinReports */
  readonly reportSources: readonly IndexArea[];
  /**
   * The query-page reports (querycache) computed on a thread of their own from the tables as they are
   * now, while the import goes on with tables the reports do not read; joinReports() waits for them and
   * stores them (before ANALYZE). Between the two the import writes none of reportSources (their pending
   * indexes wait for the join).
   */
  startReports(opts?: ReportOptions): void;
  /** startReports' thread has ended (joinReports() would not wait) */
  reportsEnded(): boolean;
  joinReports(): Promise<ReportsDone>;
}

/** what joinReports() gives: the rows of every report, and the wall seconds of the reports' thread */
export interface ReportsDone {
  rows: number;
  seconds: number;
}

/**
 * A row of SMW's smw_value: its subject and property, its position among the subject's values of the
 * property, its data item kind, and its item, namespace, key and sort number columns.
 */
export type SemanticValue = [
  subject: number,
  property: number,
  seq: number,
  di: number,
  item: string | null,
  ns: number | null,
  key: string | null,
  sortNum: number | null,
];

/** The Semantic MediaWiki import: subjects and staged annotations in pass 2, typed values at the end. */
export interface SemanticImportWriter {
  /** a word-key prefix with more rows than this gets a precomputed top list (what the backend's reader expects) */
  readonly heavyRows: number;
  /** create the semantic tables (once, before pass 2) */
  begin(): void;
  propertyId(key: string): number | undefined;
  addProperty(key: string, type: string): number;
  declareType(property: number, type: string): void;
  addSubject(ns: number, dbkey: string, subobject: string, sortkey: string): number;
  /** a query's conditions, written (normalised) at the end as the value `seq` of its subject (kind: that seq) */
  stage(subject: number, property: number, kind: number, text: string): void;
  /** the values written with property id `from` get `to` */
  renumberProperty(from: number, to: number): void;
  /** apply the declared types to the user properties; every property with its type */
  resolveTypes(): Array<{ id: number; key: string; type: string }>;
  stagedRows(afterRow: number, limit: number): Array<{ row: number; subject: number; property: number; kind: number; text: string }>;
  /** the target of a page when it is a redirect */
  redirectTarget(t: TitleRef): TitleRef | undefined;
  /** run writes as one unit (a transaction) */
  batch(fn: () => void): void;
  addValue(...value: SemanticValue): void;
  /** a value offered by autocompletion of `source` (a property id, or -1 - namespace) */
  addCompletionValue(source: number, value: string): void;
  /** staging done: the buffered rows written, the staged query strings dropped */
  endStaging(): void;
  /** after endStaging(): a subject for each page that is only a value (and each category of _INST/_SUBC) */
  valueSubjects(): void;
  completionValues(afterId: number, limit: number): Array<[id: number, source: number, value: string]>;
  addWordKey(source: number, key: string, valueId: number): void;
  /** word keys staged: sorted into place; returns their number */
  endWordKeys(): number;
  /** word keys in (source, key, value) order after a cursor (null: from the start) */
  wordKeys(after: [number, string, number] | null, limit: number): Array<[source: number, key: string, value: number]>;
  addHeavyPrefix(source: number, key: string, topValues: number[]): void;
  /**
   * After endStaging(): the autocompletion index -- the distinct completion values (page titles
   * included), then word keys and heavy prefixes made from them by `build`, the URL of a module
   * exporting `buildCompletionIndex(w, heavyRows)` that calls the methods above on `w`. The backend may
   * run it on a thread of its own over a copy of the values while the import goes on (SQLite does); the
   * import writer's finish() waits for it, and `done` gets what `build` returned.
   */
  buildCompletionIndex(build: string, heavyRows: number, done: (result: CompletionIndexCounts) => void): void;
  /** indexes, scratch tables dropped */
  finish(): void;
}

/** what buildCompletionIndex's module returns */
export interface CompletionIndexCounts {
  words: number;
  nodes: number;
  rows: number;
}

/** --render: the parser cache table (src/store/parser-cache-store.ts), written after every other pass */
export interface ParserCacheImportWriter {
  write(pageId: number, revId: number, optionsKey: string, version: number, output: string): void;
  count(): number;
}

/**
 * What page analysis reads of the database under construction: pass 1's pages, files and messages,
 * final by pass 2. Implemented by the writer itself and by readers of their own (analysis workers).
 */
export interface ImportSource {
  pages: Pick<PageImportWriter, 'chunkWithText' | 'byTitle' | 'redirectOf' | 'redirectTarget' | 'textOf'>;
  files: Pick<FileImportWriter, 'exists'>;
  messages: Pick<MessageImportWriter, 'text' | 'override'>;
  /** the DB keys of the pages that redirect to a title, in page id order */
  redirectsTo(t: TitleRef): string[];
}

/** An ImportSource on a connection of its own (another thread), opened by store/open.ts's openImportReader. */
export interface ImportReader extends ImportSource {
  /** `fn`'s reads see one state of the database (and cost less than each on its own) */
  snapshot<T>(fn: () => T): T;
  close(): void;
}

export interface ImportWriter extends ImportSource {
  /** what the import is written to, as the operator named it */
  readonly location: string;
  site: { write(meta: SiteMeta): void };
  pages: PageImportWriter;
  uploads: UploadFactsWriter;
  history: HistoryImportWriter;
  files: FileImportWriter;
  messages: MessageImportWriter;
  links: LinkImportWriter;
  derived: DerivedImportWriter;
  semantic: SemanticImportWriter;
  parserCache: ParserCacheImportWriter;
  /**
   * The database as written so far, read through the serving Store (for passes that run serving code over
   * the finished tables: --render). Valid until `finish()` or `abort()`; reads see the writes made before.
   */
  readStore(): Store;
  search: SearchImportWriter;
  /**
   * Let other threads read what has been written (pass 1's tables are final from pass 2 on): the
   * location to give openImportReader(). The writer keeps writing meanwhile.
   */
  shareForReading(): string;
  /** the readers are closed: back to writing alone */
  stopSharing(): void;
  /** group the writes that follow into one unit, until `commit()` (bulk loading goes in batches) */
  begin(): void;
  commit(): void;
  /** undo an open batch (no-op without one) */
  rollback(): void;
  /**
   * Secondary indexes are built after the rows they index are in (a B-tree from sorted input is much
   * faster than one kept up to date row by row): the import builds an area's between phases.
   */
  createIndexes(area: IndexArea): void;
  /** areas with indexes still to build */
  pendingIndexAreas(): IndexArea[];
  /**
   * `on`: the import's other threads are done or idle until `useIdleCores(false)`: the writer may spread
   * the work that follows (its sorts) over the other cores.
   */
  useIdleCores(on: boolean): void;
  /**
   * Do now what of `finish()`'s work can be done already, for a core that would otherwise wait: store
   * what the writer's own threads have finished (SQLite: the autocompletion index), and gather the
   * planner statistics of every table that is final (its indexes built, no write to come): all but
   * those of `later` (areas steps still to come write) and those the writer has yet to fill or index.
   */
  finishEarly(later: readonly IndexArea[]): Promise<void>;
  /**
   * Every index, statistics for the planner, then publish the database atomically onto the location.
   * `beforePublish` runs when all is durable, just before the publication (it may throw to stop it).
   * `step` names each part as it begins (the import's --timings).
   */
  finish(beforePublish?: () => Promise<void>, step?: (name: string) => void): Promise<void>;
  /** throw away everything written; the location is left as it was (safe to call at any time, twice) */
  abort(): void;
}

/**
 * A group of secondary indexes, named by MediaWiki's table whose rows they index (what a backend of any
 * kind has: the tables are MediaWiki's); `pendingIndexAreas()` may also name a backend's own.
 */
export type IndexArea =
  | 'revision'
  | 'logging'
  | 'categorylinks'
  | 'pagelinks'
  | 'imagelinks'
  | 'templatelinks'
  | 'langlinks'
  | 'externallinks'
  | 'iwlinks'
  | 'page_props'
  | 'image'
  | (string & {});
