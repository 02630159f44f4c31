/**
 * The SQLite UpdateWriter: the incremental writes of `import --update` and `follow` on the served file
 * itself, in WAL mode (a `serve` reading the same file keeps its snapshot until a batch has committed).
 * The page, text and redirect rows go through the import's own PagesWriter statements, revisions and
 * log entries through its HistoryWriter, files through its FilesWriter; what a full import computes
 * set-based at its end (users, contributors, categories, statistics, duplicates, recent changes) is kept
 * here row by row, each write an index seek or a bounded range scan.
 */
import Database from 'better-sqlite3';
import { HistoryWriter, RC_MAX_AGE_SECONDS } from './import/history-writer.js';
import { PagesWriter, REDIRECTS_TO_SQL } from './import/pages-writer.js';
import { FilesWriter } from './import/files-writer.js';
import { buildReports } from './import/reports.js';
import { nsToken } from './search.js';
import { urlIndexes } from '../../wiki/external-urls.js';
import { NS_CATEGORY, NS_FILE } from '../../wiki/namespaces.js';
import type { CategoryLinkRow, ImageRow, LogInput, RevisionInput, SearchRow, TitleRef, Uploader } from '../import-writer.js';
import type { SiteStatistics } from '../site-store.js';
import type {
  PageLinkRows,
  RecentChangeRow,
  SemanticUpdateWriter,
  StoredPage,
  StoredPosition,
  StoredSite,
  UpdateWriter,
} from '../update-writer.js';
import type { Store } from '../store.js';
import { storeOn } from './index.js';
import { Db } from './db.js';
import { AC_ID_STRIDE, HEAVY_ROWS } from './semantic-schema.js';
import { wordKeys } from '../../semantic/fold.js';
import { BLOB_TYPES } from '../../semantic/types.js';
import { printCompletionAnswer } from '../../semantic/completion-answer.js';
import { compareBytes } from '../../wiki/collation.js';

/** the refresh queue (MediaWiki's refreshLinks jobs): made by the first update of an imported file */
const QUEUE_SQL = 'CREATE TABLE IF NOT EXISTS refresh_queue (rq_page INTEGER PRIMARY KEY)';

type Kind = CategoryLinkRow['type'];

export function openSqliteUpdateWriter(file: string): UpdateWriter {
  return new SqliteUpdateWriter(file);
}

class SqliteUpdateWriter implements UpdateWriter {
  private readonly db: Database.Database;
  private readonly pagesWriter: PagesWriter;
  private readonly historyWriter: HistoryWriter;
  private readonly filesWriter: FilesWriter;
  private readonly s: Record<string, Database.Statement>;
  readonly pages: UpdateWriter['pages'];
  readonly uploads: UpdateWriter['uploads'];
  readonly history: UpdateWriter['history'];
  readonly links: UpdateWriter['links'];
  readonly categories: UpdateWriter['categories'];
  readonly search: UpdateWriter['search'];
  readonly parserCache: UpdateWriter['parserCache'];
  readonly files: UpdateWriter['files'];
  readonly messages: UpdateWriter['messages'];
  readonly refreshQueue: UpdateWriter['refreshQueue'];
  readonly semantic: SemanticUpdateWriter | null;
  /** upload facts of the batch under way (a file page's <upload>, read by the file items after it) */
  private readonly uploadFacts = new Map<string, Uploader>();

  constructor(readonly location: string) {
    const db = (this.db = new Database(location, { fileMustExist: true, timeout: 60000 }));
    // readers keep their snapshot while a batch is written; a batch is durable when it has committed
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('cache_size = -65536');
    db.exec(QUEUE_SQL);
    // the import's statements: they only insert and delete by key (the BuildDb is for its index builds only)
    this.pagesWriter = new PagesWriter(db, null);
    this.historyWriter = new HistoryWriter(db);
    this.filesWriter = new FilesWriter(db);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      page: p(
        `SELECT page_id AS id, page_namespace AS ns, page_title AS dbkey, page_is_redirect AS r, page_content_model AS model,
           page_rev_count AS revs, page_latest AS latest, latest_timestamp AS ts FROM page WHERE page_id = ?`,
      ),
      revCount: p('SELECT COUNT(*) FROM revision WHERE rev_page = ?').pluck(),
      firstRev: p(
        `SELECT rev_id AS id, rev_timestamp AS ts, rev_user_text AS user, rev_user AS userId, rev_len AS len, rev_sha1 AS sha1,
           rev_comment AS comment, rev_minor_edit AS minor FROM revision INDEXED BY rev_page_timestamp WHERE rev_page = ?
         ORDER BY rev_timestamp, rev_id LIMIT 1`,
      ),
      setHistory: p(
        `UPDATE page SET page_rev_count = ?, first_rev_id = ?, first_timestamp = ?, first_user = ?, first_user_id = ?, first_len = ?,
           first_sha1 = ?, first_comment = ?, first_minor = ? WHERE page_id = ?`,
      ),
      hasRev: p('SELECT 1 FROM revision WHERE rev_id = ?').pluck(),
      revsOf: p('SELECT rev_id AS id, rev_user AS user FROM revision INDEXED BY rev_page_id WHERE rev_page = ?'),
      delRev: p('DELETE FROM revision WHERE rev_id = ?'),
      delRevText: p('DELETE FROM revision_text WHERE rt_rev_id = ?'),
      userEdits: p('UPDATE user SET user_editcount = user_editcount + ? WHERE user_id = ?'),
      revision: p('SELECT rev_user AS userId, rev_user_text AS user, rev_timestamp AS ts FROM revision WHERE rev_id = ?'),
      upsertUser: p(
        `INSERT INTO user (user_id, user_name, user_editcount, user_registration) VALUES (?, ?, 1, ?)
         ON CONFLICT (user_id) DO UPDATE SET user_editcount = user_editcount + 1, user_name = excluded.user_name,
           user_registration = MIN(COALESCE(user_registration, excluded.user_registration), excluded.user_registration)`,
      ),
      userName: p('SELECT user_name FROM user WHERE user_id = ?').pluck(),
      putUser: p(
        `INSERT INTO user (user_id, user_name, user_editcount, user_registration) VALUES (?, ?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name, user_editcount = excluded.user_editcount,
           user_registration = COALESCE(excluded.user_registration, user_registration)`,
      ),
      contributor: p('INSERT OR IGNORE INTO page_contributor (pc_page, pc_user, pc_user_text) VALUES (?, ?, ?)'),
      delContributors: p('DELETE FROM page_contributor WHERE pc_page = ?'),
      anonCount: p('SELECT COUNT(DISTINCT rev_user_text) FROM revision INDEXED BY rev_page_id WHERE rev_page = ? AND rev_user = 0').pluck(),
      setAnon: p('INSERT OR REPLACE INTO page_anon_contributors (pac_page, pac_count) VALUES (?, ?)'),
      delAnon: p('DELETE FROM page_anon_contributors WHERE pac_page = ?'),
      rcOfRev: p(
        `INSERT INTO recentchanges (rc_timestamp, rc_type, rc_namespace, rc_title, rc_cur_id, rc_this_oldid, rc_last_oldid,
           rc_user, rc_user_text, rc_comment, rc_minor, rc_bot, rc_old_len, rc_new_len, rc_deleted, rc_logid)
         SELECT r.rev_timestamp, CASE WHEN prev.rev_id IS NULL THEN 1 ELSE 0 END, page_namespace, page_title, page_id, r.rev_id,
           COALESCE(prev.rev_id, 0), r.rev_user, r.rev_user_text, r.rev_comment, r.rev_minor_edit, 0, prev.rev_len, r.rev_len,
           r.rev_deleted, 0
         FROM revision r JOIN page ON page_id = r.rev_page
         LEFT JOIN revision prev ON prev.rev_id = (SELECT q.rev_id FROM revision q INDEXED BY rev_page_timestamp WHERE q.rev_page = r.rev_page
           AND (q.rev_timestamp < r.rev_timestamp OR (q.rev_timestamp = r.rev_timestamp AND q.rev_id < r.rev_id))
           ORDER BY q.rev_timestamp DESC, q.rev_id DESC LIMIT 1)
         WHERE r.rev_id = ?`,
      ),
      rcOfLog: p(
        `INSERT INTO recentchanges (rc_timestamp, rc_type, rc_namespace, rc_title, rc_cur_id, rc_this_oldid, rc_last_oldid,
           rc_user, rc_user_text, rc_comment, rc_minor, rc_bot, rc_old_len, rc_new_len, rc_deleted, rc_logid, rc_log_type,
           rc_log_action, rc_params)
         SELECT log_timestamp, 3, log_namespace, log_title, COALESCE(page_id, 0), 0, 0, log_user, user_name, log_comment, 0, 0,
           NULL, NULL, log_deleted, log_id, log_type, log_action, log_params
         FROM logging JOIN user ON user_id = log_user
         LEFT JOIN page ON page_namespace = log_namespace AND page_title = log_title
         WHERE log_id = ?`,
      ),
      logPage: p(
        'UPDATE logging SET log_page = COALESCE((SELECT page_id FROM page WHERE page_namespace = ? AND page_title = ?), 0) WHERE log_id = ?',
      ),
      rc: p(
        `INSERT OR REPLACE INTO recentchanges (rc_id, rc_timestamp, rc_type, rc_namespace, rc_title, rc_cur_id, rc_this_oldid, rc_last_oldid,
           rc_user, rc_user_text, rc_comment, rc_minor, rc_bot, rc_old_len, rc_new_len, rc_deleted, rc_logid, rc_log_type,
           rc_log_action, rc_params)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, NULL)`,
      ),
      newestRc: p('SELECT MAX(rc_timestamp) FROM recentchanges').pluck(),
      trimRc: p('DELETE FROM recentchanges WHERE rc_timestamp <= ?'),
      newestRev: p('SELECT MAX(rev_timestamp) FROM revision').pluck(),
      newestLog: p('SELECT MAX(log_timestamp) FROM logging').pluck(),
      meta: p('SELECT value FROM meta WHERE key = ?').pluck(),
      setMeta: p('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)'),
      categoriesOf: p('SELECT cl_to AS category, cl_type AS type FROM categorylinks WHERE cl_from = ?'),
      delPl: p('DELETE FROM pagelinks WHERE pl_from = ?'),
      delIl: p('DELETE FROM imagelinks WHERE il_from = ?'),
      delTl: p('DELETE FROM templatelinks WHERE tl_from = ?'),
      delCl: p('DELETE FROM categorylinks WHERE cl_from = ?'),
      delLl: p('DELETE FROM langlinks WHERE ll_from = ?'),
      delEl: p('DELETE FROM externallinks WHERE el_from = ?'),
      delIwl: p('DELETE FROM iwlinks WHERE iwl_from = ?'),
      delPp: p('DELETE FROM page_props WHERE pp_page = ?'),
      insPl: p('INSERT OR IGNORE INTO pagelinks (pl_from, pl_namespace, pl_title, pl_from_namespace) VALUES (?, ?, ?, ?)'),
      insIl: p('INSERT OR IGNORE INTO imagelinks (il_from, il_to, il_from_namespace) VALUES (?, ?, ?)'),
      insTl: p('INSERT OR IGNORE INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES (?, ?, ?, ?)'),
      insCl: p(
        'INSERT OR IGNORE INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_timestamp, cl_type) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      insLl: p('INSERT OR IGNORE INTO langlinks (ll_from, ll_lang, ll_title) VALUES (?, ?, ?)'),
      insEl: p('INSERT INTO externallinks (el_from, el_to, el_index) VALUES (?, ?, ?)'),
      insIwl: p('INSERT OR IGNORE INTO iwlinks (iwl_from, iwl_prefix, iwl_title) VALUES (?, ?, ?)'),
      insPp: p('INSERT OR REPLACE INTO page_props (pp_page, pp_propname, pp_value) VALUES (?, ?, ?)'),
      hasPl: p('SELECT 1 FROM pagelinks INDEXED BY pl_from WHERE pl_from = ? LIMIT 1').pluck(),
      catCount: p(
        `INSERT INTO category (cat_title, cat_pages, cat_subcats, cat_files) VALUES (?, ?, ?, ?)
         ON CONFLICT (cat_title) DO UPDATE SET cat_pages = cat_pages + excluded.cat_pages, cat_subcats = cat_subcats + excluded.cat_subcats,
           cat_files = cat_files + excluded.cat_files`,
      ),
      catRow: p('SELECT cat_pages AS pages FROM category WHERE cat_title = ?'),
      catPage: p(
        `SELECT page_id AS id, EXISTS (SELECT 1 FROM page_props WHERE pp_page = page_id AND pp_propname = 'hiddencat') AS hidden
         FROM page WHERE page_namespace = ${NS_CATEGORY} AND page_title = ?`,
      ),
      catInsert: p('INSERT OR IGNORE INTO category (cat_title) VALUES (?)'),
      catHidden: p('UPDATE category SET cat_hidden = ? WHERE cat_title = ?'),
      catDelete: p('DELETE FROM category WHERE cat_title = ?'),
      ftsDelete: p(
        `INSERT INTO search_index (search_index, rowid, ns, title, redirects, text, ltitle, lredirects, ltext)
         VALUES ('delete', ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      ftsInsert: p(
        'INSERT INTO search_index (rowid, ns, title, redirects, text, ltitle, lredirects, ltext) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      stDelete: p('DELETE FROM search_title WHERE st_key = ? AND st_ns = ? AND st_page = ?'),
      stInsert: p('INSERT INTO search_title (st_key, st_ns, st_page) VALUES (?, ?, ?)'),
      stlDelete: p('DELETE FROM search_title_lemma WHERE stl_key = ? AND stl_page = ?'),
      stlInsert: p('INSERT INTO search_title_lemma (stl_key, stl_page) VALUES (?, ?)'),
      vocabAdd: p('INSERT INTO search_vocab (sv_term, sv_docs) VALUES (?, 1) ON CONFLICT (sv_term) DO UPDATE SET sv_docs = sv_docs + 1'),
      vocabTake: p('UPDATE search_vocab SET sv_docs = sv_docs - 1 WHERE sv_term = ?'),
      vocabDrop: p('DELETE FROM search_vocab WHERE sv_term = ? AND sv_docs <= 0'),
      pcDrop: p('DELETE FROM parser_cache WHERE pc_page = ?'),
      fileExists: p('SELECT 1 FROM image WHERE img_name = ?').pluck(),
      fileSha1: p('SELECT img_sha1 FROM image WHERE img_name = ?').pluck(),
      fileUploader: p(
        'SELECT img_user_text AS user, img_user AS userId, img_timestamp AS timestamp, img_description AS comment FROM image WHERE img_name = ?',
      ),
      fileGroup: p('SELECT img_name FROM image WHERE img_sha1 = ?').pluck(),
      fileDups: p(
        `UPDATE image SET
           img_dups = (SELECT json_group_array(json_array(d.img_name, d.img_user_text, d.img_timestamp) ORDER BY d.img_name)
                       FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name HAVING count(*) > 0),
           img_dup_count = (SELECT count(*) FROM image d WHERE d.img_sha1 = image.img_sha1 AND d.img_name <> image.img_name)
         WHERE img_name = ?`,
      ),
      filePage: p(
        `UPDATE image SET img_page = (SELECT page_id * 2 + page_is_redirect FROM page WHERE page_namespace = ${NS_FILE} AND page_title = image.img_name)
         WHERE img_name = ?`,
      ),
      message: p('SELECT msg_text FROM message WHERE msg_lang = ? AND msg_key = ?').pluck(),
      override: p('SELECT mo_text FROM message_override WHERE mo_lang = ? AND mo_key = ?').pluck(),
      setOverride: p('INSERT OR REPLACE INTO message_override (mo_lang, mo_key, mo_text) VALUES (?, ?, ?)'),
      delOverride: p('DELETE FROM message_override WHERE mo_lang = ? AND mo_key = ?'),
      languages: p('SELECT DISTINCT msg_lang FROM message').pluck(),
      queueTl: p('INSERT OR IGNORE INTO refresh_queue (rq_page) SELECT tl_from FROM templatelinks WHERE tl_namespace = ? AND tl_title = ?'),
      queueIl: p('INSERT OR IGNORE INTO refresh_queue (rq_page) SELECT il_from FROM imagelinks WHERE il_to = ?'),
      queue: p('INSERT OR IGNORE INTO refresh_queue (rq_page) VALUES (?)'),
      take: p('SELECT rq_page FROM refresh_queue ORDER BY rq_page LIMIT ?').pluck(),
      unqueue: p('DELETE FROM refresh_queue WHERE rq_page = ?'),
      queueSize: p('SELECT COUNT(*) FROM refresh_queue').pluck(),
      redirectsTo: p(REDIRECTS_TO_SQL).pluck(),
    };
    const s = this.s;
    const pw = this.pagesWriter;
    this.pages = {
      insert: (row) => pw.insert(row),
      remove: (id) => pw.remove(id),
      insertText: (id, text) => pw.insertText(id, text),
      insertRedirect: (id, t) => pw.insertRedirect(id, t),
      latestOf: (id) => pw.latestOf(id),
      byTitle: (t) => pw.byTitle(t),
      redirectOf: (id: number) => pw.redirectOf(id),
      redirectTarget: (t: TitleRef) => pw.redirectTarget(t),
      textOf: (id) => pw.textOf(id),
      chunkWithText: (after: number, limit: number) => pw.chunkWithText(after, limit),
      withText: (ids) => pw.withText(ids),
    };
    this.uploads = {
      record: (name, u) => {
        this.uploadFacts.set(name, u);
      },
      get: (name) => this.uploadFacts.get(name),
    };
    const hw = this.historyWriter;
    this.history = {
      hasRevision: (id) => s.hasRev.get(id) !== undefined,
      writeRevision: (r: RevisionInput) => {
        const before = hw.revisions;
        hw.writeRevision(r);
        return hw.revisions > before;
      },
      writeLog: (l: LogInput) => {
        const before = hw.logItems;
        hw.writeLog(l);
        if (hw.logItems === before) return false;
        s.logPage.run(l.ns, l.dbkey, l.id);
        return true;
      },
      removeRevisionsOf: (page) => {
        const edits = new Map<number, number>();
        for (const r of s.revsOf.all(page) as Array<{ id: number; user: number }>) {
          s.delRev.run(r.id);
          s.delRevText.run(r.id);
          if (r.user > 0) edits.set(r.user, (edits.get(r.user) ?? 0) + 1);
        }
        for (const [user, n] of edits) s.userEdits.run(-n, user);
        s.delContributors.run(page);
        s.delAnon.run(page);
      },
      creditRevisions: (page, revIds) => {
        for (const id of revIds) {
          const r = s.revision.get(id) as { userId: number; user: string; ts: string } | undefined;
          if (r === undefined || r.userId <= 0) continue;
          s.upsertUser.run(r.userId, r.user, r.ts);
          s.contributor.run(page, r.userId, s.userName.get(r.userId) as string);
        }
        const anon = s.anonCount.get(page) as number;
        if (anon > 0) s.setAnon.run(page, anon);
        else s.delAnon.run(page);
      },
      recentChangesOfRevisions: (revIds) => {
        for (const id of revIds) s.rcOfRev.run(id);
      },
      recentChangeOfLog: (logId) => {
        s.rcOfLog.run(logId);
      },
      recentChange: (r: RecentChangeRow) => {
        const type = r.type === 'edit' ? 0 : r.type === 'new' ? 1 : r.type === 'log' ? 3 : r.type === 'external' ? 5 : 6;
        s.rc.run(
          r.rcid,
          r.timestamp,
          type,
          r.ns,
          r.dbkey,
          r.pageId,
          r.revId,
          r.oldRevId,
          r.userId,
          r.user,
          r.comment,
          r.minor ? 1 : 0,
          r.bot ? 1 : 0,
          r.oldLen,
          r.newLen,
          r.logId,
          r.logType,
          r.logAction,
        );
      },
      trimRecentChanges: () => {
        const newest = s.newestRc.get() as string | null;
        if (newest !== null) s.trimRc.run(cutoffOf(newest));
      },
      user: (u) => {
        s.putUser.run(u.id, u.name, u.editCount, u.registration === '' ? null : u.registration);
      },
    };
    const rows: PageLinkRows = {
      pageLink: (from, fromNs, to) => void s.insPl.run(from, to.ns, to.dbkey, fromNs),
      imageLink: (from, fromNs, file) => void s.insIl.run(from, file, fromNs),
      templateLink: (from, fromNs, to) => void s.insTl.run(from, to.ns, to.dbkey, fromNs),
      categoryLink: (r) => s.insCl.run(r.from, r.to, r.sortkey, r.sortkeyPrefix, r.timestamp, r.type).changes,
      langLink: (from, lang, title) => s.insLl.run(from, lang, title).changes,
      externalLinks: (from, urls) => {
        let n = 0;
        for (const url of urls) for (const index of urlIndexes(url)) n += s.insEl.run(from, url, index).changes;
        return n;
      },
      interwikiLinks: (from, links) => {
        let n = 0;
        for (const l of links) n += s.insIwl.run(from, l.prefix, l.title).changes;
        return n;
      },
      pageProp: (page, name, value) => s.insPp.run(page, name, value).changes,
    };
    this.links = {
      clear: (page) => {
        const old = s.categoriesOf.all(page) as Array<{ category: string; type: Kind }>;
        for (const st of [s.delPl, s.delIl, s.delTl, s.delCl, s.delLl, s.delEl, s.delIwl, s.delPp]) st.run(page);
        return old;
      },
      rows,
      categoriesOf: (page) => s.categoriesOf.all(page) as Array<{ category: string; type: Kind }>,
      hasPageLinks: (page) => s.hasPl.get(page) !== undefined,
    };
    this.categories = {
      count: (category, type, delta) => void s.catCount.run(category, delta, type === 'subcat' ? delta : 0, type === 'file' ? delta : 0),
      settle: (category) => {
        const row = s.catRow.get(category) as { pages: number } | undefined;
        const page = s.catPage.get(category) as { id: number; hidden: number } | undefined;
        if (page === undefined && (row === undefined || row.pages <= 0)) {
          if (row !== undefined) s.catDelete.run(category);
          return;
        }
        if (row === undefined) s.catInsert.run(category);
        s.catHidden.run(page?.hidden ?? 0, category);
      },
    };
    // an index the import left empty (--no-search-index) stays so: a contentless row cannot be removed
    // unless it was written
    const indexed = db.prepare('SELECT EXISTS (SELECT 1 FROM search_title) OR NOT EXISTS (SELECT 1 FROM page)').pluck().get() === 1;
    this.search = {
      enabled: indexed,
      remove: (r: SearchRow) => {
        s.ftsDelete.run(r.id, nsToken(r.ns), r.title, r.redirects.join(' '), r.text, r.titleLemmas, r.redirectLemmas, r.textLemmas);
        for (const key of titleKeys(r)) s.stDelete.run(key, r.ns, r.id);
        for (const key of r.lemmaKeys) s.stlDelete.run(key, r.id);
        for (const term of vocabularyOf(r)) {
          s.vocabTake.run(term);
          s.vocabDrop.run(term);
        }
      },
      add: (r: SearchRow) => {
        for (const key of titleKeys(r)) s.stInsert.run(key, r.ns, r.id);
        for (const key of r.lemmaKeys) s.stlInsert.run(key, r.id);
        for (const term of vocabularyOf(r)) s.vocabAdd.run(term);
        s.ftsInsert.run(r.id, nsToken(r.ns), r.title, r.redirects.join(' '), r.text, r.titleLemmas, r.redirectLemmas, r.textLemmas);
      },
    };
    this.parserCache = { drop: (page) => void s.pcDrop.run(page) };
    const fw = this.filesWriter;
    this.files = {
      exists: (name) => s.fileExists.get(name) !== undefined,
      write: (r: ImageRow) => {
        const oldSha1 = s.fileSha1.get(r.name) as string | undefined;
        fw.write(r);
        if (oldSha1 !== undefined && oldSha1 !== r.sha1Base36) for (const n of s.fileGroup.all(oldSha1) as string[]) s.fileDups.run(n);
        return oldSha1 === undefined;
      },
      settle: (name) => {
        s.filePage.run(name);
        const sha1 = s.fileSha1.get(name) as string | undefined;
        if (sha1 !== undefined) for (const n of s.fileGroup.all(sha1) as string[]) s.fileDups.run(n);
      },
      uploader: (name) => s.fileUploader.get(name) as Uploader | undefined,
    };
    this.messages = {
      text: (lang, key) => s.message.get(lang, key) as string | undefined,
      override: (lang, key) => s.override.get(lang, key) as string | undefined,
      languages: () => s.languages.all() as string[],
      setOverride: (lang, key, text) => void (text === null ? s.delOverride.run(lang, key) : s.setOverride.run(lang, key, text)),
    };
    const hasSemantic = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'smw_value'").pluck().get() !== undefined;
    this.semantic = hasSemantic ? new SqliteSemanticUpdateWriter(db) : null;
    this.refreshQueue = {
      enqueueTranscluders: (t) => s.queueTl.run(t.ns, t.dbkey).changes,
      enqueueFileUsers: (name) => s.queueIl.run(name).changes,
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

  begin(): void {
    this.uploadFacts.clear();
    this.db.exec('BEGIN IMMEDIATE');
  }

  commit(): void {
    this.db.exec('COMMIT');
    this.uploadFacts.clear();
  }

  rollback(): void {
    this.uploadFacts.clear();
    if (this.db.open && this.db.inTransaction) this.db.exec('ROLLBACK');
  }

  close(): void {
    if (this.db.open) {
      this.rollback();
      this.db.close();
    }
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
    const r = this.s.page.get(id) as
      | { id: number; ns: number; dbkey: string; r: number; model: string; revs: number; latest: number; ts: string }
      | undefined;
    return (
      r && {
        id: r.id,
        ns: r.ns,
        dbkey: r.dbkey,
        isRedirect: r.r === 1,
        model: r.model,
        revisionCount: r.revs,
        latestRevId: r.latest,
        latestTimestamp: r.ts,
      }
    );
  }

  settlePageHistory(id: number): void {
    const s = this.s;
    const count = s.revCount.get(id) as number;
    const first = s.firstRev.get(id) as
      | { id: number; ts: string; user: string; userId: number; len: number | null; sha1: string; comment: string; minor: number }
      | undefined;
    if (first === undefined) return; // a dump without the page's revisions: its row stays as the dump said
    s.setHistory.run(count, first.id, first.ts, first.user, first.userId, first.len, first.sha1, first.comment, first.minor, id);
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

/** the search_title keys of an index row: its title and the titles of the redirects to it */
function titleKeys(r: SearchRow): string[] {
  const keys = [r.title];
  for (const key of new Set(r.redirects)) if (key !== r.title) keys.push(key);
  return keys;
}

/**
 * The terms of an index row as search_vocab counts them: each column's distinct tokens (title, redirects,
 * text), a term once per column that holds it -- fts5vocab's per-column document counts, summed.
 */
function vocabularyOf(r: SearchRow): string[] {
  const out: string[] = [];
  for (const column of [r.title, r.redirects.join(' '), r.text]) {
    if (column === '') continue;
    for (const token of new Set(column.split(' '))) out.push(token);
  }
  return out;
}

/** TS_MW of $wgRCMaxAge before `newest` */
function cutoffOf(newest: string): string {
  const t = Date.UTC(
    +newest.slice(0, 4),
    +newest.slice(4, 6) - 1,
    +newest.slice(6, 8),
    +newest.slice(8, 10),
    +newest.slice(10, 12),
    +newest.slice(12, 14),
  );
  return new Date(t - RC_MAX_AGE_SECONDS * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** the autocompletion sources whose precomputed answers wait to be made again */
const AC_DIRTY_SQL = 'CREATE TABLE IF NOT EXISTS smw_ac_dirty (ad_source INTEGER PRIMARY KEY)';

/** SMW's tables kept page by page (the import's are made set-based: sqlite/import/semantic.ts) */
class SqliteSemanticUpdateWriter implements SemanticUpdateWriter {
  private readonly s: Record<string, Database.Statement>;

  constructor(private readonly db: Database.Database) {
    db.exec(AC_DIRTY_SQL);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      declared: p("SELECT sp_key, sp_type FROM smw_property WHERE substr(sp_key, 1, 1) <> '_'").raw(),
      propId: p('SELECT sp_id FROM smw_property WHERE sp_key = ?').pluck(),
      propAdd: p('INSERT INTO smw_property (sp_key, sp_type) VALUES (?, ?)'),
      propType: p('SELECT sp_type FROM smw_property WHERE sp_id = ?').pluck(),
      setType: p('UPDATE smw_property SET sp_type = ? WHERE sp_id = ? AND sp_type <> ?'),
      subjectsOf: p('SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?').pluck(),
      clear: p('DELETE FROM smw_value WHERE sv_subject = ?'),
      dropSubject: p('DELETE FROM smw_subject WHERE ss_id = ?'),
      // a page some value names (its title, or for a category, an _INST/_SUBC item): one seek per property
      usedAsValue: p(
        `SELECT 1 FROM smw_property WHERE EXISTS (SELECT 1 FROM smw_value INDEXED BY smw_value_key WHERE sv_property = sp_id AND sv_key = @key AND sv_ns = @ns)
           OR EXISTS (SELECT 1 FROM smw_value INDEXED BY smw_value_item WHERE sv_property = sp_id AND sv_item = @item) LIMIT 1`,
      ).pluck(),
      valueSubjectSort: p(
        "UPDATE smw_subject SET ss_sortkey = replace(ss_title, '_', ' ') WHERE ss_namespace = ? AND ss_title = ? AND ss_subobject = ''",
      ),
      subjectGet: p('SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ? AND ss_subobject = ?').pluck(),
      subjectAdd: p('INSERT INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey) VALUES (?, ?, ?, ?)'),
      subjectSort: p('UPDATE smw_subject SET ss_sortkey = ? WHERE ss_id = ? AND ss_sortkey <> ?'),
      value: p(
        'INSERT OR REPLACE INTO smw_value (sv_subject, sv_property, sv_seq, sv_type, sv_item, sv_ns, sv_key, sv_num) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      valuePages: p(
        `INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
         SELECT sv_ns, sv_key, '', replace(sv_key, '_', ' ') FROM smw_value
         WHERE sv_subject IN (SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?) AND sv_ns IS NOT NULL`,
      ),
      valueCategories: p(
        `INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
         SELECT 14, t, '', replace(t, '_', ' ') FROM (SELECT substr(sv_item, 1, instr(sv_item, '#') - 1) AS t FROM smw_value
           WHERE sv_subject IN (SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?)
             AND sv_property IN (SELECT sp_id FROM smw_property WHERE sp_key IN ('_INST', '_SUBC')))`,
      ),
      withQueries: p(
        `SELECT DISTINCT ss_namespace AS ns, ss_title AS dbkey FROM smw_value INDEXED BY smw_value_item JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = (SELECT sp_id FROM smw_property WHERE sp_key = '_ASK') AND sv_item IS NOT NULL`,
      ),
      acFind: p(
        'SELECT av_id FROM smw_ac_word JOIN smw_ac_value ON av_id = aw_value WHERE aw_source = ? AND aw_key = ? AND av_value = ?',
      ).pluck(),
      acInsert: p('INSERT INTO smw_ac_value (av_id, av_source, av_value) VALUES (?, ?, ?)'),
      acDelete: p('DELETE FROM smw_ac_value WHERE av_id = ?'),
      acWordInsert: p('INSERT OR IGNORE INTO smw_ac_word (aw_source, aw_key, aw_value) VALUES (?, ?, ?)'),
      acWordDelete: p('DELETE FROM smw_ac_word WHERE aw_source = ? AND aw_key = ? AND aw_value = ?'),
      acMax: p('SELECT MAX(av_id) FROM smw_ac_value').pluck(),
      acAtOrAfter: p(
        'SELECT av_id AS id, av_source AS source, av_value AS value FROM smw_ac_value WHERE av_id >= ? ORDER BY av_id LIMIT 1',
      ),
      acBefore: p('SELECT av_id FROM smw_ac_value WHERE av_id < ? ORDER BY av_id DESC LIMIT 1').pluck(),
      acDirty: p('INSERT OR IGNORE INTO smw_ac_dirty (ad_source) VALUES (?)'),
      acDirtyAll: p('SELECT ad_source FROM smw_ac_dirty ORDER BY ad_source').pluck(),
      acClean: p('DELETE FROM smw_ac_dirty WHERE ad_source = ?'),
      acWordsFirst: p('SELECT aw_key, aw_value FROM smw_ac_word WHERE aw_source = ? ORDER BY aw_key, aw_value LIMIT ?').raw(),
      acWords: p(
        'SELECT aw_key, aw_value FROM smw_ac_word WHERE aw_source = ? AND (aw_key, aw_value) > (?, ?) ORDER BY aw_key, aw_value LIMIT ?',
      ).raw(),
      acNodesDelete: p('DELETE FROM smw_ac_node WHERE an_source = ?'),
      acNodeInsert: p('INSERT INTO smw_ac_node (an_source, an_key, an_values, an_json) VALUES (?, ?, ?, ?)'),
      acTop: p('SELECT av_value FROM json_each(?) j JOIN smw_ac_value ON av_id = j.value ORDER BY j.key').pluck(),
      // the completion values of a page's user properties: pages (Page type) and texts (text types)
      acOfPage: p(
        `SELECT sv_property, sv_key FROM smw_value JOIN smw_property ON sp_id = sv_property
         WHERE sv_subject IN (SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?) AND sv_key IS NOT NULL
           AND substr(sp_key, 1, 1) <> '_' AND ((sp_type = '_wpg' AND sv_ns IS NOT NULL) OR (sp_type IN (${[...BLOB_TYPES].map((t) => `'${t}'`).join(', ')}) AND sv_ns IS NULL))`,
      ).raw(),
      valueUsed: p('SELECT 1 FROM smw_value INDEXED BY smw_value_key WHERE sv_property = ? AND sv_key = ? LIMIT 1').pluck(),
      using: p(
        `SELECT DISTINCT ss_namespace AS ns, ss_title AS dbkey FROM smw_value INDEXED BY smw_value_key JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = ? AND sv_key IS NOT NULL
         UNION SELECT DISTINCT ss_namespace, ss_title FROM smw_value INDEXED BY smw_value_item JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = ? AND sv_item IS NOT NULL
         UNION SELECT DISTINCT ss_namespace, ss_title FROM smw_value INDEXED BY smw_value_num JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = ? AND sv_num IS NOT NULL`,
      ),
    };
  }

  declaredTypes(): Array<[string, string]> {
    return this.s.declared.all() as Array<[string, string]>;
  }

  propertyId(key: string): number | undefined {
    return this.s.propId.get(key) as number | undefined;
  }

  addProperty(key: string, type: string): number {
    return Number(this.s.propAdd.run(key, type).lastInsertRowid);
  }

  propertyType(id: number): string | undefined {
    return this.s.propType.get(id) as string | undefined;
  }

  setType(property: number, type: string): boolean {
    return this.s.setType.run(type, property, type).changes > 0;
  }

  /**
   * A page's semantic data gone: its values, and its subjects -- SMW knows a page that is only named by
   * values as a subject of its own (sorted by its title), as the import's valueSubjects() makes it.
   */
  clearPage(t: TitleRef): void {
    const named = this.s.usedAsValue.get({ ns: t.ns, key: t.dbkey, item: `${t.dbkey}#${t.ns}#` }) !== undefined;
    for (const id of this.s.subjectsOf.all(t.ns, t.dbkey) as number[]) {
      this.s.clear.run(id);
      if (!named) this.s.dropSubject.run(id);
    }
    if (named) this.s.valueSubjectSort.run(t.ns, t.dbkey);
  }

  subject(ns: number, dbkey: string, subobject: string, sortkey: string): number {
    const id = this.s.subjectGet.get(ns, dbkey, subobject) as number | undefined;
    if (id === undefined) return Number(this.s.subjectAdd.run(ns, dbkey, subobject, sortkey).lastInsertRowid);
    this.s.subjectSort.run(sortkey, id, sortkey);
    return id;
  }

  addValue(
    subject: number,
    property: number,
    seq: number,
    di: number,
    item: string | null,
    ns: number | null,
    key: string | null,
    sortNum: number | null,
  ): void {
    this.s.value.run(subject, property, seq, di, item, ns, key, sortNum);
  }

  valueSubjects(t: TitleRef): void {
    this.s.valuePages.run(t.ns, t.dbkey);
    this.s.valueCategories.run(t.ns, t.dbkey);
  }

  pagesWithQueries(): TitleRef[] {
    return this.s.withQueries.all() as TitleRef[];
  }

  pagesUsing(property: number): TitleRef[] {
    return this.s.using.all(property, property, property) as TitleRef[];
  }

  readonly heavyRows = HEAVY_ROWS;

  /**
   * A new value gets the id halfway between its neighbours in (source, value) byte order (the import
   * leaves AC_ID_STRIDE between ids): found by bisecting the ids, a seek each. Its word keys go in at once
   * (a light prefix answers with it); the source's precomputed answers are made again by
   * rebuildCompletion() (the follower's periodic job, and the end of import --update).
   */
  addCompletionValue(source: number, value: string): void {
    const shown = value.replace(/_/g, ' ');
    const keys = wordKeys(shown);
    // a value without a word key is never offered
    if (keys.length === 0 || this.completionId(source, shown, keys[0]) !== undefined) return;
    let id = this.idBetween(source, value);
    if (id === null) {
      this.respace();
      id = this.idBetween(source, value)!;
    }
    this.s.acInsert.run(id, source, shown);
    for (const k of keys) this.s.acWordInsert.run(source, k, id);
    this.s.acDirty.run(source);
  }

  completionValuesOf(t: TitleRef): Array<[number, string]> {
    return this.s.acOfPage.all(t.ns, t.dbkey) as Array<[number, string]>;
  }

  removeCompletionValue(source: number, value: string, always: boolean): void {
    if (!always && source >= 0 && this.s.valueUsed.get(source, value) !== undefined) return;
    const shown = value.replace(/_/g, ' ');
    const keys = wordKeys(shown);
    if (keys.length === 0) return;
    const id = this.completionId(source, shown, keys[0]);
    if (id === undefined) return;
    for (const k of keys) this.s.acWordDelete.run(source, k, id);
    this.s.acDelete.run(id);
    this.s.acDirty.run(source);
  }

  private completionId(source: number, shown: string, key: string): number | undefined {
    return this.s.acFind.get(source, key, shown) as number | undefined;
  }

  /** the value as the import ordered it: page values and titles with underscores, texts as they are */
  private rawOf(source: number, shown: string): string {
    if (source < 0) return shown.replace(/ /g, '_');
    let type = this.types.get(source);
    if (type === undefined) this.types.set(source, (type = (this.s.propType.get(source) as string | undefined) ?? '_wpg'));
    return type === '_wpg' ? shown.replace(/ /g, '_') : shown;
  }

  private readonly types = new Map<number, string>();

  private before(row: { id: number; source: number; value: string }, source: number, raw: string): boolean {
    return row.source < source || (row.source === source && compareBytes(this.rawOf(row.source, row.value), raw) < 0);
  }

  /** an id between the value's neighbours in (source, value) order; null when they are adjacent */
  private idBetween(source: number, raw: string): number | null {
    const max = (this.s.acMax.get() as number | null) ?? 0;
    let lo = 1;
    let hi = max;
    let next: number | null = null;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const row = this.s.acAtOrAfter.get(mid) as { id: number; source: number; value: string } | undefined;
      if (row === undefined || row.id > hi) {
        hi = mid - 1;
        continue;
      }
      if (this.before(row, source, raw)) lo = row.id + 1;
      else {
        next = row.id;
        hi = mid - 1;
      }
    }
    if (next === null) return max + AC_ID_STRIDE;
    const prev = (this.s.acBefore.get(next) as number | undefined) ?? 0;
    return next - prev > 1 ? prev + Math.floor((next - prev) / 2) : null;
  }

  /** every value's id spread AC_ID_STRIDE apart again, in their order (the gaps between two were used up) */
  private respace(): void {
    const db = this.db;
    db.exec(`CREATE TEMP TABLE ac_map AS SELECT av_id AS old, ROW_NUMBER() OVER (ORDER BY av_id) * ${AC_ID_STRIDE} AS new FROM smw_ac_value;
      CREATE UNIQUE INDEX temp.ac_map_old ON ac_map (old);
      CREATE TEMP TABLE ac_v AS SELECT m.new AS id, av_source AS source, av_value AS value FROM smw_ac_value JOIN ac_map m ON m.old = av_id;
      CREATE TEMP TABLE ac_w AS SELECT aw_source AS source, aw_key AS key, m.new AS value FROM smw_ac_word JOIN ac_map m ON m.old = aw_value;
      DELETE FROM smw_ac_value; INSERT INTO smw_ac_value SELECT * FROM ac_v ORDER BY id;
      DELETE FROM smw_ac_word; INSERT INTO smw_ac_word SELECT * FROM ac_w ORDER BY 1, 2, 3;
      DROP TABLE ac_map; DROP TABLE ac_v; DROP TABLE ac_w;`);
  }

  changedCompletionSources(): number[] {
    return this.s.acDirtyAll.all() as number[];
  }

  wordKeys(source: number, after: [string, number] | null, limit: number): Array<[string, number]> {
    return (after === null ? this.s.acWordsFirst.all(source, limit) : this.s.acWords.all(source, after[0], after[1], limit)) as Array<
      [string, number]
    >;
  }

  clearHeavyPrefixes(source: number): void {
    this.s.acNodesDelete.run(source);
  }

  addHeavyPrefix(source: number, key: string, topValues: number[]): void {
    const texts = this.s.acTop.all(JSON.stringify(topValues)) as string[];
    const printed = printCompletionAnswer(texts);
    this.s.acNodeInsert.run(source, key, printed.utf8, printed.ascii);
  }

  completionSourceDone(source: number): void {
    this.s.acClean.run(source);
  }
}
