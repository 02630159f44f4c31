/**
 * Opens the store a `--db` value names, for serving (read-only): the one place that maps a location to a
 * backend. `sqlite:PATH`, `file:PATH` or a plain path is an SQLite file.
 */
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/index.js';
import type { ImportWriter } from './import-writer.js';
import { openSqliteImportWriter, sqliteImportTargetProblem } from './sqlite/import/writer.js';

export interface OpenOptions {
  /** record every statement in the debug query log */
  debug?: boolean;
}

/** Which backend a `--db` value names, and its location within that backend. */
export function parseStoreLocation(location: string): { backend: 'sqlite'; path: string } | { backend: 'postgres'; url: string } {
  if (/^postgres(ql)?:\/\//i.test(location)) return { backend: 'postgres', url: location };
  const m = /^(?:sqlite|file):(?:\/\/)?(.*)$/i.exec(location);
  return { backend: 'sqlite', path: m ? m[1] : location };
}

export async function openStore(location: string, opts: OpenOptions = {}): Promise<Store> {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') throw new Error(`${location}: this wikiquery has no PostgreSQL store yet (use an SQLite file)`);
  return openSqliteStore(where.path, opts);
}

/**
 * Why an import may not write to a location (null: it may). Checked before the import starts: an
 * SQLite target must be a file path in a writable directory, and an existing file is replaced only when
 * it is a wikiquery database.
 */
export function importTargetProblem(location: string): string | null {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') return 'this wikiquery has no PostgreSQL store yet (use an SQLite file)';
  return sqliteImportTargetProblem(where.path);
}

/**
 * The writer of an import into a location. SQLite: the database is built in a temporary file next to
 * the target and renamed onto it by `finish()` (temporary files of killed imports are swept here).
 */
export function openImportWriter(location: string, opts: { log: (line: string) => void }): ImportWriter {
  const where = parseStoreLocation(location);
  if (where.backend === 'postgres') throw new Error(`${location}: this wikiquery has no PostgreSQL store yet (use an SQLite file)`);
  return openSqliteImportWriter(where.path, opts);
}
