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

  /** first column of the first row */
  value<R>(sql: string, values: Record<string, unknown>): R | undefined {
    const s = this.get(sql, true, values);
    return s.stmt.get(this.bind(s.names, values)) as R | undefined;
  }
}

export { prefixEnd } from '../prefix-range.js';
