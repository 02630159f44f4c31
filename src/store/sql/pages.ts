/**
 * The page statements that read the same in SQLite and PostgreSQL, shared by the two page stores; how a
 * batch of ids or titles is bound (JSON and json_each, arrays and unnest) stays in each store.
 */
import type { PageRangeOptions, RedirectTarget } from '../page-store.js';
import { prefixEnd } from './prefix-range.js';
import { PAGE_COLUMNS } from './row-columns.js';

/** the redirect table's columns a RedirectTarget is read from, with the page they belong to */
export const REDIRECT_TARGET_COLUMNS =
  'rd_from AS pageid, rd_namespace AS ns, rd_title AS dbkey, rd_fragment AS fragment, rd_interwiki AS interwiki';

/** rows of REDIRECT_TARGET_COLUMNS by page id */
export function redirectTargetsByPage(rows: Iterable<any>): Map<number, RedirectTarget> {
  const out = new Map<number, RedirectTarget>();
  for (const r of rows) out.set(r.pageid, { ns: r.ns, dbkey: r.dbkey, fragment: r.fragment, interwiki: r.interwiki });
  return out;
}

/** rows of `page_id AS pageid, old_text AS text` by page id */
export function textsByPage(rows: Iterable<any>): Map<number, string> {
  const out = new Map<number, string>();
  for (const r of rows) out.set(r.pageid, r.text);
  return out;
}

/** list=allpages: a range of the (namespace, title) index, PAGE_COLUMNS in their order */
export function pageRangeStatement(opts: PageRangeOptions): { sql: string; values: Record<string, unknown> } {
  const where = ['page_namespace = @ns'];
  const cmp = opts.descending ? ['<=', '>='] : ['>=', '<='];
  if (opts.from !== undefined) where.push(`page_title ${cmp[0]} @from`);
  if (opts.to !== undefined) where.push(`page_title ${cmp[1]} @to`);
  // a prefix is a range on the binary title
  if (opts.prefix !== undefined && opts.prefix !== '') where.push('page_title >= @prefix AND page_title < @prefixEnd');
  if (opts.redirects !== 'all') where.push('page_is_redirect = @isRedirect');
  // size and langlink filters are checked row by row along the title index, as MediaWiki does
  if (opts.minSize !== undefined) where.push('page_len >= @minSize');
  if (opts.maxSize !== undefined) where.push('page_len <= @maxSize');
  if (opts.langLinks === 'withlanglinks') where.push('EXISTS (SELECT 1 FROM langlinks WHERE ll_from = page_id)');
  if (opts.langLinks === 'withoutlanglinks') where.push('NOT EXISTS (SELECT 1 FROM langlinks WHERE ll_from = page_id)');
  const sql = `SELECT ${PAGE_COLUMNS} FROM page WHERE ${where.join(' AND ')} ORDER BY page_title ${opts.descending ? 'DESC' : 'ASC'} LIMIT @limit`;
  const values = {
    ns: opts.ns,
    from: opts.from,
    to: opts.to,
    prefix: opts.prefix,
    prefixEnd: opts.prefix === undefined ? undefined : prefixEnd(opts.prefix),
    isRedirect: opts.redirects === 'redirects' ? 1 : 0,
    minSize: opts.minSize,
    maxSize: opts.maxSize,
    limit: opts.limit,
  };
  return { sql, values };
}
