import type { Db, Statement } from './db.js';
import { StatementCache } from './statement-cache.js';
import type { PageRangeOptions, PageRow, PageStore, RedirectTarget, TitleKey } from '../page-store.js';
import { REDIRECT_TARGET_COLUMNS, pageRangeStatement, redirectTargetsByPage, textsByPage } from '../sql/pages.js';
import { PAGE_COLUMNS, pageFromArray } from '../sql/row-columns.js';

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
  constructor(readonly db: Db) {
    this.byIdsStmt = db.prepare(
      'PageStore.byIds',
      `SELECT ${PAGE_COLUMNS} FROM page WHERE page_id IN (SELECT value FROM json_each(?))`,
      'raw',
    );
    this.byTitlesStmt = db.prepare(
      'PageStore.byTitles',
      `SELECT ${PAGE_COLUMNS} FROM json_each(?) j CROSS JOIN page ON page_namespace = j.value->>0 AND page_title = j.value->>1`,
      'raw',
    );
    this.redirectsStmt = db.prepare(
      'PageStore.redirectTargets',
      `SELECT ${REDIRECT_TARGET_COLUMNS} FROM redirect WHERE rd_from IN (SELECT value FROM json_each(?))`,
    );
    this.texts = db.prepare(
      'PageStore.latestTexts',
      'SELECT page_id AS pageid, old_text AS text FROM page_text WHERE page_id IN (SELECT value FROM json_each(?))',
    );
    this.ranges = new StatementCache(db, 'PageStore.range');
    this.byIdStmt = db.prepare('PageStore.byIds', `SELECT ${PAGE_COLUMNS} FROM page WHERE page_id = ?`, 'raw');
    this.byTitleStmt = db.prepare(
      'PageStore.byTitles',
      `SELECT ${PAGE_COLUMNS} FROM page WHERE page_namespace = ? AND page_title = ?`,
      'raw',
    );
    this.redirectStmt = db.prepare('PageStore.redirectTargets', `SELECT ${REDIRECT_TARGET_COLUMNS} FROM redirect WHERE rd_from = ?`);
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
    if (pageids.length === 0) return new Map();
    return redirectTargetsByPage(
      pageids.length === 1 ? this.redirectStmt.all(pageids[0]) : this.redirectsStmt.all(JSON.stringify(pageids)),
    );
  }

  async latestTexts(pageids: readonly number[]): Promise<Map<number, string>> {
    if (pageids.length === 0) return new Map();
    return textsByPage(this.texts.all(JSON.stringify(pageids)));
  }

  async range(opts: PageRangeOptions): Promise<PageRow[]> {
    const { sql, values } = pageRangeStatement(opts);
    return this.ranges.rows(sql, values).map(pageFromArray);
  }
}
