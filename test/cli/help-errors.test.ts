/**
 * The command line itself: help, version, environment variables, and every CLI error with its exit code.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { demoDatabase } from '../helpers/demo-server.js';
import { CLI, run, scratchDirectory, SMALL, startServe } from '../helpers/cli.js';

const scratch = scratchDirectory('wikiquery-cli-');

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
      const many = run(['import', 'missing.xml', '--db', path.join(scratch.path, 'never.sqlite'), '--workers', w]);
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
    const notWiki = path.join(scratch.path, 'other.sqlite');
    // an SQLite file of another program
    const r0 = spawnSync(process.execPath, [
      '-e',
      `const D=require(${JSON.stringify(path.resolve(import.meta.dirname, '../../../node_modules/better-sqlite3'))});new D(${JSON.stringify(notWiki)}).exec('CREATE TABLE t(x)')`,
    ]);
    assert.equal(r0.status, 0, String(r0.stderr));
    const text = path.join(scratch.path, 'notes.txt');
    writeFileSync(text, 'hello\n'.repeat(200));
    const cases: Array<[string[], number, RegExp]> = [
      [['serve'], 2, /^wikiquery serve: --db FILE is required$/],
      [
        ['serve', '--db', path.join(scratch.path, 'missing.sqlite')],
        1,
        /^wikiquery serve: --db .*missing\.sqlite: no such file \(run wikiquery import first\)$/,
      ],
      [['serve', '--db', scratch.path], 1, /^wikiquery serve: --db .*: is a directory, not a database file$/],
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
    const notWiki = path.join(scratch.path, 'precious.txt');
    writeFileSync(notWiki, 'my notes\n');
    const cases: Array<[string[], number, RegExp]> = [
      [['import', '--db', path.join(scratch.path, 'x.sqlite')], 2, /^wikiquery import: no dump given \(a file, or - for standard input\)$/],
      [['import', SMALL], 2, /^wikiquery import: --db FILE is required$/],
      [['import', SMALL, SMALL, '--db', 'x'], 2, /^wikiquery import: one dump at a time/],
      [
        ['import', path.join(scratch.path, 'nope.xml'), '--db', path.join(scratch.path, 'x.sqlite')],
        1,
        /^wikiquery import: .*nope\.xml: no such file$/,
      ],
      [['import', scratch.path, '--db', path.join(scratch.path, 'x.sqlite')], 1, /^wikiquery import: .*: is a directory, not a dump$/],
      [
        ['import', SMALL, '--db', scratch.path],
        1,
        /^wikiquery import: --db .*: is a directory; give the database file's path \(e\.g\. .*wiki\.sqlite\)$/,
      ],
      [
        ['import', SMALL, '--db', path.join(scratch.path, 'no', 'such', 'scratch.path', 'w.sqlite')],
        1,
        /^wikiquery import: --db .*: directory .*scratch.path does not exist$/,
      ],
      [
        ['import', SMALL, '--db', notWiki],
        1,
        /^wikiquery import: --db .*precious\.txt: not a wikiquery database \(not an SQLite file\); refusing to replace it$/,
      ],
      [
        ['import', SMALL, '--db', path.join(scratch.path, 'x.sqlite'), '--files', path.join(scratch.path, 'nofiles')],
        1,
        /^wikiquery import: --files .*nofiles: not a directory$/,
      ],
      [
        ['import', SMALL, '--db', path.join(scratch.path, 'x.sqlite'), '--messages', SMALL],
        1,
        /^wikiquery import: --messages .*small-dump\.xml: not a directory$/,
      ],
      [
        ['import', SMALL, '--db', path.join(scratch.path, 'x.sqlite'), '--lang', 'Ukrainian'],
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
    assert.equal(existsSync(path.join(scratch.path, 'x.sqlite')), false);
    assert.deepEqual(
      readdirSync(scratch.path).filter((n) => n.includes('.tmp-')),
      [],
    );
  });
});
