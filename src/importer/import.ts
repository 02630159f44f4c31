/**
 * `importWiki`: a dump (plus files and message catalogs) → a complete database (SQLite today), atomically.
 *
 *   pass 1   stream the dump: siteinfo → meta/namespace; pages → page, page_text, redirect
 *   files    --files DIR → image
 *   messages --messages DIR… → message; MediaWiki: pages → message_override
 *   pass 2   page texts in page_id order → analysis on worker threads (expansion, links, search text) →
 *            link tables, page_props, search index (+ analysis hooks), written on this thread
 *   hooks    the analysis hooks finish (the semantic data is complete; SMW's autocompletion index is
 *            built on a thread of its own meanwhile, joined before the statistics for the planner)
 *   queries  the links of inline query results ({{#ask:}}, over the finished semantic data)
 *   derived  category, statistics, query-page reports; every index
 *   render   (--render) every content page rendered into the parser cache table; ANALYZE
 *
 * Everything goes through the store's ImportWriter (src/store/import-writer.ts; SQLite: built in
 * FILE.tmp-<pid> and renamed onto FILE only when complete): a failed or interrupted import (SIGINT/SIGTERM)
 * aborts the writer and leaves FILE as it was. Most phases after pass 2 are synchronous work in the
 * store, during which no signal handler can run; the import yields to the event loop between every step
 * (`checkpoint`), so a signal that arrived meanwhile stops it before the next step — and always before the
 * publication. Temporary files of imports that were killed outright (SIGKILL, a crash) are removed by the
 * next import into the same FILE.
 */
import fs from 'node:fs';
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { dateToMw } from '../wiki/timestamps.js';
import { importPages, indexPageTitles } from './pages.js';
import { FileImporter } from './files.js';
import { loadMessageDirs, messageDirProblem, messageLanguages, writeMessageOverrides } from './messages.js';
import { runInlineQueryLinkPass, runLinkPass, type InlineQueryEvaluator, type LinkCounts } from './link-pass.js';
import { inBatch } from './batch.js';
import { createProgress, type Progress } from './progress.js';
import { StepTimer } from './step-timer.js';
import type { HookContext, PageAnalysis, PageAnalysisHook, PageRenderer } from './hooks.js';
import { PageAnalyzer, type AnalysisSetup } from './analysis.js';
import { loadInterwikiMap } from './interwiki-file.js';
import { checkDumpPath, STDIN } from './dump-source.js';
import { importServerProblem, importTargetProblem, openImportWriter, printableLocation } from '../store/open.js';
import type { ImportWriter, IndexArea, Store } from '../store/import-writer.js';

export interface ImportOptions {
  dump: string;
  db: string;
  filesDir?: string;
  messageDirs?: string[];
  /** the interwiki map in MediaWiki's interwiki.list format (default: data/interwiki.list) */
  interwikiFile?: string;
  /** content language (default: the dump's xml:lang, else 'uk') */
  lang?: string;
  hooks?: PageAnalysisHook[];
  /** show a progress bar (on stdout) */
  progress?: boolean;
  /** informational lines and warnings (default: stderr) */
  log?: (line: string) => void;
  /** build the full-text search index (default true; false leaves it empty: list=search finds nothing) */
  searchIndex?: boolean;
  /** threads analysing pages in pass 2 (default: one per core but one, at least one; 0: none, all on this thread) */
  workers?: number;
  /**
   * The inline query evaluator over the wiki being imported (src/cli/import-command.ts makes it from the
   * serving code's); with it, the links of {{#ask:}}/{{#show:}} results are recorded as SMW's parse
   * records them. Without it the calls add no links.
   */
  inlineQueries?: (reader: Store) => Promise<InlineQueryEvaluator>;
  /** --render: render every content page into the parser cache table after the other passes */
  render?: PageRenderer;
  /** --timings: each step's wall and CPU seconds, as lines of a table, when the import is done */
  timings?: (lines: string[]) => void;
  /** PostgreSQL: keep the staging file here, as the local replica `import --update` and `follow` write */
  staging?: string;
}

export interface ImportSummary {
  db: string;
  /** the import's id, as /health reports it */
  importId: string;
  pages: number;
  revisions: number;
  logItems: number;
  users: number;
  redirects: number;
  files: number;
  /** rows of all link tables together */
  links: number;
  linkCounts: LinkCounts;
  categories: number;
  messages: number;
  messageOverrides: number;
  seconds: number;
  pagesPerSecond: number;
  /** peak resident set size of the process, MiB */
  peakRssMB: number;
  /** bytes of the full-text search index (0 without it) */
  searchIndexBytes: number;
  /** pages rendered into the parser cache table (--render), and the seconds that took */
  rendered: number;
  renderSeconds: number;
}

/** Thrown (and reported by the CLI) when SIGINT/SIGTERM stopped the import. */
export class ImportInterrupted extends Error {
  constructor(readonly signal: NodeJS.Signals) {
    super(`import interrupted by ${signal}`);
    this.name = 'ImportInterrupted';
  }
}

/** The import cannot start: a missing dump, an unusable --db, --files or --messages. */
export class ImportSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportSetupError';
  }
}

/**
 * --db must be a location the store can write an import to (SQLite: a file path whose directory exists
 * and is writable; an existing file there is replaced only when it is a wikiquery database).
 */
export function checkImportTarget(db: string): void {
  const problem = importTargetProblem(db);
  if (problem !== null) throw new ImportSetupError(`--db ${printableLocation(db)}: ${problem}`);
}

/**
 * What an import without --messages will lack, said once the dump's MediaWiki: pages are counted: the
 * interface texts come from MediaWiki's message files, which a dump does not carry.
 */
export function messagesNotice(overrides: number): string {
  const where =
    "give --messages the languages/i18n folder of a MediaWiki installation (and --messages again for includes/api/i18n and each extension's i18n folder, e.g. extensions/SemanticMediaWiki/i18n)";
  if (overrides === 0)
    return `note: no --messages and no MediaWiki: pages in the dump: meta=allmessages and every interface text the API renders (messages in parse output, SMW's and the help's texts) will be empty; ${where}`;
  return `note: no --messages: meta=allmessages and the interface texts come only from the dump's ${overrides} MediaWiki: page${overrides === 1 ? '' : 's'}; ${where}`;
}

export async function importWiki(opts: ImportOptions): Promise<ImportSummary> {
  const t0 = performance.now();
  const t0Wall = Date.now();
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  // everything that can be checked is checked before the first byte is written
  checkDumpPath(opts.dump);
  checkImportTarget(opts.db);
  if (opts.filesDir !== undefined && !fs.statSync(opts.filesDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new ImportSetupError(`--files ${opts.filesDir}: not a directory`);
  }
  let interwiki;
  try {
    interwiki = loadInterwikiMap(opts.interwikiFile);
  } catch (e) {
    throw new ImportSetupError((e as Error).message);
  }
  for (const dir of opts.messageDirs ?? []) {
    const problem = messageDirProblem(dir);
    if (problem !== null) throw new ImportSetupError(`--messages ${dir}: ${problem}`);
  }
  // a database server is asked last, once everything local is right, and before the dump is read
  const serverProblem = await importServerProblem(opts.db);
  if (serverProblem !== null) throw new ImportSetupError(`--db ${printableLocation(opts.db)}: ${serverProblem}`);
  // advice comes after the checks: a fatal error is the one thing said when there is one
  if (opts.filesDir === undefined)
    log(
      'note: no --files: the wiki will have no files (allimages, imageinfo, duplicatefiles and the file URLs are empty; ' +
        "File: description pages stay ordinary pages); give MediaWiki's images/ directory to load them",
    );
  const workers = opts.workers ?? Math.max(1, os.availableParallelism() - 1);
  const dumpSize = opts.dump === STDIN ? 0 : fs.statSync(opts.dump).size;
  const importId = `${dateToMw(new Date(t0Wall))}-${randomBytes(4).toString('hex')}`;
  let writer: ImportWriter | null = null;

  // Signals: stop at the next safe point and clean up; a second signal stops at once.
  let interrupted: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      writer?.abort();
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    interrupted = signal;
  };
  const onExit = () => writer?.abort();
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', onExit);
  const checkAbort = () => {
    if (interrupted) throw new ImportInterrupted(interrupted);
  };
  // let a signal received during the synchronous step just done reach onSignal, then act on it. A signal
  // is seen in the event loop's poll phase; when this runs from an I/O callback (a worker thread's
  // message or exit), one setImmediate runs in the same iteration, before any poll: the second one
  // comes after the next.
  const checkpoint = async () => {
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    checkAbort();
  };

  const progress = createProgress(opts.progress ?? false);
  const timer = new StepTimer();
  const step = (name: string) => timer.start(name);
  try {
    step('pass 1');
    writer = openImportWriter(opts.db, { log, staging: opts.staging });
    const w = writer;

    // ---- pass 1: siteinfo, pages
    progress.phase('pages (pass 1)', dumpSize, 'MB');
    const site = await importPages(w, opts.dump, {
      lang: opts.lang,
      importTime: dateToMw(new Date(t0Wall)),
      importId,
      log,
      onBytes: (b) => progress.update(b),
      checkAbort,
      interwiki,
      // with workers: the reading (XML, decompression, text encoding) on its own thread, the writing here
      thread: workers > 0 && opts.dump !== STDIN,
    });
    progress.stop();
    const { codec: titleCodec, lang } = site;
    step('pass 1: page title indexes');
    // the reader thread is gone, the analysis threads not started
    w.useIdleCores(true);
    indexPageTitles(w, log);
    w.useIdleCores(false);
    log(
      `pass 1: ${site.counts.pages} pages, ${site.counts.redirects} redirects, ${site.history.revisions} revisions, ${site.history.logItems} log items (${secondsSince(t0)} s)`,
    );
    await checkpoint();
    // users, contributors and recent changes: nothing before the end of the import reads them, so they are
    // made while the autocompletion thread runs (made here, the other core was idle)
    let history: { users: number; recentChanges: number } | null = null;
    const finishHistory = async () => {
      if (history !== null) return history;
      step('history');
      w.createIndexes('revision');
      w.createIndexes('logging');
      await checkpoint();
      const h = site.history.finish();
      history = h;
      log(`history: ${h.users} users, ${h.recentChanges} recent changes (${secondsSince(t0)} s)`);
      await checkpoint();
      return h;
    };

    // ---- files and messages (pass 2 needs both: file existence, tracking-category names)
    step('files, messages');
    let files = 0;
    if (opts.filesDir !== undefined) {
      files = await new FileImporter(w, titleCodec, log).importDir(opts.filesDir, checkAbort);
      w.files.finish();
      log(`files: ${files} (${secondsSince(t0)} s)`);
    }
    w.uploads.drop();
    await checkpoint();
    const messages = loadMessageDirs(w, opts.messageDirs ?? [], log);
    await checkpoint();
    const messageOverrides = writeMessageOverrides(
      w,
      lang,
      messageLanguages(w, [...interwiki.entries.filter((e) => interwiki.isLanguage(e.prefix)).map((e) => e.prefix), 'en', lang]),
    );
    await checkpoint();
    if (!opts.messageDirs?.length) log(messagesNotice(messageOverrides));

    // ---- pass 2: links
    const hooks = opts.hooks ?? [];
    const hookContext: HookContext = { codec: titleCodec, lang, log, step };
    const searchIndex = opts.searchIndex ?? true;
    const setup: AnalysisSetup = {
      siteName: site.siteName,
      namespaces: site.namespaces,
      lang,
      interwikiFile: opts.interwikiFile,
      now: t0Wall,
      hookAnalyzers: hooks.map((h) => h.analyzer ?? null),
      searchIndex,
    };
    let prepass: PageAnalyzer | null = null;
    for (let i = 0; i < hooks.length; i++) {
      const analyzeNamespace = async (ns: number, each: (page: PageAnalysis, analyzed: unknown) => void) => {
        // on this thread: a hook asks for few pages (the workers start with pass 2)
        prepass ??= await PageAnalyzer.create(w, { ...setup, searchIndex: false }, interwiki); // once per process
        for (let after = 0; ; ) {
          const pages = w.pages.chunkInNamespace(ns, after, PREPASS_CHUNK);
          if (pages.length === 0) break;
          after = pages[pages.length - 1].id;
          for (const p of pages) {
            const r = prepass.analyze(p);
            each(r.analysis, hooks[i].analyzer !== undefined ? r.hooks[i] : r.text);
          }
          await checkpoint();
        }
      };
      await hooks[i].begin?.(w, { ...hookContext, analyzeNamespace }); // once per process
    }
    prepass = null;
    // what the hooks learnt in begin() goes to every analyzer of pass 2 (SMW: the declared property types)
    setup.hookData = hooks.map((h) => h.analyzerData?.());
    step('pass 2');
    const pageCount = w.pages.count();
    progress.phase('links (pass 2)', pageCount, 'pages');
    const { counts: linkCounts, withInlineQueries } = await runLinkPass(w, {
      setup,
      interwiki,
      workers,
      hooks,
      checkAbort,
      onProgress: (n) => progress.update(n),
    });
    progress.stop();
    log(`pass 2: links analysed (${secondsSince(t0)} s)`);
    let searchIndexBytes = 0;
    if (searchIndex) {
      step('search index finish');
      const search = w.search.finish();
      searchIndexBytes = search.indexBytes;
      log(
        `search index: ${search.pages} pages, ${search.redirectTitles} redirect titles, ` +
          `${mb(search.indexBytes)} MB of ${mb(search.databaseBytes)} MB so far (${secondsSince(t0)} s)`,
      );
    }
    await checkpoint();

    // The query-page reports read the link tables, page, redirect, image and category, and run on a
    // thread of their own once those are final, beside what remains. The hooks finish first (SMW's
    // autocompletion index then runs on its thread beside the link indexes); the rest of their work on
    // their own tables (SMW: value subjects, semantic indexes) runs beside the reports -- unless links of
    // inline query results are still to come: they need that work done, and the reports wait for them.
    const lateLinks = opts.inlineQueries !== undefined && withInlineQueries.length > 0;
    for (const h of hooks) {
      step(`${h.name}: finish`);
      await h.finish?.(w, hookContext);
      log(`${h.name}: finished (${secondsSince(t0)} s)`);
      await checkpoint();
    }
    const finishHookTables = async () => {
      for (const h of hooks) {
        if (!h.finishOwnTables) continue;
        step(`${h.name}: own tables`);
        await h.finishOwnTables(w, hookContext);
        log(`${h.name}: tables finished (${secondsSince(t0)} s)`);
        await checkpoint();
      }
    };
    if (lateLinks) await finishHookTables();
    // ---- derived tables, indexes (one table's indexes at a time, a checkpoint after each)
    const buildIndexes = async (areas: Iterable<IndexArea>) => {
      for (const area of areas) {
        step(`indexes: ${area}`);
        w.createIndexes(area);
        await checkpoint();
      }
    };
    await buildIndexes([
      'categorylinks',
      'pagelinks',
      'imagelinks',
      'templatelinks',
      'langlinks',
      'externallinks',
      'iwlinks',
      'page_props',
      'image',
    ]);
    // the results of inline queries need the finished semantic data; their categories count in `category`
    if (lateLinks) {
      // the inline queries are answered by the serving code, which may read any table
      await finishHistory();
      step('inline query links');
      const evaluate = await opts.inlineQueries!(w.readStore());
      const added = await runInlineQueryLinkPass(w, { setup, interwiki, checkAbort, pages: withInlineQueries, evaluate });
      linkCounts.pagelinks += added.pagelinks;
      linkCounts.imagelinks += added.imagelinks;
      linkCounts.templatelinks += added.templatelinks;
      linkCounts.categorylinks += added.categorylinks;
      log(
        `inline queries: ${withInlineQueries.length} pages, ${added.pagelinks + added.imagelinks + added.templatelinks + added.categorylinks} links of their results (${secondsSince(t0)} s)`,
      );
      await checkpoint();
    }
    step('category');
    const categories = w.derived.categories();
    log(`link indexes, categories: ${categories} (${secondsSince(t0)} s)`);
    await checkpoint();
    // ---- from here to the join nothing writes a table the reports read (their pending indexes wait)
    step('reports: thread started');
    w.derived.startReports();
    if (!lateLinks) await finishHookTables();
    step('statistics');
    const stats = w.derived.statistics();
    const redirects = w.pages.redirectCount();
    w.derived.writeStatistics(stats);
    await checkpoint();
    const afterReports = new Set<string>([...w.derived.reportSources, ...HISTORY_AREAS]);
    await buildIndexes(w.pendingIndexAreas().filter((area) => !afterReports.has(area)));
    // While the reports' thread is still at work, this thread would only wait for it: the history tables
    // (no report reads them), then what of the writer's finish() can be done already (the autocompletion
    // index's copy-in, the planner statistics of the final tables) are made meanwhile -- each only if the
    // thread has not ended by then: after the join, history has the other core for its sorts.
    if (!w.derived.reportsEnded()) await finishHistory();
    if (!w.derived.reportsEnded()) {
      step('settled beside the reports');
      await w.finishEarly([...(history === null ? [...HISTORY_AREAS, ...HISTORY_WRITES] : []), ...(opts.render ? RENDER_WRITES : [])]);
      await checkpoint();
    }
    step('reports: joined');
    const reports = await w.derived.joinReports();
    log(`reports: ${reports.rows} rows, ${reports.seconds.toFixed(1)} s on their thread (${secondsSince(t0)} s)`);
    await checkpoint();
    // the reports' thread is done (the autocompletion thread may not be: at 1,000,000 pages it ends last)
    w.useIdleCores(true);
    const { users } = await finishHistory();
    await buildIndexes(w.pendingIndexAreas());
    w.useIdleCores(false);
    // the autocompletion thread may still be at work (it is the last at 1,000,000 pages): the planner
    // statistics of every other table meanwhile, not after its copy-in
    step('settled');
    await w.finishEarly(opts.render ? RENDER_WRITES : []);
    await checkpoint();
    // ---- --render: last, over the finished tables (a render reads templates, files, categories, messages)
    let rendered = 0;
    let renderSeconds = 0;
    if (opts.render) {
      step('render');
      const t1 = performance.now();
      rendered = await renderContentPages(w, opts.render, { checkAbort, progress });
      progress.stop();
      renderSeconds = (performance.now() - t1) / 1000;
      log(`render: ${rendered} content pages into the parser cache in ${renderSeconds.toFixed(1)} s (${secondsSince(t0)} s)`);
      await checkpoint();
    }
    await w.finish(async () => {
      log(`indexes, statistics for the planner (${secondsSince(t0)} s)`);
      // the last point at which a signal keeps the old database: nothing runs between it and the publication
      await checkpoint();
    }, step);
    writer = null;
    timer.end();
    opts.timings?.(timer.lines());

    const seconds = (performance.now() - t0) / 1000;
    const links = Object.entries(linkCounts).reduce((n, [k, v]) => (k === 'pageProps' ? n : n + v), 0);
    return {
      db: opts.db,
      importId,
      pages: stats.pages,
      revisions: site.history.revisions,
      logItems: site.history.logItems,
      users,
      redirects,
      files,
      links,
      linkCounts,
      categories,
      messages,
      messageOverrides,
      seconds,
      pagesPerSecond: seconds > 0 ? stats.pages / seconds : stats.pages,
      peakRssMB: process.resourceUsage().maxRSS / 1024,
      searchIndexBytes,
      rendered,
      renderSeconds,
    };
  } finally {
    progress.stop();
    writer?.abort(); // null after the publication
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
  }
}

/** the tables the history step writes or reads through their indexes (their indexes wait for it) */
const HISTORY_AREAS: readonly IndexArea[] = ['revision', 'logging', 'user', 'recentchanges', 'page_contributor', 'page_anon_contributors'];
/** and another it may write (the texts of revisions it drops) */
const HISTORY_WRITES: readonly IndexArea[] = ['revision_text'];
/** what --render writes (the parser cache) */
const RENDER_WRITES: readonly IndexArea[] = ['parser_cache'];

/** the content namespaces ($wgContentNamespaces: the main namespace) */
const CONTENT_NAMESPACES = new Set([0]);
const RENDER_CHUNK = 200;
const PREPASS_CHUNK = 200;

/**
 * Every content page that is no redirect, its latest revision rendered with the options of a page view,
 * into the parser cache table; in page id order, one transaction per chunk.
 */
async function renderContentPages(
  w: ImportWriter,
  renderer: PageRenderer,
  o: { checkAbort: () => void; progress: Progress },
): Promise<number> {
  o.progress.phase(
    'render',
    [...CONTENT_NAMESPACES].reduce((n, ns) => n + w.pages.count(ns), 0),
    'pages',
  );
  const render = await renderer.open(w.readStore());
  let seen = 0;
  // the content namespaces' pages only, a chunk (texts and latest revisions) a statement
  for (const ns of CONTENT_NAMESPACES) {
    for (let after = 0; ; ) {
      const chunk = w.pages.chunkInNamespace(ns, after, RENDER_CHUNK);
      if (chunk.length === 0) break;
      after = chunk[chunk.length - 1].id;
      const outputs: Array<{ pageId: number; revId: number; optionsKey: string; output: string }> = [];
      for (const p of chunk) {
        if (p.isRedirect || p.model !== 'wikitext') continue;
        const r = await render({ pageId: p.id, revId: p.latestRevId, ns: p.ns, dbkey: p.dbkey, text: p.text });
        outputs.push({ pageId: p.id, revId: p.latestRevId, ...r });
      }
      inBatch(w, () => {
        for (const r of outputs) w.parserCache.write(r.pageId, r.revId, r.optionsKey, renderer.version, r.output);
      });
      seen += chunk.length;
      o.progress.update(seen);
      o.checkAbort();
    }
  }
  return w.parserCache.count();
}

function mb(bytes: number): string {
  return (bytes / 1048576).toFixed(1);
}

function secondsSince(t0: number): string {
  return ((performance.now() - t0) / 1000).toFixed(1);
}
