/**
 * docs/operations.md as written: its systemd unit passes `systemd-analyze verify`, and its nginx snippet runs
 * in Debian's nginx in front of `wikiquery serve --trust-proxy 127.0.0.1` (public host name in the URLs,
 * raw UTF-8 request lines, compression, files, GET /, /health). `.ci/run` installs nginx; the nginx test
 * is skipped, saying so, only where it is not installed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import path from 'node:path';
import zlib from 'node:zlib';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { demoDatabase } from '../helpers/demo-server.js';
import { fileUrlPath } from '../../src/wiki/files.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'dist/src/cli/main.js');
const DEPLOY = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');

function block(lang: string): string {
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(DEPLOY);
  assert.ok(m, `docs/operations.md has a ${lang} block`);
  return m[1];
}

function which(cmd: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':').concat(['/usr/sbin', '/usr/bin', '/sbin'])) {
    const f = path.join(dir, cmd);
    if (existsSync(f)) return f;
  }
  return null;
}

let dir: string;
before(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'wikiquery-deploy-'));
});
after(() => rmSync(dir, { recursive: true, force: true }));

describe('the systemd unit', () => {
  const analyze = which('systemd-analyze');
  it('passes systemd-analyze verify', { skip: analyze ? false : 'systemd-analyze is not installed here' }, () => {
    const unit = block('ini');
    assert.match(unit, /^ExecReload=\/bin\/kill -HUP \$MAINPID$/m);
    assert.match(unit, /^KillSignal=SIGTERM$/m);
    // the documented unit, with this machine's node binary (verify checks that ExecStart's program exists)
    const file = path.join(dir, 'wikiquery.service');
    writeFileSync(file, unit.replace('ExecStart=/usr/bin/node ', `ExecStart=${process.execPath} `));
    const r = spawnSync(analyze!, ['verify', file], { encoding: 'utf8' });
    // verify reports unknown keys and bad values on stderr but still exits 0: both must be clean
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr.trim(), '');
  });
});

/** One raw HTTP/1.1 exchange; the body is returned undecoded. */
function exchange(port: number, request: Buffer): Promise<{ status: number; headers: Record<string, string>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const c = net.connect(port, '127.0.0.1', () => c.write(request));
    c.on('data', (d: Buffer) => chunks.push(d));
    c.on('error', reject);
    c.setTimeout(10_000, () => c.destroy(new Error('timeout')));
    c.on('close', () => {
      const all = Buffer.concat(chunks);
      const sep = all.indexOf('\r\n\r\n');
      const lines = all.subarray(0, sep).toString('latin1').split('\r\n');
      const headers: Record<string, string> = {};
      for (const l of lines.slice(1)) headers[l.slice(0, l.indexOf(':')).toLowerCase()] = l.slice(l.indexOf(':') + 1).trim();
      let body = all.subarray(sep + 4);
      if (headers['transfer-encoding'] === 'chunked') {
        const parts: Buffer[] = [];
        for (let at = 0; ; ) {
          const eol = body.indexOf('\r\n', at);
          const n = parseInt(body.subarray(at, eol).toString('latin1'), 16);
          if (!n) break;
          parts.push(body.subarray(eol + 2, eol + 2 + n));
          at = eol + 2 + n + 2;
        }
        body = Buffer.concat(parts);
      }
      resolve({ status: Number(lines[0].slice(9, 12)), headers, body });
    });
  });
}

const get = (port: number, target: string, headers: Record<string, string> = {}) =>
  exchange(
    port,
    Buffer.from(
      `GET ${target} HTTP/1.1\r\nHost: wiki.example.org\r\nConnection: close\r\n${Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('')}\r\n`,
    ),
  );

async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise((r) => s.close(r));
  return port;
}

describe('nginx in front of wikiquery', () => {
  const nginx = which('nginx');
  let server: ChildProcess | null = null;
  let proxy: ChildProcess | null = null;
  let port = 0;
  let direct = '';
  before(async () => {
    if (!nginx) return;
    const demo = await demoDatabase();
    server = spawn(
      process.execPath,
      [CLI, 'serve', '--db', demo.db, '--files', path.join(demo.dir, 'demo', 'files'), '--port', '0', '--trust-proxy', '127.0.0.1'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    const line = await new Promise<string>((resolve) => server!.stdout!.once('data', (d) => resolve(String(d))));
    direct = /serving (http:\/\/\S+)\/api\.php/.exec(line)![1];
    port = await freePort();
    const conf = path.join(dir, 'nginx');
    mkdirSync(conf);
    const snippet = block('nginx')
      .replace('server 127.0.0.1:8080;', `server ${new URL(direct).host};`)
      .replace('listen 80;', `listen 127.0.0.1:${port};`);
    assert.notEqual(snippet, block('nginx'));
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((t) => `    ${t}_temp_path ${conf}/${t};`).join('\n');
    writeFileSync(
      path.join(conf, 'nginx.conf'),
      `daemon off;\nmaster_process off;\npid ${conf}/nginx.pid;\nerror_log ${conf}/error.log warn;\nevents { worker_connections 64; }\nhttp {\n    access_log off;\n${temp}\n${snippet}\n}\n`,
    );
    proxy = spawn(nginx, ['-p', conf, '-c', path.join(conf, 'nginx.conf')], { stdio: ['ignore', 'inherit', 'inherit'] });
    for (let i = 0; i < 100; i++) {
      if (
        await new Promise<boolean>((r) =>
          net
            .connect(port, '127.0.0.1')
            .on('connect', function (this: net.Socket) {
              this.destroy();
              r(true);
            })
            .on('error', () => r(false)),
        )
      )
        return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`nginx did not start: ${readFileSync(path.join(conf, 'error.log'), 'utf8')}`);
  });
  after(() => {
    proxy?.kill('SIGTERM');
    server?.kill('SIGTERM');
  });
  const skip = nginx ? false : "nginx is not installed (Debian's nginx package; .ci/run installs it)";

  it('file and page URLs name the public host', { skip }, async () => {
    const r = await get(
      port,
      '/api.php?action=query&prop=imageinfo|info&inprop=url&iiprop=url&titles=%D0%A4%D0%B0%D0%B9%D0%BB:Linux_logo.png&format=json',
    );
    assert.equal(r.status, 200);
    const page = Object.values(JSON.parse(r.body.toString()).query.pages)[0] as any;
    assert.equal(page.imageinfo[0].url, `http://wiki.example.org${fileUrlPath('Linux_logo.png')}`);
    assert.equal(page.fullurl, 'http://wiki.example.org/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:Linux_logo.png');
    // the file itself, through the proxy
    const img = await get(port, fileUrlPath('Linux_logo.png'));
    assert.equal(img.status, 200);
    assert.equal(img.headers['content-type'], 'image/png');
    const bytes = await (await fetch(`${direct}${fileUrlPath('Linux_logo.png')}`)).arrayBuffer();
    assert.deepEqual(img.body, Buffer.from(bytes));
  });

  it('raw UTF-8 request lines pass through and are answered', { skip }, async () => {
    const expected = await (
      await fetch(`${direct}/api.php?action=browsebysubject&subject=${encodeURIComponent('Київ')}&format=json`)
    ).text();
    const r = await exchange(
      port,
      Buffer.from(
        'GET /api.php?action=browsebysubject&subject=Київ&format=json HTTP/1.1\r\nHost: wiki.example.org\r\nConnection: close\r\n\r\n',
      ),
    );
    assert.equal(r.status, 200);
    assert.equal(r.body.toString('utf8'), expected);
  });

  it('compressed answers pass through; GET / and /health', { skip }, async () => {
    const target = '/api.php?action=query&list=allpages&aplimit=max&format=json';
    const plain = await get(port, target);
    for (const [enc, decode] of [
      ['gzip', zlib.gunzipSync],
      ['br', zlib.brotliDecompressSync],
    ] as const) {
      const r = await get(port, target, { 'Accept-Encoding': enc });
      assert.equal(r.headers['content-encoding'], enc);
      assert.deepEqual(decode(r.body), plain.body);
    }
    const root = await get(port, '/');
    assert.equal(root.status, 301);
    assert.equal(root.headers.location, '/index.php');
    const health = await get(port, '/health');
    assert.equal(health.status, 200);
    assert.equal(JSON.parse(health.body.toString()).status, 'ok');
  });
});
