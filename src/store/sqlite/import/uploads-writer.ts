/** The import's upload facts: the newest upload of each file, kept until the file import has read them. */
import type Database from 'better-sqlite3';
import type { UploadFactsWriter, Uploader } from '../../import-writer.js';

/**
 * Scratch table tmp_upload: upload facts (newest upload per file) from the dump, completed from
 * uploads.json and read by the file import; dropped before pass 2.
 */
const UPLOAD_TABLE_SQL = `CREATE TABLE tmp_upload (name TEXT PRIMARY KEY, user TEXT NOT NULL, user_id INTEGER NOT NULL,
  timestamp TEXT NOT NULL, comment TEXT NOT NULL) WITHOUT ROWID`;

export class UploadsWriter implements UploadFactsWriter {
  private readonly ins: Database.Statement;
  private readonly insIgnore: Database.Statement;
  private readonly sel: Database.Statement;

  constructor(private readonly db: Database.Database) {
    db.exec(UPLOAD_TABLE_SQL);
    this.ins = db.prepare(
      `INSERT INTO tmp_upload (name, user, user_id, timestamp, comment) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET user = excluded.user, user_id = excluded.user_id,
         timestamp = excluded.timestamp, comment = excluded.comment WHERE excluded.timestamp > tmp_upload.timestamp`,
    );
    this.insIgnore = db.prepare('INSERT OR IGNORE INTO tmp_upload (name, user, user_id, timestamp, comment) VALUES (?, ?, ?, ?, ?)');
    this.sel = db.prepare('SELECT user, user_id AS userId, timestamp, comment FROM tmp_upload WHERE name = ?');
  }

  record(name: string, u: Uploader): void {
    this.ins.run(name, u.user, u.userId, u.timestamp, u.comment);
  }

  fillIn(name: string, u: Uploader): void {
    this.insIgnore.run(name, u.user, u.userId, u.timestamp, u.comment);
  }

  get(name: string): Uploader | undefined {
    return this.sel.get(name) as Uploader | undefined;
  }

  drop(): void {
    this.db.exec('DROP TABLE tmp_upload');
  }
}
