/**
 * Pass 2: every page's text, in page_id order and in chunks (memory bounded by the chunks under way, not
 * by the wiki), is analysed on worker threads (analysis.ts: expansion, links, the hooks' analyzers, the
 * search text) and, on this thread, in page id order, its links written to pagelinks, imagelinks, templatelinks, categorylinks,
 * langlinks, externallinks, iwlinks and page_props -- what MediaWiki's LinksUpdate writes after parsing a page. The analysis
 * hooks see each page here too.
 *
 * Links to missing pages and files are kept (they are what the Wanted* reports list); each table gets
 * one row per (page, target), as MediaWiki's primary keys make it.
 */
import { NS_CATEGORY, NS_FILE } from '../wiki/namespaces.js';
import type { PageAnalysisHook } from './hooks.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import type { CategoryLinkRow, ImportWriter, LateLinkCounts, PageLinkRows, PageWithText } from '../store/import-writer.js';
import { linkRows, PageAnalyzer, type AnalysisSetup, type LinkRows, type PageResult } from './analysis.js';
import type { PageLinks } from '../wikitext/links.js';
import type { Expansion } from './expand.js';
import { MAX_EXPANSION_DEPTH, queryKey, type InlineQueryCall, type InlineQueryOutput } from '../wikitext/expansion-rounds.js';
import { createChunkAnalyzer, encodedChunk, type ChunkResults } from './analysis-pool.js';
import { encodeChunk } from './result-codec.js';
import { inBatch } from './batch.js';

const CHUNK = 500;
/**
 * Chunks written per batch (one transaction). A commit writes the pages it changed to the WAL (the
 * workers read the file meanwhile: the tables' last pages again at every commit), and every commit
 * makes the workers' connections drop their page cache and memory mapping at their next chunk (SQLite
 * resets a WAL reader's cache when the log has changed), costing them munmap calls and page faults: a
 * batch of several chunks commits less often.
 */
const BATCH_CHUNKS = 8;
/**
 * Chunks the main thread may analyse ahead of the workers' (see runLinkPass). Too few, and with one
 * worker on two cores the main thread catches up with the worker's chunks and waits for them, one core
 * idle meanwhile. Each is one chunk's results held in memory.
 */
const STOLEN = 6;
export interface LinkCounts {
  pagelinks: number;
  imagelinks: number;
  templatelinks: number;
  categorylinks: number;
  langlinks: number;
  externallinks: number;
  iwlinks: number;
  pageProps: number;
}

export interface LinkPassOptions {
  setup: AnalysisSetup;
  interwiki: InterwikiMap;
  /** analysis worker threads (0: analyse on this thread) */
  workers: number;
  hooks: PageAnalysisHook[];
  /** throws when the import has been interrupted */
  checkAbort: () => void;
  onProgress?: (pagesDone: number) => void;
}

export interface LinkPassResult {
  counts: LinkCounts;
  /** ids of the pages whose text calls {{#ask:}} / {{#show:}}, ascending */
  withInlineQueries: number[];
}

export async function runLinkPass(w: ImportWriter, opts: LinkPassOptions): Promise<LinkPassResult> {
  const counts: LinkCounts = {
    pagelinks: 0,
    imagelinks: 0,
    templatelinks: 0,
    categorylinks: 0,
    langlinks: 0,
    externallinks: 0,
    iwlinks: 0,
    pageProps: 0,
  };
  const out = w.links;
  out.interwikiMap(opts.interwiki);
  out.begin();
  if (opts.setup.searchIndex) w.search.begin();
  const { hooks } = opts;
  const withInlineQueries: number[] = [];

  const write = async (r: PageResult) => {
    if (r.inlineQueries) withInlineQueries.push(r.page.id);
    writePageLinks(out, r, counts);
    for (let i = 0; i < hooks.length; i++) await hooks[i].page(r.analysis, r.text ?? '', r.hooks[i]);
    if (r.search) w.search.page(r.search);
  };

  const analyzer = await createChunkAnalyzer(opts.workers, opts.setup, {
    source: w,
    interwiki: opts.interwiki,
    share: () => w.shareForReading(),
    stopSharing: () => w.stopSharing(),
  });
  try {
    // chunks asked for ahead: every worker busy while the main thread writes, memory bounded
    const ahead: Array<{ results: Promise<ChunkResults>; ready: boolean; local?: true }> = [];
    const depth = Math.max(2, 2 * opts.workers);
    let asked = 0;
    let withWorkers = 0;
    const askMore = () => {
      while (withWorkers < depth) {
        const end = w.pages.chunkEnd(asked, CHUNK);
        if (end === null) break;
        const entry = { results: analyzer.chunk(asked, CHUNK), ready: false };
        entry.results.then(
          () => (entry.ready = true),
          () => {}, // a failure is thrown where the chunk is awaited, in order
        );
        ahead.push(entry);
        withWorkers++;
        asked = end;
      }
    };
    // With workers, this thread has time left over between writes: while the oldest chunk is still being
    // analysed, it analyses the next one itself (the same results: analysis reads only what pass 1 wrote).
    // So the workers and this thread share the analysis as their speeds allow, without another thread's
    // memory; at most depth + STOLEN chunks are held.
    let local: PageAnalyzer | null = null;
    const steal = async () => {
      if (opts.workers <= 0) return;
      while (ahead.length > 0 && !ahead[0].ready && ahead.length < depth + STOLEN) {
        const end = w.pages.chunkEnd(asked, CHUNK);
        if (end === null) return;
        local ??= await PageAnalyzer.create(w, opts.setup, opts.interwiki);
        // encoded as the workers' chunks are: it waits for the chunks before it, and held as objects its
        // results were promoted to the old generation (see result-codec.ts ResultEncoder)
        let results: ChunkResults;
        try {
          results = encodedChunk(encodeChunk(local, asked, CHUNK).encoded);
        } catch (e) {
          throw new Error(`page analysis failed: ${(e as Error).stack ?? String(e)}`);
        }
        ahead.push({ results: Promise.resolve(results), ready: true, local: true });
        asked = end;
        // the worker's answer may have come meanwhile
        await new Promise((r) => setImmediate(r));
      }
    };
    askMore();
    let done = 0;
    // chunks written in the open batch (0: none open)
    let inOpenBatch = 0;
    try {
      while (ahead.length > 0) {
        await steal();
        const next = ahead.shift()!;
        if (!next.local) withWorkers--;
        const results = await next.results;
        askMore();
        if (inOpenBatch === 0) w.begin();
        inOpenBatch++;
        for (const r of results.each()) await write(r);
        if (inOpenBatch === BATCH_CHUNKS || ahead.length === 0) {
          inOpenBatch = 0;
          w.commit();
        } else if (opts.setup.searchIndex) {
          // a chunk's search rows at a time: the batch's would be megabytes of text held
          w.search.flush();
        }
        done += results.count;
        opts.onProgress?.(done);
        // let signal handlers and the progress bar run between chunks
        await new Promise((r) => setImmediate(r));
        opts.checkAbort();
      }
    } catch (e) {
      // nothing half written stays: the open batch goes
      if (inOpenBatch > 0) w.rollback();
      throw e;
    }
  } finally {
    // a failed chunk may leave others under way: their results are not wanted
    await analyzer.close();
  }
  // one row per (page, target) already: the maps of a page hold each target once
  const moved = out.finish();
  counts.pagelinks = moved.pagelinks;
  counts.imagelinks = moved.imagelinks;
  counts.templatelinks = moved.templatelinks;
  counts.categorylinks = moved.categorylinks;
  return { counts, withInlineQueries };
}

/**
 * What LinksUpdate writes for one analysed page: its rows of every link table and page_props. The counts
 * of the per-page tables (langlinks, externallinks, iwlinks, page_props) grow by the rows added.
 */
export function writePageLinks(
  out: PageLinkRows,
  r: PageResult,
  counts: Pick<LinkCounts, 'langlinks' | 'externallinks' | 'iwlinks' | 'pageProps'>,
): void {
  const { page, links } = r;
  if (links === null) return;
  writeTargetLinks(out, page, links);
  const from = page.id;
  const ll = links.langs;
  for (let i = 0; i < ll.length; i += 2) counts.langlinks += out.langLink(from, ll[i], ll[i + 1]);
  counts.externallinks += out.externalLinks(from, links.external);
  const iw = links.interwikis;
  if (iw.length > 0) {
    const pairs: Array<{ prefix: string; title: string }> = [];
    for (let i = 0; i < iw.length; i += 2) pairs.push({ prefix: iw[i], title: iw[i + 1] });
    counts.iwlinks += out.interwikiLinks(from, pairs);
  }
  const pp = links.props;
  for (let i = 0; i < pp.length; i += 2) counts.pageProps += out.pageProp(from, pp[i], pp[i + 1]);
}

/**
 * A page's rows of the tables that link it to a target: pagelinks, imagelinks, templatelinks and
 * categorylinks (cl_timestamp the page's newest revision). `newCategory` is handed each category row the
 * sink reports new (the updater's live tables; the import queues its rows and reports none).
 */
export function writeTargetLinks(
  out: PageLinkRows,
  page: { id: number; ns: number; latestTimestamp: string },
  links: Pick<LinkRows, 'pages' | 'files' | 'templates' | 'categories'>,
  newCategory?: (row: CategoryLinkRow) => void,
): void {
  const from = page.id;
  const fromNs = page.ns;
  const pl = links.pages;
  for (let i = 0; i < pl.length; i += 2) out.pageLink(from, fromNs, { ns: pl[i] as number, dbkey: pl[i + 1] as string });
  for (const f of links.files) out.imageLink(from, fromNs, f);
  const tl = links.templates;
  for (let i = 0; i < tl.length; i += 2) out.templateLink(from, fromNs, { ns: tl[i] as number, dbkey: tl[i + 1] as string });
  const type = categoryType(fromNs);
  const cl = links.categories;
  for (let i = 0; i < cl.length; i += 3) {
    const row: CategoryLinkRow = {
      from,
      to: cl[i]!,
      sortkey: cl[i + 1]!,
      sortkeyPrefix: cl[i + 2]!,
      timestamp: page.latestTimestamp,
      type,
    };
    if (out.categoryLink(row) === 1) newCategory?.(row);
  }
}

/** Answers inline query calls over the wiki being imported (the modules' evaluator, handed in by the CLI). */
export type InlineQueryEvaluator = (calls: InlineQueryCall[], page: { ns: number; dbkey: string }) => Promise<InlineQueryOutput[]>;

/**
 * The links of inline query results. SMW's results are wikitext the parser reads like the rest of the
 * page: the pages, files and property pages they link, the templates a template format calls and the
 * categories its output adds are links of the page that runs the query. They need the complete semantic
 * data, so they are added after pass 2 and the semantic importer's finish: each page that calls
 * {{#ask:}}/{{#show:}} is expanded again on this thread with its queries answered (in rounds, as a render
 * does: an answer's templates may hold further queries), and the links this finds that pass 2 had not are
 * written -- what a refresh of every page leaves in MediaWiki+SMW. The queries run with the limits of
 * rendering (the same evaluator, MAX_INLINE_QUERIES calls per page).
 */
export async function runInlineQueryLinkPass(
  w: ImportWriter,
  opts: Pick<LinkPassOptions, 'setup' | 'interwiki' | 'checkAbort'> & { pages: readonly number[]; evaluate: InlineQueryEvaluator },
): Promise<LateLinkCounts> {
  const analyzer = await PageAnalyzer.create(w, opts.setup, opts.interwiki);
  const added: LateLinkCounts = { pagelinks: 0, imagelinks: 0, templatelinks: 0, categorylinks: 0 };
  const add = (n: LateLinkCounts) => {
    for (const k of Object.keys(added) as Array<keyof LateLinkCounts>) added[k] += n[k];
  };
  for (let i = 0; i < opts.pages.length; i += CHUNK) {
    await inBatch(w, async () => {
      for (const page of w.pages.withText(opts.pages.slice(i, i + CHUNK))) {
        const rows = await inlineQueryLinkRows(analyzer, page, opts.evaluate);
        w.links.supplement(
          page.id,
          page.ns,
          Object.assign({}, rows, { timestamp: page.latestTimestamp, categoryType: categoryType(page.ns) }),
        );
      }
      add(w.links.flushSupplement());
    });
    await new Promise((r) => setImmediate(r));
    opts.checkAbort();
  }
  return added;
}

/**
 * The links of a page whose inline queries are answered: expanded again, in rounds, each answering the
 * calls the previous one found (an answer's templates may hold further queries), as a render does.
 */
export async function inlineQueryLinkRows(analyzer: PageAnalyzer, page: PageWithText, evaluate: InlineQueryEvaluator): Promise<LinkRows> {
  const known = new Map<string, InlineQueryOutput>();
  let result: { exp: Expansion; links: PageLinks };
  for (let round = 0; ; round++) {
    result = analyzer.expandAndLink(page, known);
    // calls still unanswered after the last round stay as written (inert), as in a render
    const calls = result.exp.wantedQueries;
    if (calls.length === 0 || round === MAX_EXPANSION_DEPTH) break;
    const answers = await evaluate(calls, { ns: page.ns, dbkey: page.dbkey });
    calls.forEach((c, k) => known.set(queryKey(c), answers[k]));
  }
  return linkRows(result.links, result.exp.templates, page.dbkey.replace(/_/g, ' '));
}

/** categorylinks' cl_type of the pages of a namespace */
export function categoryType(ns: number): CategoryLinkRow['type'] {
  return ns === NS_CATEGORY ? 'subcat' : ns === NS_FILE ? 'file' : 'page';
}
