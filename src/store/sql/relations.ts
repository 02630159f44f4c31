/**
 * The link tables' columns and the statements over them that read the same in SQLite and PostgreSQL
 * (both take `@name` parameters and order titles by bytes), shared by the two relation stores; what only
 * one engine can say (a batch of targets, the loose index scan) stays in its store.
 */
import type {
  AllLinkRow,
  AllLinksOptions,
  BacklinkTable,
  IwLinksOfOptions,
  PropsOfOptions,
  PagesWithPropOptions,
  ExtLinksOfOptions,
  ExtUrlUsageOptions,
  ForeignBacklinkRow,
  ForeignBacklinksOptions,
  LangLinksOfOptions,
  LinkRow,
  LinkerRow,
  LinkersOfOptions,
  LinkersOptions,
  LinksOfOptions,
  RandomPagesOptions,
  RelationStore,
  TargetTable,
} from '../relation-store.js';
import type { InterwikiEntry } from '../../wiki/interwiki.js';
import { prefixEnd, titleBounds, whereBound } from './prefix-range.js';
import type { SqlDialect, SqlStatement } from './dialect.js';
import type { SqlPort } from './port.js';

export interface TargetColumns {
  from: string;
  ns: string;
  title: string;
  fromNs: string | null;
}

export const TARGET_COLUMNS: Record<TargetTable, TargetColumns> = {
  pagelinks: { from: 'pl_from', ns: 'pl_namespace', title: 'pl_title', fromNs: 'pl_from_namespace' },
  templatelinks: { from: 'tl_from', ns: 'tl_namespace', title: 'tl_title', fromNs: 'tl_from_namespace' },
  redirect: { from: 'rd_from', ns: 'rd_namespace', title: 'rd_title', fromNs: null },
};

// the backlink readers also walk imagelinks, which has no target namespace column: its targets are File: titles
// once per process: a spread copy given more members is fine here
export const BACKLINK_COLUMNS: Record<BacklinkTable, { from: string; ns: string | null; title: string; fromNs: string | null }> = {
  ...TARGET_COLUMNS,
  imagelinks: { from: 'il_from', ns: null, title: 'il_to', fromNs: 'il_from_namespace' },
};

/** list=all*'s namespace and title bounds (from, to, prefix) as conditions on `where`, their values on `v`. */
export function allLinksBounds(o: AllLinksOptions, c: TargetColumns, where: string[], v: Record<string, unknown>): void {
  where.push(`${c.ns} = @ns`);
  v.ns = o.ns;
  titleBounds(c.title, o, where, v);
}

/** list=all*: a range scan of the (ns, title, from) key (pagelinks/templatelinks primary key, redirect_target) from `continueAt` (inclusive). */
export function allLinksStatement(o: AllLinksOptions & { continueAt?: { title: string; from: number } }): {
  sql: string;
  values: Record<string, unknown>;
} {
  const c = TARGET_COLUMNS[o.table];
  const where: string[] = [];
  const values: Record<string, unknown> = { limit: o.limit };
  allLinksBounds(o, c, where, values);
  if (o.continueAt !== undefined) {
    where.push(`(${c.title}, ${c.from}) ${o.descending ? '<=' : '>='} (@contTitle, @contFrom)`);
    values.contTitle = o.continueAt.title;
    values.contFrom = o.continueAt.from;
  }
  const extra = o.table === 'redirect' ? 'rd_fragment AS fragment, rd_interwiki AS interwiki' : "'' AS fragment, '' AS interwiki";
  const dir = o.descending ? ' DESC' : '';
  const sql =
    `SELECT ${c.title} AS title, ${c.from} AS "from", ${extra} FROM ${o.table} WHERE ${where.join(' AND ')}` +
    ` ORDER BY ${c.title}${dir}, ${c.from}${dir} LIMIT @limit`;
  return { sql, values };
}

/** list=all* with unique: the bounds of the distinct-title walk from `continueAt` (inclusive); the walk itself is the store's. */
export function allLinkTitlesBounds(
  o: AllLinksOptions & { continueAt?: string },
  c: TargetColumns,
): { where: string[]; values: Record<string, unknown> } {
  const where: string[] = [];
  const values: Record<string, unknown> = {};
  allLinksBounds(o, c, where, values);
  if (o.continueAt !== undefined) {
    where.push(`${c.title} ${o.descending ? '<=' : '>='} @cont`);
    values.cont = o.continueAt;
  }
  return { where, values };
}

/**
 * The filters on a linking page that the backlink readers share: interwiki redirects never listed,
 * redirects only or none (`redirect`), the linking page's namespaces, with or without a fragment (redirect
 * table). `pageNamespaces`, when given, is not empty (the callers answer nothing for an empty list).
 */
export function linkerFilters(
  o: Pick<LinkersOfOptions, 'table' | 'redirect' | 'pageNamespaces' | 'fragment'>,
  d: SqlDialect,
  where: string[],
  v: Record<string, unknown>,
): void {
  if (o.table === 'redirect') where.push("rd_interwiki = ''");
  if (o.redirect !== undefined) {
    where.push(`${d.unindexed('page_is_redirect')} = @redirect`);
    v.redirect = o.redirect ? 1 : 0;
  }
  if (o.pageNamespaces !== undefined) where.push(d.amongNumbers(d.unindexed('page_namespace'), o.pageNamespaces, 'pns', v));
  if (o.fragment !== undefined) where.push(o.fragment ? "rd_fragment != ''" : "rd_fragment = ''");
}

/** prop=links/templates: a range of the (from, ns, title) primary key per page of the batch */
export function linksOfStatement(o: LinksOfOptions, d: SqlDialect): SqlStatement {
  const c = TARGET_COLUMNS[o.table];
  const values: Record<string, unknown> = { limit: o.limit };
  const where = [d.amongIds(c.from, o.pageids, 'ids', values)];
  if (o.namespaces) where.push(d.amongNumbers(c.ns, o.namespaces, 'n', values));
  if (o.only) where.push(d.amongTitles(c.ns, c.title, o.only, values));
  if (o.continueAt) {
    where.push(`(${c.from}, ${c.ns}, ${c.title}) ${o.descending ? '<=' : '>='} (@cf, @cn, @ct)`);
    Object.assign(values, { cf: o.continueAt.from, cn: o.continueAt.ns, ct: o.continueAt.title });
  }
  const dir = o.descending ? ' DESC' : '';
  const sql =
    `SELECT ${c.from} AS "from", ${c.ns} AS ns, ${c.title} AS title FROM ${o.table}${d.indexedBy(c.from)}` +
    ` WHERE ${where.join(' AND ')} ORDER BY ${c.from}${dir}, ${c.ns}${dir}, ${c.title}${dir} LIMIT @limit`;
  return { sql, values };
}

/** the linkers of one target: its conditions on the link table joined with the linking page */
export function linkersConditions(o: LinkersOptions, d: SqlDialect): { where: string[]; values: Record<string, unknown> } {
  const c = TARGET_COLUMNS[o.table];
  const values: Record<string, unknown> = { ns: o.ns, title: o.title, limit: o.limit };
  const where = [`${c.ns} = @ns`, `${c.title} = @title`];
  if (o.fromNs !== undefined) {
    where.push(`${c.fromNs ?? 'page_namespace'} = @fromNs`);
    values.fromNs = o.fromNs;
  }
  if (o.fromId !== undefined) {
    where.push(`${c.from} ${o.descending ? '<=' : '>='} @fromId`);
    values.fromId = o.fromId;
  }
  linkerFilters(o, d, where, values);
  return { where, values };
}

/** prop=pageprops: the named properties (all when `names` is not given) of a batch of pages */
export function propsOfStatement(o: PropsOfOptions, d: SqlDialect): SqlStatement {
  const values: Record<string, unknown> = {};
  const where = [d.amongIds('pp_page', o.pageids, 'ids', values)];
  if (o.names) where.push(d.amongTexts('pp_propname', o.names, 'n', values));
  const sql = `SELECT pp_page AS page, pp_propname AS name, pp_value AS value FROM page_props WHERE ${where.join(' AND ')} ORDER BY pp_page, pp_propname`;
  return { sql, values };
}

/** list=pageswithprop: a range of the (propname, page) index joined with each page */
export function pagesWithPropStatement(o: PagesWithPropOptions, d: SqlDialect): SqlStatement {
  const values: Record<string, unknown> = { name: o.name, limit: o.limit };
  const where = ['pp_propname = @name'];
  if (o.fromId !== undefined) {
    where.push(`pp_page ${o.descending ? '<=' : '>='} @fromId`);
    values.fromId = o.fromId;
  }
  const sql =
    `SELECT pp_page AS pageid, page_namespace AS ns, page_title AS title, pp_value AS value FROM page_props ${d.orderedJoin} page ON page_id = pp_page` +
    ` WHERE ${where.join(' AND ')} ORDER BY pp_page${o.descending ? ' DESC' : ''} LIMIT @limit`;
  return { sql, values };
}

/** el_index starts with `indexPrefix` (when given) */
function indexPrefixBounds(indexPrefix: string | undefined, where: string[], values: Record<string, unknown>): void {
  if (indexPrefix === undefined) return;
  where.push('el_index >= @prefix AND el_index < @prefixEnd');
  values.prefix = indexPrefix;
  values.prefixEnd = prefixEnd(indexPrefix);
}

/** prop=extlinks: the external links of a batch of pages, each URL once per page */
export function extLinksOfStatement(o: ExtLinksOfOptions, d: SqlDialect): SqlStatement {
  const values: Record<string, unknown> = { limit: o.limit, offset: o.offset };
  const where = [d.amongIds('el_from', o.pageids, 'ids', values)];
  indexPrefixBounds(o.indexPrefix, where, values);
  // DISTINCT: a protocol-relative URL has two index rows
  const sql = `SELECT DISTINCT el_from AS "from", el_to AS url FROM externallinks${d.indexedBy('el_from')} WHERE ${where.join(' AND ')} ORDER BY el_from, el_to LIMIT @limit OFFSET @offset`;
  return { sql, values };
}

/** list=exturlusage: the el_index index in order, joined with each linking page */
export function extUrlUsageStatement(o: ExtUrlUsageOptions, d: SqlDialect): SqlStatement {
  const values: Record<string, unknown> = { limit: o.limit, offset: o.offset };
  const where: string[] = [];
  indexPrefixBounds(o.indexPrefix, where, values);
  if (o.namespaces) where.push(d.amongNumbers(d.unindexed('page_namespace'), o.namespaces, 'n', values));
  const sql =
    `SELECT el_from AS pageid, page_namespace AS ns, page_title AS title, el_to AS url FROM externallinks${d.indexedBy('el_index')} ${d.orderedJoin} page ON page_id = el_from` +
    `${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY el_index, el_id LIMIT @limit OFFSET @offset`;
  return { sql, values };
}

/**
 * The two tables of links out of the wiki: a page's (code, title) pairs, where the code is a language
 * (langlinks) or an interwiki prefix (iwlinks). `key` is the primary key's columns, which prop=langlinks /
 * prop=iwlinks continue from and order by; `keyValues` the names its continuation binds.
 */
interface ForeignLinkTable {
  from: string;
  code: string;
  title: string;
  /** the code's name in the options, the bound value and the row */
  codeName: 'lang' | 'prefix';
  key: readonly string[];
  /** the members of the options' continueAt, in the key's order */
  keyMembers: readonly string[];
  keyValues: readonly string[];
}

const FOREIGN_LINKS: Record<'langlinks' | 'iwlinks', ForeignLinkTable> = {
  langlinks: {
    from: 'll_from',
    code: 'll_lang',
    title: 'll_title',
    codeName: 'lang',
    key: ['ll_from', 'll_lang'],
    keyMembers: ['from', 'lang'],
    keyValues: ['cf', 'cl'],
  },
  iwlinks: {
    from: 'iwl_from',
    code: 'iwl_prefix',
    title: 'iwl_title',
    codeName: 'prefix',
    key: ['iwl_from', 'iwl_prefix', 'iwl_title'],
    keyMembers: ['from', 'prefix', 'title'],
    keyValues: ['cf', 'cp', 'ct'],
  },
};

/**
 * prop=langlinks / prop=iwlinks: a range of the primary key ((from, lang) / (from, prefix, title)) per page
 * of the batch, from `continueAt`
 */
export function foreignLinksOfStatement(
  table: 'langlinks' | 'iwlinks',
  o: LangLinksOfOptions | IwLinksOfOptions,
  d: SqlDialect,
): SqlStatement {
  const t = FOREIGN_LINKS[table];
  const values: Record<string, unknown> = { limit: o.limit };
  const where = [d.amongIds(t.from, o.pageids, 'ids', values)];
  whereBound(where, values, `${t.code} = @${t.codeName}`, t.codeName, (o as unknown as Record<string, string | undefined>)[t.codeName]);
  whereBound(where, values, `${t.title} = @title`, 'title', o.title);
  const after = o.continueAt as Record<string, unknown> | undefined;
  if (after) {
    where.push(`(${t.key.join(', ')}) ${o.descending ? '<=' : '>='} (@${t.keyValues.join(', @')})`);
    for (let i = 0; i < t.key.length; i++) values[t.keyValues[i]!] = after[t.keyMembers[i]!];
  }
  const dir = o.descending ? ' DESC' : '';
  const sql =
    `SELECT ${t.from} AS "from", ${t.code} AS ${t.codeName}, ${t.title} AS title FROM ${table} WHERE ${where.join(' AND ')}` +
    ` ORDER BY ${t.key.join(dir + ', ')}${dir} LIMIT @limit`;
  return { sql, values };
}

/**
 * list=langbacklinks / list=iwbacklinks: a range of the (code, title, from) index, joined with the
 * linking pages (ApiQueryLangBacklinks / ApiQueryIWBacklinks of 1.25)
 */
export function foreignBacklinksStatement(table: 'langlinks' | 'iwlinks', o: ForeignBacklinksOptions, d: SqlDialect): SqlStatement {
  const { from, code, title } = FOREIGN_LINKS[table];
  const values: Record<string, unknown> = { limit: o.limit };
  const where: string[] = [];
  whereBound(where, values, `${code} = @code`, 'code', o.code);
  whereBound(where, values, `${title} = @title`, 'title', o.title);
  if (o.after) {
    where.push(`(${code}, ${title}, ${from}) ${o.descending ? '<=' : '>='} (@ac, @at, @af)`);
    Object.assign(values, { ac: o.after.code, at: o.after.title, af: o.after.from });
  }
  const dir = o.descending ? ' DESC' : '';
  const sql =
    `SELECT ${from} AS "from", page_namespace AS ns, page_title AS dbkey, page_is_redirect AS redirect, ${code} AS code, ${title} AS title` +
    ` FROM ${table} ${d.orderedJoin} page ON page_id = ${from}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY ${code}${dir}, ${title}${dir}, ${from}${dir} LIMIT @limit`;
  return { sql, values };
}

/** rows of a backlink reader, their redirect flag (0/1) as a boolean, in place */
export function toLinkers<R extends { isRedirect: unknown }>(rows: R[]): Array<Omit<R, 'isRedirect'> & { isRedirect: boolean }> {
  for (const r of rows) (r as { isRedirect: unknown }).isRedirect = r.isRedirect === 1;
  return rows as unknown as Array<Omit<R, 'isRedirect'> & { isRedirect: boolean }>;
}

/** the whole interwiki table (a few hundred rows at most), read once per store */
export const INTERWIKI_MAP_SQL =
  'SELECT iw_prefix AS prefix, iw_url AS url, iw_api AS api, iw_local AS local, iw_trans AS trans, iw_wikiid AS wikiid FROM interwiki ORDER BY iw_prefix';

/** a row of INTERWIKI_MAP_SQL: its 0/1 flags as booleans, empty texts left out */
export function toInterwikiEntry(r: {
  prefix: string;
  url: string;
  api: string;
  local: number;
  trans: number;
  wikiid: string;
}): InterwikiEntry {
  return {
    prefix: r.prefix,
    url: r.url,
    local: !!r.local,
    trans: r.trans ? true : undefined,
    api: r.api || undefined,
    wikiid: r.wikiid || undefined,
  };
}

/**
 * The relation store of both engines: every method whose statement reads the same in both; the engine's
 * store adds the backlink readers, the distinct-value walks, the interwiki map and random pages.
 */
export abstract class SqlRelationStore implements RelationStore {
  constructor(protected readonly port: SqlPort) {}

  abstract linkersOf(o: LinkersOfOptions): Promise<Array<LinkerRow & { target: number }>>;
  abstract allLinkTitles(o: AllLinksOptions & { continueAt?: string }): Promise<string[]>;
  abstract propNames(o: { from?: string; limit: number }): Promise<string[]>;
  abstract randomPages(o: RandomPagesOptions): Promise<Array<{ pageid: number; ns: number; title: string; random: number }>>;

  async linksOf(o: LinksOfOptions): Promise<LinkRow[]> {
    if (o.pageids.length === 0 || (o.namespaces && o.namespaces.length === 0) || (o.only && o.only.length === 0)) return [];
    const { sql, values } = linksOfStatement(o, this.port.dialect);
    return this.port.named<LinkRow>('RelationStore.linksOf', sql, values);
  }

  async linkers(o: LinkersOptions): Promise<LinkerRow[]> {
    if (o.pageNamespaces !== undefined && o.pageNamespaces.length === 0) return [];
    const c = TARGET_COLUMNS[o.table];
    const { where, values } = linkersConditions(o, this.port.dialect);
    const sql =
      `SELECT ${c.from} AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS "isRedirect", ${c.fromNs ?? 'page_namespace'} AS "fromNs",` +
      ` ${o.table === 'redirect' ? 'rd_fragment' : "''"} AS fragment FROM ${o.table} ${this.port.dialect.orderedJoin} page ON page_id = ${c.from}` +
      ` WHERE ${where.join(' AND ')} ORDER BY ${c.from}${o.descending ? ' DESC' : ''} LIMIT @limit`;
    return toLinkers(await this.port.named<Omit<LinkerRow, 'isRedirect'> & { isRedirect: number }>('RelationStore.linkers', sql, values));
  }

  async allLinks(o: AllLinksOptions & { continueAt?: { title: string; from: number } }): Promise<AllLinkRow[]> {
    const { sql, values } = allLinksStatement(o);
    return this.port.named<AllLinkRow>('RelationStore.allLinks', sql, values);
  }

  async propsOf(o: PropsOfOptions): Promise<Array<{ page: number; name: string; value: string }>> {
    if (o.pageids.length === 0 || (o.names && o.names.length === 0)) return [];
    const { sql, values } = propsOfStatement(o, this.port.dialect);
    return this.port.named('RelationStore.propsOf', sql, values);
  }

  async pagesWithProp(o: PagesWithPropOptions): Promise<Array<{ pageid: number; ns: number; title: string; value: string }>> {
    const { sql, values } = pagesWithPropStatement(o, this.port.dialect);
    return this.port.named('RelationStore.pagesWithProp', sql, values);
  }

  async extLinksOf(o: ExtLinksOfOptions): Promise<Array<{ from: number; url: string }>> {
    if (o.pageids.length === 0) return [];
    const { sql, values } = extLinksOfStatement(o, this.port.dialect);
    return this.port.named('RelationStore.extLinksOf', sql, values);
  }

  async extUrlUsage(o: ExtUrlUsageOptions): Promise<Array<{ pageid: number; ns: number; title: string; url: string }>> {
    if (o.namespaces && o.namespaces.length === 0) return [];
    const { sql, values } = extUrlUsageStatement(o, this.port.dialect);
    return this.port.named('RelationStore.extUrlUsage', sql, values);
  }

  async langLinksOf(o: LangLinksOfOptions): Promise<Array<{ from: number; lang: string; title: string }>> {
    if (o.pageids.length === 0) return [];
    const { sql, values } = foreignLinksOfStatement('langlinks', o, this.port.dialect);
    return this.port.named('RelationStore.langLinksOf', sql, values);
  }

  async iwLinksOf(o: IwLinksOfOptions): Promise<Array<{ from: number; prefix: string; title: string }>> {
    if (o.pageids.length === 0) return [];
    const { sql, values } = foreignLinksOfStatement('iwlinks', o, this.port.dialect);
    return this.port.named('RelationStore.iwLinksOf', sql, values);
  }

  private iwMap?: Promise<InterwikiEntry[]>;
  interwikiMap(): Promise<InterwikiEntry[]> {
    // a few hundred rows at most, fixed for the life of the import (a re-import opens a new store)
    this.iwMap ??= this.readInterwikiMap();
    return this.iwMap;
  }

  private async readInterwikiMap(): Promise<InterwikiEntry[]> {
    try {
      // an import made before the table existed has none
      const present = await this.port.named('RelationStore.interwikiMap', this.port.dialect.tableExists, { name: 'interwiki' });
      if (present.length === 0) return [];
      return (await this.port.named('RelationStore.interwikiMap', INTERWIKI_MAP_SQL, {})).map(toInterwikiEntry);
    } catch (e) {
      // a failed read is not remembered: the next call asks again
      this.iwMap = undefined;
      throw e;
    }
  }

  async langBacklinks(o: ForeignBacklinksOptions): Promise<ForeignBacklinkRow[]> {
    const { sql, values } = foreignBacklinksStatement('langlinks', o, this.port.dialect);
    return this.port.named('RelationStore.langBacklinks', sql, values);
  }

  async iwBacklinks(o: ForeignBacklinksOptions): Promise<ForeignBacklinkRow[]> {
    const { sql, values } = foreignBacklinksStatement('iwlinks', o, this.port.dialect);
    return this.port.named('RelationStore.iwBacklinks', sql, values);
  }
}
