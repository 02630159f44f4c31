/**
 * Opens the store a `--db` value names, for serving (read-only): the one place that maps a location to a
 * backend. `sqlite:PATH`, `file:PATH` or a plain path is an SQLite file; `postgres://…` (or
 * `postgresql://…`) a PostgreSQL database an import was published into.
 */
import fs from 'node:fs';
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/index.js';
import type { ImportReader, ImportWriter } from './import-writer.js';
import { openSqliteImportReader } from './sqlite/import/reader.js';
import { openSqliteImportWriter, sqliteImportTargetProblem } from './sqlite/import/writer.js';
import { openPostgresStore } from './postgres/index.js';
import { openPostgresImportWriter } from './postgres/import-writer.js';
import { watchServedImport } from './postgres/watch.js';

// an import's revision texts can be encoded on the thread that reads the dump (every backend's import is
// built in an SQLite file first)
export { encodeRevisionText } from './revision-text.js';

export interface OpenOptions {
  /** record every statement in the debug query log */
  debug?: boolean;
  /** PostgreSQL: a streaming replica to send reads to */
  replica?: string;
}

/** Which backend a `--db` value names, and its location within that backend. */
export function parseStoreLocation(location: string): { backend: 'sqlite'; path: string } | { backend: 'postgres'; url: string } {
  if (/^postgres(ql)?:\/\//i.test(location)) return { backend: 'postgres', url: location };
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(location);
  return { backend: 'sqlite', path: m ? m[1] : location };
}

export async function openStore(location: string, opts: OpenOptions = {}): Promise<Store> {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') return openPostgresStore(where.url, { debug: opts.debug, replica: opts.replica });
  if (opts.replica) throw new Error('--db-replica goes with a PostgreSQL --db');
  return openSqliteStore(where.path, opts);
}

/**
 * Why an import may not write to a location (null: it may). Checked before the import starts: an
 * SQLite target must be a file path in a writable directory, and an existing file is replaced only when
 * it is a wikiquery database. A PostgreSQL location is checked when the import connects.
 */
export function importTargetProblem(location: string): string | null {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') {
    try {
      new URL(where.url);
      return null;
    } catch {
      return 'not a valid postgres:// URL';
    }
  }
  return sqliteImportTargetProblem(where.path);
}

/**
 * The writer of an import into a location. SQLite: the database is built in a temporary file next to
 * the target and renamed onto it by `finish()` (temporary files of killed imports are swept here).
 * PostgreSQL: built in a local staging file, then copied into a fresh schema and switched to.
 */
export function openImportWriter(location: string, opts: { log: (line: string) => void }): ImportWriter {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') return openPostgresImportWriter(where.url, opts);
  return openSqliteImportWriter(where.path, opts);
}

/**
 * A read-only view of an import under construction, from another thread: `location` is what the
 * writer's shareForReading() returned (an SQLite file for every backend: PostgreSQL imports are staged
 * in one).
 */
export function openImportReader(location: string): ImportReader {
  return openSqliteImportReader(location);
}

/**
 * Calls `onReplaced` when another import is published to the location: an SQLite file is replaced by
 * rename (its inode, mtime or size change; polling stat() works on every file system, network ones
 * included), a PostgreSQL database's served pointer names another schema.
 */
export function watchStoreLocation(location: string, intervalMs: number, onReplaced: () => Promise<unknown>): { close(): void } {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') return watchServedImport(where.url, intervalMs, onReplaced);
  const listener = (curr: fs.Stats, prev: fs.Stats) => {
    // ino 0: the path is missing right now (a manual mv in two steps); wait for the file to come back
    if (curr.ino === 0) return;
    if (curr.ino !== prev.ino || curr.mtimeMs !== prev.mtimeMs || curr.size !== prev.size) void onReplaced().catch(() => {});
  };
  fs.watchFile(where.path, { interval: intervalMs, persistent: false }, listener);
  return { close: () => fs.unwatchFile(where.path, listener) };
}
