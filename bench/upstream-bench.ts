/**
 * `npm run bench -- --upstream API_URL --user NAME@APPID [--interval S] [--requests N] [--edits N]` (the bot
 * password in WIKIQUERY_PASSWORD): issue 34's figures for `serve --upstream`, against a running MediaWiki
 * that this run edits (a test wiki: ../shared/reference/mediawiki-oracle/ runs one).
 *
 * `wikiquery follow API_URL --interval S` fills a database of its own in .bench/upstream/ from the wiki and
 * keeps it current; `serve --upstream API_URL` runs on it, and a plain `serve` (no upstream) beside it.
 * Then, on one keep-alive connection each, one request at a time, the two sides taking turns:
 * - the pass-through's added latency: a request wikiquery forwards (meta=tokens) sent through wikiquery
 *   and sent to the upstream directly, N times each: p50 and p99 of both and their difference;
 * - an anonymous local read (meta=siteinfo, answered by the direct path; the response cache is off, as in
 *   the other modes, so that each answer is computed) through
 *   the `--upstream` server and through the plain one: p50 and p99 of both;
 * - with each, the CPU the wikiquery process spent per request (from /proc: steadier than latency when
 *   other work shares the cores);
 * - the read-your-writes wait: logged in through wikiquery with the bot password, N edits of one page, each
 *   followed at once by the writer's read of it (the wait for `follow` included): from the edit's answer
 *   to the read's answer with the new text, p50, p95 and max, next to --interval (and the edit's own time).
 */
import http from 'node:http';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cli, root, spawnServer, stopServer } from './load.js';

export interface UpstreamBenchOptions {
  api: string;
  user: string;
  password: string;
  interval: number;
  requests: number;
  edits: number;
  port: number;
}

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One keep-alive connection per target, one request at a time. */
function requester(): (url: string, init?: { method?: string; body?: string; cookie?: string }) => Promise<Answer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  return (url, init = {}) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = {};
      if (init.body !== undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
      if (init.cookie) headers.cookie = init.cookie;
      const req = http.request(url, { method: init.method ?? 'GET', agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(init.body);
    });
}

/** Cookies as a client keeps them: name → value, from each answer's Set-Cookie. */
class Jar {
  private readonly values = new Map<string, string>();
  take(answer: Answer): void {
    for (const line of answer.headers['set-cookie'] ?? []) {
      const m = /^([^=;\s]+)=([^;]*)/.exec(line);
      if (m) this.values.set(m[1]!, m[2]!);
    }
  }
  get header(): string {
    return [...this.values].map(([k, v]) => `${k}=${v}`).join('; ');
  }
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
}

const f2 = (v: number) => v.toFixed(2).padStart(8);

/**
 * a process's CPU time so far (ms, every thread), from /proc/PID/task/TID/schedstat (nanoseconds): steadier
 * than latency on a shared machine, and finer than /proc/PID/stat's clock ticks
 */
function cpuMs(pid: number | undefined): number {
  try {
    let ns = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    }
    return ns / 1e6;
  } catch {
    return Number.NaN;
  }
}

async function timed(send: () => Promise<Answer>): Promise<number> {
  const t0 = performance.now();
  const answer = await send();
  const ms = performance.now() - t0;
  if (answer.status !== 200) throw new Error(`answer ${answer.status}: ${answer.body.slice(0, 200)}`);
  return ms;
}

/**
 * Latencies of two request kinds measured in turns (warm-up first), so that drift touches both alike, and the
 * CPU the processes `pids` spent meanwhile (ms per pair).
 */
async function pair(
  n: number,
  a: () => Promise<Answer>,
  b: () => Promise<Answer>,
  pids: Array<number | undefined>,
): Promise<[number[], number[], number[]]> {
  for (let i = 0; i < Math.min(50, n); i++) {
    await a();
    await b();
  }
  const cpuBefore = pids.map(cpuMs);
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < n; i++) {
    if (i % 2 === 0) {
      as.push(await timed(a));
      bs.push(await timed(b));
    } else {
      bs.push(await timed(b));
      as.push(await timed(a));
    }
  }
  const cpu = pids.map((pid, i) => (cpuMs(pid) - cpuBefore[i]!) / n);
  return [as.sort((x, y) => x - y), bs.sort((x, y) => x - y), cpu];
}

export async function upstreamBench(o: UpstreamBenchOptions): Promise<void> {
  const dir = join(root, '.bench', 'upstream');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'files'), { recursive: true });
  const db = join(dir, 'followed.sqlite');
  const children: ChildProcess[] = [];
  const follower = spawn(
    process.execPath,
    [cli, 'follow', o.api, '--db', db, '--files', join(dir, 'files'), '--interval', String(o.interval), '--user', o.user],
    { stdio: ['ignore', 'pipe', 'inherit'], env: Object.assign({}, process.env, { WIKIQUERY_PASSWORD: o.password }) },
  );
  children.push(follower);
  try {
    await new Promise<void>((resolve, reject) => {
      let seen = '';
      follower.stdout!.on('data', (b: Buffer) => {
        seen += b.toString('utf8');
        if (/filled: |batch: /.test(seen)) resolve();
      });
      follower.once('exit', (code) => reject(new Error(`follow ended (${code}) before filling the database:\n${seen}`)));
    });
    follower.stdout!.resume();
    const through = `http://127.0.0.1:${o.port}/api.php`;
    const plain = `http://127.0.0.1:${o.port + 1}/api.php`;
    const probe = (base: string) => `${base}?action=query&meta=siteinfo&format=json`;
    const withUpstream = await spawnServer(
      [cli, 'serve', '--db', db, '--port', String(o.port), '--upstream', o.api, '--upstream-wait', '10', '--cache-mb', '0'],
      probe(through),
      Object.assign({}, process.env, { WIKIQUERY_LOG_LEVEL: 'warn' }),
    );
    children.push(withUpstream);
    const without = await spawnServer(
      [cli, 'serve', '--db', db, '--port', String(o.port + 1), '--cache-mb', '0'],
      probe(plain),
      Object.assign({}, process.env, { WIKIQUERY_LOG_LEVEL: 'warn' }),
    );
    children.push(without);
    const viaUs = requester();
    const direct = requester();
    const viaPlain = requester();

    console.log(`wikiquery bench --upstream ${o.api}: one request at a time on a keep-alive connection; ms`);
    console.log(`${'request'.padEnd(52)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'CPU/req'.padStart(8)}`);
    const row = (name: string, sorted: number[], cpu = '') =>
      console.log(`${name.padEnd(52)} ${f2(quantile(sorted, 0.5))} ${f2(quantile(sorted, 0.99))} ${cpu.padStart(8)}`);
    const forwarded = '?action=query&meta=tokens&format=json';
    const [us, them, [forwardCpu]] = await pair(
      o.requests,
      () => viaUs(through + forwarded),
      () => direct(o.api + forwarded),
      [withUpstream.pid],
    );
    row('meta=tokens sent to the upstream directly', them);
    row('meta=tokens through wikiquery (forwarded)', us, forwardCpu!.toFixed(3));
    console.log(
      `${'  added by the pass-through'.padEnd(52)} ${f2(quantile(us, 0.5) - quantile(them, 0.5))} ${f2(quantile(us, 0.99) - quantile(them, 0.99))}`,
    );
    const local = '?action=query&meta=siteinfo&format=json';
    const [upLocal, plainLocal, [upCpu, plainCpu]] = await pair(
      o.requests,
      () => viaUs(through + local),
      () => viaPlain(plain + local),
      [withUpstream.pid, without.pid],
    );
    row('meta=siteinfo, local, serve without --upstream', plainLocal, plainCpu!.toFixed(3));
    row('meta=siteinfo, local, serve --upstream', upLocal, upCpu!.toFixed(3));
    console.log('(CPU/req: ms of CPU the wikiquery process spent per request, from /proc)');

    // a bot's session through wikiquery
    const jar = new Jar();
    const post = async (params: Record<string, string>): Promise<any> => {
      const answer = await viaUs(through, { method: 'POST', body: new URLSearchParams(params).toString(), cookie: jar.header });
      jar.take(answer);
      return JSON.parse(answer.body);
    };
    const loginToken = (await post({ action: 'query', meta: 'tokens', type: 'login', format: 'json' })).query.tokens.logintoken;
    const login = await post({ action: 'login', lgname: o.user, lgpassword: o.password, lgtoken: loginToken, format: 'json' });
    if (login.login?.result !== 'Success') throw new Error(`login through wikiquery: ${JSON.stringify(login)}`);
    const csrf = (await post({ action: 'query', meta: 'tokens', format: 'json' })).query.tokens.csrftoken;
    const title = `Wikiquery bench ${Date.now().toString(36)}`;
    const waits: number[] = [];
    const editTimes: number[] = [];
    let warned = 0;
    for (let i = 0; i < o.edits; i++) {
      const text = `edit ${i} of the read-your-writes bench`;
      const t0 = performance.now();
      const edit = await post({ action: 'edit', title, text, summary: 'bench', bot: '1', token: csrf, format: 'json' });
      if (edit.edit?.result !== 'Success') throw new Error(`edit through wikiquery: ${JSON.stringify(edit)}`);
      const t1 = performance.now();
      const read = await viaUs(
        `${through}?action=query&prop=revisions&rvprop=content&format=json&formatversion=2&titles=${encodeURIComponent(title)}`,
        { cookie: jar.header },
      );
      const t2 = performance.now();
      const answer = JSON.parse(read.body);
      if (answer.warnings !== undefined) warned++;
      else if (answer.query.pages[0].revisions?.[0]?.content !== text) throw new Error(`read back without the edit: ${read.body}`);
      editTimes.push(t1 - t0);
      waits.push(t2 - t1);
    }
    waits.sort((x, y) => x - y);
    editTimes.sort((x, y) => x - y);
    console.log(
      `\nread-your-writes: ${o.edits} edits through wikiquery, follow --interval ${o.interval}; ms (${warned} reads past the wait, with the lag warning)`,
    );
    console.log(`${''.padEnd(52)} ${'p50'.padStart(8)} ${'p95'.padStart(8)} ${'max'.padStart(8)}`);
    console.log(
      `${'the edit (forwarded, its position asked for)'.padEnd(52)} ${f2(quantile(editTimes, 0.5))} ${f2(quantile(editTimes, 0.95))} ${f2(editTimes[editTimes.length - 1]!)}`,
    );
    console.log(
      `${"edit's answer → the writer's read-back answered".padEnd(52)} ${f2(quantile(waits, 0.5))} ${f2(quantile(waits, 0.95))} ${f2(waits[waits.length - 1]!)}`,
    );
  } finally {
    for (const child of children.reverse()) await stopServer(child);
  }
}
