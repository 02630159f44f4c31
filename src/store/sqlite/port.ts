/** The SQLite connection as the shared stores' port: one statement cache per calling function. */
import type { Db } from './db.js';
import { StatementCache } from './statement-cache.js';
import { SQLITE_DIALECT } from '../sql/dialect.js';
import type { SqlPort } from '../sql/port.js';

export class SqlitePort implements SqlPort {
  readonly dialect = SQLITE_DIALECT;
  private readonly caches = new Map<string, StatementCache>();

  constructor(readonly db: Db) {}

  /** the statements prepared for `name` (what debuginfo shows as the calling function) */
  cache(name: string): StatementCache {
    let c = this.caches.get(name);
    if (c === undefined) this.caches.set(name, (c = new StatementCache(this.db, name)));
    return c;
  }

  named<R = any>(name: string, sql: string, values: Record<string, unknown>): R[] {
    return this.cache(name).all<R>(sql, values);
  }
}
