import type { Db, Statement } from './db.js';
import { StatementCache } from './statement-cache.js';
import type { CategoryLinkStore, CategoryMemberRow, MemberType, PageCategoryRow } from '../category-link-store.js';
import { MEMBER_COLUMNS, toMember } from '../sql/row-columns.js';

export class SqliteCategoryLinkStore implements CategoryLinkStore {
  private readonly bySortkey: Record<'asc' | 'desc', Record<'first' | 'from', Statement>>;
  private readonly byTimestamp: Record<'asc' | 'desc', Record<'first' | 'from', Statement>>;
  private readonly ofPages: StatementCache;

  constructor(db: Db) {
    // Every statement is a range scan of one index: cl_sortkey (cl_to, cl_type, cl_sortkey, cl_from),
    // cl_timestamp (cl_to, cl_timestamp, cl_from) or the primary key (cl_from, cl_to).
    const sk = (dir: 'ASC' | 'DESC', from: boolean) =>
      db.prepare(
        'CategoryLinkStore.membersBySortkey',
        `SELECT ${MEMBER_COLUMNS} FROM categorylinks JOIN page ON page_id = cl_from
         WHERE cl_to = @cat AND cl_type = @type ${from ? `AND (cl_sortkey, cl_from) ${dir === 'ASC' ? '>=' : '<='} (@sortkey, @pageid)` : ''}
         ORDER BY cl_sortkey ${dir}, cl_from ${dir} LIMIT @limit`,
      );
    this.bySortkey = { asc: { first: sk('ASC', false), from: sk('ASC', true) }, desc: { first: sk('DESC', false), from: sk('DESC', true) } };
    const ts = (dir: 'ASC' | 'DESC', from: boolean) =>
      db.prepare(
        'CategoryLinkStore.membersByTimestamp',
        `SELECT ${MEMBER_COLUMNS} FROM categorylinks INDEXED BY cl_timestamp JOIN page ON page_id = cl_from
         WHERE cl_to = @cat ${from ? `AND (cl_timestamp, cl_from) ${dir === 'ASC' ? '>=' : '<='} (@timestamp, @pageid)` : ''}
         AND (@end IS NULL OR cl_timestamp ${dir === 'ASC' ? '<=' : '>='} @end)
         ORDER BY cl_timestamp ${dir}, cl_from ${dir} LIMIT @limit`,
      );
    this.byTimestamp = { asc: { first: ts('ASC', false), from: ts('ASC', true) }, desc: { first: ts('DESC', false), from: ts('DESC', true) } };
    this.ofPages = new StatementCache(db, 'CategoryLinkStore.categoriesOf');

  }

  async membersBySortkey(category: string, type: MemberType, start: { sortkey: string; pageid: number } | undefined, descending: boolean, limit: number): Promise<CategoryMemberRow[]> {
    const set = this.bySortkey[descending ? 'desc' : 'asc'];
    const rows = start
      ? set.from.all({ cat: category, type, sortkey: start.sortkey, pageid: start.pageid, limit } as any)
      : set.first.all({ cat: category, type, limit } as any);
    return rows.map(toMember);
  }

  async membersByTimestamp(category: string, start: { timestamp: string; pageid: number } | undefined, end: string | undefined, descending: boolean, limit: number): Promise<CategoryMemberRow[]> {
    const set = this.byTimestamp[descending ? 'desc' : 'asc'];
    const rows = start
      ? set.from.all({ cat: category, timestamp: start.timestamp, pageid: start.pageid, end: end ?? null, limit } as any)
      : set.first.all({ cat: category, end: end ?? null, limit } as any);
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
    const v: Record<string, unknown> = { ids: JSON.stringify(o.pageids), limit: o.limit };
    const where: string[] = [];
    if (o.start) {
      where.push(`(cl_from, cl_to) ${o.descending ? '<=' : '>='} (@startPage, @startTo)`);
      v.startPage = o.start.pageid;
      v.startTo = o.start.to;
    }
    if (o.only) {
      where.push('cl_to IN (SELECT value FROM json_each(@only))');
      v.only = JSON.stringify(o.only);
    }
    const hidden = 'coalesce((SELECT cat_hidden FROM category WHERE cat_title = cl_to), 0)';
    if (o.hidden !== undefined) {
      where.push(`${hidden} = @hidden`);
      v.hidden = o.hidden ? 1 : 0;
    }
    // a primary-key range per page of the batch; the sort is over the batch's own rows (top-N by LIMIT)
    const sql = `SELECT cl_from AS "from", cl_to AS "to", cl_sortkey AS sortkey, cl_sortkey_prefix AS sortkeyPrefix, cl_timestamp AS timestamp,
        ${hidden} AS hidden
      FROM json_each(@ids) j CROSS JOIN categorylinks ON cl_from = j.value${where.map((w) => ' AND ' + w).join('')}
      ORDER BY cl_from ${dir}, cl_to ${dir} LIMIT @limit`;
    const rows = this.ofPages.all<any>(sql, v);
    for (const r of rows) r.hidden = r.hidden === 1;
    return rows;
  }

}
