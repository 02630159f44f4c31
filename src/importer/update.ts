/**
 * The incremental path: batches of UpdateItems (update-items.ts) applied to a database an import made,
 * each in one transaction, as MediaWiki keeps its tables when pages change -- the one path `import
 * --update` (a dump of changed pages) and `follow` (the upstream's API) both write through.
 *
 * A batch runs in two phases. Items, in order: a page's revisions, then its `page` item, which undoes what
 * the page's old version left (its link rows and the category counts they made, its row of the search
 * index, its share of the statistics, its parser cache entries, its message override) and writes its new
 * page, text and redirect rows with pass 1's PageWriter; deletions, log entries, users, recent changes and
 * files likewise. Then every page the batch wrote is analysed by pass 2's PageAnalyzer over the database
 * as the batch left it (so that the pages of one batch see each other as a fresh import would) and its
 * rows written as pass 2 writes them. Pages that transclude a changed page go into the refresh queue
 * (MediaWiki's refreshLinks jobs), which `refresh()` drains at the caller's pace, a bounded number of pages
 * per transaction.
 *
 * The search index is contentless (FTS5): a row is deleted by giving its old folded texts again, so a
 * page's old row is made again from the stored state just before the batch first changes anything it
 * depends on (its text, its title, the redirects to it).
 */
import path from 'node:path';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { TitleCodec } from '../wiki/titles.js';
import type { NamespaceInfo } from '../wiki/namespaces.js';
import { NS_CATEGORY, NS_FILE, NS_MEDIAWIKI } from '../wiki/namespaces.js';
import { sha1HexToBase36 } from '../wiki/files.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import type { PageWithText, SearchRow, Store, TitleRef } from '../store/import-writer.js';
import type { SemanticUpdateWriter, SiteStatistics, StoredPage, UpdateWriter } from '../store/update-writer.js';
import { openUpdateWriter } from '../store/open.js';
import { PageAnalyzer, type AnalysisSetup } from './analysis.js';
import { PageWriter, type PageWriterTarget } from './pages.js';
import { loadInterwikiMap } from './interwiki-file.js';
import { categoryType, inlineQueryLinkRows, writePageLinks, type InlineQueryEvaluator } from './link-pass.js';
import { applySemanticOps, stagedValue, TopKTrie } from './semantic-hook.js';
import { COMPLETION_LIST_VALUES } from '../semantic/completion-answer.js';
import type { SemanticOps } from './semantic-analysis.js';
import { PREDEFINED_BY_KEY } from '../semantic/types.js';
import { messageOverrideKey } from './messages.js';
import { mediaType, readFileFacts, type FileFacts } from './files.js';
import type { UpdateItem, UpstreamPosition } from './update-items.js';
import { readDump, type DumpLogItem, type DumpUpload } from './dump-reader.js';
import { checkDumpPath } from './dump-source.js';
import crypto from 'node:crypto';

export interface UpdaterOptions {
  /** informational lines and warnings (default: stderr) */
  log?: (line: string) => void;
  /** the files directory (`file` items' paths are below it) */
  filesDir?: string;
  /** the interwiki map the import read the links with (default: data/interwiki.list) */
  interwikiFile?: string;
  /** the analysis clock ({{CURRENTYEAR}} and friends; default: now) */
  now?: number;
  /**
   * The inline query evaluator over the database (the CLI makes it from the serving code's, as for
   * import): with it, the links of {{#ask:}} results are recorded as the import records them.
   */
  inlineQueries?: (reader: Store) => Promise<InlineQueryEvaluator>;
}

export interface ApplySummary {
  /** pages written (new, edited, moved, undeleted) */
  pages: number;
  deleted: number;
  /** revisions and log entries new to the database (those already stored are skipped) */
  revisions: number;
  logItems: number;
  files: number;
  users: number;
  recentChanges: number;
  /** pages queued for a refresh by this batch */
  queued: number;
  seconds: number;
}

export interface Updater {
  /** one batch, one transaction, in item order; revisions already stored are skipped */
  apply(batch: readonly UpdateItem[]): Promise<ApplySummary>;
  /** the position stored by the last applied batch (null: none; a database made by `import` reports the newest change its dump holds) */
  position(): UpstreamPosition | null;
  /** pages waiting to be re-analysed because a page they transclude changed (MediaWiki's refreshLinks jobs) */
  refreshBacklog(): number;
  /** re-analyse up to `limit` of them, in one short transaction; returns how many */
  refresh(limit: number): Promise<number>;
  /**
   * The query-page reports recomputed (updateSpecialPages.php; `follow --reports-interval`), and the
   * precomputed autocompletion answers of the sources whose values changed since
   */
  rebuildReports(): Promise<void>;
  close(): void;
}

/** A batch or an item the updater refuses, before it writes anything. */
export class UpdateRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpdateRefused';
  }
}

/** the semantic importer's analyzer module (semantic-hook.ts names the same) */
const SEMANTIC_ANALYZER = new URL('./semantic-analysis.js', import.meta.url).href;

/** items of one batch at most */
export const MAX_BATCH_ITEMS = 100_000;
/** bytes of one revision text at most ($wgMaxArticleSize is 2 MiB; a dump of another wiki may allow more) */
export const MAX_TEXT_BYTES = 16 * 1024 * 1024;
/** pages analysed per read of their texts */
const ANALYSIS_CHUNK = 200;

export async function openUpdater(db: string, opts: UpdaterOptions = {}): Promise<Updater> {
  const w = openUpdateWriter(db);
  try {
    const updater = new SqlUpdater(w, opts);
    await updater.init();
    return updater;
  } catch (e) {
    w.close();
    throw e;
  }
}

class SqlUpdater implements Updater {
  private readonly log: (line: string) => void;
  private readonly codec: TitleCodec;
  private readonly lang: string;
  private readonly interwiki: InterwikiMap;
  private readonly setup: AnalysisSetup;
  private readonly knownLangs: Set<string>;
  /** for the old search rows: reads only what the stored state says (no expansion, so nothing cached) */
  private searcher!: PageAnalyzer;
  private closed = false;

  constructor(
    private readonly w: UpdateWriter,
    private readonly opts: UpdaterOptions,
  ) {
    this.log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
    const site = w.site();
    const namespaces: NamespaceInfo[] = site.namespaces.map((n) => ({
      id: n.id,
      name: n.name,
      canonical: n.canonical ?? undefined,
      case: n.case === 'case-sensitive' ? 'case-sensitive' : 'first-letter',
    }));
    this.codec = TitleCodec.forSite(site.siteName, namespaces);
    this.lang = site.lang;
    try {
      this.interwiki = loadInterwikiMap(opts.interwikiFile);
    } catch (e) {
      throw new UpdateRefused((e as Error).message);
    }
    this.setup = {
      siteName: site.siteName,
      namespaces,
      lang: site.lang,
      interwikiFile: opts.interwikiFile,
      now: opts.now ?? Date.now(),
      // Semantic MediaWiki's data, when the import kept it: the import's own analyzer
      hookAnalyzers: w.semantic !== null ? [SEMANTIC_ANALYZER] : [],
      searchIndex: w.search.enabled,
    };
    // as the import tells "X/ru" (a language) from "X/y" (a key)
    this.knownLangs = new Set([
      ...w.messages.languages(),
      ...this.interwiki.entries.filter((e) => this.interwiki.isLanguage(e.prefix)).map((e) => e.prefix),
      'en',
      site.lang,
    ]);
  }

  async init(): Promise<void> {
    this.searcher = await this.analyzer();
  }

  /** an analyser over the stored state: the declared property types as they are now, its caches empty */
  private analyzer(): Promise<PageAnalyzer> {
    const semantic = this.w.semantic;
    const setup = semantic !== null ? Object.assign({}, this.setup, { hookData: [semantic.declaredTypes()] }) : this.setup;
    return PageAnalyzer.create(this.w, setup, this.interwiki);
  }

  /** the inline query evaluator over the batch's state (null: the links of query results are not recorded) */
  evaluator(): Promise<InlineQueryEvaluator> | null {
    return this.opts.inlineQueries?.(this.w.readStore()) ?? null;
  }

  position(): UpstreamPosition | null {
    const p = this.w.position();
    if (p !== null) return p;
    const newest = this.w.newestChange();
    return newest === null ? null : { api: '', timestamp: newest, rcid: 0, logid: 0 };
  }

  refreshBacklog(): number {
    return this.w.refreshQueue.size();
  }

  async apply(batch: readonly UpdateItem[]): Promise<ApplySummary> {
    const t0 = performance.now();
    this.live();
    checkBatch(batch);
    // the files' bytes are read before the transaction opens (nothing is written if one is unreadable)
    const facts = new Map<UpdateItem, FileFacts>();
    for (const item of batch) {
      if (item.type !== 'file') continue;
      if (this.opts.filesDir === undefined) throw new UpdateRefused('a file item needs the files directory (--files)');
      const full = path.join(this.opts.filesDir, ...item.file.path.split('/'));
      try {
        facts.set(item, await readFileFacts(full, path.basename(full)));
      } catch (e) {
        throw new UpdateRefused(`file ${item.file.path}: ${(e as Error).message}`);
      }
    }
    // analysis after the writes, over the state the batch leaves: a fresh analyser (its template cache empty)
    const analyzer = await this.analyzer();
    const w = this.w;
    w.begin();
    try {
      const run = new BatchRun(this, w, analyzer);
      for (const item of batch) run.item(item, facts.get(item));
      await run.finish();
      w.commit();
      const s = run.summary;
      s.seconds = (performance.now() - t0) / 1000;
      return s;
    } catch (e) {
      w.rollback();
      throw e;
    }
  }

  async refresh(limit: number): Promise<number> {
    this.live();
    if (!Number.isInteger(limit) || limit <= 0) return 0;
    const analyzer = await this.analyzer();
    const w = this.w;
    w.begin();
    try {
      const ids = w.refreshQueue.take(limit);
      const run = new BatchRun(this, w, analyzer);
      for (const id of ids) run.relink(id);
      await run.finish();
      w.refreshQueue.done(ids);
      w.commit();
      return ids.length;
    } catch (e) {
      w.rollback();
      throw e;
    }
  }

  async rebuildReports(): Promise<void> {
    this.live();
    const w = this.w;
    w.begin();
    try {
      w.rebuildReports();
      if (w.semantic !== null) rebuildCompletionAnswers(w.semantic);
      w.commit();
    } catch (e) {
      w.rollback();
      throw e;
    }
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.w.close();
  }

  private live(): void {
    if (this.closed) throw new Error('the updater is closed');
  }

  /** what a batch run reads of the updater */
  get context() {
    return {
      log: this.log,
      codec: this.codec,
      lang: this.lang,
      interwiki: this.interwiki,
      knownLangs: this.knownLangs,
      searcher: this.searcher,
      evaluator: () => this.evaluator(),
    };
  }
}

/** The writes of one batch (or of one refresh): the first phase item by item, then finish(). */
class BatchRun {
  readonly summary: ApplySummary = {
    pages: 0,
    deleted: 0,
    revisions: 0,
    logItems: 0,
    files: 0,
    users: 0,
    recentChanges: 0,
    queued: 0,
    seconds: 0,
  };
  private readonly ctx: SqlUpdater['context'];
  private readonly pageWriter: PageWriter;
  private readonly stats: SiteStatistics;
  /** pages to analyse once the items are written */
  private readonly toAnalyse = new Set<number>();
  /** pages whose row of the search index has been removed (or never was) and is to be written again */
  private readonly searchTouched = new Set<number>();
  private readonly categories = new Set<string>();
  private readonly files = new Set<string>();
  /** revisions written, by page */
  private readonly newRevisions = new Map<number, number[]>();
  private readonly newLogs: number[] = [];
  private recentChangesGiven = false;
  private position: UpstreamPosition | null = null;

  constructor(
    updater: SqlUpdater,
    private readonly w: UpdateWriter,
    private readonly analyzer: PageAnalyzer,
  ) {
    this.ctx = updater.context;
    this.stats = w.statistics();
    const target: PageWriterTarget = {
      pages: w.pages,
      history: {
        writeRevision: (r) => {
          if (!w.history.writeRevision(r)) return;
          this.summary.revisions++;
          let list = this.newRevisions.get(r.page);
          if (list === undefined) this.newRevisions.set(r.page, (list = []));
          list.push(r.id);
        },
        writeLog: (l) => {
          if (!w.history.writeLog(l)) return;
          this.summary.logItems++;
          this.newLogs.push(l.id);
        },
      },
      uploads: w.uploads,
    };
    this.pageWriter = new PageWriter(target, this.ctx.codec, this.ctx.log, this.ctx.interwiki, 'update');
  }

  item(item: UpdateItem, facts: FileFacts | undefined): void {
    switch (item.type) {
      case 'siteinfo':
        return; // the site is the imported one
      case 'revision':
        this.pageWriter.writeRevision(item.page, item.revision);
        return;
      case 'page':
        this.page(item);
        return;
      case 'logitem':
        this.pageWriter.writeLogItem(item.logitem);
        this.logged(item.logitem);
        return;
      case 'upload':
        this.pageWriter.writeUpload(item.upload);
        return;
      case 'deletion': {
        const stored = this.w.page(item.pageId);
        if (stored === undefined) return;
        this.remove(stored);
        this.summary.deleted++;
        return;
      }
      case 'recentchange': {
        const c = item.change;
        const t = this.ctx.codec.parse(c.title, 0);
        this.w.history.recentChange({
          rcid: c.rcid,
          type: c.type,
          ns: t ? t.ns : c.ns,
          dbkey: t ? t.dbkey : c.title.replace(/ /g, '_'),
          pageId: c.pageId,
          revId: c.revId,
          oldRevId: c.oldRevId,
          timestamp: c.timestamp,
          user: c.user,
          userId: c.userId,
          comment: c.comment,
          minor: c.minor,
          bot: c.bot,
          oldLen: c.oldLen,
          newLen: c.newLen,
          logId: c.logId ?? 0,
          logType: c.logType ?? null,
          logAction: c.logAction ?? null,
        });
        this.recentChangesGiven = true;
        this.summary.recentChanges++;
        return;
      }
      case 'user':
        this.w.history.user(item.user);
        this.summary.users++;
        return;
      case 'file':
        this.file(item.file.upload, item.file.path, facts!);
        return;
      case 'position':
        this.position = item.position;
        return;
    }
  }

  /** A page's new version (new, edited, moved, undeleted): the old one undone, the new rows written. */
  private page(item: Extract<UpdateItem, { type: 'page' }>): void {
    const p = item.page;
    const prepared = this.pageWriter.prepare(p);
    if (prepared === null) return;
    const { row } = prepared;
    const w = this.w;
    const old = w.page(p.id);
    if (old !== undefined) {
      const keepOld =
        old.latestTimestamp > row.latestTimestamp || (old.latestTimestamp === row.latestTimestamp && old.latestRevId >= row.latestRevId);
      if (keepOld && old.ns === row.ns && old.dbkey === row.dbkey) {
        // the database has this version (an overlap) or a newer one: only history it lacked is added, and
        // counted among the wiki's edits
        if (this.newRevisions.has(p.id)) {
          this.settleHistory(old.id);
          this.stats.edits += w.page(old.id)!.revisionCount - old.revisionCount;
        }
        return;
      }
    }
    // a title holds one page: another page there was moved away or deleted upstream
    const holder = w.pages.byTitle(row);
    if (holder !== undefined && holder.id !== p.id) {
      this.remove(w.page(holder.id)!);
    }
    if (old !== undefined) {
      this.detach(old);
      w.pages.remove(old.id);
      if (old.ns !== row.ns || old.dbkey !== row.dbkey) this.titleCompletion(old, false);
    }
    if (old === undefined || old.ns !== row.ns || old.dbkey !== row.dbkey) this.titleCompletion(row, true);
    // the page it redirects to gets this title among its redirect titles
    const target = prepared.target;
    if (target !== null && target.interwiki === '') this.touchSearchOf(target);
    this.pageWriter.insert(p, prepared);
    this.settleHistory(p.id);
    const stored = w.page(p.id)!;
    this.stats.pages++;
    this.stats.edits += stored.revisionCount;
    this.toAnalyse.add(p.id);
    this.searchTouched.add(p.id);
    this.queueTranscluders(stored);
    if (stored.ns === NS_CATEGORY) this.categories.add(stored.dbkey);
    if (stored.ns === NS_FILE) this.files.add(stored.dbkey);
    if (stored.ns === NS_MEDIAWIKI) this.override(stored, prepared.text);
    this.summary.pages++;
  }

  /**
   * What a dump of changed pages says of a deletion: its log entry (a dump has no page to say it). The
   * page at the title goes when nothing of it is newer than the entry (else it was re-created since).
   */
  private logged(l: DumpLogItem): void {
    if (l.type !== 'delete' || l.action !== 'delete' || l.logtitle === '') return;
    const t = this.ctx.codec.parse(l.logtitle, 0);
    const page = t && this.w.pages.byTitle(t);
    if (!page) return;
    const stored = this.w.page(page.id)!;
    if (stored.latestTimestamp > l.timestamp) return;
    this.remove(stored);
    this.summary.deleted++;
  }

  /** A page removed with everything derived from it (a deletion; a page whose title another took). */
  private remove(old: StoredPage): void {
    this.detach(old);
    this.w.pages.remove(old.id);
    this.titleCompletion(old, false);
    this.w.history.removeRevisionsOf(old.id);
    this.newRevisions.delete(old.id);
    this.toAnalyse.delete(old.id);
  }

  /**
   * What a page's stored version left undone: its link rows (and the category counts they made), its
   * search row (and its title among its target's redirect titles), its share of the statistics, its parser
   * cache entries, its message override; the pages that transclude it queued.
   */
  private detach(old: StoredPage): void {
    const w = this.w;
    if (old.isRedirect) {
      const target = w.pages.redirectOf(old.id);
      if (target !== undefined) this.touchSearchOf(target);
    } else {
      this.removeSearchRow(old.id);
    }
    this.unlink(old);
    this.clearSemantic(old);
    this.stats.pages--;
    this.stats.edits -= old.revisionCount;
    this.queueTranscluders(old);
    if (old.ns === NS_CATEGORY) this.categories.add(old.dbkey);
    if (old.ns === NS_FILE) this.files.add(old.dbkey);
    if (old.ns === NS_MEDIAWIKI) this.override(old, null);
  }

  /** the page's link rows removed, with what they counted */
  private unlink(old: StoredPage): void {
    const w = this.w;
    if (isArticle(old) && w.links.hasPageLinks(old.id)) this.stats.articles--;
    for (const c of w.links.clear(old.id)) {
      w.categories.count(c.category, c.type, -1);
      this.categories.add(c.category);
    }
    w.parserCache.drop(old.id);
  }

  /** A page that a refresh job re-analyses: its text is the same, its links may not be. */
  relink(id: number): void {
    const old = this.w.page(id);
    if (old === undefined) return;
    this.unlink(old);
    this.clearSemantic(old);
    this.toAnalyse.add(id);
  }

  private semanticChanged = false;

  /** the completion values the batch's pages had (removed at the end unless some subject still has them) */
  private readonly completionGone: Array<[number, string]> = [];

  private clearSemantic(t: TitleRef): void {
    const semantic = this.w.semantic;
    if (semantic === null) return;
    for (const v of semantic.completionValuesOf(t)) this.completionGone.push(v);
    semantic.clearPage(t);
    this.semanticChanged = true;
  }

  /** page titles are the autocompletion values of their namespace's source */
  private titleCompletion(t: TitleRef, present: boolean): void {
    const semantic = this.w.semantic;
    if (semantic === null) return;
    if (present) semantic.addCompletionValue(-1 - t.ns, t.dbkey);
    else semantic.removeCompletionValue(-1 - t.ns, t.dbkey, true);
  }

  private queueTranscluders(t: TitleRef): void {
    this.summary.queued += this.w.refreshQueue.enqueueTranscluders(t);
  }

  /** the search row of the page titled `t` is to be made again (its redirect titles change) */
  private touchSearchOf(t: TitleRef): void {
    const page = this.w.pages.byTitle(t);
    if (page === undefined || page.isRedirect) return;
    this.removeSearchRow(page.id);
  }

  private removeSearchRow(id: number): void {
    if (this.searchTouched.has(id) || !this.w.search.enabled) return;
    this.searchTouched.add(id);
    const page = this.w.pages.withText([id])[0];
    const row = page && this.ctx.searcher.searchRowOf(page);
    if (row) this.w.search.remove(row);
  }

  private settleHistory(id: number): void {
    this.w.settlePageHistory(id);
  }

  private override(page: TitleRef & { model?: string }, text: string | null): void {
    const o = messageOverrideKey(page.dbkey, page.model ?? 'wikitext', this.ctx.lang, this.ctx.knownLangs);
    if (o !== null) this.w.messages.setOverride(o.lang, o.key, text);
  }

  private file(upload: DumpUpload, rel: string, f: FileFacts): void {
    const t = this.ctx.codec.parse(upload.filename, NS_FILE);
    if (t === null || t.ns !== NS_FILE) {
      this.ctx.log(`warning: file ${JSON.stringify(upload.filename)}: not a file name; skipped`);
      return;
    }
    const [major, minor = ''] = f.mime.split('/');
    const added = this.w.files.write({
      name: t.dbkey,
      size: f.size,
      width: f.width,
      height: f.height,
      bits: f.bits,
      mediaType: mediaType(f.mime),
      majorMime: major,
      minorMime: minor,
      sha1Base36: sha1HexToBase36(f.sha1hex),
      sha1Hex: f.sha1hex,
      uploader: { user: upload.user, userId: upload.userId, timestamp: upload.timestamp, comment: upload.comment },
      path: rel,
    });
    if (added) this.stats.images++;
    this.files.add(t.dbkey);
    // the pages that embed it lose their broken-file category
    this.summary.queued += this.w.refreshQueue.enqueueFileUsers(t.dbkey);
    this.summary.files++;
  }

  /** The second phase: the batch's pages analysed and linked, then the counters and the position. */
  async finish(): Promise<void> {
    const w = this.w;
    const ids = [...this.toAnalyse].sort((a, b) => a - b);
    const searchRows = new Map<number, SearchRow>();
    const counts = { langlinks: 0, externallinks: 0, iwlinks: 0, pageProps: 0 };
    const semantic = w.semantic !== null ? new SemanticPages(w.semantic, this.ctx.codec, (t) => this.queueAll(t)) : null;
    const withQueries: PageWithText[] = [];
    for (let i = 0; i < ids.length; i += ANALYSIS_CHUNK) {
      for (const page of w.pages.withText(ids.slice(i, i + ANALYSIS_CHUNK))) {
        const r = this.analyzer.analyze(page);
        writePageLinks(w.links.rows, r, counts);
        const cl = r.links?.categories ?? [];
        const type = categoryType(page.ns);
        for (let k = 0; k < cl.length; k += 3) {
          w.categories.count(cl[k], type, 1);
          this.categories.add(cl[k]);
        }
        if (r.search) searchRows.set(page.id, r.search);
        w.parserCache.drop(page.id);
        if (semantic !== null && r.hooks[0] != null) {
          semantic.page(page, r.hooks[0] as SemanticOps);
          this.semanticChanged = true;
        }
        if (r.inlineQueries) withQueries.push(page);
      }
    }
    // pages re-analysed here need no refresh of their own
    w.refreshQueue.done(ids);
    for (const [source, value] of this.completionGone) w.semantic?.removeCompletionValue(source, value, false);
    // pages whose inline queries may answer otherwise now (SMW re-evaluates them when a property they read changes)
    if (semantic !== null && this.semanticChanged) {
      const analysed = new Set(ids);
      for (const t of semantic.pagesWithQueries()) {
        const p = w.pages.byTitle(t);
        if (p !== undefined && !analysed.has(p.id)) w.refreshQueue.enqueue(p.id);
      }
    }
    for (const id of [...this.searchTouched].sort((a, b) => a - b)) {
      let row = searchRows.get(id);
      if (row === undefined) {
        const page = w.pages.withText([id])[0];
        row = page && this.ctx.searcher.searchRowOf(page);
      }
      if (row) w.search.add(row);
    }
    // the links of inline query results, over the semantic data the batch has written (import: link-pass.ts)
    const evaluate = withQueries.length > 0 ? await this.ctx.evaluator() : null;
    if (evaluate) {
      for (const page of withQueries) {
        const rows = await inlineQueryLinkRows(this.analyzer, page, evaluate);
        const sink = w.links.rows;
        for (let k = 0; k < rows.pages.length; k += 2)
          sink.pageLink(page.id, page.ns, { ns: rows.pages[k] as number, dbkey: rows.pages[k + 1] as string });
        for (const f of rows.files) sink.imageLink(page.id, page.ns, f);
        for (let k = 0; k < rows.templates.length; k += 2) {
          sink.templateLink(page.id, page.ns, { ns: rows.templates[k] as number, dbkey: rows.templates[k + 1] as string });
        }
        const type = categoryType(page.ns);
        for (let k = 0; k < rows.categories.length; k += 3) {
          const row = {
            from: page.id,
            to: rows.categories[k],
            sortkey: rows.categories[k + 1],
            sortkeyPrefix: rows.categories[k + 2],
            timestamp: page.latestTimestamp,
            type,
          };
          if (sink.categoryLink(row) > 0) {
            w.categories.count(row.to, type, 1);
            this.categories.add(row.to);
          }
        }
      }
    }
    // counted once the links of query results are in
    for (const id of ids) {
      const page = w.page(id);
      if (page !== undefined && isArticle(page) && w.links.hasPageLinks(id)) this.stats.articles++;
    }
    for (const c of this.categories) w.categories.settle(c);
    for (const f of this.files) w.files.settle(f);
    for (const [page, revs] of this.newRevisions) {
      if (w.page(page) === undefined) continue;
      w.history.creditRevisions(page, revs);
      if (!this.recentChangesGiven) w.history.recentChangesOfRevisions(revs);
    }
    if (!this.recentChangesGiven) for (const id of this.newLogs) w.history.recentChangeOfLog(id);
    if (this.recentChangesGiven || this.newRevisions.size > 0 || this.newLogs.length > 0) w.history.trimRecentChanges();
    w.writeStatistics(this.stats);
    if (this.position !== null) w.setPosition(this.position);
  }

  /** every page that has values of the property (its type changed: their values are typed again) */
  private queueAll(pages: TitleRef[]): void {
    for (const t of pages) {
      const p = this.w.pages.byTitle(t);
      if (p !== undefined) this.w.refreshQueue.enqueue(p.id);
    }
  }
}

/**
 * A page's semantic data written as the import's semantic hook writes it (applySemanticOps), but on the
 * live tables: subjects found or made, properties made with their predefined type, the _ERRP property at
 * once, query strings normalised at once (every property's type is known: it is in the database).
 */
class SemanticPages {
  private conceptProperty: number | undefined;

  constructor(
    private readonly w: SemanticUpdateWriter,
    private readonly codec: TitleCodec,
    private readonly retyped: (pages: TitleRef[]) => void,
  ) {
    this.conceptProperty = w.propertyId('_CONC');
  }

  private property(key: string): number {
    const id = this.w.propertyId(key);
    if (id !== undefined) return id;
    const made = this.w.addProperty(key, PREDEFINED_BY_KEY.get(key)?.type ?? '_wpg');
    if (key === '_CONC') this.conceptProperty = made;
    return made;
  }

  private typeOf = (key: string): string => {
    const id = this.w.propertyId(key);
    return (id !== undefined && this.w.propertyType(id)) || '_wpg';
  };

  page(page: TitleRef, ops: SemanticOps): void {
    const w = this.w;
    applySemanticOps(ops, {
      addSubject: (ns, dbkey, subobject, sortkey) => w.subject(ns, dbkey, subobject, sortkey),
      property: (key) => this.property(key),
      propertyId: (key) => this.property(key),
      errpProperty: () => this.property('_ERRP'),
      addValue: (subject, property, seq, di, item, ns, key, sortNum) => w.addValue(subject, property, seq, di, item, ns, key, sortNum),
      addCompletionValue: (source, value) => w.addCompletionValue(source, value),
      stage: (subject, property, seq, text) => {
        const v = stagedValue(text, property === this.conceptProperty, { codec: this.codec, typeOf: this.typeOf });
        w.addValue(subject, property, seq, v.di, v.item, null, null, v.sortNum);
      },
      declareType: (property, type) => {
        if (w.setType(property, type)) this.retyped(w.pagesUsing(property));
      },
    });
    w.valueSubjects(page);
  }

  pagesWithQueries(): TitleRef[] {
    return this.w.pagesWithQueries();
  }
}

/** word rows read per statement while a source's precomputed answers are made */
const WORD_CHUNK = 10000;

/** the precomputed answers of every source whose values changed, made as the import makes them (TopKTrie) */
function rebuildCompletionAnswers(w: SemanticUpdateWriter): void {
  for (const source of w.changedCompletionSources()) {
    w.clearHeavyPrefixes(source);
    const trie = new TopKTrie(w.heavyRows, COMPLETION_LIST_VALUES, (key, ids) => w.addHeavyPrefix(source, key, ids));
    for (let after: [string, number] | null = null; ; ) {
      const rows = w.wordKeys(source, after, WORD_CHUNK);
      if (rows.length === 0) break;
      for (const [key, value] of rows) trie.add(key, value);
      const last = rows[rows.length - 1];
      after = [last[0], last[1]];
    }
    trie.end();
    w.completionSourceDone(source);
  }
}

/** counted by site statistics' 'link' method: a content page that is no redirect (and links somewhere) */
function isArticle(p: { ns: number; isRedirect: boolean }): boolean {
  return p.ns === 0 && !p.isRedirect;
}

/** a batch the updater takes: bounded, every item of a known kind and shape */
function checkBatch(batch: readonly UpdateItem[]): void {
  if (!Array.isArray(batch)) throw new UpdateRefused('a batch is an array of items');
  if (batch.length > MAX_BATCH_ITEMS) throw new UpdateRefused(`a batch of ${batch.length} items (at most ${MAX_BATCH_ITEMS})`);
  batch.forEach((item, i) => {
    const problem = itemProblem(item);
    if (problem !== null) throw new UpdateRefused(`item ${i} of the batch: ${problem}`);
  });
}

function itemProblem(item: UpdateItem): string | null {
  if (item === null || typeof item !== 'object') return 'not an object';
  const id = (v: unknown) => Number.isSafeInteger(v) && (v as number) > 0;
  const text = (t: string | null) =>
    t === null || (typeof t === 'string' && t.length <= MAX_TEXT_BYTES && Buffer.byteLength(t) <= MAX_TEXT_BYTES);
  switch (item.type) {
    case 'siteinfo':
      return null;
    case 'revision':
      if (!id(item.page?.id) || !id(item.revision?.id)) return 'a revision needs its page id and its id';
      if (!text(item.revision.text)) return `revision ${item.revision.id}: its text is over ${MAX_TEXT_BYTES} bytes`;
      return null;
    case 'page':
      if (!id(item.page?.id) || typeof item.page.title !== 'string' || !item.page.latest || !item.page.first)
        return 'a page needs its id, title and revisions';
      if (!text(item.page.latest.text)) return `page ${item.page.id}: its text is over ${MAX_TEXT_BYTES} bytes`;
      return null;
    case 'logitem':
      return id(item.logitem?.id) ? null : 'a log item needs its id';
    case 'upload':
      return item.upload && typeof item.upload.filename === 'string' ? null : 'an upload needs its file name';
    case 'deletion':
      return id(item.pageId) ? null : 'a deletion needs the page id';
    case 'recentchange':
      return id(item.change?.rcid) && typeof item.change.title === 'string' ? null : 'a recent change needs its rcid and title';
    case 'user':
      return id(item.user?.id) && typeof item.user.name === 'string' && item.user.name !== '' ? null : 'a user needs an id and a name';
    case 'file': {
      const p = item.file?.path;
      if (typeof p !== 'string' || p === '' || p.split('/').some((s) => s === '..' || s === '') || path.isAbsolute(p))
        return 'a file needs a relative path below the files directory';
      return item.file.upload && typeof item.file.upload.filename === 'string' ? null : 'a file needs its upload record';
    }
    case 'position': {
      const p = item.position;
      return p && typeof p.api === 'string' && /^\d{14}$/.test(p.timestamp) && Number.isSafeInteger(p.rcid) && Number.isSafeInteger(p.logid)
        ? null
        : 'a position needs api, a TS_MW timestamp, rcid and logid';
    }
    default:
      return `unknown item type ${JSON.stringify((item as { type?: unknown }).type)}`;
  }
}

export interface UpdateFromDumpOptions extends UpdaterOptions {
  dump: string;
  db: string;
  /** page items per batch (one transaction each; default 500) */
  batchPages?: number;
}

export interface UpdateFromDumpSummary {
  batches: number;
  pages: number;
  deleted: number;
  revisions: number;
  logItems: number;
  files: number;
  /** pages re-analysed because a page they transclude changed */
  refreshed: number;
  seconds: number;
  /** of which: applying the batches, the refresh queue, the reports and autocompletion answers */
  applySeconds: number;
  refreshSeconds: number;
  reportSeconds: number;
  pagesPerSecond: number;
}

/** pages a refresh transaction re-analyses at the end of `import --update` */
const REFRESH_CHUNK = 500;

/**
 * `import DUMP --update`: a dump of changed pages (Special:Export of some pages, full history or current
 * only) applied through the incremental path, in batches of `batchPages` pages; the pages it does not
 * mention stay. Then the refresh queue is drained and the query-page reports recomputed, so that the
 * database answers as a fresh import of the wiki's new state would.
 */
export async function updateFromDump(opts: UpdateFromDumpOptions): Promise<UpdateFromDumpSummary> {
  const t0 = performance.now();
  checkDumpPath(opts.dump);
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const updater = await openUpdater(opts.db, opts);
  const out: UpdateFromDumpSummary = {
    batches: 0,
    pages: 0,
    deleted: 0,
    revisions: 0,
    logItems: 0,
    files: 0,
    refreshed: 0,
    seconds: 0,
    applySeconds: 0,
    refreshSeconds: 0,
    reportSeconds: 0,
    pagesPerSecond: 0,
  };
  const batchPages = opts.batchPages ?? 500;
  try {
    let batch: UpdateItem[] = [];
    let pagesInBatch = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const s = await updater.apply(batch);
      out.batches++;
      out.pages += s.pages;
      out.deleted += s.deleted;
      out.revisions += s.revisions;
      out.logItems += s.logItems;
      out.files += s.files;
      batch = [];
      pagesInBatch = 0;
    };
    const fileItem = (u: DumpUpload) => {
      if (opts.filesDir === undefined || u.filename === '') return;
      const rel = uploadPath(opts.filesDir, u.filename.replace(/ /g, '_'));
      if (rel === null) log(`warning: ${u.filename}: not in ${opts.filesDir}; its upload record is kept without the file`);
      else batch.push({ type: 'file', file: { upload: u, path: rel } });
    };
    for await (const item of readDump(opts.dump, { onWarning: (m) => log(`warning: ${m}`) })) {
      batch.push(item);
      if (item.type === 'upload') fileItem(item.upload);
      if (item.type !== 'page') continue;
      for (const u of item.page.uploads) fileItem(u);
      if (++pagesInBatch >= batchPages) await flush();
    }
    await flush();
    const t1 = performance.now();
    out.applySeconds = (t1 - t0) / 1000;
    while (updater.refreshBacklog() > 0) out.refreshed += await updater.refresh(REFRESH_CHUNK);
    const t2 = performance.now();
    out.refreshSeconds = (t2 - t1) / 1000;
    await updater.rebuildReports();
    out.reportSeconds = (performance.now() - t2) / 1000;
  } finally {
    updater.close();
  }
  out.seconds = (performance.now() - t0) / 1000;
  out.pagesPerSecond = out.seconds > 0 ? out.pages / out.seconds : out.pages;
  return out;
}

/** where a file of a MediaWiki upload directory is: hashed ($wgHashedUploadDirectory: a/ab/Name) or flat */
function uploadPath(filesDir: string, name: string): string | null {
  const h = crypto.createHash('md5').update(name).digest('hex');
  for (const rel of [`${h[0]}/${h.slice(0, 2)}/${name}`, name]) if (fs.existsSync(path.join(filesDir, ...rel.split('/')))) return rel;
  return null;
}
