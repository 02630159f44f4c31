import type { Db, Statement } from './db.js';
import type { FileStore } from '../file-store.js';

export class SqliteFileStore implements FileStore {
  private readonly existsStmt: Statement<[string]>;

  constructor(private readonly db: Db) {
    this.existsStmt = db.prepare('FileStore.exists', 'SELECT 1 FROM image WHERE img_name = ?', true);
  }

  exists(name: string): boolean {
    return this.existsStmt.get(name) !== undefined;
  }
}
