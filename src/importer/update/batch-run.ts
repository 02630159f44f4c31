/**
 * The writes of one batch (or of one refresh job): its items in order, each page's old version undone and
 * its new rows written (pages and moves, deletions, history, users, recent changes, files), then the
 * second phase -- every page the batch wrote analysed over the state it leaves, and its link, category,
 * semantic and search rows, the counters and the position written.
 */
import { NS_CATEGORY, NS_FILE, NS_MEDIAWIKI } from '../../wiki/namespaces.js';
import { sha1HexToBase36 } from '../../wiki/files.js';
import type { InterwikiMap } from '../../wiki/interwiki.js';
import type { TitleCodec } from '../../wiki/titles.js';
import type { PageWithText, SearchRow, TitleRef } from '../../store/import-writer.js';
import type { SiteStatistics, StoredPage, UpdateWriter } from '../../store/update-writer.js';
import type { PageAnalyzer } from '../analysis.js';
import { PageWriter, type PageWriterTarget } from '../pages.js';
import { categoryType, inlineQueryLinkRows, writePageLinks, writeTargetLinks, type InlineQueryEvaluator } from '../link-pass.js';
import type { SemanticOps } from '../semantic-analysis.js';
import { messageOverrideKey } from '../messages.js';
import { mediaType, type FileFacts } from '../files.js';
import type { UpdateItem, UpstreamPosition } from '../update-items.js';
import type { DumpLogItem, DumpUpload } from '../dump-reader.js';
import { SemanticPages } from './semantic.js';
import { queryDependencies, SemanticChanges, type QueryDependencies } from '../../semantic/query-dependencies.js';

/** what one batch wrote */
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

/** what a batch run reads of the updater */
export interface BatchContext {
  log: (line: string) => void;
  codec: TitleCodec;
  lang: string;
  interwiki: InterwikiMap;
  knownLangs: Set<string>;
  /** for the old search rows: reads only what the stored state says */
  searcher: PageAnalyzer;
  evaluator: () => Promise<InlineQueryEvaluator> | null;
}

/** pages analysed per read of their texts */
const ANALYSIS_CHUNK = 200;

/** The writes of one batch (or of one refresh): the first phase item by item, then finish(). */
export class BatchRun {
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
    private readonly ctx: BatchContext,
    private readonly w: UpdateWriter,
    private readonly analyzer: PageAnalyzer,
  ) {
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
      if (old.ns !== row.ns || old.dbkey !== row.dbkey) this.titleCameOrWent(old, false);
    }
    if (old === undefined || old.ns !== row.ns || old.dbkey !== row.dbkey) this.titleCameOrWent(row, true);
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

  /**
   * A page removed with everything derived from it (a deletion; a page whose title another took, as a move
   * over a redirect deletes it): its recent changes too, but those of its log (LinksDeletionUpdate).
   */
  private remove(old: StoredPage): void {
    this.detach(old);
    this.w.pages.remove(old.id);
    this.titleCameOrWent(old, false);
    this.w.history.removeRevisionsOf(old.id);
    this.w.history.removeRecentChangesOf(old);
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

  /** what the batch's pages changed of the semantic data, as inline queries see it */
  private readonly semanticChanges = new SemanticChanges();
  /** the values of each page whose semantic data the batch cleared, as they were before (`ns:dbkey`) */
  private readonly valuesBefore = new Map<string, { ns: number; dbkey: string; values: string[] }>();

  /** the completion values the batch's pages had (removed at the end unless some subject still has them) */
  private readonly completionGone: Array<[number, string]> = [];

  private clearSemantic(t: TitleRef): void {
    const semantic = this.w.semantic;
    if (semantic === null) return;
    const key = `${t.ns}:${t.dbkey}`;
    if (!this.valuesBefore.has(key)) this.valuesBefore.set(key, { ns: t.ns, dbkey: t.dbkey, values: semantic.valuesOf(t) });
    for (const v of semantic.completionValuesOf(t)) this.completionGone.push(v);
    semantic.clearPage(t);
  }

  /**
   * A title that came (a page created, moved or undeleted there) or went: the pages that link to it are
   * queued -- their links change colour, and what {{#ifexist:}} tested, which MediaWiki records as a link,
   * may be otherwise (WikiPage::onArticleCreate/onArticleDelete invalidate them by pagelinks; a fresh
   * parse is what a fresh import has) -- and inline queries of its namespace see it. Page titles are the
   * autocompletion values of their namespace's source.
   */
  private titleCameOrWent(t: TitleRef, present: boolean): void {
    this.summary.queued += this.w.refreshQueue.enqueueLinkers(t);
    this.semanticChanges.title(t.ns, t.dbkey);
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
        if (semantic !== null && r.hooks[0] != null) semantic.page(page, r.hooks[0] as SemanticOps);
        if (r.inlineQueries) withQueries.push(page);
      }
    }
    w.semantic?.dropUnusedSubjects();
    // pages re-analysed here need no refresh of their own
    w.refreshQueue.done(ids);
    for (const [source, value] of this.completionGone) w.semantic?.removeCompletionValue(source, value, false);
    if (w.semantic !== null) this.queueQueries(w.semantic, ids);
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
        // the rows the page has already are kept; a new category row is counted
        writeTargetLinks(w.links.rows, page, await inlineQueryLinkRows(this.analyzer, page, evaluate), (row) => {
          w.categories.count(row.to, row.type, 1);
          this.categories.add(row.to);
        });
      }
    }
    // counted once the links of query results are in
    for (const id of ids) {
      const page = w.page(id);
      if (page !== undefined && isArticle(page) && w.links.hasPageLinks(id)) this.stats.articles++;
    }
    for (const c of this.categories) w.categories.settle(c);
    for (const f of this.files) w.files.settle(f);
    // a batch that names an upstream position (follow's) has its recent changes from the upstream, this
    // window's rows or a later one's (MediaWiki writes a row after its answer): made here, a row would be
    // there twice, once with an id of ours; a dump's batch makes them as rebuildrecentchanges.php does
    const makeRecentChanges = !this.recentChangesGiven && this.position === null;
    for (const [page, revs] of this.newRevisions) {
      if (w.page(page) === undefined) continue;
      w.history.creditRevisions(page, revs);
      if (makeRecentChanges) w.history.recentChangesOfRevisions(revs);
    }
    if (makeRecentChanges) for (const id of this.newLogs) w.history.recentChangeOfLog(id);
    if (this.recentChangesGiven || this.newRevisions.size > 0 || this.newLogs.length > 0) w.history.trimRecentChanges();
    w.writeStatistics(this.stats);
    if (this.position !== null) w.setPosition(this.position);
  }

  /**
   * The pages whose inline queries may answer otherwise now, queued, as SMW's query dependencies queue
   * them: a query whose conditions name a property whose values changed, a category a page entered or
   * left, a namespace where a page came, went or changed, a page that changed; or whose results link to
   * a page whose values changed (its printouts). The pages analysed in this batch need none.
   */
  private queueQueries(semantic: NonNullable<UpdateWriter['semantic']>, analysedIds: readonly number[]): void {
    const w = this.w;
    const changes = this.semanticChanges;
    for (const id of analysedIds) {
      const page = w.page(id);
      if (page === undefined) continue;
      const key = `${page.ns}:${page.dbkey}`;
      changes.values(page.ns, page.dbkey, this.valuesBefore.get(key)?.values ?? [], semantic.valuesOf(page));
      this.valuesBefore.delete(key);
    }
    // pages cleared and not written again (deleted, or moved away from the title)
    for (const gone of this.valuesBefore.values()) changes.values(gone.ns, gone.dbkey, gone.values, semantic.valuesOf(gone));
    if (changes.empty) return;
    const analysed = new Set(analysedIds);
    const queued = new Set<number>();
    const changedPages: TitleRef[] = [];
    for (const key of changes.pages) {
      const colon = key.indexOf(':');
      changedPages.push({ ns: Number(key.slice(0, colon)), dbkey: key.slice(colon + 1) });
    }
    const deps = new Map<string, QueryDependencies>();
    const concept = (dbkey: string) => semantic.conceptConditions(dbkey);
    for (const q of semantic.queryConditions()) {
      const page = w.pages.byTitle(q);
      if (page === undefined || analysed.has(page.id) || queued.has(page.id)) continue;
      let d = deps.get(q.conditions);
      if (d === undefined) deps.set(q.conditions, (d = queryDependencies(q.conditions, this.ctx.codec, concept)));
      if (changes.reaches(d) || changedPages.some((t) => w.links.linksTo(page.id, t))) {
        w.refreshQueue.enqueue(page.id);
        queued.add(page.id);
      }
    }
    this.summary.queued += queued.size;
  }

  /** every page that has values of the property (its type changed: their values are typed again) */
  private queueAll(pages: TitleRef[]): void {
    for (const t of pages) {
      const p = this.w.pages.byTitle(t);
      if (p !== undefined) this.w.refreshQueue.enqueue(p.id);
    }
  }
}

/** counted by site statistics' 'link' method: a content page that is no redirect (and links somewhere) */
function isArticle(p: { ns: number; isRedirect: boolean }): boolean {
  return p.ns === 0 && !p.isRedirect;
}
