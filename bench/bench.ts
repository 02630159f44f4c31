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
 * `--follow API_URL --user NAME` (password in WIKIQUERY_BENCH_PASSWORD; bench/follow.ts): issue 30's lag, a MediaWiki
 * edited at `--rates` (default 1,5,20 edits/s, `--duration` 20 s each) while `follow --interval S` (each of
 * `--interval`, default 1,5) and `serve` run on .bench/follow/wiki.sqlite: p50/p95/max from each edit's answer to
 * wikiquery's first answer with it, and the processes' CPU seconds; `--cpu-prof` profiles the followers.
 * `--catch-up [--pages 100000] [--changed 10000]` (bench/catch-up.ts): the importer's and `import --update`'s
 * pages/s in one run, then a template that the changed pages transclude edited while the seed requests are
 * sampled (`--duration` 10 s idle, `--sampler-connections` 2): the refresh's pages/s and each p99 against idle.
 *
 * `--db-file PATH` (any mode but --db): serve that imported wiki instead of generating and importing one in
 * .bench/ (a 1,000,000-page import takes minutes). `serve` opens it read-only, so a shared file is safe.
 * Ports: the server on `--port` (default 8199), the bare server on the port below, a --compare wiki above.
 * `--upstream API_URL --user NAME@APPID` (the bot password in WIKIQUERY_PASSWORD; `--interval S`, default 1;
 * `--requests N`, default 500; `--edits N`, default 20): `serve --upstream` against a running MediaWiki that
 * the run edits, on a database `follow` fills from it: the pass-through's added latency (a forwarded request
 * through wikiquery against the same request sent to the upstream directly, p50/p99), a local read through
 * `serve --upstream` against plain `serve`, and the read-your-writes wait after an edit (p50/p95), as
 * bench/upstream-bench.ts says.
 *   WIKIQUERY_PASSWORD=… npm run bench -- --upstream http://127.0.0.1:8095/api.php --user Admin@bench --interval 1
 *
 * Not part of `npm test`: figures depend on the machine.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { isCurrentDatabase } from '../src/store/sqlite/db.js';
import { type BenchRequest, SEED, requestList } from './requests.js';
import { type Config, type Figures, cli, fmt, line, measurer, root, startBare, startServer, withServer } from './load.js';
import { type SeedTableOptions, seedTable } from './seed-table.js';
import { upstreamBench } from './upstream-bench.js';

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
      // serve --upstream against this MediaWiki (bench/upstream-bench.ts)
      upstream: { type: 'string' },
      // --upstream and --follow: the bot password's login name (the password in WIKIQUERY_PASSWORD)
      user: { type: 'string' },
      // --upstream: seconds (default 1); --follow: a list, each a follower (default 1,5)
      interval: { type: 'string' },
      requests: { type: 'string', default: '500' },
      edits: { type: 'string', default: '20' },
      // issue 30's lag: the upstream's api.php, edited at --rates while `follow --interval` and `serve` run
      follow: { type: 'string' },
      rates: { type: 'string', default: '1,5,20' },
      'edit-pages': { type: 'string', default: '100' },
      'cpu-prof': { type: 'boolean', default: false },
      // issue 30's catch-up and template refresh (default --pages 100000)
      'catch-up': { type: 'boolean', default: false },
      changed: { type: 'string', default: '10000' },
      'sampler-connections': { type: 'string', default: '2' },
    },
  });
  if (values.upstream !== undefined) {
    const password = process.env.WIKIQUERY_PASSWORD;
    if (values.user === undefined || password === undefined)
      throw new Error('--upstream: --user NAME@APPID and the bot password in WIKIQUERY_PASSWORD (the run edits the wiki)');
    await upstreamBench({
      api: values.upstream,
      user: values.user,
      password,
      interval: Number(values.interval ?? '1'),
      requests: Number(values.requests),
      edits: Number(values.edits),
      port: Number(values.port),
    });
    return;
  }
  const pages = values.pages ? Number(values.pages) : 0;
  if (values['catch-up']) {
    const { catchUp } = await import('./catch-up.js');
    await catchUp({
      pages: pages || 100_000,
      changed: Number(values.changed),
      port: Number(values.port),
      duration: Number(values.duration ?? '10'),
      connections: Number(values['sampler-connections']),
      markdown: values.markdown!,
    });
    return;
  }
  if (values.follow !== undefined) {
    const password = process.env.WIKIQUERY_PASSWORD;
    if (!values.user || !password)
      throw new Error('--follow: --user NAME@APPID and the bot password in WIKIQUERY_PASSWORD (the run edits the wiki)');
    const list = (v: string, name: string) => {
      const out = v.split(',').map(Number);
      if (out.some((x) => !(x > 0))) throw new Error(`--${name} ${v}: a list of positive numbers`);
      return out;
    };
    const { followLag } = await import('./follow.js');
    await followLag({
      api: values.follow,
      user: values.user,
      password,
      rates: list(values.rates!, 'rates'),
      intervals: list(values.interval ?? '1,5', 'interval'),
      duration: Number(values.duration ?? '20'),
      port: Number(values.port),
      pages: Number(values['edit-pages']),
      nodeArgs: values['cpu-prof'] ? ['--cpu-prof', '--cpu-prof-dir', join(root, '.bench', 'follow', 'prof')] : [],
      markdown: values.markdown!,
    });
    return;
  }
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

main()
  .catch((e: unknown) => {
    console.error(e instanceof Error ? e.message : e);
    process.exitCode = 1;
  })
  .finally(async () => {
    if (startedCluster) (await import('../scripts/pg-cluster.js')).stopCluster(startedCluster);
  });
