/**
 * `npm run bench [-- --pages N] [--duration S] [--connections C] [--only NAME] [--cache-mb MB] [--db postgres|URL]`
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
 * Not part of `npm test`: figures depend on the machine.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
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
          { name: 'ask (Країна, Населення, sorted)', query: q({ action: 'ask', query: '[[Країна::Україна]][[Населення::>100000]]|?Населення|sort=Населення' }) },
        ]
      : []),
    // SMW's query engine: a selective property query sorted by a number, and a category query of 10 results
    { name: 'ask (property, sorted)', query: q({ action: 'ask', query: `[[Розташоване в::${ask.location}]][[Населення::>100000]]|?Населення|sort=Населення` }) },
    { name: 'ask (category, 10 results)', query: q({ action: 'ask', query: `[[Категорія:${ask.category}]]|limit=10` }) },
    { name: 'sfautocomplete (property)', query: q({ action: 'sfautocomplete', property: big ? 'Розташоване_в' : 'Регіон', substr: big ? 'малю' : 'київ' }) },
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
    { name: 'search (phrase on every page)', query: q({ action: 'query', list: 'search', srsearch: big ? '"поселення громади"' : '"у місті"' }) },
    { name: 'opensearch (prefix)', query: q({ action: 'opensearch', search: big ? 'Бо' : 'Ки' }) },
    { name: 'siteinfo', query: q({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases' }) },
    // page relations: every synthetic article transcludes Шаблон:Поселення (N backlinks): the first batch and
    // one continued from the middle are each a seek into templatelinks, never a count or a sort of the set
    ...(big
      ? [
          { name: 'embeddedin (first 500 of N)', query: q({ action: 'query', list: 'embeddedin', eititle: 'Шаблон:Поселення', eilimit: '500' }) },
          { name: 'embeddedin (continued)', query: q({ action: 'query', list: 'embeddedin', eititle: 'Шаблон:Поселення', eilimit: '500', eicontinue: '0|5000' }) },
        ]
      : [{ name: 'backlinks (blredirect)', query: q({ action: 'query', list: 'backlinks', bltitle: 'Київ', blredirect: '', bllimit: 'max' }) }]),
    { name: 'alllinks (continued)', query: q({ action: 'query', list: 'alllinks', alcontinue: 'П|1', allimit: '500' }) },
  ];
}

const backlinksQuery = (o: Record<string, string>) => ({ action: 'query', list: 'backlinks', bltitle: 'Україна', bllimit: '500', continue: '', ...o });
const linksQuery = (o: Record<string, string>) => ({ action: 'query', prop: 'links', titles: 'Список поселень', pllimit: '500', continue: '', ...o });

interface ContinueValues {
  backlinks: Record<string, string>;
  links: Record<string, string>;
}

/** The continue values of the first batches (read from the server: they hold page ids). */
async function continueValues(base: string, big: boolean): Promise<ContinueValues> {
  if (!big) return { backlinks: {}, links: {} };
  const get = async (o: Record<string, string>) =>
    ((await (await fetch(`${base}?${new URLSearchParams({ format: 'json', ...o })}`)).json()) as { continue?: Record<string, string> }).continue ?? {};
  const bl = await get(backlinksQuery({}));
  const pl = await get(linksQuery({}));
  if (!bl.blcontinue || !pl.plcontinue) throw new Error('the synthetic wiki has no hub or link-list page to continue through (regenerate .bench/)');
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
  const category = first.printouts['Категорія'].map((c) => c.fulltext.replace(/^[^:]*:/, '')).find((c) => c.startsWith('Громада')) ?? 'Поселення';
  return { location, category };
}

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
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
  const r = spawnSync('wrk', [`-t${Math.min(2, connections)}`, `-c${connections}`, `-d${duration}s`, '--latency', url], { encoding: 'utf8' });
  const out = r.stdout;
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN);
  const p50 = parseWrkMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const p99 = parseWrkMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1] ?? '');
  const errors = Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0);
  return { rps, p50, p99, errors };
}

async function runAutocannon(url: string, duration: number, connections: number): Promise<Figures> {
  await autocannon({ url, connections: 2, duration: 1 });
  const r = await autocannon({ url, connections, duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors };
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

/** Start `wikiquery serve` on `port`; the caller kills it. */
async function startServer(db: string, port: number, workers: number, cacheMb: string, extra: string[] = []): Promise<ChildProcess> {
  const child = spawn(process.execPath, [cli, 'serve', '--db', db, '--port', String(port), '--cache-mb', cacheMb, '--workers', String(workers), ...extra], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, WIKIQUERY_LOG_LEVEL: 'warn' },
  });
  try {
    await waitForServer(`http://127.0.0.1:${port}/api.php?action=query&meta=siteinfo&format=json`, child);
  } catch (e) {
    child.kill('SIGTERM');
    throw e;
  }
  return child;
}

function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

const fmt = (f: Figures) => `${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(2).padStart(6)} ${f.p99.toFixed(2).padStart(6)}${f.errors ? ` (${f.errors} non-2xx)` : ''}`;

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
      if ((await admin.unsafe('SELECT 1 FROM pg_database WHERE datname = $1', [name])).length === 0) await admin.unsafe(`CREATE DATABASE "${name}"`);
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
  const child = await startServer(db, port, 1, '0', ['--debug']);
  const counts = new Map<string, number>();
  try {
    for (const r of list) {
      const get = async () => ((await (await fetch(`http://127.0.0.1:${port}/api.php?${r.query}`)).json()) as { debuginfo?: { queries?: unknown[] } }).debuginfo?.queries?.length ?? NaN;
      await get(); // warm: what is read once per served import is not a cost of every request
      counts.set(r.name, await get());
    }
  } finally {
    await stopServer(child);
  }
  return counts;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      pages: { type: 'string' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '16' },
      port: { type: 'string', default: '8199' },
      only: { type: 'string' },
      tool: { type: 'string' },
      'cache-mb': { type: 'string', default: '0' },
      // serving processes: 1 measures one core's path; --workers 2 the cluster
      workers: { type: 'string', default: '1' },
      // `postgres` (a throwaway cluster in .bench/postgres) or a postgres:// database: SQLite and PostgreSQL,
      // one and two serving processes each, side by side
      db: { type: 'string' },
      'pg-port': { type: 'string', default: '55432' },
      reimport: { type: 'boolean', default: false },
      // with --db: import (printing pages/s and peak RSS) and stop
      'import-only': { type: 'boolean', default: false },
      // with --db: every request of the list, not only the contract's nine
      all: { type: 'boolean', default: false },
    },
  });
  const pages = values.pages ? Number(values.pages) : 0;
  const dir = join(root, '.bench', pages ? `big-${pages}` : 'demo');
  const db = join(dir, 'wiki.sqlite');
  const src = join(dir, 'src');
  if (!isCurrentDatabase(db) || (values.db && !existsSync(join(src, 'dump.xml')))) {
    mkdirSync(dir, { recursive: true });
    // the generators are deterministic: a dump already generated is imported again as it is
    if (existsSync(join(src, 'dump.xml'))) {
      /* reuse it */
    } else if (pages) {
      const { generateBig } = await import('../scripts/generate-big.js');
      await generateBig(src, pages);
    } else {
      const { generateDemo } = await import('../scripts/generate-demo.js');
      generateDemo(src);
    }
  }
  if (!isCurrentDatabase(db) && !(values.db && values['import-only'])) {
    const args = ['import', join(src, 'dump.xml'), '--db', db];
    if (existsSync(join(src, 'messages'))) args.push('--messages', join(src, 'messages'));
    // the demo ships real files; a synthetic wiki ships files/files-manifest.jsonl (metadata, no bytes)
    if (existsSync(join(src, 'files'))) args.push('--files', join(src, 'files'));
    const imp = spawnSync(process.execPath, [cli, ...args], { stdio: 'inherit' });
    if (imp.status !== 0) throw new Error('import failed');
  }
  let pgUrl: string | null = null;
  if (values.db !== undefined) {
    if (values.db !== 'postgres' && !/^postgres(ql)?:\/\//.test(values.db)) throw new Error('--db: postgres (a throwaway cluster in .bench/postgres) or a postgres:// URL');
    pgUrl = await preparePostgres(values.db, pages ? `big_${pages}` : 'demo', join(src, 'dump.xml'), src, values.reimport! || values['import-only']!, Number(values['pg-port']));
    if (values['import-only']) return;
  }

  const port = Number(values.port);
  const useWrk = values.tool ? values.tool === 'wrk' : hasWrk();
  const duration = Number(values.duration);
  const connections = Number(values.connections);
  const measure = async (url: string) => (useWrk ? runWrk(url, duration, connections) : await runAutocannon(url, duration, connections));
  const configs: Config[] = pgUrl
    ? [
        { label: 'SQLite, 1 process', db, workers: 1 },
        { label: 'SQLite, 2 processes', db, workers: 2 },
        { label: 'PostgreSQL, 1 node', db: pgUrl, workers: 1 },
        { label: 'PostgreSQL, 2 nodes', db: pgUrl, workers: 2 },
      ]
    : [{ label: `${values.workers} worker(s)`, db, workers: Number(values.workers) }];
  console.log(
    `wikiquery bench: ${pages ? `${pages}-page synthetic wiki` : 'demo wiki'}, ${useWrk ? `wrk -t${Math.min(2, connections)}` : 'autocannon'} -c${connections}, ${duration}s per request, response cache ${values['cache-mb'] === '0' ? 'off' : values['cache-mb'] + ' MB'}, ${pgUrl ? configs.map((c) => c.label).join(' / ') : `${values.workers} worker(s)`}`,
  );
  console.log(`${'request'.padEnd(40)} ${'req/s'.padStart(9)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'non-2xx'.padStart(8)}`);
  // the ceiling: a bare node:http server, measured the same way
  const barePort = port - 1;
  const bare = spawn(process.execPath, [join(root, 'dist', 'bench', 'bare-server.js'), String(barePort)], { stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitForServer(`http://127.0.0.1:${barePort}/`, bare);
    const f = await measure(`http://127.0.0.1:${barePort}/`);
    console.log(`${'bare node:http (100-byte JSON)'.padEnd(40)} ${f.rps.toFixed(0).padStart(9)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(8)} ${String(f.errors).padStart(8)}`);
  } finally {
    bare.kill('SIGTERM');
  }

  const base = `http://127.0.0.1:${port}/api.php`;
  let list: BenchRequest[] | null = null;
  const results = new Map<string, Map<string, Figures>>();
  for (const c of configs) {
    const child = await startServer(c.db, port, c.workers, values['cache-mb']!);
    try {
      if (!list) {
        const all = requests(pages > 0, await askValues(base, pages > 0), await continueValues(base, pages > 0));
        list = all.filter((r) => (!values.only || r.name.includes(values.only)) && (!pgUrl || values.all || SEED.includes(r.name)));
      }
      if (pgUrl) console.log(`# ${c.label}`);
      for (const r of list) {
        const f = await measure(`${base}?${r.query}`);
        console.log(`${r.name.padEnd(40)} ${f.rps.toFixed(0).padStart(9)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(8)} ${String(f.errors).padStart(8)}`);
        if (!results.has(r.name)) results.set(r.name, new Map());
        results.get(r.name)!.set(c.label, f);
      }
    } finally {
      await stopServer(child);
    }
  }
  if (!pgUrl || !list) return;
  const statements = await statementCounts(pgUrl, port, list);
  console.log(`\nreq/s, p50 and p99 (ms) per configuration; stmts: PostgreSQL statements (round trips) per request, warm`);
  console.log(`${'request'.padEnd(40)} ${configs.map((c) => c.label.padEnd(21)).join(' ')} stmts`);
  for (const r of list) {
    const row = results.get(r.name)!;
    console.log(`${r.name.padEnd(40)} ${configs.map((c) => fmt(row.get(c.label)!).padEnd(21)).join(' ')} ${String(statements.get(r.name) ?? '?').padStart(5)}`);
  }
}

/** The contract's nine requests (../shared/spec/wiki-query-api.md), by their names in requests(). */
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
