/**
 * The PostgreSQL connection pool of one served import (one schema), on the `postgres` client: every
 * statement is prepared once per connection (named by its text), and with --debug every statement's SQL
 * and duration goes to the backend-neutral query log, as the SQLite store does.
 *
 * Numbers: int8 (every INTEGER of the schema) and numeric (sum(), avg()) come back as JavaScript numbers,
 * as better-sqlite3 gives them: wiki ids, sizes and counts are far below 2^53.
 */
import postgres from 'postgres';
import { queryLog } from '../query-log.js';
import { POSTGRES_DIALECT } from '../sql/dialect.js';
import type { SqlPort } from '../sql/port.js';

export type Sql = postgres.Sql<any>;

/**
 * A number bound where PostgreSQL expects an int8 (the server names each parameter's type when the
 * statement is prepared). SQLite compares any number with an integer column; PostgreSQL refuses one beyond
 * int8. Stored ids, sizes and counts are far below 2^53, so a larger request value (a crafted
 * continuation) selects what the largest safe integer does.
 */
function int8Text(x: unknown): string {
  if (typeof x === 'number' && Number.isFinite(x) && Math.abs(x) > Number.MAX_SAFE_INTEGER)
    return String(Math.sign(x) * Number.MAX_SAFE_INTEGER);
  return String(x);
}

/** Connection options of a `postgres://` location; libpq's `?host=/socket/dir` is understood too. */
export function connectionOptions(url: string): { url: string; options: postgres.Options<any> } {
  const u = new URL(url);
  const options: postgres.Options<any> = {
    onnotice: () => {},
    types: {
      // int8 and numeric as numbers (OIDs 20 and 1700); serialize lets a number be bound to them
      int8: { to: 20, from: [20, 1700], serialize: int8Text, parse: (x: string) => Number(x) },
    } as never,
  };
  const socketDir = u.searchParams.get('host');
  if (socketDir) {
    u.searchParams.delete('host');
    options.host = socketDir;
  }
  return { url: u.toString(), options };
}

/** Open a client on a location (import, pointer reads, tests); the caller ends it. */
export function connect(url: string, extra: postgres.Options<any> = {}): Sql {
  const c = connectionOptions(url);
  // once per connection pool: a spread copy given more members is fine here (once per process)
  return postgres(c.url, { ...c.options, ...extra }) as Sql;
}

/** A schema name is an identifier the importer made (`wq_…`): checked before it is spliced into SQL. */
export function quoteSchema(schema: string): string {
  if (!/^[a-z_][a-z0-9_]*$/.test(schema)) throw new Error(`not a wikiquery schema name: ${schema}`);
  return `"${schema}"`;
}

/**
 * A request value made bindable without changing which rows it selects. SQLite takes any string and any
 * number; PostgreSQL refuses a NUL in text and an integer beyond int8. No stored text holds a NUL or a
 * U+0001 (XML 1.0 excludes both, and so does every other source of the import), so for s = p + NUL + rest
 * the value p + U+0001 stands in the same place among stored texts: =, <, <=, >, >=, prefix ranges and
 * patterns select what s selects. This is the one place a NUL is handled: the areas bind request values
 * as they are. (Numbers are bound as they are too; int8Text clamps an int8 parameter beyond 2^53.)
 */
function storable(v: unknown): unknown {
  if (typeof v === 'string') {
    const i = v.indexOf('\0');
    return i < 0 ? v : v.slice(0, i) + '\x01';
  }
  if (Array.isArray(v)) return v.some((x) => typeof x === 'string' && x.includes('\0')) ? v.map(storable) : v;
  return v;
}

export class PgDb implements SqlPort {
  readonly sql: Sql;
  readonly dialect = POSTGRES_DIALECT;

  constructor(
    url: string,
    readonly schema: string,
    private readonly opts: { debug?: boolean; max?: number } = {},
  ) {
    quoteSchema(schema);
    // search_path pins every connection of the pool to this import's schema: the statements name bare
    // tables, and a re-import (a new schema) is served by a new pool. JIT off: every statement is an index
    // seek or a bounded scan taking milliseconds, while compiling one the planner prices above
    // jit_above_cost (a CTE-heavy search) took over a second (measured, 20,000 pages)
    this.sql = connect(url, {
      max: opts.max ?? 8,
      connection: { search_path: schema, application_name: 'wikiquery', jit: 'off' } as never,
      idle_timeout: 60,
    });
  }

  /**
   * Every row; `name` is what debuginfo shows as the calling function. `prepare: false` for texts built
   * from a request's structure (SMW queries): a prepared statement per distinct text would stay in each
   * connection's backend for the connection's life.
   */
  async all<R = any>(
    name: string,
    text: string,
    params: readonly unknown[] = [],
    { prepare = true }: { prepare?: boolean } = {},
  ): Promise<R[]> {
    params = params.map(storable);
    if (!this.opts.debug) return (await this.sql.unsafe(text, params as never[], { prepare })) as unknown as R[];
    const log = queryLog.getStore();
    const t0 = process.hrtime.bigint();
    const rows = (await this.sql.unsafe(text, params as never[], { prepare })) as unknown as R[];
    log?.push({ sql: text.replace(/\s+/g, ' ').trim(), function: name, time: Number(process.hrtime.bigint() - t0) / 1e9 });
    return rows;
  }

  async one<R = any>(name: string, text: string, params: readonly unknown[] = []): Promise<R | undefined> {
    return (await this.all<R>(name, text, params))[0];
  }

  /** the first column of the first row */
  async value<R = unknown>(name: string, text: string, params: readonly unknown[] = []): Promise<R | undefined> {
    const row = await this.one<Record<string, unknown>>(name, text, params);
    return row === undefined ? undefined : (Object.values(row)[0] as R);
  }

  /**
   * Rows of a statement written with `@name` parameters (those whose WHERE clause depends on the
   * filters a request uses): each name becomes `$n` once per distinct text.
   */
  async named<R = any>(name: string, text: string, values: Record<string, unknown>): Promise<R[]> {
    let c = this.namedCache.get(text);
    if (!c) {
      const names: string[] = [];
      const sqlText = text.replace(/@([A-Za-z_][A-Za-z0-9_]*)/g, (_m, n: string) => {
        let i = names.indexOf(n);
        if (i < 0) i = names.push(n) - 1;
        return `$${i + 1}`;
      });
      c = { sqlText, names };
      this.namedCache.set(text, c);
    }
    return this.all<R>(
      name,
      c.sqlText,
      c.names.map((n) => {
        if (!(n in values) || values[n] === undefined) throw new Error(`${name}: no value for @${n}`);
        return values[n];
      }),
    );
  }

  private readonly namedCache = new Map<string, { sqlText: string; names: string[] }>();

  async close(): Promise<void> {
    await this.sql.end({ timeout: 5 });
  }
}
