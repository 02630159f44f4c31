/**
 * The SQLite UpdateWriter: the incremental writes of `import --update` and `follow` on the served file
 * itself, in WAL mode (a `serve` reading the same file keeps its snapshot until a batch has committed).
 * Each area's writes are in a file of their own, as the import's writers are (pages.ts, history.ts,
 * links.ts, search.ts, files.ts, semantic.ts); here: the transaction, the stored position and site, the
 * statistics, the refresh queue and the reports.
 */
import Database from 'better-sqlite3';
import { buildReports } from '../import/reports.js';
import { REDIRECTS_TO_SQL } from '../import/pages-writer.js';
import type { TitleRef } from '../../import-writer.js';
import type { SiteStatistics } from '../../site-store.js';
import type { SemanticUpdateWriter, StoredPage, StoredPosition, StoredSite, UpdateWriter } from '../../update-writer.js';
import type { Store } from '../../store.js';
import { storeOn } from '../index.js';
import { Db } from '../db.js';
import { type PageUpdates, sqlitePageUpdates } from './pages.js';
import { sqliteHistoryUpdates } from './history.js';
import { sqliteCategoryUpdates, sqliteLinkUpdates } from './links.js';
import { sqliteSearchUpdates } from './search.js';
import { sqliteFileUpdates, sqliteMessageUpdates } from './files.js';
import { SqliteSemanticUpdateWriter } from './semantic.js';
import type { ChangeCapture } from './capture.js';

export type { ChangeCapture } from './capture.js';

/** the refresh queue (MediaWiki's refreshLinks jobs): made by the first update of an imported file */
const QUEUE_SQL = 'CREATE TABLE IF NOT EXISTS refresh_queue (rq_page INTEGER PRIMARY KEY)';

/** The writer of an SQLite file; with `capture`, of the local replica of another database. */
export function openSqliteUpdateWriter(file: string, capture?: ChangeCapture): UpdateWriter {
  return new SqliteUpdateWriter(file, capture);
}

class SqliteUpdateWriter implements UpdateWriter {
  private readonly db: Database.Database;
  private readonly s: Record<string, Database.Statement>;
  private readonly pageUpdates: PageUpdates;
  readonly pages: UpdateWriter['pages'];
  readonly uploads: UpdateWriter['uploads'];
  readonly history: UpdateWriter['history'];
  readonly links: UpdateWriter['links'];
  readonly categories: UpdateWriter['categories'];
  readonly search: UpdateWriter['search'];
  private readonly searchUpdates: ReturnType<typeof sqliteSearchUpdates>;
  readonly parserCache: UpdateWriter['parserCache'];
  readonly files: UpdateWriter['files'];
  readonly messages: UpdateWriter['messages'];
  readonly refreshQueue: UpdateWriter['refreshQueue'];
  readonly semantic: SemanticUpdateWriter | null;

  constructor(
    readonly location: string,
    private readonly capture?: ChangeCapture,
  ) {
    const db = (this.db = new Database(location, { fileMustExist: true, timeout: 60000 }));
    // readers keep their snapshot while a batch is written; a batch is durable when it has committed
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -65536');
    db.exec(QUEUE_SQL);
    capture?.attach(db);
    const p = (sql: string) => db.prepare(sql);
    const s = (this.s = {
      newestRev: p('SELECT MAX(rev_timestamp) FROM revision').pluck(),
      newestLog: p('SELECT MAX(log_timestamp) FROM logging').pluck(),
      meta: p('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: p('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      pcDrop: p('DELETE FROM parser_cache WHERE pc_page = ?'),
      queueTl: p('INSERT OR IGNORE INTO refresh_queue (rq_page) SELECT tl_from FROM templatelinks WHERE tl_namespace = ? AND tl_title = ?'),
      queueIl: p('INSERT OR IGNORE INTO refresh_queue (rq_page) SELECT il_from FROM imagelinks WHERE il_to = ?'),
      queuePl: p(
        'INSERT OR IGNORE INTO refresh_queue (rq_page) SELECT pl_from FROM pagelinks INDEXED BY pl_backlinks_namespace WHERE pl_namespace = ? AND pl_title = ?',
      ),
      queue: p('INSERT OR IGNORE INTO refresh_queue (rq_page) VALUES (?)'),
      take: p('SELECT rq_page FROM refresh_queue ORDER BY rq_page LIMIT ?').pluck(),
      unqueue: p('DELETE FROM refresh_queue WHERE rq_page = ?'),
      queueSize: p('SELECT COUNT(*) FROM refresh_queue').pluck(),
      redirectsTo: p(REDIRECTS_TO_SQL).pluck(),
    });
    this.pageUpdates = sqlitePageUpdates(db);
    this.pages = this.pageUpdates.pages;
    this.uploads = this.pageUpdates.uploads;
    this.history = sqliteHistoryUpdates(db);
    this.links = sqliteLinkUpdates(db);
    this.categories = sqliteCategoryUpdates(db);
    this.searchUpdates = sqliteSearchUpdates(db, capture);
    this.search = this.searchUpdates;
    this.parserCache = { drop: (page) => void s.pcDrop.run(page) };
    this.files = sqliteFileUpdates(db);
    this.messages = sqliteMessageUpdates(db);
    const hasSemantic = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'smw_value'").pluck().get() !== undefined;
    this.semantic = hasSemantic ? new SqliteSemanticUpdateWriter(db) : null;
    this.refreshQueue = {
      enqueueTranscluders: (t) => s.queueTl.run(t.ns, t.dbkey).changes,
      enqueueFileUsers: (name) => s.queueIl.run(name).changes,
      enqueueLinkers: (t) => s.queuePl.run(t.ns, t.dbkey).changes,
      enqueue: (page) => void s.queue.run(page),
      take: (limit) => s.take.all(limit) as number[],
      done: (pages) => {
        for (const p of pages) s.unqueue.run(p);
      },
      size: () => s.queueSize.get() as number,
    };
  }

  /** a new Store each time: what the serving stores keep (property types, site facts) is of one state */
  readStore(): Store {
    return storeOn(
      new Db(this.db),
      async () => (this.db.pragma('page_count', { simple: true }) as number) * (this.db.pragma('page_size', { simple: true }) as number),
      () => {},
    );
  }

  redirectsTo(t: TitleRef): string[] {
    return this.s.redirectsTo.all(t.ns, t.dbkey) as string[];
  }

  site(): StoredSite {
    const info = JSON.parse(this.s.meta.get('siteinfo') as string) as { sitename: string; lang: string };
    const namespaces = this.db
      .prepare('SELECT ns_id AS id, ns_name AS name, ns_canonical AS canonical, ns_case AS "case" FROM namespace ORDER BY ns_id')
      .all() as StoredSite['namespaces'];
    return { siteName: info.sitename, lang: (this.s.meta.get('lang') as string | undefined) ?? info.lang, namespaces };
  }

  begin(): void | Promise<void> {
    if (this.capture === undefined) return this.beginNow();
    return this.capture.beforeBegin().then(() => this.beginNow());
  }

  private beginNow(): void {
    this.pageUpdates.forgetUploads();
    this.db.exec('BEGIN IMMEDIATE');
  }

  commit(): void | Promise<void> {
    this.searchUpdates.settle();
    this.capture?.beforeCommit();
    this.db.exec('COMMIT');
    this.pageUpdates.forgetUploads();
    return this.capture?.afterCommit();
  }

  rollback(): void {
    this.searchUpdates.forget();
    this.pageUpdates.forgetUploads();
    if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  close(): void {
    if (this.db.open) {
      this.rollback();
      this.db.close();
    }
    this.capture?.close();
  }

  position(): StoredPosition | null {
    const v = this.s.meta.get('upstream_position') as string | undefined;
    return v === undefined ? null : (JSON.parse(v) as StoredPosition);
  }

  setPosition(p: StoredPosition): void {
    this.s.setMeta.run('upstream_position', JSON.stringify({ api: p.api, timestamp: p.timestamp, rcid: p.rcid, logid: p.logid }));
  }

  newestChange(): string | null {
    const rev = this.s.newestRev.get() as string | null;
    const log = this.s.newestLog.get() as string | null;
    if (rev === null) return log;
    return log !== null && log > rev ? log : rev;
  }

  page(id: number): StoredPage | undefined {
    return this.pageUpdates.page(id);
  }

  settlePageHistory(id: number): void {
    this.pageUpdates.settlePageHistory(id);
  }

  statistics(): SiteStatistics {
    return JSON.parse((this.s.meta.get('statistics') as string | undefined) ?? '{}') as SiteStatistics;
  }

  writeStatistics(stats: SiteStatistics): void {
    this.s.setMeta.run('statistics', JSON.stringify(stats));
  }

  rebuildReports(): void {
    buildReports(this.db);
  }
}
