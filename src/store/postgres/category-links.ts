import type { PgDb } from './db.js';
import type { CategoryLinkStore, CategoryMemberRow, MemberType, PageCategoriesOptions, PageCategoryRow } from '../category-link-store.js';
import { POSTGRES_DIALECT } from '../sql/dialect.js';
import { categoriesOfStatement, toPageCategories } from '../sql/category-links.js';
import { MEMBER_COLUMNS, toMember } from '../sql/row-columns.js';

// Every statement is a range scan of one index: cl_sortkey (cl_to, cl_type, cl_sortkey, cl_from),
// cl_timestamp (cl_to, cl_timestamp, cl_from) or the primary key (cl_from, cl_to); the row comparisons
// `(a, b) >= (x, y)` are index conditions in PostgreSQL, so a continuation starts with a seek.
export class PostgresCategoryLinkStore implements CategoryLinkStore {
  constructor(private readonly db: PgDb) {}

  async membersBySortkey(
    category: string,
    type: MemberType,
    start: { sortkey: string; pageid: number } | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]> {
    const dir = descending ? 'DESC' : 'ASC';
    const sql = `SELECT ${MEMBER_COLUMNS} FROM categorylinks JOIN page ON page_id = cl_from
      WHERE cl_to = @cat AND cl_type = @type${start ? ` AND (cl_sortkey, cl_from) ${descending ? '<=' : '>='} (@sortkey, @pageid)` : ''}
      ORDER BY cl_sortkey ${dir}, cl_from ${dir} LIMIT @limit`;
    const rows = await this.db.named('CategoryLinkStore.membersBySortkey', sql, {
      cat: category,
      type,
      sortkey: start?.sortkey,
      pageid: start?.pageid,
      limit,
    });
    return rows.map(toMember);
  }

  async membersByTimestamp(
    category: string,
    start: { timestamp: string; pageid: number } | undefined,
    end: string | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]> {
    const dir = descending ? 'DESC' : 'ASC';
    const where = ['cl_to = @cat'];
    if (start) where.push(`(cl_timestamp, cl_from) ${descending ? '<=' : '>='} (@timestamp, @pageid)`);
    if (end !== undefined) where.push(`cl_timestamp ${descending ? '>=' : '<='} @end`);
    const sql = `SELECT ${MEMBER_COLUMNS} FROM categorylinks JOIN page ON page_id = cl_from
      WHERE ${where.join(' AND ')} ORDER BY cl_timestamp ${dir}, cl_from ${dir} LIMIT @limit`;
    const rows = await this.db.named('CategoryLinkStore.membersByTimestamp', sql, {
      cat: category,
      timestamp: start?.timestamp,
      pageid: start?.pageid,
      end,
      limit,
    });
    return rows.map(toMember);
  }

  async categoriesOf(o: PageCategoriesOptions): Promise<PageCategoryRow[]> {
    if (o.pageids.length === 0 || (o.only && o.only.length === 0)) return [];
    const { sql, values } = categoriesOfStatement(o, POSTGRES_DIALECT);
    return toPageCategories(await this.db.named('CategoryLinkStore.categoriesOf', sql, values));
  }
}
