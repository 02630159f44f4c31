import type { PgDb } from './db.js';
import type { AllLinksOptions, LinkerRow, RandomPagesOptions, LinkersOfOptions } from '../relation-store.js';
import { BACKLINK_COLUMNS, SqlRelationStore, TARGET_COLUMNS, allLinkTitlesBounds, linkerFilters, toLinkers } from '../sql/relations.js';
import { POSTGRES_DIALECT } from '../sql/dialect.js';

/**
 * Distinct values of an index column in order, one seek per value, as one statement: a recursive CTE
 * each step of which looks up the next value after the previous one (a loose index scan). The SQLite store
 * does the same seeks as one statement each; here each would be a round trip.
 *
 * @param from the table expression; @param col the column; @param where the bounds (may be empty)
 */
export function distinctValuesSql(from: string, col: string, where: readonly string[], descending: boolean): string {
  const dir = descending ? ' DESC' : '';
  const cond = (extra: string[]) => {
    const all = [...where, ...extra];
    return all.length ? ' WHERE ' + all.join(' AND ') : '';
  };
  return `WITH RECURSIVE skip(v, n) AS (
      (SELECT ${col}, 1 FROM ${from}${cond([])} ORDER BY ${col}${dir} LIMIT 1)
      UNION ALL
      SELECT (SELECT ${col} FROM ${from}${cond([`${col} ${descending ? '<' : '>'} skip.v`])} ORDER BY ${col}${dir} LIMIT 1), n + 1
      FROM skip WHERE skip.v IS NOT NULL AND n < @limit
    ) SELECT v FROM skip WHERE v IS NOT NULL ORDER BY n`;
}

// Batches are bound as arrays (= ANY, unnest): one prepared statement per shape of the filters, one round
// trip per call, an index seek or range per element.
export class PostgresRelationStore extends SqlRelationStore {
  constructor(private readonly db: PgDb) {
    super(db);
  }

  async linkersOf(o: LinkersOfOptions): Promise<Array<LinkerRow & { target: number }>> {
    if (o.targets.length === 0 || (o.pageNamespaces && o.pageNamespaces.length === 0)) return [];
    const c = BACKLINK_COLUMNS[o.table];
    const byFromNs = c.fromNs !== null && o.targets.some((t) => t.fromNs !== undefined);
    if (byFromNs && o.targets.some((t) => t.fromNs === undefined)) throw new Error('linkersOf: fromNs on every target or on none');
    const v: Record<string, unknown> = {
      tns: o.targets.map((t) => t.ns),
      ttitle: o.targets.map((t) => t.title),
      tfromns: o.targets.map((t) => t.fromNs ?? 0),
      tfromid: o.targets.map((t) => t.fromId ?? 0),
      limit: o.limit,
    };
    const where = [`${c.title} = t.title`, `${c.from} >= t.fromid`];
    if (c.ns !== null) where.unshift(`${c.ns} = t.ns`);
    if (byFromNs) where.push(`${c.fromNs} = t.fromns`);
    linkerFilters(o, POSTGRES_DIALECT, where, v);
    const fragment = o.table === 'redirect' ? 'rd_fragment' : "''";
    // Each target is a range of the index that orders its rows by page id (the primary key (ns, title,
    // from) of a link table, (ns, title, from namespace, from) with a namespace, redirect_target for
    // redirects), read in the lateral only as far as the limit; the targets come in the batch's order
    // (the ordinality), so the outer sort only orders rows within one target and stops at the limit.
    const sql =
      `SELECT (t.ord - 1)::bigint AS target, x.* FROM unnest(@tns::bigint[], @ttitle::text[], @tfromns::bigint[], @tfromid::bigint[]) WITH ORDINALITY AS t(ns, title, fromns, fromid, ord)` +
      ` CROSS JOIN LATERAL (SELECT ${c.from} AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS "isRedirect", ${c.fromNs ?? 'page_namespace'} AS "fromNs", ${fragment} AS fragment` +
      ` FROM ${o.table} JOIN page ON page_id = ${c.from} WHERE ${where.join(' AND ')} ORDER BY ${c.from} LIMIT @limit) x` +
      ` ORDER BY t.ord, x.pageid LIMIT @limit`;
    return toLinkers(
      await this.db.named<Omit<LinkerRow, 'isRedirect'> & { isRedirect: number; target: number }>('RelationStore.linkersOf', sql, v),
    );
  }

  /** Distinct titles by skipping through the key: one seek per title, however many links it has. */
  async allLinkTitles(o: AllLinksOptions & { continueAt?: string }): Promise<string[]> {
    if (o.limit <= 0) return [];
    const c = TARGET_COLUMNS[o.table];
    const { where, values: v } = allLinkTitlesBounds(o, c);
    v.limit = o.limit;
    const rows = await this.db.named<{ v: string }>(
      'RelationStore.allLinkTitles',
      distinctValuesSql(o.table, c.title, where, o.descending),
      v,
    );
    return rows.map((r) => r.v);
  }

  async propNames(o: { from?: string; limit: number }): Promise<string[]> {
    if (o.limit <= 0) return [];
    const where = o.from === undefined ? [] : ['pp_propname >= @from'];
    const rows = await this.db.named<{ v: string }>(
      'RelationStore.propNames',
      distinctValuesSql('page_props', 'pp_propname', where, false),
      { from: o.from, limit: o.limit },
    );
    return rows.map((r) => r.v);
  }

  async randomPages(o: RandomPagesOptions): Promise<Array<{ pageid: number; ns: number; title: string; random: number }>> {
    if (o.namespaces.length === 0) return [];
    // per namespace a range of page_random_namespace (redirect, ns, random), in the order the namespaces
    // were given; page id breaks ties of page_random as SQLite's index (whose rows end with the rowid) does
    const sql =
      'SELECT x.* FROM unnest($1::bigint[]) WITH ORDINALITY AS n(ns, ord) CROSS JOIN LATERAL (' +
      'SELECT page_id AS pageid, page_namespace AS ns, page_title AS title, page_random AS random FROM page' +
      ' WHERE page_is_redirect = $2 AND page_namespace = n.ns AND page_random >= $3 ORDER BY page_random, page_id LIMIT $4) x ORDER BY n.ord, x.random, x.pageid';
    return this.db.all('RelationStore.randomPages', sql, [o.namespaces, o.redirect ? 1 : 0, o.from, o.limit]);
  }
}
