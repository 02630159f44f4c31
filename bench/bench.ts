/**
 * `npm run bench [-- --pages N | --db-file F] [--duration S] [--connections C] [--only NAME] [--cache-mb MB] [--workers N] [--db postgres|URL] [--seed-table]`
 *
 * Generates a wiki (the demo wiki, or a synthetic one of N pages), imports it, starts `wikiquery serve`
 * as a separate process on loopback, drives it with a load generator for a fixed list of requests (the
 * spec's endpoints), and prints requests/s and p50/p99 latency for each. wrk (Debian package) is used
 * when installed because it costs the server less CPU; otherwise autocannon (npm).
 * The server's response cache is off by default here (`--cache-mb 0`), so the figures are those of the
 * real request path: parameters, SQLite, JSON; `--cache-mb 64` measures the cached answers instead.
 *
 * `--db postgres` (a throwaway cluster in .bench/postgres, `--pg-port N`) or `--db postgres://…`: the wiki is
 * imported into PostgreSQL too (`--reimport` does it again; `--import-only` stops there: the import's summary
 * line gives pages/s and peak RSS), and the contract's nine requests (`--all`: every request) are measured on
 * SQLite and on PostgreSQL with one and with two serving processes (`serve --workers 2`: two nodes on one
 * database, the kernel spreading connections), then tabled side by side with the PostgreSQL statements each
 * request runs (from a --debug server's debuginfo: the round trips per request).
 *
 * `--seed-table` (issue 13's Done-when in one run): the contract's nine requests against the bare node:http
 * server (bench/bare-server.ts) with as many processes as wikiquery has workers, measured before and after
 * each worker count at 16 and 64 connections; then `serve --workers 1` and `--workers 2` (`--workers 1,2`,
 * the default), each with the response cache off and on (`--cache-mb`, default 64), every request at 16
 * connections (req/s, p50, p99) and 64 (p99). Prints one table per worker count with req/s as a share of
 * the bare server's and PASS/FAIL per criterion (uncached ≥ 0.50, cached ≥ 0.90, p99 < 5 ms at 64
 * connections, cache off and on); `--markdown` for notes. An answer over 8 KB (sfautocomplete's ~100 kB) also
 * gets a line against a bare server writing as many bytes, the ceiling its size sets. `--compare-pages 10000` (or `--compare-db-file F`)
 * adds each request's uncached p50 on that wiki and on this one, measured in turn at `--compare-connections`
 * (default 1: the service time), and the ratio against 1.5×. `--rounds N` (N > 1) measures each request's c16
 * figure N times, each right after the bare server's (kept running beside wikiquery), and takes the median
 * of the N shares: on a machine whose speed drifts from minute to minute (other tenants), a share against
 * a bare figure taken minutes apart says more about the drift than about the request. Duration: 3 s per measurement by default, plus
 * a 1 s warm-up: 80 measurements, about 6 min with both worker counts (18 more, 7½ min, with --compare-pages).
 *   npm run bench -- --pages 1000000 --seed-table --compare-pages 10000
 *   npm run bench -- --db-file /tmp/x/1m.sqlite --seed-table --compare-db-file /tmp/x/10k.sqlite
 *
 * `--db-file PATH` (any mode but --db): serve that imported wiki instead of generating and importing one in
 * .bench/ (a 1,000,000-page import takes minutes). `serve` opens it read-only, so a shared file is safe.
 * Ports: the server on `--port` (default 8199), the bare server on the port below, a --compare wiki above.
 * Not part of `npm test`: figures depend on the machine.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { isCurrentDatabase } from '../src/store/sqlite/db.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const cli = join(root, 'dist/src/cli/main.js');

interface BenchRequest {
  name: string;
  query: string;
}

/** The spec's endpoints with the parameters its examples use, plus the other hot read paths. */
function requests(big: boolean, ask: AskValues, cont: ContinueValues): BenchRequest[] {
  const q = (o: Record<string, string>) => new URLSearchParams({ format: 'json', ...o }).toString();
  return [
    // page relations at scale: the hub every 9th article links to (≥100,000 backlinks at 1,000,000 pages) and
    // the page of 5,000 links, each a first batch and the batch its continue value points at
    ...(big
      ? [
          { name: 'backlinks (hub, first 500)', query: q(backlinksQuery({})) },
          { name: 'backlinks (hub, continued)', query: q(backlinksQuery(cont.backlinks)) },
          { name: 'links (5,000-link page, first 500)', query: q(linksQuery({})) },
          { name: 'links (5,000-link page, continued)', query: q(linksQuery(cont.links)) },
          // the issue's selective property query: Країна is Україна on ~90% of the articles, Населення > 100000 on 0.2%
          {
            name: 'ask (Країна, Населення, sorted)',
            query: q({ action: 'ask', query: '[[Країна::Україна]][[Населення::>100000]]|?Населення|sort=Населення' }),
          },
        ]
      : []),
    // SMW's query engine: a selective property query sorted by a number, and a category query of 10 results
    {
      name: 'ask (property, sorted)',
      query: q({ action: 'ask', query: `[[Розташоване в::${ask.location}]][[Населення::>100000]]|?Населення|sort=Населення` }),
    },
    { name: 'ask (category, 10 results)', query: q({ action: 'ask', query: `[[Категорія:${ask.category}]]|limit=10` }) },
    {
      name: 'sfautocomplete (property)',
      query: q({ action: 'sfautocomplete', property: big ? 'Розташоване_в' : 'Регіон', substr: big ? 'малю' : 'київ' }),
    },
    // a one-letter prefix: the 1000-value cap is reached on any wiki size
    { name: 'sfautocomplete (1000 values)', query: q({ action: 'sfautocomplete', property: 'Розташоване_в', substr: 'м' }) },
    { name: 'duplicatefiles (titles)', query: q({ action: 'query', prop: 'duplicatefiles', titles: 'File:Flag_of_Ukraine.png' }) },
    { name: 'allcategories (acprop=size)', query: q({ action: 'query', list: 'allcategories', acprop: 'size' }) },
    { name: 'generator=allimages + duplicatefiles', query: q({ action: 'query', generator: 'allimages', prop: 'duplicatefiles' }) },
    { name: 'generator=allfileusages', query: q({ action: 'query', generator: 'allfileusages', gaffrom: 'П' }) },
    { name: 'allmessages (amprefix)', query: q({ action: 'query', meta: 'allmessages', amprefix: 'demo-' }) },
    { name: 'querypage (Ancientpages)', query: q({ action: 'query', list: 'querypage', qppage: 'Ancientpages' }) },
    { name: 'browsebysubject', query: q({ action: 'browsebysubject', subject: big ? 'Сторінка_1' : 'Демонстраційна_сторінка' }) },
    { name: 'tokens', query: q({ action: 'tokens' }) },
    { name: 'parse (page, parser cache)', query: q({ action: 'parse', page: big ? 'Сторінка_1' : 'Київ' }) },
    // search: a rare word, a word on nearly every page (BM25 over every match), phrases of both kinds
    { name: 'search (one word)', query: q({ action: 'query', list: 'search', srsearch: big ? 'бомка' : 'памʼятник' }) },
    { name: 'search (word on every page)', query: q({ action: 'query', list: 'search', srsearch: big ? 'поселення' : 'місто' }) },
    { name: 'search (phrase)', query: q({ action: 'query', list: 'search', srsearch: big ? '"бомка чосище"' : '"стоїть памʼятник"' }) },
    {
      name: 'search (phrase on every page)',
      query: q({ action: 'query', list: 'search', srsearch: big ? '"поселення громади"' : '"у місті"' }),
    },
    { name: 'opensearch (prefix)', query: q({ action: 'opensearch', search: big ? 'Бо' : 'Ки' }) },
    { name: 'siteinfo', query: q({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases' }) },
    // page relations: every synthetic article transcludes Шаблон:Поселення (N backlinks): the first batch and
    // one continued from the middle are each a seek into templatelinks, never a count or a sort of the set
    ...(big
      ? [
          {
            name: 'embeddedin (first 500 of N)',
            query: q({ action: 'query', list: 'embeddedin', eititle: 'Шаблон:Поселення', eilimit: '500' }),
          },
          {
            name: 'embeddedin (continued)',
            query: q({ action: 'query', list: 'embeddedin', eititle: 'Шаблон:Поселення', eilimit: '500', eicontinue: '0|5000' }),
          },
        ]
      : [
          {
            name: 'backlinks (blredirect)',
            query: q({ action: 'query', list: 'backlinks', bltitle: 'Київ', blredirect: '', bllimit: 'max' }),
          },
        ]),
    { name: 'alllinks (continued)', query: q({ action: 'query', list: 'alllinks', alcontinue: 'П|1', allimit: '500' }) },
  ];
}

const backlinksQuery = (o: Record<string, string>) => ({
  action: 'query',
  list: 'backlinks',
  bltitle: 'Україна',
  bllimit: '500',
  continue: '',
  ...o,
});
const linksQuery = (o: Record<string, string>) => ({
  action: 'query',
  prop: 'links',
  titles: 'Список поселень',
  pllimit: '500',
  continue: '',
  ...o,
});

interface ContinueValues {
  backlinks: Record<string, string>;
  links: Record<string, string>;
}

/** The continue values of the first batches (read from the server: they hold page ids). */
async function continueValues(base: string, big: boolean): Promise<ContinueValues> {
  if (!big) return { backlinks: {}, links: {} };
  const get = async (o: Record<string, string>) =>
    ((await (await fetch(`${base}?${new URLSearchParams({ format: 'json', ...o })}`)).json()) as { continue?: Record<string, string> })
      .continue ?? {};
  const bl = await get(backlinksQuery({}));
  const pl = await get(linksQuery({}));
  if (!bl.blcontinue || !pl.plcontinue)
    throw new Error('the synthetic wiki has no hub or link-list page to continue through (regenerate .bench/)');
  return { backlinks: bl, links: pl };
}

interface AskValues {
  location: string;
  category: string;
}

/** Values the ask requests use: fixed on the demo; on a synthetic wiki read from the wiki itself (its generator's names are random). */
async function askValues(base: string, big: boolean): Promise<AskValues> {
  if (!big) return { location: 'Київська область', category: 'Супи' };
  const query = '[[Категорія:Поселення]][[Населення::>150000]]|?Розташоване в|?Категорія|limit=1';
  const j = (await (await fetch(`${base}?${new URLSearchParams({ action: 'ask', format: 'json', query })}`)).json()) as {
    query: { results: Record<string, { printouts: Record<string, Array<{ fulltext: string }>> }> };
  };
  const first = Object.values(j.query.results)[0];
  const location = first.printouts['Розташоване в'][0].fulltext;
  const category =
    first.printouts.Категорія.map((c) => c.fulltext.replace(/^[^:]*:/, '')).find((c) => c.startsWith('Громада')) ?? 'Поселення';
  return { location, category };
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** non-2xx answers and socket errors */
  errors: number;
  /** requests the load generator gave up on: its latencies leave them out, so a p99 with timeouts flatters */
  timeouts: number;
}

function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

function parseWrkMs(s: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(s);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

function runWrk(url: string, duration: number, connections: number): Figures {
  spawnSync('wrk', ['-t1', '-c4', '-d1s', url]); // warm-up
  const r = spawnSync('wrk', [`-t${Math.min(2, connections)}`, `-c${connections}`, `-d${duration}s`, '--latency', url], {
    encoding: 'utf8',
  });
  const out = r.stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = parseWrkMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const p99 = parseWrkMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const timeouts = Number(/Socket errors:.*timeout (\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p50, p99, errors, timeouts };
}

async function runAutocannon(url: string, duration: number, connections: number): Promise<Figures> {
  await autocannon({ url, connections: 2, duration: 1 });
  const r = await autocannon({ url, connections, duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors, timeouts: r.timeouts };
}

/** One load-generator run against `url` (after a 1 s warm-up), the same way for wikiquery and the bare server. */
type Measure = (url: string, connections: number) => Promise<Figures>;

function measurer(tool: string | undefined, duration: number): { measure: Measure; name: (connections: number) => string } {
  const useWrk = tool ? tool === 'wrk' : hasWrk();
  return {
    measure: async (url, connections) => (useWrk ? runWrk(url, duration, connections) : await runAutocannon(url, duration, connections)),
    name: (connections) => (useWrk ? `wrk -t${Math.min(2, connections)} -c${connections}` : `autocannon -c${connections}`),
  };
}

/**
 * Spawn a server and wait for its ready line (`… serving http://…`: printed once every worker of a cluster
 * listens, so a two-process measurement does not start on one) and for `probe` to answer.
 */
async function spawnServer(args: string[], probe: string, env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'], env });
  try {
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`no ready line from ${args.join(' ')}`)), 120_000);
      const done = (e?: Error) => {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        child.off('exit', onExit);
        if (e) reject(e);
        else resolve();
      };
      const onData = (b: Buffer) => {
        seen += b.toString('utf8');
        if (/serving /.test(seen)) done();
      };
      const onExit = () => done(new Error('server exited early'));
      child.stdout!.on('data', onData);
      child.once('exit', onExit);
    });
    child.stdout!.resume(); // later output (logs) is not read: it must not fill the pipe
    await waitForServer(probe, child);
  } catch (e) {
    child.kill('SIGTERM');
    throw e;
  }
  return child;
}

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      const r = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (r.ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((res) => setTimeout(res, 100));
  }
  throw new Error('server did not start');
}

interface Config {
  label: string;
  db: string;
  workers: number;
}

/** Start `wikiquery serve` on `port`; the caller stops it. */
function startServer(db: string, port: number, workers: number, cacheMb: string, extra: string[] = []): Promise<ChildProcess> {
  return spawnServer(
    [cli, 'serve', '--db', db, '--port', String(port), '--cache-mb', cacheMb, '--workers', String(workers), ...extra],
    `http://127.0.0.1:${port}/api.php?action=query&meta=siteinfo&format=json`,
    { ...process.env, WIKIQUERY_LOG_LEVEL: 'warn' },
  );
}

/** Start the bare node:http server (bench/bare-server.ts) with `processes` processes; the caller stops it. */
function startBare(port: number, processes: number, bytes = 100): Promise<ChildProcess> {
  return spawnServer(
    [join(root, 'dist', 'bench', 'bare-server.js'), String(port), String(processes), String(bytes)],
    `http://127.0.0.1:${port}/`,
  );
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Run `body` with a server up, stopping it however `body` ends. */
async function withServer<T>(start: Promise<ChildProcess>, body: () => Promise<T>): Promise<T> {
  const child = await start;
  try {
    return await body();
  } finally {
    await stopServer(child);
  }
}

const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '?');
const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '?');
const trouble = (f: Figures) => `${f.errors ? ` (${f.errors} non-2xx)` : ''}${f.timeouts ? ` (${f.timeouts} timeouts)` : ''}`;
const fmt = (f: Figures) => `${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(2).padStart(6)} ${f.p99.toFixed(2).padStart(6)}${trouble(f)}`;
const line = (name: string, f: Figures) =>
  `${name.padEnd(40)} ${f.rps.toFixed(0).padStart(9)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(8)} ${String(f.errors).padStart(8)}${f.timeouts ? ` (${f.timeouts} timeouts)` : ''}`;

/** A table as aligned text (first column left, the others right) or as Markdown (`--markdown`, for notes). */
function printTable(head: string[], rows: string[][], markdown: boolean): void {
  if (markdown) {
    console.log(`| ${head.join(' | ')} |`);
    console.log(`|${head.map((_, i) => (i === 0 ? '---' : '---:')).join('|')}|`);
    for (const r of rows) console.log(`| ${r.join(' | ')} |`);
    return;
  }
  const width = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const render = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(width[i]) : c.padStart(width[i]))).join('  ');
  console.log(render(head));
  for (const r of rows) console.log(render(r));
}

/** the cluster --db postgres started (stopped at the end; its data stay for the next run) */
let startedCluster: string | null = null;

/**
 * `--db postgres`: a throwaway cluster in .bench/postgres (`--db postgres://…`: that database), the
 * wiki imported into it with `wikiquery import --db` unless it already serves one (`--reimport`: again).
 */
async function preparePostgres(db: string, label: string, dump: string, src: string, reimport: boolean, pgPort: number): Promise<string> {
  const { connect } = await import('../src/store/postgres/db.js');
  const { servedImport } = await import('../src/store/postgres/catalog.js');
  let url = db;
  if (db === 'postgres') {
    const { startCluster } = await import('../scripts/pg-cluster.js');
    const cluster = startCluster(join(root, '.bench', 'postgres'), { port: pgPort });
    startedCluster = cluster.dir;
    const name = `bench_${label.replace(/\W/g, '_')}`;
    const admin = connect(cluster.url, { max: 1 });
    try {
      if ((await admin.unsafe('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length === 0)
        await admin.unsafe(`CREATE DATABASE "${name}"`);
    } finally {
      await admin.end({ timeout: 5 });
    }
    const u = new URL(cluster.url);
    u.pathname = '/' + name;
    url = u.toString();
  }
  const sql = connect(url, { max: 1 });
  let served;
  try {
    served = await servedImport(sql);
  } finally {
    await sql.end({ timeout: 5 });
  }
  if (!served || reimport) {
    const args = ['import', dump, '--db', url];
    if (existsSync(join(src, 'messages'))) args.push('--messages', join(src, 'messages'));
    if (existsSync(join(src, 'files'))) args.push('--files', join(src, 'files'));
    const imp = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
    if (imp.status !== 0) throw new Error('import into PostgreSQL failed');
  }
  return url;
}

/** Statements each request runs on a server started with --debug (its debuginfo lists them). */
async function statementCounts(db: string, port: number, list: BenchRequest[]): Promise<Map<string, number>> {
  return withServer(startServer(db, port, 1, '0', ['--debug']), async () => {
    const counts = new Map<string, number>();
    for (const r of list) {
      const get = async () =>
        ((await (await fetch(`http://127.0.0.1:${port}/api.php?${r.query}`)).json()) as { debuginfo?: { queries?: unknown[] } }).debuginfo
          ?.queries?.length ?? NaN;
      await get(); // warm: what is read once per served import is not a cost of every request
      counts.set(r.name, await get());
    }
    return counts;
  });
}

/**
 * The SQLite file of .bench/demo or .bench/big-N: the dump generated unless already there (the generators
 * are deterministic), imported unless the file holds a current import. `needDump`: the dump is wanted even
 * when the file is current (a PostgreSQL import reads it); `importSqlite` false: only the dump is made.
 */
async function prepareWiki(pages: number, needDump: boolean, importSqlite: boolean): Promise<{ db: string; src: string }> {
  const dir = join(root, '.bench', pages ? `big-${pages}` : 'demo');
  const db = join(dir, 'wiki.sqlite');
  const src = join(dir, 'src');
  if (!isCurrentDatabase(db) || (needDump && !existsSync(join(src, 'dump.xml')))) {
    mkdirSync(dir, { recursive: true });
    if (existsSync(join(src, 'dump.xml'))) {
      /* reuse it */
    } else if (pages) {
      const { generateBig } = await import('../scripts/generate-big.js');
      await generateBig(src, pages);
    } else {
      const { generateDemo } = await import('../src/demo/build.js');
      generateDemo(src);
    }
  }
  if (!isCurrentDatabase(db) && importSqlite) {
    const args = ['import', join(src, 'dump.xml'), '--db', db];
    if (existsSync(join(src, 'messages'))) args.push('--messages', join(src, 'messages'));
    // the demo ships real files; a synthetic wiki ships files/files-manifest.jsonl (metadata, no bytes)
    if (existsSync(join(src, 'files'))) args.push('--files', join(src, 'files'));
    const imp = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
    if (imp.status !== 0) throw new Error('import failed');
  }
  return { db, src };
}

/**
 * `--db-file PATH`: a wiki imported elsewhere, served as it is (`serve` opens it read-only, so a file shared
 * with others is never written). Refused unless it holds an import of the current schema.
 */
function existingWiki(file: string): string {
  const path = resolve(file);
  if (!isCurrentDatabase(path)) throw new Error(`--db-file ${file}: not a wiki imported with this build's schema`);
  return path;
}

/** Size and kind of the wiki a server serves: the synthetic generator's wiki has its own request values. */
async function wikiShape(base: string): Promise<{ pages: number; synthetic: boolean }> {
  const j = (await (await fetch(`${base}?action=query&meta=siteinfo&siprop=general|statistics&format=json`)).json()) as {
    query: { general: { wikiid?: string }; statistics: { pages: number } };
  };
  return { pages: j.query.statistics.pages, synthetic: j.query.general.wikiid === 'bigwiki' };
}

/** The request list for the wiki `base` serves (`big`: the synthetic wiki's values; undefined: ask the server). */
async function requestList(
  base: string,
  big: boolean | undefined,
  keep: (r: BenchRequest) => boolean,
): Promise<{ list: BenchRequest[]; pages: number; big: boolean }> {
  const shape = await wikiShape(base);
  const b = big ?? shape.synthetic;
  return { list: requests(b, await askValues(base, b), await continueValues(base, b)).filter(keep), pages: shape.pages, big: b };
}

/** 1000000 → 1M, 10000 → 10k (column heads) */
const short = (n: number) => (n >= 1e6 && n % 1e6 === 0 ? `${n / 1e6}M` : n >= 1e3 && n % 1e3 === 0 ? `${n / 1e3}k` : String(n));

const wikiLabel = (pages: number, big: boolean, file?: string) =>
  `${pages.toLocaleString('en-US')}-page ${big ? 'synthetic' : 'demo'} wiki${file ? ` (${file})` : ''}`;

interface SeedTableOptions {
  db: string;
  /** the wiki is the synthetic one (undefined: ask the server) */
  big: boolean | undefined;
  file?: string;
  compare?: { db: string; big: boolean | undefined; file?: string; connections: number };
  port: number;
  workers: number[];
  cacheMb: string;
  duration: number;
  /** > 1: each c16 figure measured this many times, each time right after the bare server's, and the median share kept */
  rounds: number;
  tool?: string;
  only?: string;
  markdown: boolean;
}

interface Measured {
  unc16: Figures;
  unc64: Figures;
  cac16: Figures;
  cac64: Figures;
}

interface WorkerGroup {
  workers: number;
  /** the bare server of as many processes, measured before and after the group */
  bare16: Figures[];
  bare64: Figures[];
  rows: Map<string, Partial<Measured>>;
  /** with rounds > 1: per request and cache mode (`unc`, `cac`), each round's req/s over the bare server's just before */
  shares: Map<string, number[]>;
  /** requests whose answer is over LARGE_ANSWER bytes: the size, and a bare server writing as many bytes (c16) */
  large: Map<string, { bytes: number; bare: Figures }>;
}

/** Above this size an answer's socket copy outweighs a 100-byte request's whole cost: the table adds a size-matched ceiling. */
const LARGE_ANSWER = 8192;

const UNCACHED_SHARE = 0.5;
const CACHED_SHARE = 0.9;
const P99_LIMIT_MS = 5;
const P50_RATIO = 1.5;

/**
 * `--seed-table`: issue 13's Done-when in one run. For each worker count, the bare node:http server with as
 * many processes (c16 and c64, before and after), then wikiquery with the cache off and on, each seed request
 * at c16 (req/s, p50, p99) and c64 (p99); one table per worker count with each req/s as a share of the bare
 * server's (the mean of its two measurements) and a mark per criterion. `compare`: the p50 of each request
 * on a second wiki and on this one, measured in turn (one worker, cache off), and their ratio.
 */
async function seedTable(o: SeedTableOptions): Promise<void> {
  const { measure, name: toolName } = measurer(o.tool, o.duration);
  const keep = (r: BenchRequest) => SEED.includes(r.name) && (!o.only || r.name.includes(o.only));
  const base = `http://127.0.0.1:${o.port}/api.php`;
  const bareUrl = `http://127.0.0.1:${o.port - 1}/`;
  const started = new Date();
  const load0 = loadavg()[0];
  const perRequest = o.rounds > 1 ? 2 * o.rounds + 1 : 2;
  const runs = o.workers.length * (4 + 2 * perRequest * SEED.length) + (o.compare ? 2 * SEED.length : 0);
  console.error(
    `seed table: ~${runs} measurements of ${o.duration} s + 1 s warm-up: about ${Math.ceil((runs * (o.duration + 1.2)) / 60)} min`,
  );
  const progress = (what: string, f: Figures) =>
    console.error(`  ${what}: ${int(f.rps)} req/s, p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms${trouble(f)}`);

  let wiki: { list: BenchRequest[]; pages: number; big: boolean } | null = null;
  const groups: WorkerGroup[] = [];
  for (const workers of o.workers) {
    const g: WorkerGroup = { workers, bare16: [], bare64: [], rows: new Map(), shares: new Map(), large: new Map() };
    groups.push(g);
    const measureBare = () =>
      withServer(startBare(o.port - 1, workers), async () => {
        for (const [c, into] of [
          [16, g.bare16],
          [64, g.bare64],
        ] as const) {
          const f = await measure(bareUrl, c);
          into.push(f);
          progress(`bare node:http, ${workers} process(es), c${c}`, f);
        }
      });
    await measureBare();
    // paired rounds: a bare server of as many processes waits beside wikiquery, measured just before each round
    const beside = <T>(body: () => Promise<T>) => (o.rounds > 1 ? withServer(startBare(o.port - 1, workers), body) : body());
    for (const cached of [false, true]) {
      await beside(() =>
        withServer(startServer(o.db, o.port, workers, cached ? o.cacheMb : '0'), async () => {
          wiki ??= await requestList(base, o.big, keep);
          if (!cached) {
            for (const r of wiki.list) {
              const bytes = (await (await fetch(`${base}?${r.query}`)).arrayBuffer()).byteLength;
              if (bytes > LARGE_ANSWER) g.large.set(r.name, { bytes, bare: null as unknown as Figures });
            }
          }
          for (const r of wiki.list) {
            const row = g.rows.get(r.name) ?? {};
            g.rows.set(r.name, row);
            const mode = cached ? 'cac' : 'unc';
            if (o.rounds > 1) {
              // the machine's speed drifts from minute to minute: each round's share is against the bare server
              // measured just before it, and the round of the median share gives the c16 figures
              const rounds: Array<{ share: number; f: Figures }> = [];
              for (let i = 0; i < o.rounds; i++) {
                const b = await measure(bareUrl, 16);
                const f = await measure(`${base}?${r.query}`, 16);
                rounds.push({ share: f.rps / b.rps, f });
                progress(
                  `--workers ${workers}, cache ${cached ? 'on' : 'off'}, c16, ${r.name}, round ${i + 1}: ${(f.rps / b.rps).toFixed(2)}× the bare server's ${int(b.rps)} req/s`,
                  f,
                );
              }
              rounds.sort((a, b) => a.share - b.share);
              const median = rounds[(rounds.length - 1) >> 1]!;
              row[`${mode}16`] = median.f;
              g.shares.set(
                `${mode} ${r.name}`,
                rounds.map((x) => x.share),
              );
            }
            for (const c of o.rounds > 1 ? [64] : [16, 64]) {
              const f = await measure(`${base}?${r.query}`, c);
              row[`${mode}${c}` as keyof Measured] = f;
              progress(`--workers ${workers}, cache ${cached ? 'on' : 'off'}, c${c}, ${r.name}`, f);
            }
          }
        }),
      );
    }
    await measureBare();
    for (const [name, l] of g.large) {
      l.bare = await withServer(startBare(o.port - 1, workers, l.bytes), () => measure(bareUrl, 16));
      progress(`bare node:http, ${workers} process(es), ${l.bytes}-byte body (as ${name}), c16`, l.bare);
    }
  }

  let compared: { label: string; pages: number; p50: Map<string, [Figures, Figures]> } | null = null;
  if (o.compare) {
    const cmp = o.compare;
    const cmpBase = `http://127.0.0.1:${o.port + 1}/api.php`;
    compared = await withServer(startServer(o.db, o.port, 1, '0'), () =>
      withServer(startServer(cmp.db, o.port + 1, 1, '0'), async () => {
        wiki ??= await requestList(base, o.big, keep);
        const other = await requestList(cmpBase, cmp.big, keep);
        const p50 = new Map<string, [Figures, Figures]>();
        for (const r of wiki.list) {
          const twin = other.list.find((x) => x.name === r.name);
          if (!twin) continue;
          // in turn, request by request: the two figures of a ratio see the same load on the machine
          const small = await measure(`${cmpBase}?${twin.query}`, cmp.connections);
          progress(`compare, ${other.pages} pages, c${cmp.connections}, ${r.name}`, small);
          const large = await measure(`${base}?${r.query}`, cmp.connections);
          progress(`compare, ${wiki.pages} pages, c${cmp.connections}, ${r.name}`, large);
          p50.set(r.name, [small, large]);
        }
        return { label: wikiLabel(other.pages, other.big, cmp.file), pages: other.pages, p50 };
      }),
    );
  }
  if (!wiki) return;
  const w: { list: BenchRequest[]; pages: number; big: boolean } = wiki;

  const hhmm = (d: Date) => d.toISOString().slice(11, 16);
  console.log(
    `wikiquery bench --seed-table: ${wikiLabel(w.pages, w.big, o.file)}; ${toolName(16)} and ${toolName(64)}, ${o.duration} s per measurement after a 1 s warm-up; ` +
      `response cache ${o.cacheMb} MB when on; ${started.toISOString().slice(0, 10)} ${hhmm(started)}–${hhmm(new Date())} UTC, load average ${load0.toFixed(1)} → ${loadavg()[0].toFixed(1)}`,
  );
  const mean = (fs: Figures[]) => fs.reduce((a, f) => a + f.rps, 0) / fs.length;
  const clean = (f: Figures | undefined) => !!f && f.errors === 0 && f.timeouts === 0;
  const mark = (ok: boolean) => (ok ? 'PASS' : 'FAIL');
  const flag = (f: Figures | undefined) => (f && !clean(f) ? '!' : '');
  const verdicts: string[] = [];
  for (const g of groups) {
    const bareRps = mean(g.bare16);
    const bareP99 = Math.max(...g.bare64.map((f) => f.p99));
    console.log(
      `\n--workers ${g.workers}: bare node:http with ${g.workers} process${g.workers > 1 ? 'es' : ''}, before / after: ` +
        `c16 ${g.bare16.map((f) => `${int(f.rps)} req/s p50 ${ms(f.p50)} p99 ${ms(f.p99)}`).join(' / ')}; c64 p99 ${g.bare64.map((f) => ms(f.p99)).join(' / ')} ms. ` +
        `×bare: req/s over ${int(bareRps)} (the mean c16 req/s)`,
    );
    const head = [
      'request',
      'uncached req/s',
      '×bare',
      'p50',
      'p99',
      'c64 p99',
      'cached req/s',
      '×bare',
      'p50',
      'p99',
      'c64 p99',
      `unc ≥${UNCACHED_SHARE}`,
      `cached ≥${CACHED_SHARE}`,
      `c64 p99<${P99_LIMIT_MS} unc`,
      `c64 p99<${P99_LIMIT_MS} cached`,
    ];
    const bareCells = [int(bareRps), '1.00', ms(g.bare16[0].p50), ms(g.bare16[0].p99), ms(bareP99)];
    const rows: string[][] = [['bare node:http (100-byte JSON)', ...bareCells, ...bareCells, '', '', '', '']];
    const count = [0, 0, 0, 0];
    const notes: string[] = [];
    for (const r of w.list) {
      const m = g.rows.get(r.name)!;
      // with paired rounds, the median of the rounds' shares; else over the group's bare server
      const share = (mode: 'unc' | 'cac') => {
        const s = g.shares.get(`${mode} ${r.name}`);
        const f = m[`${mode}16`];
        return s ? s.slice().sort((a, b) => a - b)[(s.length - 1) >> 1]! : f ? f.rps / bareRps : NaN;
      };
      const ok = [
        clean(m.unc16) && share('unc') >= UNCACHED_SHARE,
        clean(m.cac16) && share('cac') >= CACHED_SHARE,
        clean(m.unc64) && m.unc64!.p99 < P99_LIMIT_MS,
        clean(m.cac64) && m.cac64!.p99 < P99_LIMIT_MS,
      ];
      ok.forEach((v, i) => (count[i] += v ? 1 : 0));
      for (const [k, f] of Object.entries(m)) if (!clean(f)) notes.push(`! ${r.name}, ${k}:${trouble(f)}`);
      const cells = (mode: 'unc' | 'cac', f16: Figures | undefined, f64: Figures | undefined) => [
        int(f16?.rps ?? NaN) + flag(f16),
        share(mode).toFixed(2),
        ms(f16?.p50 ?? NaN),
        ms(f16?.p99 ?? NaN),
        ms(f64?.p99 ?? NaN) + flag(f64),
      ];
      rows.push([r.name, ...cells('unc', m.unc16, m.unc64), ...cells('cac', m.cac16, m.cac64), ...ok.map(mark)]);
    }
    printTable(head, rows, o.markdown);
    for (const n of notes) console.log(n);
    for (const [k, s] of g.shares)
      console.log(
        `${k.startsWith('unc') ? 'uncached' : 'cached'} ${k.slice(4)}: shares of the paired rounds ${s.map((x) => x.toFixed(2)).join(', ')}`,
      );
    for (const [name, l] of g.large) {
      const m = g.rows.get(name)!;
      const of = (f: Figures | undefined) => (f ? (f.rps / l.bare.rps).toFixed(2) : '?');
      console.log(
        `${name}: a ${int(l.bytes)}-byte answer; a bare node:http writing as many bytes does ${int(l.bare.rps)} req/s ` +
          `(${(l.bare.rps / bareRps).toFixed(2)}× the 100-byte bare): uncached ${of(m.unc16)}×, cached ${of(m.cac16)}× of that (not a criterion)`,
      );
    }
    const n = w.list.length;
    const summary =
      `--workers ${g.workers}: uncached ≥ ${UNCACHED_SHARE}× bare ${count[0]}/${n}, cached ≥ ${CACHED_SHARE}× ${count[1]}/${n}, ` +
      `c64 p99 < ${P99_LIMIT_MS} ms uncached ${count[2]}/${n}, cached ${count[3]}/${n}: ${mark(count.every((c) => c === n))}`;
    console.log(summary);
    verdicts.push(summary);
  }
  if (compared) {
    console.log(
      `\nuncached p50 (ms) at ${o.compare!.connections} connection(s), one worker: the ${compared.label} and this one, measured in turn per request; ratio: this / that`,
    );
    const rows: string[][] = [];
    let passed = 0;
    for (const r of w.list) {
      const pair = compared.p50.get(r.name);
      if (!pair) continue;
      const [small, large] = pair;
      const ratio = large.p50 / small.p50;
      const ok = clean(small) && clean(large) && ratio <= P50_RATIO;
      passed += ok ? 1 : 0;
      rows.push([r.name, ms(small.p50) + flag(small), ms(large.p50) + flag(large), ratio.toFixed(2), mark(ok)]);
    }
    printTable(['request', `p50 ${short(compared.pages)}`, `p50 ${short(w.pages)}`, 'ratio', `≤${P50_RATIO}×`], rows, o.markdown);
    const summary = `p50 ratio ≤ ${P50_RATIO}×: ${passed}/${rows.length}: ${mark(passed === rows.length)}`;
    console.log(summary);
    verdicts.push(summary);
  }
  if (verdicts.length > 1) console.log(`\n${verdicts.join('\n')}`);
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string' },
      // default 5 s; 3 s with --seed-table
      duration: { type: 'string' },
      connections: { type: 'string', default: '16' },
      port: { type: 'string', default: '8199' },
      only: { type: 'string' },
      tool: { type: 'string' },
      // default 0 (the uncached path); with --seed-table the size of the cache when on (default 64)
      'cache-mb': { type: 'string' },
      // serving processes: 1 measures one core's path; --workers 2 the cluster (--seed-table: a list, default 1,2)
      workers: { type: 'string' },
      // an imported wiki to serve instead of .bench/'s (opened read-only by serve: may be shared)
      'db-file': { type: 'string' },
      // `postgres` (a throwaway cluster in .bench/postgres) or a postgres:// database: SQLite and PostgreSQL,
      // one and two serving processes each, side by side
      db: { type: 'string' },
      'pg-port': { type: 'string', default: '55432' },
      reimport: { type: 'boolean', default: false },
      // with --db: import (printing pages/s and peak RSS) and stop
      'import-only': { type: 'boolean', default: false },
      // with --db: every request of the list, not only the contract's nine
      all: { type: 'boolean', default: false },
      // issue 13's table: the nine requests against the bare server, workers × cache × c16/c64, PASS/FAIL
      'seed-table': { type: 'boolean', default: false },
      // with --seed-table: also the p50 on a wiki of N pages (or an imported file) and the ratio per request
      'compare-pages': { type: 'string' },
      'compare-db-file': { type: 'string' },
      'compare-connections': { type: 'string', default: '1' },
      // with --seed-table: each c16 figure this many times, each paired with the bare server's just before (median share)
      rounds: { type: 'string', default: '1' },
      // tables as Markdown
      markdown: { type: 'boolean', default: false },
    },
  });
  const pages = values.pages ? Number(values.pages) : 0;
  if (values['db-file'] && values.db)
    throw new Error('--db-file and --db: the PostgreSQL import reads the dump of .bench/ (leave out --db-file)');

  if (values['seed-table']) {
    const workers = (values.workers ?? '1,2').split(',').map(Number);
    if (!/^[1-9]\d*$/.test(values.rounds!)) throw new Error(`--rounds ${values.rounds}: a whole number of rounds, 1 or more`);
    if (workers.some((n) => !Number.isInteger(n) || n < 1))
      throw new Error(`--workers ${values.workers}: a list of process counts (e.g. 1,2)`);
    const db = values['db-file'] ? existingWiki(values['db-file']) : (await prepareWiki(pages, false, true)).db;
    let compare: SeedTableOptions['compare'];
    if (values['compare-db-file'])
      compare = {
        db: existingWiki(values['compare-db-file']),
        big: undefined,
        file: values['compare-db-file'],
        connections: Number(values['compare-connections']),
      };
    else if (values['compare-pages']) {
      const n = Number(values['compare-pages']);
      compare = { db: (await prepareWiki(n, false, true)).db, big: n > 0, connections: Number(values['compare-connections']) };
    }
    await seedTable({
      db,
      big: values['db-file'] ? undefined : pages > 0,
      file: values['db-file'],
      compare,
      port: Number(values.port),
      workers,
      cacheMb: values['cache-mb'] ?? '64',
      duration: Number(values.duration ?? '3'),
      rounds: Number(values.rounds),
      tool: values.tool,
      only: values.only,
      markdown: values.markdown!,
    });
    return;
  }

  let db: string;
  let src = '';
  if (values['db-file']) db = existingWiki(values['db-file']);
  else ({ db, src } = await prepareWiki(pages, values.db !== undefined, !(values.db && values['import-only'])));
  let pgUrl: string | null = null;
  if (values.db !== undefined) {
    if (values.db !== 'postgres' && !/^postgres(ql)?:\/\//.test(values.db))
      throw new Error('--db: postgres (a throwaway cluster in .bench/postgres) or a postgres:// URL');
    pgUrl = await preparePostgres(
      values.db,
      pages ? `big_${pages}` : 'demo',
      join(src, 'dump.xml'),
      src,
      values.reimport! || values['import-only']!,
      Number(values['pg-port']),
    );
    if (values['import-only']) return;
  }

  const port = Number(values.port);
  const duration = Number(values.duration ?? '5');
  const connections = Number(values.connections);
  const cacheMb = values['cache-mb'] ?? '0';
  const workers = values.workers ?? '1';
  const { measure: measureAt, name: toolName } = measurer(values.tool, duration);
  const measure = (url: string) => measureAt(url, connections);
  const configs: Config[] = pgUrl
    ? [
        { label: 'SQLite, 1 process', db, workers: 1 },
        { label: 'SQLite, 2 processes', db, workers: 2 },
        { label: 'PostgreSQL, 1 node', db: pgUrl, workers: 1 },
        { label: 'PostgreSQL, 2 nodes', db: pgUrl, workers: 2 },
      ]
    : [{ label: `${workers} worker(s)`, db, workers: Number(workers) }];
  const wikiName = values['db-file'] ? `wiki ${values['db-file']}` : pages ? `${pages}-page synthetic wiki` : 'demo wiki';
  console.log(
    `wikiquery bench: ${wikiName}, ${toolName(connections)}, ${duration}s per request, response cache ${cacheMb === '0' ? 'off' : cacheMb + ' MB'}, ${pgUrl ? configs.map((c) => c.label).join(' / ') : `${workers} worker(s)`}`,
  );
  console.log(`${'request'.padEnd(40)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}`);
  // the ceiling: a bare node:http server, measured the same way
  const barePort = port - 1;
  await withServer(startBare(barePort, 1), async () =>
    console.log(line('bare node:http (100-byte JSON)', await measure(`http://127.0.0.1:${barePort}/`))),
  );

  const base = `http://127.0.0.1:${port}/api.php`;
  let list: BenchRequest[] | null = null;
  const results = new Map<string, Map<string, Figures>>();
  for (const c of configs) {
    await withServer(startServer(c.db, port, c.workers, cacheMb), async () => {
      list ??= (
        await requestList(
          base,
          values['db-file'] ? undefined : pages > 0,
          (r) => (!values.only || r.name.includes(values.only)) && (!pgUrl || values.all || SEED.includes(r.name)),
        )
      ).list;
      if (pgUrl) console.log(`# ${c.label}`);
      for (const r of list) {
        const f = await measure(`${base}?${r.query}`);
        console.log(line(r.name, f));
        if (!results.has(r.name)) results.set(r.name, new Map());
        results.get(r.name)!.set(c.label, f);
      }
    });
  }
  if (!pgUrl || !list) return;
  const statements = await statementCounts(pgUrl, port, list);
  console.log(`\nreq/s, p50 and p99 (ms) per configuration; stmts: PostgreSQL statements (round trips) per request, warm`);
  console.log(`${'request'.padEnd(40)} ${configs.map((c) => c.label.padEnd(21)).join(' ')} stmts`);
  for (const r of list as BenchRequest[]) {
    const row = results.get(r.name)!;
    console.log(
      `${r.name.padEnd(40)} ${configs.map((c) => fmt(row.get(c.label)!).padEnd(21)).join(' ')} ${String(statements.get(r.name) ?? '?').padStart(5)}`,
    );
  }
}

/** The contract's nine requests (docs/spec/wiki-query-api.md), by their names in requests(). */
const SEED = [
  'sfautocomplete (property)',
  'duplicatefiles (titles)',
  'allcategories (acprop=size)',
  'generator=allimages + duplicatefiles',
  'generator=allfileusages',
  'allmessages (amprefix)',
  'querypage (Ancientpages)',
  'browsebysubject',
  'tokens',
];

main()
  .catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  })
  .finally(async () => {
    if (startedCluster) (await import('../scripts/pg-cluster.js')).stopCluster(startedCluster);
  });
