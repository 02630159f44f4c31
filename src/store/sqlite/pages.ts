import type { Db, Statement } from './db.js';
import { StatementCache, prefixEnd } from './statement-cache.js';
import type { PageRangeOptions, PageRow, PageStore, RedirectTarget, TitleKey } from '../page-store.js';
import { PAGE_COLUMNS, pageFromArray } from '../row-columns.js';

export class SqlitePageStore implements PageStore {
  private readonly byIdsStmt: Statement<[string]>;
  private readonly byTitlesStmt: Statement<[string]>;
  private readonly redirectsStmt: Statement<[string]>;
  private readonly texts: Statement<[string]>;
  private readonly ranges: StatementCache;
  // one-element batches (a page set of one title, a redirect hop) take a plain seek: json_each costs more than the query
  private readonly byIdStmt: Statement<[number]>;
  private readonly byTitleStmt: Statement<[number, string]>;
  private readonly redirectStmt: Statement<[number]>;

  // Page rows are read as arrays (pageFromArray). A batch is bound as one JSON array and joined through
  // json_each: one prepared statement whatever the batch size, and an index seek per element.
  constructor(private readonly db: Db) {
    this.byIdsStmt = db.prepare('PageStore.byIds', `SELECT ${PAGE_COLUMNS} FROM page WHERE page_id IN (SELECT value FROM json_each(?))`, 'raw');
    this.byTitlesStmt = db.prepare(
      'PageStore.byTitles',
      `SELECT ${PAGE_COLUMNS} FROM json_each(?) j CROSS JOIN page ON page_namespace = j.value->>0 AND page_title = j.value->>1`,
      'raw',
    );
    this.redirectsStmt = db.prepare(
      'PageStore.redirectTargets',
      'SELECT rd_from AS pageid, rd_namespace AS ns, rd_title AS dbkey, rd_fragment AS fragment, rd_interwiki AS interwiki FROM redirect WHERE rd_from IN (SELECT value FROM json_each(?))',
    );
    this.texts = db.prepare('PageStore.latestTexts', 'SELECT page_id AS pageid, old_text AS text FROM page_text WHERE page_id IN (SELECT value FROM json_each(?))');
    this.ranges = new StatementCache(db, 'PageStore.range');
    this.byIdStmt = db.prepare('PageStore.byIds', `SELECT ${PAGE_COLUMNS} FROM page WHERE page_id = ?`, 'raw');
    this.byTitleStmt = db.prepare('PageStore.byTitles', `SELECT ${PAGE_COLUMNS} FROM page WHERE page_namespace = ? AND page_title = ?`, 'raw');
    this.redirectStmt = db.prepare(
      'PageStore.redirectTargets',
      'SELECT rd_from AS pageid, rd_namespace AS ns, rd_title AS dbkey, rd_fragment AS fragment, rd_interwiki AS interwiki FROM redirect WHERE rd_from = ?',
    );
  }

  async byIds(ids: readonly number[]): Promise<PageRow[]> {
    if (ids.length === 0) return [];
    if (ids.length === 1) return this.byIdStmt.all(ids[0]).map(pageFromArray);
    return this.byIdsStmt.all(JSON.stringify(ids)).map(pageFromArray);
  }

  async byTitles(titles: readonly TitleKey[]): Promise<PageRow[]> {
    if (titles.length === 0) return [];
    if (titles.length === 1) return this.byTitleStmt.all(titles[0].ns, titles[0].dbkey).map(pageFromArray);
    return this.byTitlesStmt.all(JSON.stringify(titles.map((t) => [t.ns, t.dbkey]))).map(pageFromArray);
  }

  async redirectTargets(pageids: readonly number[]): Promise<Map<number, RedirectTarget>> {
    const out = new Map<number, RedirectTarget>();
    if (pageids.length === 0) return out;
    const rows = pageids.length === 1 ? this.redirectStmt.all(pageids[0]) : this.redirectsStmt.all(JSON.stringify(pageids));
    for (const r of rows) out.set(r.pageid, { ns: r.ns, dbkey: r.dbkey, fragment: r.fragment, interwiki: r.interwiki });
    return out;
  }

  async latestTexts(pageids: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (pageids.length === 0) return out;
    for (const r of this.texts.all(JSON.stringify(pageids))) out.set(r.pageid, r.text);
    return out;
  }

  async range(opts: PageRangeOptions): Promise<PageRow[]> {
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
    const rows = this.ranges.rows(sql, {
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
    return rows.map(pageFromArray);
  }
}
