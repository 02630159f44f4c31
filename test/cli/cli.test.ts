/**
 * `wikiquery` as an operator runs it, as a child process: the ready line, stop and reload signals, a
 * re-import under a request loop, dumps as they come (.xml, .gz, .bz2 multistream, stdin, and what is
 * refused), help, version, environment variables, and every CLI error with its exit code.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { demoDatabase } from '../helpers/demo-server.js';
import { DumpSourceError, openDump } from '../../src/importer/dump-source.js';

const CLI = path.resolve(import.meta.dirname, '../../src/cli/main.js');
const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures');
const SMALL = path.join(FIXTURES, 'small-dump.xml');

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wikiquery-cli-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

function run(args: string[], opts: { input?: Buffer | string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: opts.input,
    env: { ...process.env, ...opts.env },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

interface Served {
  child: ChildProcess;
  url: string;
  origin: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `wikiquery serve …` until its ready line; the URL is read from that line. */
async function startServe(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
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
  const m = /^wikiquery: (.+), (\d+) pages, serving (http:\/\/[^ ]+\/api\.php)$/.exec(line);
  assert.ok(m, `ready line: ${line}`);
  return { child, url: m[3], origin: new URL(m[3]).origin, stderr: () => err, exited };
}

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
    const work = path.join(dir, 'reimport');
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

describe('import: dumps as they come', () => {
  const pagesOf = (db: string) => {
    const r = run(['import', SMALL, '--db', db, '--quiet']);
    return r;
  };

  it('plain, gzip, bzip2 (multistream) and stdin give the same wiki; the format is read from the content', () => {
    const plain = pagesOf(path.join(dir, 'plain.sqlite'));
    assert.equal(plain.status, 0, plain.stderr);
    assert.match(
      plain.stdout,
      /^Imported 5 pages, 0 files, 0 messages, \d+ links in [\d.]+ s \(\d+ pages\/s\), peak RSS \d+ MB, search index [\d.]+ MB; import id \d{14}-[0-9a-f]{8}\n$/,
    );
    // names that say nothing (or the wrong thing) about the content
    const gz = path.join(dir, 'dump.data');
    writeFileSync(gz, zlib.gzipSync(readFileSync(SMALL)));
    const bz = path.join(dir, 'dump.xml');
    copyFileSync(SMALL + '.bz2', bz);
    for (const [what, args, input] of [
      ['gzip', ['import', gz], undefined],
      ['bzip2', ['import', bz], undefined],
      ['stdin', ['import', '-'], readFileSync(SMALL)],
      ['gzip on stdin', ['import', '-'], zlib.gzipSync(readFileSync(SMALL))],
      ['bzip2 on stdin', ['import', '-'], readFileSync(SMALL + '.bz2')],
    ] as const) {
      const db = path.join(dir, `${what.replace(/ /g, '-')}.sqlite`);
      const r = run([...args, '--db', db, '--quiet'], { input });
      assert.equal(r.status, 0, `${what}: ${r.stderr}`);
      assert.match(r.stdout, /^Imported 5 pages, 0 files, 0 messages, /, what);
      assert.equal(r.stdout.replace(/ in .*/, ''), plain.stdout.replace(/ in .*/, ''), what);
    }
  });

  it('bzip2 without a system decoder: the in-process one reads multistream files and reports damage', async () => {
    const read = async (file: string) => {
      const src = await openDump(file, { bzip2: 'js' });
      assert.equal(src.compression, 'bzip2');
      const parts: Buffer[] = [];
      for await (const c of src.stream) parts.push(c);
      return Buffer.concat(parts);
    };
    assert.deepEqual(await read(SMALL + '.bz2'), readFileSync(SMALL));
    const cut = path.join(dir, 'cut-js.bz2');
    writeFileSync(cut, readFileSync(SMALL + '.bz2').subarray(0, 1000));
    await assert.rejects(
      read(cut),
      (e: Error) => e instanceof DumpSourceError && /^.*cut-js\.bz2: corrupt bzip2 data \(.+\)$/.test(e.message),
    );
  });

  it('refuses what is no dump, saying how to unpack other archives; FILE stays as it was', () => {
    const db = path.join(dir, 'refused.sqlite');
    const cases: Array<[string, Buffer, RegExp]> = [
      [
        'a.7z',
        Buffer.from([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c, 0, 4]),
        /a\.7z: a 7-Zip archive, which wikiquery does not read; decompress it on the fly: 7z e -so DUMP\.7z \| wikiquery import - --db FILE$/,
      ],
      [
        'a.xz',
        Buffer.from([0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00, 0, 0]),
        /a\.xz: xz-compressed, .*: xz -dc DUMP\.xz \| wikiquery import - --db FILE$/,
      ],
      ['a.txt', Buffer.from('hello, world\n'), /a\.txt: not a MediaWiki XML dump \(neither XML nor gzip nor bzip2 data\)$/],
      ['empty.xml', Buffer.alloc(0), /empty\.xml: empty, not a dump$/],
      ['cut.xml.bz2', readFileSync(SMALL + '.bz2').subarray(0, 1000), /cut\.xml\.bz2: corrupt bzip2 data \(.+\)$/],
      ['cut.xml.gz', zlib.gzipSync(readFileSync(SMALL)).subarray(0, 500), /cut\.xml\.gz: corrupt gzip data \(unexpected end of file\)$/],
    ];
    for (const [name, bytes, re] of cases) {
      const f = path.join(dir, name);
      writeFileSync(f, bytes);
      const r = run(['import', f, '--db', db, '--quiet']);
      assert.equal(r.status, 1, name);
      const lines = r.stderr.trim().split('\n');
      assert.equal(lines.length, 1, r.stderr);
      assert.match(lines[0], new RegExp(`^wikiquery import: .*${re.source}`), name);
      assert.equal(existsSync(db), false, name);
      assert.deepEqual(
        readdirSync(dir).filter((n) => n.startsWith('refused.sqlite')),
        [],
        name,
      );
    }
  });

  it('says what a wiki imported without --files or --messages will lack', () => {
    const r = run(['import', SMALL, '--db', path.join(dir, 'notes.sqlite')]);
    assert.equal(r.status, 0);
    assert.match(r.stderr, /^note: no --files: the wiki will have no files/m);
    assert.match(
      r.stderr,
      /^note: no --messages and no MediaWiki: pages in the dump: meta=allmessages and every interface text the API renders .* will be empty; give --messages the languages\/i18n folder of a MediaWiki installation/m,
    );
    const demo = path.join(dir, 'with.sqlite');
    const msgDir = path.join(dir, 'i18n');
    mkdirSync(msgDir);
    writeFileSync(path.join(msgDir, 'uk.json'), JSON.stringify({ mainpage: 'Головна сторінка', august: 'серпень' }));
    // MediaWiki's images/ as it is: hashed directories of uploads, and directories that hold none
    const filesDir = path.join(dir, 'images');
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
    for (const rel of [
      '0/01/Real.png',
      'archive/0/01/20150101000000!Real.png',
      'thumb/0/01/Real.png/120px-Real.png',
      'temp/x.png',
      'lockdir/x.lock',
      'deleted/a/b/c.png',
    ]) {
      mkdirSync(path.dirname(path.join(filesDir, rel)), { recursive: true });
      writeFileSync(path.join(filesDir, rel), png);
    }
    const w = run(['import', SMALL, '--db', demo, '--messages', msgDir, '--files', filesDir]);
    assert.equal(w.status, 0, w.stderr);
    assert.doesNotMatch(w.stderr, /^note:/m);
    assert.match(w.stdout, /^Imported 5 pages, 1 files, 2 messages, /);
  });
});

describe('CLI: help, version, environment, errors', () => {
  let db: string;
  before(async () => {
    db = (await demoDatabase()).db;
  });

  it('--help for wikiquery and each command; --version', () => {
    const top = run(['--help']);
    assert.equal(top.status, 0);
    assert.match(top.stdout, /^usage: wikiquery <command> \[options\]/);
    assert.match(top.stdout, /wikiquery import DUMP --db FILE/);
    assert.match(top.stdout, /wikiquery serve --db FILE/);
    for (const cmd of ['serve', 'import']) {
      for (const flag of ['--help', '-h']) {
        const r = run([cmd, flag]);
        assert.equal(r.status, 0, r.stderr);
        assert.equal(r.stderr, '');
        assert.match(r.stdout, new RegExp(`^usage: wikiquery ${cmd} `));
        assert.match(r.stdout, /--db FILE\|URL .*\(env WIKIQUERY_DB\)/);
      }
    }
    assert.match(run(['serve', '--help']).stdout, /--cache-mb MB +response cache size \(0: off\) \(default 64; env WIKIQUERY_CACHE_MB\)/);
    const pkg = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../../../package.json'), 'utf8'));
    for (const v of ['--version', '-V']) assert.deepEqual(run([v]), { status: 0, stdout: `wikiquery ${pkg.version}\n`, stderr: '' });
    const none = run([]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /^usage: /);
    const unknown = run(['frobnicate']);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /^wikiquery: unknown command 'frobnicate'/);
    // analysis threads are bounded: each holds its own caches and connection
    for (const w of ['999', '33', 'two']) {
      const many = run(['import', 'missing.xml', '--db', path.join(dir, 'never.sqlite'), '--workers', w]);
      assert.equal(many.status, 2, w);
      assert.match(many.stderr, /--workers .*: a number of threads from 0 to 32/, w);
    }
  });

  it('every option can come from the environment; the command line wins', async () => {
    const s = await startServe(['--db', db], {
      WIKIQUERY_CACHE_MB: '0',
      WIKIQUERY_CORS_ORIGIN: 'a.example.org b.example.org',
      WIKIQUERY_HOST: '127.0.0.1',
    });
    try {
      const r = await fetch(`${s.url}?action=query&meta=tokens&format=json&origin=https://b.example.org`, {
        headers: { Origin: 'https://b.example.org' },
      });
      assert.equal(r.headers.get('access-control-allow-origin'), 'https://b.example.org');
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
    // WIKIQUERY_PORT is used when --port is not given (here: 0, any free port, via the environment)
    const child = spawn(process.execPath, [CLI, 'serve', '--db', db], {
      env: { ...process.env, WIKIQUERY_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const line = await new Promise<string>((resolve) => child.stdout.once('data', (d) => resolve(String(d))));
    assert.match(line, /serving http:\/\/127\.0\.0\.1:\d+\/api\.php/);
    assert.doesNotMatch(line, /:8080\//);
    child.kill('SIGTERM');
    await new Promise((r) => child.on('exit', r));
    const bad = run(['serve', '--db', db], { env: { WIKIQUERY_DEBUG: 'maybe' } });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^wikiquery serve: WIKIQUERY_DEBUG=maybe: expected 1 or 0 \(true or false\)$/m);
  });

  it('serve: clear one-line errors with non-zero exit codes', async () => {
    const notWiki = path.join(dir, 'other.sqlite');
    // an SQLite file of another program
    const r0 = spawnSync(process.execPath, [
      '-e',
      `const D=require(${JSON.stringify(path.resolve(import.meta.dirname, '../../../node_modules/better-sqlite3'))});new D(${JSON.stringify(notWiki)}).exec('CREATE TABLE t(x)')`,
    ]);
    assert.equal(r0.status, 0, String(r0.stderr));
    const text = path.join(dir, 'notes.txt');
    writeFileSync(text, 'hello\n'.repeat(200));
    const cases: Array<[string[], number, RegExp]> = [
      [['serve'], 2, /^wikiquery serve: --db FILE is required$/],
      [
        ['serve', '--db', path.join(dir, 'missing.sqlite')],
        1,
        /^wikiquery serve: --db .*missing\.sqlite: no such file \(run wikiquery import first\)$/,
      ],
      [['serve', '--db', dir], 1, /^wikiquery serve: --db .*: is a directory, not a database file$/],
      [
        ['serve', '--db', notWiki],
        1,
        /^wikiquery serve: --db .*other\.sqlite: not a wikiquery database \(an SQLite file without wikiquery tables\)$/,
      ],
      [['serve', '--db', text], 1, /^wikiquery serve: --db .*notes\.txt: not a wikiquery database \(not an SQLite file\)$/],
      [['serve', '--db', db, '--port', 'abc'], 2, /^wikiquery serve: --port abc: not a port number \(0-65535\)$/],
      [['serve', '--db', db, '--port', '70000'], 2, /^wikiquery serve: --port 70000: not a port number \(0-65535\)$/],
      [['serve', '--db', db, '--cache-mb=-1'], 2, /^wikiquery serve: --cache-mb -1: expected a number of megabytes/],
      [
        ['serve', '--db', db, '--log-level', 'loud'],
        2,
        /^wikiquery serve: --log-level loud: one of fatal, error, warn, info, debug, trace, silent$/,
      ],
      [
        ['serve', '--db', db, '--trust-proxy', 'proxy.example'],
        2,
        /^wikiquery serve: --trust-proxy proxy\.example: expected true, a hop count, or proxy addresses/,
      ],
      [['serve', '--db', db, '--bogus'], 2, /^wikiquery serve: unknown option --bogus$/],
      [['serve', '--db'], 2, /^wikiquery serve: --db needs a value$/],
      [['serve', '--db', db, 'extra'], 2, /^wikiquery serve: unexpected argument extra$/],
    ];
    for (const [args, code, re] of cases) {
      const r = run(args);
      assert.equal(r.status, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr.split('\n')[0], re, args.join(' '));
      assert.equal(r.stdout, '');
    }
    // the port is taken
    const blocker = net.createServer();
    await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', () => r()));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      const r = await new Promise<{ code: number | null; stderr: string }>((resolve) => {
        const c = spawn(process.execPath, [CLI, 'serve', '--db', db, '--port', String(port)]);
        let stderr = '';
        c.stderr.on('data', (d) => (stderr += d));
        c.on('exit', (code) => resolve({ code, stderr }));
      });
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        `wikiquery serve: 127.0.0.1:${port}: address already in use (another server is listening there; choose another --port)\n`,
      );
    } finally {
      blocker.close();
    }
  });

  it('import: a missing dump, an unusable --db, --files or --messages are reported before anything is written', () => {
    const notWiki = path.join(dir, 'precious.txt');
    writeFileSync(notWiki, 'my notes\n');
    const cases: Array<[string[], number, RegExp]> = [
      [['import', '--db', path.join(dir, 'x.sqlite')], 2, /^wikiquery import: no dump given \(a file, or - for standard input\)$/],
      [['import', SMALL], 2, /^wikiquery import: --db FILE is required$/],
      [['import', SMALL, SMALL, '--db', 'x'], 2, /^wikiquery import: one dump at a time/],
      [['import', path.join(dir, 'nope.xml'), '--db', path.join(dir, 'x.sqlite')], 1, /^wikiquery import: .*nope\.xml: no such file$/],
      [['import', dir, '--db', path.join(dir, 'x.sqlite')], 1, /^wikiquery import: .*: is a directory, not a dump$/],
      [
        ['import', SMALL, '--db', dir],
        1,
        /^wikiquery import: --db .*: is a directory; give the database file's path \(e\.g\. .*wiki\.sqlite\)$/,
      ],
      [
        ['import', SMALL, '--db', path.join(dir, 'no', 'such', 'dir', 'w.sqlite')],
        1,
        /^wikiquery import: --db .*: directory .*dir does not exist$/,
      ],
      [
        ['import', SMALL, '--db', notWiki],
        1,
        /^wikiquery import: --db .*precious\.txt: not a wikiquery database \(not an SQLite file\); refusing to replace it$/,
      ],
      [
        ['import', SMALL, '--db', path.join(dir, 'x.sqlite'), '--files', path.join(dir, 'nofiles')],
        1,
        /^wikiquery import: --files .*nofiles: not a directory$/,
      ],
      [
        ['import', SMALL, '--db', path.join(dir, 'x.sqlite'), '--messages', SMALL],
        1,
        /^wikiquery import: --messages .*small-dump\.xml: not a directory$/,
      ],
      [
        ['import', SMALL, '--db', path.join(dir, 'x.sqlite'), '--lang', 'Ukrainian'],
        2,
        /^wikiquery import: --lang Ukrainian: not a language code$/,
      ],
    ];
    for (const [args, code, re] of cases) {
      const r = run([...args, '--quiet']);
      assert.equal(r.status, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr.split('\n')[0], re, args.join(' '));
      assert.equal(r.stdout, '');
    }
    assert.equal(readFileSync(notWiki, 'utf8'), 'my notes\n');
    assert.equal(existsSync(path.join(dir, 'x.sqlite')), false);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.includes('.tmp-')),
      [],
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
