/** Revisions, users, contributions, the log and recent changes. Every method is asynchronous and batched. */

export interface RevisionRecord {
  revid: number;
  parentid: number;
  pageid: number;
  ns: number;
  /** TS_MW */
  timestamp: string;
  user: string;
  userid: number;
  comment: string;
  minor: boolean;
  /** bytes; null when unknown */
  size: number | null;
  /** base-36, '' when unknown */
  sha1: string;
  contentModel: string;
  contentFormat: string;
  /** the dump had no text for it (Revision::DELETED_TEXT) */
  textHidden: boolean;
  /** Revision::DELETED_COMMENT, DELETED_USER */
  commentHidden: boolean;
  userHidden: boolean;
}

/** One page's history range (prop=revisions enumeration mode). */
export interface PageHistoryOptions {
  pageid: number;
  /** 'newer' = oldest first */
  dir: 'newer' | 'older';
  /** 1.25 orders by rev_id when a start or end id is given, by rev_timestamp otherwise */
  orderBy: 'id' | 'timestamp';
  startId?: number;
  endId?: number;
  /** TS_MW */
  start?: string;
  end?: string;
  user?: string;
  excludeUser?: string;
  limit: number;
}

export interface ContributorRecord {
  pageid: number;
  userid: number;
  name: string;
}

export interface UserRecord {
  userid: number;
  name: string;
  editcount: number;
  /** TS_MW or null */
  registration: string | null;
}

export interface UserRangeOptions {
  from?: string;
  to?: string;
  prefix?: string;
  descending: boolean;
  withEditsOnly: boolean;
  limit: number;
}

/** A revision in a user's contributions (sha1, contentModel and contentFormat may be left empty: no reader shows them). */
export interface ContributionRecord extends RevisionRecord {
  title: string;
  /** page_latest = this revision */
  top: boolean;
  /** the parent revision's size (null when there is none or it is unknown) */
  parentSize: number | null;
}

/**
 * list=usercontribs: users by exact name, or every user name with a prefix; timestamps TS_MW. With
 * several users or a prefix the order is (user, timestamp, id), else (timestamp, id).
 */
export interface ContributionOptions {
  users?: string[];
  prefix?: string;
  namespaces?: number[];
  descending: boolean;
  start?: string;
  end?: string;
  /** continue strictly after / at: rows at (user, timestamp, id) or beyond in the direction */
  from?: { user?: string; timestamp: string; revid: number };
  minor?: boolean;
  top?: boolean;
  isNew?: boolean;
  /** read each revision's parent's size (parentSize; else null): a seek per row that only sizediff needs */
  parentSizes?: boolean;
  limit: number;
}

export interface LogRecord {
  logid: number;
  type: string;
  action: string;
  timestamp: string;
  user: string;
  userid: number;
  ns: number;
  title: string;
  logpage: number;
  /** the page that has the title now (0: none) */
  pageid: number;
  comment: string;
  params: string;
  deleted: number;
}

export interface LogOptions {
  type?: string;
  action?: string;
  user?: string;
  /** a title (ns and DB key) or a title prefix in a namespace */
  title?: { ns: number; dbkey: string };
  prefix?: { ns: number; dbkey: string };
  /** the entries about pages of this namespace (never with title or prefix) */
  namespace?: number;
  descending: boolean;
  start?: string;
  end?: string;
  from?: { timestamp: string; logid: number };
  limit: number;
}

export interface RecentChangeRecord {
  rcid: number;
  timestamp: string;
  /** 0 edit, 1 new, 3 log */
  type: number;
  ns: number;
  title: string;
  pageid: number;
  revid: number;
  oldRevid: number;
  userid: number;
  user: string;
  comment: string;
  minor: boolean;
  bot: boolean;
  oldLen: number | null;
  newLen: number | null;
  deleted: number;
  logid: number;
  logType: string | null;
  logAction: string | null;
  params: string | null;
  isRedirect: boolean;
  sha1: string | null;
}

export interface RecentChangeOptions {
  descending: boolean;
  start?: string;
  end?: string;
  from?: { timestamp: string; rcid: number };
  namespaces?: number[];
  user?: string;
  excludeUser?: string;
  types?: number[];
  minor?: boolean;
  bot?: boolean;
  anon?: boolean;
  redirect?: boolean;
  /** only changes that are the latest revision of their page */
  topOnly?: boolean;
  /**
   * the members to read beyond the change itself (its ids, time, title, flags, sizes and deleted bits),
   * all when absent; a store may leave the others at their empty value ('', 0, null, false)
   */
  read?: RecentChangeParts;
  limit: number;
}

/** RecentChangeOptions.read: user and userid; comment; the log members (logid … params); isRedirect; sha1 */
export interface RecentChangeParts {
  user: boolean;
  comment: boolean;
  log: boolean;
  redirect: boolean;
  sha1: boolean;
}

export interface HistoryStore {
  /** revisions by id, in id order; ids without a revision (or of a missing page) are left out */
  revisionsByIds(ids: readonly number[]): Promise<RevisionRecord[]>;
  /** the latest revision of each page, in page id order */
  latestRevisions(pageids: readonly number[]): Promise<RevisionRecord[]>;
  pageHistory(opts: PageHistoryOptions): Promise<RevisionRecord[]>;
  /** the texts of these revisions (revisions without text are absent) */
  texts(revids: readonly number[]): Promise<Map<number, string>>;
  /** registered contributors of these pages, by (page id, user id), from `from` on, at most `limit` */
  contributors(
    pageids: readonly number[],
    from: { pageid: number; userid: number } | undefined,
    limit: number,
  ): Promise<ContributorRecord[]>;
  /** distinct anonymous contributors per page (pages without any are absent) */
  anonContributors(pageids: readonly number[]): Promise<Map<number, number>>;
  usersByName(names: readonly string[]): Promise<UserRecord[]>;
  userRange(opts: UserRangeOptions): Promise<UserRecord[]>;
  contributions(opts: ContributionOptions): Promise<ContributionRecord[]>;
  logEvents(opts: LogOptions): Promise<LogRecord[]>;
  recentChanges(opts: RecentChangeOptions): Promise<RecentChangeRecord[]>;
}
