import type { PgDb } from './db.js';
import type { CategoryLinkStore, CategoryMemberRow, MemberType, PageCategoryRow } from '../category-link-store.js';
import { MEMBER_COLUMNS, toMember } from '../sql/row-columns.js';

// Every statement is a range scan of one index: cl_sortkey (cl_to, cl_type, cl_sortkey, cl_from),
// cl_timestamp (cl_to, cl_timestamp, cl_from) or the primary key (cl_from, cl_to); the row comparisons
// `(a, b) >= (x, y)` are index conditions in PostgreSQL, so a continuation starts with a seek.
export class PostgresCategoryLinkStore implements CategoryLinkStore {
  constructor(private readonly db: PgDb) {}

  async membersBySortkey(category: string, type: MemberType, start: { sortkey: string; pageid: number } | undefined, descending: boolean, limit: number): Promise<CategoryMemberRow[]> {
    const dir = descending ? 'DESC' : 'ASC';
    const sql = `SELECT ${MEMBER_COLUMNS} FROM categorylinks JOIN page ON page_id = cl_from
      WHERE cl_to = @cat AND cl_type = @type${start ? ` AND (cl_sortkey, cl_from) ${descending ? '<=' : '>='} (@sortkey, @pageid)` : ''}
      ORDER BY cl_sortkey ${dir}, cl_from ${dir} LIMIT @limit`;
    const rows = await this.db.named('CategoryLinkStore.membersBySortkey', sql, { cat: category, type, sortkey: start?.sortkey, pageid: start?.pageid, limit });
    return rows.map(toMember);
  }

  async membersByTimestamp(category: string, start: { timestamp: string; pageid: number } | undefined, end: string | undefined, descending: boolean, limit: number): Promise<CategoryMemberRow[]> {
    const dir = descending ? 'DESC' : 'ASC';
    const where = ['cl_to = @cat'];
    if (start) where.push(`(cl_timestamp, cl_from) ${descending ? '<=' : '>='} (@timestamp, @pageid)`);
    if (end !== undefined) where.push(`cl_timestamp ${descending ? '>=' : '<='} @end`);
    const sql = `SELECT ${MEMBER_COLUMNS} FROM categorylinks JOIN page ON page_id = cl_from
      WHERE ${where.join(' AND ')} ORDER BY cl_timestamp ${dir}, cl_from ${dir} LIMIT @limit`;
    const rows = await this.db.named('CategoryLinkStore.membersByTimestamp', sql, { cat: category, timestamp: start?.timestamp, pageid: start?.pageid, end, limit });
    return rows.map(toMember);
  }

  async categoriesOf(o: {
    pageids: readonly number[];
    start?: { pageid: number; to: string };
    only?: readonly string[];
    hidden?: boolean;
    descending: boolean;
    limit: number;
  }): Promise<PageCategoryRow[]> {
    if (o.pageids.length === 0 || (o.only && o.only.length === 0)) return [];
    const dir = o.descending ? 'DESC' : 'ASC';
    const v: Record<string, unknown> = { ids: o.pageids, limit: o.limit };
    const where: string[] = [];
    if (o.start) {
      where.push(`(cl_from, cl_to) ${o.descending ? '<=' : '>='} (@startPage, @startTo)`);
      v.startPage = o.start.pageid;
      v.startTo = o.start.to;
    }
    if (o.only) {
      where.push('cl_to = ANY(@only::text[])');
      v.only = o.only;
    }
    const hidden = 'coalesce((SELECT cat_hidden FROM category WHERE cat_title = cl_to), 0)';
    if (o.hidden !== undefined) {
      where.push(`${hidden} = @hidden`);
      v.hidden = o.hidden ? 1 : 0;
    }
    // a primary-key range per page of the batch (joined, not = ANY: a page id given twice answers twice,
    // as on SQLite); the sort is over the batch's own rows (top-N by LIMIT)
    const sql = `SELECT cl_from AS "from", cl_to AS "to", cl_sortkey AS sortkey, cl_sortkey_prefix AS "sortkeyPrefix", cl_timestamp AS timestamp,
        ${hidden} AS hidden
      FROM unnest(@ids::bigint[]) AS t(id) JOIN categorylinks ON cl_from = t.id${where.map((w) => ' AND ' + w).join('')}
      ORDER BY cl_from ${dir}, cl_to ${dir} LIMIT @limit`;
    return (await this.db.named('CategoryLinkStore.categoriesOf', sql, v)).map((r) => {
      r.hidden = r.hidden === 1;
      return r;
    });
  }
}
