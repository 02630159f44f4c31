/** The tables the import derives from the finished ones: categories, site statistics, the reports. */
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { removeDbFiles } from './build-db.js';
import { REPORT_SOURCE_TABLES } from './reports.js';
import type { ReportsWorkerData } from './reports-worker.js';
import { NS_CATEGORY } from '../../../wiki/namespaces.js';
import type { SiteStatistics } from '../../site-store.js';
import type { DerivedImportWriter, IndexArea, ReportOptions, ReportsDone } from '../../import-writer.js';

/**
 * Derived tables, computed by SQL over the finished link tables (set-based: nothing here grows with
 * the wiki in JS memory).
 */
export class DerivedTablesWriter implements DerivedImportWriter {
  private background: { worker: Worker; result: Promise<ReportsDone>; ended: boolean } | null = null;

  /**
   * @param file the build file, which the reports' thread reads
   * @param sideFile where that thread writes the reports (copied in by joinReports())
   * @param sharing the build file in WAL mode while the thread reads it (BuildDb.shareForReading)
   */
  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly sideFile: string,
    private readonly sharing: { start: () => void; stop: () => void },
  ) {}

  /**
   * `category`: one row per category that has members or a description page, as recountCategories.php
   * leaves it: cat_pages counts every member (pages, subcategories and files), cat_subcats and cat_files
   * the two kinds, cat_hidden whether the category page carries __HIDDENCAT__.
   */
  categories(): number {
    const db = this.db;
    db.transaction(() => {
      // cl_to order (the cl_to_sortkey index) gives cat_id in name order, like a fresh recount
      db.exec(`
        INSERT INTO category (cat_title, cat_pages, cat_subcats, cat_files)
        SELECT cl_to, COUNT(*), SUM(cl_type = 'subcat'), SUM(cl_type = 'file')
        FROM categorylinks GROUP BY cl_to ORDER BY cl_to`);
      db.prepare('INSERT OR IGNORE INTO category (cat_title) SELECT page_title FROM page WHERE page_namespace = ? ORDER BY page_title').run(
        NS_CATEGORY,
      );
      db.prepare(
        `UPDATE category SET cat_hidden = 1 WHERE cat_title IN (
           SELECT p.page_title FROM page_props pp JOIN page p ON p.page_id = pp.pp_page
           WHERE pp.pp_propname = 'hiddencat' AND p.page_namespace = ?)`,
      ).run(NS_CATEGORY);
    })();
    return this.categoryCount();
  }

  categoryCount(): number {
    return this.db.prepare('SELECT COUNT(*) FROM category').pluck().get() as number;
  }

  /**
   * Site statistics as initSiteStats.php computes them ($wgArticleCountMethod = 'link': a content page
   * that is no redirect and links somewhere). A dump has no user table, groups or job queue: those are 0.
   */
  statistics(): SiteStatistics {
    const one = (sql: string) => this.db.prepare(sql).pluck().get() as number;
    return {
      pages: one('SELECT COUNT(*) FROM page'),
      // in page id order: the pl_from seeks walk their index in order (an index of page gives random
      // page ids; at 1,000,000 pages 1.4 → 0.4 CPU s)
      articles: one(
        'SELECT COUNT(*) FROM page NOT INDEXED WHERE page_namespace = 0 AND page_is_redirect = 0 AND EXISTS (SELECT 1 FROM pagelinks WHERE pl_from = page_id)',
      ),
      edits: one('SELECT COALESCE(SUM(page_rev_count), 0) FROM page'),
      images: one('SELECT COUNT(*) FROM image'),
      users: 0,
      activeusers: 0,
      admins: 0,
      jobs: 0,
    };
  }

  /** stored as JSON in meta('statistics'), in the shape of SiteStatistics (src/store/site-store.ts) */
  writeStatistics(stats: SiteStatistics): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('statistics', ?)").run(JSON.stringify(stats));
  }

  /** what the reports read: this connection writes none of them between startReports and joinReports */
  readonly reportSources: readonly IndexArea[] = REPORT_SOURCE_TABLES;

  /**
   * The reports on a thread of their own (reports-worker.ts) beside this connection's rest of the tail
   * (the reports were 19 s of a serial tail of 66 s at 1,000,000 pages). The thread reads the build file
   * in WAL mode meanwhile; the tables it reads must be complete and must stay as they are until
   * joinReports(): this connection may go on writing others, not those (createIndexes refuses them).
   */
  startReports(opts: ReportOptions = {}): void {
    if (this.background !== null) throw new Error('startReports: the reports are being built already');
    const maxRows = opts.maxRows ?? null;
    if (maxRows !== null && (!Number.isInteger(maxRows) || maxRows < 0))
      throw new Error(`buildReports: maxRows must be a non-negative integer, got ${maxRows}`);
    removeDbFiles(this.sideFile);
    this.sharing.start();
    const t0 = performance.now();
    let worker: Worker;
    try {
      worker = new Worker(new URL('./reports-worker.js', import.meta.url), {
        workerData: { file: this.file, side: this.sideFile, maxRows } satisfies ReportsWorkerData,
      });
    } catch (e) {
      this.sharing.stop();
      throw e;
    }
    const result = new Promise<ReportsDone>((resolve, reject) => {
      let done = false;
      let rows = 0;
      let failure: unknown = null;
      worker.on('message', (m: 'done' | { name: string; rows: number; seconds: number }) => {
        if (m === 'done') done = true;
        else {
          rows += m.rows;
          opts.onReport?.(m.name, m.rows, m.seconds);
        }
      });
      worker.once('error', (e) => (failure = e));
      // settled on exit only: the thread's connection to the build file is closed by then, so that the
      // sharing can end (leaving WAL mode needs the file to itself)
      worker.once('exit', (code) => {
        bg.ended = true;
        if (done && failure === null) resolve({ rows, seconds: (performance.now() - t0) / 1000 });
        else reject(failure ?? new Error(`the reports worker stopped (exit code ${code})`));
      });
    });
    // joined later; a failure meanwhile must not be an unhandled rejection
    result.catch(() => {});
    const bg = { worker, result, ended: false };
    this.background = bg;
  }

  reportsEnded(): boolean {
    return this.background === null || this.background.ended;
  }

  /** Wait for startReports' thread, end the sharing and copy the reports in (before ANALYZE). */
  async joinReports(): Promise<ReportsDone> {
    const bg = this.background;
    if (bg === null) throw new Error('joinReports: no reports were started');
    let done: ReportsDone;
    try {
      done = await bg.result;
    } finally {
      this.background = null;
      // the reader is gone (the thread has ended either way): back to the bulk-load settings
      this.sharing.stop();
    }
    const db = this.db;
    db.prepare('ATTACH ? AS reports').run(this.sideFile);
    try {
      db.transaction(() => {
        // the tables are empty and their definitions the same: a bare INSERT … SELECT * copies the
        // records as they are, in key order (SQLite's transfer optimisation; an ORDER BY would lose it)
        db.exec('INSERT INTO main.querycache SELECT * FROM reports.querycache');
        db.exec('INSERT INTO main.querycache_info SELECT * FROM reports.querycache_info');
      })();
    } finally {
      db.exec('DETACH reports');
    }
    removeDbFiles(this.sideFile);
    return done;
  }

  /** the reports' thread is running (startReports, not joined yet) */
  reportsRunning(): boolean {
    return this.background !== null;
  }

  /** stop the thread (the import is abandoned) */
  abort(): void {
    if (this.background !== null) void this.background.worker.terminate();
    this.background = null;
    removeDbFiles(this.sideFile);
  }
}
