/**
 * The first hour of an operator, over the real commands (spawned `wikiquery` processes): /metrics under
 * --workers, a PostgreSQL that is down or an unsupported --db, `npm start`'s port and host, and the
 * interface messages an import says it lacks.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { demoDatabase } from '../helpers/demo-server.js';

const CLI = path.resolve(import.meta.dirname, '../../src/cli/main.js');

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wikiquery-first-hour-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, ...env }, timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Served {
  child: ChildProcess;
  url: string;
  origin: string;
  exited: Promise<number | null>;
}

async function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready: ${err}`)));
  });
  const url = /serving (http:\/\/\S+\/api\.php)/.exec(line)?.[1];
  assert.ok(url, line);
  return { child, url, origin: new URL(url).origin, exited };
}

/** GET over a new connection of its own, so that the cluster deals it to the next worker. */
function fresh(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent: false, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
  });
}

/** The value of one series in Prometheus' text format (0 when absent). */
function sample(text: string, series: string): number {
  for (const line of text.split('\n')) if (line.startsWith(series + ' ')) return Number(line.slice(series.length + 1));
  return 0;
}

describe('/metrics under --workers', () => {
  let db: string;
  before(async () => {
    db = (await demoDatabase()).db;
  });

  it("answers every worker's counters together: scrapes across workers only go up, and add up to what was asked", async () => {
    const s = await startServe(['--db', db, '--workers', '2']);
    try {
      const pids = new Set<number>();
      for (let i = 0; i < 4; i++) pids.add(JSON.parse((await fresh(`${s.origin}/health`)).body).pid);
      assert.equal(pids.size, 2, 'both workers answer');
      const siteinfo = 'wikiquery_api_requests_total{action="query",status="200",result="ok"}';
      const histogram = 'wikiquery_api_request_duration_seconds_count{action="query"}';
      let previous = -1;
      let asked = 0;
      for (let round = 1; round <= 4; round++) {
        // an odd number per round: the workers' shares differ from scrape to scrape
        for (let i = 0; i < round * 2 + 1; i++) {
          // cache-busting: every request is computed, on whichever worker takes it
          const r = await fresh(`${s.url}?action=query&meta=siteinfo&format=json&requestid=${round}-${i}`);
          assert.equal(r.status, 200);
          asked++;
        }
        const scrape = await fresh(`${s.origin}/metrics`);
        assert.equal(scrape.status, 200);
        const total = sample(scrape.body, siteinfo);
        assert.ok(total > previous, `round ${round}: ${total} after ${previous}`);
        assert.equal(total, asked, `round ${round}: the scrape counts every worker's requests`);
        assert.equal(sample(scrape.body, histogram), asked);
        // gauges of the one database are not multiplied by the workers
        const pages = sample(scrape.body, 'wikiquery_database_pages');
        assert.equal(pages, JSON.parse((await fresh(`${s.origin}/health`)).body).pages);
        previous = total;
      }
    } finally {
      s.child.kill('SIGTERM');
    }
    assert.equal(await s.exited, 0);
  });
});
