/** Category membership (the categorylinks table): members of a category, categories of a page. */

export type MemberType = 'page' | 'subcat' | 'file';

export interface CategoryMemberRow {
  pageid: number;
  ns: number;
  /** DB key */
  title: string;
  isRedirect: boolean;
  /** binary sort key as stored (MediaWiki's uppercase collation) */
  sortkey: string;
  sortkeyPrefix: string;
  type: MemberType;
  /** TS_MW */
  timestamp: string;
}

export interface PageCategoryRow {
  from: number;
  /** category DB key */
  to: string;
  sortkey: string;
  sortkeyPrefix: string;
  timestamp: string;
  hidden: boolean;
}

/** prop=categories' request (CategoryLinkStore.categoriesOf) */
export interface PageCategoriesOptions {
  pageids: readonly number[];
  start?: { pageid: number; to: string };
  only?: readonly string[];
  hidden?: boolean;
  descending: boolean;
  limit: number;
}

export interface CategoryLinkStore {
  /**
   * Members of one type in sort-key order, starting at (sortkey, pageid) inclusive when given.
   * At most `limit` rows; `descending` reverses the order and the start condition.
   */
  membersBySortkey(
    category: string,
    type: MemberType,
    start: { sortkey: string; pageid: number } | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]>;
  /** Members of the given types in timestamp order from (timestamp, pageid) inclusive. */
  membersByTimestamp(
    category: string,
    start: { timestamp: string; pageid: number } | undefined,
    end: string | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]>;
  /**
   * prop=categories: the categories of a batch of pages in (page id, category name) order from `start`
   * (inclusive in the direction of the listing), at most `limit`; `only` keeps these categories alone,
   * `hidden` only hidden (true) or only visible (false) ones. Primary-key seeks per page.
   */
  categoriesOf(o: PageCategoriesOptions): Promise<PageCategoryRow[]>;
}
