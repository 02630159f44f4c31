/** The import's writes of the parser cache (--render). */
import type Database from 'better-sqlite3';
import type { ParserCacheImportWriter } from '../../import-writer.js';

export class ParserCacheWriter implements ParserCacheImportWriter {
  private readonly ins: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.ins = db.prepare(
      'INSERT OR REPLACE INTO parser_cache (pc_page, pc_rev, pc_options, pc_version, pc_output) VALUES (?, ?, ?, ?, ?)',
    );
  }

  write(pageId: number, revId: number, optionsKey: string, version: number, output: string): void {
    this.ins.run(pageId, revId, optionsKey, version, output);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM parser_cache').pluck().get() as number;
  }
}
