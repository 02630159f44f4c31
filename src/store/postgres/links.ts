import type { PgDb } from './db.js';
import type { FileUsageOptions, FileUsagePages, FileUsageRow, ImagesOfOptions } from '../link-store.js';
import { SqlLinkStore } from '../sql/links.js';
import { PAGE_COLUMNS, PAGE_REF_COLUMNS, toPage } from '../sql/row-columns.js';
import { titleBounds, whereBound } from '../sql/prefix-range.js';
import { distinctValuesSql } from './relations.js';

export class PostgresLinkStore extends SqlLinkStore {
  constructor(private readonly db: PgDb) {
    super(db);
  }

  /** A range scan of the imagelinks primary key (il_to, il_from). */
  async fileUsages(o: FileUsageOptions & { continueAt?: { target: string; from: number } }): Promise<FileUsageRow[]> {
    const { sql, v } = this.usageQuery(o, 'il_to AS target, il_from AS "from"', '');
    return this.db.named<FileUsageRow>('LinkStore.fileUsages', sql, v);
  }

  /** fileUsages' range scan with a primary-key seek of the using page per row */
  async fileUsagePages(o: FileUsageOptions & { continueAt?: { target: string; from: number } }, full = false): Promise<FileUsagePages> {
    const { sql, v } = this.usageQuery(
      o,
      `il_to AS target, il_from AS "from", ${full ? PAGE_COLUMNS : PAGE_REF_COLUMNS}`,
      ' LEFT JOIN page ON page_id = il_from',
    );
    const rows = await this.db.named('LinkStore.fileUsages', sql, v);
    const out: FileUsagePages = { from: [], page: [], lastTarget: rows.length ? rows[rows.length - 1].target : undefined };
    for (const r of rows) {
      out.from.push(r.from);
      out.page.push(
        r.pageid === null
          ? null
          : full
            ? toPage({
                pageid: r.pageid,
                ns: r.ns,
                title: r.title,
                isRedirect: r.isRedirect,
                length: r.length,
                latestRevId: r.latestRevId,
                touched: r.touched,
                revCount: r.revCount,
                contentModel: r.contentModel,
              })
            : { pageid: r.pageid, ns: r.ns, title: r.title, isRedirect: r.isRedirect === 1 },
      );
    }
    return out;
  }

  private usageQuery(
    o: FileUsageOptions & { continueAt?: { target: string; from: number } },
    columns: string,
    join: string,
  ): { sql: string; v: Record<string, unknown> } {
    const where: string[] = [];
    const v: Record<string, unknown> = { limit: o.limit };
    if (o.continueAt !== undefined) {
      where.push(`(il_to, il_from) ${o.descending ? '<=' : '>='} (@contTo, @contFrom)`);
      v.contTo = o.continueAt.target;
      v.contFrom = o.continueAt.from;
    }
    titleBounds('il_to', o, where, v);
    const dir = o.descending ? ' DESC' : '';
    const sql = `SELECT ${columns} FROM imagelinks${join}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY il_to${dir}, il_from${dir} LIMIT @limit`;
    return { sql, v };
  }

  /**
   * Distinct targets by skipping through the primary key: one seek per target (`il_to > previous`),
   * so a file used a million times costs no more than one used once; all in one statement.
   */
  async fileUsageTargets(o: FileUsageOptions & { continueAt?: string }): Promise<string[]> {
    if (o.limit <= 0) return [];
    const where: string[] = [];
    const v: Record<string, unknown> = { limit: o.limit };
    if (o.continueAt !== undefined) {
      where.push(`il_to ${o.descending ? '<=' : '>='} @cont`);
      v.cont = o.continueAt;
    }
    titleBounds('il_to', o, where, v);
    const rows = await this.db.named<{ v: string }>(
      'LinkStore.fileUsageTargets',
      distinctValuesSql('imagelinks', 'il_to', where, o.descending),
      v,
    );
    return rows.map((r) => r.v);
  }

  /**
   * A range scan of the il_from index (il_from, il_to) per page of the batch, each read only as far as the
   * limit; the sort is over the batch's rows. The batch is joined as a list, not a set, as the SQLite store
   * joins it (a page given twice has its rows twice).
   */
  async imagesOf(o: ImagesOfOptions): Promise<Array<{ pageid: number; name: string }>> {
    if (o.pageids.length === 0 || (o.only && o.only.length === 0)) return [];
    const dir = o.descending ? ' DESC' : '';
    const v: Record<string, unknown> = { ids: o.pageids, limit: o.limit };
    const where = ['il_from = j.id'];
    if (o.start !== undefined) {
      where.push(`(il_from, il_to) ${o.descending ? '<=' : '>='} (@startPage, @startName)`);
      v.startPage = o.start.pageid;
      v.startName = o.start.name;
    }
    whereBound(where, v, 'il_to = ANY(@only::text[])', 'only', o.only);
    const sql = `SELECT x.* FROM unnest(@ids::bigint[]) AS j(id) CROSS JOIN LATERAL (
        SELECT il_from AS pageid, il_to AS name FROM imagelinks WHERE ${where.join(' AND ')} ORDER BY il_to${dir} LIMIT @limit) x
      ORDER BY x.pageid${dir}, x.name${dir} LIMIT @limit`;
    return this.db.named<{ pageid: number; name: string }>('LinkStore.imagesOf', sql, v);
  }
}
