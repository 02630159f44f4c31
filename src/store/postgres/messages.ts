import type { PgDb } from './db.js';
import { bound, equalityBatch } from './nul.js';
import type { KeyRange, MessageStore, StoredMessage } from '../message-store.js';

export class PostgresMessageStore implements MessageStore {
  constructor(private readonly db: PgDb) {}

  /**
   * Over a network the per-pair seeks SQLite makes would each be a round trip: here every (language,
   * key) pair of the batch is one statement, two primary-key seeks per pair (catalog, override). The
   * rows come in SQLite's order (languages, then keys, as given; catalog before override).
   */
  async texts(langs: readonly string[], keys: readonly string[]): Promise<StoredMessage[]> {
    // a language or key with a NUL has no stored text (nul.ts)
    langs = equalityBatch(langs);
    keys = equalityBatch(keys);
    if (langs.length === 0 || keys.length === 0) return [];
    return this.db.all<StoredMessage>(
      'MessageStore.texts',
      `SELECT s.source, l.lang, k.key, s.text
       FROM unnest($1::text[]) WITH ORDINALITY AS l(lang, li)
       CROSS JOIN unnest($2::text[]) WITH ORDINALITY AS k(key, ki)
       CROSS JOIN LATERAL (
         SELECT 0 AS rank, 'catalog' AS source, msg_text AS text FROM message WHERE msg_lang = l.lang AND msg_key = k.key
         UNION ALL
         SELECT 1, 'override', mo_text FROM message_override WHERE mo_lang = l.lang AND mo_key = k.key
       ) s
       ORDER BY l.li, k.ki, s.rank`,
      [langs, keys],
    );
  }

  async keys(catalogLangs: readonly string[], overrideLang: string | null, range: KeyRange): Promise<string[]> {
    const conds = (col: string) => {
      const c: string[] = [];
      if (range.min !== undefined) c.push(`${col} >= @min`);
      if (range.below !== undefined) c.push(`${col} < @below`);
      if (range.max !== undefined) c.push(`${col} <= @max`);
      return c.map((x) => ' AND ' + x).join('');
    };
    if (overrideLang !== null && equalityBatch([overrideLang]).length === 0) overrideLang = null;
    // index range scans of message (msg_lang, msg_key) per language and of message_override (mo_lang, mo_key)
    const parts = [`SELECT msg_key AS key FROM unnest(@langs::text[]) AS l(lang) JOIN message ON msg_lang = l.lang${conds('msg_key')}`];
    if (overrideLang !== null) parts.push(`SELECT mo_key FROM message_override WHERE mo_lang = @olang${conds('mo_key')}`);
    const values: Record<string, unknown> = {
      langs: equalityBatch(catalogLangs),
      olang: overrideLang ?? undefined,
      min: bound('>=', range.min),
      below: bound('<', range.below),
      max: bound('<=', range.max),
    };
    const rows = await this.db.named<{ key: string }>('MessageStore.keys', parts.join(' UNION ALL '), values);
    return rows.map((r) => r.key);
  }
}
