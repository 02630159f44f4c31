/**
 * Latency of action=sfautocomplete on an imported wiki, for short and long substrings:
 *
 *   node dist/bench/sfautocomplete-bench.js --db FILE [--port 8198] [--duration 5] [--connections 8]
 *
 * Starts `wikiquery serve --cache-mb 0` (no response cache: every request runs the index lookup) on the
 * database and drives it with autocannon (-c CONNECTIONS -d DURATION) once per request below; prints the
 * number of values each request returns, the median time of the index lookup alone (in this process,
 * SemanticStore.autocompleteProperty), and the HTTP figures: req/s, p50 and p99. The requests fit the synthetic wiki of
 * scripts/generate-big.ts (Page property "Розташоване в", Text property "Примітка").
 * Not part of `npm test`: figures depend on the machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { openSqliteStore } from '../src/store/sqlite/index.js';
import { fold } from '../src/semantic/fold.js';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const cli = join(root, 'dist/src/cli/main.js');

const REQUESTS: Array<[string, string]> = [
  ['Розташоване_в', 'м'],
  ['Розташоване_в', 'ма'],
  ['Розташоване_в', 'малю'],
  ['Розташоване_в', 'МАЛЮ БІМИЧІ'],
  ['Розташоване_в', 'малю бімичі рі'],
  ['Розташоване_в', 'рігин'],
  ['Розташоване_в', 'щось інше'],
  ['Примітка', 'п'],
  ['Примітка', 'примітка:'],
  ['Примітка', 'примітка: нижня'],
  ['Примітка', 'примітка: нижня лутів біля'],
  ['Примітка', 'біля гайки'],
  ['Примітка', 'докладна примітка, що довша за сімдесят два байти'],
];

/** Median time of the index lookup alone (SemanticStore.autocompleteProperty), in process. */
async function lookupMicros(db: string, property: string, substr: string): Promise<number> {
  const store = stores.get(db) ?? openSqliteStore(db);
  stores.set(db, store);
  const f = fold(substr);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const t0 = process.hrtime.bigint();
    // awaited: the SQLite store's work runs in the promise's continuations
    await store.semantic.autocompleteProperty(property, f, 1000);
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
  }
  times.sort((a, b) => a - b);
  return times[25];
}
const stores = new Map<string, ReturnType<typeof openSqliteStore>>();

async function waitForServer(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error('server exited early');
    try {
      if ((await fetch(url, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('server did not start');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      db: { type: 'string' },
      port: { type: 'string', default: '8198' },
      duration: { type: 'string', default: '5' },
      connections: { type: 'string', default: '8' },
    },
  });
  if (!values.db) throw new Error('--db FILE is required');
  const base = `http://127.0.0.1:${values.port}/api.php`;
  const child = spawn(process.execPath, [cli, 'serve', '--db', values.db, '--port', values.port!, '--cache-mb', '0'], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, WIKIQUERY_LOG_LEVEL: 'warn' },
  });
  try {
    await waitForServer(`${base}?action=query&meta=siteinfo&format=json`, child);
    const duration = Number(values.duration);
    const connections = Number(values.connections);
    console.log(`sfautocomplete on ${values.db}: autocannon -c ${connections} -d ${duration}, response cache off`);
    console.log(
      `${'property'.padEnd(14)} ${'substr'.padEnd(50)} ${'values'.padStart(6)} ${'lookup µs'.padStart(9)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`,
    );
    for (const [property, substr] of REQUESTS) {
      const url = `${base}?${new URLSearchParams({ action: 'sfautocomplete', format: 'json', property, substr })}`;
      const n = ((await (await fetch(url)).json()) as { sfautocomplete: unknown[] }).sfautocomplete.length;
      await autocannon({ url, connections: 2, duration: 1 });
      const r = await autocannon({ url, connections, duration });
      const micros = await lookupMicros(values.db, property, substr);
      console.log(
        `${property.padEnd(14)} ${substr.padEnd(50)} ${String(n).padStart(6)} ${micros.toFixed(0).padStart(9)} ${r.requests.average.toFixed(0).padStart(8)} ${r.latency.p50.toFixed(1).padStart(7)} ${r.latency.p99.toFixed(1).padStart(7)}` +
          (r.non2xx + r.errors ? `  (${r.non2xx + r.errors} errors)` : ''),
      );
    }
  } finally {
    child.kill('SIGTERM');
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
