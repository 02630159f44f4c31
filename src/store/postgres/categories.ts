import type { PgDb } from './db.js';
import type { CategoryListOptions, CategoryRow, CategoryStore } from '../category-store.js';
import { titleBounds, whereBound } from '../sql/prefix-range.js';

// the category page's `hiddencat` property, as MediaWiki joins it: seeks of page (page_namespace,
// page_title) and of page_props' primary key (pp_page, pp_propname) per category row
const HIDDEN_JOIN = `LEFT JOIN page ON page_namespace = 14 AND page_title = cat_title
  LEFT JOIN page_props ON pp_page = page_id AND pp_propname = 'hiddencat'`;

const toRow = (r: any): CategoryRow => ({ title: r.title, pages: r.pages, subcats: r.subcats, files: r.files, hidden: r.hidden === 1 });

export class PostgresCategoryStore implements CategoryStore {
  constructor(private readonly db: PgDb) {}

  async byTitles(titles: readonly string[]): Promise<CategoryRow[]> {
    if (titles.length === 0) return [];
    // a join on the unnested batch (not = ANY) keeps SQLite's answer to a title given twice: two rows
    const rows = await this.db.all(
      'CategoryStore.byTitles',
      `SELECT cat_title AS title, cat_pages AS pages, cat_subcats AS subcats, cat_files AS files, (pp_propname IS NOT NULL)::int AS hidden
        FROM unnest($1::text[]) AS t(title) JOIN category ON cat_title = t.title
        ${HIDDEN_JOIN}
        ORDER BY cat_title`,
      [titles],
    );
    return rows.map(toRow);
  }

  /** A range scan of the unique cat_title index; member-count bounds are checked row by row along it. */
  async list(o: CategoryListOptions): Promise<CategoryRow[]> {
    const where: string[] = [];
    const v: Record<string, unknown> = { limit: o.limit };
    const [ge, le] = o.descending ? ['<=', '>='] : ['>=', '<='];
    if (o.continueFrom !== undefined) {
      where.push(`cat_title ${ge} @cont`);
      v.cont = o.continueFrom;
    }
    titleBounds('cat_title', o, where, v, ge, le);
    whereBound(where, v, 'cat_pages >= @min', 'min', o.min);
    whereBound(where, v, 'cat_pages <= @max', 'max', o.max);
    const from = o.hidden ? `, (pp_propname IS NOT NULL)::int AS hidden FROM category ${HIDDEN_JOIN}` : ', 0 AS hidden FROM category';
    const sql =
      `SELECT cat_title AS title, cat_pages AS pages, cat_subcats AS subcats, cat_files AS files${from}` +
      `${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY cat_title${o.descending ? ' DESC' : ''} LIMIT @limit`;
    return (await this.db.named('CategoryStore.list', sql, v)).map(toRow);
  }
}
