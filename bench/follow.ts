/**
 * `npm run bench -- --follow API_URL --user NAME` (issue 30's lag): a live MediaWiki edited through its API at
 * steady rates while `wikiquery follow --interval S` and `wikiquery serve` run on one database in .bench/follow;
 * for each edit, the time from the upstream's successful edit answer to the first answer of wikiquery's
 * `prop=revisions&rvprop=ids|content` with that revision (or a later one) and its text, polled every 50 ms for
 * all pending pages at once. The lag's p50, p95 and maximum per interval and rate, with the CPU seconds
 * `follow` and `serve` spent meanwhile (the machine may be shared: CPU time says more than wall time).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { isCurrentDatabase } from '../src/store/sqlite/db.js';
import { UpstreamEditor } from '../test/helpers/upstream-wiki.js';
import { cli, printTable, root, startServer, stopServer } from './load.js';

export interface LagOptions {
  api: string;
  user: string;
  password: string;
  /** edits per second, each for `duration` seconds */
  rates: number[];
  /** `follow --interval` values, a follower each */
  intervals: number[];
  duration: number;
  port: number;
  /** pages the edits go round (each page edited again every pages/rate seconds) */
  pages: number;
  /** extra arguments of `follow` (e.g. --cpu-prof --cpu-prof-dir DIR are node's: see nodeArgs) */
  nodeArgs: string[];
  markdown: boolean;
}

interface Pending {
  title: string;
  revid: number;
  text: string;
  answered: number;
}

export interface RateFigures {
  target: number;
  achieved: number;
  edits: number;
  seen: number;
  wrongText: number;
  /** seconds, sorted */
  lags: number[];
  editP50: number;
  /** the upstream's answer time to a one-row list=recentchanges meanwhile (p50, seconds): a floor of each poll's */
  readP50: number;
  followCpu: number;
  serveCpu: number;
  load: number;
}

/** A process's CPU seconds (user + system) from /proc, NaN where there is none. */
export function cpuSeconds(pid: number | undefined): number {
  if (pid === undefined) return NaN;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return NaN;
  }
}

export function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** edits under way at most: more would only queue in the upstream's PHP workers, ahead of the follower's reads */
const MAX_IN_FLIGHT = 8;

/** `wikiquery follow` in its own process, its output in `log`. */
function startFollower(api: string, db: string, interval: number, log: string, nodeArgs: string[]): ChildProcess {
  // the wiki is world-readable: the follower reads it anonymously (WIKIQUERY_PASSWORD, the editor's, would be its --password)
  const env = Object.assign({}, process.env);
  delete env.WIKIQUERY_PASSWORD;
  const child = spawn(process.execPath, [...nodeArgs, cli, 'follow', api, '--db', db, '--interval', String(interval)], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  });
  const out = createWriteStream(log, { flags: 'a' });
  child.stdout!.pipe(out);
  child.stderr!.pipe(out);
  return child;
}

/**
 * Edits at `rate` per second for `duration` seconds (each scheduled at its time, at most MAX_IN_FLIGHT under way: a
 * slower upstream lowers the achieved rate) while the pending pages are polled on wikiquery.
 */
async function measureRate(
  editor: UpstreamEditor,
  base: string,
  rate: number,
  duration: number,
  opts: { pages: number; run: string; settleMs: number; follower: ChildProcess; server: ChildProcess },
): Promise<RateFigures> {
  const n = Math.max(1, Math.round(rate * duration));
  const pending: Pending[] = [];
  const lags: number[] = [];
  const editTimes: number[] = [];
  let wrongText = 0;
  let issuing = true;
  let failures = 0;
  const load = loadavg()[0];
  const cpu0 = [cpuSeconds(opts.follower.pid), cpuSeconds(opts.server.pid)];

  const poller = (async () => {
    while (issuing || pending.length > 0) {
      await sleep(50);
      if (pending.length === 0) continue;
      const titles = [...new Set(pending.map((p) => p.title))].slice(0, 50);
      const q = new URLSearchParams({
        action: 'query',
        prop: 'revisions',
        rvprop: 'ids|content',
        titles: titles.join('|'),
        format: 'json',
        formatversion: '2',
      });
      let pages: Array<{ title: string; revisions?: Array<{ revid: number; content: string }> }>;
      try {
        pages = ((await (await fetch(`${base}?${q}`)).json()) as { query: { pages: typeof pages } }).query.pages;
      } catch {
        continue;
      }
      const now = performance.now();
      const current = new Map<string, { revid: number; content: string }>();
      for (const p of pages) if (p.revisions?.[0]) current.set(p.title, p.revisions[0]);
      for (let i = pending.length - 1; i >= 0; i--) {
        const e = pending[i];
        const rev = current.get(e.title);
        if (rev === undefined || rev.revid < e.revid) continue;
        if (rev.revid === e.revid && rev.content !== e.text) wrongText++;
        lags.push((now - e.answered) / 1000);
        pending.splice(i, 1);
      }
    }
  })();

  // the upstream's read time meanwhile: each poll of the follower waits for two reads at least
  const readTimes: number[] = [];
  const reader = (async () => {
    const url = `${editor.api}?action=query&list=recentchanges&rclimit=1&format=json`;
    while (issuing) {
      const t = performance.now();
      try {
        await (await fetch(url)).arrayBuffer();
        readTimes.push((performance.now() - t) / 1000);
      } catch {
        /* counted as nothing */
      }
      await sleep(500);
    }
  })();

  const started = performance.now();
  let lastAnswer = started;
  const inFlight = new Set<Promise<void>>();
  for (let i = 0; i < n; i++) {
    const due = started + (i * 1000) / rate;
    if (due > performance.now()) await sleep(due - performance.now());
    while (inFlight.size >= MAX_IN_FLIGHT) await Promise.race(inFlight);
    const title = `Wikiquery bench/${i % opts.pages}`;
    const text = `Правка ${i} серії ${opts.run} (${rate}/с).`;
    const sent = performance.now();
    const p: Promise<void> = editor
      .edit(title, text, `bench ${opts.run}`)
      .then((answer) => {
        const now = performance.now();
        const revid = (answer as { edit?: { newrevid?: number } }).edit?.newrevid;
        if (typeof revid !== 'number') throw new Error(`no new revision: ${JSON.stringify(answer).slice(0, 200)}`);
        editTimes.push((now - sent) / 1000);
        lastAnswer = Math.max(lastAnswer, now);
        pending.push({ title, revid, text, answered: now });
      })
      .catch((e: unknown) => {
        failures++;
        if (failures <= 3) console.error(`edit of ${title} failed: ${(e as Error).message}`);
      })
      .finally(() => inFlight.delete(p));
    inFlight.add(p);
  }
  await Promise.all(inFlight);
  const settleUntil = performance.now() + opts.settleMs;
  while (pending.length > 0 && performance.now() < settleUntil) await sleep(100);
  issuing = false;
  const unseen = pending.length;
  pending.length = 0;
  await poller;
  await reader;
  lags.sort((a, b) => a - b);
  readTimes.sort((a, b) => a - b);
  editTimes.sort((a, b) => a - b);
  const edits = n - failures;
  return {
    target: rate,
    achieved: edits / Math.max(0.001, (lastAnswer - started) / 1000),
    edits,
    seen: edits - unseen,
    wrongText,
    lags,
    editP50: quantile(editTimes, 0.5),
    readP50: quantile(readTimes, 0.5),
    followCpu: cpuSeconds(opts.follower.pid) - cpu0[0],
    serveCpu: cpuSeconds(opts.server.pid) - cpu0[1],
    load,
  };
}

/** Waits until the page shows `revid` on wikiquery (the follower caught up), or throws after `ms`. */
async function waitSeen(base: string, title: string, revid: number, ms: number): Promise<void> {
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const q = new URLSearchParams({ action: 'query', prop: 'revisions', rvprop: 'ids', titles: title, format: 'json', formatversion: '2' });
    try {
      const r = (await (await fetch(`${base}?${q}`)).json()) as { query?: { pages?: Array<{ revisions?: Array<{ revid: number }> }> } };
      if ((r.query?.pages?.[0]?.revisions?.[0]?.revid ?? 0) >= revid) return;
    } catch {
      /* the server is reopening or not up yet */
    }
    await sleep(200);
  }
  throw new Error(`the follower did not catch up with ${title} (revision ${revid}) in ${ms / 1000} s`);
}

export async function followLag(opts: LagOptions): Promise<void> {
  const dir = join(root, '.bench', 'follow');
  mkdirSync(dir, { recursive: true });
  const db = join(dir, 'wiki.sqlite');
  // a database of another build's schema is filled again from the API; a current one goes on from its position
  if (existsSync(db) && !isCurrentDatabase(db)) for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
  const editor = await UpstreamEditor.login(opts.api, opts.user, opts.password);
  const base = `http://127.0.0.1:${opts.port}/api.php`;
  const run = new Date().toISOString().slice(0, 19);
  console.log(
    `wikiquery bench --follow ${opts.api}: ${opts.rates.join(', ')} edits/s for ${opts.duration} s each, follow --interval ${opts.intervals.join(', ')}; ` +
      `.bench/follow/ (the followers' output in follow-S.log)`,
  );
  const rows: string[][] = [];
  let server: ChildProcess | null = null;
  try {
    for (const interval of opts.intervals) {
      const follower = startFollower(opts.api, db, interval, join(dir, `follow-${interval}.log`), opts.nodeArgs);
      try {
        const until = performance.now() + 600_000;
        while (!isCurrentDatabase(db)) {
          if (follower.exitCode !== null) throw new Error(`follow exited (${follower.exitCode}): see .bench/follow/follow-${interval}.log`);
          if (performance.now() > until) throw new Error('follow did not fill the database in 10 minutes');
          await sleep(500);
        }
        server ??= await startServer(db, opts.port, 1, '64');
        // caught up: a marker edit seen before the clock starts
        const marker = (await editor.edit('Wikiquery bench/marker', `Початок ${run}, інтервал ${interval}`)) as {
          edit: { newrevid: number };
        };
        await waitSeen(base, 'Wikiquery bench/marker', marker.edit.newrevid, 300_000);
        for (const rate of opts.rates) {
          const f = await measureRate(editor, base, rate, opts.duration, {
            pages: opts.pages,
            // each series' texts its own: an edit that changes nothing makes no revision
            run: `${run}, інтервал ${interval}`,
            settleMs: (interval + 60) * 1000,
            follower,
            server,
          });
          const p95 = quantile(f.lags, 0.95);
          const goal = rate === 5 ? (p95 <= interval + 1 ? 'PASS' : 'FAIL') : '';
          const s = (v: number) => (Number.isFinite(v) ? v.toFixed(2) : '?');
          rows.push([
            String(interval),
            `${rate} (${f.achieved.toFixed(1)})`,
            `${f.seen}/${f.edits}${f.wrongText ? ` (${f.wrongText} wrong text)` : ''}`,
            s(quantile(f.lags, 0.5)),
            s(p95),
            s(f.lags[f.lags.length - 1]),
            goal,
            s(f.editP50),
            s(f.readP50),
            s(f.followCpu),
            s(f.serveCpu),
            f.load.toFixed(1),
          ]);
          console.log(`interval ${interval} s, ${rate} edits/s: ${rows[rows.length - 1].slice(2).join(' | ')}`);
        }
      } finally {
        await stopServer(follower);
      }
    }
  } finally {
    if (server) await stopServer(server);
  }
  console.log('');
  printTable(
    [
      'interval s',
      'edits/s (achieved)',
      'seen/edits',
      'lag p50 s',
      'lag p95 s',
      'lag max s',
      'p95 ≤ interval+1 s',
      'edit answer p50 s',
      'read answer p50 s',
      'follow CPU s',
      'serve CPU s',
      'load',
    ],
    rows,
    opts.markdown,
  );
}
