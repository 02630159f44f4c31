import type { Db } from './db.js';
import type { AllLinkRow, AllLinksOptions, LinkRow, LinkTable, LinkerRow, RelationStore, TargetTable, TitleKey } from '../relation-store.js';
import type { CategoryRow } from '../category-store.js';
import { StatementCache, prefixEnd } from './statement-cache.js';

const COLUMNS: Record<TargetTable, { from: string; ns: string; title: string; fromNs: string | null }> = {
  pagelinks: { from: 'pl_from', ns: 'pl_namespace', title: 'pl_title', fromNs: 'pl_from_namespace' },
  templatelinks: { from: 'tl_from', ns: 'tl_namespace', title: 'tl_title', fromNs: 'tl_from_namespace' },
  redirect: { from: 'rd_from', ns: 'rd_namespace', title: 'rd_title', fromNs: null },
};

const placeholders = (prefix: string, values: readonly unknown[], v: Record<string, unknown>): string =>
  values
    .map((x, i) => {
      v[prefix + i] = x;
      return '@' + prefix + i;
    })
    .join(', ');

export class SqliteRelationStore implements RelationStore {
  private readonly links: StatementCache;
  private readonly linkersCache: StatementCache;
  private readonly all: StatementCache;
  private readonly allTitles: StatementCache;
  private readonly cats: StatementCache;

  constructor(db: Db) {
    this.links = new StatementCache(db, 'RelationStore.linksOf');
    this.linkersCache = new StatementCache(db, 'RelationStore.linkers');
    this.all = new StatementCache(db, 'RelationStore.allLinks');
    this.allTitles = new StatementCache(db, 'RelationStore.allLinkTitles');
    this.cats = new StatementCache(db, 'RelationStore.categoryInfo');
  }

  async linksOf(o: {
    table: LinkTable;
    pageids: readonly number[];
    namespaces?: readonly number[];
    only?: readonly TitleKey[];
    continueAt?: LinkRow;
    descending: boolean;
    limit: number;
  }): Promise<LinkRow[]> {
    if (o.pageids.length === 0 || (o.namespaces && o.namespaces.length === 0) || (o.only && o.only.length === 0)) return [];
    const c = COLUMNS[o.table];
    const v: Record<string, unknown> = { limit: o.limit };
    const where = [`${c.from} IN (${placeholders('p', o.pageids, v)})`];
    if (o.namespaces) where.push(`${c.ns} IN (${placeholders('n', o.namespaces, v)})`);
    if (o.only) {
      where.push(`(${c.ns}, ${c.title}) IN (VALUES ${o.only.map((t, i) => ((v['on' + i] = t.ns), (v['ot' + i] = t.title), `(@on${i}, @ot${i})`)).join(', ')})`);
    }
    if (o.continueAt) {
      where.push(`(${c.from}, ${c.ns}, ${c.title}) ${o.descending ? '<=' : '>='} (@cf, @cn, @ct)`);
      Object.assign(v, { cf: o.continueAt.from, cn: o.continueAt.ns, ct: o.continueAt.title });
    }
    const dir = o.descending ? ' DESC' : '';
    const sql =
      `SELECT ${c.from} AS "from", ${c.ns} AS ns, ${c.title} AS title FROM ${o.table} INDEXED BY ${c.from}` +
      ` WHERE ${where.join(' AND ')} ORDER BY ${c.from}${dir}, ${c.ns}${dir}, ${c.title}${dir} LIMIT @limit`;
    return this.links.all<LinkRow>(sql, v);
  }

  async linkers(o: {
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
  }): Promise<LinkerRow[]> {
    const c = COLUMNS[o.table];
    const v: Record<string, unknown> = { ns: o.ns, title: o.title, limit: o.limit };
    const where = [`${c.ns} = @ns`, `${c.title} = @title`];
    if (o.table === 'redirect') where.push("rd_interwiki = ''");
    if (o.fromNs !== undefined) {
      where.push(`${c.fromNs ?? 'page_namespace'} = @fromNs`);
      v.fromNs = o.fromNs;
    }
    if (o.fromId !== undefined) {
      where.push(`${c.from} ${o.descending ? '<=' : '>='} @fromId`);
      v.fromId = o.fromId;
    }
    if (o.redirect !== undefined) {
      where.push('+page_is_redirect = @redirect');
      v.redirect = o.redirect ? 1 : 0;
    }
    if (o.pageNamespaces !== undefined) {
      if (o.pageNamespaces.length === 0) return [];
      where.push(`+page_namespace IN (${placeholders('pn', o.pageNamespaces, v)})`);
    }
    if (o.fragment !== undefined) where.push(o.fragment ? "rd_fragment != ''" : "rd_fragment = ''");
    const fromNsCol = c.fromNs ?? 'page_namespace';
    const fragment = o.table === 'redirect' ? 'rd_fragment' : "''";
    const sql =
      `SELECT ${c.from} AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS isRedirect, ${fromNsCol} AS fromNs, ${fragment} AS fragment` +
      ` FROM ${o.table} CROSS JOIN page ON page_id = ${c.from} WHERE ${where.join(' AND ')} ORDER BY ${c.from}${o.descending ? ' DESC' : ''} LIMIT @limit`;
    return this.linkersCache.all<LinkerRow & { isRedirect: number | boolean }>(sql, v).map((r) => ({ ...r, isRedirect: !!r.isRedirect }));
  }

  private bounds(o: AllLinksOptions, c: { ns: string; title: string }, where: string[], v: Record<string, unknown>): void {
    where.push(`${c.ns} = @ns`);
    v.ns = o.ns;
    if (o.from !== undefined) {
      where.push(`${c.title} >= @from`);
      v.from = o.from;
    }
    if (o.to !== undefined) {
      where.push(`${c.title} <= @to`);
      v.to = o.to;
    }
    if (o.prefix !== undefined && o.prefix !== '') {
      where.push(`${c.title} >= @prefix AND ${c.title} < @prefixEnd`);
      v.prefix = o.prefix;
      v.prefixEnd = prefixEnd(o.prefix);
    }
  }

  /** A range scan of the (ns, title, from) key: pagelinks/templatelinks primary key, redirect_target. */
  async allLinks(o: AllLinksOptions & { continueAt?: { title: string; from: number } }): Promise<AllLinkRow[]> {
    const c = COLUMNS[o.table];
    const where: string[] = [];
    const v: Record<string, unknown> = { limit: o.limit };
    this.bounds(o, c, where, v);
    if (o.continueAt !== undefined) {
      where.push(`(${c.title}, ${c.from}) ${o.descending ? '<=' : '>='} (@contTitle, @contFrom)`);
      v.contTitle = o.continueAt.title;
      v.contFrom = o.continueAt.from;
    }
    const extra = o.table === 'redirect' ? 'rd_fragment AS fragment, rd_interwiki AS interwiki' : "'' AS fragment, '' AS interwiki";
    const dir = o.descending ? ' DESC' : '';
    const sql =
      `SELECT ${c.title} AS title, ${c.from} AS "from", ${extra} FROM ${o.table} WHERE ${where.join(' AND ')}` +
      ` ORDER BY ${c.title}${dir}, ${c.from}${dir} LIMIT @limit`;
    return this.all.all<AllLinkRow>(sql, v);
  }

  /** Distinct titles by skipping through the key: one seek per title, however many links it has. */
  async allLinkTitles(o: AllLinksOptions & { continueAt?: string }): Promise<string[]> {
    const c = COLUMNS[o.table];
    const where: string[] = [];
    const v: Record<string, unknown> = {};
    this.bounds(o, c, where, v);
    if (o.continueAt !== undefined) {
      where.push(`${c.title} ${o.descending ? '<=' : '>='} @cont`);
      v.cont = o.continueAt;
    }
    const dir = o.descending ? ' DESC' : '';
    const base = `SELECT ${c.title} FROM ${o.table}`;
    const first = `${base} WHERE ${where.join(' AND ')} ORDER BY ${c.title}${dir} LIMIT 1`;
    const next = `${base} WHERE ${[...where, `${c.title} ${o.descending ? '<' : '>'} @after`].join(' AND ')} ORDER BY ${c.title}${dir} LIMIT 1`;
    const out: string[] = [];
    let t = this.allTitles.value<string>(first, v);
    while (t !== undefined && out.length < o.limit) {
      out.push(t);
      if (out.length >= o.limit) break;
      t = this.allTitles.value<string>(next, { ...v, after: t });
    }
    return out;
  }

  async categoryInfo(titles: readonly string[]): Promise<CategoryRow[]> {
    if (titles.length === 0) return [];
    const v: Record<string, unknown> = {};
    const sql =
      `SELECT cat_title AS title, cat_pages AS pages, cat_subcats AS subcats, cat_files AS files,` +
      ` EXISTS (SELECT 1 FROM page JOIN page_props ON pp_page = page_id AND pp_propname = 'hiddencat'` +
      ` WHERE page_namespace = 14 AND page_title = cat_title) AS hidden` +
      ` FROM category WHERE cat_title IN (${placeholders('t', titles, v)}) ORDER BY cat_title`;
    return this.cats.all<CategoryRow & { hidden: number | boolean }>(sql, v).map((r) => ({ ...r, hidden: !!r.hidden }));
  }
}
