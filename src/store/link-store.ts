import type { PageRef } from './page-store.js';
/** Link data of the wiki, as the API modules need it. */
export interface LinkStore {
  /**
   * list=allfileusages: at most `limit` rows of imagelinks in (target, from) order, red links included.
   * `from`/`to` bound the target regardless of direction (MediaWiki does not swap them).
   */
  fileUsages(opts: FileUsageOptions & { continueAt?: { target: string; from: number } }): Promise<FileUsageRow[]>;
  /**
   * generator=allfileusages: the rows fileUsages() gives, each with its using page (a seek per row, null
   * for a page id with no page), so that the generator hands the page set its pages without another round
   * trip; of the targets only the last row's (the generator's continuation), not one string per row
   */
  fileUsagePages(opts: FileUsageOptions & { continueAt?: { target: string; from: number } }, full?: boolean): Promise<FileUsagePages>;
  /** list=allfileusages&afunique: at most `limit` distinct targets (file DB keys) in order */
  fileUsageTargets(opts: FileUsageOptions & { continueAt?: string }): Promise<string[]>;
  /**
   * prop=images: the files (DB keys) a batch of pages uses, in (page id, name) order from `start`
   * (inclusive in the direction of the listing), at most `limit`; `only` keeps these names alone.
   * Index seeks on il_from per page.
   */
  imagesOf(opts: ImagesOfOptions): Promise<Array<{ pageid: number; name: string }>>;
  /**
   * list=imageusage: the pages that use the file `target`, in page id order from `fromId`
   * (inclusive in the direction of the listing), at most `limit`; only those of the using page's
   * namespace `namespace` when given; only redirects (true) or non-redirects (false) when `redirect` is
   * given. A range scan of the imagelinks primary key, or of il_to_from_namespace with a namespace.
   */
  fileUsers(opts: FileUsersOptions): Promise<FileUserRow[]>;
}

/** A page that uses a file (imageusage). */
export interface FileUserRow {
  pageid: number;
  ns: number;
  /** DB key */
  title: string;
  isRedirect: boolean;
}

/** One image link: page `from` uses the file `target` (DB key, no prefix). */
export interface FileUsageRow {
  target: string;
  from: number;
}

/** fileUsagePages' rows as parallel lists, and the target of the last */
export interface FileUsagePages {
  /** the using page's id, per row */
  from: number[];
  /** the using page, per row (null: no page has that id) */
  page: Array<PageRef | null>;
  /** the last row's target (file DB key); undefined when there are no rows */
  lastTarget: string | undefined;
}

export interface FileUsageOptions {
  from?: string;
  to?: string;
  prefix?: string;
  descending: boolean;
  limit: number;
}

/** prop=images' options: the batch's pages, where to start, the names to keep alone */
export interface ImagesOfOptions {
  pageids: readonly number[];
  start?: { pageid: number; name: string };
  only?: readonly string[];
  descending: boolean;
  limit: number;
}

/** list=imageusage's options: the file, the using pages' namespace and redirect flag, where to start */
export interface FileUsersOptions {
  target: string;
  namespace?: number;
  fromId?: number;
  redirect?: boolean;
  descending: boolean;
  limit: number;
}
