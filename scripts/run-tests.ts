/**
 * `npm test`: the whole suite on the embedded store (SQLite), then -- when PostgreSQL's server programs
 * are installed (Debian's postgresql package; CI installs it) -- the whole suite again against a
 * throwaway PostgreSQL cluster started in .pg-test/ of the checkout (WIKIQUERY_TEST_DB=postgres).
 * Arguments are passed to `node --test` (a file to run, --test-name-pattern …); WIKIQUERY_TEST_DB=sqlite
 * or =postgres runs one pass only.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DEFAULT_DIR, postgresBinDir, startCluster, stopCluster } from './pg-cluster.js';

const args = process.argv.slice(2);
const files = args.some((a) => !a.startsWith('-')) ? [] : ['dist/test/'];
const only = process.env.WIKIQUERY_TEST_DB;

function pass(env: NodeJS.ProcessEnv): number {
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', ...args, ...files], { stdio: 'inherit', env: { ...process.env, ...env } });
  return r.status ?? 1;
}

let status = 0;
if (only !== 'postgres') status = pass({ WIKIQUERY_TEST_DB: 'sqlite' });
if (only !== 'sqlite' && status === 0) {
  if (!postgresBinDir()) {
    process.stdout.write('\n# PostgreSQL pass skipped: no initdb/pg_ctl (install Debian\'s postgresql package, as .ci/run does)\n');
    if (only === 'postgres') status = 1;
  } else {
    const dir = path.resolve(process.env.WIKIQUERY_TEST_PG_DIR ?? DEFAULT_DIR);
    stopCluster(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`\n# PostgreSQL pass: a throwaway cluster in ${dir}\n`);
    const cluster = startCluster(dir, { port: process.env.WIKIQUERY_TEST_PG_PORT ? Number(process.env.WIKIQUERY_TEST_PG_PORT) : undefined });
    try {
      status = pass({ WIKIQUERY_TEST_DB: 'postgres', WIKIQUERY_TEST_PG: cluster.url });
    } finally {
      stopCluster(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}
process.exit(status);
