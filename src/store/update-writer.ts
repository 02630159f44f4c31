/**
 * The incremental writer's side of the store: what `import --update` and `follow` change in a database an
 * import made, page by page, in domain terms. The importer (src/importer/update.ts) decides what changes and
 * analyses each page with the import's own analysis; a backend (src/store/sqlite/update/writer.ts) keeps
 * MediaWiki's tables as LinksUpdate, the job queue and the counters keep them. `openUpdateWriter`
 * (src/store/open.ts) opens one for a `--db` location.
 *
 * Everything between `begin()` and `commit()` is one transaction: a reader (a `serve` on the same database)
 * sees a batch whole or not at all, and a failure or a kill leaves the database at the previous batch.
 * Every method is an index seek or a bounded range scan (one page's rows, one title's backlinks).
 */
import type {
  CategoryLinkRow,
  ImageRow,
  ImportSource,
  LogInput,
  PageImportWriter,
  PageLinkRows,
  RevisionInput,
  SearchRow,
  SemanticValue,
  TitleRef,
  UploadFactsWriter,
} from './import-writer.js';
import type { SiteStatistics } from './site-store.js';
import type { Store } from './store.js';

export type { SiteStatistics };

/** where the upstream's change stream stands (src/importer/update-items.ts UpstreamPosition, stored as it is) */
export interface StoredPosition {
  api: string;
  timestamp: string;
  rcid: number;
  logid: number;
}

/** What the import stored of the site: what the analysis of a page is set up with. */
export interface StoredSite {
  siteName: string;
  lang: string;
  namespaces: Array<{ id: number; name: string; canonical?: string | null; case: string }>;
}

/** A page as the writer has it before a change (what the counters and the search index need to undo it). */
export interface StoredPage {
  id: number;
  ns: number;
  dbkey: string;
  isRedirect: boolean;
  model: string;
  revisionCount: number;
  latestRevId: number;
  latestTimestamp: string;
}

/** A recent change as the upstream reported it (update-items.ts RecentChangeItem) */
export interface RecentChangeRow {
  rcid: number;
  /** 'edit' | 'new' | 'log' | 'external' | 'categorize' */
  type: string;
  ns: number;
  dbkey: string;
  pageId: number;
  revId: number;
  oldRevId: number;
  timestamp: string;
  user: string;
  userId: number;
  comment: string;
  minor: boolean;
  bot: boolean;
  oldLen: number;
  newLen: number;
  logId: number;
  logType: string | null;
  logAction: string | null;
}

export interface UpdateWriter extends ImportSource {
  readonly location: string;
  site(): StoredSite;
  /** a Promise where the batch is copied elsewhere too (PostgreSQL: src/store/postgres/replica.ts) */
  begin(): void | Promise<void>;
  commit(): void | Promise<void>;
  rollback(): void;
  close(): void;

  position(): StoredPosition | null;
  setPosition(p: StoredPosition): void;
  /** TS_MW of the newest revision or log entry stored (a database made by import: where its dump ends) */
  newestChange(): string | null;

  /** pass 1's page writes, on the live tables (`insert` false: the id is taken) */
  pages: Pick<
    PageImportWriter,
    | 'insert'
    | 'remove'
    | 'insertText'
    | 'insertRedirect'
    | 'latestOf'
    | 'byTitle'
    | 'redirectOf'
    | 'redirectTarget'
    | 'textOf'
    | 'chunkWithText'
    | 'withText'
  >;
  /** the page as stored now (undefined: none) */
  page(id: number): StoredPage | undefined;
  /** the page's row made to agree with its stored revisions: count, first revision, latest parent */
  settlePageHistory(id: number): void;
  uploads: Pick<UploadFactsWriter, 'record' | 'get'>;

  history: {
    hasRevision(id: number): boolean;
    writeRevision(r: RevisionInput): boolean;
    writeLog(l: LogInput): boolean;
    /** the page's revisions and texts removed (a deletion); their authors' edit counts lowered */
    removeRevisionsOf(page: number): void;
    /** the recent changes ([id, timestamp, revision id, log id]) and log entries ([id, timestamp]) stored from `timestamp` (TS_MW) on */
    storedSince(timestamp: string): { changes: Array<[number, string, number, number]>; logs: Array<[number, string]> };
    /** a deleted page's rows of recentchanges removed, its log's kept (1.25's LinksDeletionUpdate) */
    removeRecentChangesOf(page: { id: number; ns: number; dbkey: string }): void;
    /** users and contributors for the page's revisions from `fromRevId` on (just written) */
    creditRevisions(page: number, revIds: readonly number[]): void;
    /** the recent-change rows of revisions just written (rebuildrecentchanges.php's rows) */
    recentChangesOfRevisions(revIds: readonly number[]): void;
    /** a log entry's recent-change row (registered performers only, as rebuildrecentchanges.php) */
    recentChangeOfLog(logId: number): void;
    recentChange(r: RecentChangeRow): void;
    /** rows older than $wgRCMaxAge before the newest dropped */
    trimRecentChanges(): void;
    user(u: { id: number; name: string; registration: string; editCount: number }): void;
  };

  links: {
    /** the page's link rows and page_props removed; the categories it was in (DB keys, with the member kind) */
    clear(page: number): Array<{ category: string; type: CategoryLinkRow['type'] }>;
    /** the sink the page's new rows are written to (categoryLink says whether its row is new) */
    rows: PageLinkRows;
    /** the categories the page is in now */
    categoriesOf(page: number): Array<{ category: string; type: CategoryLinkRow['type'] }>;
    hasPageLinks(page: number): boolean;
    /** whether page `from` links to `to` (pagelinks) */
    linksTo(from: number, to: TitleRef): boolean;
  };
  /** category counts moved by (category, kind, ±1); rows made for and removed from categories as recountCategories leaves them */
  categories: {
    count(category: string, type: CategoryLinkRow['type'], delta: number): void;
    /** a category row exists iff the category has members or a page; cat_hidden from its page's props */
    settle(category: string): void;
  };
  search: {
    /** false: the import left the index empty (--no-search-index), and updates leave it so */
    readonly enabled: boolean;
    remove(row: SearchRow): void;
    add(row: SearchRow): void;
  };
  statistics(): SiteStatistics;
  writeStatistics(s: SiteStatistics): void;
  parserCache: { drop(page: number): void };
  files: {
    exists(name: string): boolean;
    /** true: a new file (not a re-upload) */
    write(r: ImageRow): boolean;
    /** img_page, img_dups of the files of this name and of its SHA-1's group */
    settle(name: string): void;
    uploader(name: string): { user: string; userId: number; timestamp: string; comment: string } | undefined;
  };
  messages: {
    text(lang: string, key: string): string | undefined;
    override(lang: string, key: string): string | undefined;
    languages(): string[];
    setOverride(lang: string, key: string, text: string | null): void;
  };
  /** MediaWiki's refreshLinks jobs, kept in a table */
  refreshQueue: {
    /** every page that transcludes `t` (templatelinks), queued */
    enqueueTranscluders(t: TitleRef): number;
    /** every page that embeds file `name` (imagelinks), queued */
    enqueueFileUsers(name: string): number;
    /** every page that links to `t` (pagelinks: its links, and the titles it tests with {{#ifexist:}}), queued */
    enqueueLinkers(t: TitleRef): number;
    enqueue(page: number): void;
    take(limit: number): number[];
    done(pages: readonly number[]): void;
    size(): number;
  };
  /** Semantic MediaWiki's data, kept page by page (absent: the import ran without the semantic hook) */
  semantic: SemanticUpdateWriter | null;
  /** the database as written so far (this batch included), read through the serving Store: inline queries */
  readStore(): Store;
  /** the query-page reports recomputed (updateSpecialPages.php) */
  rebuildReports(): void;
}

/** SMW's tables (sqlite/semantic-schema.ts) as a page's new semantic data replaces its old one. */
export interface SemanticUpdateWriter {
  /** count SMW's usage statistics again (smwinfo), with the reports */
  refreshStatistics(): void;
  /** [DB key, type] of every user property: the declared types pass 2's analyzers are given */
  declaredTypes(): Array<[string, string]>;
  propertyId(key: string): number | undefined;
  addProperty(key: string, type: string): number;
  propertyType(id: number): string | undefined;
  /** a property's type changed by its page; true when it changed */
  setType(property: number, type: string): boolean;
  /** the page's subjects (the page and its subobjects) with their values removed */
  clearPage(t: TitleRef): void;
  /** the subject's id (made when new; its sort key set) */
  subject(ns: number, dbkey: string, subobject: string, sortkey: string): number;
  addValue(...value: SemanticValue): void;
  /** subjects for the pages the page's values name and the categories of its _INST/_SUBC values */
  valueSubjects(t: TitleRef): void;
  /**
   * the subjects that values of pages cleared since the last call named, dropped when no value names them any
   * more and they have no values of their own (as a fresh import would not have made them)
   */
  dropUnusedSubjects(): void;
  /** the conditions (_ASKST) of every inline query, with the page that runs it */
  queryConditions(): Array<{ ns: number; dbkey: string; conditions: string }>;
  /** a concept's stored query (_CONC of Concept:dbkey) */
  conceptConditions(dbkey: string): string | undefined;
  /**
   * the page's values (its own and its subobjects'), each as one string `property key \t value`, for telling
   * what an edit changed; a category is `_INST \t` its DB key
   */
  valuesOf(t: TitleRef): string[];
  /** pages that have values of a property */
  pagesUsing(property: number): TitleRef[];
  /** a value the autocompletion of `source` (a property id, or -1 - namespace) offers, added to its index when new */
  addCompletionValue(source: number, value: string): void;
  /** a value of the page's properties that the autocompletion offers, removed when no subject has it any more */
  completionValuesOf(t: TitleRef): Array<[source: number, value: string]>;
  removeCompletionValue(source: number, value: string, always: boolean): void;
  /** a prefix with more word rows than this has its answer precomputed */
  readonly heavyRows: number;
  /** sources whose precomputed answers are to be made again (values came or went since) */
  changedCompletionSources(): number[];
  /** a source's word keys in key order after a cursor (null: from the start) */
  wordKeys(source: number, after: [string, number] | null, limit: number): Array<[key: string, value: number]>;
  /** a source's precomputed answers dropped (before they are made again) */
  clearHeavyPrefixes(source: number): void;
  addHeavyPrefix(source: number, key: string, topValues: number[]): void;
  completionSourceDone(source: number): void;
}
