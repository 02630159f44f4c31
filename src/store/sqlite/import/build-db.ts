/**
 * The database under construction: opened with bulk-load settings (no journal, no fsync, a big page
 * cache), tables created up front and the secondary indexes of the schema created later, after the
 * rows they index are in (building a B-tree from sorted input is much faster than keeping it up to
 * date row by row). The final file nevertheless has every index of SCHEMA: `createIndexes()` is
 * called with no filter before the import ends.
 */
import fs from 'node:fs';
import os from 'node:os';
import Database from 'better-sqlite3';
import { SCHEMA } from '../schema.js';

interface SchemaIndex {
  name: string;
  table: string;
  sql: string;
}

function splitSchema(): { tables: string[]; indexes: SchemaIndex[] } {
  const statements = SCHEMA.replace(/--[^\n]*/g, '')
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  const tables: string[] = [];
  const indexes: SchemaIndex[] = [];
  for (const sql of statements) {
    const m = /^CREATE\s+(?:UNIQUE\s+)?INDEX\s+(\w+)\s+ON\s+(\w+)/i.exec(sql);
    if (m) indexes.push({ name: m[1], table: m[2], sql });
    else tables.push(sql);
  }
  return { tables, indexes };
}

/**
 * The page cache of the build connection while it sorts (CREATE INDEX, INSERT … ORDER BY). SQLite's
 * sorter keeps up to cache_size bytes of records in memory and merge-sorts them as one linked list:
 * with the 256 MiB cache that is a list of millions of records scattered over a quarter GiB, whose
 * merge passes miss the CPU caches at nearly every step (at 1,000,000 pages the index builds spent most
 * of their time there). With 4 MiB the sorter sorts cache-sized runs, writes them to temp files and
 * merges those sequentially: the three categorylinks indexes at 1,000,000 pages took 3.0 CPU s instead
 * of 7.4, and the sorter holds 4 MiB instead of up to 256.
 */
const SORT_CACHE_KIB = 4096;

/**
 * Run `fn` (statements that sort) with the sorter's memory bounded to SORT_CACHE_KIB, then give the
 * connection its page cache back (pages dropped meanwhile are read again from the OS as needed).
 */
export function withSortMemory<T>(db: Database.Database, fn: () => T): T {
  const before = db.pragma('main.cache_size', { simple: true }) as number;
  db.pragma(`main.cache_size = -${SORT_CACHE_KIB}`);
  try {
    return fn();
  } finally {
    db.pragma(`main.cache_size = ${before}`);
  }
}

/** rows of each index ANALYZE samples (PRAGMA analysis_limit) */
const ANALYSIS_LIMIT = 1000;

export class BuildDb {
  readonly db: Database.Database;
  private readonly pending: SchemaIndex[];

  constructor(readonly file: string) {
    const { tables, indexes } = splitSchema();
    this.pending = indexes;
    this.db = new Database(file);
    // A half-built file is thrown away on any failure, so durability buys nothing here. (better-sqlite3
    // opens connections in SQLite's defensive mode, which refuses journal_mode=OFF: lift it for that.)
    this.db.unsafeMode(true);
    this.db.pragma('journal_mode = OFF');
    this.db.unsafeMode(false);
    this.db.pragma('synchronous = OFF');
    this.db.pragma('locking_mode = EXCLUSIVE');
    this.db.pragma('cache_size = -262144'); // 256 MiB
    this.db.pragma('temp_store = FILE'); // big sorts (index builds, GROUP BY) spill to disk, not RAM
    for (const sql of tables) this.db.exec(sql);
  }

  /**
   * Let other connections (the importer's analysis workers) read the file while this one writes: WAL
   * mode, in which a reader's snapshot never blocks a commit and a commit never blocks a read (the
   * rollback-journal modes would make each wait for the other, and throw away every reader's cache
   * at every commit). Until stopSharing().
   */
  shareForReading(): void {
    this.db.pragma('locking_mode = NORMAL');
    // NORMAL takes effect when the lock is next released: a read transaction does that
    this.db.prepare('SELECT COUNT(*) FROM meta').get();
    this.db.pragma('journal_mode = WAL');
    // checkpoints copy the log into the file: fewer, bigger ones copy a page rewritten often once
    this.db.pragma('wal_autocheckpoint = 16384');
  }

  /** Back to the bulk-load settings, the readers gone (the log is checkpointed and removed). */
  stopSharing(): void {
    this.db.unsafeMode(true);
    this.db.pragma('journal_mode = OFF');
    this.db.unsafeMode(false);
    this.db.pragma('locking_mode = EXCLUSIVE');
  }

  /**
   * While nothing else of the import runs (`on`), SQLite's sorter may use helper threads (PRAGMA threads:
   * one per other core): it sorts and writes one batch of records while the statement makes the next,
   * and merges them in parallel. Beside another busy thread it would only take that thread's core
   * (and costs more CPU in all), hence off otherwise.
   */
  spreadSorts(on: boolean): void {
    this.db.pragma(`threads = ${on ? Math.max(0, os.availableParallelism() - 1) : 0}`);
  }

  /** Create the schema's deferred indexes, all of them or those of some tables. */
  createIndexes(tables?: string[]): void {
    withSortMemory(this.db, () => {
      for (const idx of [...this.pending]) {
        if (tables && !tables.includes(idx.table)) continue;
        this.db.exec(idx.sql);
        this.pending.splice(this.pending.indexOf(idx), 1);
      }
    });
  }

  /** tables whose planner statistics analyze() gathered (finish() gathers the others') */
  private readonly analyzed = new Set<string>();

  /**
   * Planner statistics (see finish()) of the main database's tables with every index built, but those
   * of `exclude`, that have none yet: they must be final (no row or index changes afterwards), as a
   * whole-database ANALYZE at the end would see them (the same sqlite_stat1 rows, table by table).
   */
  analyze(exclude: ReadonlySet<string>): void {
    const pending = new Set(this.pending.map((i) => i.table));
    this.db.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
    for (const table of this.tables()) {
      if (exclude.has(table) || pending.has(table) || this.analyzed.has(table)) continue;
      this.db.exec(`ANALYZE main."${table}"`);
      this.analyzed.add(table);
    }
  }

  /** the main database's ordinary tables (ANALYZE skips the others: virtual tables, its own) */
  private tables(): string[] {
    return this.db
      .prepare(
        "SELECT name FROM main.sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
  }

  /** Tables that still have indexes to create, in schema order. */
  pendingTables(): string[] {
    return [...new Set(this.pending.map((i) => i.table))];
  }

  /** Indexes of SCHEMA not created yet (the import must end with none). */
  pendingIndexes(): string[] {
    return this.pending.map((i) => i.name);
  }

  /**
   * Statistics for the query planner, then close; the file is complete after this. Only sqlite_stat1's:
   * with sqlite_stat4 samples SQLite plans with the bound values of parameters compared to indexed
   * columns and prepares such a statement again whenever they are bound -- on every call (3-14 µs each at
   * 1,000,000 pages) -- while every statement of the read side is an index seek or an ordered range scan
   * with stat1 alone.
   */
  finish(step?: (name: string) => void): void {
    step?.('indexes: the rest');
    this.createIndexes();
    step?.('ANALYZE');
    // Row-count estimates from a sample of each index: a full ANALYZE reads every row of every index
    // (~1 CPU s per 100,000 pages); the planner's choices for the store's statements (seeks on the
    // indexes they name) are the same with the estimates (EXPLAIN QUERY PLAN compared at 1,000,000 pages).
    this.db.pragma(`analysis_limit = ${ANALYSIS_LIMIT}`);
    if (this.analyzed.size === 0) this.db.exec('ANALYZE');
    else this.analyze(new Set());
    // (a sampling ANALYZE writes none; an older SQLite might)
    this.db.exec('DELETE FROM sqlite_stat4');
    step?.('close, fsync');
    this.db.close();
    // synchronous=OFF left the pages to the OS; make them durable before the rename publishes them
    const fd = fs.openSync(this.file, 'r+');
    try {
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  }

  /**
   * Close a staging file another store copies from: the remaining indexes exist (the copy reads some
   * tables through them), but no statistics and no fsync -- the file is thrown away after the copy.
   */
  finishStaging(): void {
    this.createIndexes();
    this.db.close();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** Remove a temporary database and the side files SQLite may have made next to it. */
export function removeDbFiles(file: string): void {
  for (const f of [file, `${file}-journal`, `${file}-wal`, `${file}-shm`]) {
    try {
      fs.unlinkSync(f);
    } catch {
      // not there
    }
  }
}
