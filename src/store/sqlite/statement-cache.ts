/**
 * Statements whose WHERE clause depends on which filters a request uses: each distinct SQL text is
 * prepared once and kept, and only the named parameters (@name) the text uses are bound: by position,
 * each place of a name made a `?` when the text is prepared (debuginfo shows the text as written).
 *
 * `LIMIT @limit` is written into the text as a number: SQLite (3.47+) plans with a bound LIMIT's value
 * and marks the statement to be compiled again whenever that parameter is bound — on every execution,
 * since better-sqlite3 binds each call (~3 µs for a small SELECT, more for a long one). Limits take few
 * values (a module's default, its maximum, what a client repeats), and the kept statements are bounded.
 */
import type { Db, Statement } from './db.js';

const LIMIT_RE = /LIMIT @limit(?![A-Za-z0-9_])/g;
const PARAM_RE = /@([A-Za-z_][A-Za-z0-9_]*)/g;
const MAX_STATEMENTS = 512;

/** how rows come back: objects, the first column, arrays of columns */
type Mode = 0 | 1 | 2;
const MODE_PLUCK: Array<boolean | 'raw'> = [false, true, 'raw'];

interface Entry {
  stmt: Statement;
  /** the parameter of each `?` of the statement, in order */
  names: string[];
}

/** the statements of one SQL text: by mode, and by limit when the text has `LIMIT @limit` */
interface Group {
  limited: boolean;
  /** key: limit * 3 + mode, or -1 - mode for a text whose limit is bound */
  entries: Map<number, Entry>;
}

export class StatementCache {
  /**
   * by the text as given, then by a number: no key string is built per call (the text itself is hashed
   * once, and not at all when it is a literal)
   */
  private readonly groups = new Map<string, Group>();
  private count = 0;

  /** @param name what debuginfo shows as the calling function */
  constructor(
    private readonly db: Db,
    private readonly name: string,
  ) {}

  private get(sql: string, mode: Mode, values: Record<string, unknown>): Entry {
    let g = this.groups.get(sql);
    if (g === undefined) {
      g = { limited: sql.includes('LIMIT @limit'), entries: new Map() };
      this.groups.set(sql, g);
    }
    const limit = values.limit;
    const written = g.limited && typeof limit === 'number' && Number.isSafeInteger(limit) && limit >= 0;
    const key = written ? (limit as number) * 3 + mode : -1 - mode;
    let s = g.entries.get(key);
    if (s === undefined) {
      const text = written ? sql.replace(LIMIT_RE, `LIMIT ${limit}`) : sql;
      // each @name becomes a `?` bound by position: better-sqlite3 binds an object's members by looking
      // each name up (a string made per parameter per call), an array in order (~0.2 µs less per call)
      const names: string[] = [];
      const positional = text.replace(PARAM_RE, (_m, n: string) => {
        names.push(n);
        return '?';
      });
      s = { stmt: this.db.prepare(this.name, positional, MODE_PLUCK[mode]!, text), names };
      // the oldest text first: a client cycling through many limits does not grow the cache
      if (this.count >= MAX_STATEMENTS) {
        const [oldest, og] = this.groups.entries().next().value!;
        this.groups.delete(oldest);
        this.count -= og.entries.size;
        if (og === g) {
          // this text's own statements were the oldest: it starts again with the new one
          g.entries.clear();
          this.groups.set(sql, g);
        }
      }
      g.entries.set(key, s);
      this.count++;
    }
    return s;
  }

  /** the values of a statement's parameters, in the order of their places in its text */
  private bind(names: string[], values: Record<string, unknown>): unknown[] {
    const out: unknown[] = [];
    for (let i = 0; i < names.length; i++) {
      const n = names[i]!;
      if (!(n in values)) throw new Error(`${this.name}: no value for @${n}`);
      out.push(values[n]);
    }
    return out;
  }

  all<R>(sql: string, values: Record<string, unknown>): R[] {
    const s = this.get(sql, 0, values);
    return s.stmt.all(this.bind(s.names, values)) as R[];
  }

  /** rows as arrays of their columns, in SELECT order: for long results, where an object per row costs */
  rows(sql: string, values: Record<string, unknown>): unknown[][] {
    const s = this.get(sql, 2, values);
    return s.stmt.all(this.bind(s.names, values)) as unknown[][];
  }

  /**
   * The rows of `SELECT <head's columns> <rest>` as arrays of their columns, read as one JSON text and parsed
   * once: better-sqlite3 makes an array per row and a string per value (a UTF-8 decoding each, most of a
   * ten-row list's cost when titles are Cyrillic); JSON.parse makes the same values from one string at
   * about half that. Integer and text columns only (json_array prints a REAL with 15 digits). The rows
   * keep `rest`'s order: a subquery with ORDER BY and LIMIT is run as a co-routine feeding the aggregate
   * row by row, never flattened into it (an ORDER BY inside the aggregate would cost a sorter).
   */
  jsonRows(head: JsonRowsHead, rest: string, values: Record<string, unknown>): unknown[][] {
    return this.jsonRowsOf(head.text + rest + ')', values);
  }

  /** jsonRows for a whole statement made once (jsonRowsSql); or its columns (jsonColumnsSql) */
  jsonRowsOf(sql: string, values: Record<string, unknown>): unknown[][] {
    const s = this.get(sql, 1, values);
    return JSON.parse(s.stmt.get(this.bind(s.names, values)) as string) as unknown[][];
  }

  /** the first row as an array of its columns, or undefined */
  row(sql: string, values: Record<string, unknown>): unknown[] | undefined {
    const s = this.get(sql, 2, values);
    return s.stmt.get(this.bind(s.names, values)) as unknown[] | undefined;
  }

  /**
   * Up to `limit` distinct values of an index column, one seek each: `first`'s value, then `next`'s with
   * `@after` bound to the value before, so a value a million rows repeat costs no more than one row's
   */
  walk<R>(first: string, next: string, values: Record<string, unknown>, limit: number): R[] {
    const out: R[] = [];
    let t = this.value<R>(first, values);
    while (t !== undefined && out.length < limit) {
      out.push(t);
      if (out.length >= limit) break;
      values.after = t;
      t = this.value<R>(next, values);
    }
    return out;
  }

  /** first column of the first row */
  value<R>(sql: string, values: Record<string, unknown>): R | undefined {
    const s = this.get(sql, 1, values);
    return s.stmt.get(this.bind(s.names, values)) as R | undefined;
  }
}

/**
 * A statement whose one value is the rows of `SELECT <columns> <rest>` column by column: a JSON array of
 * one array per column, each in the rows' order (jsonRowsOf reads it). JSON.parse makes an array per
 * column instead of one per row, and SQLite appends each value to its column's aggregate where a
 * json_array per row made a text of its own and copied it: a ten-row list costs ~0.4 µs less.
 */
export function jsonColumnsSql(columns: readonly string[], rest: string): string {
  return `SELECT json_array(${columns.map((_c, i) => `json_group_array(c${i})`).join(', ')}) FROM (SELECT ${columns.map((c, i) => `${c} AS c${i}`).join(', ')} ${rest})`;
}

/** the start of a jsonRows statement, made once per column list */
export interface JsonRowsHead {
  readonly text: string;
}

/** the columns named c0, c1, … inside, listed in order by json_array outside */
export function jsonRowsHead(columns: readonly string[]): JsonRowsHead {
  return {
    text: `SELECT json_group_array(json_array(${columns.map((_c, i) => 'c' + i).join(', ')})) FROM (SELECT ${columns.map((c, i) => `${c} AS c${i}`).join(', ')} `,
  };
}

/** a whole jsonRows statement, for one prepared once */
export function jsonRowsSql(columns: readonly string[], rest: string): string {
  return jsonRowsHead(columns).text + rest + ')';
}
