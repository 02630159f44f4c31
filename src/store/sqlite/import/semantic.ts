/**
 * The SQL of the Semantic MediaWiki import (importer/semantic-hook.ts decides what is written): staged
 * annotations, subjects and properties during pass 2, typed values and the autocompletion index at the
 * end. Tables and indexes: semantic-schema.ts.
 */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { printCompletionAnswer } from '../../../semantic/completion-answer.js';
import { AC_ID_STRIDE, HEAVY_ROWS, SEMANTIC_INDEXES, SEMANTIC_SCHEMA, SEMANTIC_STAGING } from '../semantic-schema.js';
import type { CompletionIndexCounts, SemanticImportWriter, SemanticValue, TitleRef } from '../../import-writer.js';
import { RowBuffer } from './row-buffer.js';
import { refreshSemanticStatistics } from '../semantic-statistics.js';
import { removeDbFiles, withSortMemory } from './build-db.js';

/** the autocompletion tables a completion worker fills */
const AC_TABLES = ['smw_ac_value', 'smw_ac_word', 'smw_ac_node'];
const WORD_STAGE_SQL = 'CREATE TABLE smw_ac_word_stage (s INTEGER, k TEXT, v INTEGER)';

/** the CREATE TABLE statement of a table of SEMANTIC_SCHEMA */
export function semanticTableSql(table: string): string {
  const m = new RegExp(`CREATE TABLE ${table} \\([^;]*\\)[^;]*;`).exec(SEMANTIC_SCHEMA);
  if (!m) throw new Error(`${table}: not in SEMANTIC_SCHEMA`);
  return m[0];
}

/** the tables of a completion worker's file: the ones it fills, its input and its scratch table */
export function completionWorkerSchema(): string {
  return [...AC_TABLES, 'smw_ac_stage'].map(semanticTableSql).join('\n') + WORD_STAGE_SQL + ';';
}

/** what the completion worker (completion-worker.ts) is started with */
export interface CompletionWorkerData {
  /** the aux file */
  file: string;
  /** URL of the module exporting buildCompletionIndex */
  build: string;
  heavyRows: number;
}

interface Background {
  worker: Worker;
  result: Promise<CompletionIndexCounts>;
  done: (r: CompletionIndexCounts) => void;
  /** the thread has ended (join() would not wait) */
  ended: boolean;
}

type Stmts = Record<
  'propGet' | 'propAdd' | 'typeDecl' | 'redirect' | 'staged' | 'acValues' | 'node' | 'top' | 'words' | 'wordsFirst',
  Database.Statement
>;

export class SqliteSemanticImportWriter implements SemanticImportWriter {
  readonly heavyRows = HEAVY_ROWS;
  private stmts: Partial<Stmts> = {};
  private buffers: { subject?: RowBuffer; stage?: RowBuffer; value?: RowBuffer; acStage?: RowBuffer; wordStage?: RowBuffer } = {};
  /** the id of the next subject added (addSubject) */
  private nextSubject: number | null = null;
  private background: Background | null = null;

  /**
   * @param auxFile where buildCompletionIndex's worker builds the index (the tables are copied in by
   *   join()); the worker's own writer has none
   */
  constructor(
    private readonly db: Database.Database,
    private readonly auxFile?: string,
  ) {}

  /** statements are prepared on first use: their tables exist only from begin() (and some later) */
  private st(name: keyof Stmts, sql: string, pluck = false): Database.Statement {
    let s = this.stmts[name];
    if (s === undefined) {
      s = this.db.prepare(sql);
      if (pluck) s = s.pluck();
      this.stmts[name] = s;
    }
    return s;
  }

  begin(): void {
    this.db.exec(SEMANTIC_SCHEMA);
  }

  propertyId(key: string): number | undefined {
    return this.st('propGet', 'SELECT sp_id FROM smw_property WHERE sp_key = ?', true).get(key) as number | undefined;
  }

  addProperty(key: string, type: string): number {
    return Number(this.st('propAdd', 'INSERT INTO smw_property (sp_key, sp_type) VALUES (?, ?)').run(key, type).lastInsertRowid);
  }

  declareType(property: number, type: string): void {
    this.st('typeDecl', 'INSERT OR REPLACE INTO smw_type_decl (sd_property, sd_type) VALUES (?, ?)').run(property, type);
  }

  addSubject(ns: number, dbkey: string, subobject: string, sortkey: string): number {
    // the id an INSERT without one would give (the largest + 1: nothing else writes the table meanwhile),
    // so that the rows can be queued and go in many at a time
    this.nextSubject ??= this.db.prepare('SELECT COALESCE(MAX(ss_id), 0) + 1 FROM smw_subject').pluck().get() as number;
    const id = this.nextSubject++;
    (this.buffers.subject ??= new RowBuffer(
      this.db,
      'INSERT INTO smw_subject (ss_id, ss_namespace, ss_title, ss_subobject, ss_sortkey) VALUES',
      5,
    )).add(id, ns, dbkey, subobject, sortkey);
    return id;
  }

  stage(subject: number, property: number, kind: number, text: string): void {
    (this.buffers.stage ??= new RowBuffer(this.db, 'INSERT INTO smw_stage (st_subject, st_property, st_kind, st_text) VALUES', 4)).add(
      subject,
      property,
      kind,
      text,
    );
  }

  renumberProperty(from: number, to: number): void {
    this.buffers.value?.flush();
    this.db.prepare('UPDATE smw_value SET sv_property = ? WHERE sv_property = ?').run(to, from);
  }

  resolveTypes(): Array<{ id: number; key: string; type: string }> {
    this.buffers.stage?.flush();
    // the last [[Has type::…]] of the property's page; Page when none
    this.db.exec(`UPDATE smw_property SET sp_type = (SELECT sd_type FROM smw_type_decl WHERE sd_property = sp_id)
             WHERE sp_id IN (SELECT sd_property FROM smw_type_decl) AND substr(sp_key, 1, 1) <> '_'`);
    return this.db.prepare('SELECT sp_id AS id, sp_key AS key, sp_type AS type FROM smw_property').all() as Array<{
      id: number;
      key: string;
      type: string;
    }>;
  }

  stagedRows(afterRow: number, limit: number): Array<{ row: number; subject: number; property: number; kind: number; text: string }> {
    const s = this.st(
      'staged',
      'SELECT rowid AS row, st_subject AS subject, st_property AS property, st_kind AS kind, st_text AS text FROM smw_stage WHERE rowid > ? ORDER BY rowid LIMIT ?',
    );
    return s.all(afterRow, limit) as Array<{ row: number; subject: number; property: number; kind: number; text: string }>;
  }

  redirectTarget(t: TitleRef): TitleRef | undefined {
    const s = this.st(
      'redirect',
      `SELECT r.rd_namespace AS ns, r.rd_title AS dbkey FROM page p JOIN redirect r ON r.rd_from = p.page_id
       WHERE p.page_namespace = ? AND p.page_title = ? AND p.page_is_redirect = 1`,
    );
    return s.get(t.ns, t.dbkey) as TitleRef | undefined;
  }

  batch(fn: () => void): void {
    this.db.transaction(fn)();
  }

  addValue(...value: SemanticValue): void {
    (this.buffers.value ??= new RowBuffer(
      this.db,
      'INSERT INTO smw_value (sv_subject, sv_property, sv_seq, sv_type, sv_item, sv_ns, sv_key, sv_num) VALUES',
      8,
    )).add(...value);
  }

  addCompletionValue(source: number, value: string): void {
    (this.buffers.acStage ??= new RowBuffer(this.db, 'INSERT INTO smw_ac_stage (as_source, as_value) VALUES', 2)).add(source, value);
  }

  endStaging(): void {
    const db = this.db;
    this.buffers.subject?.flush();
    this.buffers.value?.flush();
    this.buffers.acStage?.flush();
    this.buffers.subject = this.buffers.stage = this.buffers.value = this.buffers.acStage = undefined;
    this.nextSubject = null;
    db.exec('DROP TABLE smw_stage');
  }

  valueSubjects(): void {
    const db = this.db;
    // subjects that are only values (SMW has an id for every page it has seen), numbered in order of
    // first use. The unique index drops the repeats: a DISTINCT would keep a second B-tree of every value
    // seen (in a temp file at 1,000,000 pages: 7.5 of this step's 10 CPU s) for the same rows, the same ids.
    withSortMemory(db, () => db.exec(SEMANTIC_INDEXES.split(';')[0]));
    db.exec(`INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
             SELECT sv_ns, sv_key, '', replace(sv_key, '_', ' ') FROM smw_value WHERE sv_ns IS NOT NULL`);
    const cats = db.prepare("SELECT sp_id FROM smw_property WHERE sp_key IN ('_INST', '_SUBC')").pluck().all() as number[];
    for (const c of cats) {
      db.prepare(
        `INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
         SELECT DISTINCT 14, t, '', replace(t, '_', ' ') FROM (SELECT substr(sv_item, 1, instr(sv_item, '#') - 1) AS t FROM smw_value WHERE sv_property = ?)`,
      ).run(c);
    }
  }

  /**
   * The distinct completion values of each source in byte order (page titles are the namespace
   * sources), numbered in that order and kept as shown so that no request rewrites them; the staged
   * values dropped. (On the completion worker's file.)
   */
  completionValuesFromStage(): void {
    const db = this.db;
    db.exec(`INSERT INTO smw_ac_value (av_id, av_source, av_value)
             SELECT ROW_NUMBER() OVER (ORDER BY as_source, as_value) * ${AC_ID_STRIDE}, as_source, replace(as_value, '_', ' ')
             FROM smw_ac_stage GROUP BY as_source, as_value ORDER BY as_source, as_value`);
    db.exec('DROP TABLE smw_ac_stage');
  }

  /**
   * The staged values and the page titles are copied into the aux file (sequential copies), and a
   * worker thread makes the distinct values and runs `build` over that file while this connection goes
   * on with the rest of the import (the tail of an import is serial SQL on one connection: the second
   * core is free); join() copies the tables back.
   */
  buildCompletionIndex(build: string, heavyRows: number, done: (result: CompletionIndexCounts) => void): void {
    if (this.auxFile === undefined) throw new Error('buildCompletionIndex: this writer has no file to build the index in');
    const db = this.db;
    const file = this.auxFile;
    removeDbFiles(file);
    db.prepare('ATTACH ? AS ac').run(file);
    try {
      db.unsafeMode(true);
      db.pragma('ac.journal_mode = OFF');
      db.unsafeMode(false);
      db.pragma('ac.synchronous = OFF');
      db.exec(completionWorkerSchema().replace(/CREATE TABLE /g, 'CREATE TABLE ac.'));
      db.exec('INSERT INTO ac.smw_ac_stage SELECT * FROM main.smw_ac_stage');
      db.exec('INSERT INTO ac.smw_ac_stage (as_source, as_value) SELECT -1 - page_namespace, page_title FROM main.page');
    } finally {
      db.exec('DETACH ac');
    }
    db.exec('DROP TABLE smw_ac_stage');
    const worker = new Worker(new URL('./completion-worker.js', import.meta.url), {
      workerData: { file, build, heavyRows } satisfies CompletionWorkerData,
    });
    const result = new Promise<CompletionIndexCounts>((resolve, reject) => {
      let got: CompletionIndexCounts | null = null;
      worker.once('message', (m: CompletionIndexCounts) => (got = m));
      worker.once('error', reject);
      worker.once('exit', (code) => {
        bg.ended = true;
        if (got !== null) resolve(got);
        else reject(new Error(`the autocompletion index worker stopped (exit code ${code})`));
      });
    });
    // joined later; a failure meanwhile must not be an unhandled rejection
    result.catch(() => {});
    const bg: Background = { worker, result, done, ended: false };
    this.background = bg;
  }

  /** Wait for buildCompletionIndex's worker and copy its tables in (before the indexes and ANALYZE). */
  async join(): Promise<void> {
    const bg = this.background;
    if (bg === null) return;
    this.background = null;
    const counts = await bg.result;
    const db = this.db;
    db.prepare('ATTACH ? AS ac').run(this.auxFile!);
    try {
      db.transaction(() => {
        // in primary key order: each copy appends to its B-tree
        for (const t of AC_TABLES) db.exec(`INSERT INTO main.${t} SELECT * FROM ac.${t}`);
      })();
    } finally {
      db.exec('DETACH ac');
    }
    removeDbFiles(this.auxFile!);
    bg.done(counts);
  }

  /** the autocompletion tables, which join() fills */
  readonly completionTables: readonly string[] = AC_TABLES;

  /** buildCompletionIndex's worker was started and not joined */
  building(): boolean {
    return this.background !== null;
  }

  /** buildCompletionIndex's worker has ended, not joined yet */
  builtUnjoined(): boolean {
    return this.background?.ended === true;
  }

  /** stop the worker (the import is abandoned) */
  abort(): void {
    if (this.background !== null) void this.background.worker.terminate();
    this.background = null;
    if (this.auxFile !== undefined) removeDbFiles(this.auxFile);
  }

  completionValues(afterId: number, limit: number): Array<[id: number, source: number, value: string]> {
    const s = this.st('acValues', 'SELECT av_id, av_source, av_value FROM smw_ac_value WHERE av_id > ? ORDER BY av_id LIMIT ?').raw();
    return s.all(afterId, limit) as Array<[number, number, string]>;
  }

  addWordKey(source: number, key: string, valueId: number): void {
    (this.buffers.wordStage ??= new RowBuffer(this.db, 'INSERT INTO smw_ac_word_stage (s, k, v) VALUES', 3)).add(source, key, valueId);
  }

  endWordKeys(): number {
    this.buffers.wordStage?.flush();
    this.buffers.wordStage = undefined;
    const n = this.db
      .prepare('INSERT OR IGNORE INTO smw_ac_word (aw_source, aw_key, aw_value) SELECT s, k, v FROM smw_ac_word_stage ORDER BY s, k, v')
      .run().changes;
    this.db.exec('DROP TABLE smw_ac_word_stage');
    return n;
  }

  wordKeys(after: [number, string, number] | null, limit: number): Array<[source: number, key: string, value: number]> {
    // rows as arrays: 10 million of them at 1,000,000 pages, and named rows cost a property set per column
    if (after === null) {
      const s = this.st(
        'wordsFirst',
        'SELECT aw_source, aw_key, aw_value FROM smw_ac_word ORDER BY aw_source, aw_key, aw_value LIMIT ?',
      ).raw();
      return s.all(limit) as Array<[number, string, number]>;
    }
    const s = this.st(
      'words',
      `SELECT aw_source, aw_key, aw_value FROM smw_ac_word
       WHERE (aw_source, aw_key, aw_value) > (?, ?, ?) ORDER BY aw_source, aw_key, aw_value LIMIT ?`,
    ).raw();
    return s.all(after[0], after[1], after[2], limit) as Array<[number, string, number]>;
  }

  addHeavyPrefix(source: number, key: string, topValues: number[]): void {
    const texts = this.st('top', 'SELECT av_value FROM json_each(?) j JOIN smw_ac_value ON av_id = j.value ORDER BY j.key', true).all(
      JSON.stringify(topValues),
    ) as string[];
    const printed = printCompletionAnswer(texts);
    this.st('node', 'INSERT INTO smw_ac_node (an_source, an_key, an_values, an_json) VALUES (?, ?, ?, ?)').run(
      source,
      key,
      printed.utf8,
      printed.ascii,
    );
  }

  finish(): void {
    withSortMemory(this.db, () => {
      for (const sql of SEMANTIC_INDEXES.split(';').slice(1)) if (sql.trim()) this.db.exec(sql);
    });
    for (const t of SEMANTIC_STAGING) this.db.exec(`DROP TABLE IF EXISTS ${t}`);
    refreshSemanticStatistics(this.db);
  }
}
