/**
 * A PostgreSQL database kept current by the incremental path (`follow`, `import --update`). The updater
 * writes a local SQLite replica of the served schema -- the staging file its import was built in, kept
 * (`import --staging FILE`) -- as it writes an SQLite database: its analysis reads templates, links and
 * semantic data by the hundred per page, which over a network would each be a round trip, and it shares
 * every statement with the SQLite store. Each batch is then copied into PostgreSQL:
 *
 * - inside the batch's SQLite transaction, triggers of this connection (TEMP: the file's schema is
 *   untouched) record the key of every row a batch inserts, changes or deletes in `replica_change`, and
 *   the search index's rows added and removed go to `replica_search` (the contentless FTS5 index cannot be
 *   read back);
 * - after the SQLite commit, one PostgreSQL transaction deletes those keys' rows and copies the replica's
 *   rows of them (replayed by key: copying a key twice gives the same rows), brings the search tables'
 *   postings, documents and sizes along, and notifies the serving nodes (LISTEN wikiquery_change);
 * - once that has committed, the records are removed. A crash in between leaves them: the next batch
 *   (or the next opening) copies them first, so nothing is lost and nothing doubled.
 *
 * Each batch counts `replica_seq` up in meta, and meta is copied like every table: a replica whose count is
 * not PostgreSQL's is not the file the last update wrote, and is refused.
 */
import type Database from 'better-sqlite3';
import type postgres from 'postgres';
import type { Sql } from './db.js';
import { columnsOf, copyInto, ident, stagingTables, type Column } from './publish.js';
import { docsOf, postingsOf } from './search-index.js';
import { CHANGE_CHANNEL, type ChangeListener } from './watch.js';

type Tx = postgres.TransactionSql<any>;

/** meta keys: the schema the file is a replica of, and the batches copied into it */
export const REPLICA_SCHEMA_KEY = 'replica_schema';
export const REPLICA_SEQ_KEY = 'replica_seq';

const CAPTURE_SQL = `CREATE TABLE IF NOT EXISTS replica_change (rc_seq INTEGER PRIMARY KEY, rc_table TEXT NOT NULL, rc_key TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS replica_search (rs_page INTEGER PRIMARY KEY, rs_old TEXT, rs_new TEXT)`;

/** tables without a primary key, copied by the page their rows belong to */
const GROUP_KEY: Record<string, string> = { search_title: 'st_page', search_title_lemma: 'stl_page' };

/** how long a copied batch waits for its own announcement to come back at most */
const ECHO_WAIT_MS = 2000;

/** keys deleted and copied per statement */
const KEY_CHUNK = 1000;

interface TablePlan {
  name: string;
  columns: Column[];
  /** the key columns: the primary key, or the page column of a table without one */
  key: Column[];
}

/** Thrown when the replica and PostgreSQL are not of one state: the message says how to make them so. */
export class ReplicaMismatch extends Error {}

export class PostgresReplica {
  private db!: Database.Database;
  private plans: TablePlan[] = [];
  private s!: Record<string, Database.Statement>;
  /** replica_seq as PostgreSQL has it after this replica's last copy (null: not copied yet) */
  private copied: number | null = null;

  /**
   * @param tables the tables of the served schema (what is not among them, the updater's own queue say, stays local)
   */
  constructor(
    private readonly sql: Sql,
    /** the served schema, quoted */
    private readonly schema: string,
    private readonly schemaName: string,
    private readonly tables: ReadonlySet<string>,
    /** this schema's announcements, as a serving node hears them */
    private readonly echo: ChangeListener,
  ) {}

  attach(db: Database.Database): void {
    this.db = db;
    db.exec(CAPTURE_SQL);
    // an INSERT OR REPLACE deletes the row it replaces through the delete triggers too
    db.pragma('recursive_triggers = ON');
    for (const name of stagingTables(db)) {
      if (!this.tables.has(name)) continue;
      const columns = columnsOf(db, name);
      const pk = columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
      const group = GROUP_KEY[name];
      const key = pk.length > 0 ? pk : columns.filter((c) => c.name === group);
      if (key.length === 0) throw new Error(`${name}: a table without a key cannot be copied row by row`);
      this.plans.push({ name, columns, key });
      const of = (row: string) => `json_array(${key.map((c) => `${row}.${ident(c.name)}`).join(', ')})`;
      const record = (row: string) => `INSERT INTO main.replica_change (rc_table, rc_key) VALUES ('${name}', ${of(row)});`;
      const t = ident(name);
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${ident(`wq_replica_i_${name}`)} AFTER INSERT ON main.${t} BEGIN ${record('NEW')} END;
        CREATE TEMP TRIGGER IF NOT EXISTS ${ident(`wq_replica_d_${name}`)} AFTER DELETE ON main.${t} BEGIN ${record('OLD')} END;
        CREATE TEMP TRIGGER IF NOT EXISTS ${ident(`wq_replica_u_${name}`)} AFTER UPDATE ON main.${t} BEGIN ${record('OLD')} ${record('NEW')} END;`);
    }
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      changes: p('SELECT rc_table, rc_key FROM replica_change GROUP BY rc_table, rc_key ORDER BY rc_table').raw(),
      lastChange: p('SELECT MAX(rc_seq) FROM replica_change').pluck(),
      changesDone: p('DELETE FROM replica_change WHERE rc_seq <= ?'),
      search: p('SELECT rs_page, rs_old, rs_new FROM replica_search ORDER BY rs_page').raw(),
      searchDone: p('DELETE FROM replica_search WHERE rs_page IN (SELECT value FROM json_each(?))'),
      searchOld: p('SELECT rs_old FROM replica_search WHERE rs_page = ?').pluck(),
      searchPut: p(
        `INSERT INTO replica_search (rs_page, rs_old, rs_new) VALUES (?, ?, ?)
         ON CONFLICT (rs_page) DO UPDATE SET rs_new = excluded.rs_new`,
      ),
      seq: p(`SELECT value FROM meta WHERE key = '${REPLICA_SEQ_KEY}'`).pluck(),
      setSeq: p(`INSERT OR REPLACE INTO meta (key, value) VALUES ('${REPLICA_SEQ_KEY}', ?)`),
    };
  }

  /** A page's search row as the batch leaves it: the first removal keeps what PostgreSQL has (rs_old). */
  searchRow(page: number, columns: readonly string[], added: boolean): void {
    const json = JSON.stringify(columns);
    const pending = this.s.searchOld.get(page) as string | null | undefined;
    // a row removed before any other change of this page is what PostgreSQL holds
    const old = pending !== undefined ? pending : added ? null : json;
    this.s.searchPut.run(page, old, added ? json : null);
  }

  /** the schema the file is a replica of (written when the import that made it published it) */
  storedSchema(): string | undefined {
    return this.db.prepare(`SELECT value FROM meta WHERE key = '${REPLICA_SCHEMA_KEY}'`).pluck().get() as string | undefined;
  }

  /** the batches this replica has taken */
  sequence(): number {
    return Number((this.s.seq.get() as string | undefined) ?? '0');
  }

  beforeCommit(): void {
    this.s.setSeq.run(String(this.sequence() + 1));
  }

  /** PostgreSQL found at `seq` batches, as this replica is: later copies check it has not moved meanwhile */
  copiedAt(seq: number): void {
    this.copied = seq;
  }

  /** replica_seq as PostgreSQL holds it */
  async storedSequence(): Promise<number> {
    const [row] = await this.sql.unsafe(`SELECT value FROM ${this.schema}.meta WHERE key = $1`, [REPLICA_SEQ_KEY]);
    return Number(row?.value ?? '0');
  }

  /** The recorded changes copied into PostgreSQL in one transaction, then forgotten here. */
  async replay(): Promise<void> {
    const last = this.s.lastChange.get() as number | null;
    const search = this.s.search.all() as Array<[number, string | null, string | null]>;
    if (last === null && search.length === 0) return;
    const byTable = new Map<string, string[]>();
    for (const [table, key] of this.s.changes.all() as Array<[string, string]>) {
      let keys = byTable.get(table);
      if (keys === undefined) byTable.set(table, (keys = []));
      keys.push(key);
    }
    const heard = this.echo.count;
    await this.sql.begin(async (tx) => {
      const served = await tx.unsafe('SELECT schema_name FROM wikiquery.served FOR SHARE');
      if (served.length === 0 || served[0].schema_name !== this.schemaName)
        throw new ReplicaMismatch(
          `PostgreSQL now serves ${served[0]?.schema_name ?? 'nothing'}, not ${this.schemaName} (a new import): make the replica again with import --staging`,
        );
      // another writer of this schema (a second follower, a replica of another copy) is refused
      const [copied] = await tx.unsafe(`SELECT value FROM ${this.schema}.meta WHERE key = $1 FOR UPDATE`, [REPLICA_SEQ_KEY]);
      const at = Number(copied?.value ?? '0');
      if (this.copied !== null && at !== this.copied)
        throw new ReplicaMismatch(
          `PostgreSQL has taken ${at} batches, this replica copied it at ${this.copied}: another writer updates it`,
        );
      for (const plan of this.plans) {
        const keys = byTable.get(plan.name);
        if (keys !== undefined) await this.copyRows(tx, plan, keys);
      }
      if (search.length > 0) await this.copySearch(tx, search);
      await tx.unsafe('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, this.schemaName]);
    });
    this.copied = this.sequence();
    if (last !== null) this.s.changesDone.run(last);
    if (search.length > 0) this.s.searchDone.run(JSON.stringify(search.map((r) => r[0])));
    // once the announcement has come back, PostgreSQL has sent it to every serving node too: a reader told
    // that the batch is in finds the nodes past it
    await this.echo.past(heard, ECHO_WAIT_MS);
  }

  /** the rows of `keys` (JSON arrays of the key columns) in PostgreSQL made the replica's */
  private async copyRows(tx: Tx, plan: TablePlan, keys: string[]): Promise<void> {
    const table = `${this.schema}.${ident(plan.name)}`;
    const keyCols = plan.key.map((c) => ident(c.name)).join(', ');
    const casts = plan.key.map((c, i) => `$${i + 1}::${c.type === 'INTEGER' ? 'bigint' : 'text'}[]`).join(', ');
    const select = this.db.prepare(
      `SELECT ${plan.columns.map((c) => ident(c.name)).join(', ')} FROM main.${ident(plan.name)}
       WHERE (${keyCols}) IN (SELECT ${plan.key.map((_, i) => `json_extract(value, '$[${i}]')`).join(', ')} FROM json_each(?))`,
    );
    const chunks: unknown[][][] = [];
    for (let i = 0; i < keys.length; i += KEY_CHUNK) chunks.push(keys.slice(i, i + KEY_CHUNK).map((k) => JSON.parse(k) as unknown[]));
    // every changed key's row goes before any is copied: a unique title or name may pass from one key to another
    for (const chunk of chunks) {
      const params = plan.key.map((_, j) => chunk.map((k) => k[j]));
      await tx.unsafe(`DELETE FROM ${table} WHERE (${keyCols}) IN (SELECT * FROM unnest(${casts}))`, params as never[]);
    }
    for (const chunk of chunks) {
      const rows = select.raw().all(JSON.stringify(chunk)) as unknown[][];
      if (rows.length > 0) await copyInto(tx, table, plan.columns, rows);
    }
  }

  /**
   * The search tables (search_posting, search_doc, search_size: search-index.ts) of the pages whose row
   * changed: the postings of the rows PostgreSQL had and of the new ones are made by FTS5 itself, in a
   * temporary index of search_index's own definition, so the terms are those the replica's index holds.
   */
  private async copySearch(tx: Tx, pages: Array<[number, string | null, string | null]>): Promise<void> {
    const ids = pages.map((p) => p[0]);
    const old = this.tokenize(pages.map((p) => [p[0], p[1]]));
    const now = this.tokenize(pages.map((p) => [p[0], p[2]]));
    const terms: string[] = [];
    const termPages: number[] = [];
    for (const [term, page] of [...old.postings, ...now.postings]) {
      terms.push(term);
      termPages.push(page);
    }
    const s = this.schema;
    const [gone] = await tx.unsafe(
      `SELECT count(*) AS n, coalesce(sum(sd_len), 0) AS len FROM ${s}.search_doc WHERE sd_page = ANY($1::bigint[])`,
      [ids],
    );
    await tx.unsafe(`DELETE FROM ${s}.search_doc WHERE sd_page = ANY($1::bigint[])`, [ids]);
    for (let i = 0; i < terms.length; i += KEY_CHUNK * 10) {
      await tx.unsafe(`DELETE FROM ${s}.search_posting WHERE (sp_term, sp_page) IN (SELECT * FROM unnest($1::text[], $2::bigint[]))`, [
        terms.slice(i, i + KEY_CHUNK * 10),
        termPages.slice(i, i + KEY_CHUNK * 10),
      ]);
    }
    if (now.postings.length > 0)
      await copyInto(
        tx,
        `${s}.search_posting`,
        ['sp_term', 'sp_page', 'sp_cols', 'sp_pos'],
        now.postings.map(([term, page, cols, pos]) => [term, page, cols, `{${pos.join(',')}}`]),
      );
    let tokens = 0;
    for (const d of now.docs) tokens += d[2];
    if (now.docs.length > 0) await copyInto(tx, `${s}.search_doc`, ['sd_page', 'sd_ns', 'sd_len'], now.docs);
    await tx.unsafe(`UPDATE ${s}.search_size SET ss_rows = ss_rows + $1, ss_tokens = ss_tokens + $2`, [
      now.docs.length - Number(gone.n),
      tokens - Number(gone.len),
    ]);
  }

  /** postings and documents of the given rows (JSON arrays of search_index's column values; null: none) */
  private tokenize(rows: Array<[number, string | null]>): {
    postings: Array<[string, number, number, number[]]>;
    docs: Array<[number, number, number]>;
  } {
    const db = this.db;
    const definition = db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'search_index'").pluck().get() as string;
    const made = definition.replace(/CREATE\s+VIRTUAL\s+TABLE\s+("?)search_index\1/i, 'CREATE VIRTUAL TABLE temp.wq_replica_tok');
    db.exec('DROP TABLE IF EXISTS temp.wq_replica_tok_vocab; DROP TABLE IF EXISTS temp.wq_replica_tok');
    db.exec(made);
    try {
      db.exec('CREATE VIRTUAL TABLE temp.wq_replica_tok_vocab USING fts5vocab(temp, wq_replica_tok, instance)');
      const insert = db.prepare(
        'INSERT INTO temp.wq_replica_tok (rowid, ns, title, redirects, text, ltitle, lredirects, ltext) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      );
      for (const [page, json] of rows) if (json !== null) insert.run(page, ...(JSON.parse(json) as string[]));
      const nsOf = new Map<number, number>();
      const postings = [...postingsOf(db, 'temp.wq_replica_tok_vocab', nsOf)];
      const docs = [...docsOf(db, 'temp.wq_replica_tok_docsize', nsOf)];
      return { postings, docs };
    } finally {
      db.exec('DROP TABLE IF EXISTS temp.wq_replica_tok_vocab; DROP TABLE IF EXISTS temp.wq_replica_tok');
    }
  }
}
