/**
 * The category link store of both engines. Every statement is a range scan of one index: cl_sortkey
 * (cl_to, cl_type, cl_sortkey, cl_from), cl_timestamp (cl_to, cl_timestamp, cl_from) or the primary key
 * (cl_from, cl_to); the row comparisons `(a, b) >= (x, y)` are index conditions in both engines, so a
 * continuation starts with a seek.
 */
import type { CategoryLinkStore, CategoryMemberRow, MemberType, PageCategoriesOptions, PageCategoryRow } from '../category-link-store.js';
import type { SqlDialect, SqlStatement } from './dialect.js';
import type { SqlPort } from './port.js';
import { MEMBER_COLUMNS, toMember } from './row-columns.js';

/** prop=categories: a primary-key range per page of the batch; the sort is over the batch's own rows (top-N by LIMIT) */
export function categoriesOfStatement(o: PageCategoriesOptions, d: SqlDialect): SqlStatement {
  const dir = o.descending ? 'DESC' : 'ASC';
  const values: Record<string, unknown> = { limit: o.limit };
  // joined, not `IN`: a page id given twice answers twice
  const pages = d.eachId(o.pageids, 'ids', values);
  const where: string[] = [];
  if (o.start) {
    where.push(`(cl_from, cl_to) ${o.descending ? '<=' : '>='} (@startPage, @startTo)`);
    values.startPage = o.start.pageid;
    values.startTo = o.start.to;
  }
  if (o.only) where.push(d.amongTextBatch('cl_to', o.only, 'only', values));
  const hidden = 'coalesce((SELECT cat_hidden FROM category WHERE cat_title = cl_to), 0)';
  if (o.hidden !== undefined) {
    where.push(`${hidden} = @hidden`);
    values.hidden = o.hidden ? 1 : 0;
  }
  const sql = `SELECT cl_from AS "from", cl_to AS "to", cl_sortkey AS sortkey, cl_sortkey_prefix AS "sortkeyPrefix", cl_timestamp AS timestamp,
        ${hidden} AS hidden
      FROM ${pages.source} ${d.orderedJoin} categorylinks ON cl_from = ${pages.id}${where.map((w) => ' AND ' + w).join('')}
      ORDER BY cl_from ${dir}, cl_to ${dir} LIMIT @limit`;
  return { sql, values };
}

/** rows of categoriesOfStatement, their hidden flag (0/1) as a boolean, in place */
export function toPageCategories(rows: any[]): PageCategoryRow[] {
  for (const r of rows) r.hidden = r.hidden === 1;
  return rows;
}

/** list=categorymembers by sort key, of one type, from (`from`) a sort key and page */
function membersBySortkeySql(descending: boolean, from: boolean): string {
  const dir = descending ? 'DESC' : 'ASC';
  return (
    `SELECT ${MEMBER_COLUMNS} FROM categorylinks JOIN page ON page_id = cl_from WHERE cl_to = @cat AND cl_type = @type` +
    `${from ? ` AND (cl_sortkey, cl_from) ${descending ? '<=' : '>='} (@sortkey, @pageid)` : ''} ORDER BY cl_sortkey ${dir}, cl_from ${dir} LIMIT @limit`
  );
}

/** list=categorymembers by timestamp, from (`from`) a timestamp and page, up to (`end`) a timestamp */
function membersByTimestampSql(descending: boolean, from: boolean, end: boolean, d: SqlDialect): string {
  const dir = descending ? 'DESC' : 'ASC';
  const where = ['cl_to = @cat'];
  if (from) where.push(`(cl_timestamp, cl_from) ${descending ? '<=' : '>='} (@timestamp, @pageid)`);
  if (end) where.push(`cl_timestamp ${descending ? '>=' : '<='} @end`);
  return (
    `SELECT ${MEMBER_COLUMNS} FROM categorylinks${d.indexedBy('cl_timestamp')} JOIN page ON page_id = cl_from` +
    ` WHERE ${where.join(' AND ')} ORDER BY cl_timestamp ${dir}, cl_from ${dir} LIMIT @limit`
  );
}

export class SqlCategoryLinkStore implements CategoryLinkStore {
  /** membersBySortkey's statements by (descending, from) as bits */
  private readonly bySortkey: string[] = [];
  /** membersByTimestamp's by (descending, from, end) */
  private readonly byTimestamp: string[] = [];

  constructor(private readonly port: SqlPort) {
    for (let bits = 0; bits < 8; bits++) {
      if (bits < 4) this.bySortkey.push(membersBySortkeySql((bits & 1) !== 0, (bits & 2) !== 0));
      this.byTimestamp.push(membersByTimestampSql((bits & 1) !== 0, (bits & 2) !== 0, (bits & 4) !== 0, port.dialect));
    }
  }

  async membersBySortkey(
    category: string,
    type: MemberType,
    start: { sortkey: string; pageid: number } | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]> {
    const values = start ? { cat: category, type, sortkey: start.sortkey, pageid: start.pageid, limit } : { cat: category, type, limit };
    const sql = this.bySortkey[(descending ? 1 : 0) | (start ? 2 : 0)]!;
    return (await this.port.named('CategoryLinkStore.membersBySortkey', sql, values)).map(toMember);
  }

  async membersByTimestamp(
    category: string,
    start: { timestamp: string; pageid: number } | undefined,
    end: string | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]> {
    const values: Record<string, unknown> = { cat: category, limit };
    if (start) {
      values.timestamp = start.timestamp;
      values.pageid = start.pageid;
    }
    if (end !== undefined) values.end = end;
    const sql = this.byTimestamp[(descending ? 1 : 0) | (start ? 2 : 0) | (end !== undefined ? 4 : 0)]!;
    return (await this.port.named('CategoryLinkStore.membersByTimestamp', sql, values)).map(toMember);
  }

  async categoriesOf(o: PageCategoriesOptions): Promise<PageCategoryRow[]> {
    if (o.pageids.length === 0 || (o.only && o.only.length === 0)) return [];
    const { sql, values } = categoriesOfStatement(o, this.port.dialect);
    return toPageCategories(await this.port.named('CategoryLinkStore.categoriesOf', sql, values));
  }
}
