import type { Db } from './db.js';
import type { CategoryListOptions, CategoryRow, CategoryStore } from '../category-store.js';
import { StatementCache, jsonColumnsSql } from './statement-cache.js';
import { boundBit, titleBoundsBits, titleBoundsWhere } from '../sql/prefix-range.js';

const LIST_COLUMNS = ['cat_title', 'cat_pages', 'cat_subcats', 'cat_files'];
const LIST_HIDDEN = [...LIST_COLUMNS, 'pp_propname IS NOT NULL'];

export class SqliteCategoryStore implements CategoryStore {
  private readonly lists: StatementCache;
  private readonly byTitlesStmt;
  /** list()'s statements (jsonColumnsSql), by shape */
  private readonly listTexts: string[] = [];

  constructor(readonly db: Db) {
    this.lists = new StatementCache(db, 'CategoryStore.list');
    // one seek of the cat_title index per title, the batch bound as one JSON array
    this.byTitlesStmt = db.prepare<[string], Omit<CategoryRow, 'hidden'> & { hidden: number }>(
      'CategoryStore.byTitles',
      `SELECT cat_title AS title, cat_pages AS pages, cat_subcats AS subcats, cat_files AS files, pp_propname IS NOT NULL AS hidden
        FROM json_each(?) j CROSS JOIN category ON cat_title = j.value
        LEFT JOIN page ON page_namespace = 14 AND page_title = cat_title
        LEFT JOIN page_props ON pp_page = page_id AND pp_propname = 'hiddencat'
        ORDER BY cat_title`,
    );
  }

  async byTitles(titles: readonly string[]): Promise<CategoryRow[]> {
    if (titles.length === 0) return [];
    const rows = this.byTitlesStmt.all(JSON.stringify(titles)) as Array<
      CategoryRow | (Omit<CategoryRow, 'hidden'> & { hidden: number | boolean })
    >;
    for (const r of rows) r.hidden = r.hidden === 1;
    return rows as CategoryRow[];
  }

  /**
   * A range scan of the unique cat_title index; the member-count bounds are checked row by row
   * (`+cat_pages` keeps the planner off the cat_pages index, which would need a sort). Hidden categories:
   * the category page's `hiddencat` page property, two seeks per row (page_name, page_props primary key),
   * as MediaWiki joins them.
   */
  async list(o: CategoryListOptions): Promise<CategoryRow[]> {
    const v: Record<string, unknown> = { limit: o.limit };
    // which clauses the statement has: its text is made once per combination
    let shape = (o.descending ? 1 : 0) | (o.hidden ? 2 : 0);
    shape |= boundBit(v, 'cont', o.continueFrom, 4) | titleBoundsBits(o, v, 8);
    shape |= boundBit(v, 'min', o.min, 64) | boundBit(v, 'max', o.max, 128);
    const sql = (this.listTexts[shape] ??= jsonColumnsSql(o.hidden ? LIST_HIDDEN : LIST_COLUMNS, listRest(shape)));
    const [titles, pages, subcats, files, hidden] = this.lists.jsonRowsOf(sql, v) as [
      string[],
      number[],
      number[],
      number[],
      number[] | undefined,
    ];
    const out: CategoryRow[] = [];
    for (let i = 0; i < titles.length; i++) {
      out.push({
        title: titles[i]!,
        pages: pages[i]!,
        subcats: subcats[i]!,
        files: files[i]!,
        hidden: hidden !== undefined && hidden[i] === 1,
      });
    }
    return out;
  }
}

/** list()'s statement from FROM on for one shape (the bits of list()) */
function listRest(shape: number): string {
  const descending = (shape & 1) !== 0;
  const [ge, le] = descending ? ['<=', '>='] : ['>=', '<='];
  const where: string[] = [];
  if (shape & 4) where.push(`cat_title ${ge} @cont`);
  titleBoundsWhere('cat_title', shape, 8, where, ge, le);
  if (shape & 64) where.push('+cat_pages >= @min');
  if (shape & 128) where.push('+cat_pages <= @max');
  const from =
    shape & 2
      ? `FROM category
        LEFT JOIN page ON page_namespace = 14 AND page_title = cat_title
        LEFT JOIN page_props ON pp_page = page_id AND pp_propname = 'hiddencat'`
      : 'FROM category';
  return `${from}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY cat_title${descending ? ' DESC' : ''} LIMIT @limit`;
}
