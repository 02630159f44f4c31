import type { PgDb } from './db.js';
import type { ParserCacheStore } from '../parser-cache-store.js';

export class PostgresParserCacheStore implements ParserCacheStore {
  constructor(private readonly db: PgDb) {}

  async get(pageId: number, revId: number, optionsKey: string, version: number): Promise<string | null> {
    // the primary key (pc_page, pc_rev, pc_options) copied from the staging file: one seek
    const v = await this.db.value(
      'ParserCacheStore.get',
      'SELECT pc_output FROM parser_cache WHERE pc_page = $1 AND pc_rev = $2 AND pc_options = $3 AND pc_version = $4',
      [pageId, revId, optionsKey, version],
    );
    return typeof v === 'string' ? v : null;
  }
}
