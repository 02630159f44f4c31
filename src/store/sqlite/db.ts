/**
 * The SQLite connection used by the read side, with prepared statements compiled once and, when the
 * server runs with --debug, every query's SQL and duration recorded for the response's debuginfo.
 */
import Database from 'better-sqlite3';
import { existsSync, statSync } from 'node:fs';
import { SCHEMA_VERSION } from './schema.js';
import { queryLog } from '../query-log.js';

export interface Statement<P extends unknown[] = unknown[], R = any> {
  get(...params: P): R | undefined;
  all(...params: P): R[];
  iterate(...params: P): IterableIterator<R>;
}

/** Does this file hold a wiki imported with the current schema (a database to serve as it is)? */
export function isCurrentDatabase(file: string): boolean {
  if (!existsSync(file)) return false;
  const conn = new Database(file, { readonly: true });
  try {
    return Number(conn.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get()) === SCHEMA_VERSION;
  } catch {
    return false;
  } finally {
    conn.close();
  }
}

/**
 * Why this file cannot be served (or replaced by an import), in a few words, or null when it holds a
 * wiki imported with the current schema. Missing files, directories, other SQLite databases and
 * other files each get their own answer instead of SQLite's `no such table` / `disk I/O error`.
 */
export function databaseProblem(file: string): string | null {
  const st = statSync(file, { throwIfNoEntry: false });
  if (!st) return 'no such file';
  if (st.isDirectory()) return 'is a directory, not a database file';
  if (!st.isFile()) return 'not a regular file';
  let conn: Database.Database;
  try {
    conn = new Database(file, { readonly: true, fileMustExist: true });
  } catch (e) {
    return (e as { code?: string }).code === 'SQLITE_CANTOPEN'
      ? 'cannot be opened (permission denied?)'
      : `cannot be opened: ${(e as Error).message}`;
  }
  try {
    const hasMeta = conn.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").pluck().get();
    if (!hasMeta) return 'not a wikiquery database (an SQLite file without wikiquery tables)';
    const v = conn.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    if (v === undefined) return 'not a wikiquery database (no schema version)';
    if (Number(v) !== SCHEMA_VERSION)
      return `imported by another wikiquery version (schema ${String(v)}, this one reads ${SCHEMA_VERSION}): import the dump again`;
    return null;
  } catch (e) {
    const code = (e as { code?: string }).code;
    return code === 'SQLITE_NOTADB' ? 'not a wikiquery database (not an SQLite file)' : `unreadable: ${(e as Error).message}`;
  } finally {
    conn.close();
  }
}

export class Db {
  readonly raw: Database.Database;
  private debug: boolean;

  /**
   * `source`: a database file to open for serving, or the connection of an import that is being written
   * (the passes that run serving code over the import's own database, e.g. --render): that one is used
   * with the import's settings as they are.
   */
  constructor(source: string | Database.Database, opts: { readonly?: boolean; debug?: boolean } = {}) {
    this.debug = opts.debug ?? false;
    if (typeof source !== 'string') {
      this.raw = source;
      return;
    }
    this.raw = new Database(source, { readonly: opts.readonly ?? true, fileMustExist: true });
    // Read-only serving: no journal writes, a generous page cache, memory-mapped reads.
    this.raw.pragma('query_only = ON');
    // Hold the shared lock for the connection's life: without this every statement takes and drops a
    // file lock and re-validates the page cache (several syscalls per query). Imports replace the file by
    // rename, so they are never blocked by a serving process. A file in WAL mode is one an incremental
    // update (`import --update`, `follow`) writes in place: its readers share it through the WAL index,
    // and see each batch as it commits.
    if (this.raw.pragma('journal_mode', { simple: true }) !== 'wal') this.raw.pragma('locking_mode = EXCLUSIVE');
    this.raw.pragma('cache_size = -65536');
    this.raw.pragma('mmap_size = 1073741824');
    const v = this.raw.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get();
    if (v !== undefined && Number(v) !== SCHEMA_VERSION) {
      throw new Error(`database schema version ${String(v)} does not match this wikiquery (${SCHEMA_VERSION}); re-run the import`);
    }
  }

  /**
   * Prepare once; `name` is what debuginfo shows as the query's calling function. `pluck`: the first
   * column's value per row; 'raw': each row as an array of its columns (no object per row). `shown`: the
   * text debuginfo shows (the statement as written, where `sql` is what was made of it).
   */
  prepare<P extends unknown[] = unknown[], R = any>(
    name: string,
    sql: string,
    pluck: boolean | 'raw' = false,
    shown = sql,
  ): Statement<P, R> {
    const stmt = this.raw.prepare(sql);
    if (pluck === 'raw') stmt.raw();
    else if (pluck) stmt.pluck();
    if (!this.debug) return stmt as unknown as Statement<P, R>;
    const record = <T>(fn: () => T): T => {
      const log = queryLog.getStore();
      if (!log) return fn();
      const t0 = process.hrtime.bigint();
      const out = fn();
      log.push({ sql: shown.replace(/\s+/g, ' ').trim(), function: name, time: Number(process.hrtime.bigint() - t0) / 1e9 });
      return out;
    };
    return {
      get: (...p: P) => record(() => stmt.get(...p) as R | undefined),
      all: (...p: P) => record(() => stmt.all(...p) as R[]),
      iterate: (...p: P) => record(() => stmt.all(...p) as R[])[Symbol.iterator](),
    } as Statement<P, R>;
  }

  close(): void {
    this.raw.close();
  }
}
