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
 *
 * Here: the updater and its transactions. update/batch-run.ts writes one batch, update/semantic.ts its
 * semantic data, update/checks.ts bounds what a batch may hold, update/from-dump.ts reads a dump into batches.
 */
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { TitleCodec } from '../wiki/titles.js';
import type { NamespaceInfo } from '../wiki/namespaces.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import type { Store } from '../store/import-writer.js';
import type { UpdateWriter } from '../store/update-writer.js';
import { openUpdateWriter } from '../store/open.js';
import { LemmaMemo } from '../wiki/morphology.js';
import { PageAnalyzer, type AnalysisSetup } from './analysis.js';
import { loadInterwikiMap } from './interwiki-file.js';
import type { InlineQueryEvaluator } from './link-pass.js';
import { readFileFacts, type FileFacts } from './files.js';
import type { UpdateItem, UpstreamPosition } from './update-items.js';
import { checkBatch, UpdateRefused } from './update/checks.js';
import { type ApplySummary, BatchRun, type BatchContext } from './update/batch-run.js';

export type { ApplySummary } from './update/batch-run.js';
import { rebuildCompletionAnswers } from './update/semantic.js';

export { MAX_BATCH_ITEMS, MAX_TEXT_BYTES, UpdateRefused } from './update/checks.js';

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
  /** a PostgreSQL database's local replica (the staging file its import kept) */
  staging?: string;
}

export interface Updater {
  /** one batch, one transaction, in item order; revisions already stored are skipped */
  apply(batch: readonly UpdateItem[]): Promise<ApplySummary>;
  /** the position stored by the last applied batch (null: none; a database made by `import` reports the newest change its dump holds) */
  position(): UpstreamPosition | null;
  /** the recent changes and log entries the database holds from `timestamp` (TS_MW) on: [id, timestamp] */
  appliedSince(timestamp: string): { changes: Array<[number, string, number, number]>; logs: Array<[number, string]> };
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

/** the semantic importer's analyzer module (semantic-hook.ts names the same) */
const SEMANTIC_ANALYZER = new URL('./semantic-analysis.js', import.meta.url).href;

export async function openUpdater(db: string, opts: UpdaterOptions = {}): Promise<Updater> {
  const w = await openUpdateWriter(db, { staging: opts.staging });
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
  /** the lemmas of the words met so far, shared by every analyser the updater makes */
  private readonly lemmas = new LemmaMemo();
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

  /** an analyser over the stored state: the declared property types as they are now, its caches empty but the lemmas' */
  private analyzer(): Promise<PageAnalyzer> {
    const semantic = this.w.semantic;
    const setup = semantic !== null ? Object.assign({}, this.setup, { hookData: [semantic.declaredTypes()] }) : this.setup;
    return PageAnalyzer.create(this.w, setup, this.interwiki, this.lemmas);
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

  appliedSince(timestamp: string): { changes: Array<[number, string, number, number]>; logs: Array<[number, string]> } {
    return this.w.history.storedSince(timestamp);
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
    await w.begin();
    try {
      const run = new BatchRun(this.context, w, analyzer);
      for (const item of batch) run.item(item, facts.get(item));
      await run.finish();
      await w.commit();
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
    await w.begin();
    try {
      const ids = w.refreshQueue.take(limit);
      const run = new BatchRun(this.context, w, analyzer);
      for (const id of ids) run.relink(id);
      await run.finish();
      w.refreshQueue.done(ids);
      await w.commit();
      return ids.length;
    } catch (e) {
      w.rollback();
      throw e;
    }
  }

  async rebuildReports(): Promise<void> {
    this.live();
    const w = this.w;
    await w.begin();
    try {
      w.rebuildReports();
      if (w.semantic !== null) rebuildCompletionAnswers(w.semantic);
      w.semantic?.refreshStatistics();
      await w.commit();
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
  get context(): BatchContext {
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
