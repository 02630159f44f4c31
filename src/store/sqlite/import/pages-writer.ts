/**
 * The import's writes of pages: the page rows, their latest text and redirects, pass 2's chunks in page id
 * order, and the title lookups the expansion makes (shared with the analysis workers' reader).
 */
import type Database from 'better-sqlite3';
import type { BuildDb } from './build-db.js';
import type { PageImportWriter, PageRow, PageWithText, RedirectRow, TitleRef, Uploader } from '../../import-writer.js';

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
export type PageChunkRow = [
  id: number,
  ns: number,
  dbkey: string,
  redirect: number,
  ts: string,
  rev: number,
  model: string,
  text: string,
  redirected: number,
];

export function toPageWithText(r: PageChunkRow): PageWithText {
  return {
    id: r[0],
    ns: r[1],
    dbkey: r[2],
    isRedirect: r[3] === 1,
    latestTimestamp: r[4],
    latestRevId: r[5],
    model: r[6],
    text: r[7],
    redirected: r[8] === 1,
  };
}

/** The DB keys of the pages that redirect to a title, in page id order. */
export const REDIRECTS_TO_SQL = `SELECT p.page_title FROM redirect r JOIN page p ON p.page_id = r.rd_from
  WHERE r.rd_namespace = ? AND r.rd_title = ? ORDER BY r.rd_from`;

/** Template and existence lookups by title (pass 2's expansion). */
export function pageLookupStatements(db: Database.Database) {
  return {
    // page_redirect_namespace_title holds all three columns: two seeks in it (0, then 1) instead of a
    // seek in page_name and another in the table, whose rows are scattered over gigabytes at 1,000,000
    // pages; (namespace, title) is unique, so at most one row either way
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

export class PagesWriter implements PageImportWriter {
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
    /** null on a finished database (the incremental writer's): its indexes exist */
    private readonly build: BuildDb | null,
  ) {
    this.insPage = db.prepare(
      `INSERT INTO page (page_id, page_namespace, page_title, page_is_redirect, page_len, page_latest, page_touched,
         page_rev_count, page_content_model, first_rev_id, first_timestamp, first_user, first_user_id,
         first_len, first_sha1, first_comment, first_minor,
         latest_timestamp, latest_user, latest_user_id, latest_comment, latest_sha1, latest_minor, latest_parent_id, page_random)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insText = db.prepare('INSERT INTO page_text (page_id, old_text) VALUES (?, ?)');
    this.insRedirect = db.prepare(
      'INSERT INTO redirect (rd_from, rd_namespace, rd_title, rd_fragment, rd_interwiki) VALUES (?, ?, ?, ?, ?)',
    );
    this.latest = db.prepare('SELECT latest_timestamp AS timestamp, page_latest AS revId FROM page WHERE page_id = ?');
    this.delPage = db.prepare('DELETE FROM page WHERE page_id = ?');
    this.delText = db.prepare('DELETE FROM page_text WHERE page_id = ?');
    this.delRedirect = db.prepare('DELETE FROM redirect WHERE rd_from = ?');
  }

  insert(r: PageRow): boolean {
    try {
      this.insPage.run(
        r.id,
        r.ns,
        r.dbkey,
        r.isRedirect ? 1 : 0,
        r.len,
        r.latestRevId,
        r.touched,
        r.revisionCount,
        r.model,
        r.firstRevId,
        r.firstTimestamp,
        r.firstUser,
        r.firstUserId,
        r.firstLen,
        r.firstSha1,
        r.firstComment,
        r.firstMinor ? 1 : 0,
        r.latestTimestamp,
        r.latestUser,
        r.latestUserId,
        r.latestComment,
        r.latestSha1,
        r.latestMinor ? 1 : 0,
        r.latestParentId,
        r.random,
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
    const build = this.build;
    if (build === null) throw new Error('indexTitles: only while an import builds the database');
    const create = () => build.createIndexes(['page', 'redirect']);
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
    this.chunkLast ??= this.db
      .prepare('SELECT MAX(page_id) FROM (SELECT page_id FROM page WHERE page_id > ? ORDER BY page_id LIMIT ?)')
      .pluck();
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
    this.byIds ??= this.db
      .prepare(
        PAGE_CHUNK_SQL.replace(
          'WHERE p.page_id > ? ORDER BY p.page_id LIMIT ?',
          'WHERE p.page_id IN (SELECT value FROM json_each(?)) ORDER BY p.page_id',
        ),
      )
      .raw();
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

  private get lookupStatements() {
    this.lookups ??= {
      ...pageLookupStatements(this.db),
      firstRev: this.db.prepare(
        "SELECT first_user AS user, first_user_id AS userId, first_timestamp AS timestamp, '' AS comment FROM page WHERE page_namespace = ? AND page_title = ?",
      ),
    };
    return this.lookups;
  }

  byTitle(t: TitleRef): { id: number; isRedirect: boolean } | undefined {
    const row = this.lookupStatements.byTitle.get(t.ns, t.dbkey) as { id: number; r: number } | undefined;
    return row && { id: row.id, isRedirect: row.r === 1 };
  }

  redirectOf(id: number): TitleRef | undefined {
    return this.lookupStatements.redirectOf.get(id) as TitleRef | undefined;
  }

  redirectTarget(t: TitleRef): TitleRef | undefined {
    return this.lookupStatements.redirectTarget.get(t.ns, t.dbkey) as TitleRef | undefined;
  }

  textOf(id: number): string | undefined {
    return this.lookupStatements.textOf.get(id) as string | undefined;
  }

  firstRevisionUploader(t: TitleRef): Uploader | undefined {
    return this.lookupStatements.firstRev.get(t.ns, t.dbkey) as Uploader | undefined;
  }
}
