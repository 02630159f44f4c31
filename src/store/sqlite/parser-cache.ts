import type { Db, Statement } from './db.js';
import type { ParserCacheStore } from '../parser-cache-store.js';

export class SqliteParserCacheStore implements ParserCacheStore {
  private readonly stmt: Statement<[number, number, string, number], string>;

  constructor(db: Db) {
    // the primary key (pc_page, pc_rev, pc_options): one seek
    this.stmt = db.prepare(
      'ParserCacheStore.get',
      'SELECT pc_output FROM parser_cache WHERE pc_page = ? AND pc_rev = ? AND pc_options = ? AND pc_version = ?',
      true,
    );
  }

  async get(pageId: number, revId: number, optionsKey: string, version: number): Promise<string | null> {
    return this.stmt.get(pageId, revId, optionsKey, version) ?? null;
  }
}
