/**
 * Opens the store a `--db` value names, for serving (read-only): the one place that maps a location to a
 * backend. `sqlite:PATH`, `file:PATH` or a plain path is an SQLite file.
 */
import type { Store } from './store.js';
import { openSqliteStore } from './sqlite/index.js';

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
