/**
 * The SQLite dialect of the semantic statements (../semantic-query.ts, ../semantic-sql-store.ts): `?`
 * placeholders, lists bound as one JSON parameter, SMW's `~` patterns as GLOB (case-sensitive, as SMW's
 * binary columns), and the sort-order walk through smw_subject_sort.
 */
import type { Db, Statement } from './db.js';
import { SemanticQueryEngine, type SemanticDialect } from '../semantic-query.js';

/** SMW's pattern (* any, ? one character) as a GLOB pattern: only GLOB's brackets need escaping. */
function globPattern(p: string): string {
  return p.replace(/[[\]]/g, (c) => (c === '[' ? '[[]' : '[]]'));
}

export const SQLITE_SEMANTIC: SemanticDialect = {
  placeholder: () => '?',
  bindList: (values) => [JSON.stringify(values)],
  listTable: ([ph], _type, alias) => `json_each(${ph}) ${alias}`,
  bindRows: (rows) => [JSON.stringify(rows)],
  rowsTable: ([ph], columns, alias) =>
    `(SELECT key, ${columns.map(([n], i) => `json_extract(value, '$[${i}]') AS ${n}`).join(', ')} FROM json_each(${ph})) ${alias}`,
  keyBase: 0,
  inTextList: (expr, [ph]) => `${expr} IN (SELECT value FROM json_each(${ph}))`,
  inIntList: (expr, [ph]) => `${expr} IN (SELECT value FROM json_each(${ph}))`,
  matches: (expr, negate, param, pattern) => `${expr} ${negate ? 'NOT ' : ''}GLOB ${param(globPattern(pattern))}`,
  intText: (expr) => expr,
  orderTerm: (expr, order) => `${expr} ${order}`,
  walkSource: (order, limit) => `(SELECT * FROM smw_subject INDEXED BY smw_subject_sort ORDER BY ${order} LIMIT ${limit}) s`,
  walkOuterOrder: false,
  inProcess: true,
};

/** Distinct statement texts kept prepared. */
const STATEMENT_CACHE = 300;

/** Prepared statements of the semantic SQL, one per distinct text, the least recently used dropped beyond STATEMENT_CACHE. */
export class SemanticStatements {
  private readonly cache = new Map<string, Statement>();

  constructor(private readonly db: Db) {}

  all(name: string, sql: string, params: unknown[]): any[] {
    // keyed by the text alone (a text belongs to one caller); the oldest entry goes when the cache is
    // full -- moving each hit to the end cost more than the statements the hits save
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(name, sql);
      if (this.cache.size >= STATEMENT_CACHE) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(sql, s);
    }
    return s.all(...params);
  }
}

/** The query engine on an SQLite file (tests give a lower probe cap to exercise the sort-order walk). */
export function sqliteQueryEngine(db: Db, probeCap?: number): SemanticQueryEngine {
  const st = new SemanticStatements(db);
  return new SemanticQueryEngine(SQLITE_SEMANTIC, { all: async (sql, params) => st.all('SemanticStore.ask', sql, params) }, probeCap);
}
