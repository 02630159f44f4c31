import type { PgDb } from './db.js';
import type { KeyRange, MessageStore, StoredMessage } from '../message-store.js';
import { keyRangeConditions } from '../sql/messages.js';

export class PostgresMessageStore implements MessageStore {
  constructor(private readonly db: PgDb) {}

  /**
   * Over a network the per-pair seeks SQLite makes would each be a round trip: here every (language,
   * key) pair of the batch is one statement, two primary-key seeks per pair (catalog, override). The
   * rows come in SQLite's order (languages, then keys, as given; catalog before override).
   */
  async texts(langs: readonly string[], keys: readonly string[]): Promise<StoredMessage[]> {
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
    const { sql, values } = keyRangeQuery(catalogLangs, overrideLang, range);
    const rows = await this.db.named<{ key: string }>('MessageStore.keys', sql, values);
    return rows.map((r) => r.key);
  }

  /**
   * keys() and then, for each key, the seeks of texts() in `langs`, and in `fallbackLangs` after a seek
   * per language of `langs` that finds no catalog entry: one statement. The keys come as rows without
   * a source.
   */
  async rangeTexts(
    catalogLangs: readonly string[],
    overrideLang: string | null,
    range: KeyRange,
    langs: readonly string[],
    fallbackLangs: readonly string[],
  ): Promise<{ keys: string[]; texts: StoredMessage[] }> {
    const { sql, values } = keyRangeQuery(catalogLangs, overrideLang, range);
    const textsOf = (langsParam: string) => `SELECT s.source, l.lang, k.key, s.text
       FROM k CROSS JOIN unnest(${langsParam}::text[]) AS l(lang)
       CROSS JOIN LATERAL (
         SELECT 'catalog'::text AS source, msg_text AS text FROM message WHERE msg_lang = l.lang AND msg_key = k.key
         UNION ALL
         SELECT 'override', mo_text FROM message_override WHERE mo_lang = l.lang AND mo_key = k.key
       ) s`;
    const rows = await this.db.named<{ source: 'catalog' | 'override' | null; lang: string; key: string; text: string }>(
      'MessageStore.rangeTexts',
      `WITH k AS (SELECT DISTINCT key FROM (${sql}) r)
       SELECT NULL::text AS source, NULL::text AS lang, key, NULL::text AS text FROM k
       UNION ALL
       ${textsOf('@textLangs')}
       UNION ALL
       ${textsOf('@fallbackLangs')}
       WHERE NOT EXISTS (SELECT 1 FROM message WHERE msg_lang = ANY(@textLangs::text[]) AND msg_key = k.key)`,
      Object.assign(values, { textLangs: langs, fallbackLangs }),
    );
    const keys: string[] = [];
    const texts: StoredMessage[] = [];
    for (const r of rows) {
      if (r.source === null) keys.push(r.key);
      else texts.push({ source: r.source, lang: r.lang, key: r.key, text: r.text });
    }
    return { keys, texts };
  }
}

/**
 * The keys of a range: index range scans of message (msg_lang, msg_key) per language and of
 * message_override (mo_lang, mo_key).
 */
function keyRangeQuery(
  catalogLangs: readonly string[],
  overrideLang: string | null,
  range: KeyRange,
): { sql: string; values: Record<string, unknown> } {
  const conds = keyRangeConditions(range, (bound) => '@' + bound);
  const parts = [`SELECT msg_key AS key FROM unnest(@langs::text[]) AS l(lang) JOIN message ON msg_lang = l.lang${conds('msg_key')}`];
  if (overrideLang !== null) parts.push(`SELECT mo_key FROM message_override WHERE mo_lang = @olang${conds('mo_key')}`);
  const values: Record<string, unknown> = {
    langs: catalogLangs,
    olang: overrideLang ?? undefined,
    min: range.min,
    below: range.below,
    max: range.max,
  };
  return { sql: parts.join(' UNION ALL '), values };
}
