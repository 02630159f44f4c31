/**
 * Tables of the PostgreSQL store that have no SQLite twin to copy: what the SQLite store keeps in its
 * own structures (FTS5's full-text index) is derived here from the staging file, after the copied
 * tables and their indexes exist.
 */
import type Database from 'better-sqlite3';
import type { Sql } from './db.js';
import { buildSearchTables } from './search-index.js';

export interface ExtraTableContext {
  /** the finished staging file (read-only) */
  staging: Database.Database;
  sql: Sql;
  /** the new schema, quoted */
  schema: string;
  log: (line: string) => void;
}

export interface ExtraTables {
  name: string;
  build(ctx: ExtraTableContext): Promise<void>;
}

export const POSTGRES_TABLES: ExtraTables[] = [{ name: 'search', build: buildSearchTables }];
