/**
 * Publishing an import into PostgreSQL. The import pipeline builds the wiki in a local SQLite staging
 * file (its template look-ups, link passes and report queries read what it wrote moments before: over a
 * network each would be a round trip); this module then bulk-loads every table of that file into a
 * fresh schema with COPY, adds keys and the schema's indexes, runs ANALYZE and switches the served
 * pointer (catalog.ts) in one transaction. The SQLite schema is the one definition of the tables: they
 * are translated here (INTEGER → bigint, TEXT → text COLLATE "C" for MediaWiki's binary title order,
 * REAL → double precision, BLOB → bytea), so the two stores cannot drift apart.
 */
import Database from 'better-sqlite3';
import type { Writable } from 'node:stream';
import { writeToCopy } from './copy-stream.js';
import { connect, quoteSchema, type Sql } from './db.js';
import { ensureCatalog, switchServed } from './catalog.js';
import { POSTGRES_TABLES } from './extra-tables.js';

export interface PublishOptions {
  log: (line: string) => void;
  /** runs when the new schema is complete, before readers are switched to it (may throw to stop) */
  beforeSwitch?: () => Promise<void>;
  checkAbort?: () => void;
}

export interface Column {
  name: string;
  type: string;
  notnull: boolean;
  pk: number;
}

const PG_TYPE: Record<string, string> = { INTEGER: 'bigint', TEXT: 'text COLLATE "C"', REAL: 'double precision', BLOB: 'bytea' };

export function ident(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`unexpected identifier in the staging schema: ${name}`);
  return `"${name}"`;
}

/** SQLite's top-k postings beside FTS5 (sqlite/search-postings.ts): the PostgreSQL search ranks with its own tables. */
const SQLITE_SEARCH_TABLES = ['search_block', 'search_term', 'search_df', 'search_bitmap'];

/** Tables of the staging file that are copied: FTS5's index is SQLite's own (the PostgreSQL search reads its own tables). */
export function stagingTables(db: Database.Database): string[] {
  const rows = db
    .prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY rowid")
    .all() as Array<{ name: string; sql: string }>;
  const virtual = rows.filter((r) => /CREATE\s+VIRTUAL\s+TABLE/i.test(r.sql)).map((r) => r.name);
  return rows
    .filter((r) => !virtual.includes(r.name) && !virtual.some((v) => r.name.startsWith(v + '_')) && !SQLITE_SEARCH_TABLES.includes(r.name))
    .map((r) => r.name);
}

export function columnsOf(db: Database.Database, table: string): Column[] {
  return (db.pragma(`table_info(${ident(table)})`) as Array<{ name: string; type: string; notnull: number; pk: number }>).map((c) => ({
    name: c.name,
    type: c.type.toUpperCase(),
    notnull: c.notnull === 1,
    pk: c.pk,
  }));
}

function pgType(table: string, c: Column): string {
  const t = PG_TYPE[c.type];
  if (!t) throw new Error(`${table}.${c.name}: no PostgreSQL type for SQLite type '${c.type}'`);
  return t;
}

/** One value in COPY's text format. */
export function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  if (typeof v === 'number' || typeof v === 'bigint') return String(v);
  if (Buffer.isBuffer(v)) return '\\\\x' + v.toString('hex');
  return String(v).replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

async function copyTable(db: Database.Database, sql: Sql, schema: string, table: string, cols: Column[]): Promise<number> {
  const rows = db
    .prepare(`SELECT ${cols.map((c) => ident(c.name)).join(', ')} FROM ${ident(table)}`)
    .raw()
    .iterate() as IterableIterator<unknown[]>;
  return copyInto(sql, `${schema}.${ident(table)}`, cols, rows);
}

/** Rows given in `columns`' order COPYed into `table` (quoted, schema-qualified), on a pool or in a transaction; how many. */
export async function copyInto(
  sql: Pick<Sql, 'unsafe'>,
  table: string,
  columns: ReadonlyArray<Column | string>,
  rows: Iterable<unknown[]>,
): Promise<number> {
  const names = columns.map((c) => ident(typeof c === 'string' ? c : c.name)).join(', ');
  const stream = (await sql.unsafe(`COPY ${table} (${names}) FROM STDIN`).writable()) as Writable;
  const finished = new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve);
    stream.once('error', reject);
  });
  let n = 0;
  let buf = '';
  for (const row of rows) {
    buf += row.map(copyValue).join('\t') + '\n';
    n++;
    if (buf.length >= 1 << 20) {
      await writeToCopy(stream, buf);
      buf = '';
    }
  }
  if (buf) await writeToCopy(stream, buf);
  stream.end();
  await finished;
  return n;
}

/** `CREATE [UNIQUE] INDEX name ON table (…) [WHERE …]` of the staging file, for the new schema. */
function translateIndex(sqlText: string, schema: string): string {
  const m = /^CREATE\s+(UNIQUE\s+)?INDEX\s+(\w+)\s+ON\s+(\w+)\s*(\(.*)$/is.exec(sqlText.trim());
  if (!m) throw new Error(`cannot translate index: ${sqlText}`);
  return `CREATE ${m[1] ?? ''}INDEX ${ident(m[2])} ON ${schema}.${ident(m[3])} ${m[4]}`;
}

/** A fresh schema name: sorts by time, unique per process. */
export function newSchemaName(): string {
  return `wq_${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}_${process.pid}`;
}

/**
 * Load the finished staging file into a new schema of the database at `url` and make it the served
 * import. Only one publication runs at a time per database (an advisory lock).
 */
export async function publishToPostgres(
  stagingFile: string,
  url: string,
  opts: PublishOptions,
): Promise<{ schema: string; previous: string | null }> {
  const db = new Database(stagingFile, { readonly: true, fileMustExist: true });
  const sql = connect(url, { max: 2 });
  const name = newSchemaName();
  const schema = quoteSchema(name);
  try {
    await ensureCatalog(sql);
    const lock = await sql.reserve();
    try {
      await lock.unsafe(`SELECT pg_advisory_lock(hashtext('wikiquery import'))`);
      await sql.unsafe(`CREATE SCHEMA ${schema}`);
      const t0 = Date.now();
      let total = 0;
      for (const table of stagingTables(db)) {
        opts.checkAbort?.();
        const cols = columnsOf(db, table);
        await sql.unsafe(
          `CREATE TABLE ${schema}.${ident(table)} (${cols.map((c) => `${ident(c.name)} ${pgType(table, c)}${c.notnull ? ' NOT NULL' : ''}`).join(', ')})`,
        );
        total += await copyTable(db, sql, schema, table, cols);
        const pk = cols.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
        if (pk.length)
          await sql.unsafe(`ALTER TABLE ${schema}.${ident(table)} ADD PRIMARY KEY (${pk.map((c) => ident(c.name)).join(', ')})`);
        // UNIQUE column constraints (SQLite's automatic indexes)
        for (const idx of db.pragma(`index_list(${ident(table)})`) as Array<{ name: string; unique: number; origin: string }>) {
          if (idx.origin !== 'u') continue;
          const icols = (db.pragma(`index_info(${ident(idx.name)})`) as Array<{ name: string }>).map((c) => ident(c.name));
          await sql.unsafe(`ALTER TABLE ${schema}.${ident(table)} ADD UNIQUE (${icols.join(', ')})`);
        }
      }
      opts.log(`postgres: ${total} rows copied into ${name} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
      const t1 = Date.now();
      const indexes = db
        .prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL AND tbl_name IN (SELECT value FROM json_each(?))")
        .pluck()
        .all(JSON.stringify(stagingTables(db))) as string[];
      for (const ix of indexes) {
        opts.checkAbort?.();
        await sql.unsafe(translateIndex(ix, schema));
      }
      for (const extra of POSTGRES_TABLES) {
        opts.checkAbort?.();
        await extra.build({ staging: db, sql, schema, log: opts.log });
      }
      await sql.unsafe(`ANALYZE`);
      opts.log(`postgres: ${indexes.length} indexes and statistics in ${((Date.now() - t1) / 1000).toFixed(1)} s`);
      await opts.beforeSwitch?.();
      const previous = await switchServed(sql, {
        schema: name,
        importId: String(db.prepare("SELECT value FROM meta WHERE key = 'import_id'").pluck().get() ?? ''),
      });
      opts.log(`postgres: serving ${name}${previous ? ` (was ${previous.schema})` : ''}`);
      return { schema: name, previous: previous?.schema ?? null };
    } catch (e) {
      await sql.unsafe(`DROP SCHEMA IF EXISTS ${schema} CASCADE`).catch(() => {});
      throw e;
    } finally {
      await lock.unsafe(`SELECT pg_advisory_unlock(hashtext('wikiquery import'))`).catch(() => {});
      lock.release();
    }
  } finally {
    db.close();
    await sql.end({ timeout: 5 });
  }
}
