/**
 * Pass 1: one `page` row (with its first and latest revision's metadata), the latest text in
 * `page_text`, and a `redirect` row for redirects, per dump page. Uploads of file pages go to a
 * scratch table the file import reads (and drops).
 *
 * Rows are written with prepared statements, PAGES_PER_TRANSACTION pages per transaction.
 */
import crypto from 'node:crypto';
import type Database from 'better-sqlite3';
import { TitleCodec } from '../wiki/titles.js';
import { NS_FILE, NS_MEDIAWIKI, NS_USER } from '../wiki/namespaces.js';
import { sha1HexToBase36 } from '../wiki/files.js';
import { SCHEMA_VERSION } from '../store/sqlite/schema.js';
import { HistoryWriter } from '../store/sqlite/history-writer.js';
import { readDump, type DumpLogItem, type DumpPage, type DumpRevision, type DumpRevisionPage, type DumpSiteInfo, type DumpUpload } from './dump-reader.js';
import { redirectTarget, redirectTargetFromTitle } from '../wikitext/redirect.js';
import type { InterwikiMap } from '../wiki/interwiki.js';

/**
 * page_random: uniform in [0, 1) and fixed per page id (a 32-bit integer hash), so that list=random
 * reaches every page and the same dump gives the same database.
 */
export function pageRandom(id: number): number {
  let h = (id ^ 0x9e3779b9) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b) >>> 0;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
  h = (h ^ (h >>> 16)) >>> 0;
  return h / 4294967296;
}

/**
 * Scratch table tmp_upload: upload facts (newest upload per file) from the dump, completed from
 * uploads.json and read by the file import (files.ts); dropped before pass 2.
 */
const UPLOAD_TABLE_SQL = `CREATE TABLE tmp_upload (name TEXT PRIMARY KEY, user TEXT NOT NULL, user_id INTEGER NOT NULL,
  timestamp TEXT NOT NULL, comment TEXT NOT NULL) WITHOUT ROWID`;

export function dropUploadFacts(db: Database.Database): void {
  db.exec('DROP TABLE tmp_upload');
}

const PAGES_PER_TRANSACTION = 5000;
const DEFAULT_SITENAME = 'Вікі';

/** MediaWiki's base-36 SHA-1 (rev_sha1) of a text. */
function sha1Base36(data: string | Buffer): string {
  return sha1HexToBase36(crypto.createHash('sha1').update(data).digest('hex'));
}

/** The namespace and DB key of a dump page: the dump's <ns> and its title without that prefix. */
export function dumpPageTitle(p: DumpPage, codec: TitleCodec): { ns: number; dbkey: string } | null {
  if (p.ns === undefined) {
    const t = codec.parse(p.title, 0);
    return t && { ns: t.ns, dbkey: t.dbkey };
  }
  let text = p.title;
  if (p.ns !== 0) {
    const name = codec.nsName(p.ns);
    if (name && text.startsWith(name + ':')) text = text.slice(name.length + 1);
    else {
      // a prefix other than the local name (canonical, alias): let the codec split it
      const t = codec.parse(text, 0);
      if (t && t.ns === p.ns) text = t.dbkey;
      else text = text.slice(text.indexOf(':') + 1);
    }
  }
  const dbkey = text.replace(/ /g, '_');
  return dbkey === '' ? null : { ns: p.ns, dbkey };
}

/** Content model when the dump does not name one (0.10 always does; older dumps do not). */
function defaultModel(ns: number, dbkey: string): string {
  if (ns === NS_MEDIAWIKI || ns === NS_USER) {
    if (dbkey.endsWith('.css')) return 'css';
    if (dbkey.endsWith('.js')) return 'javascript';
  }
  return 'wikitext';
}

export interface Pass1Counts {
  pages: number;
  redirects: number;
  duplicates: number;
  skipped: number;
}

export class PageWriter {
  readonly counts: Pass1Counts = { pages: 0, redirects: 0, duplicates: 0, skipped: 0 };
  readonly history: HistoryWriter;
  /** the title of the page whose revisions are being read (revisions come page by page) */
  private revPage: { id: number; title: { ns: number; dbkey: string } | null } | null = null;
  private readonly insPage: Database.Statement;
  private readonly insText: Database.Statement;
  private readonly insRedirect: Database.Statement;
  private readonly insUpload: Database.Statement;
  private readonly latestOf: Database.Statement;
  private readonly delPage: Database.Statement;
  private readonly delText: Database.Statement;
  private readonly delRedirect: Database.Statement;

  constructor(
    private readonly db: Database.Database,
    private readonly codec: TitleCodec,
    private readonly log: (line: string) => void,
    private readonly interwiki?: InterwikiMap,
    /** the dump's name in messages */
    private readonly dumpName = 'dump',
  ) {
    db.exec(UPLOAD_TABLE_SQL);
    this.history = new HistoryWriter(db);
    this.insPage = db.prepare(
      `INSERT INTO page (page_id, page_namespace, page_title, page_is_redirect, page_len, page_latest, page_touched,
         page_rev_count, page_content_model, first_rev_id, first_timestamp, first_user, first_user_id,
         first_len, first_sha1, first_comment, first_minor,
         latest_timestamp, latest_user, latest_user_id, latest_comment, latest_sha1, latest_minor, latest_parent_id, page_random)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insText = db.prepare('INSERT INTO page_text (page_id, old_text) VALUES (?, ?)');
    this.insRedirect = db.prepare('INSERT INTO redirect (rd_from, rd_namespace, rd_title, rd_fragment, rd_interwiki) VALUES (?, ?, ?, ?, ?)');
    // the newest upload of a file wins: the image table describes the current version
    this.insUpload = db.prepare(
      `INSERT INTO tmp_upload (name, user, user_id, timestamp, comment) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (name) DO UPDATE SET user = excluded.user, user_id = excluded.user_id,
         timestamp = excluded.timestamp, comment = excluded.comment WHERE excluded.timestamp > tmp_upload.timestamp`,
    );
    this.latestOf = db.prepare('SELECT latest_timestamp AS ts, page_latest AS rev FROM page WHERE page_id = ?');
    this.delPage = db.prepare('DELETE FROM page WHERE page_id = ?');
    this.delText = db.prepare('DELETE FROM page_text WHERE page_id = ?');
    this.delRedirect = db.prepare('DELETE FROM redirect WHERE rd_from = ?');
  }

  write(p: DumpPage): void {
    const title = dumpPageTitle(p, this.codec);
    if (title === null) {
      this.counts.skipped++;
      this.log(`warning: page ${p.id} has an unusable title ${JSON.stringify(p.title)}; skipped`);
      return;
    }
    const { first, latest } = p;
    const text = latest.text ?? '';
    const model = latest.model ?? defaultModel(title.ns, title.dbkey);
    const len = latest.text !== null ? Buffer.byteLength(text, 'utf8') : Math.max(latest.bytes, 0);
    let target = null;
    if (model === 'wikitext') {
      target = redirectTarget(text, this.codec, this.interwiki);
      if (target === null && p.redirectTitle) target = redirectTargetFromTitle(p.redirectTitle, this.codec, this.interwiki);
    }
    const latestSha1 = latest.sha1 !== '' ? latest.sha1 : latest.text !== null ? sha1Base36(text) : '';
    // the first revision's text is not kept, but its size and hash are, as the dump states them
    const isOnly = first.id === latest.id;
    const row = [
      p.id, title.ns, title.dbkey, target ? 1 : 0, len, latest.id, latest.timestamp, p.revisionCount, model,
      first.id, first.timestamp, first.user, first.userId,
      isOnly ? len : first.bytes >= 0 ? first.bytes : null, isOnly ? latestSha1 : first.sha1, first.comment, first.minor ? 1 : 0,
      latest.timestamp, latest.user, latest.userId, latest.comment, latestSha1,
      latest.minor ? 1 : 0, latest.parentId, pageRandom(p.id),
    ];
    try {
      this.insPage.run(row);
    } catch (e) {
      if ((e as { code?: string }).code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') throw e;
      // the same page id twice (concatenated dumps): the copy with the newer latest revision wins, and
      // the operator is told which dump line repeated the id
      this.counts.duplicates++;
      const old = this.latestOf.get(p.id) as { ts: string; rev: number };
      const keepOld = old.ts > latest.timestamp || (old.ts === latest.timestamp && old.rev >= latest.id);
      this.log(
        `warning: ${this.dumpName}:${p.line}: page id ${p.id} (${JSON.stringify(p.title)}) was already used by an ` +
          `earlier page of the dump; the copy with the newer latest revision (${keepOld ? old.rev : latest.id}) is kept, the other dropped`,
      );
      if (keepOld) return;
      this.delPage.run(p.id);
      this.delText.run(p.id);
      if (this.delRedirect.run(p.id).changes > 0) this.counts.redirects--;
      this.counts.pages--;
      this.insPage.run(row);
    }
    this.insText.run(p.id, text);
    if (target) {
      this.insRedirect.run(p.id, target.ns, target.dbkey, target.fragment, target.interwiki ?? '');
      this.counts.redirects++;
    }
    this.counts.pages++;
    for (const u of p.uploads) this.writeUpload(u, title.ns === NS_FILE ? title.dbkey : undefined);
  }

  /** One revision of any page, as it is read (bounded memory whatever the history's length). */
  writeRevision(page: DumpRevisionPage, rev: DumpRevision): void {
    if (this.revPage?.id !== page.id) {
      this.revPage = { id: page.id, title: dumpPageTitle({ ...page, redirectTitle: undefined } as DumpPage, this.codec) };
    }
    const title = this.revPage.title;
    if (title === null || page.id <= 0) return; // the page itself is skipped (and reported) when it ends
    const len = rev.text !== null ? Buffer.byteLength(rev.text, 'utf8') : rev.bytes >= 0 ? rev.bytes : null;
    const model = rev.model ?? defaultModel(title.ns, title.dbkey);
    this.history.writeRevision({
      id: rev.id,
      page: page.id,
      ns: title.ns,
      parentId: rev.parentId,
      timestamp: rev.timestamp,
      user: rev.user,
      userId: rev.userId,
      comment: rev.comment,
      minor: rev.minor,
      deleted: rev.deleted,
      text: rev.text,
      len,
      sha1: rev.sha1 !== '' ? rev.sha1 : rev.text !== null ? sha1Base36(rev.text) : '',
      model,
      format: rev.format ?? (model === 'css' ? 'text/css' : model === 'javascript' ? 'text/javascript' : 'text/x-wiki'),
    });
  }

  writeLogItem(l: DumpLogItem): void {
    const t = l.logtitle !== '' ? this.codec.parse(l.logtitle, 0) : null;
    this.history.writeLog({
      id: l.id,
      type: l.type,
      action: l.action,
      timestamp: l.timestamp,
      user: l.user,
      userId: l.userId,
      ns: t ? t.ns : 0,
      dbkey: t ? t.dbkey : '',
      comment: l.comment,
      params: l.params,
      deleted: l.deleted,
    });
  }

  /** An <upload> (inside a file page, or on its own) as the uploader facts of a file name. */
  writeUpload(u: DumpUpload, pageDbKey?: string): void {
    const t = u.filename !== '' ? this.codec.parse(u.filename, NS_FILE) : null;
    const name = t && t.ns === NS_FILE ? t.dbkey : pageDbKey;
    if (!name || u.timestamp === '') return;
    this.insUpload.run(name, u.user, u.userId, u.timestamp, u.comment);
  }
}

/**
 * After pass 1: the unique (namespace, title) index. A dump can hold one title under two page ids
 * (a page deleted and re-created between two partial dumps); the copy with the newer latest revision
 * is kept, as an import into MediaWiki would end with that one current.
 */
export function createPageIndexes(db: Database.Database, create: () => void, log: (line: string) => void): void {
  try {
    create();
    return;
  } catch (e) {
    if (!String((e as Error).message).includes('UNIQUE')) throw e;
  }
  db.exec('CREATE INDEX tmp_page_title ON page (page_namespace, page_title)');
  const losers = db
    .prepare(
      `SELECT p.page_id FROM page p JOIN page q ON q.page_namespace = p.page_namespace AND q.page_title = p.page_title
       WHERE q.latest_timestamp > p.latest_timestamp OR (q.latest_timestamp = p.latest_timestamp AND q.page_id > p.page_id)`,
    )
    .pluck()
    .all() as number[];
  db.exec('DROP INDEX tmp_page_title');
  log(`warning: ${losers.length} page(s) share a title with a newer page; the older copies are dropped`);
  const del = ['page', 'page_text'].map((t) => db.prepare(`DELETE FROM ${t} WHERE page_id = ?`));
  const delRd = db.prepare('DELETE FROM redirect WHERE rd_from = ?');
  db.transaction(() => {
    for (const id of losers) {
      for (const d of del) d.run(id);
      delRd.run(id);
    }
  })();
  create();
}

export interface SiteSetup {
  codec: TitleCodec;
  /** content language */
  lang: string;
  siteName: string;
  counts: Pass1Counts;
  history: HistoryWriter;
}

/**
 * Pass 1 over the dump: <siteinfo> → meta and namespace rows (and the title codec of the wiki), every
 * <page> → page, page_text, redirect rows. A dump without <siteinfo> gets the default namespaces.
 */
export async function importPages(
  db: Database.Database,
  dump: string,
  opts: { lang?: string; importTime: string; importId: string; log: (line: string) => void; onBytes: (bytes: number) => void; checkAbort: () => void; interwiki?: InterwikiMap },
): Promise<SiteSetup> {
  let setup: (SiteSetup & { writer: PageWriter }) | null = null;
  const start = (site: DumpSiteInfo | null) => {
    const lang = opts.lang ?? site?.lang ?? 'uk';
    const siteName = site?.sitename || DEFAULT_SITENAME;
    const codec = TitleCodec.forSite(siteName, site?.namespaces);
    if (!site) opts.log('warning: the dump has no <siteinfo>; default namespaces are used');
    writeSiteMeta(db, site, { codec, lang, siteName, importTime: opts.importTime, importId: opts.importId });
    const writer = new PageWriter(db, codec, opts.log, opts.interwiki, dump);
    return { codec, lang, siteName, counts: writer.counts, history: writer.history, writer };
  };
  let inBatch = 0;
  try {
    for await (const item of readDump(dump, { onBytes: opts.onBytes, onWarning: (w) => opts.log(`warning: ${w}`) })) {
      if (item.type === 'siteinfo') {
        setup ??= start(item.siteinfo); // siteinfo comes before the first page
        continue;
      }
      setup ??= start(null);
      if (inBatch === 0) db.exec('BEGIN');
      if (item.type === 'page') setup.writer.write(item.page);
      else if (item.type === 'revision') setup.writer.writeRevision(item.page, item.revision);
      else if (item.type === 'logitem') setup.writer.writeLogItem(item.logitem);
      else setup.writer.writeUpload(item.upload);
      if (++inBatch >= PAGES_PER_TRANSACTION) {
        db.exec('COMMIT');
        inBatch = 0;
        opts.checkAbort();
      }
    }
    if (db.inTransaction) db.exec('COMMIT');
  } finally {
    if (db.inTransaction) db.exec('ROLLBACK');
  }
  setup ??= start(null);
  opts.checkAbort();
  return { codec: setup.codec, lang: setup.lang, siteName: setup.siteName, counts: setup.counts, history: setup.writer.history };
}

function writeSiteMeta(
  db: Database.Database,
  site: DumpSiteInfo | null,
  s: { codec: TitleCodec; lang: string; siteName: string; importTime: string; importId: string },
): void {
  const meta = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
  const siteinfo = {
    sitename: s.siteName,
    dbname: site?.dbname ?? '',
    base: site?.base ?? '',
    generator: site?.generator ?? '',
    case: site?.case || 'first-letter',
    lang: s.lang,
  };
  const nsRow = db.prepare('INSERT INTO namespace (ns_id, ns_name, ns_canonical, ns_case) VALUES (?, ?, ?, ?)');
  db.transaction(() => {
    meta.run('schema_version', String(SCHEMA_VERSION));
    meta.run('siteinfo', JSON.stringify(siteinfo));
    meta.run('lang', s.lang);
    meta.run('import_time', s.importTime);
    meta.run('import_id', s.importId);
    for (const n of s.codec.namespaces.values()) nsRow.run(n.id, n.name, n.canonical ?? null, n.case);
  })();
}
