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
import type { ImportWriter } from '../store/import-writer.js';
import type { AnalysisSetup, PageResult } from './analysis.js';
import { createChunkAnalyzer } from './analysis-pool.js';
import { inBatch } from './batch.js';

const CHUNK = 500;
/** cl_sortkey is varbinary(230) in MediaWiki: longer keys are cut there, so they are here. */
const SORTKEY_BYTES = 230;

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

/**
 * The 'uppercase' category collation of 1.25: the sort key is the uppercased prefix, a newline and the
 * title text (Title::getCategorySortkey), or just the uppercased title text when there is no prefix.
 * Binary (memcmp) order of this key is the member order of a category.
 */
export function categorySortKey(prefix: string, titleText: string): string {
  const key = (prefix === '' ? titleText : prefix.replace(/[\n\t]/g, ' ') + '\n' + titleText).toUpperCase();
  return truncateUtf8(key, SORTKEY_BYTES);
}

function truncateUtf8(s: string, maxBytes: number): string {
  if (s.length * 3 <= maxBytes || Buffer.byteLength(s, 'utf8') <= maxBytes) return s;
  const buf = Buffer.from(s, 'utf8');
  let end = maxBytes;
  while (end > 0 && (buf[end] & 0xc0) === 0x80) end--; // never cut inside a character
  return buf.subarray(0, end).toString('utf8');
}

export async function runLinkPass(w: ImportWriter, opts: LinkPassOptions): Promise<LinkCounts> {
  const counts: LinkCounts = { pagelinks: 0, imagelinks: 0, templatelinks: 0, categorylinks: 0, langlinks: 0, externallinks: 0, iwlinks: 0, pageProps: 0 };
  const out = w.links;
  out.interwikiMap(opts.interwiki);
  out.begin();
  if (opts.setup.searchIndex) w.search.begin();
  const { hooks } = opts;

  const write = async (r: PageResult) => {
    const { page, links } = r;
    if (links !== null) {
      const from = page.id;
      for (const t of links.pages.values()) out.pageLink(from, page.ns, t);
      for (const f of links.files) out.imageLink(from, page.ns, f);
      for (const t of r.templates) counts.templatelinks += out.templateLink(from, page.ns, t);
      const type = page.ns === NS_CATEGORY ? 'subcat' : page.ns === NS_FILE ? 'file' : 'page';
      const titleText = page.dbkey.replace(/_/g, ' ');
      for (const [cat, prefix] of links.categories) {
        counts.categorylinks += out.categoryLink({ from, to: cat, sortkey: categorySortKey(prefix, titleText), sortkeyPrefix: prefix, timestamp: page.latestTimestamp, type });
      }
      for (const [lang, title] of links.langs) counts.langlinks += out.langLink(from, lang, title);
      counts.externallinks += out.externalLinks(from, links.external);
      counts.iwlinks += out.interwikiLinks(from, links.interwikis.values());
      for (const [name, value] of links.props) counts.pageProps += out.pageProp(from, name, value);
    }
    for (let i = 0; i < hooks.length; i++) await hooks[i].page(r.analysis, r.text ?? '', r.hooks[i]);
    if (r.search) w.search.page(r.search);
  };

  const analyzer = await createChunkAnalyzer(opts.workers, opts.setup, { source: w, interwiki: opts.interwiki, location: () => w.shareForReading() });
  try {
    // chunks asked for ahead: every worker busy while the main thread writes, memory bounded
    const ahead: Array<Promise<PageResult[]>> = [];
    const depth = Math.max(2, 2 * opts.workers);
    let asked = 0;
    const askMore = () => {
      while (ahead.length < depth) {
        const end = w.pages.chunkEnd(asked, CHUNK);
        if (end === null) break;
        const results = analyzer.chunk(asked, CHUNK);
        results.catch(() => {}); // a failure is thrown where the chunk is awaited, in order
        ahead.push(results);
        asked = end;
      }
    };
    askMore();
    let done = 0;
    while (ahead.length > 0) {
      const results = await ahead.shift()!;
      askMore();
      await inBatch(w, async () => {
        for (const r of results) await write(r);
      });
      done += results.length;
      opts.onProgress?.(done);
      // let signal handlers and the progress bar run between chunks
      await new Promise((r) => setImmediate(r));
      opts.checkAbort();
    }
  } finally {
    // a failed chunk may leave others under way: their results are not wanted
    await analyzer.close();
  }
  // one row per (page, target) already: the maps of a page hold each target once
  const moved = out.finish();
  counts.pagelinks = moved.pagelinks;
  counts.imagelinks = moved.imagelinks;
  return counts;
}
