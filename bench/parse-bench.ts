/**
 * action=parse figures at demo scale, in process (no HTTP, no response cache): the render of a typical
 * page without the parser cache, the same page from the parser cache, and the largest demo page.
 *
 *   npm run build && node dist/bench/parse-bench.js [--db data/demo.sqlite] [--page Київ] [--runs 200]
 */
import { parseArgs } from 'node:util';
import { openStore } from '../src/store/open.js';
import { Wiki } from '../src/wiki/wiki.js';
import { parserCache, renderPage } from '../src/modules/page-renderer.js';

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string', default: 'data/demo.sqlite' },
      page: { type: 'string', default: 'Київ' },
      runs: { type: 'string', default: '200' },
    },
  });
  const store = await openStore(values.db!);
  const wiki = await Wiki.load(store.site);
  const runs = Number(values.runs);
  const t = wiki.codec.parse(values.page!, 0)!;
  const [row] = await store.pages.byTitles([{ ns: t.ns, dbkey: t.dbkey }]);
  // the largest page of the main namespace, by the page table's length column
  const pages = await store.pages.range({ ns: 0, redirects: 'nonredirects', descending: false, limit: 5000 });
  const largest = pages.reduce((a, b) => (b.length > a.length ? b : a));
  const p50 = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const measure = async (r: typeof row, n: number) => {
    const times: number[] = [];
    for (let i = 0; i < n; i++) {
      const start = process.hrtime.bigint();
      const text = (await store.pages.latestTexts([r.pageid])).get(r.pageid) ?? '';
      await renderPage(store, wiki, { title: { ns: r.ns, dbkey: r.title }, text, editSections: true, toc: true });
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    return times;
  };
  await measure(row, 20); // warm-up: JIT, statement cache, messages
  const uncached = await measure(row, runs);
  const cache = parserCache(store);
  const text = (await store.pages.latestTexts([row.pageid])).get(row.pageid) ?? '';
  cache.set(
    `${row.latestRevId}|1|1`,
    await renderPage(store, wiki, { title: { ns: row.ns, dbkey: row.title }, text, editSections: true, toc: true }),
  );
  const hits: number[] = [];
  for (let i = 0; i < runs * 50; i++) {
    const start = process.hrtime.bigint();
    cache.get(`${row.latestRevId}|1|1`);
    hits.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  const big = await measure(largest, Math.max(5, Math.floor(runs / 10)));
  console.log(`render ${values.page} (${row.length} bytes) uncached: p50 ${p50(uncached).toFixed(3)} ms over ${runs} runs`);
  console.log(`parser cache hit: p50 ${p50(hits).toFixed(4)} ms`);
  console.log(
    `largest page ${wiki.titleText(largest.ns, largest.title)} (${largest.length} bytes) uncached: p50 ${p50(big).toFixed(3)} ms`,
  );
  store.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
