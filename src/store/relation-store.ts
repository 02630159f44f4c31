/**
 * Relations between pages (pagelinks, templatelinks, redirects, category sizes), as prop=links/templates,
 * list=backlinks/embeddedin/alllinks/alltransclusions/allredirects, prop=linkshere/transcludedin/redirects/
 * fileusage and prop=categoryinfo read them. Every method is an index seek or a LIMITed range scan.
 */
import type { InterwikiEntry } from '../wiki/interwiki.js';

/** a link table keyed by (namespace, title) of the target */
export type LinkTable = 'pagelinks' | 'templatelinks';
/** the tables list=all* and the backlink readers walk: a link table or the redirect table */
export type TargetTable = LinkTable | 'redirect';
/** the tables the backlink readers of a page set walk: those, and imagelinks (targets in the File namespace only) */
export type BacklinkTable = TargetTable | 'imagelinks';

export interface TitleKey {
  ns: number;
  /** DB key */
  title: string;
}

/** one link: page `from` links to (ns, title) */
export interface LinkRow extends TitleKey {
  from: number;
}

/** a page that links to (or transcludes, or redirects to) a target */
export interface LinkerRow {
  pageid: number;
  ns: number;
  /** DB key */
  title: string;
  isRedirect: boolean;
  /** the namespace of the linking page (pl_from_namespace) */
  fromNs: number;
  /** redirect table only: rd_fragment ('' when none) */
  fragment: string;
}

/** a row of list=all*: target title and the linking page; redirects also fragment and interwiki */
export interface AllLinkRow {
  title: string;
  from: number;
  fragment: string;
  interwiki: string;
}

export interface AllLinksOptions {
  table: TargetTable;
  ns: number;
  from?: string;
  to?: string;
  prefix?: string;
  descending: boolean;
  limit: number;
}

export interface LinksOfOptions {
  table: LinkTable;
  pageids: readonly number[];
  namespaces?: readonly number[];
  only?: readonly TitleKey[];
  continueAt?: LinkRow;
  descending: boolean;
  limit: number;
}

export interface LinkersOptions {
  table: TargetTable;
  ns: number;
  title: string;
  fromNs?: number;
  fromId?: number;
  redirect?: boolean;
  pageNamespaces?: readonly number[];
  fragment?: boolean;
  descending: boolean;
  limit: number;
}

export interface LinkersOfOptions {
  table: BacklinkTable;
  targets: ReadonlyArray<{ ns: number; title: string; fromNs?: number; fromId?: number }>;
  redirect?: boolean;
  pageNamespaces?: readonly number[];
  fragment?: boolean;
  limit: number;
}

/**
 * list=langbacklinks and list=iwbacklinks: the links to a language (or interwiki prefix), optionally to
 * one title there, in (code, title, page) order from `after` on (inclusive: the continuation names the next row)
 */
export interface ForeignBacklinksOptions {
  /** ll_lang, or iwl_prefix */
  code?: string;
  title?: string;
  after?: { code: string; title: string; from: number };
  descending: boolean;
  limit: number;
}

/** a row of RelationStore.langBacklinks / iwBacklinks: the linking page and the link */
export interface ForeignBacklinkRow {
  from: number;
  ns: number;
  /** the linking page's DB key */
  dbkey: string;
  redirect: number;
  code: string;
  title: string;
}

/** prop=iwlinks' request (RelationStore.iwLinksOf) */
/** prop=langlinks' options: the batch's pages, an optional language and title, where to continue */
export interface LangLinksOfOptions {
  pageids: readonly number[];
  lang?: string;
  title?: string;
  continueAt?: { from: number; lang: string };
  descending: boolean;
  limit: number;
}

/** prop=pageprops' options: the batch's pages, the property names to keep alone */
export interface PropsOfOptions {
  pageids: readonly number[];
  names?: readonly string[];
}

/** list=pageswithprop's options: the property, where to start */
export interface PagesWithPropOptions {
  name: string;
  fromId?: number;
  descending: boolean;
  limit: number;
}

/** prop=extlinks' options: the batch's pages, the el_index prefix, the rows to skip */
export interface ExtLinksOfOptions {
  pageids: readonly number[];
  indexPrefix?: string;
  offset: number;
  limit: number;
}

/** list=exturlusage's options: the el_index prefix, the pages' namespaces, the rows to skip */
export interface ExtUrlUsageOptions {
  indexPrefix?: string;
  namespaces?: readonly number[];
  offset: number;
  limit: number;
}

/** list=random's options: the namespaces, redirects or not, the page_random to start at */
export interface RandomPagesOptions {
  namespaces: readonly number[];
  redirect: boolean;
  from: number;
  limit: number;
}

export interface IwLinksOfOptions {
  pageids: readonly number[];
  prefix?: string;
  title?: string;
  continueAt?: { from: number; prefix: string; title: string };
  descending: boolean;
  limit: number;
}

export interface RelationStore {
  /**
   * prop=links/templates: the links of the pages `pageids`, in (from, ns, title) order from `continueAt`
   * (inclusive in the direction of the listing); only targets in `namespaces` / among `only` when given.
   * One range scan of the (from, ns, title) index.
   */
  linksOf(o: LinksOfOptions): Promise<LinkRow[]>;

  /**
   * The pages that link to / transclude / redirect to (ns, title), in (from namespace when `fromNs` is
   * given, then) page id order from `fromId` (inclusive); `redirect` keeps only redirects (true) or
   * non-redirects (false); `pageNamespaces` filters on the linking page's namespace; `fragment` (redirect
   * table) keeps those with (true) or without (false) a fragment. Interwiki redirects are never listed.
   */
  linkers(o: LinkersOptions): Promise<LinkerRow[]>;

  /**
   * The same for a batch of targets in one call, ascending: the rows of the first target (from its
   * `fromId`, inclusive), then of the second, and so on, at most `limit` in all -- each target an index
   * range, read only as far as the limit reaches. With `fromNs` on a target, only linking pages of that
   * namespace (the (target, from namespace, from) index). For imagelinks every target is a File: title.
   */
  linkersOf(o: LinkersOfOptions): Promise<Array<LinkerRow & { target: number }>>;

  /** list=all*: rows of the table in (title, from) order, from `continueAt` (inclusive) */
  allLinks(o: AllLinksOptions & { continueAt?: { title: string; from: number } }): Promise<AllLinkRow[]>;
  /** list=all* with unique: distinct target titles, one seek each */
  allLinkTitles(o: AllLinksOptions & { continueAt?: string }): Promise<string[]>;

  /** prop=pageprops: the properties of these pages from page id `fromId` on, in (page, name) order */
  propsOf(o: PropsOfOptions): Promise<Array<{ page: number; name: string; value: string }>>;
  /** list=pageswithprop: pages with property `name`, in page id order from `fromId` (inclusive) */
  pagesWithProp(o: PagesWithPropOptions): Promise<Array<{ pageid: number; ns: number; title: string; value: string }>>;
  /** list=pagepropnames: distinct property names from `from` (inclusive), one seek each */
  propNames(o: { from?: string; limit: number }): Promise<string[]>;

  /**
   * prop=extlinks: external links of these pages in (page, URL) order, each URL once per page; only those
   * whose el_index starts with `indexPrefix` when given. `offset` rows are skipped (1.25's eloffset).
   */
  extLinksOf(o: ExtLinksOfOptions): Promise<Array<{ from: number; url: string }>>;
  /** list=exturlusage: rows of the el_index index from `indexPrefix`, after `offset` rows (1.25's euoffset) */
  extUrlUsage(o: ExtUrlUsageOptions): Promise<Array<{ pageid: number; ns: number; title: string; url: string }>>;

  /** prop=langlinks: (page, language) order from `continueAt` (inclusive) */
  langLinksOf(o: LangLinksOfOptions): Promise<Array<{ from: number; lang: string; title: string }>>;
  /** prop=iwlinks: (page, prefix, title) order from `continueAt` (inclusive) */
  iwLinksOf(o: IwLinksOfOptions): Promise<Array<{ from: number; prefix: string; title: string }>>;
  /** list=langbacklinks: the pages linking to a language (and title), ll_lang index order */
  langBacklinks(o: ForeignBacklinksOptions): Promise<ForeignBacklinkRow[]>;
  /** list=iwbacklinks: the pages linking to an interwiki prefix (and title), iwl_prefix_title_from index order */
  iwBacklinks(o: ForeignBacklinksOptions): Promise<ForeignBacklinkRow[]>;
  /** the interwiki table the import used (empty for a database without one) */
  interwikiMap(): Promise<InterwikiEntry[]>;

  /**
   * list=random: up to `limit` pages of each of these namespaces with page_random >= `from`, redirects or
   * not, lowest page_random first (the caller merges the namespaces).
   */
  randomPages(o: RandomPagesOptions): Promise<Array<{ pageid: number; ns: number; title: string; random: number }>>;
}
