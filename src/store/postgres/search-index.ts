/**
 * The PostgreSQL twin of SQLite's FTS5 index `search_index`, built at publication from the staging
 * file's own index, so both stores search exactly the same tokens:
 *
 *  - search_posting: one row per (term, page) of the title, redirects and text columns and their lemma
 *    columns: a bitmask of the columns the term is in (bit 1 title, 2 redirects, 3 text, 4-6 the lemmas
 *    of title, redirects and text) and its positions, each encoded as
 *    column * 2^28 + token offset in that column (ascending: FTS5's (column, offset) order; p and p + 1
 *    are adjacent tokens of one column, never across columns);
 *  - search_doc: per page, its namespace (the `ns` column's `n<ns>` token) and its length in tokens over
 *    all seven columns (FTS5's xColumnSize(-1), what BM25 compares with the average);
 *  - search_size: the row count and the token total of the whole index (xRowCount, xColumnTotalSize(-1)).
 *
 * Terms are read through fts5vocab's `instance` table (term, doc, column, offset) rather than folded
 * again from the text: the importer's markup stripping needs the site's configuration, and FTS5's own
 * terms (truncated at FTS5_MAX_TOKEN_SIZE like the query side does) are by definition the ones SQLite
 * matches.
 */
import type Database from 'better-sqlite3';
import type { Writable } from 'node:stream';
import { writeToCopy } from './copy-stream.js';
import type { Sql } from './db.js';

/** What extra-tables.ts gives a builder (its ExtraTableContext). */
export interface SearchTablesContext {
  staging: Database.Database;
  sql: Sql;
  /** the new schema, quoted */
  schema: string;
  log: (line: string) => void;
}

/** Positions: column * POS_COLUMN + offset (columns 1..6 fit a PostgreSQL integer). */
export const POS_COLUMN = 2 ** 28;
/** FTS5 column numbers of search_index (ns, title, redirects, text, and their lemmas). */
const COLUMN: Record<string, number> = { ns: 0, title: 1, redirects: 2, text: 3, ltitle: 4, lredirects: 5, ltext: 6 };

function copyText(v: string): string {
  return v.replace(/[\\\t\n\r]/g, (c) => (c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r'));
}

async function openCopy(
  ctx: SearchTablesContext,
  table: string,
  cols: string,
): Promise<{ put(line: string): Promise<void>; end(): Promise<void> }> {
  const stream = (await ctx.sql.unsafe(`COPY ${ctx.schema}.${table} (${cols}) FROM STDIN`).writable()) as Writable;
  const finished = new Promise<void>((resolve, reject) => {
    stream.once('finish', resolve);
    stream.once('error', reject);
  });
  let buf = '';
  const flush = async () => {
    const chunk = buf;
    buf = '';
    await writeToCopy(stream, chunk);
  };
  return {
    async put(line: string) {
      buf += line;
      if (buf.length >= 1 << 20) await flush();
    },
    async end() {
      if (buf) await flush();
      stream.end();
      await finished;
    },
  };
}

/** The sum of the column sizes of an FTS5 docsize record (one SQLite varint per column). */
function docLength(sz: Buffer): number {
  let total = 0;
  let i = 0;
  while (i < sz.length) {
    let v = 0;
    for (let n = 0; i < sz.length; n++) {
      const byte = sz[i++];
      if (n === 8) {
        v = v * 256 + byte;
        break;
      }
      v = v * 128 + (byte & 0x7f);
      if (!(byte & 0x80)) break;
    }
    total += v;
  }
  return total;
}

function hasSearchIndex(db: Database.Database): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'search_index_docsize'").get() !== undefined;
}

/**
 * The postings of an FTS5 index read through its fts5vocab `instance` table `vocab`: [term, page, the
 * bitmask of its columns, its positions ascending], term by term, then page by page; each page's
 * namespace (its `ns` token) goes into `nsOf`.
 */
export function* postingsOf(
  db: Database.Database,
  vocab: string,
  nsOf: Map<number, number>,
): Generator<[term: string, page: number, cols: number, pos: number[]]> {
  let term: string | null = null;
  let page = -1;
  let cols = 0;
  let pos: number[] = [];
  // instance rows come term by term, then by document, column and offset
  const rows = db.prepare(`SELECT term, doc, col, "offset" FROM ${vocab}`).raw().iterate() as IterableIterator<
    [string, number, string, number]
  >;
  for (const [t, doc, colName, offset] of rows) {
    const col = COLUMN[colName];
    if (col === undefined) throw new Error(`search index: unexpected column ${colName}`);
    if (col === 0) {
      nsOf.set(doc, Number(t.slice(1)));
      continue;
    }
    if (offset >= POS_COLUMN - 1) throw new Error(`search index: page ${doc} has a column of more than ${POS_COLUMN - 1} tokens`);
    if (t !== term || doc !== page) {
      if (term !== null && pos.length > 0) yield [term, page, cols, pos.sort((a, b) => a - b)];
      term = t;
      page = doc;
      cols = 0;
      pos = [];
    }
    cols |= 1 << col;
    pos.push(col * POS_COLUMN + offset);
  }
  if (term !== null && pos.length > 0) yield [term, page, cols, pos.sort((a, b) => a - b)];
}

/** Each page of an FTS5 index with its namespace (from postingsOf's `nsOf`) and its length in tokens, by page id. */
export function* docsOf(
  db: Database.Database,
  docsize: string,
  nsOf: Map<number, number>,
): Generator<[page: number, ns: number, len: number]> {
  for (const [id, sz] of db.prepare(`SELECT id, sz FROM ${docsize} ORDER BY id`).raw().iterate() as IterableIterator<[number, Buffer]>) {
    const ns = nsOf.get(id);
    if (ns === undefined) throw new Error(`search index: page ${id} has no namespace token`);
    yield [id, ns, docLength(sz)];
  }
}

export async function buildSearchTables(ctx: SearchTablesContext): Promise<void> {
  const { staging: db, sql, schema } = ctx;
  const t0 = Date.now();
  await sql.unsafe(
    `CREATE TABLE ${schema}.search_posting (sp_term text COLLATE "C" NOT NULL, sp_page bigint NOT NULL, sp_cols integer NOT NULL, sp_pos integer[] NOT NULL)`,
  );
  await sql.unsafe(`CREATE TABLE ${schema}.search_doc (sd_page bigint PRIMARY KEY, sd_ns bigint NOT NULL, sd_len bigint NOT NULL)`);
  await sql.unsafe(`CREATE TABLE ${schema}.search_size (ss_rows bigint NOT NULL, ss_tokens bigint NOT NULL)`);
  const nsOf = new Map<number, number>();
  let postings = 0;
  if (hasSearchIndex(db)) {
    // the vocabulary table is a view of the index: temp, so the read-only staging file is not written
    db.exec('CREATE VIRTUAL TABLE IF NOT EXISTS temp.wq_search_vocab USING fts5vocab(main, search_index, instance)');
    const copy = await openCopy(ctx, 'search_posting', 'sp_term, sp_page, sp_cols, sp_pos');
    for (const [term, page, cols, pos] of postingsOf(db, 'temp.wq_search_vocab', nsOf)) {
      postings++;
      await copy.put(`${copyText(term)}\t${page}\t${cols}\t{${pos.join(',')}}\n`);
    }
    await copy.end();
    db.exec('DROP TABLE temp.wq_search_vocab');
  }
  let rows = 0;
  let tokens = 0;
  if (hasSearchIndex(db)) {
    const copy = await openCopy(ctx, 'search_doc', 'sd_page, sd_ns, sd_len');
    for (const [id, ns, len] of docsOf(db, 'search_index_docsize', nsOf)) {
      rows++;
      tokens += len;
      await copy.put(`${id}\t${ns}\t${len}\n`);
    }
    await copy.end();
  }
  await sql.unsafe(`INSERT INTO ${schema}.search_size (ss_rows, ss_tokens) VALUES ($1, $2)`, [rows, tokens]);
  // INCLUDE: the column filter of a term is checked in the index, without visiting the positions
  await sql.unsafe(`ALTER TABLE ${schema}.search_posting ADD PRIMARY KEY (sp_term, sp_page) INCLUDE (sp_cols)`);
  ctx.log(`postgres: search index of ${rows} pages, ${postings} postings in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
