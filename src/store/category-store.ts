/** Category data of the wiki, as the API modules need it. */
export interface CategoryStore {
  /** list=allcategories: at most `limit` rows of the category table in title order */
  list(opts: CategoryListOptions): Promise<CategoryRow[]>;
  /** prop=categoryinfo: the category rows of these titles (DB keys), hidden flag included, in title order */
  byTitles(titles: readonly string[]): Promise<CategoryRow[]>;
}

/** One row of the category table. */
export interface CategoryRow {
  /** DB key */
  title: string;
  /** all members (pages + subcats + files) */
  pages: number;
  subcats: number;
  files: number;
  /** the category page has __HIDDENCAT__ (only read when asked for) */
  hidden: boolean;
}

export interface CategoryListOptions {
  descending: boolean;
  /** title range, inclusive, in the direction of the listing */
  from?: string;
  to?: string;
  prefix?: string;
  /** resume at this title (inclusive) */
  continueFrom?: string;
  /** bounds on the total member count (cat_pages), inclusive */
  min?: number;
  max?: number;
  /** also read whether each category is hidden */
  hidden: boolean;
  limit: number;
}
