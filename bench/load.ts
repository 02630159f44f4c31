/**
 * Load generators (wrk when installed, else autocannon) and their figures, the servers measured (`wikiquery
 * serve` and the bare node:http server) started and stopped, and the figures as text or Markdown tables.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const root = resolve(fileURLToPath(import.meta.url), '../../..');
export const cli = join(root, 'dist/src/cli/main.js');

export interface Figures {
  rps: number;
  p50: number;
  p99: number;
  /** non-2xx answers and socket errors */
  errors: number;
  /** requests the load generator gave up on: its latencies leave them out, so a p99 with timeouts flatters */
  timeouts: number;
}

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version']).error === undefined;
}

export function parseWrkMs(s: string): number {
  const m = /([\d.]+)(us|ms|s)/.exec(s);
  if (!m) return NaN;
  const v = Number(m[1]);
  return m[2] === 'us' ? v / 1000 : m[2] === 's' ? v * 1000 : v;
}

export function runWrk(url: string, duration: number, connections: number): Figures {
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

export async function runAutocannon(url: string, duration: number, connections: number): Promise<Figures> {
  await autocannon({ url, connections: 2, duration: 1 });
  const r = await autocannon({ url, connections, duration });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, errors: r.non2xx + r.errors, timeouts: r.timeouts };
}

/** One load-generator run against `url` (after a 1 s warm-up), the same way for wikiquery and the bare server. */
export type Measure = (url: string, connections: number) => Promise<Figures>;

export function measurer(tool: string | undefined, duration: number): { measure: Measure; name: (connections: number) => string } {
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
export async function spawnServer(args: string[], probe: string, env: NodeJS.ProcessEnv = process.env): Promise<ChildProcess> {
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

export async function waitForServer(url: string, child: ChildProcess): Promise<void> {
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

export interface Config {
  label: string;
  db: string;
  workers: number;
}

/** Start `wikiquery serve` on `port`; the caller stops it. */
export function startServer(db: string, port: number, workers: number, cacheMb: string, extra: string[] = []): Promise<ChildProcess> {
  return spawnServer(
    [cli, 'serve', '--db', db, '--port', String(port), '--cache-mb', cacheMb, '--workers', String(workers), ...extra],
    `http://127.0.0.1:${port}/api.php?action=query&meta=siteinfo&format=json`,
    { ...process.env, WIKIQUERY_LOG_LEVEL: 'warn' },
  );
}

/** Start the bare node:http server (bench/bare-server.ts) with `processes` processes; the caller stops it. */
export function startBare(port: number, processes: number, bytes = 100): Promise<ChildProcess> {
  return spawnServer(
    [join(root, 'dist', 'bench', 'bare-server.js'), String(port), String(processes), String(bytes)],
    `http://127.0.0.1:${port}/`,
  );
}

export function stopServer(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Run `body` with a server up, stopping it however `body` ends. */
export async function withServer<T>(start: Promise<ChildProcess>, body: () => Promise<T>): Promise<T> {
  const child = await start;
  try {
    return await body();
  } finally {
    await stopServer(child);
  }
}

export const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '?');
export const int = (v: number) => (Number.isFinite(v) ? Math.round(v).toLocaleString('en-US') : '?');
export const trouble = (f: Figures) => `${f.errors ? ` (${f.errors} non-2xx)` : ''}${f.timeouts ? ` (${f.timeouts} timeouts)` : ''}`;
export const fmt = (f: Figures) =>
  `${f.rps.toFixed(0).padStart(7)} ${f.p50.toFixed(2).padStart(6)} ${f.p99.toFixed(2).padStart(6)}${trouble(f)}`;
export const line = (name: string, f: Figures) =>
  `${name.padEnd(40)} ${f.rps.toFixed(0).padStart(9)} ${f.p50.toFixed(2).padStart(8)} ${f.p99.toFixed(2).padStart(8)} ${String(f.errors).padStart(8)}${f.timeouts ? ` (${f.timeouts} timeouts)` : ''}`;

/** A table as aligned text (first column left, the others right) or as Markdown (`--markdown`, for notes). */
export function printTable(head: string[], rows: string[][], markdown: boolean): void {
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
