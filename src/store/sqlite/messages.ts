import type { Db, Statement } from './db.js';
import type { KeyRange, MessageStore } from '../message-store.js';
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

  catalogText(lang: string, key: string): string | undefined {
    return this.catalog.get(lang, key) as string | undefined;
  }

  overrideText(lang: string, key: string): string | undefined {
    return this.override.get(lang, key) as string | undefined;
  }

  catalogKeys(lang: string, range: KeyRange): string[] {
    return this.rangeStatement('message', 'msg_lang', 'msg_key', range).all(lang, ...bounds(range)) as string[];
  }

  overrideKeys(lang: string, range: KeyRange): string[] {
    return this.rangeStatement('message_override', 'mo_lang', 'mo_key', range).all(lang, ...bounds(range)) as string[];
  }

  mediaWikiPageExists(title: string): boolean {
    this.pageExists ??= this.db.prepare('MessageStore.mediaWikiPageExists', 'SELECT 1 FROM page WHERE page_namespace = 8 AND page_title = ?', true);
    return this.pageExists.get(title) !== undefined;
  }

  private pageExists?: Statement<[string]>;
  private readonly ranges = new Map<string, Statement<string[]>>();

  /** One prepared statement per table and combination of bounds, so that every bound is an index range. */
  private rangeStatement(table: string, langCol: string, keyCol: string, range: KeyRange): Statement<string[]> {
    const conds = [`${langCol} = ?`];
    if (range.min !== undefined) conds.push(`${keyCol} >= ?`);
    if (range.below !== undefined) conds.push(`${keyCol} < ?`);
    if (range.max !== undefined) conds.push(`${keyCol} <= ?`);
    const sql = `SELECT ${keyCol} FROM ${table} WHERE ${conds.join(' AND ')} ORDER BY ${keyCol}`;
    let st = this.ranges.get(sql);
    if (!st) this.ranges.set(sql, (st = this.db.prepare<string[]>(`MessageStore.${table === 'message' ? 'catalogKeys' : 'overrideKeys'}`, sql, true)));
    return st;
  }
}

function bounds(range: KeyRange): string[] {
  const out: string[] = [];
  if (range.min !== undefined) out.push(range.min);
  if (range.below !== undefined) out.push(range.below);
  if (range.max !== undefined) out.push(range.max);
  return out;
}
