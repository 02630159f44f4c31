/**
 * `npm test`: the whole suite on the embedded store (SQLite), then -- when PostgreSQL's server programs
 * are installed (Debian's postgresql package; CI installs it) -- again, against a throwaway PostgreSQL
 * cluster started in .pg-test/ of the checkout (WIKIQUERY_TEST_DB=postgres), every test file whose answers
 * depend on the store (dependsOnStore).
 * Arguments are passed to `node --test` (a file to run, --test-name-pattern …); WIKIQUERY_TEST_DB=sqlite
 * or =postgres runs one pass only.
 *
 * The demo wiki is built once (generated and imported into SQLite; while the SQLite pass's files run, also
 * into the cluster) and handed to every test process, read-only, through WIKIQUERY_TEST_DEMO_DIR and
 * WIKIQUERY_TEST_DEMO_SERVED. Test files run WIKIQUERY_TEST_CONCURRENCY at a time (2 by default, the
 * cores of the machine the suite is held to), the longest first; the SQLite pass's follow test runs
 * beside the PostgreSQL pass's files (BESIDE_NEXT_PASS), those in RUN_ALONE after everything else one by
 * one. Everything the run writes to the temporary directory -- the demo, and what the tests make there
 * (TMPDIR points inside it) -- is removed when it ends.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDemoDatabase, importDemo, type DemoDatabase } from '../test/helpers/demo-server.js';
import { freshPostgresDatabase } from '../test/helpers/test-db.js';
import { DEFAULT_DIR, postgresBinDir, startCluster, stopCluster } from './pg-cluster.js';

const args = process.argv.slice(2);
const namesFiles = args.some((arg) => !arg.startsWith('-'));
const only = process.env.WIKIQUERY_TEST_DB;
const concurrency = process.env.WIKIQUERY_TEST_CONCURRENCY ?? '2';
/** the environment as the runner was started: what one pass sets is not seen by the other's processes */
const startEnv: NodeJS.ProcessEnv = { ...process.env };

/**
 * Test files that load the server to its limits (request queues, slow clients, idle timers) and judge
 * it by how it holds up: run after the others, one at a time, so another file's load does not trip
 * their time limits.
 */
const RUN_ALONE = ['http/abuse.test.js', 'http/hit-path.test.js'];

/**
 * Test files that change the reference MediaWiki (WIKIQUERY_TEST_UPSTREAM_API): never two at once. The
 * follow test mostly waits for that wiki's answers, so in a run of both passes the SQLite pass's runs
 * beside the PostgreSQL pass's files (which change no wiki: the PostgreSQL pass runs its own of these
 * alone, after that); its time limits are minutes. read-your-writes runs among the SQLite pass's files.
 */
const BESIDE_NEXT_PASS = ['follow/follow.test.js'];
const CHANGE_THE_UPSTREAM = ['follow/follow.test.js', 'clients/read-your-writes.test.js'];

/**
 * The longest test files (tens of seconds each), started first: a pass whose last file is one of
 * them leaves a core idle until it ends. Named as in dist/test/; the others follow in name order.
 */
const LONGEST_FIRST = [
  'cli/help-errors.test.js',
  'importer/import-signals.test.js',
  'api/continuation.test.js',
  'cli/serve-signals.test.js',
  'store/postgres-nodes.test.js',
  'cli/import-dumps.test.js',
  'clients/read-your-writes.test.js',
  'importer/update.test.js',
  'store/postgres-search.test.js',
  'store/postgres-basic-areas.test.js',
  'api/prototype-keys.test.js',
  'api/robustness.test.js',
  'cli/first-hour.test.js',
  'wikitext/linear-scan.test.js',
  'store/sqlite-search-topk.test.js',
  'store/postgres-relations.test.js',
  'importer/importer.test.js',
  'store/postgres-rights.test.js',
  'store/postgres-semantic.test.js',
  'cli/deploy.test.js',
];

/**
 * What makes a test file's answers depend on the pass: it reads which store the pass uses, or serves or
 * opens the demo wiki, which the PostgreSQL pass imports into the cluster. A file with none of these does
 * the same in both passes, so the PostgreSQL pass leaves it out.
 */
const STORE_DEPENDENT = /WIKIQUERY_TEST_DB|WIKIQUERY_TEST_PG|TEST_DB\b|helpers\/(?:demo-server|test-db|request-set)\.js/;

/**
 * Files that serve the demo wiki but test what lies before the store: the command line's help and
 * errors, and the bytes a cache hit or the direct path writes. Their answers are the same in both passes.
 */
const BEFORE_THE_STORE = ['cli/help-errors.test.js', 'http/hit-path.test.js'];

const named = (names: string[]) => (file: string) => names.some((name) => file.endsWith(path.sep + name));

function dependsOnStore(file: string): boolean {
  if (named(BEFORE_THE_STORE)(file)) return false;
  return STORE_DEPENDENT.test(fs.readFileSync(file, 'utf8'));
}

/** The test files under dist/test/ (helpers and fixtures are not run as tests), the longest first. */
function testFiles(dir: string): string[] {
  const rank = (file: string) => {
    const i = LONGEST_FIRST.findIndex((name) => file === path.join(dir, name));
    return i < 0 ? LONGEST_FIRST.length : i;
  };
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .map((file) => path.join(dir, file))
    .sort((a, b) => rank(a) - rank(b));
}

// an interrupted run still removes what it made: the children get the signal and end, then the
// finally blocks below run
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (interrupted = true));

type Db = 'sqlite' | 'postgres';

/** a signal stopped the run: what it made is removed, the exit status is 130 */
class Interrupted extends Error {}

/** One pass's demo, temporary folder and the environment of its test processes. */
interface Pass {
  db: Db;
  env: NodeJS.ProcessEnv;
  /** which files the pass leaves to the other, said when it starts */
  note: string;
  /** its files by when they run */
  together: string[];
  beside: string[];
  alone: string[];
}

function makePass(db: Db, demo: DemoDatabase, root: string, env: NodeJS.ProcessEnv, besideNext: boolean): Pass {
  const tmp = path.join(root, 'tmp');
  fs.mkdirSync(tmp, { recursive: true });
  const pass: Pass = {
    db,
    note: '',
    env: {
      ...env,
      WIKIQUERY_TEST_DB: db,
      WIKIQUERY_TEST_DEMO_DIR: demo.dir,
      WIKIQUERY_TEST_DEMO_SERVED: demo.served,
      TMPDIR: tmp,
    },
    together: [],
    beside: [],
    alone: [],
  };
  if (namesFiles) return pass;
  const all = testFiles('dist/test');
  const files = db === 'postgres' ? all.filter(dependsOnStore) : all;
  if (files.length < all.length) {
    pass.note = `# ${db} pass: ${all.length - files.length} of ${all.length} test files do not depend on the store and ran in the SQLite pass only\n`;
  }
  for (const file of files) {
    if (named(RUN_ALONE)(file)) pass.alone.push(file);
    else if (named(BESIDE_NEXT_PASS)(file)) (besideNext ? pass.beside : pass.alone).push(file);
    // the PostgreSQL pass's changers of the upstream run after the SQLite pass's follow test has ended
    else if (db === 'postgres' && named(CHANGE_THE_UPSTREAM)(file)) pass.alone.push(file);
    else pass.together.push(file);
  }
  return pass;
}

/**
 * `node --test` over these files (or, for the files a pass runs together, the files named on the command
 * line), `parallel` at a time; resolves to its exit status. With `capture` its report is kept and given
 * back instead of written as it comes (a run beside another run).
 */
function runFiles(pass: Pass, files: string[], parallel: string, capture = false): { done: Promise<number>; output: () => string } {
  if (files.length === 0 && !(namesFiles && files === pass.together)) return { done: Promise.resolve(0), output: () => '' };
  const child = spawn(process.execPath, ['--test', `--test-concurrency=${parallel}`, ...args, ...files], {
    stdio: capture ? ['inherit', 'pipe', 'pipe'] : 'inherit',
    env: pass.env,
  });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (d: Buffer) => chunks.push(d));
  child.stderr?.on('data', (d: Buffer) => chunks.push(d));
  const done = new Promise<number>((resolve) => {
    child.once('error', () => resolve(1));
    child.once('close', (code) => resolve(code ?? 1));
  });
  return { done, output: () => Buffer.concat(chunks).toString('utf8') };
}

function runAlone(pass: Pass, files: string[]): Promise<number> {
  return runFiles(pass, files, '1').done;
}

/** `work`, and a line saying how long it took */
async function timed<T>(db: Db, what: string, work: () => Promise<T>): Promise<T> {
  const started = Date.now();
  const result = await work();
  process.stdout.write(`# ${db} pass: ${what} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return result;
}

const roots: string[] = [];
let cluster: string | null = null;
let status = 0;
try {
  const sqliteRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-npm-test-sqlite-'));
  roots.push(sqliteRoot);
  const postgres = only !== 'sqlite' && postgresBinDir() !== null;
  if (only !== 'sqlite' && !postgres) {
    process.stdout.write("# PostgreSQL pass skipped: no initdb/pg_ctl (install Debian's postgresql package, as .ci/run does)\n");
    if (only === 'postgres') status = 1;
  }
  const sqliteRuns = only !== 'postgres';
  // the demo is generated and imported into SQLite once: the PostgreSQL pass imports the same dump into
  // the cluster, and tests of SQLite's own plans read the same file in both passes
  const demo = await timed(sqliteRuns ? 'sqlite' : 'postgres', 'the demo wiki built', () =>
    buildDemoDatabase(path.join(sqliteRoot, 'fixture'), false),
  );
  const sqlite = sqliteRuns ? makePass('sqlite', demo, sqliteRoot, startEnv, postgres && status === 0) : null;
  const first = sqlite ? runFiles(sqlite, sqlite.together, concurrency) : null;

  // the PostgreSQL pass's cluster and demo are made while the SQLite pass's files run (what it says is
  // said after them, not inside their report)
  const said: string[] = [];
  const pgSetup = (async (): Promise<Pass | null> => {
    if (!postgres || status !== 0) return null;
    const dir = path.resolve(process.env.WIKIQUERY_TEST_PG_DIR ?? DEFAULT_DIR);
    stopCluster(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    cluster = dir;
    const started = startCluster(dir, {
      port: process.env.WIKIQUERY_TEST_PG_PORT ? Number(process.env.WIKIQUERY_TEST_PG_PORT) : undefined,
    });
    // freshPostgresDatabase makes its database on the cluster named here, as the tests do
    process.env.WIKIQUERY_TEST_PG = started.url;
    const pgRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-npm-test-postgres-'));
    roots.push(pgRoot);
    const began = Date.now();
    const served = await importDemo(demo, await freshPostgresDatabase('demo'));
    said.push(
      `# postgres pass: a throwaway cluster in ${dir}; the demo wiki imported into it in ${((Date.now() - began) / 1000).toFixed(1)} s\n`,
    );
    return makePass('postgres', { ...demo, served }, pgRoot, { ...startEnv, WIKIQUERY_TEST_PG: started.url }, false);
  })();
  // a cluster that cannot be made fails the run, once the files under way have ended
  const [firstStatus, setup] = await Promise.all([
    first?.done ?? Promise.resolve(0),
    pgSetup.then(
      (p) => ({ p }),
      (e: unknown) => ({ e }),
    ),
  ]);
  for (const line of said) process.stdout.write(line);
  if ('e' in setup) throw setup.e;
  let pg = setup.p;
  status = Math.max(status, firstStatus);
  if (interrupted) throw new Interrupted();
  if (status !== 0) pg = null;
  if (pg) {
    process.stdout.write(
      `\n# postgres pass${sqlite?.beside.length ? `, beside it the SQLite pass's ${sqlite.beside.join(', ')}` : ''}\n${pg.note}`,
    );
    const beside = sqlite ? runFiles(sqlite, sqlite.beside, '1', true) : null;
    const pgStatus = await runFiles(pg, pg.together, concurrency).done;
    if (beside) {
      const besideStatus = await beside.done;
      const output = beside.output();
      if (output !== '') process.stdout.write(`\n# sqlite pass: ${sqlite!.beside.join(', ')} (ran beside the postgres pass)\n${output}`);
      status = Math.max(status, besideStatus);
    }
    status = Math.max(status, pgStatus);
    if (interrupted) throw new Interrupted();
  }
  if (sqlite) {
    // a failed SQLite pass runs no PostgreSQL pass, and its follow test alone
    const alone = pg ? sqlite.alone : [...sqlite.beside, ...sqlite.alone];
    if (alone.length > 0) process.stdout.write(`\n# sqlite pass: ${alone.length} files alone\n`);
    status = Math.max(status, await runAlone(sqlite, alone));
    if (interrupted) throw new Interrupted();
  }
  if (pg) {
    if (pg.alone.length > 0) process.stdout.write(`\n# postgres pass: ${pg.alone.length} files alone\n`);
    status = Math.max(status, await runAlone(pg, pg.alone));
  }
} catch (e) {
  if (!(e instanceof Interrupted)) throw e;
} finally {
  if (cluster !== null) {
    stopCluster(cluster);
    fs.rmSync(cluster, { recursive: true, force: true });
  }
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
}
process.exit(interrupted ? 130 : status);
