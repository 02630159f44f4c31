/**
 * Opens the store a `--db` value names, for serving (read-only): the one place that maps a location to a
 * backend. `sqlite:PATH`, `file:PATH` or a plain path is an SQLite file; `postgres://…` (or
 * `postgresql://…`) a PostgreSQL database an import was published into.
 */
import fs from 'node:fs';
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/index.js';
import { openSqliteFollowStatusWriter } from './sqlite/follow-status-writer.js';
import type { FollowStatusWriter } from './follow-status.js';
import type { ImportReader, ImportWriter } from './import-writer.js';
import { openSqliteImportReader } from './sqlite/import/reader.js';
import { openSqliteImportWriter, sqliteImportTargetProblem } from './sqlite/import/writer.js';
import { databaseProblem } from './sqlite/db.js';
import { openPostgresStore } from './postgres/index.js';
import { openPostgresImportWriter } from './postgres/import-writer.js';
import { watchServedImport } from './postgres/watch.js';
import { describePostgresError, postgresImportProblem, postgresServeProblem } from './postgres/probe.js';
import { redact } from './postgres/import-writer.js';
import type { UpdateWriter } from './update-writer.js';
import { openSqliteUpdateWriter } from './sqlite/update/writer.js';
import { openPostgresUpdateWriter } from './postgres/update-writer.js';
import { openPostgresFollowStatusWriter } from './postgres/follow-status-writer.js';

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

/** A location that names another database system (mysql://…): said as such, not as a missing file. */
export function unsupportedLocation(location: string): string | null {
  const m = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location);
  if (m === null || /^(postgres|postgresql|sqlite|file)$/i.test(m[1])) return null;
  return `${m[1]}:// databases are not supported: give an SQLite file (a path, or sqlite:PATH) or a PostgreSQL database (postgres://USER@HOST/DB)`;
}

/** The location as messages show it: a PostgreSQL URL without its password. */
export function printableLocation(location: string): string {
  return parseStoreLocation(location).backend === 'postgres' ? redact(location) : location;
}

/**
 * Why an import cannot write to the location, found by asking its server (null: it can, or the location
 * has no server: an SQLite file's checks are importTargetProblem's). Run before the dump is read.
 */
export async function importServerProblem(location: string): Promise<string | null> {
  const where = parseStoreLocation(location);
  return where.backend === 'postgres' ? postgresImportProblem(where.url) : null;
}

/** Why a server cannot serve the location, found by asking its server (null: it can, or it has none). */
export async function serveServerProblem(location: string): Promise<string | null> {
  const where = parseStoreLocation(location);
  return where.backend === 'postgres' ? postgresServeProblem(where.url) : null;
}

/** An error of opening or reading the location, in words (a PostgreSQL connection error says what to check). */
export function describeStoreError(location: string, e: unknown): string {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') return describePostgresError(where.url, e);
  return e instanceof Error ? e.message : String(e);
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
  const unsupported = unsupportedLocation(location);
  if (unsupported !== null) return unsupported;
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
export function openImportWriter(location: string, opts: { log: (line: string) => void; staging?: string }): ImportWriter {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') {
    const problem = opts.staging === undefined ? null : sqliteImportTargetProblem(opts.staging);
    if (problem !== null) throw new Error(`--staging ${opts.staging}: ${problem}`);
    return openPostgresImportWriter(where.url, { log: opts.log, keepStaging: opts.staging });
  }
  if (opts.staging !== undefined) throw new Error('--staging goes with a PostgreSQL --db');
  return openSqliteImportWriter(where.path, opts);
}

/**
 * The incremental writer of a database an import made (`import --update`, `follow`): it changes the
 * served tables in place, one transaction per batch. PostgreSQL: through its local replica (`staging`,
 * kept by `import --staging FILE`), each batch copied in one PostgreSQL transaction.
 */
export async function openUpdateWriter(location: string, opts: { staging?: string } = {}): Promise<UpdateWriter> {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') {
    if (opts.staging === undefined)
      throw new Error(
        `--db ${printableLocation(location)}: updates of a PostgreSQL database are written to its local replica first: give it with --staging FILE (made by wikiquery import DUMP --db … --staging FILE)`,
      );
    const problem = databaseProblem(opts.staging);
    if (problem !== null) throw new Error(`--staging ${opts.staging}: ${problem}`);
    return openPostgresUpdateWriter(where.url, opts.staging);
  }
  const problem = databaseProblem(where.path);
  if (problem !== null) throw new Error(`--db ${location}: ${problem}`);
  return openSqliteUpdateWriter(where.path);
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

/** The follower's writer of its status (src/store/follow-status.ts) into the database at `location`. */
export function openFollowStatusWriter(location: string): FollowStatusWriter {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') return openPostgresFollowStatusWriter(where.url);
  return openSqliteFollowStatusWriter(where.path);
}
