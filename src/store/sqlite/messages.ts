import type { Db, Statement } from './db.js';
import type { KeyRange, MessageStore, StoredMessage } from '../message-store.js';
import { keyRangeConditions } from '../sql/messages.js';

export class SqliteMessageStore implements MessageStore {
  private readonly catalogStmt: Statement<[string, string]>;
  private readonly overrideStmt: Statement<[string, string]>;
  private readonly ranges = new Map<number, Statement<unknown[]>>();

  // In-process, a primary-key seek per (language, key) pair is cheaper than joining a JSON batch: the
  // batch is one call for the caller, and on SQLite a call costs no round trip.
  constructor(private readonly db: Db) {
    this.catalogStmt = db.prepare('MessageStore.texts', 'SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?', true);
    this.overrideStmt = db.prepare('MessageStore.texts', 'SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?', true);
  }

  async texts(langs: readonly string[], keys: readonly string[]): Promise<StoredMessage[]> {
    const out: StoredMessage[] = [];
    for (const lang of langs) {
      for (const key of keys) {
        const c = this.catalogStmt.get(lang, key) as string | undefined;
        if (c !== undefined) out.push({ source: 'catalog', lang, key, text: c });
        const o = this.overrideStmt.get(lang, key) as string | undefined;
        if (o !== undefined) out.push({ source: 'override', lang, key, text: o });
      }
    }
    return out;
  }

  async keys(catalogLangs: readonly string[], overrideLang: string | null, range: KeyRange): Promise<string[]> {
    // one prepared statement per combination of bounds and number of languages, so that every bound is an
    // index range (found by which bounds there are, without building its text); one range per language,
    // bound by position (a JSON batch of two or three languages cost more than the ranges)
    const shape =
      (range.min !== undefined ? 1 : 0) |
      (range.below !== undefined ? 2 : 0) |
      (range.max !== undefined ? 4 : 0) |
      (overrideLang !== null ? 8 : 0);
    const key = shape + 16 * catalogLangs.length;
    let st = this.ranges.get(key);
    if (!st) {
      const conds = keyRangeConditions(range, () => '?');
      const parts = catalogLangs.map(() => `SELECT msg_key FROM message WHERE msg_lang = ?${conds('msg_key')}`);
      if (overrideLang !== null) parts.push(`SELECT mo_key FROM message_override WHERE mo_lang = ?${conds('mo_key')}`);
      if (parts.length === 0) return [];
      // bounded: a language's fallback chain is a few languages long
      if (this.ranges.size >= 256) this.ranges.clear();
      this.ranges.set(key, (st = this.db.prepare<unknown[]>('MessageStore.keys', parts.join(' UNION ALL '), true)));
    }
    const bounds: string[] = [];
    for (const k of ['min', 'below', 'max'] as const) if (range[k] !== undefined) bounds.push(range[k]!);
    const args: string[] = [];
    for (const lang of catalogLangs) args.push(lang, ...bounds);
    if (overrideLang !== null) args.push(overrideLang, ...bounds);
    return st.all(...args) as string[];
  }

  // In-process the parts cost no round trip: keys(), then the seeks texts() makes (a range scan returning
  // the texts was slower: converting the texts the seeks skip costs more than the seeks).
  async rangeTexts(
    catalogLangs: readonly string[],
    overrideLang: string | null,
    range: KeyRange,
    langs: readonly string[],
    fallbackLangs: readonly string[],
  ): Promise<{ keys: string[]; texts: StoredMessage[] }> {
    const keys = [...new Set(await this.keys(catalogLangs, overrideLang, range))];
    const texts: StoredMessage[] = [];
    const lacking: string[] = [];
    for (const key of keys) {
      let found = false;
      for (const lang of langs) found = this.read(lang, key, texts) || found;
      if (!found) lacking.push(key);
    }
    for (const key of lacking) for (const lang of fallbackLangs) this.read(lang, key, texts);
    return { keys, texts };
  }

  /** Both seeks for one language and key, into `out`; whether the catalog has the key. */
  private read(lang: string, key: string, out: StoredMessage[]): boolean {
    const c = this.catalogStmt.get(lang, key) as string | undefined;
    if (c !== undefined) out.push({ source: 'catalog', lang, key, text: c });
    const o = this.overrideStmt.get(lang, key) as string | undefined;
    if (o !== undefined) out.push({ source: 'override', lang, key, text: o });
    return c !== undefined;
  }
}
