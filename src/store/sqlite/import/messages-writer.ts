/** The import's writes of the message catalog and the wiki's MediaWiki: overrides, and their lookups. */
import type Database from 'better-sqlite3';
import type { MessageImportWriter } from '../../import-writer.js';

export class MessagesWriter implements MessageImportWriter {
  private readonly ins: Database.Statement;
  private readonly insOverride: Database.Statement;
  private sel: { text: Database.Statement; override: Database.Statement } | null = null;

  constructor(private readonly db: Database.Database) {
    this.ins = db.prepare('INSERT OR REPLACE INTO message (msg_lang, msg_key, msg_text) VALUES (?, ?, ?)');
    this.insOverride = db.prepare('INSERT OR REPLACE INTO message_override (mo_lang, mo_key, mo_text) VALUES (?, ?, ?)');
  }

  write(lang: string, key: string, text: string): void {
    this.ins.run(lang, key, text);
  }

  writeOverride(lang: string, key: string, text: string): void {
    this.insOverride.run(lang, key, text);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM message').pluck().get() as number;
  }

  languages(): string[] {
    return this.db.prepare('SELECT DISTINCT msg_lang FROM message').pluck().all() as string[];
  }

  private get lookups() {
    this.sel ??= {
      text: this.db.prepare('SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?').pluck(),
      override: this.db.prepare('SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?').pluck(),
    };
    return this.sel;
  }

  text(lang: string, key: string): string | undefined {
    return this.lookups.text.get(lang, key) as string | undefined;
  }

  override(lang: string, key: string): string | undefined {
    return this.lookups.override.get(lang, key) as string | undefined;
  }
}
