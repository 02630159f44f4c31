/**
 * Statements whose WHERE clause depends on which filters a request uses: each distinct SQL text is
 * prepared once and kept, and only the named parameters the text uses are bound (better-sqlite3 refuses
 * unknown ones).
 *
 * `LIMIT @limit` is written into the text as a number: SQLite (3.47+) plans with a bound LIMIT's value
 * and marks the statement to be compiled again whenever that parameter is bound — on every execution,
 * since better-sqlite3 binds each call (~3 µs for a small SELECT, more for a long one). Limits take few
 * values (a module's default, its maximum, what a client repeats), and the kept statements are bounded.
 */
import type { Db, Statement } from './db.js';

const LIMIT_RE = /LIMIT @limit(?![A-Za-z0-9_])/g;
const MAX_STATEMENTS = 512;

export class StatementCache {
  private readonly statements = new Map<string, { stmt: Statement; names: string[] }>();

  /** @param name what debuginfo shows as the calling function */
  constructor(
    private readonly db: Db,
    private readonly name: string,
  ) {}

  private get(sql: string, pluck: boolean | 'raw', values: Record<string, unknown>): { stmt: Statement; names: string[] } {
    const limit = values.limit;
    const written = typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0 && sql.includes('LIMIT @limit');
    // keyed by the text as given and the limit (digits before the colon): the rewrite runs once per pair
    const key = (pluck === 'raw' ? 'A' : pluck ? 'P' : 'R') + (written ? limit : '') + ':' + sql;
    let s = this.statements.get(key);
    if (!s) {
      const text = written ? sql.replace(LIMIT_RE, `LIMIT ${limit}`) : sql;
      const names = [...new Set([...text.matchAll(/@([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]!))];
      s = { stmt: this.db.prepare(this.name, text, pluck), names };
      // the oldest first: a client cycling through many limits does not grow the map
      if (this.statements.size >= MAX_STATEMENTS) this.statements.delete(this.statements.keys().next().value!);
      this.statements.set(key, s);
    }
    return s;
  }

  private bind(names: string[], values: Record<string, unknown>): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const n of names) {
      if (!(n in values)) throw new Error(`${this.name}: no value for @${n}`);
      out[n] = values[n];
    }
    return out;
  }

  all<R>(sql: string, values: Record<string, unknown>): R[] {
    const s = this.get(sql, false, values);
    return s.stmt.all(this.bind(s.names, values)) as R[];
  }

  /** rows as arrays of their columns, in SELECT order: for long results, where an object per row costs */
  rows(sql: string, values: Record<string, unknown>): unknown[][] {
    const s = this.get(sql, 'raw', values);
    return s.stmt.all(this.bind(s.names, values)) as unknown[][];
  }

  /**
   * The rows of `SELECT <columns> <rest>` as arrays of their columns, read as one JSON text and parsed
   * once: better-sqlite3 makes an array per row and a string per value (a UTF-8 decoding each, most of a
   * ten-row list's cost when titles are Cyrillic); JSON.parse makes the same values from one string at
   * about half that. Integer and text columns only (json_array prints a REAL with 15 digits). The rows
   * keep `rest`'s order: a subquery with ORDER BY and LIMIT is run as a co-routine feeding the aggregate
   * row by row, never flattened into it (an ORDER BY inside the aggregate would cost a sorter).
   */
  jsonRows(columns: readonly string[], rest: string, values: Record<string, unknown>): unknown[][] {
    const sql = jsonRowsSql(columns, rest);
    const s = this.get(sql, true, values);
    return JSON.parse(s.stmt.get(this.bind(s.names, values)) as string) as unknown[][];
  }

  /** first column of the first row */
  value<R>(sql: string, values: Record<string, unknown>): R | undefined {
    const s = this.get(sql, true, values);
    return s.stmt.get(this.bind(s.names, values)) as R | undefined;
  }
}

/** jsonRows' statement: the columns named c0, c1, … inside, listed in order by json_array outside */
export function jsonRowsSql(columns: readonly string[], rest: string): string {
  return `SELECT json_group_array(json_array(${columns.map((_c, i) => 'c' + i).join(', ')})) FROM (SELECT ${columns.map((c, i) => `${c} AS c${i}`).join(', ')} ${rest})`;
}

export { prefixEnd } from '../prefix-range.js';
