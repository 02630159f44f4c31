/** Pages, their latest revisions and redirects. */

export interface PageRow {
  pageid: number;
  ns: number;
  /** DB key */
  title: string;
  isRedirect: boolean;
  length: number;
  latestRevId: number;
  /** TS_MW of the latest revision */
  touched: string;
  revCount: number;
  contentModel: string;
}

export interface RevisionRow {
  revid: number;
  parentid: number;
  pageid: number;
  /** TS_MW */
  timestamp: string;
  user: string;
  userid: number;
  comment: string;
  minor: boolean;
  size: number;
  /** base-36 SHA-1 as in the dump */
  sha1: string;
}

export interface RedirectTarget {
  ns: number;
  dbkey: string;
  fragment: string;
}

/** list=allpages: one namespace, a title range or prefix, optional redirect/size/langlink filters. */
export interface PageRangeOptions {
  ns: number;
  from?: string;
  to?: string;
  prefix?: string;
  redirects: 'all' | 'redirects' | 'nonredirects';
  minSize?: number;
  maxSize?: number;
  langLinks?: 'all' | 'withlanglinks' | 'withoutlanglinks';
  descending: boolean;
  limit: number;
}

export interface PageStore {
  byIds(ids: readonly number[]): PageRow[];
  byTitle(ns: number, dbkey: string): PageRow | undefined;
  redirectTarget(pageid: number): RedirectTarget | undefined;
  /** the first and the latest revision of a page (the only ones an import keeps) */
  revisions(pageid: number): { first: RevisionRow; latest: RevisionRow } | undefined;
  latestText(pageid: number): string | undefined;
  /**
   * Pages of one namespace in title order from `from` (inclusive), for list=allpages:
   * at most `limit` rows; `dir` 'newer' = ascending.
   */
  range(opts: PageRangeOptions): PageRow[];
  /**
   * Texts of transclusion sources, for a batch of titles (Parser::statelessFetchTemplate): after one
   * redirect hop, the latest text and the title it comes from; null for a title with no page or text.
   * One index seek per title (and per hop).
   */
  templateTexts(titles: ReadonlyArray<{ ns: number; dbkey: string }>): Promise<Array<TemplateText | null>>;
}

export interface TemplateText {
  text: string;
  ns: number;
  dbkey: string;
}
