import type { Db } from './db.js';
import type { AllLinksOptions, BacklinkTable, LinkerRow, RandomPagesOptions, LinkersOfOptions } from '../relation-store.js';
import { SqlitePort } from './port.js';
import { BACKLINK_COLUMNS, SqlRelationStore, TARGET_COLUMNS, allLinkTitlesBounds, linkerFilters } from '../sql/relations.js';
import { SQLITE_DIALECT } from '../sql/dialect.js';

const FROM_NS_INDEX: Record<Exclude<BacklinkTable, 'redirect'>, string> = {
  pagelinks: 'pl_backlinks_namespace',
  templatelinks: 'tl_backlinks_namespace',
  imagelinks: 'il_to_from_namespace',
};

/**
 * A linker from a row (from, page_namespace, page_title, page_is_redirect, from namespace, fragment) with
 * the index of its target in the batch
 */
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

export class SqliteRelationStore extends SqlRelationStore {
  private readonly sqlite: SqlitePort;

  constructor(db: Db) {
    const port = new SqlitePort(db);
    super(port);
    this.sqlite = port;
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
    return this.sqlite
      .cache('RelationStore.linkersOf')
      .rows(sql, v)
      .map((r) => targetLinkerRow(r, single ? 0 : (r[6] as number)));
  }

  /** Distinct titles by skipping through the key: one seek per title, however many links it has. */
  async allLinkTitles(o: AllLinksOptions & { continueAt?: string }): Promise<string[]> {
    const c = TARGET_COLUMNS[o.table];
    const { where, values: v } = allLinkTitlesBounds(o, c);
    const dir = o.descending ? ' DESC' : '';
    const base = `SELECT ${c.title} FROM ${o.table}`;
    const first = `${base} WHERE ${where.join(' AND ')} ORDER BY ${c.title}${dir} LIMIT 1`;
    const next = `${base} WHERE ${[...where, `${c.title} ${o.descending ? '<' : '>'} @after`].join(' AND ')} ORDER BY ${c.title}${dir} LIMIT 1`;
    return this.sqlite.cache('RelationStore.allLinkTitles').walk(first, next, v, o.limit);
  }

  async propNames(o: { from?: string; limit: number }): Promise<string[]> {
    const index = 'SELECT pp_propname FROM page_props INDEXED BY pp_propname_page';
    return this.sqlite
      .cache('RelationStore.propNames')
      .walk(
        o.from === undefined ? `${index} ORDER BY pp_propname LIMIT 1` : `${index} WHERE pp_propname >= @from ORDER BY pp_propname LIMIT 1`,
        `${index} WHERE pp_propname > @after ORDER BY pp_propname LIMIT 1`,
        o.from === undefined ? {} : { from: o.from },
        o.limit,
      );
  }

  async randomPages(o: RandomPagesOptions): Promise<Array<{ pageid: number; ns: number; title: string; random: number }>> {
    const out: Array<{ pageid: number; ns: number; title: string; random: number }> = [];
    const sql =
      'SELECT page_id AS pageid, page_namespace AS ns, page_title AS title, page_random AS random FROM page INDEXED BY page_random_namespace' +
      ' WHERE page_is_redirect = @redirect AND page_namespace = @ns AND page_random >= @from ORDER BY page_random LIMIT @limit';
    for (const ns of o.namespaces)
      out.push(
        ...this.sqlite.cache('RelationStore.randomPages').all<{ pageid: number; ns: number; title: string; random: number }>(sql, {
          redirect: o.redirect ? 1 : 0,
          ns,
          from: o.from,
          limit: o.limit,
        }),
      );
    return out;
  }
}
