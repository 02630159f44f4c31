/**
 * Statements whose WHERE clause depends on which filters a request uses: each distinct SQL text is
 * prepared once and kept, and only the named parameters the text uses are bound (better-sqlite3 refuses
 * unknown ones).
 */
import type { Db, Statement } from './db.js';

export class StatementCache {
  private readonly statements = new Map<string, { stmt: Statement; names: string[] }>();

  /** @param name what debuginfo shows as the calling function */
  constructor(
    private readonly db: Db,
    private readonly name: string,
  ) {}

  private get(sql: string, pluck: boolean | 'raw'): { stmt: Statement; names: string[] } {
    const key = (pluck === 'raw' ? 'A:' : pluck ? 'P:' : 'R:') + sql;
    let s = this.statements.get(key);
    if (!s) {
      const names = [...new Set([...sql.matchAll(/@([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]))];
      s = { stmt: this.db.prepare(this.name, sql, pluck), names };
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
    const s = this.get(sql, false);
    return s.stmt.all(this.bind(s.names, values)) as R[];
  }

  /** rows as arrays of their columns, in SELECT order: for long results, where an object per row costs */
  rows(sql: string, values: Record<string, unknown>): unknown[][] {
    const s = this.get(sql, 'raw');
    return s.stmt.all(this.bind(s.names, values)) as unknown[][];
  }

  /** first column of the first row */
  value<R>(sql: string, values: Record<string, unknown>): R | undefined {
    const s = this.get(sql, true);
    return s.stmt.get(this.bind(s.names, values)) as R | undefined;
  }
}

export { prefixEnd } from '../prefix-range.js';
