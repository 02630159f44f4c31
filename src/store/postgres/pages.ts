import type { PgDb } from './db.js';
import { prefixEnd } from '../prefix-range.js';
import type { PageRangeOptions, PageRow, PageStore, RedirectTarget, TitleKey } from '../page-store.js';
import { PAGE_COLUMNS, toPage } from '../row-columns.js';

// A batch is bound as arrays and joined through unnest / = ANY: one prepared statement whatever the
// batch size, one round trip, an index seek per element.
export class PostgresPageStore implements PageStore {
  constructor(private readonly db: PgDb) {}

  async byIds(ids: readonly number[]): Promise<PageRow[]> {
    if (ids.length === 0) return [];
    return (await this.db.all('PageStore.byIds', `SELECT ${PAGE_COLUMNS} FROM page WHERE page_id = ANY($1::bigint[])`, [ids])).map(toPage);
  }

  async byTitles(titles: readonly TitleKey[]): Promise<PageRow[]> {
    if (titles.length === 0) return [];
    const rows = await this.db.all(
      'PageStore.byTitles',
      `SELECT ${PAGE_COLUMNS} FROM unnest($1::bigint[], $2::text[]) AS t(ns, dbkey) JOIN page ON page_namespace = t.ns AND page_title = t.dbkey`,
      [titles.map((t) => t.ns), titles.map((t) => t.dbkey)],
    );
    return rows.map(toPage);
  }

  async redirectTargets(pageids: readonly number[]): Promise<Map<number, RedirectTarget>> {
    const out = new Map<number, RedirectTarget>();
    if (pageids.length === 0) return out;
    const rows = await this.db.all(
      'PageStore.redirectTargets',
      'SELECT rd_from AS pageid, rd_namespace AS ns, rd_title AS dbkey, rd_fragment AS fragment, rd_interwiki AS interwiki FROM redirect WHERE rd_from = ANY($1::bigint[])',
      [pageids],
    );
    for (const r of rows) out.set(r.pageid, { ns: r.ns, dbkey: r.dbkey, fragment: r.fragment, interwiki: r.interwiki });
    return out;
  }

  async latestTexts(pageids: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (pageids.length === 0) return out;
    const rows = await this.db.all('PageStore.latestTexts', 'SELECT page_id AS pageid, old_text AS text FROM page_text WHERE page_id = ANY($1::bigint[])', [pageids]);
    for (const r of rows) out.set(r.pageid, r.text);
    return out;
  }

  async range(opts: PageRangeOptions): Promise<PageRow[]> {
    const where = ['page_namespace = @ns'];
    const cmp = opts.descending ? ['<=', '>='] : ['>=', '<='];
    if (opts.from !== undefined) where.push(`page_title ${cmp[0]} @from`);
    if (opts.to !== undefined) where.push(`page_title ${cmp[1]} @to`);
    if (opts.prefix !== undefined && opts.prefix !== '') where.push('page_title >= @prefix AND page_title < @prefixEnd');
    if (opts.redirects !== 'all') where.push('page_is_redirect = @isRedirect');
    if (opts.minSize !== undefined) where.push('page_len >= @minSize');
    if (opts.maxSize !== undefined) where.push('page_len <= @maxSize');
    if (opts.langLinks === 'withlanglinks') where.push('EXISTS (SELECT 1 FROM langlinks WHERE ll_from = page_id)');
    if (opts.langLinks === 'withoutlanglinks') where.push('NOT EXISTS (SELECT 1 FROM langlinks WHERE ll_from = page_id)');
    const sql = `SELECT ${PAGE_COLUMNS} FROM page WHERE ${where.join(' AND ')} ORDER BY page_title ${opts.descending ? 'DESC' : 'ASC'} LIMIT @limit`;
    const rows = await this.db.named('PageStore.range', sql, {
      ns: opts.ns,
      from: opts.from,
      to: opts.to,
      prefix: opts.prefix,
      prefixEnd: opts.prefix === undefined ? undefined : prefixEnd(opts.prefix),
      isRedirect: opts.redirects === 'redirects' ? 1 : 0,
      minSize: opts.minSize,
      maxSize: opts.maxSize,
      limit: opts.limit,
    });
    return rows.map(toPage);
  }
}
