/**
 * The SQLite ImportWriter: every statement an import runs, in one place. The database is built in a
 * temporary file next to the target (FILE.tmp-<pid>, bulk-load settings: build-db.ts) and renamed onto
 * FILE by `finish()`; `abort()` removes it. Temporary files of imports that were killed outright
 * (SIGKILL, a crash) are removed when the next import into the same FILE opens its writer.
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { BuildDb, removeDbFiles, withSortMemory } from './build-db.js';
import { HistoryWriter } from '../history-writer.js';
import { LinksWriter } from '../links-writer.js';
import { SearchIndexWriter } from '../search-writer.js';
import { SCHEMA_VERSION } from '../schema.js';
import { databaseProblem, Db } from '../db.js';
import { storeOn } from '../index.js';
import { REPORT_SOURCE_TABLES, REPORT_TABLES } from './reports.js';
import type { ReportsWorkerData } from './reports-worker.js';
import { SqliteSemanticImportWriter } from './semantic.js';
import { RowBuffer } from './row-buffer.js';
import { NS_CATEGORY, NS_FILE } from '../../../wiki/namespaces.js';
import type { InterwikiMap } from '../../../wiki/interwiki.js';
import type { SiteStatistics } from '../../site-store.js';
import type {
  CategoryLinkRow, DerivedImportWriter, FileImportWriter, ImageRow, ImportWriter, IndexArea, LinkImportWriter, MessageImportWriter,
  PageImportWriter, PageRow, ParserCacheImportWriter, Store, PageWithText, RedirectRow, ReportOptions, ReportsDone, SiteMeta, TitleRef,
  UploadFactsWriter, Uploader, LateLinks, LateLinkCounts,
} from '../../import-writer.js';

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

/**
 * Scratch table tmp_upload: upload facts (newest upload per file) from the dump, completed from
 * uploads.json and read by the file import; dropped before pass 2.
 */
const UPLOAD_TABLE_SQL = `CREATE TABLE tmp_upload (name TEXT PRIMARY KEY, user TEXT NOT NULL, user_id INTEGER NOT NULL,
  timestamp TEXT NOT NULL, comment TEXT NOT NULL) WITHOUT ROWID`;

/**
 * Pass 2's pages: a chunk in page id order, after a page id (shared with the analysis workers' reader).
 * `redirected` is a seek in redirect_target inside the statement, so that the search row asks for the
 * titles of the redirects to a page (a statement of its own) only for the few pages that have some.
 */
export const PAGE_CHUNK_SQL = `SELECT p.page_id AS id, p.page_namespace AS ns, p.page_title AS dbkey, p.page_is_redirect AS redirect,
    p.latest_timestamp AS ts, p.page_latest AS rev, p.page_content_model AS model, t.old_text AS text,
    EXISTS (SELECT 1 FROM redirect r WHERE r.rd_namespace = p.page_namespace AND r.rd_title = p.page_title) AS redirected
  FROM page p JOIN page_text t ON t.page_id = p.page_id WHERE p.page_id > ? ORDER BY p.page_id LIMIT ?`;

/** a row of PAGE_CHUNK_SQL read raw (statements prepared with .raw()): arrays are cheaper to make than named rows */
export type PageChunkRow = [id: number, ns: number, dbkey: string, redirect: number, ts: string, rev: number, model: string, text: string, redirected: number];

export function toPageWithText(r: PageChunkRow): PageWithText {
  return { id: r[0], ns: r[1], dbkey: r[2], isRedirect: r[3] === 1, latestTimestamp: r[4], latestRevId: r[5], model: r[6], text: r[7], redirected: r[8] === 1 };
}

/** The DB keys of the pages that redirect to a title, in page id order. */
export const REDIRECTS_TO_SQL = `SELECT p.page_title FROM redirect r JOIN page p ON p.page_id = r.rd_from
  WHERE r.rd_namespace = ? AND r.rd_title = ? ORDER BY r.rd_from`;

/** Template and existence lookups by title (pass 2's expansion). */
export function pageLookupStatements(db: Database.Database) {
  return {
    // page_redirect_namespace_title holds all three columns: two seeks in it (0, then 1) instead of a
    // seek in page_name and another in the table, whose rows are scattered over gigabytes at 1,000,000
    // pages (9-19 → 8-10 µs a lookup there); (namespace, title) is unique, so at most one row either way
    byTitle: db.prepare(
      'SELECT page_id AS id, page_is_redirect AS r FROM page INDEXED BY page_redirect_namespace_title WHERE page_is_redirect IN (0, 1) AND page_namespace = ? AND page_title = ?',
    ),
    redirectOf: db.prepare('SELECT rd_namespace AS ns, rd_title AS dbkey FROM redirect WHERE rd_from = ?'),
    // one seek in the redirects' part of the same index (a few percent of it, so it stays in the cache)
    // instead of byTitle's two: most titles asked for are no redirect, and their seek in the pages' part
    // missed the cache at 1,000,000 pages
    redirectTarget: db.prepare(
      `SELECT rd_namespace AS ns, rd_title AS dbkey FROM page INDEXED BY page_redirect_namespace_title JOIN redirect ON rd_from = page_id
       WHERE page_is_redirect = 1 AND page_namespace = ? AND page_title = ?`,
    ),
    textOf: db.prepare('SELECT old_text FROM page_text WHERE page_id = ?').pluck(),
  };
}

class SqlitePages implements PageImportWriter {
  private readonly insPage: Database.Statement;
  private readonly insText: Database.Statement;
  private readonly insRedirect: Database.Statement;
  private readonly latest: Database.Statement;
  private readonly delPage: Database.Statement;
  private readonly delText: Database.Statement;
  private readonly delRedirect: Database.Statement;
  private lookups: (ReturnType<typeof pageLookupStatements> & { firstRev: Database.Statement }) | null = null;

  constructor(
    private readonly db: Database.Database,
    private readonly build: BuildDb,
  ) {
    this.insPage = db.prepare(
      `INSERT INTO page (page_id, page_namespace, page_title, page_is_redirect, page_len, page_latest, page_touched,
         page_rev_count, page_content_model, first_rev_id, first_timestamp, first_user, first_user_id,
         first_len, first_sha1, first_comment, first_minor,
         latest_timestamp, latest_user, latest_user_id, latest_comment, latest_sha1, latest_minor, latest_parent_id, page_random)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insText = db.prepare('INSERT INTO page_text (page_id, old_text) VALUES (?, ?)');
    this.insRedirect = db.prepare('INSERT INTO redirect (rd_from, rd_namespace, rd_title, rd_fragment, rd_interwiki) VALUES (?, ?, ?, ?, ?)');
    this.latest = db.prepare('SELECT latest_timestamp AS timestamp, page_latest AS revId FROM page WHERE page_id = ?');
    this.delPage = db.prepare('DELETE FROM page WHERE page_id = ?');
    this.delText = db.prepare('DELETE FROM page_text WHERE page_id = ?');
    this.delRedirect = db.prepare('DELETE FROM redirect WHERE rd_from = ?');
  }

  insert(r: PageRow): boolean {
    try {
      this.insPage.run(
        r.id, r.ns, r.dbkey, r.isRedirect ? 1 : 0, r.len, r.latestRevId, r.touched, r.revisionCount, r.model,
        r.firstRevId, r.firstTimestamp, r.firstUser, r.firstUserId, r.firstLen, r.firstSha1, r.firstComment, r.firstMinor ? 1 : 0,
        r.latestTimestamp, r.latestUser, r.latestUserId, r.latestComment, r.latestSha1, r.latestMinor ? 1 : 0, r.latestParentId, r.random,
      );
      return true;
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw e;
      return false;
    }
  }

  latestOf(id: number): { timestamp: string; revId: number } {
    return this.latest.get(id) as { timestamp: string; revId: number };
  }

  remove(id: number): boolean {
    this.delPage.run(id);
    this.delText.run(id);
    return this.delRedirect.run(id).changes > 0;
  }

  insertText(id: number, text: string): void {
    this.insText.run(id, text);
  }

  insertRedirect(id: number, t: RedirectRow): void {
    this.insRedirect.run(id, t.ns, t.dbkey, t.fragment, t.interwiki);
  }

  indexTitles(): number {
    const create = () => this.build.createIndexes(['page', 'redirect']);
    try {
      create();
      return 0;
    } catch (e) {
      if (!String((e as Error).message).includes('UNIQUE')) throw e;
    }
    const db = this.db;
    db.exec('CREATE INDEX tmp_page_title ON page (page_namespace, page_title)');
    const losers = db
      .prepare(
        `SELECT p.page_id FROM page p JOIN page q ON q.page_namespace = p.page_namespace AND q.page_title = p.page_title
         WHERE q.latest_timestamp > p.latest_timestamp OR (q.latest_timestamp = p.latest_timestamp AND q.page_id > p.page_id)`,
      )
      .pluck()
      .all() as number[];
    db.exec('DROP INDEX tmp_page_title');
    db.transaction(() => {
      for (const id of losers) this.remove(id);
    })();
    create();
    return losers.length;
  }

  count(ns?: number): number {
    if (ns === undefined) return this.db.prepare('SELECT COUNT(*) FROM page').pluck().get() as number;
    return this.db.prepare('SELECT COUNT(*) FROM page WHERE page_namespace = ?').pluck().get(ns) as number;
  }

  redirectCount(): number {
    return this.db.prepare('SELECT COUNT(*) FROM redirect').pluck().get() as number;
  }

  private chunk: Database.Statement | null = null;
  private chunkLast: Database.Statement | null = null;
  private nsChunk: Database.Statement | null = null;

  chunkWithText(afterId: number, limit: number): PageWithText[] {
    this.chunk ??= this.db.prepare(PAGE_CHUNK_SQL).raw();
    return (this.chunk.all(afterId, limit) as PageChunkRow[]).map(toPageWithText);
  }

  chunkEnd(afterId: number, limit: number): number | null {
    this.chunkLast ??= this.db.prepare('SELECT MAX(page_id) FROM (SELECT page_id FROM page WHERE page_id > ? ORDER BY page_id LIMIT ?)').pluck();
    return (this.chunkLast.get(afterId, limit) as number | null) ?? null;
  }

  chunkInNamespace(ns: number, afterId: number, limit: number): PageWithText[] {
    // the page id range read in order, other namespaces' rows skipped before their texts are read: on the
    // (namespace, title) index every chunk would sort the rest of the namespace, texts and all
    this.nsChunk ??= this.db.prepare(PAGE_CHUNK_SQL.replace('WHERE p.page_id > ?', 'WHERE +p.page_namespace = ? AND p.page_id > ?')).raw();
    return (this.nsChunk.all(ns, afterId, limit) as PageChunkRow[]).map(toPageWithText);
  }

  private byIds: Database.Statement | null = null;

  withText(ids: readonly number[]): PageWithText[] {
    this.byIds ??= this.db.prepare(PAGE_CHUNK_SQL.replace('WHERE p.page_id > ? ORDER BY p.page_id LIMIT ?', 'WHERE p.page_id IN (SELECT value FROM json_each(?)) ORDER BY p.page_id')).raw();
    return (this.byIds.all(JSON.stringify(ids)) as PageChunkRow[]).map(toPageWithText);
  }

  inNamespaceWithText(ns: number): Array<{ dbkey: string; text: string; model: string }> {
    return this.db
      .prepare(
        `SELECT p.page_title AS dbkey, t.old_text AS text, p.page_content_model AS model
         FROM page p JOIN page_text t ON t.page_id = p.page_id WHERE p.page_namespace = ? ORDER BY p.page_title`,
      )
      .all(ns) as Array<{ dbkey: string; text: string; model: string }>;
  }

  private get q() {
    this.lookups ??= {
      ...pageLookupStatements(this.db),
      firstRev: this.db.prepare(
        "SELECT first_user AS user, first_user_id AS userId, first_timestamp AS timestamp, '' AS comment FROM page WHERE page_namespace = ? AND page_title = ?",
      ),
    };
    return this.lookups;
  }

  byTitle(t: TitleRef): { id: number; isRedirect: boolean } | undefined {
    const row = this.q.byTitle.get(t.ns, t.dbkey) as { id: number; r: number } | undefined;
    return row && { id: row.id, isRedirect: row.r === 1 };
  }

  redirectOf(id: number): TitleRef | undefined {
    return this.q.redirectOf.get(id) as TitleRef | undefined;
  }

  redirectTarget(t: TitleRef): TitleRef | undefined {
    return this.q.redirectTarget.get(t.ns, t.dbkey) as TitleRef | undefined;
  }

  textOf(id: number): string | undefined {
    return this.q.textOf.get(id) as string | undefined;
  }

  firstRevisionUploader(t: TitleRef): Uploader | undefined {
    return this.q.firstRev.get(t.ns, t.dbkey) as Uploader | undefined;
  }
}

class SqliteUploads implements UploadFactsWriter {
  private readonly ins: Database.Statement;
  private readonly insIgnore: Database.Statement;
  private readonly sel: Database.Statement;

  constructor(private readonly db: Database.Database) {
    db.exec(UPLOAD_TABLE_SQL);
    this.ins = db.prepare(
      `INSERT INTO tmp_upload (name, user, user_id, timestamp, comment) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET user = excluded.user, user_id = excluded.user_id,
         timestamp = excluded.timestamp, comment = excluded.comment WHERE excluded.timestamp > tmp_upload.timestamp`,
    );
    this.insIgnore = db.prepare('INSERT OR IGNORE INTO tmp_upload (name, user, user_id, timestamp, comment) VALUES (?, ?, ?, ?, ?)');
    this.sel = db.prepare('SELECT user, user_id AS userId, timestamp, comment FROM tmp_upload WHERE name = ?');
  }

  record(name: string, u: Uploader): void {
    this.ins.run(name, u.user, u.userId, u.timestamp, u.comment);
  }

  fillIn(name: string, u: Uploader): void {
    this.insIgnore.run(name, u.user, u.userId, u.timestamp, u.comment);
  }

  get(name: string): Uploader | undefined {
    return this.sel.get(name) as Uploader | undefined;
  }

  drop(): void {
    this.db.exec('DROP TABLE tmp_upload');
  }
}

class SqliteFiles implements FileImportWriter {
  private readonly ins: Database.Statement;
  private exist: Database.Statement | null = null;

  constructor(private readonly db: Database.Database) {
    this.ins = db.prepare(
      `INSERT OR REPLACE INTO image (img_name, img_size, img_width, img_height, img_bits, img_media_type, img_major_mime,
         img_minor_mime, img_sha1, img_sha1_hex, img_user, img_user_text, img_timestamp, img_description, img_metadata, img_path)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '', ?)`,
    );
  }

  write(r: ImageRow): void {
    this.ins.run(
      r.name, r.size, r.width, r.height, r.bits, r.mediaType, r.majorMime, r.minorMime, r.sha1Base36, r.sha1Hex,
      r.uploader.userId, r.uploader.user, r.uploader.timestamp, r.uploader.comment, r.path,
    );
  }

  exists(name: string): boolean {
    this.exist ??= this.db.prepare('SELECT 1 FROM image WHERE img_name = ?').pluck();
    return this.exist.get(name) !== undefined;
  }

  finish(): void {
    deriveFileColumns(this.db);
  }
}

/**
 * image.img_dups, img_dup_count and img_page (schema.ts) from the rows and pass 1's pages: a seek of
 * img_sha1 for the files whose SHA-1 is shared (one GROUP BY walk of that index finds them) and a seek of
 * page_name per file. Milliseconds for the 1M-page wiki's ~10,000 files.
 */
export function deriveFileColumns(db: Database.Database): void {
  db.exec(`
    UPDATE image SET img_page = (SELECT page_id * 2 + page_is_redirect FROM page WHERE page_namespace = ${NS_FILE} AND page_title = image.img_name);
    UPDATE image SET
      img_dups = (SELECT json_group_array(json_array(d.img_name, d.img_user_text, d.img_timestamp) ORDER BY d.img_name)
                  FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name),
      img_dup_count = (SELECT count(*) FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name)
      WHERE img_sha1 IN (SELECT img_sha1 FROM image GROUP BY img_sha1 HAVING count(*) > 1);
  `);
}

class SqliteMessages implements MessageImportWriter {
  private readonly ins: Database.Statement;
  private readonly insOverride: Database.Statement;
  private sel: { text: Database.Statement; override: Database.Statement } | null = null;

  constructor(private readonly db: Database.Database) {
    this.ins = db.prepare('INSERT OR REPLACE INTO message (msg_lang, msg_key, msg_text) VALUES (?, ?, ?)');
    this.insOverride = db.prepare('INSERT OR REPLACE INTO message_override (mo_lang, mo_key, mo_text) VALUES (?, ?, ?)');
  }

  write(lang: string, key: string, text: string): void {
    this.ins.run(lang, key, text);
  }

  writeOverride(lang: string, key: string, text: string): void {
    this.insOverride.run(lang, key, text);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM message').pluck().get() as number;
  }

  languages(): string[] {
    return this.db.prepare('SELECT DISTINCT msg_lang FROM message').pluck().all() as string[];
  }

  private get s() {
    this.sel ??= {
      text: this.db.prepare('SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?').pluck(),
      override: this.db.prepare('SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?').pluck(),
    };
    return this.sel;
  }

  text(lang: string, key: string): string | undefined {
    return this.s.text.get(lang, key) as string | undefined;
  }

  override(lang: string, key: string): string | undefined {
    return this.s.override.get(lang, key) as string | undefined;
  }
}

class SqliteLinks implements LinkImportWriter {
  private readonly writer: LinksWriter;
  private ins: Record<'ll' | 'pp', Database.Statement> | null = null;
  private staged: { pl: RowBuffer; il: RowBuffer; tl: RowBuffer; cl: RowBuffer } | null = null;
  private late: Record<keyof LateLinkCounts, RowBuffer> | null = null;

  constructor(private readonly db: Database.Database) {
    this.writer = new LinksWriter(db);
  }

  interwikiMap(map: InterwikiMap): void {
    this.writer.writeInterwikiMap(map);
  }

  begin(): void {
    const db = this.db;
    // pagelinks and imagelinks are keyed by target: rows arriving in page order would land all over
    // their B-trees. They are staged in append-only tables and moved over sorted at the end.
    db.exec(`CREATE TABLE tmp_pagelinks (pl_from INTEGER, pl_namespace INTEGER, pl_title TEXT, pl_from_namespace INTEGER);
             CREATE TABLE tmp_imagelinks (il_from INTEGER, il_to TEXT, il_from_namespace INTEGER)`);
    // templatelinks and categorylinks are read by nothing before finish(): queued like the staged ones
    // (an OR IGNORE of a multi-row INSERT skips the same rows as row by row: they go in in order)
    this.staged = {
      pl: new RowBuffer(db, 'INSERT INTO tmp_pagelinks VALUES', 4),
      il: new RowBuffer(db, 'INSERT INTO tmp_imagelinks VALUES', 3),
      tl: new RowBuffer(db, 'INSERT OR IGNORE INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES', 4),
      cl: new RowBuffer(db, 'INSERT OR IGNORE INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_timestamp, cl_type) VALUES', 6),
    };
    this.ins = {
      ll: db.prepare('INSERT OR IGNORE INTO langlinks (ll_from, ll_lang, ll_title) VALUES (?, ?, ?)'),
      pp: db.prepare('INSERT OR REPLACE INTO page_props (pp_page, pp_propname, pp_value) VALUES (?, ?, ?)'),
    };
  }

  private get s() {
    if (this.ins === null) throw new Error('links.begin() was not called');
    return this.ins;
  }

  pageLink(from: number, fromNs: number, to: TitleRef): void {
    this.staged!.pl.add(from, to.ns, to.dbkey, fromNs);
  }

  imageLink(from: number, fromNs: number, file: string): void {
    this.staged!.il.add(from, file, fromNs);
  }

  templateLink(from: number, fromNs: number, to: TitleRef): void {
    this.staged!.tl.add(from, to.ns, to.dbkey, fromNs);
  }

  categoryLink(r: CategoryLinkRow): void {
    this.staged!.cl.add(r.from, r.to, r.sortkey, r.sortkeyPrefix, r.timestamp, r.type);
  }

  langLink(from: number, lang: string, title: string): number {
    return this.s.ll.run(from, lang, title).changes;
  }

  externalLinks(from: number, urls: Iterable<string>): number {
    return this.writer.externalLinks(from, urls);
  }

  interwikiLinks(from: number, links: Iterable<{ prefix: string; title: string }>): number {
    return this.writer.interwikiLinks(from, links);
  }

  pageProp(page: number, name: string, value: string): number {
    return this.s.pp.run(page, name, value).changes;
  }

  supplement(from: number, fromNs: number, links: LateLinks): void {
    const db = this.db;
    const b = (this.late ??= {
      pagelinks: new RowBuffer(db, 'INSERT OR IGNORE INTO pagelinks (pl_from, pl_namespace, pl_title, pl_from_namespace) VALUES', 4),
      imagelinks: new RowBuffer(db, 'INSERT OR IGNORE INTO imagelinks (il_from, il_to, il_from_namespace) VALUES', 3),
      templatelinks: new RowBuffer(db, 'INSERT OR IGNORE INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES', 4),
      categorylinks: new RowBuffer(db, 'INSERT OR IGNORE INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_timestamp, cl_type) VALUES', 6),
    });
    const { pages, templates, categories } = links;
    for (let i = 0; i < pages.length; i += 2) b.pagelinks.add(from, pages[i], pages[i + 1], fromNs);
    for (const f of links.files) b.imagelinks.add(from, f, fromNs);
    for (let i = 0; i < templates.length; i += 2) b.templatelinks.add(from, templates[i], templates[i + 1], fromNs);
    for (let i = 0; i < categories.length; i += 3) b.categorylinks.add(from, categories[i], categories[i + 1], categories[i + 2], links.timestamp, links.categoryType);
  }

  flushSupplement(): LateLinkCounts {
    const out: LateLinkCounts = { pagelinks: 0, imagelinks: 0, templatelinks: 0, categorylinks: 0 };
    if (this.late === null) return out;
    for (const k of Object.keys(out) as Array<keyof LateLinkCounts>) {
      const b = this.late[k];
      b.flush();
      out[k] = b.changes;
      b.changes = 0;
    }
    return out;
  }

  finish(): { pagelinks: number; imagelinks: number; templatelinks: number; categorylinks: number } {
    const db = this.db;
    const staged = this.staged;
    if (staged === null) throw new Error('links.begin() was not called');
    for (const b of [staged.pl, staged.il, staged.tl, staged.cl]) b.flush();
    this.staged = null;
    // one row per (page, target) already: the importer hands each target of a page once
    const { pagelinks, imagelinks } = withSortMemory(db, () => ({
      pagelinks: db.prepare('INSERT INTO pagelinks SELECT * FROM tmp_pagelinks ORDER BY pl_namespace, pl_title, pl_from').run().changes,
      imagelinks: db.prepare('INSERT INTO imagelinks SELECT * FROM tmp_imagelinks ORDER BY il_to, il_from').run().changes,
    }));
    db.exec('DROP TABLE tmp_pagelinks; DROP TABLE tmp_imagelinks');
    this.ins = null;
    return { pagelinks, imagelinks, templatelinks: staged.tl.changes, categorylinks: staged.cl.changes };
  }
}

/**
 * Derived tables, computed by SQL over the finished link tables (set-based: nothing here grows with
 * the wiki in JS memory).
 */
class SqliteDerived implements DerivedImportWriter {
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
      db.prepare('INSERT OR IGNORE INTO category (cat_title) SELECT page_title FROM page WHERE page_namespace = ? ORDER BY page_title').run(NS_CATEGORY);
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
    if (maxRows !== null && (!Number.isInteger(maxRows) || maxRows < 0)) throw new Error(`buildReports: maxRows must be a non-negative integer, got ${maxRows}`);
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

class SqliteParserCache implements ParserCacheImportWriter {
  private readonly ins: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.ins = db.prepare('INSERT OR REPLACE INTO parser_cache (pc_page, pc_rev, pc_options, pc_version, pc_output) VALUES (?, ?, ?, ?, ?)');
  }

  write(pageId: number, revId: number, optionsKey: string, version: number, output: string): void {
    this.ins.run(pageId, revId, optionsKey, version, output);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM parser_cache').pluck().get() as number;
  }
}

export class SqliteImportWriter implements ImportWriter {
  private build: BuildDb | null;
  private readonly db: Database.Database;
  readonly site: { write(meta: SiteMeta): void };
  readonly pages: SqlitePages;
  readonly uploads: SqliteUploads;
  readonly history: HistoryWriter;
  readonly files: SqliteFiles;
  readonly messages: SqliteMessages;
  readonly links: SqliteLinks;
  readonly derived: SqliteDerived;
  readonly semantic: SqliteSemanticImportWriter;
  readonly search: SearchIndexWriter;
  readonly parserCache: SqliteParserCache;
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
    this.pages = new SqlitePages(db, this.build);
    this.uploads = new SqliteUploads(db);
    this.history = new HistoryWriter(db);
    this.files = new SqliteFiles(db);
    this.messages = new SqliteMessages(db);
    this.links = new SqliteLinks(db);
    this.derived = new SqliteDerived(db, tmp, `${tmp}-reports`, { start: () => this.live().shareForReading(), stop: () => this.build?.stopSharing() });
    this.semantic = new SqliteSemanticImportWriter(db, `${tmp}-ac`);
    this.search = new SearchIndexWriter(db);
    this.parserCache = new SqliteParserCache(db);
  }

  /** the serving Store on this connection: it sees every write at once, and is closed with the writer */
  readStore(): Store {
    this.live();
    if (!this.reader) {
      const db = this.db;
      this.reader = storeOn(new Db(db), async () => (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number), () => {});
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

  alone(on: boolean): void {
    this.live().spreadSorts(on);
  }

  async settle(later: readonly IndexArea[]): Promise<void> {
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
