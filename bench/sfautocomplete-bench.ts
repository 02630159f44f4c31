/**
 * Latency of action=sfautocomplete on an imported wiki, for short and long substrings:
 *
 *   node dist/bench/sfautocomplete-bench.js --db FILE [--port 8198] [--duration 5] [--connections 8]
 *
 * Starts `wikiquery serve --cache-mb 0` (no response cache: every request runs the index lookup) on the
 * database and drives it with autocannon (-c CONNECTIONS -d DURATION) once per request below; prints the
 * number of values each request returns, req/s, p50 and p99. The requests fit the synthetic wiki of
 * scripts/generate-big.ts (Page property "Розташоване в", Text property "Примітка").
 * Not part of `npm test`: figures depend on the machine.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const root = resolve(fileURLToPath(import.meta.url), '../../..');
const cli = join(root, 'dist/src/cli/main.js');

const REQUESTS: Array<[string, string]> = [
  ['Розташоване_в', 'в'],
  ['Розташоване_в', 'ве'],
  ['Розташоване_в', 'верхнє'],
  ['Розташоване_в', 'ВЕРХНЄ БА'],
  ['Розташоване_в', 'гай'],
  ['Розташоване_в', 'нове сокін гай'],
  ['Розташоване_в', 'щось інше'],
  ['Примітка', 'п'],
  ['Примітка', 'примітка:'],
  ['Примітка', 'примітка: старі'],
  ['Примітка', 'біля луг'],
  ['Примітка', 'примітка: верхнє бабак біля ставище'],
  ['Примітка', 'докладна примітка, що довша за сімдесят'],
];

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
    console.log(`${'property'.padEnd(14)} ${'substr'.padEnd(42)} ${'values'.padStart(6)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}`);
    for (const [property, substr] of REQUESTS) {
      const url = `${base}?${new URLSearchParams({ action: 'sfautocomplete', format: 'json', property, substr })}`;
      const n = ((await (await fetch(url)).json()) as { sfautocomplete: unknown[] }).sfautocomplete.length;
      await autocannon({ url, connections: 2, duration: 1 });
      const r = await autocannon({ url, connections, duration });
      console.log(
        `${property.padEnd(14)} ${substr.padEnd(42)} ${String(n).padStart(6)} ${r.requests.average.toFixed(0).padStart(8)} ${r.latency.p50.toFixed(1).padStart(7)} ${r.latency.p99.toFixed(1).padStart(7)}` +
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
