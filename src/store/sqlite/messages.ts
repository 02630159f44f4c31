import type { Db, Statement } from './db.js';
import type { KeyRange, MessageStore, StoredMessage } from '../message-store.js';

export class SqliteMessageStore implements MessageStore {
  private readonly textsStmt: Statement<[string, string, string, string]>;
  private readonly ranges = new Map<string, Statement<unknown[]>>();

  constructor(private readonly db: Db) {
    // every (language, key) pair is a primary-key seek in each table
    this.textsStmt = db.prepare(
      'MessageStore.texts',
      `SELECT 'catalog' AS source, msg_lang AS lang, msg_key AS key, msg_text AS text
         FROM json_each(?) l CROSS JOIN json_each(?) k CROSS JOIN message ON msg_lang = l.value AND msg_key = k.value
       UNION ALL
       SELECT 'override', mo_lang, mo_key, mo_text
         FROM json_each(?) l CROSS JOIN json_each(?) k CROSS JOIN message_override ON mo_lang = l.value AND mo_key = k.value`,
    );
  }

  async texts(langs: readonly string[], keys: readonly string[]): Promise<StoredMessage[]> {
    if (langs.length === 0 || keys.length === 0) return [];
    const l = JSON.stringify(langs);
    const k = JSON.stringify(keys);
    return this.textsStmt.all(l, k, l, k) as StoredMessage[];
  }

  async keys(catalogLangs: readonly string[], overrideLang: string | null, range: KeyRange): Promise<string[]> {
    const conds = (col: string) => {
      const c: string[] = [];
      if (range.min !== undefined) c.push(`${col} >= @min`);
      if (range.below !== undefined) c.push(`${col} < @below`);
      if (range.max !== undefined) c.push(`${col} <= @max`);
      return c.map((x) => ' AND ' + x).join('');
    };
    const parts = [`SELECT msg_key FROM json_each(@langs) l CROSS JOIN message ON msg_lang = l.value${conds('msg_key')}`];
    if (overrideLang !== null) parts.push(`SELECT mo_key FROM message_override WHERE mo_lang = @olang${conds('mo_key')}`);
    // one prepared statement per combination of bounds, so that every bound is an index range
    const sql = parts.join(' UNION ALL ');
    let st = this.ranges.get(sql);
    if (!st) this.ranges.set(sql, (st = this.db.prepare<unknown[]>('MessageStore.keys', sql, true)));
    const values: Record<string, unknown> = { langs: JSON.stringify(catalogLangs) };
    if (overrideLang !== null) values.olang = overrideLang;
    for (const k of ['min', 'below', 'max'] as const) if (range[k] !== undefined) values[k] = range[k];
    return st.all(values) as string[];
  }
}
