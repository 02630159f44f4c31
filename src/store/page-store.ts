/** Pages, their latest revision's text and redirects (the revisions themselves: history-store.ts). */

/**
 * What a page set needs of a page to hold it (its identity and whether it redirects): generators whose
 * rows come with their pages read only these columns; prop=info asks the page set for the rest.
 */
export interface PageRef {
  pageid: number;
  ns: number;
  /** DB key */
  title: string;
  isRedirect: boolean;
}

export interface PageRow extends PageRef {
  length: number;
  latestRevId: number;
  /** TS_MW of the latest revision */
  touched: string;
  revCount: number;
  contentModel: string;
}

export interface RedirectTarget {
  ns: number;
  dbkey: string;
  fragment: string;
  /** the interwiki prefix of a target on another wiki ('' for this wiki) */
  interwiki: string;
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

/** A title as the store takes it: namespace and DB key. */
export interface TitleKey {
  ns: number;
  dbkey: string;
}

/**
 * Every method answers a whole batch with one database round trip: the page set, generators and prop
 * modules hand over all their titles or ids at once, so a server database costs one round trip per
 * request part, not one per title.
 */
export interface PageStore {
  /** the pages with these ids, in no particular order; ids without a page are left out */
  byIds(ids: readonly number[]): Promise<PageRow[]>;
  /** the pages with these titles, in no particular order; titles without a page are left out */
  byTitles(titles: readonly TitleKey[]): Promise<PageRow[]>;
  /** the redirect targets of these pages (those that are redirects with a target) */
  redirectTargets(pageids: readonly number[]): Promise<Map<number, RedirectTarget>>;
  /** the wikitext of each page's latest revision */
  latestTexts(pageids: readonly number[]): Promise<Map<number, string>>;
  /**
   * Pages of one namespace in title order from `from` (inclusive), for list=allpages:
   * at most `limit` rows; `dir` 'newer' = ascending.
   */
  range(opts: PageRangeOptions): Promise<PageRow[]>;
}
