/**
 * The server as a service, over HTTP: compression (bodies decode to the plain answer, cached answers
 * keep their compressed forms), CORS as MediaWiki 1.25's ApiMain::handleCORS, X-Forwarded-* behind a
 * trusted proxy, raw UTF-8 and malformed request lines, GET /, /health, /metrics, and replacing the
 * database while serving.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import zlib from 'node:zlib';
import { copyFileSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { importWiki } from '../../src/importer/import.js';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';
import { fileUrlPath } from '../../src/wiki/files.js';
import { rescueRequest } from '../../src/http/client-error.js';
import { isNfc, queryPairs } from '../../src/http/params.js';
import { compareBytes } from '../../src/wiki/collation.js';

/** Bytes of one raw HTTP/1.1 exchange (the request sent as given, the connection closed by the server). */
function rawRequest(port: number, request: Buffer): Promise<{ status: number; head: string; body: string }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const c = net.connect(port, '127.0.0.1', () => c.write(request));
    c.on('data', (d: Buffer) => chunks.push(d));
    c.on('error', reject);
    c.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const sep = text.indexOf('\r\n\r\n');
      resolve({ status: Number(text.slice(9, 12)), head: text.slice(0, sep), body: text.slice(sep + 4) });
    });
    c.setTimeout(10_000, () => c.destroy(new Error('timeout')));
  });
}

function portOf(s: DemoServer): number {
  return Number(new URL(s.url).port);
}

describe('compression', () => {
  let s: DemoServer;
  let nocache: DemoServer;
  before(async () => {
    s = await startDemoServer();
    nocache = await startDemoServer({ server: { cacheMb: 0 } });
  });
  after(async () => {
    await s.close();
    await nocache.close();
  });
  const big = { action: 'query', list: 'allpages', aplimit: 'max', format: 'json' };

  for (const [name, server] of [
    ['cache on', () => s],
    ['cache off', () => nocache],
  ] as const) {
    it(`gzip and br bodies decode to the plain body (${name})`, async () => {
      const srv = server();
      const plain = await srv.get(big, { headers: { 'accept-encoding': 'identity' } });
      assert.equal(plain.headers.get('content-encoding'), null);
      assert.ok(plain.text.length > 10_000);
      for (const [enc, decode] of [
        ['gzip', zlib.gunzipSync],
        ['br', zlib.brotliDecompressSync],
      ] as const) {
        for (let i = 0; i < 2; i++) {
          // fetch would decode by itself: read the raw bytes over a socket instead
          const q = new URLSearchParams(big).toString();
          const raw = await rawBytes(portOf(srv), `/api.php?${q}`, enc);
          assert.equal(raw.headers['content-encoding'], enc);
          assert.match(raw.headers.vary ?? '', /accept-encoding/i);
          assert.ok(raw.body.length < plain.text.length / 3, `${enc}: ${raw.body.length} bytes`);
          assert.equal(decode(raw.body).toString('utf8'), plain.text);
        }
      }
    });
  }

  it('the client weighs the encodings; small answers go uncompressed', async () => {
    const q = new URLSearchParams(big).toString();
    const raw = await rawBytes(portOf(s), `/api.php?${q}`, 'br;q=0.5, gzip;q=1');
    assert.equal(raw.headers['content-encoding'], 'gzip');
    const small = await rawBytes(portOf(s), '/api.php?action=query&meta=tokens&format=json', 'gzip, br');
    assert.equal(small.headers['content-encoding'], undefined);
    assert.equal(small.body.toString(), '{"query":{"tokens":{"csrftoken":"+\\\\"}}}');
  });
});

/** GET over a raw socket with Accept-Encoding, the body not decoded. */
async function rawBytes(port: number, path: string, acceptEncoding: string): Promise<{ headers: Record<string, string>; body: Buffer }> {
  const chunks: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const c = net.connect(port, '127.0.0.1', () =>
      c.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept-Encoding: ${acceptEncoding}\r\nConnection: close\r\n\r\n`),
    );
    c.on('data', (d: Buffer) => chunks.push(d));
    c.on('error', reject);
    c.on('close', () => resolve());
  });
  const all = Buffer.concat(chunks);
  const sep = all.indexOf('\r\n\r\n');
  const headers: Record<string, string> = {};
  for (const line of all.subarray(0, sep).toString('latin1').split('\r\n').slice(1)) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  let body = all.subarray(sep + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    const parts: Buffer[] = [];
    let at = 0;
    for (;;) {
      const eol = body.indexOf('\r\n', at);
      const n = parseInt(body.subarray(at, eol).toString('latin1'), 16);
      if (n === 0) break;
      parts.push(body.subarray(eol + 2, eol + 2 + n));
      at = eol + 2 + n + 2;
    }
    body = Buffer.concat(parts);
  }
  return { headers, body };
}

describe('CORS (ApiMain::handleCORS of 1.25)', () => {
  let s: DemoServer;
  before(async () => {
    s = await startDemoServer({
      server: { cors: { allow: ['*.example.org', 'tools.example.net', 'localhost:30??'], except: ['evil.example.org'] } },
    });
  });
  after(() => s.close());
  const url = (origin: string, extra = '') => `${s.url}?action=query&meta=tokens&format=json&origin=${encodeURIComponent(origin)}${extra}`;
  const CORS_HEADERS = [
    'access-control-allow-origin',
    'access-control-allow-credentials',
    'timing-allow-origin',
    'access-control-expose-headers',
    'access-control-allow-methods',
    'access-control-allow-headers',
  ];
  const corsOf = (h: Headers) => Object.fromEntries(CORS_HEADERS.filter((n) => h.has(n)).map((n) => [n, h.get(n)]));

  it('an allowed origin gets exactly the 1.25 headers', async () => {
    for (const origin of ['https://www.example.org', 'http://a.b.example.org', 'https://tools.example.net', 'http://localhost:3000']) {
      const r = await fetch(url(origin), { headers: { Origin: origin } });
      assert.equal(r.status, 200);
      assert.deepEqual(
        corsOf(r.headers),
        {
          'access-control-allow-origin': origin,
          'access-control-allow-credentials': 'true',
          'timing-allow-origin': origin,
          'access-control-expose-headers': 'MediaWiki-API-Error, Retry-After, X-Database-Lag',
        },
        origin,
      );
      assert.equal(r.headers.get('vary'), 'Origin');
      assert.equal(await r.text(), '{"query":{"tokens":{"csrftoken":"+\\\\"}}}');
    }
  });

  it('an origin that is not allowed is served without CORS headers', async () => {
    // the patterns match the whole origin: no prefix or suffix tricks, no other port, the exception wins
    for (const origin of [
      'https://example.org.evil.com',
      'https://evilexample.org',
      'https://evil.example.org',
      'http://localhost:8080',
      'ftp://www.example.org',
      'https://tools.example.net:8443',
    ]) {
      const r = await fetch(url(origin), { headers: { Origin: origin } });
      assert.equal(r.status, 200, origin);
      assert.deepEqual(corsOf(r.headers), {}, origin);
      assert.equal(r.headers.get('vary'), 'Origin');
    }
  });

  it('several origins in the header: allowed by none (a redirect chain)', async () => {
    const r = await fetch(url('https://www.example.org'), { headers: { Origin: 'https://www.example.org https://other.example.org' } });
    assert.equal(r.status, 200);
    assert.deepEqual(corsOf(r.headers), {});
  });

  it('origin not in the Origin header, or no header: 403 with the plain text', async () => {
    for (const headers of [{ Origin: 'https://other.example.org' }, {}] as Array<Record<string, string>>) {
      const r = await fetch(url('https://www.example.org'), { headers });
      assert.equal(r.status, 403);
      assert.equal(r.headers.get('cache-control'), 'no-cache');
      assert.deepEqual(corsOf(r.headers), {});
      assert.equal(await r.text(), "'origin' parameter does not match Origin header\n");
    }
  });

  it('preflight: allowed methods and headers are echoed; anything else gets no CORS headers', async () => {
    const origin = 'https://www.example.org';
    const pre = (method: string, headers?: string) =>
      fetch(url(origin), {
        method: 'OPTIONS',
        headers: {
          Origin: origin,
          'Access-Control-Request-Method': method,
          ...(headers ? { 'Access-Control-Request-Headers': headers } : {}),
        },
      });
    let r = await pre('POST', 'Api-User-Agent, content-type');
    assert.equal(r.status, 200);
    assert.deepEqual(corsOf(r.headers), {
      'access-control-allow-headers': 'Api-User-Agent, content-type',
      'access-control-allow-methods': 'POST, GET',
      'access-control-allow-origin': origin,
      'access-control-allow-credentials': 'true',
      'timing-allow-origin': origin,
    });
    assert.equal(await r.text(), '');
    r = await pre('GET');
    assert.equal(r.headers.get('access-control-allow-methods'), 'POST, GET');
    assert.equal(r.headers.get('access-control-allow-headers'), null);
    for (const [method, headers] of [
      ['PUT', undefined],
      ['post', undefined],
      ['GET', 'X-Custom'],
    ] as const) {
      r = await pre(method, headers);
      assert.equal(r.status, 200);
      assert.deepEqual(corsOf(r.headers), {}, `${method} ${headers}`);
      // 1.25 returns before adding Vary in these cases
      assert.equal(r.headers.get('vary'), null);
    }
  });

  it('without --cors-origin nothing is allowed (the default $wgCrossSiteAJAXdomains is empty)', async () => {
    const plain = await startDemoServer();
    try {
      const r = await fetch(`${plain.url}?action=query&meta=tokens&format=json&origin=https://www.example.org`, {
        headers: { Origin: 'https://www.example.org' },
      });
      assert.equal(r.status, 200);
      assert.deepEqual(corsOf(r.headers), {});
    } finally {
      await plain.close();
    }
  });
});

describe('behind a reverse proxy', () => {
  let trusted: DemoServer;
  let untrusted: DemoServer;
  before(async () => {
    trusted = await startDemoServer({ server: { trustProxy: ['127.0.0.1'] } });
    untrusted = await startDemoServer();
  });
  after(async () => {
    await trusted.close();
    await untrusted.close();
  });
  const forwarded = { 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'wiki.example.org', 'X-Forwarded-For': '203.0.113.7' };
  const imageUrl = async (s: DemoServer, headers: Record<string, string>) => {
    const r = await s.get({ action: 'query', prop: 'imageinfo', iiprop: 'url', titles: 'Файл:Linux_logo.png' }, { headers });
    return (Object.values(r.json.query.pages)[0] as any).imageinfo[0] as { url: string; descriptionurl: string };
  };

  it('--trust-proxy: file and page URLs name the scheme and host the client used', async () => {
    const info = await imageUrl(trusted, forwarded);
    assert.equal(info.url, `https://wiki.example.org${fileUrlPath('Linux_logo.png')}`);
    assert.equal(info.descriptionurl, 'https://wiki.example.org/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:Linux_logo.png');
    // the same URL without the headers is another answer, not the cached one
    const direct = await imageUrl(trusted, {});
    assert.equal(direct.url, `${new URL(trusted.url).origin}${fileUrlPath('Linux_logo.png')}`);
    const r = await trusted.get({ action: 'query', meta: 'userinfo' }, { headers: forwarded });
    assert.equal(r.json.query.userinfo.name, '203.0.113.7');
    const err = await trusted.get({ action: 'nosuchaction' }, { headers: forwarded });
    assert.equal(err.json.error['*'], 'See https://wiki.example.org/api.php for API usage');
  });

  it('without --trust-proxy the headers are ignored', async () => {
    const info = await imageUrl(untrusted, forwarded);
    assert.equal(info.url, `${new URL(untrusted.url).origin}${fileUrlPath('Linux_logo.png')}`);
    const r = await untrusted.get({ action: 'query', meta: 'userinfo' }, { headers: forwarded });
    assert.equal(r.json.query.userinfo.name, '127.0.0.1');
  });
});

describe('request lines as clients send them', () => {
  let s: DemoServer;
  before(async () => {
    s = await startDemoServer();
  });
  after(() => s.close());

  it('raw UTF-8 in the URL is answered as its percent-encoded form', async () => {
    const encoded = await s.get({ action: 'browsebysubject', subject: 'Київ' });
    assert.equal(encoded.status, 200);
    const r = await rawRequest(
      portOf(s),
      Buffer.from(
        'GET /api.php?action=browsebysubject&subject=Київ&format=json HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n\r\n',
      ),
    );
    assert.equal(r.status, 200);
    assert.equal(r.body, encoded.text);
    assert.match(r.head, /\r\nConnection: close/i);
    // as curl sends it, with characters nginx passes through as well
    const r2 = await rawRequest(
      portOf(s),
      Buffer.from('GET /api.php?action=query&list=allcategories&acprefix=Мі&format=json&x={"a"} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
    );
    const e2 = await s.get({ action: 'query', list: 'allcategories', acprefix: 'Мі', x: '{"a"}' });
    assert.equal(r2.body, e2.text);
  });

  it('a POST with a raw UTF-8 query string keeps its body', async () => {
    const body = 'action=browsebysubject&format=json';
    const r = await rawRequest(
      portOf(s),
      Buffer.from(
        `POST /api.php?subject=Київ HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      ),
    );
    const e = await s.get({ action: 'browsebysubject', subject: 'Київ' });
    assert.equal(r.body, e.text);
  });

  it("a request line that cannot be read gets MediaWiki's error object", async () => {
    for (const bad of [
      'GET /api.php?a=\x01 HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /api.php?a=b HTTP/1.1\r\nHo st: x\r\n\r\n',
      'BREW /api.php HTTP/9.9\r\n\r\n',
    ]) {
      const r = await rawRequest(portOf(s), Buffer.from(bad, 'latin1'));
      assert.equal(r.status, 400, JSON.stringify(bad));
      assert.match(r.head, /\r\nContent-Type: application\/json; charset=utf-8\r\n/);
      assert.match(r.head, /\r\nMediaWiki-API-Error: badrequest\r\n/);
      const json = JSON.parse(r.body);
      assert.deepEqual(Object.keys(json.error), ['code', 'info', '*']);
      assert.equal(json.error.code, 'badrequest');
    }
  });

  it('rescueRequest percent-encodes the target only, and only whole requests', () => {
    assert.equal(
      rescueRequest(Buffer.from('GET /a?b=ї HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\n\r\n'))!.toString('latin1'),
      'GET /a?b=%D1%97 HTTP/1.1\r\nConnection: close\r\nHost: x\r\n\r\n',
    );
    assert.equal(rescueRequest(Buffer.from('GET /a?b=ї HTTP/1.1\r\nHost: x\r\n')), null);
    assert.equal(rescueRequest(Buffer.from('POST /a?b=ї HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc')), null);
    assert.equal(rescueRequest(Buffer.from('POST /a?b=ї HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n')), null);
  });

  it("GET / leads to the main page's view, which links to api.php; other paths are 404 saying where the API is", async () => {
    const origin = new URL(s.url).origin;
    const r = await fetch(`${origin}/`, { redirect: 'manual' });
    assert.equal(r.status, 301);
    assert.equal(r.headers.get('location'), '/index.php');
    const followed = await fetch(`${origin}/`);
    assert.equal(followed.url, `${origin}/index.php`);
    const html = await followed.text();
    assert.match(html, /<h1 id="firstHeading">Головна сторінка<\/h1>/);
    assert.match(html, /<a href="\/api\.php\?action=parse&amp;page=/);
    // (/index.php is the article path since issue 17: test/parse.test.ts)
    const nf = await fetch(`${origin}/wiki.php?title=X`);
    assert.equal(nf.status, 404);
    assert.equal(await nf.text(), `404 Not Found: GET /wiki.php\nThe API is at ${origin}/api.php\n`);
  });
});

/** Prometheus text exposition format 0.0.4, strictly: returns samples by series (name{labels}). */
export function parsePrometheus(text: string): Map<string, number> {
  const samples = new Map<string, number>();
  const types = new Map<string, string>();
  const name = '[a-zA-Z_:][a-zA-Z0-9_:]*';
  const label = `[a-zA-Z_][a-zA-Z0-9_]*="(?:[^"\\\\\\n]|\\\\[\\\\"n])*"`;
  // values as Go's ParseFloat reads them (Prometheus' parser): NaN and Inf in any case
  const sample = new RegExp(
    `^(${name})(\\{(?:${label}(?:,${label})*)?,?\\})? ([+-]?(?:[0-9.]+(?:e[+-]?[0-9]+)?|[nN][aA][nN]|[iI][nN][fF]))(?: -?[0-9]+)?$`,
  );
  assert.ok(text.endsWith('\n'), 'ends with a newline');
  for (const line of text.slice(0, -1).split('\n')) {
    if (line === '') continue; // the format ignores empty lines
    if (line.startsWith('# HELP ')) {
      assert.match(line, new RegExp(`^# HELP ${name} .*$`));
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const m = new RegExp(`^# TYPE (${name}) (counter|gauge|histogram|summary|untyped)$`).exec(line);
      assert.ok(m, line);
      assert.ok(!types.has(m[1]), `one TYPE line for ${m[1]}`);
      types.set(m[1], m[2]);
      continue;
    }
    const m = sample.exec(line);
    assert.ok(m, `not a sample line: ${line}`);
    const base = m[1].replace(/_(bucket|sum|count|total|created)$/, '');
    assert.ok(types.has(m[1]) || types.has(base), `sample before its TYPE: ${line}`);
    samples.set(m[1] + (m[2] ?? ''), /^[+-]?inf$/i.test(m[3]) ? (m[3].startsWith('-') ? -Infinity : Infinity) : Number(m[3]));
  }
  return samples;
}

describe('/health and /metrics', () => {
  let s: DemoServer;
  let origin: string;
  before(async () => {
    s = await startDemoServer();
    origin = new URL(s.url).origin;
  });
  after(() => s.close());

  it('/health: the database, its import and the page count', async () => {
    const r = await fetch(`${origin}/health`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('cache-control'), 'no-store');
    const h = await r.json();
    assert.deepEqual(Object.keys(h), ['status', 'database', 'import', 'pages', 'generation', 'uptime', 'pid']);
    assert.equal(h.pid, process.pid); // the answering process (this test serves in-process)
    assert.equal(h.status, 'ok');
    assert.equal(h.database, 'open');
    assert.match(h.import.id, /^\d{14}-[0-9a-f]{8}$/);
    assert.equal(h.import.id, s.server.identity.id);
    assert.equal(h.import.sitename, 'Демовікі');
    assert.match(h.import.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const stats = await s.get({ action: 'query', meta: 'siteinfo', siprop: 'statistics' });
    assert.equal(h.pages, stats.json.query.statistics.pages);
    assert.equal(h.generation, 1);
  });

  it('/metrics parses as Prometheus text and counts requests, modules, cache hits and errors', async () => {
    const before = parsePrometheus(await (await fetch(`${origin}/metrics`)).text());
    const key = 'wikiquery_api_requests_total{action="query",status="200",result="ok"}';
    const was = before.get(key) ?? 0;
    // siprop=namespaces: an answer of no second (general's time would let a second boundary split the hits)
    for (let i = 0; i < 3; i++) await s.get({ action: 'query', list: 'allcategories|allpages', meta: 'siteinfo', siprop: 'namespaces' });
    await s.get({ action: 'query', continue: 'abc' });
    await s.get({ action: 'nosuchaction' });
    const r = await fetch(`${origin}/metrics`);
    assert.match(r.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const m = parsePrometheus(await r.text());
    assert.equal(m.get(key), was + 3);
    assert.equal(
      m.get('wikiquery_api_requests_total{action="query",status="200",result="error"}'),
      (before.get('wikiquery_api_requests_total{action="query",status="200",result="error"}') ?? 0) + 1,
    );
    assert.ok((m.get('wikiquery_api_requests_total{action="invalid",status="200",result="error"}') ?? 0) >= 1);
    assert.ok((m.get('wikiquery_api_module_requests_total{module="allpages"}') ?? 0) >= 3);
    assert.ok((m.get('wikiquery_response_cache_hits_total') ?? 0) >= 2);
    assert.ok((m.get('wikiquery_api_request_duration_seconds_count{action="query"}') ?? 0) >= 5);
    assert.equal(
      m.get('wikiquery_api_request_duration_seconds_bucket{le="+Inf",action="query"}'),
      m.get('wikiquery_api_request_duration_seconds_count{action="query"}'),
    );
    assert.ok((m.get('wikiquery_database_bytes') ?? 0) > 100_000);
    assert.equal(m.get('wikiquery_database_generation'), 1);
    assert.ok(m.has('process_resident_memory_bytes'));
    assert.ok(m.has('nodejs_eventloop_lag_seconds'));
  });
});

describe('query strings read as URLSearchParams reads them', () => {
  it("queryPairs gives URLSearchParams' pairs, for tricky and random query strings", () => {
    const tricky = [
      '',
      '&',
      '&&a',
      'a',
      'a=',
      '=b',
      '=',
      'a=b=c',
      'a+b=c+d',
      '%',
      '%2',
      '%zz=1',
      'a=%E2%80%99',
      'a=%E2%80',
      'a=%ED%A0%80',
      'a=%C0%AF',
      'x=%D0%BA%D0%B8%D1%97%D0%B2&y=%2B+%25',
      '__proto__=1&constructor=2',
      'a[]=1&a[b]=2',
      'k=%F0%9F%98%80',
      'k=%f0%9f%98%80',
    ];
    const alphabet = [
      'a',
      'b',
      '=',
      '&',
      '+',
      '%',
      '2',
      'F',
      'z',
      '%20',
      '%2B',
      '%25',
      '%D0%B9',
      '%D0',
      '%B9',
      '%E2%80%99',
      '%FF',
      '%C3%A9',
      'é',
      'й',
    ];
    let seed = 7;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const random = Array.from({ length: 3000 }, () => Array.from({ length: 1 + rand(14) }, () => alphabet[rand(alphabet.length)]).join(''));
    for (const q of [...tricky, ...random]) assert.deepEqual(queryPairs(q), [...new URLSearchParams(q)].flat(), q);
  });

  it('isNfc says "unchanged by NFC" only of texts NFC leaves unchanged: every pair of the characters it passes', () => {
    const fast: string[] = [];
    for (let c = 0; c < 0x500; c++) if (isNfc(String.fromCharCode(c))) fast.push(String.fromCharCode(c));
    assert.ok(fast.includes('й') && fast.includes('ї') && fast.includes('a') && !fast.includes('\u0306') && !fast.includes('é'));
    for (const a of fast)
      for (const b of fast)
        assert.equal((a + b).normalize('NFC'), a + b, `U+${a.charCodeAt(0).toString(16)} U+${b.charCodeAt(0).toString(16)}`);
    assert.equal(isNfc('и\u0306'), false);
  });
});

describe('compareBytes', () => {
  it('orders as the UTF-8 bytes Buffer.from gives (surrogate pairs, lone surrogates, U+E000–U+FFFF, prefixes)', () => {
    const bytes = (a: string, b: string) => (a === b ? 0 : Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8')));
    const alphabet = ['a', 'z', ' ', 'й', 'ї', '\ud800', '\udc00', '\udbff', '\udfff', '\ue000', '\uffff', '\ufffd', '\ud83d\ude00', ''];
    let seed = 11;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const word = () => Array.from({ length: rand(5) }, () => alphabet[rand(alphabet.length)]).join('');
    for (let i = 0; i < 100_000; i++) {
      const a = word();
      const b = word();
      assert.equal(Math.sign(compareBytes(a, b)), Math.sign(bytes(a, b)), JSON.stringify([a, b]));
    }
  });
});

describe('the direct API path (GET without Fastify) answers as the Fastify route', () => {
  let s: DemoServer;
  let nocache: DemoServer;
  before(async () => {
    s = await startDemoServer();
    nocache = await startDemoServer({ server: { cacheMb: 0 } });
  });
  after(async () => {
    await s.close();
    await nocache.close();
  });
  const requests: Array<[string, Record<string, string>]> = [
    ['/api.php?action=query&list=allcategories&acprop=size&format=json', {}],
    [
      '/w/api.php?action=query&prop=info&titles=%D0%93%D0%BE%D0%BB%D0%BE%D0%B2%D0%BD%D0%B0_%D1%81%D1%82%D0%BE%D1%80%D1%96%D0%BD%D0%BA%D0%B0|Nope&format=json',
      {},
    ],
    ['/api.php?action=query&list=allpages&aplimit=max&format=json', { 'accept-encoding': 'gzip' }],
    ['/api.php?action=query&list=allpages&aplimit=max&format=json', { 'accept-encoding': 'br, gzip' }],
    ['/api.php?action=query&meta=tokens&format=json', { origin: 'https://www.example.org' }],
    ['/api.php?action=nosuchaction&format=json', {}],
    ['/api.php?action=help', { 'accept-encoding': 'gzip' }],
    ['/api.php?action=query&meta=siteinfo&format=xml', {}],
    ['/api.php?action=query&list=allpages&apfrom[]=x&format=json', {}],
    ['/api.php', {}],
  ];
  /** the header lines in order, without those Node writes itself (Date, Connection, Keep-Alive) */
  const lines = (pairs: Array<[string, string]>) =>
    pairs.filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k.toLowerCase())).map(([k, v]) => `${k}: ${v}`);
  for (const [name, server] of [
    ['cache off', () => nocache],
    ['cache on', () => s],
  ] as const) {
    it(`same status, header lines in the same order and the same bytes (${name})`, async () => {
      const srv = server();
      const port = portOf(srv);
      for (const [url, headers] of requests) {
        const host = `127.0.0.1:${port}`;
        const head = Object.entries({ host, ...headers, connection: 'close' })
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('');
        const direct = await new Promise<{ status: number; headers: Array<[string, string]>; body: Buffer }>((resolve, reject) => {
          const chunks: Buffer[] = [];
          const c = net.connect(port, '127.0.0.1', () => c.write(`GET ${url} HTTP/1.1\r\n${head}\r\n`));
          c.on('data', (d: Buffer) => chunks.push(d));
          c.on('error', reject);
          c.on('close', () => {
            const all = Buffer.concat(chunks);
            const sep = all.indexOf('\r\n\r\n');
            const [status, ...hl] = all.subarray(0, sep).toString('latin1').split('\r\n');
            resolve({
              status: Number(status!.slice(9, 12)),
              headers: hl.map((l) => [l.slice(0, l.indexOf(':')), l.slice(l.indexOf(':') + 2)]),
              body: all.subarray(sep + 4),
            });
          });
        });
        const viaFastify = await srv.server.app.inject({ method: 'GET', url, headers: { host, ...headers } });
        const fastifyHeaders = Object.entries(viaFastify.headers).map(([k, v]) => [k, String(v)] as [string, string]);
        assert.equal(direct.status, viaFastify.statusCode, url);
        assert.deepEqual(lines(direct.headers), lines(fastifyHeaders), url);
        assert.ok(direct.body.equals(viaFastify.rawPayload), url);
      }
    });
  }
});

describe('replacing the database while serving', () => {
  let dir: string;
  let db: string;
  let s: DemoServer;
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wikiquery-reload-'));
    db = join(dir, 'wiki.sqlite');
    copyFileSync((await demoDatabase()).db, db);
    s = await startDemoServer({ db });
  });
  after(async () => {
    await s.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('reload() serves the new import, empties the cache and lets requests under way finish', async () => {
    const demo = await demoDatabase();
    const q = { action: 'query', list: 'allpages', apprefix: 'Нова_сторінка' };
    const beforeAnswer = await s.get(q);
    assert.deepEqual(beforeAnswer.json.query.allpages, []);
    // a new dump: the demo plus one page
    const dump = readFileSync(join(demo.dir, 'demo', 'dump.xml'), 'utf8');
    const page =
      '<page><title>Нова сторінка</title><ns>0</ns><id>999999</id><revision><id>999999</id><timestamp>2020-01-01T00:00:00Z</timestamp><contributor><username>Admin</username><id>1</id></contributor><text xml:space="preserve">нова</text></revision></page>\n';
    const newDump = join(dir, 'dump.xml');
    writeFileSync(newDump, dump.replace('</mediawiki>', page + '</mediawiki>'));
    const oldId = s.server.identity.id;
    const summary = await importWiki({
      dump: newDump,
      db,
      lang: 'uk',
      hooks: importHooks(),
      inlineQueries: importInlineQueries(),
      log: () => {},
    });
    // still the old file until told
    assert.deepEqual((await s.get(q)).json.query.allpages, []);
    const inflight = s.get({ action: 'query', list: 'allpages', aplimit: 'max' });
    const r = await s.server.reload();
    assert.equal((await inflight).status, 200);
    assert.equal(r.changed, true);
    assert.equal(r.previous.id, oldId);
    assert.equal(r.current.id, summary.importId);
    assert.equal(r.generation, 2);
    assert.deepEqual((await s.get(q)).json.query.allpages, [{ pageid: 999999, ns: 0, title: 'Нова сторінка' }]);
    const h = await (await fetch(`${new URL(s.url).origin}/health`)).json();
    assert.equal(h.import.id, summary.importId);
    assert.equal(h.pages, r.previous.pages + 1);
  });

  it('a database that cannot be opened is refused and the old one keeps serving', async () => {
    const id = s.server.identity.id;
    // replaced the way an import replaces it (rename): the open file is never written to
    writeFileSync(db + '.broken', 'not a database');
    renameSync(db + '.broken', db);
    await assert.rejects(s.server.reload());
    assert.equal(s.server.identity.id, id);
    assert.equal((await s.get({ action: 'query', meta: 'tokens' })).status, 200);
  });
});

describe('one HTML escaper', () => {
  it('htmlspecialchars as PHP: ENT_COMPAT by default, ENT_QUOTES on request', async () => {
    const { htmlspecialchars } = await import('../../src/wiki/html.js');
    assert.equal(htmlspecialchars(`a & b < c > d "e" 'f'`), `a &amp; b &lt; c &gt; d &quot;e&quot; 'f'`);
    assert.equal(htmlspecialchars(`'f' &amp;`, 'both'), '&#039;f&#039; &amp;amp;');
    assert.equal(htmlspecialchars('Київ'), 'Київ');
  });

  it('no other file of src/ or scripts/ escapes HTML by hand', () => {
    const root = join(import.meta.dirname, '../../..');
    const offenders: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const f = join(d, e.name);
        if (e.isDirectory()) walk(f);
        else if (
          f.endsWith('.ts') &&
          !f.endsWith(join('wiki', 'html.ts')) &&
          /replace\([^)]*['"]&(?:amp|lt|quot);['"]\)/.test(readFileSync(f, 'utf8'))
        )
          offenders.push(f);
      }
    };
    walk(join(root, 'src'));
    walk(join(root, 'scripts'));
    assert.deepEqual(offenders, []);
  });
});
