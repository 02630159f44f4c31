/**
 * A read-only connection to an SQLite import under construction, for the importer's analysis workers
 * (src/importer/analysis-worker.ts): they read the pages, files and messages that pass 1 wrote (final
 * by then) while the writer's connection, on the main thread, writes the link tables. The writer is in
 * WAL mode meanwhile (BuildDb.shareForReading): a reader's snapshot and the writer's commits never wait
 * for each other.
 */
import Database from 'better-sqlite3';
import type { ImportReader, PageWithText, TitleRef } from '../../import-writer.js';
import { pageLookupStatements, toPageWithText, PAGE_CHUNK_SQL, REDIRECTS_TO_SQL, type PageChunkRow } from './pages-writer.js';

export function openSqliteImportReader(file: string): ImportReader {
  return new SqliteImportReader(file);
}

class SqliteImportReader implements ImportReader {
  private readonly db: Database.Database;
  private readonly chunk: Database.Statement;
  private readonly redirects: Database.Statement;
  private readonly lookups: ReturnType<typeof pageLookupStatements>;
  private readonly fileExists: Database.Statement;
  private readonly message: Database.Statement;
  private readonly messageOverride: Database.Statement;
  readonly pages: ImportReader['pages'];
  readonly files: ImportReader['files'];
  readonly messages: ImportReader['messages'];

  constructor(file: string) {
    this.db = new Database(file, { readonly: true, fileMustExist: true, timeout: 60000 });
    // No memory mapping: when the writer has committed since a reader's last snapshot, SQLite drops the
    // reader's page cache and unmaps its whole mapping alike (pagerBeginReadTransaction), and every page
    // touched through a mapping counts in the process's resident set until then (100,000 pages: peak
    // RSS 689 -> 604 MB without it, the same CPU time; the writer commits once per 8 chunks).
    this.db.pragma('cache_size = -65536');
    const db = this.db;
    this.chunk = db.prepare(PAGE_CHUNK_SQL).raw();
    this.redirects = db.prepare(REDIRECTS_TO_SQL).pluck();
    this.lookups = pageLookupStatements(db);
    this.fileExists = db.prepare('SELECT 1 FROM image WHERE img_name = ?').pluck();
    this.message = db.prepare('SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?').pluck();
    this.messageOverride = db.prepare('SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?').pluck();
    const q = this.lookups;
    this.pages = {
      chunkWithText: (afterId: number, limit: number): PageWithText[] =>
        (this.chunk.all(afterId, limit) as PageChunkRow[]).map(toPageWithText),
      byTitle: (t: TitleRef) => {
        const row = q.byTitle.get(t.ns, t.dbkey) as { id: number; r: number } | undefined;
        return row && { id: row.id, isRedirect: row.r === 1 };
      },
      redirectOf: (id: number) => q.redirectOf.get(id) as TitleRef | undefined,
      redirectTarget: (t: TitleRef) => q.redirectTarget.get(t.ns, t.dbkey) as TitleRef | undefined,
      textOf: (id: number) => q.textOf.get(id) as string | undefined,
    };
    this.files = { exists: (name: string) => this.fileExists.get(name) !== undefined };
    this.messages = {
      text: (lang: string, key: string) => this.message.get(lang, key) as string | undefined,
      override: (lang: string, key: string) => this.messageOverride.get(lang, key) as string | undefined,
    };
  }

  snapshot<T>(fn: () => T): T {
    this.db.exec('BEGIN');
    try {
      return fn();
    } finally {
      this.db.exec('COMMIT');
    }
  }

  redirectsTo(t: TitleRef): string[] {
    return this.redirects.all(t.ns, t.dbkey) as string[];
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
