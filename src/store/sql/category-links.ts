/** The category link statements that read the same in SQLite and PostgreSQL, shared by the two stores. */
import type { PageCategoriesOptions, PageCategoryRow } from '../category-link-store.js';
import type { SqlDialect, SqlStatement } from './dialect.js';

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
