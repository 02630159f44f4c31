/**
 * CPU per request without HTTP or the load generator: `ApiMain.handle` called in this process for one
 * query, best of 5 rounds of N calls, in µs. Compares two builds on the same database when the machine is
 * too noisy for wrk (other work on the cores moves req/s by ±40%, the best in-process round much less):
 *
 *   node dist/bench/inprocess.js --dist /path/to/other/checkout/dist --db wiki.sqlite --query 'action=…' [--n 1500] [--clock cpu]
 *
 * `--dist` defaults to this build. The query is a plain query string (UTF-8 allowed).
 */
import { parseArgs } from 'node:util';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const { values } = parseArgs({
  options: {
    dist: { type: 'string', default: resolve(dirname(fileURLToPath(import.meta.url)), '..') },
    db: { type: 'string' },
    query: { type: 'string' },
    n: { type: 'string', default: '1500' },
    // cpu: this process's user+system time (process.cpuUsage), steadier than wall time when other
    // processes share the cores
    clock: { type: 'string', default: 'wall' },
    // 0: no memory parser cache, so action=parse of a page reads the import's parser_cache table (import
    // --render) or renders, every call
    'parser-cache-mb': { type: 'string' },
  },
});
if (!values.db || !values.query) {
  console.error(
    'usage: node dist/bench/inprocess.js [--dist DIR] --db FILE --query QUERY [--n N] [--clock wall|cpu] [--parser-cache-mb MB]',
  );
  process.exit(2);
}
const mod = (p: string) => import(pathToFileURL(resolve(values.dist!, p)).href);
const { ApiMain } = await mod('src/api/main.js');
const { createRegistry } = await mod('src/modules/registry.js');
const { Wiki } = await mod('src/wiki/wiki.js');
// builds before the asynchronous store open SQLite directly and build Wiki synchronously
let store: any;
let wiki: any;
try {
  store = await (await mod('src/store/open.js')).openStore(values.db);
  wiki = await Wiki.load(store.site);
} catch {
  store = (await mod('src/store/sqlite/index.js')).openSqliteStore(values.db);
  wiki = new Wiki(store.site);
}
if (values['parser-cache-mb'] !== undefined) {
  (await mod('src/modules/page-renderer.js')).configureParserCache((Number(values['parser-cache-mb']) * 1024 * 1024) / 2);
}
// serve's malloc thresholds: without them every answer over a few KB pays the kernel for its pages again
// (system time that serve does not spend), and a bigger answer looks dearer than it is
try {
  (await mod('src/http/malloc-thresholds.js')).raiseMallocThresholds();
} catch {
  /* a build from before them */
}
const api = new ApiMain(store, wiki, createRegistry());
const raw = Object.fromEntries(new URLSearchParams(values.query));
const request = () => ({
  method: 'GET',
  url: '/api.php?' + values.query,
  headers: {},
  raw: { ...raw },
  ip: '127.0.0.1',
  apiUrl: 'http://127.0.0.1/api.php',
});
const n = Number(values.n);
for (let i = 0; i < 500; i++) await api.handle(request());
let best = Infinity;
for (let round = 0; round < 5; round++) {
  const t0 = process.hrtime.bigint();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await api.handle(request());
  const c = process.cpuUsage(c0);
  best = Math.min(best, (values.clock === 'cpu' ? c.user + c.system : Number(process.hrtime.bigint() - t0) / 1e3) / n);
}
console.log(best.toFixed(1));
// a PostgreSQL store listens for the batches written into it: closed, the process can end
store.close?.();
