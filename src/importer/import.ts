/**
 * `importWiki`: a dump (plus files and message catalogs) → a complete SQLite database, atomically.
 *
 *   pass 1   stream the dump: siteinfo → meta/namespace; pages → page, page_text, redirect
 *   files    --files DIR → image
 *   messages --messages DIR… → message; MediaWiki: pages → message_override
 *   pass 2   page texts in page_id order → expansion → link tables, page_props (+ analysis hooks)
 *   derived  category, statistics, query-page reports; every index; ANALYZE
 *
 * Everything is built in FILE.tmp-<pid> and renamed onto FILE only when complete: a failed or
 * interrupted import (SIGINT/SIGTERM) removes the temporary file and leaves FILE as it was.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { dateToMw } from '../wiki/timestamps.js';
import { BuildDb, removeDbFiles } from './build-db.js';
import { createPageIndexes, dropUploadFacts, importPages } from './pages.js';
import { FileImporter } from './files.js';
import { loadMessageDirs, messageLanguages, writeMessageOverrides } from './messages.js';
import { createExpander } from './expand.js';
import { runLinkPass, type LinkCounts } from './link-pass.js';
import { buildCategoryTable, siteStatistics } from './categories.js';
import { buildReports } from './reports.js';
import { createProgress } from './progress.js';
import type { HookContext, PageAnalysisHook } from './hooks.js';
import { LANGUAGE_CODES } from './wikitext/links.js';
import { checkDumpPath, STDIN } from './dump-source.js';
import { databaseProblem } from '../store/sqlite/db.js';
import { buildSearchIndex } from './search-index.js';

export interface ImportOptions {
  dump: string;
  db: string;
  filesDir?: string;
  messageDirs?: string[];
  /** content language (default: the dump's xml:lang, else 'uk') */
  lang?: string;
  hooks?: PageAnalysisHook[];
  /** show a progress bar (on stdout) */
  progress?: boolean;
  /** informational lines and warnings (default: stderr) */
  log?: (line: string) => void;
  /** build the full-text search index (default true; false leaves it empty: list=search finds nothing) */
  searchIndex?: boolean;
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
 * --db must be a file path whose directory exists and is writable; an existing file there is replaced
 * only when it is a wikiquery database (never someone's other file).
 */
export function checkImportTarget(db: string): void {
  const st = fs.statSync(db, { throwIfNoEntry: false });
  if (st?.isDirectory()) throw new ImportSetupError(`--db ${db}: is a directory; give the database file's path (e.g. ${path.join(db, 'wiki.sqlite')})`);
  if (st) {
    const problem = databaseProblem(db);
    if (problem !== null && !problem.startsWith('imported by another wikiquery version')) {
      throw new ImportSetupError(`--db ${db}: ${problem}; refusing to replace it`);
    }
  }
  const dir = path.dirname(path.resolve(db));
  if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new ImportSetupError(`--db ${db}: directory ${dir} does not exist`);
  try {
    fs.accessSync(dir, fs.constants.W_OK);
  } catch {
    throw new ImportSetupError(`--db ${db}: directory ${dir} is not writable`);
  }
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
  for (const dir of opts.messageDirs ?? []) {
    if (!fs.statSync(dir, { throwIfNoEntry: false })?.isDirectory()) throw new ImportSetupError(`--messages ${dir}: not a directory`);
  }
  const dumpSize = opts.dump === STDIN ? 0 : fs.statSync(opts.dump).size;
  const importId = `${dateToMw(new Date(t0Wall))}-${randomBytes(4).toString('hex')}`;
  const tmp = `${opts.db}.tmp-${process.pid}`;
  removeDbFiles(tmp);

  // Signals: stop at the next safe point and clean up; a second signal stops at once.
  let interrupted: NodeJS.Signals | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (interrupted) {
      removeDbFiles(tmp);
      process.exit(128 + (signal === 'SIGINT' ? 2 : 15));
    }
    interrupted = signal;
  };
  const onExit = () => removeDbFiles(tmp);
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  process.on('exit', onExit);
  const checkAbort = () => {
    if (interrupted) throw new ImportInterrupted(interrupted);
  };

  const progress = createProgress(opts.progress ?? false);
  let build: BuildDb | null = null;
  try {
    build = new BuildDb(tmp);
    const db = build.db;

    // ---- pass 1: siteinfo, pages
    progress.phase('pages (pass 1)', dumpSize, 'MB');
    const site = await importPages(db, opts.dump, {
      lang: opts.lang,
      importTime: dateToMw(new Date(t0Wall)),
      importId,
      log,
      onBytes: (b) => progress.update(b),
      checkAbort,
    });
    progress.stop();
    const { codec: titleCodec, lang } = site;
    createPageIndexes(db, () => build!.createIndexes(['page', 'redirect']), log);
    log(`pass 1: ${site.counts.pages} pages, ${site.counts.redirects} redirects, ${site.history.revisions} revisions, ${site.history.logItems} log items (${secondsSince(t0)} s)`);
    build.createIndexes(['revision', 'logging']);
    const history = site.history.finish();
    log(`history: ${history.users} users, ${history.recentChanges} recent changes (${secondsSince(t0)} s)`);
    checkAbort();

    // ---- files and messages (pass 2 needs both: file existence, tracking-category names)
    let files = 0;
    if (opts.filesDir !== undefined) {
      files = await new FileImporter(db, titleCodec, log).importDir(opts.filesDir, checkAbort);
      log(`files: ${files} (${secondsSince(t0)} s)`);
    }
    dropUploadFacts(db);
    const messages = loadMessageDirs(db, opts.messageDirs ?? [], log);
    const messageOverrides = writeMessageOverrides(db, lang, messageLanguages(db, [...LANGUAGE_CODES, 'en', lang]));
    checkAbort();

    // ---- pass 2: links
    const hooks = opts.hooks ?? [];
    const hookContext: HookContext = { codec: titleCodec, lang, log };
    for (const h of hooks) await h.begin?.(db, hookContext);
    const pageCount = db.prepare('SELECT COUNT(*) FROM page').pluck().get() as number;
    progress.phase('links (pass 2)', pageCount, 'pages');
    const linkCounts = await runLinkPass(db, {
      codec: titleCodec,
      lang,
      expander: createExpander(db, titleCodec, { siteName: site.siteName, now: new Date(t0Wall) }),
      hooks,
      checkAbort,
      onProgress: (n) => progress.update(n),
    });
    progress.stop();
    log(`pass 2: links analysed (${secondsSince(t0)} s)`);

    // ---- search index
    let searchIndexBytes = 0;
    if (opts.searchIndex ?? true) {
      progress.phase('search index', pageCount, 'pages');
      const search = await buildSearchIndex(db, titleCodec, { checkAbort, onProgress: (n) => progress.update(n) });
      progress.stop();
      searchIndexBytes = search.indexBytes;
      log(
        `search index: ${search.pages} pages, ${search.redirectTitles} redirect titles, ` +
          `${mb(search.indexBytes)} MB of ${mb(search.databaseBytes)} MB so far (${secondsSince(t0)} s)`,
      );
    }

    // ---- derived tables, indexes
    build.createIndexes(['categorylinks', 'pagelinks', 'imagelinks', 'templatelinks', 'langlinks', 'page_props', 'image']);
    checkAbort();
    const categories = buildCategoryTable(db);
    log(`link indexes, categories: ${categories} (${secondsSince(t0)} s)`);
    for (const h of hooks) {
      await h.finish?.(db, hookContext);
      log(`${h.name}: finished (${secondsSince(t0)} s)`);
    }
    checkAbort();
    buildReports(db, { codec: titleCodec, lang });
    log(`reports (${secondsSince(t0)} s)`);
    const stats = siteStatistics(db);
    const redirects = db.prepare('SELECT COUNT(*) FROM redirect').pluck().get() as number;
    db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES ('statistics', ?)").run(JSON.stringify(stats));
    checkAbort();
    build.finish();
    build = null;
    checkAbort();
    fs.renameSync(tmp, opts.db);

    const seconds = (performance.now() - t0) / 1000;
    const links = Object.entries(linkCounts).reduce((n, [k, v]) => (k === 'pageProps' ? n : n + v), 0);
    return {
      db: opts.db,
      importId,
      pages: stats.pages,
      revisions: site.history.revisions,
      logItems: site.history.logItems,
      users: history.users,
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
    };
  } finally {
    progress.stop();
    build?.close();
    removeDbFiles(tmp); // a no-op after the rename
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    process.off('exit', onExit);
  }
}

function mb(bytes: number): string {
  return (bytes / 1048576).toFixed(1);
}

function secondsSince(t0: number): string {
  return ((performance.now() - t0) / 1000).toFixed(1);
}
