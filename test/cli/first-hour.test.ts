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
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
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
  stderr: () => string;
}

async function startServe(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const lines = await new Promise<string[]>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.split('\n').length > 2) resolve(out.split('\n').slice(0, 2));
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready: ${err}`)));
  });
  const url = /serving (http:\/\/\S+\/api\.php)$/.exec(lines[0]!)?.[1];
  assert.ok(url, lines[0]);
  const origin = new URL(url).origin;
  // the second line says where a person looks
  assert.equal(lines[1], `wikiquery: the wiki's pages at ${origin}/index.php, health at ${origin}/health, metrics at ${origin}/metrics`);
  return { child, url, origin, exited, stderr: () => err };
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

describe('the log', () => {
  it('JSON lines with one pid each; a dead worker at warn, routine events at info', async () => {
    const { db } = await demoDatabase();
    const s = await startServe(['--db', db, '--workers', '2', '--log-level', 'info']);
    let victim = 0;
    try {
      victim = JSON.parse((await fresh(`${s.origin}/health`)).body).pid;
      process.kill(victim, 'SIGKILL');
      const deadline = Date.now() + 20_000;
      while (!s.stderr().includes('worker died') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    } finally {
      s.child.kill('SIGTERM');
    }
    assert.equal(await s.exited, 0);
    const lines = s.stderr().trim().split('\n');
    const entries = lines.map((line) => {
      // a key written twice would be lost to JSON.parse: count them in the text
      assert.equal(line.match(/"pid":/g)?.length, 1, line);
      return JSON.parse(line) as { level: number; msg: string; pid: number; worker?: number };
    });
    const died = entries.find((e) => e.msg === 'worker died; starting another');
    assert.ok(died, lines.join('\n'));
    assert.equal(died.level, 40);
    assert.equal(died.worker, victim);
    assert.equal(died.pid, s.child.pid);
    const stopping = entries.filter((e) => e.msg === 'stopping');
    assert.ok(stopping.length >= 1);
    assert.ok(stopping.every((e) => e.level === 30));
  });
});

describe('a database that cannot be used is said before any work, in words', () => {
  const SMALL = path.resolve(import.meta.dirname, '../../../test/fixtures/small-dump.xml');

  it('PostgreSQL down (no socket, nothing on the port): import and serve stop at once, saying what to check', () => {
    const socketDir = mkdtempSync(path.join(dir, 'no-server-'));
    const socket = `postgres://wiki:secret@localhost/wiki?host=${socketDir}`;
    // port 1 of the loopback: nothing listens there
    const tcp = 'postgres://wiki:secret@127.0.0.1:1/wiki';
    for (const [url, says] of [
      [
        socket,
        new RegExp(
          `no PostgreSQL server at the socket ${socketDir}/\\.s\\.PGSQL\\.5432: is the server running .*\\?host= the directory of its socket`,
        ),
      ],
      [tcp, /nothing listens at 127\.0\.0\.1:1: is the PostgreSQL server running/],
    ] as const) {
      const started = Date.now();
      const imported = run(['import', SMALL, '--db', url]);
      assert.equal(imported.status, 1, imported.stderr);
      // the one line is the error: no note or progress before it, and the password is not shown
      assert.equal(imported.stderr.split('\n').length, 2, imported.stderr);
      assert.match(imported.stderr, /^wikiquery import: --db postgres:\/\/wiki:\*\*\*@/);
      assert.match(imported.stderr, says);
      assert.doesNotMatch(imported.stderr, /secret|ENOENT|ECONNREFUSED/);
      assert.equal(imported.stdout, '');
      assert.ok(Date.now() - started < 30_000, 'refused before the dump is read');
      const served = run(['serve', '--db', url, '--port', '0']);
      assert.equal(served.status, 1, served.stderr);
      assert.equal(served.stderr.split('\n').length, 2, served.stderr);
      assert.match(served.stderr, /^wikiquery serve: --db postgres:\/\/wiki:\*\*\*@/);
      assert.match(served.stderr, says);
      assert.equal(served.stdout, '');
    }
  });

  it('a URL of another database system is named as such, not as a missing file', () => {
    const imported = run(['import', SMALL, '--db', 'mysql://wiki@db.example/wiki']);
    assert.equal(imported.status, 1);
    assert.equal(
      imported.stderr,
      'wikiquery import: --db mysql://wiki@db.example/wiki: mysql:// databases are not supported: give an SQLite file (a path, or sqlite:PATH) or a PostgreSQL database (postgres://USER@HOST/DB)\n',
    );
    const served = run(['serve', '--db', 'mysql://wiki@db.example/wiki']);
    assert.equal(served.status, 2);
    assert.match(served.stderr, /^wikiquery serve: --db mysql:\/\/wiki@db\.example\/wiki: mysql:\/\/ databases are not supported/);
  });
});

describe('interface messages: where they come from', () => {
  const SMALL = path.resolve(import.meta.dirname, '../../../test/fixtures/small-dump.xml');

  it('without --messages and without MediaWiki: pages, the import says once what will be empty and where messages come from', () => {
    const r = run(['import', SMALL, '--db', path.join(dir, 'no-messages.sqlite')]);
    assert.equal(r.status, 0, r.stderr);
    const notes = r.stderr.split('\n').filter((line) => /messages/.test(line) && line.startsWith('note:'));
    assert.deepEqual(notes, [
      "note: no --messages and no MediaWiki: pages in the dump: meta=allmessages and every interface text the API renders (messages in parse output, SMW's and the help's texts) will be empty; give --messages the languages/i18n folder of a MediaWiki installation (and --messages again for includes/api/i18n and each extension's i18n folder, e.g. extensions/SemanticMediaWiki/i18n)",
    ]);
    assert.match(r.stdout, /^Imported 5 pages, 0 files, 0 messages, /);
  });

  it('a --messages folder without message files is an error that names the folder (and the i18n folder inside it)', () => {
    const languages = mkdtempSync(path.join(dir, 'languages-'));
    mkdirSync(path.join(languages, 'i18n'));
    writeFileSync(path.join(languages, 'README'), 'not messages\n');
    const db = path.join(dir, 'never.sqlite');
    const r = run(['import', SMALL, '--db', db, '--messages', languages]);
    assert.equal(r.status, 1);
    assert.equal(
      r.stderr,
      `wikiquery import: --messages ${languages}: no message files in it (LANGUAGE.json, such as en.json and uk.json, as MediaWiki's languages/i18n holds) (did you mean ${path.join(languages, 'i18n')}?)\n`,
    );
    assert.equal(existsSync(db), false);
  });
});

describe('npm start: port and host as serve takes them, no rebuild, in the foreground', () => {
  const ROOT = path.resolve(import.meta.dirname, '../../..');
  const entry = path.join(ROOT, 'dist', 'src', 'cli', 'start-demo.js');
  // npm start builds when a source is newer than dist/: here that would empty dist/ under the running tests
  const stale =
    readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' }).some(
      (name) => name.endsWith('.ts') && statSync(path.join(ROOT, 'src', name)).mtimeMs > statSync(entry).mtimeMs,
    ) || spawnSync('npm', ['--version']).status !== 0;
  let data: string;
  before(async () => {
    // the demo wiki as npm start would have imported it the first time
    const demo = await demoDatabase();
    data = mkdtempSync(path.join(dir, 'start-'));
    copyFileSync(demo.db, path.join(data, 'demo.sqlite'));
    symlinkSync(path.join(demo.dir, 'demo'), path.join(data, 'demo'));
  });

  async function freePort(): Promise<number> {
    const s = net.createServer();
    await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
    const port = (s.address() as net.AddressInfo).port;
    await new Promise((r) => s.close(r));
    return port;
  }

  /** `npm start -- ARGS` until its ready line. */
  async function npmStart(args: string[], env: Record<string, string>) {
    const child = spawn('npm', ['start', '--', ...args], {
      cwd: ROOT,
      env: { ...process.env, WIKIQUERY_DEMO_DATA: data, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr!.on('data', (d) => (err += d));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      child.stdout!.on('data', (d) => {
        out += d;
        const ready = /^wikiquery: .*$/m.exec(out);
        if (ready) resolve(ready[0]);
      });
      void exited.then((code) => reject(new Error(`npm start exited (${code}): ${out}${err}`)));
    });
    return { child, line, exited, output: () => out + err };
  }

  it('--port and --host after --, or WIKIQUERY_PORT; SIGTERM to npm stops the server', {
    skip: stale && 'dist/ is older than src/ (npm run build first)',
  }, async () => {
    const builtAt = statSync(entry).mtimeMs;
    const port = await freePort();
    const s = await npmStart(['--port', String(port), '--host', '127.0.0.1', '--workers', '1'], {});
    let serverPid = 0;
    try {
      assert.equal(s.line, `wikiquery: Демовікі, ${/(\d+) pages/.exec(s.line)?.[1]} pages, serving http://127.0.0.1:${port}/api.php`);
      serverPid = JSON.parse((await fresh(`http://127.0.0.1:${port}/health`)).body).pid;
    } finally {
      // as a supervisor stops it: the signal goes to npm
      s.child.kill('SIGTERM');
    }
    await s.exited;
    // the server got the signal and stopped: nothing is left behind npm
    assert.throws(() => process.kill(serverPid, 0), /ESRCH/);
    await assert.rejects(fresh(`http://127.0.0.1:${port}/health`));
    assert.doesNotMatch(s.output(), /tsc -p/, 'a current build is not rebuilt');
    assert.equal(statSync(entry).mtimeMs, builtAt);

    const envPort = await freePort();
    const e = await npmStart(['--workers', '1'], { WIKIQUERY_PORT: String(envPort) });
    try {
      assert.match(e.line, new RegExp(`serving http://127\\.0\\.0\\.1:${envPort}/api\\.php$`));
    } finally {
      e.child.kill('SIGTERM');
    }
    await e.exited;
  });
});
