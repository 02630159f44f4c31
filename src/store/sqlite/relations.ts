import type { Db } from './db.js';
import type {
  AllLinkRow,
  AllLinksOptions,
  BacklinkTable,
  LinkRow,
  LinkerRow,
  IwLinksOfOptions,
  ForeignBacklinksOptions,
  ForeignBacklinkRow,
  PropsOfOptions,
  PagesWithPropOptions,
  ExtLinksOfOptions,
  ExtUrlUsageOptions,
  RandomPagesOptions,
  LangLinksOfOptions,
  LinkersOfOptions,
  LinkersOptions,
  LinksOfOptions,
  RelationStore,
} from '../relation-store.js';
import type { InterwikiEntry } from '../../wiki/interwiki.js';
import { StatementCache } from './statement-cache.js';
import {
  BACKLINK_COLUMNS,
  INTERWIKI_MAP_SQL,
  TARGET_COLUMNS,
  allLinkTitlesBounds,
  allLinksStatement,
  extLinksOfStatement,
  extUrlUsageStatement,
  iwLinksOfStatement,
  foreignBacklinksStatement,
  langLinksOfStatement,
  linkerFilters,
  linkersConditions,
  linksOfStatement,
  pagesWithPropStatement,
  propsOfStatement,
  toInterwikiEntry,
} from '../sql/relations.js';
import { SQLITE_DIALECT } from '../sql/dialect.js';

const FROM_NS_INDEX: Record<Exclude<BacklinkTable, 'redirect'>, string> = {
  pagelinks: 'pl_backlinks_namespace',
  templatelinks: 'tl_backlinks_namespace',
  imagelinks: 'il_to_from_namespace',
};

/** A linker from a row (from, page_namespace, page_title, page_is_redirect, from namespace, fragment). */
function linkerRow(r: unknown[]): LinkerRow {
  return {
    pageid: r[0] as number,
    ns: r[1] as number,
    title: r[2] as string,
    isRedirect: !!r[3],
    fromNs: r[4] as number,
    fragment: r[5] as string,
  };
}

/** The same with the index of its target in the batch. */
function targetLinkerRow(r: unknown[], target: number): LinkerRow & { target: number } {
  return {
    target,
    pageid: r[0] as number,
    ns: r[1] as number,
    title: r[2] as string,
    isRedirect: !!r[3],
    fromNs: r[4] as number,
    fragment: r[5] as string,
  };
}

export class SqliteRelationStore implements RelationStore {
  private readonly links: StatementCache;
  private readonly linkersCache: StatementCache;
  private readonly all: StatementCache;
  private readonly allTitles: StatementCache;

  constructor(private readonly db: Db) {
    this.links = new StatementCache(db, 'RelationStore.linksOf');
    this.linkersCache = new StatementCache(db, 'RelationStore.linkers');
    this.all = new StatementCache(db, 'RelationStore.allLinks');
    this.allTitles = new StatementCache(db, 'RelationStore.allLinkTitles');
  }

  async linksOf(o: LinksOfOptions): Promise<LinkRow[]> {
    if (o.pageids.length === 0 || (o.namespaces && o.namespaces.length === 0) || (o.only && o.only.length === 0)) return [];
    const { sql, values } = linksOfStatement(o, SQLITE_DIALECT);
    return this.links.all<LinkRow>(sql, values);
  }

  async linkers(o: LinkersOptions): Promise<LinkerRow[]> {
    if (o.pageNamespaces !== undefined && o.pageNamespaces.length === 0) return [];
    const c = TARGET_COLUMNS[o.table];
    const { where, values } = linkersConditions(o, SQLITE_DIALECT);
    const fromNsCol = c.fromNs ?? 'page_namespace';
    const fragment = o.table === 'redirect' ? 'rd_fragment' : "''";
    const sql =
      `SELECT ${c.from}, page_namespace, page_title, page_is_redirect, ${fromNsCol}, ${fragment}` +
      ` FROM ${o.table} CROSS JOIN page ON page_id = ${c.from} WHERE ${where.join(' AND ')} ORDER BY ${c.from}${o.descending ? ' DESC' : ''} LIMIT @limit`;
    return this.linkersCache.rows(sql, values).map(linkerRow);
  }

  async linkersOf(o: LinkersOfOptions): Promise<Array<LinkerRow & { target: number }>> {
    if (o.targets.length === 0 || (o.pageNamespaces && o.pageNamespaces.length === 0)) return [];
    const c = BACKLINK_COLUMNS[o.table];
    const byFromNs = c.fromNs !== null && o.targets.some((t) => t.fromNs !== undefined);
    if (byFromNs && o.targets.some((t) => t.fromNs === undefined)) throw new Error('linkersOf: fromNs on every target or on none');
    // One target (a list's first level, nearly every request) binds its values; a batch joins them as
    // JSON. Both read the same index range.
    const single = o.targets.length === 1;
    const v: Record<string, unknown> = { limit: o.limit };
    let on: string[];
    if (single) {
      const t = o.targets[0];
      Object.assign(v, { ns: t.ns, title: t.title, fromNs: t.fromNs ?? 0, fromId: t.fromId ?? 0 });
      on = [`${c.title} = @title`, `${c.from} >= @fromId`];
      if (c.ns !== null) on.unshift(`${c.ns} = @ns`);
      if (byFromNs) on.push(`${c.fromNs} = @fromNs`);
    } else {
      v.targets = JSON.stringify(o.targets.map((t) => [t.ns, t.title, t.fromNs ?? 0, t.fromId ?? 0]));
      on = [`${c.title} = j.value->>1`, `${c.from} >= j.value->>3`];
      if (c.ns !== null) on.unshift(`${c.ns} = j.value->>0`);
      if (byFromNs) on.push(`${c.fromNs} = j.value->>2`);
    }
    const where: string[] = [];
    linkerFilters(o, SQLITE_DIALECT, where, v);
    // The index that orders each target's rows by page id: the primary key ([ns,] title, from) of a link
    // table, ([ns,] title, from namespace, from) with a namespace, redirect_target for redirects.
    const index = o.table === 'redirect' ? 'INDEXED BY redirect_target' : byFromNs ? `INDEXED BY ${FROM_NS_INDEX[o.table]}` : 'NOT INDEXED';
    const fragment = o.table === 'redirect' ? 'rd_fragment' : "''";
    // No ORDER BY: the nested loop reads the targets in the batch's order and each one's index range in
    // page id order, which is the order wanted; a sort would read every row of every target first.
    // Rows as arrays: a 500-row page built one object per row here instead of one by SQLite and a copy.
    const sql =
      `SELECT ${c.from}, page_namespace, page_title, page_is_redirect, ${c.fromNs ?? 'page_namespace'}, ${fragment}${single ? '' : ', j.key'}` +
      (single
        ? ` FROM ${o.table} ${index} CROSS JOIN page ON page_id = ${c.from} WHERE ${[...on, ...where].join(' AND ')}`
        : ` FROM json_each(@targets) j CROSS JOIN ${o.table} ${index} ON ${on.join(' AND ')} CROSS JOIN page ON page_id = ${c.from}` +
          `${where.length ? ' WHERE ' + where.join(' AND ') : ''}`) +
      ' LIMIT @limit';
    return this.cache('linkersOf')
      .rows(sql, v)
      .map((r) => targetLinkerRow(r, single ? 0 : (r[6] as number)));
  }

  async allLinks(o: AllLinksOptions & { continueAt?: { title: string; from: number } }): Promise<AllLinkRow[]> {
    const { sql, values } = allLinksStatement(o);
    return this.all.all<AllLinkRow>(sql, values);
  }

  /** Distinct titles by skipping through the key: one seek per title, however many links it has. */
  async allLinkTitles(o: AllLinksOptions & { continueAt?: string }): Promise<string[]> {
    const c = TARGET_COLUMNS[o.table];
    const { where, values: v } = allLinkTitlesBounds(o, c);
    const dir = o.descending ? ' DESC' : '';
    const base = `SELECT ${c.title} FROM ${o.table}`;
    const first = `${base} WHERE ${where.join(' AND ')} ORDER BY ${c.title}${dir} LIMIT 1`;
    const next = `${base} WHERE ${[...where, `${c.title} ${o.descending ? '<' : '>'} @after`].join(' AND ')} ORDER BY ${c.title}${dir} LIMIT 1`;
    const out: string[] = [];
    let t = this.allTitles.value<string>(first, v);
    while (t !== undefined && out.length < o.limit) {
      out.push(t);
      if (out.length >= o.limit) break;
      v.after = t;
      t = this.allTitles.value<string>(next, v);
    }
    return out;
  }

  private readonly props = new Map<string, StatementCache>();
  private cache(name: string): StatementCache {
    let c = this.props.get(name);
    if (!c) this.props.set(name, (c = new StatementCache(this.db, 'RelationStore.' + name)));
    return c;
  }

  async propsOf(o: PropsOfOptions): Promise<Array<{ page: number; name: string; value: string }>> {
    if (o.pageids.length === 0 || (o.names && o.names.length === 0)) return [];
    const { sql, values } = propsOfStatement(o, SQLITE_DIALECT);
    return this.cache('propsOf').all(sql, values);
  }

  async pagesWithProp(o: PagesWithPropOptions): Promise<Array<{ pageid: number; ns: number; title: string; value: string }>> {
    const { sql, values } = pagesWithPropStatement(o, SQLITE_DIALECT);
    return this.cache('pagesWithProp').all(sql, values);
  }

  async propNames(o: { from?: string; limit: number }): Promise<string[]> {
    const c = this.cache('propNames');
    const out: string[] = [];
    let t =
      o.from === undefined
        ? c.value<string>('SELECT pp_propname FROM page_props INDEXED BY pp_propname_page ORDER BY pp_propname LIMIT 1', {})
        : c.value<string>(
            'SELECT pp_propname FROM page_props INDEXED BY pp_propname_page WHERE pp_propname >= @from ORDER BY pp_propname LIMIT 1',
            { from: o.from },
          );
    while (t !== undefined && out.length < o.limit) {
      out.push(t);
      if (out.length >= o.limit) break;
      t = c.value<string>(
        'SELECT pp_propname FROM page_props INDEXED BY pp_propname_page WHERE pp_propname > @after ORDER BY pp_propname LIMIT 1',
        { after: t },
      );
    }
    return out;
  }

  async extLinksOf(o: ExtLinksOfOptions): Promise<Array<{ from: number; url: string }>> {
    if (o.pageids.length === 0) return [];
    const { sql, values } = extLinksOfStatement(o, SQLITE_DIALECT);
    return this.cache('extLinksOf').all(sql, values);
  }

  async extUrlUsage(o: ExtUrlUsageOptions): Promise<Array<{ pageid: number; ns: number; title: string; url: string }>> {
    if (o.namespaces && o.namespaces.length === 0) return [];
    const { sql, values } = extUrlUsageStatement(o, SQLITE_DIALECT);
    return this.cache('extUrlUsage').all(sql, values);
  }

  async langLinksOf(o: LangLinksOfOptions): Promise<Array<{ from: number; lang: string; title: string }>> {
    if (o.pageids.length === 0) return [];
    const { sql, values } = langLinksOfStatement(o, SQLITE_DIALECT);
    return this.cache('langLinksOf').all(sql, values);
  }

  async langBacklinks(o: ForeignBacklinksOptions): Promise<ForeignBacklinkRow[]> {
    const { sql, values } = foreignBacklinksStatement('langlinks', o, SQLITE_DIALECT);
    return this.cache('langBacklinks').all(sql, values);
  }

  async iwBacklinks(o: ForeignBacklinksOptions): Promise<ForeignBacklinkRow[]> {
    const { sql, values } = foreignBacklinksStatement('iwlinks', o, SQLITE_DIALECT);
    return this.cache('iwBacklinks').all(sql, values);
  }

  async iwLinksOf(o: IwLinksOfOptions): Promise<Array<{ from: number; prefix: string; title: string }>> {
    if (o.pageids.length === 0) return [];
    const { sql, values } = iwLinksOfStatement(o, SQLITE_DIALECT);
    return this.cache('iwLinksOf').all(sql, values);
  }

  private iwMap?: InterwikiEntry[];
  async interwikiMap(): Promise<InterwikiEntry[]> {
    // a few hundred rows at most, fixed for the life of the database
    if (this.iwMap === undefined && !this.db.raw.prepare("SELECT 1 FROM sqlite_master WHERE name = 'interwiki'").get()) this.iwMap = [];
    this.iwMap ??= this.cache('interwikiMap').all<any>(INTERWIKI_MAP_SQL, {}).map(toInterwikiEntry);
    return this.iwMap;
  }

  async randomPages(o: RandomPagesOptions): Promise<Array<{ pageid: number; ns: number; title: string; random: number }>> {
    const out: Array<{ pageid: number; ns: number; title: string; random: number }> = [];
    const sql =
      'SELECT page_id AS pageid, page_namespace AS ns, page_title AS title, page_random AS random FROM page INDEXED BY page_random_namespace' +
      ' WHERE page_is_redirect = @redirect AND page_namespace = @ns AND page_random >= @from ORDER BY page_random LIMIT @limit';
    for (const ns of o.namespaces)
      out.push(
        ...this.cache('randomPages').all<{ pageid: number; ns: number; title: string; random: number }>(sql, {
          redirect: o.redirect ? 1 : 0,
          ns,
          from: o.from,
          limit: o.limit,
        }),
      );
    return out;
  }
}
