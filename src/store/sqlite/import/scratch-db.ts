/** The connection an import's worker thread opens on its scratch file. */
import Database from 'better-sqlite3';

/**
 * Opens `file`, a scratch file the import throws away (or copies from): no journal, no syncs, an
 * exclusive lock, sorts spilled to temp files. `schema` ('main.') keeps the file's pragmas off the
 * databases attached later.
 */
export function openScratchDb(file: string, schema = ''): Database.Database {
  const db = new Database(file);
  db.unsafeMode(true);
  db.pragma(`${schema}journal_mode = OFF`);
  db.unsafeMode(false);
  db.pragma(`${schema}synchronous = OFF`);
  db.pragma(`${schema}locking_mode = EXCLUSIVE`);
  db.pragma('temp_store = FILE');
  return db;
}
