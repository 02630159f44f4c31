import type { Db, Statement } from './db.js';
import type { MessageStore } from '../message-store.js';
import { fallbackChain } from '../../wiki/language.js';

export class SqliteMessageStore implements MessageStore {
  private readonly catalog: Statement<[string, string]>;
  private readonly override: Statement<[string, string]>;

  constructor(private readonly db: Db) {
    this.catalog = db.prepare('MessageStore.text', 'SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?', true);
    this.override = db.prepare('MessageStore.override', 'SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?', true);
  }

  text(key: string, lang: string): string | undefined {
    for (const l of fallbackChain(lang)) {
      const o = this.override.get(l, key) as string | undefined;
      if (o !== undefined) return o;
      const c = this.catalog.get(l, key) as string | undefined;
      if (c !== undefined) return c;
    }
    return undefined;
  }
}
