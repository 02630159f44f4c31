/**
 * `wikiquery serve` as an operator runs it: the ready line, stop and reload signals, a re-import
 * under a request loop, and `--workers`.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { demoDatabase } from '../helpers/demo-server.js';
import { CLI, run, scratchDirectory, startServe } from '../helpers/cli.js';

const scratch = scratchDirectory('wikiquery-cli-');

describe('serve: ready line and signals', () => {
  let db: string;
  before(async () => {
    db = (await demoDatabase()).db;
  });

  it('prints one ready line on stdout with the site name, page count and URL', async () => {
    const s = await startServe(['--db', db]);
    try {
      const r = await fetch(`${s.url}?action=query&meta=siteinfo&siprop=general|statistics&format=json`);
      const si = (await r.json()) as any;
      const line = `wikiquery: ${si.query.general.sitename}, ${si.query.statistics.pages} pages, serving ${s.url}`;
      assert.equal(line, `wikiquery: Демовікі, ${si.query.statistics.pages} pages, serving ${s.url}`);
    } finally {
      s.child.kill('SIGTERM');
      assert.equal(await s.exited, 0);
    }
  });

  it('SIGTERM with an open keep-alive connection: exits 0 within the grace period', async () => {
    const s = await startServe(['--db', db, '--shutdown-grace', '30']);
    const agent = new http.Agent({ keepAlive: true });
    try {
      await new Promise<void>((resolve, reject) => {
        http
          .get(`${s.url}?action=query&meta=tokens&format=json`, { agent }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject);
      });
      // the connection stays open (keep-alive) and idle: before the fix it held the process for 72 s
      assert.equal(Object.values(agent.freeSockets).flat().length, 1);
      const t0 = Date.now();
      s.child.kill('SIGTERM');
      assert.equal(await s.exited, 0);
      // far below both the grace period and Fastify's 72 s keep-alive timeout
      assert.ok(Date.now() - t0 < 15_000, `exit took ${Date.now() - t0} ms`);
    } finally {
      agent.destroy();
    }
  });

  it('SIGTERM during a request: the request is answered with Connection: close, then the process exits', async () => {
    const s = await startServe(['--db', db, '--shutdown-grace', '30']);
    // a request whose body is still arriving when the signal comes
    const sock = net.connect(Number(new URL(s.url).port), '127.0.0.1');
    await new Promise<void>((r) => sock.on('connect', () => r()));
    const body = 'action=query&meta=tokens&format=json';
    sock.write(
      `POST /api.php HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 5)}`,
    );
    let answer = '';
    sock.on('data', (d) => (answer += d));
    await new Promise((r) => setTimeout(r, 200));
    s.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    sock.write(body.slice(5));
    await new Promise<void>((r) => sock.on('close', () => r()));
    assert.match(answer, /^HTTP\/1\.1 200 OK\r\n/);
    assert.match(answer, /\r\nConnection: close\r\n/i);
    assert.ok(answer.endsWith('{"query":{"tokens":{"csrftoken":"+\\\\"}}}'), answer);
    assert.equal(await s.exited, 0);
  });

  it('SIGHUP reopens the database and keeps serving', async () => {
    const s = await startServe(['--db', db, '--log-level', 'info']);
    try {
      const h1 = (await (await fetch(`${s.origin}/health`)).json()) as any;
      assert.equal(h1.generation, 1);
      s.child.kill('SIGHUP');
      let h2: any;
      for (let i = 0; i < 100; i++) {
        h2 = await (await fetch(`${s.origin}/health`)).json();
        if (h2.generation === 2) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.equal(h2.generation, 2);
      assert.equal(h2.import.id, h1.import.id);
      assert.equal((await fetch(`${s.url}?action=query&meta=tokens&format=json`)).status, 200);
      assert.equal(s.child.exitCode, null);
      // one structured line per request at info: method, action, modules, status, ms (written asynchronously)
      const apiLines = () =>
        s
          .stderr()
          .split('\n')
          .filter((l) => l.includes('"msg":"request"') && l.includes('api.php'))
          .map((l) => JSON.parse(l));
      for (let i = 0; i < 100 && apiLines().length === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const last = apiLines().at(-1);
      assert.equal(last.action, 'query');
      assert.deepEqual(last.modules, ['tokens']);
      assert.equal(last.status, 200);
      assert.equal(typeof last.ms, 'number');
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});

describe('zero-downtime re-import', () => {
  it('a re-import under a request loop loses no request, and the answers change', async () => {
    const demo = await demoDatabase();
    const work = path.join(scratch.path, 'reimport');
    mkdirSync(work);
    const db = path.join(work, 'wiki.sqlite');
    copyFileSync(demo.db, db);
    const s = await startServe(['--db', db, '--watch-interval', '0.2']);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const get = (q: string) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        http
          .get(`${s.url}?${q}`, { agent }, (res) => {
            let b = '';
            res.setEncoding('utf8');
            res.on('data', (d) => (b += d));
            res.on('end', () => resolve({ status: res.statusCode!, body: b }));
          })
          .on('error', reject);
      });
    const q = 'action=query&list=allpages&apprefix=Нова&format=json';
    const firstId = ((await (await fetch(`${s.origin}/health`)).json()) as any).import.id;
    let stop = false;
    let ok = 0;
    const failures: string[] = [];
    const answers = new Set<string>();
    const loop = async () => {
      while (!stop) {
        try {
          const r = await get(q);
          if (r.status !== 200) failures.push(`${r.status} ${r.body}`);
          else {
            ok++;
            answers.add(r.body);
          }
        } catch (e) {
          failures.push(String(e));
        }
      }
    };
    const loops = [loop(), loop(), loop(), loop()];
    try {
      const dump = readFileSync(path.join(demo.dir, 'demo', 'dump.xml'), 'utf8');
      const page =
        '<page><title>Нова сторінка</title><ns>0</ns><id>999999</id><revision><id>999999</id><timestamp>2020-01-01T00:00:00Z</timestamp><contributor><username>Admin</username><id>1</id></contributor><text xml:space="preserve">нова</text></revision></page>\n';
      writeFileSync(path.join(work, 'dump.xml'), dump.replace('</mediawiki>', page + '</mediawiki>'));
      const imp = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const c = spawn(process.execPath, [CLI, 'import', path.join(work, 'dump.xml'), '--db', db, '--quiet']);
        let out = '';
        c.stdout.on('data', (d) => (out += d));
        c.on('exit', (code) => resolve({ code, out }));
      });
      assert.equal(imp.code, 0);
      const newId = /import id (\S+)$/.exec(imp.out.trim())![1];
      let h: any;
      for (let i = 0; i < 200; i++) {
        h = await (await fetch(`${s.origin}/health`)).json();
        if (h.import.id === newId) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      assert.notEqual(newId, firstId);
      assert.equal(h.import.id, newId);
      assert.equal(h.generation, 2);
      // a few more requests on the new file
      const seen = ok;
      while (ok < seen + 20) await new Promise((r) => setTimeout(r, 10));
    } finally {
      stop = true;
      await Promise.all(loops);
      agent.destroy();
      s.child.kill('SIGTERM');
      await s.exited;
    }
    assert.deepEqual(failures, []);
    assert.ok(ok > 40, `${ok} requests`);
    assert.deepEqual(
      [...answers].sort(),
      [
        '{"query":{"allpages":[]}}',
        '{"query":{"allpages":[{"pageid":999999,"ns":0,"title":"\\u041d\\u043e\\u0432\\u0430 \\u0441\\u0442\\u043e\\u0440\\u0456\\u043d\\u043a\\u0430"}]}}',
      ].sort(),
    );
  });
});

describe('serve --workers: every core', () => {
  let db: string;
  before(async () => {
    db = (await demoDatabase()).db;
  });

  /** /health over a new connection of its own (no keep-alive pool), or null when the connection fails. */
  function health(origin: string): Promise<{ pid: number; generation: number } | null> {
    return new Promise((resolve) => {
      const req = http.get(`${origin}/health`, { agent: false, timeout: 5000 }, (res) => {
        let body = '';
        res.on('data', (d) => (body += d));
        res.on('end', () => resolve(JSON.parse(body)));
      });
      req.on('timeout', () => req.destroy());
      req.on('error', () => resolve(null));
    });
  }

  /** The pids of the processes that answered `n` fresh connections to /health. */
  async function answeringPids(origin: string, n: number): Promise<Set<number>> {
    const pids = new Set<number>();
    for (let i = 0; i < n; i++) {
      const h = await health(origin);
      if (h) pids.add(h.pid);
    }
    return pids;
  }

  it('N workers share the port, one ready line; a worker that dies is replaced; SIGTERM stops them all', async () => {
    const s = await startServe(['--db', db, '--workers', '2']);
    try {
      // connections are dealt to the workers in turn (cluster's round-robin)
      let pids = await answeringPids(s.origin, 8);
      assert.equal(pids.size, 2, [...pids].join(','));
      assert.ok(!pids.has(s.child.pid!), 'the primary answers no request');
      const victim = [...pids][0];
      process.kill(victim, 'SIGKILL');
      // the primary forks a replacement; requests keep being answered meanwhile
      const deadline = Date.now() + 20_000;
      do {
        pids = await answeringPids(s.origin, 6);
      } while (!(pids.size === 2 && !pids.has(victim)) && Date.now() < deadline);
      assert.equal(pids.size, 2, [...pids].join(','));
      assert.ok(!pids.has(victim));
      const r = await fetch(`${s.url}?action=query&meta=siteinfo&format=json`);
      assert.equal(r.status, 200);
    } finally {
      s.child.kill('SIGTERM');
    }
    assert.equal(await s.exited, 0);
  });

  it('SIGHUP reaches every worker (each reopens the database and keeps serving)', async () => {
    const s = await startServe(['--db', db, '--workers', '2']);
    try {
      assert.equal((await health(s.origin))?.generation, 1);
      s.child.kill('SIGHUP');
      const deadline = Date.now() + 10_000;
      let gens = new Set<number>();
      do {
        await new Promise((res) => setTimeout(res, 100));
        gens = new Set<number>();
        for (let i = 0; i < 6; i++) gens.add((await health(s.origin))?.generation ?? -1);
      } while (!(gens.size === 1 && gens.has(2)) && Date.now() < deadline);
      assert.deepEqual([...gens], [2]);
    } finally {
      s.child.kill('SIGTERM');
    }
    assert.equal(await s.exited, 0);
  });

  it('--workers takes a number of processes', () => {
    const bad = run(['serve', '--db', db, '--workers', '0']);
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^wikiquery serve: --workers 0: a number of processes from 1 to 256$/m);
  });
});
