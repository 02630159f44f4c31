/**
 * `npm test`: the whole suite on the embedded store (SQLite), then -- when PostgreSQL's server programs
 * are installed (Debian's postgresql package; CI installs it) -- again, against a throwaway PostgreSQL
 * cluster started in .pg-test/ of the checkout (WIKIQUERY_TEST_DB=postgres), every test file whose answers
 * depend on the store (dependsOnStore).
 * Arguments are passed to `node --test` (a file to run, --test-name-pattern …); WIKIQUERY_TEST_DB=sqlite
 * or =postgres runs one pass only.
 *
 * Each pass builds the demo wiki once (generated, imported into SQLite and, in the PostgreSQL pass, into
 * the cluster) and hands it to every test process, read-only, through WIKIQUERY_TEST_DEMO_DIR and
 * WIKIQUERY_TEST_DEMO_SERVED. Test files run WIKIQUERY_TEST_CONCURRENCY at a time (2 by default, the
 * cores of the machine the suite is held to), those in RUN_ALONE after them one by one. Everything a
 * pass writes to the temporary directory -- the demo, and what the tests make there (TMPDIR points
 * inside it) -- is removed when it ends.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildDemoDatabase } from '../test/helpers/demo-server.js';
import { DEFAULT_DIR, postgresBinDir, startCluster, stopCluster } from './pg-cluster.js';

const args = process.argv.slice(2);
const namesFiles = args.some((arg) => !arg.startsWith('-'));
const only = process.env.WIKIQUERY_TEST_DB;
const concurrency = process.env.WIKIQUERY_TEST_CONCURRENCY ?? '2';

/**
 * Test files that load the server to its limits (request queues, slow clients, idle timers) and judge
 * it by how it holds up, and the follow tests, which wait for a real MediaWiki's changes to arrive: run
 * after the others, one at a time, so another file's load does not trip their time limits.
 */
const RUN_ALONE = ['http/abuse.test.js', 'http/hit-path.test.js', 'follow/follow.test.js'];

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

function dependsOnStore(file: string): boolean {
  if (BEFORE_THE_STORE.some((name) => file.endsWith(path.sep + name))) return false;
  return STORE_DEPENDENT.test(fs.readFileSync(file, 'utf8'));
}

/** The test files under dist/test/ (helpers and fixtures are not run as tests). */
function testFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.js'))
    .sort()
    .map((file) => path.join(dir, file));
}

// an interrupted pass still removes what it made: the children get the signal and end, then the
// finally blocks below run
let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (interrupted = true));

async function pass(db: 'sqlite' | 'postgres', env: NodeJS.ProcessEnv = {}): Promise<number> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), `wikiquery-npm-test-${db}-`));
  try {
    const tmp = path.join(root, 'tmp');
    fs.mkdirSync(tmp);
    const started = Date.now();
    const demo = await buildDemoDatabase(path.join(root, 'fixture'), db === 'postgres');
    process.stdout.write(`# ${db} pass: the demo wiki built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    const run = (files: string[], parallel: string) =>
      spawnSync(process.execPath, ['--test', `--test-concurrency=${parallel}`, ...args, ...files], {
        stdio: 'inherit',
        env: {
          ...process.env,
          ...env,
          WIKIQUERY_TEST_DB: db,
          WIKIQUERY_TEST_DEMO_DIR: demo.dir,
          WIKIQUERY_TEST_DEMO_SERVED: demo.served,
          TMPDIR: tmp,
        },
      }).status ?? 1;
    let status: number;
    if (namesFiles) status = run([], concurrency);
    else {
      const all = testFiles('dist/test');
      const files = db === 'postgres' ? all.filter(dependsOnStore) : all;
      if (files.length < all.length) {
        process.stdout.write(
          `# ${db} pass: ${all.length - files.length} of ${all.length} test files do not depend on the store and ran in the SQLite pass only\n`,
        );
      }
      const alone = files.filter((file) => RUN_ALONE.some((name) => file.endsWith(path.sep + name)));
      status = run(
        files.filter((file) => !alone.includes(file)),
        concurrency,
      );
      if (!interrupted) status = Math.max(status, run(alone, '1'));
    }
    return interrupted ? 130 : status;
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

let status = 0;
if (only !== 'postgres') status = await pass('sqlite');
if (only !== 'sqlite' && status === 0) {
  if (!postgresBinDir()) {
    process.stdout.write("\n# PostgreSQL pass skipped: no initdb/pg_ctl (install Debian's postgresql package, as .ci/run does)\n");
    if (only === 'postgres') status = 1;
  } else {
    const dir = path.resolve(process.env.WIKIQUERY_TEST_PG_DIR ?? DEFAULT_DIR);
    stopCluster(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`\n# PostgreSQL pass: a throwaway cluster in ${dir}\n`);
    const cluster = startCluster(dir, {
      port: process.env.WIKIQUERY_TEST_PG_PORT ? Number(process.env.WIKIQUERY_TEST_PG_PORT) : undefined,
    });
    try {
      // buildDemoDatabase makes its PostgreSQL database on the cluster named here, as the tests do
      process.env.WIKIQUERY_TEST_PG = cluster.url;
      status = await pass('postgres', { WIKIQUERY_TEST_PG: cluster.url });
    } finally {
      stopCluster(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
process.exit(status);
