/**
 * The SQLite ImportWriter: the area writers (one file each in this folder) over one build database, and
 * the build's life: its tables' indexes, statistics and publication. The database is built in a
 * temporary file next to the target (FILE.tmp-<pid>, bulk-load settings: build-db.ts) and renamed onto
 * FILE by `finish()`; `abort()` removes it. Temporary files of imports that were killed outright
 * (SIGKILL, a crash) are removed when the next import into the same FILE opens its writer.
 */
import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { BuildDb, removeDbFiles } from './build-db.js';
import { DerivedTablesWriter } from './derived-writer.js';
import { FilesWriter } from './files-writer.js';
import { HistoryWriter } from './history-writer.js';
import { LinksWriter } from './links-writer.js';
import { MessagesWriter } from './messages-writer.js';
import { PagesWriter, REDIRECTS_TO_SQL } from './pages-writer.js';
import { ParserCacheWriter } from './parser-cache-writer.js';
import { SearchIndexWriter } from './search-writer.js';
import { UploadsWriter } from './uploads-writer.js';
import { SCHEMA_VERSION } from '../schema.js';
import { databaseProblem, Db } from '../db.js';
import { storeOn } from '../index.js';
import { REPORT_TABLES } from './reports.js';
import { SqliteSemanticImportWriter } from './semantic.js';
import type { ImportWriter, IndexArea, SiteMeta, Store, TitleRef } from '../../import-writer.js';

/**
 * What stands at an import target: null when an import may replace it (nothing there, or a wikiquery
 * database, of any schema version), else why not.
 */
export function sqliteImportTargetProblem(file: string): string | null {
  const st = fs.statSync(file, { throwIfNoEntry: false });
  if (st?.isDirectory()) return `is a directory; give the database file's path (e.g. ${path.join(file, 'wiki.sqlite')})`;
  if (st) {
    const problem = databaseProblem(file);
    if (problem !== null && !problem.startsWith('imported by another wikiquery version')) return `${problem}; refusing to replace it`;
  }
  const dir = path.dirname(path.resolve(file));
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return `directory ${dir} does not exist`;
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    return `directory ${dir} is not writable`;
  }
  return null;
}

/**
 * Remove FILE.tmp-<pid> files (and SQLite's side files) left by imports into FILE whose process is gone:
 * a killed import cannot clean up after itself, and each left its partial database behind (22–282 MB).
 * A file whose process still runs is another import at work and is left alone.
 */
export function sweepStaleTemporaryFiles(db: string, log: (line: string) => void): void {
  const dir = path.dirname(path.resolve(db));
  const base = path.basename(db);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(base + '.tmp-')) continue;
    const m = /^(\d+)(?:-ac|-reports)?(-journal|-wal|-shm)?$/.exec(name.slice(base.length + 5));
    if (!m) continue;
    const pid = Number(m[1]);
    if (pid === process.pid || processExists(pid)) continue;
    try {
      fs.unlinkSync(path.join(dir, name));
      if (!m[2]) log(`removed ${name}, left by an import (process ${pid}) that was killed`);
    } catch {
      // gone already, or not ours to remove
    }
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, under another user
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function openSqliteImportWriter(file: string, opts: { log: (line: string) => void }): SqliteImportWriter {
  const tmp = `${file}.tmp-${process.pid}`;
  removeDbFiles(tmp);
  sweepStaleTemporaryFiles(file, opts.log);
  return new SqliteImportWriter(file, tmp);
}

/**
 * A writer whose SQLite file is the staging area of another store's import: `publish` copies the
 * finished file there (see src/store/postgres/publish.ts); the file is removed afterwards.
 */
export function openSqliteStagingWriter(
  location: string,
  stagingFile: string,
  publish: (file: string, beforePublish?: () => Promise<void>) => Promise<void>,
): SqliteImportWriter {
  removeDbFiles(stagingFile);
  return new SqliteImportWriter(location, stagingFile, publish);
}

export class SqliteImportWriter implements ImportWriter {
  private build: BuildDb | null;
  private readonly db: Database.Database;
  readonly site: { write(meta: SiteMeta): void };
  readonly pages: PagesWriter;
  readonly uploads: UploadsWriter;
  readonly history: HistoryWriter;
  readonly files: FilesWriter;
  readonly messages: MessagesWriter;
  readonly links: LinksWriter;
  readonly derived: DerivedTablesWriter;
  readonly semantic: SqliteSemanticImportWriter;
  readonly search: SearchIndexWriter;
  readonly parserCache: ParserCacheWriter;
  private reader: Store | null = null;

  /**
   * @param publish when set, the finished file is a staging file handed to another store (PostgreSQL)
   *   instead of being renamed onto `location`; it is removed afterwards
   */
  constructor(
    readonly location: string,
    private readonly tmp: string,
    private readonly publish?: (file: string, beforePublish?: () => Promise<void>) => Promise<void>,
  ) {
    this.build = new BuildDb(tmp);
    const db = (this.db = this.build.db);
    this.site = { write: (meta) => this.writeSite(meta) };
    this.pages = new PagesWriter(db, this.build);
    this.uploads = new UploadsWriter(db);
    this.history = new HistoryWriter(db);
    this.files = new FilesWriter(db);
    this.messages = new MessagesWriter(db);
    this.links = new LinksWriter(db);
    this.derived = new DerivedTablesWriter(db, tmp, `${tmp}-reports`, {
      start: () => this.live().shareForReading(),
      stop: () => this.build?.stopSharing(),
    });
    this.semantic = new SqliteSemanticImportWriter(db, `${tmp}-ac`);
    this.search = new SearchIndexWriter(db);
    this.parserCache = new ParserCacheWriter(db);
  }

  /** the serving Store on this connection: it sees every write at once, and is closed with the writer */
  readStore(): Store {
    this.live();
    if (!this.reader) {
      const db = this.db;
      this.reader = storeOn(
        new Db(db),
        async () => (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number),
        () => {},
      );
    }
    return this.reader;
  }

  private writeSite(m: SiteMeta): void {
    const meta = this.db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    const nsRow = this.db.prepare('INSERT INTO namespace (ns_id, ns_name, ns_canonical, ns_case) VALUES (?, ?, ?, ?)');
    this.db.transaction(() => {
      meta.run('schema_version', String(SCHEMA_VERSION));
      meta.run('siteinfo', JSON.stringify(m.siteinfo));
      meta.run('lang', m.lang);
      meta.run('import_time', m.importTime);
      meta.run('import_id', m.importId);
      for (const n of m.namespaces) nsRow.run(n.id, n.name, n.canonical ?? null, n.case);
    })();
  }

  shareForReading(): string {
    this.live().shareForReading();
    return this.tmp;
  }

  stopSharing(): void {
    this.live().stopSharing();
  }

  private redirectsToStmt: Database.Statement | null = null;

  redirectsTo(t: TitleRef): string[] {
    this.redirectsToStmt ??= this.db.prepare(REDIRECTS_TO_SQL).pluck();
    return this.redirectsToStmt.all(t.ns, t.dbkey) as string[];
  }

  begin(): void {
    this.db.exec('BEGIN');
  }

  commit(): void {
    this.search.beforeCommit();
    this.db.exec('COMMIT');
  }

  rollback(): void {
    this.search.discardQueued();
    if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  /** an area is a table of the schema here */
  createIndexes(table: IndexArea): void {
    if (this.derived.reportsRunning() && this.derived.reportSources.includes(table)) {
      throw new Error(`indexes of ${table}: the reports' thread is reading it (after joinReports)`);
    }
    this.live().createIndexes([table]);
  }

  pendingIndexAreas(): IndexArea[] {
    return this.live().pendingTables();
  }

  useIdleCores(on: boolean): void {
    this.live().spreadSorts(on);
  }

  async finishEarly(later: readonly IndexArea[]): Promise<void> {
    // the autocompletion tables' copy-in (one core, ~9 s at 1,000,000 pages) when their thread is done
    if (this.semantic.builtUnjoined()) await this.semantic.join();
    // a staging file gets no statistics (finishStaging): the store it is copied to gathers its own
    if (this.publish) return;
    const exclude = new Set<string>(later);
    // what the writer fills itself later: the reports' tables at their join, the autocompletion tables at
    // the semantic join (in finish())
    if (this.derived.reportsRunning()) for (const t of REPORT_TABLES) exclude.add(t);
    if (this.semantic.building()) for (const t of this.semantic.completionTables) exclude.add(t);
    this.live().analyze(exclude);
  }

  async finish(beforePublish?: () => Promise<void>, step?: (name: string) => void): Promise<void> {
    const build = this.live();
    if (this.derived.reportsRunning()) throw new Error('finish: the reports were started and not joined');
    step?.('semantic: ac index joined');
    await this.semantic.join();
    if (this.publish) {
      step?.('staging indexes');
      build.finishStaging();
      this.build = null;
      step?.('publish');
      try {
        await this.publish(this.tmp, beforePublish);
      } finally {
        removeDbFiles(this.tmp);
      }
      return;
    }
    build.finish(step);
    this.build = null;
    await beforePublish?.();
    step?.('rename');
    fs.renameSync(this.tmp, this.location);
  }

  abort(): void {
    this.semantic.abort();
    this.derived.abort();
    this.build?.close();
    this.build = null;
    removeDbFiles(this.tmp);
  }

  private live(): BuildDb {
    if (this.build === null) throw new Error(`${this.location}: the import writer is closed`);
    return this.build;
  }
}
