/**
 * Pass 1: one `page` row (with its first and latest revision's metadata), the latest text in
 * `page_text`, and a `redirect` row for redirects, per dump page. Uploads of file pages go to a
 * scratch table the file import reads (and drops).
 *
 * Rows go to the import writer, PAGES_PER_TRANSACTION dump items per batch.
 */
import crypto from 'node:crypto';
import { TitleCodec } from '../wiki/titles.js';
import { NS_FILE, NS_MEDIAWIKI, NS_USER } from '../wiki/namespaces.js';
import { sha1HexToBase36 } from '../wiki/files.js';
import type {
  HistoryImportWriter,
  ImportWriter,
  PageImportWriter,
  PageRow,
  RedirectRow,
  UploadFactsWriter,
} from '../store/import-writer.js';
import {
  readDump,
  type DumpItem,
  type DumpLogItem,
  type DumpPage,
  type DumpRevision,
  type DumpRevisionPage,
  type DumpSiteInfo,
  type DumpUpload,
} from './dump-reader.js';
import { redirectTarget, redirectTargetFromTitle } from '../wikitext/redirect.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import { inBatch } from './batch.js';
import { readDumpThreaded, type PreparedText, type ThreadedDumpItem } from './dump-thread.js';

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

/** A dump page's rows, before they are written: its page row, latest text and redirect target. */
export interface PreparedPage {
  row: PageRow;
  text: string;
  target: RedirectRow | null;
}

/** What pass 1 writes to: the import's writer, or the incremental writer (src/importer/update.ts). */
export interface PageWriterTarget {
  pages: Pick<PageImportWriter, 'insert' | 'remove' | 'insertText' | 'insertRedirect' | 'latestOf'>;
  history: Pick<HistoryImportWriter, 'writeRevision' | 'writeLog'>;
  uploads: Pick<UploadFactsWriter, 'record'>;
}

export interface Pass1Counts {
  pages: number;
  redirects: number;
  duplicates: number;
  skipped: number;
}

export class PageWriter {
  readonly counts: Pass1Counts = { pages: 0, redirects: 0, duplicates: 0, skipped: 0 };
  readonly history: PageWriterTarget['history'];
  /** the title of the page whose revisions are being read (revisions come page by page) */
  private revPage: { id: number; title: { ns: number; dbkey: string } | null } | null = null;

  constructor(
    private readonly w: PageWriterTarget,
    private readonly codec: TitleCodec,
    private readonly log: (line: string) => void,
    private readonly interwiki?: InterwikiMap,
    /** the dump's name in messages */
    private readonly dumpName = 'dump',
  ) {
    this.history = w.history;
  }

  write(p: DumpPage): void {
    const prepared = this.prepare(p);
    if (prepared !== null) this.insert(p, prepared);
  }

  /** The rows of a dump page (null: its title is unusable, said in the log); written by insert(). */
  prepare(p: DumpPage): PreparedPage | null {
    const title = dumpPageTitle(p, this.codec);
    if (title === null) {
      this.counts.skipped++;
      this.log(`warning: page ${p.id} has an unusable title ${JSON.stringify(p.title)}; skipped`);
      return null;
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
    const row: PageRow = {
      id: p.id,
      ns: title.ns,
      dbkey: title.dbkey,
      isRedirect: target !== null,
      len,
      latestRevId: latest.id,
      touched: latest.timestamp,
      revisionCount: p.revisionCount,
      model,
      firstRevId: first.id,
      firstTimestamp: first.timestamp,
      firstUser: first.user,
      firstUserId: first.userId,
      firstLen: isOnly ? len : first.bytes >= 0 ? first.bytes : null,
      firstSha1: isOnly ? latestSha1 : first.sha1,
      firstComment: first.comment,
      firstMinor: first.minor,
      latestTimestamp: latest.timestamp,
      latestUser: latest.user,
      latestUserId: latest.userId,
      latestComment: latest.comment,
      latestSha1,
      latestMinor: latest.minor,
      latestParentId: latest.parentId,
      random: pageRandom(p.id),
    };
    return {
      row,
      text,
      target: target && { ns: target.ns, dbkey: target.dbkey, fragment: target.fragment, interwiki: target.interwiki ?? '' },
    };
  }

  /** The prepared rows of a page written (an id written before: the copy with the newer latest revision wins). */
  insert(p: DumpPage, { row, text, target }: PreparedPage): void {
    const { latest } = p;
    const title = row;
    const pages = this.w.pages;
    if (!pages.insert(row)) {
      // the same page id twice (concatenated dumps): the copy with the newer latest revision wins, and
      // the operator is told which dump line repeated the id
      this.counts.duplicates++;
      const latestOld = pages.latestOf(p.id);
      const old = { ts: latestOld.timestamp, rev: latestOld.revId };
      const keepOld = old.ts > latest.timestamp || (old.ts === latest.timestamp && old.rev >= latest.id);
      this.log(
        `warning: ${this.dumpName}:${p.line}: page id ${p.id} (${JSON.stringify(p.title)}) was already used by an ` +
          `earlier page of the dump; the copy with the newer latest revision (${keepOld ? old.rev : latest.id}) is kept, the other dropped`,
      );
      if (keepOld) return;
      if (pages.remove(p.id)) this.counts.redirects--;
      this.counts.pages--;
      pages.insert(row);
    }
    pages.insertText(p.id, text);
    if (target) {
      pages.insertRedirect(p.id, target);
      this.counts.redirects++;
    }
    this.counts.pages++;
    for (const u of p.uploads) this.writeUpload(u, title.ns === NS_FILE ? title.dbkey : undefined);
  }

  /** One revision of any page, as it is read (bounded memory whatever the history's length). */
  writeRevision(page: DumpRevisionPage, rev: DumpRevision, prepared?: PreparedText): void {
    if (this.revPage?.id !== page.id) {
      this.revPage = { id: page.id, title: dumpPageTitle(Object.assign({}, page, { redirectTitle: undefined }) as DumpPage, this.codec) };
    }
    const title = this.revPage.title;
    if (title === null || page.id <= 0) return; // the page itself is skipped (and reported) when it ends
    const len = prepared ? prepared.len : rev.text !== null ? Buffer.byteLength(rev.text, 'utf8') : rev.bytes >= 0 ? rev.bytes : null;
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
      encodedText: prepared?.encoded,
      len,
      sha1: prepared ? prepared.sha1 : rev.sha1 !== '' ? rev.sha1 : rev.text !== null ? sha1Base36(rev.text) : '',
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
      page: l.page,
    });
  }

  /** An <upload> (inside a file page, or on its own) as the uploader facts of a file name. */
  writeUpload(u: DumpUpload, pageDbKey?: string): void {
    const t = u.filename !== '' ? this.codec.parse(u.filename, NS_FILE) : null;
    const name = t && t.ns === NS_FILE ? t.dbkey : pageDbKey;
    if (!name || u.timestamp === '') return;
    this.w.uploads.record(name, { user: u.user, userId: u.userId, timestamp: u.timestamp, comment: u.comment });
  }
}

/**
 * After pass 1: pages indexed by title. A dump can hold one title under two page ids (a page deleted and
 * re-created between two partial dumps); the copy with the newer latest revision is kept, as an import
 * into MediaWiki would end with that one current.
 */
export function indexPageTitles(w: ImportWriter, log: (line: string) => void): void {
  const dropped = w.pages.indexTitles();
  if (dropped > 0) log(`warning: ${dropped} page(s) share a title with a newer page; the older copies are dropped`);
}

export interface SiteSetup {
  codec: TitleCodec;
  /** the dump's namespaces, which the codec was built from (TitleCodec.forSite) */
  namespaces?: DumpSiteInfo['namespaces'];
  /** content language */
  lang: string;
  siteName: string;
  counts: Pass1Counts;
  history: HistoryImportWriter;
}

/**
 * Pass 1 over the dump: <siteinfo> → meta and namespace rows (and the title codec of the wiki), every
 * <page> → page, page_text, redirect rows. A dump without <siteinfo> gets the default namespaces.
 */
export async function importPages(
  w: ImportWriter,
  dump: string,
  opts: {
    lang?: string;
    importTime: string;
    importId: string;
    log: (line: string) => void;
    onBytes: (bytes: number) => void;
    checkAbort: () => void;
    interwiki?: InterwikiMap;
    /** read, decompress and parse the dump on a thread of its own (not for standard input) */
    thread?: boolean;
  },
): Promise<SiteSetup> {
  let setup: (SiteSetup & { writer: PageWriter }) | null = null;
  const start = (site: DumpSiteInfo | null) => {
    const lang = opts.lang ?? site?.lang ?? 'uk';
    const siteName = site?.sitename || DEFAULT_SITENAME;
    const codec = TitleCodec.forSite(siteName, site?.namespaces);
    if (!site) opts.log('warning: the dump has no <siteinfo>; default namespaces are used');
    writeSiteMeta(w, site, { codec, lang, siteName, importTime: opts.importTime, importId: opts.importId });
    const writer = new PageWriter(w, codec, opts.log, opts.interwiki, dump);
    return { codec, namespaces: site?.namespaces, lang, siteName, counts: writer.counts, history: w.history, writer };
  };
  const readOpts = { onBytes: opts.onBytes, onWarning: (w: string) => opts.log(`warning: ${w}`) };
  const items: AsyncIterator<ThreadedDumpItem | DumpItem> = (opts.thread ? readDumpThreaded(dump, readOpts) : readDump(dump, readOpts))[
    Symbol.asyncIterator
  ]();
  // one batch per PAGES_PER_TRANSACTION dump items; false when the dump is done
  const batch = async (): Promise<boolean> => {
    for (let n = 0; n < PAGES_PER_TRANSACTION; n++) {
      const next = await items.next();
      if (next.done) return false;
      const item = 'item' in next.value ? next.value.item : next.value;
      const prepared = 'item' in next.value ? next.value.prepared : undefined;
      if (item.type === 'siteinfo') {
        setup ??= start(item.siteinfo); // siteinfo comes before the first page
        continue;
      }
      setup ??= start(null);
      if (item.type === 'page') setup.writer.write(item.page);
      else if (item.type === 'revision') setup.writer.writeRevision(item.page, item.revision, prepared);
      else if (item.type === 'logitem') setup.writer.writeLogItem(item.logitem);
      else setup.writer.writeUpload(item.upload);
    }
    return true;
  };
  try {
    while (await inBatch(w, batch)) opts.checkAbort();
  } finally {
    await items.return?.(undefined);
  }
  setup ??= start(null);
  opts.checkAbort();
  return {
    codec: setup.codec,
    namespaces: setup.namespaces,
    lang: setup.lang,
    siteName: setup.siteName,
    counts: setup.counts,
    history: w.history,
  };
}

function writeSiteMeta(
  w: ImportWriter,
  site: DumpSiteInfo | null,
  s: { codec: TitleCodec; lang: string; siteName: string; importTime: string; importId: string },
): void {
  w.site.write({
    siteinfo: {
      sitename: s.siteName,
      dbname: site?.dbname ?? '',
      base: site?.base ?? '',
      generator: site?.generator ?? '',
      case: site?.case || 'first-letter',
      lang: s.lang,
    },
    lang: s.lang,
    importTime: s.importTime,
    importId: s.importId,
    namespaces: [...s.codec.namespaces.values()].map((n) => ({ id: n.id, name: n.name, canonical: n.canonical ?? null, case: n.case })),
  });
}
