import type { PgDb } from './db.js';
import { REDIRECT_TARGET_COLUMNS, pageRangeStatement, redirectTargetsByPage, textsByPage } from '../sql/pages.js';
import type { PageRangeOptions, PageRow, PageStore, RedirectTarget, TitleKey } from '../page-store.js';
import { PAGE_COLUMNS, toPage } from '../sql/row-columns.js';

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
    if (pageids.length === 0) return new Map();
    return redirectTargetsByPage(
      await this.db.all('PageStore.redirectTargets', `SELECT ${REDIRECT_TARGET_COLUMNS} FROM redirect WHERE rd_from = ANY($1::bigint[])`, [
        pageids,
      ]),
    );
  }

  async latestTexts(pageids: readonly number[]): Promise<Map<number, string>> {
    if (pageids.length === 0) return new Map();
    return textsByPage(
      await this.db.all(
        'PageStore.latestTexts',
        'SELECT page_id AS pageid, old_text AS text FROM page_text WHERE page_id = ANY($1::bigint[])',
        [pageids],
      ),
    );
  }

  async range(opts: PageRangeOptions): Promise<PageRow[]> {
    const { sql, values } = pageRangeStatement(opts);
    return (await this.db.named('PageStore.range', sql, values)).map(toPage);
  }
}
