import type { Db, Statement } from './db.js';
import { StatementCache } from './statement-cache.js';
import type { CategoryLinkStore, CategoryMemberRow, MemberType, PageCategoriesOptions, PageCategoryRow } from '../category-link-store.js';
import { SQLITE_DIALECT } from '../sql/dialect.js';
import { categoriesOfStatement, toPageCategories } from '../sql/category-links.js';
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
    this.bySortkey = {
      asc: { first: sk('ASC', false), from: sk('ASC', true) },
      desc: { first: sk('DESC', false), from: sk('DESC', true) },
    };
    const ts = (dir: 'ASC' | 'DESC', from: boolean) =>
      db.prepare(
        'CategoryLinkStore.membersByTimestamp',
        `SELECT ${MEMBER_COLUMNS} FROM categorylinks INDEXED BY cl_timestamp JOIN page ON page_id = cl_from
         WHERE cl_to = @cat ${from ? `AND (cl_timestamp, cl_from) ${dir === 'ASC' ? '>=' : '<='} (@timestamp, @pageid)` : ''}
         AND (@end IS NULL OR cl_timestamp ${dir === 'ASC' ? '<=' : '>='} @end)
         ORDER BY cl_timestamp ${dir}, cl_from ${dir} LIMIT @limit`,
      );
    this.byTimestamp = {
      asc: { first: ts('ASC', false), from: ts('ASC', true) },
      desc: { first: ts('DESC', false), from: ts('DESC', true) },
    };
    this.ofPages = new StatementCache(db, 'CategoryLinkStore.categoriesOf');
  }

  async membersBySortkey(
    category: string,
    type: MemberType,
    start: { sortkey: string; pageid: number } | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]> {
    const set = this.bySortkey[descending ? 'desc' : 'asc'];
    const rows = start
      ? set.from.all({ cat: category, type, sortkey: start.sortkey, pageid: start.pageid, limit } as any)
      : set.first.all({ cat: category, type, limit } as any);
    return rows.map(toMember);
  }

  async membersByTimestamp(
    category: string,
    start: { timestamp: string; pageid: number } | undefined,
    end: string | undefined,
    descending: boolean,
    limit: number,
  ): Promise<CategoryMemberRow[]> {
    const set = this.byTimestamp[descending ? 'desc' : 'asc'];
    const rows = start
      ? set.from.all({ cat: category, timestamp: start.timestamp, pageid: start.pageid, end: end ?? null, limit } as any)
      : set.first.all({ cat: category, end: end ?? null, limit } as any);
    return rows.map(toMember);
  }

  async categoriesOf(o: PageCategoriesOptions): Promise<PageCategoryRow[]> {
    if (o.pageids.length === 0 || (o.only && o.only.length === 0)) return [];
    const { sql, values } = categoriesOfStatement(o, SQLITE_DIALECT);
    return toPageCategories(this.ofPages.all<any>(sql, values));
  }
}
