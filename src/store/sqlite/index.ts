/** Opens an imported wiki database for serving (read-only) and assembles the Store. */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { Db } from './db.js';
import type { Store } from '../store.js';
import { SqliteSiteStore } from './site.js';
import { SqlitePageStore } from './pages.js';
import { SqliteCategoryStore } from './categories.js';
import { SqliteCategoryLinkStore } from './category-links.js';
import { SqliteFileStore } from './files.js';
import { SqliteLinkStore } from './links.js';
import { SqliteRelationStore } from './relations.js';
import { SqliteMessageStore } from './messages.js';
import { SqliteReportStore } from './reports.js';
import { SqliteSemanticStore } from './semantic.js';
import { SqliteHistoryStore } from './history.js';
import { SqliteSearchStore } from './search.js';

export function openSqliteStore(file: string, opts: { debug?: boolean } = {}): Store {
  const db = new Db(file, { readonly: true, debug: opts.debug });
  return assemble(db, file, () => db.close());
}

/**
 * The read side over an import's connection, before its database is published (the import's late
 * passes query what it has written); closing it leaves the connection to the import.
 */
export function sqliteStoreOverImport(conn: Database.Database, file: string): Store {
  return assemble(new Db(conn), file, () => {});
}

function assemble(db: Db, file: string, close: () => void): Store {
  return {
    site: new SqliteSiteStore(db),
    pages: new SqlitePageStore(db),
    categories: new SqliteCategoryStore(db),
    categoryLinks: new SqliteCategoryLinkStore(db),
    files: new SqliteFileStore(db),
    links: new SqliteLinkStore(db),
    relations: new SqliteRelationStore(db),
    messages: new SqliteMessageStore(db),
    reports: new SqliteReportStore(db),
    semantic: new SqliteSemanticStore(db),
    history: new SqliteHistoryStore(db),
    search: new SqliteSearchStore(db),
    sizeBytes: async () => statSync(file, { throwIfNoEntry: false })?.size ?? 0,
    close,
  };
}
