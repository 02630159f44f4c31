/** Opens an imported wiki database for serving (read-only) and assembles the Store. */
import { statSync } from 'node:fs';
import { Db } from './db.js';
import type { Store } from '../store.js';
import { readSqliteSiteStore } from './site.js';
import { SqlitePageStore } from './pages.js';
import { SqliteCategoryStore } from './categories.js';
import { SqlCategoryLinkStore } from '../sql/category-links.js';
import { SqlitePort } from './port.js';
import { SqliteFileStore } from './files.js';
import { SqliteLinkStore } from './links.js';
import { SqliteRelationStore } from './relations.js';
import { SqliteMessageStore } from './messages.js';
import { SqliteReportStore } from './reports.js';
import { SqliteSemanticStore } from './semantic.js';
import { SqliteHistoryStore } from './history.js';
import { SqliteSearchStore } from './search.js';
import { SqliteParserCacheStore } from './parser-cache.js';

export function openSqliteStore(file: string, opts: { debug?: boolean } = {}): Store {
  const db = new Db(file, { readonly: true, debug: opts.debug });
  return storeOn(
    db,
    async () => statSync(file, { throwIfNoEntry: false })?.size ?? 0,
    () => db.close(),
  );
}

/** The Store over an open connection (the served file, or an import's own database while it runs). */
export function storeOn(db: Db, sizeBytes: () => Promise<number>, close: () => void): Store {
  // counted from the store's opening, before the site facts below are read: 0 while nothing was committed since.
  // Only a file in WAL mode is written in place while served (the others are held under an exclusive lock)
  const dataVersion = db.raw.prepare('PRAGMA data_version').pluck();
  const opened = dataVersion.get() as number;
  const inPlace = db.raw.pragma('journal_mode', { simple: true }) === 'wal';
  const metaValue = db.raw.prepare('SELECT value FROM meta WHERE key = ?').pluck();
  return {
    site: readSqliteSiteStore(db),
    pages: new SqlitePageStore(db),
    categories: new SqliteCategoryStore(db),
    categoryLinks: new SqlCategoryLinkStore(new SqlitePort(db)),
    files: new SqliteFileStore(db),
    links: new SqliteLinkStore(db),
    relations: new SqliteRelationStore(db),
    messages: new SqliteMessageStore(db),
    reports: new SqliteReportStore(db),
    semantic: new SqliteSemanticStore(db),
    history: new SqliteHistoryStore(db),
    search: new SqliteSearchStore(db),
    parserCache: new SqliteParserCacheStore(db),
    sizeBytes,
    changeCounter: inPlace ? () => (dataVersion.get() as number) - opened : () => null,
    liveMeta: async (key) => metaValue.get(key) as string | undefined,
    close,
  };
}
