/**
 * Issue 15 ("Hold under abuse"): what one anonymous client may cost the server. Each test reproduces a
 * defect of the hostile-input campaign: unbounded multipart bodies (1) and silently cut fields (8),
 * answers without a size limit (2), an Expires header of "Invalid Date" (10), connections without
 * deadlines or a cap (11), a queue without a bound (12), and Node's own 400/431 without Connection: close
 * (13). Servers with small limits are started on the demo database where a default limit would take a
 * large request to reach.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createServer, type ServerOptions, type WikiServer } from '../../src/http/server.js';
import { openStore } from '../../src/store/open.js';
import { demoDatabase, startDemoServer, toQuery, type DemoServer } from '../helpers/demo-server.js';

let s: DemoServer;
const extra: WikiServer[] = [];
before(async () => {
  s = await startDemoServer();
});
after(async () => {
  await s?.close();
  for (const x of extra) await x.close();
});

/** A server on the demo database with some options of its own; its api.php URL and port. */
async function serverWith(opts: Partial<ServerOptions>): Promise<{ url: string; port: number }> {
  const { db } = await demoDatabase();
  const server = await createServer({ store: await openStore(db), logLevel: 'silent', ...opts });
  extra.push(server);
  const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `${address}/api.php`, port: Number(new URL(address).port) };
}

/** Send raw bytes on a new connection; resolves with everything the server sent before it closed. */
function rawExchange(port: number, send: (socket: net.Socket) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let got = '';
    socket.on('data', (d) => (got += d.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (e.code === 'ECONNRESET' || e.code === 'EPIPE' ? undefined : reject(e)));
    socket.on('close', () => resolve(got));
    socket.on('connect', () => send(socket));
  });
}

function multipart(fields: Array<[string, string]>): { body: Blob; type: string } {
  const boundary = 'wq' + 'x'.repeat(20);
  const parts = fields.map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  return { body: new Blob([parts.join('') + `--${boundary}--\r\n`]), type: `multipart/form-data; boundary=${boundary}` };
}

const BASE: Array<[string, string]> = [
  ['action', 'query'],
  ['meta', 'siteinfo'],
  ['siprop', 'general'],
  ['format', 'json'],
];

describe('request bodies', () => {
  it('a multipart field over 1 MiB comes back whole, as the same value urlencoded does', async () => {
    const long = 'ж'.repeat(1024 * 1024); // 2 MiB of UTF-8
    const { body, type } = multipart([...BASE, ['requestid', long]]);
    const r = await fetch(s.url, { method: 'POST', headers: { 'content-type': type }, body });
    assert.equal(r.status, 200);
    const json = await r.json();
    assert.equal(json.requestid.length, long.length, 'the multipart value was cut');
    const u = await s.post({ action: 'query', meta: 'siteinfo', siprop: 'general', format: 'json', requestid: long });
    assert.equal(u.json.requestid, json.requestid);
  });

  it('a multipart body over the body limit is refused with 413 and the error object, not truncated', async () => {
    const { body, type } = multipart([...BASE, ['requestid', 'x'.repeat(9 * 1024 * 1024)]]);
    const r = await fetch(s.url, { method: 'POST', headers: { 'content-type': type }, body });
    assert.equal(r.status, 413);
    assert.equal(r.headers.get('connection'), 'close');
    const json = await r.json();
    assert.equal(json.error.code, 'badrequest');
    assert.match(json.error.info, /larger than the limit of 8388608 bytes/);
    // the same for an urlencoded body: one limit for both
    const u = await fetch(s.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'action=query&requestid=' + 'x'.repeat(9 * 1024 * 1024),
    });
    assert.equal(u.status, 413);
  });

  it('a huge declared multipart body is refused before it is sent', { timeout: 15_000 }, async () => {
    const { port } = await serverWith({});
    const head = Buffer.from(await multipart(BASE).body.arrayBuffer()).subarray(0, 200);
    const answer = await rawExchange(port, (socket) => {
      socket.write(
        `POST /api.php HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=wq${'x'.repeat(20)}\r\nContent-Length: 990000000\r\n\r\n`,
      );
      socket.write(head);
      // nothing more is sent: the answer must come without the other 989 MB
    });
    assert.match(answer, /^HTTP\/1\.1 413 /);
    assert.match(answer, /\r\nconnection: close\r\n/i);
    assert.match(answer, /"code":"badrequest"/);
  });

  it('a multipart body of many small parts is refused past the parts limit', async () => {
    const { url } = await serverWith({ limits: { parts: 50 } });
    const fields: Array<[string, string]> = [...BASE];
    for (let i = 0; i < 60; i++) fields.push([`p${i}`, 'v']);
    const { body, type } = multipart(fields);
    const r = await fetch(url, { method: 'POST', headers: { 'content-type': type }, body });
    assert.equal(r.status, 413);
    assert.match((await r.json()).error.info, /more than 50 parts/);
  });
});

describe('answer size: $wgAPIMaxResultSize as ApiResult::addValue of 1.25', () => {
  // twenty demo pages of 18 to 680 characters
  const PAGEIDS = '15|20|30|32|64|68|72|105|126|148|170|264|281|303|312|316|337|338|345|370';
  const QUERY = { action: 'query', pageids: PAGEIDS, prop: 'revisions', rvprop: 'ids|content', format: 'json' };

  it('truncates with the 1.25 warning and continues where the revision did not fit; the parts join to the whole', async () => {
    const whole = await s.get({ ...QUERY, continue: '' });
    assert.equal(whole.json.warnings, undefined);
    const expected = new Map<number, unknown>();
    for (const p of Object.values(whole.json.query.pages) as any[]) expected.set(p.pageid, p.revisions);

    const { url } = await serverWith({ maxResultSize: 2500 });
    const got = new Map<number, unknown>();
    let cont: Record<string, string> = { continue: '' };
    let requests = 0;
    for (;;) {
      const r = await (await fetch(`${url}?${toQuery({ ...QUERY, ...cont })}`)).json();
      requests++;
      assert.ok(requests < 50, 'continuation does not end');
      for (const p of Object.values(r.query.pages) as any[]) if (p.revisions) got.set(p.pageid, p.revisions);
      if (!r.continue) {
        assert.equal(r.warnings, undefined);
        break;
      }
      // 1.25's text, two spaces and the English-formatted limit included
      assert.deepEqual(r.warnings, {
        result: { '*': 'This result was truncated because it would otherwise  be larger than the limit of 2,500 bytes' },
      });
      assert.match(r.continue.rvcontinue, /^\d+\|\d+$/);
      assert.equal(r.batchcomplete, undefined);
      cont = r.continue;
    }
    assert.ok(requests > 2, `${requests} requests`);
    assert.deepEqual(new Map([...got].sort((a, b) => a[0] - b[0])), new Map([...expected].sort((a, b) => a[0] - b[0])));
  });

  it('a revision that does not fit in enumeration mode continues from its id', async () => {
    const { url } = await serverWith({ maxResultSize: 60 });
    const r = await (
      await fetch(
        `${url}?${toQuery({ action: 'query', prop: 'revisions', titles: 'Євпаторія', rvprop: 'ids|content', rvlimit: '10', format: 'json', continue: '' })}`,
      )
    ).json();
    const page = Object.values(r.query.pages)[0] as any;
    assert.equal(page.revisions, undefined);
    assert.match(String(r.continue.rvcontinue), /^\d+$/);
    assert.match(r.warnings.result['*'], /limit of 60 bytes$/);
  });

  it('a client that does not read holds a bounded amount of memory: past it, requests are shed', { timeout: 15_000 }, async () => {
    const { port, url } = await serverWith({ load: { maxPendingBytes: 64 * 1024 } });
    // a slow reader: asks for 2 MiB of jsonfm-escaped requestid and reads nothing
    const sockets: net.Socket[] = [];
    const body = toQuery({ action: 'query', meta: 'siteinfo', format: 'json', requestid: 'я'.repeat(1024 * 1024) });
    for (let i = 0; i < 2; i++) {
      const socket = net.connect(port, '127.0.0.1');
      socket.pause();
      socket.write(
        `POST /api.php HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      sockets.push(socket);
    }
    let shed: Response | null = null;
    for (let i = 0; i < 200 && !shed; i++) {
      const r = await fetch(`${url}?action=query&meta=siteinfo&format=json`);
      if (r.status === 503) shed = r;
      else {
        await r.arrayBuffer();
        await new Promise((res) => setTimeout(res, 20));
      }
    }
    assert.ok(shed, 'answers nobody reads are not bounded');
    assert.equal((await shed.json()).error.code, 'maxlag');
    for (const socket of sockets) socket.destroy();
  });
});

describe('bodies match their Content-Type (found by npm run fuzz)', () => {
  it('opensearch with format=jsonfm and a callback is an HTML page, typed as one', async () => {
    const r = await s.get({ action: 'opensearch', search: 'Ки', format: 'jsonfm', callback: 'cb' });
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(r.text, /^<!DOCTYPE html>/);
    const j = await s.get({ action: 'opensearch', search: 'Ки', format: 'json', callback: 'cb' });
    assert.equal(j.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.match(j.text, /^\/\*\*\/cb\(\[/);
  });
});

describe('cache headers', () => {
  it('a max age past any HTTP date is clamped; a max age of 0 expires at the epoch, as MediaWiki sends', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo', maxage: '99999999999999', smaxage: '99999999999999' });
    assert.equal(r.headers.get('expires'), 'Fri, 31 Dec 9999 23:59:59 GMT');
    const z = await s.get({ action: 'query', meta: 'siteinfo', maxage: '60', smaxage: '0' });
    assert.equal(z.headers.get('expires'), 'Thu, 01 Jan 1970 00:00:01 GMT');
  });
});

describe('connections', () => {
  it('a connection that does not finish its headers is closed after the header timeout, with 408', { timeout: 15_000 }, async () => {
    const { port } = await serverWith({ limits: { headersTimeoutMs: 300 } });
    const answer = await rawExchange(port, (socket) => socket.write('GET /api.php HTTP/1.1\r\nHost: x\r\n'));
    assert.match(answer, /^HTTP\/1\.1 408 /);
    assert.match(answer, /\r\nConnection: close\r\n/);
  });

  it('connections past the cap are closed at once; the server serves again when they go', { timeout: 15_000 }, async () => {
    const { port, url } = await serverWith({ limits: { maxConnections: 3 } });
    const held: net.Socket[] = [];
    for (let i = 0; i < 3; i++) {
      const socket = net.connect(port, '127.0.0.1');
      await new Promise((r) => socket.on('connect', r));
      socket.write('GET /api.php HTTP/1.1\r\n'); // half-open: never finishes its request
      held.push(socket);
    }
    await new Promise((r) => setTimeout(r, 50));
    const fourth = await rawExchange(port, (socket) => socket.write('GET /api.php?action=query&format=json HTTP/1.1\r\nHost: x\r\n\r\n'));
    assert.equal(fourth, '', 'the fourth connection was served');
    for (const socket of held) socket.destroy();
    await new Promise((r) => setTimeout(r, 50));
    const r = await fetch(`${url}?action=query&meta=siteinfo&format=json`);
    assert.equal(r.status, 200);
  });

  it("Node's own 400 and 431 say Connection: close and carry the error object", async () => {
    const port = (s.server.app.server.address() as net.AddressInfo).port;
    const bad = await rawExchange(port, (socket) => socket.write('GET /api.php HTTP/1.1\r\nHost x\r\n\r\n'));
    assert.match(bad, /^HTTP\/1\.1 400 /);
    assert.match(bad, /\r\nConnection: close\r\n/);
    assert.match(bad, /"code":"badrequest"/);
    const big = await rawExchange(port, (socket) =>
      socket.write(`GET /api.php HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20000)}\r\n\r\n`),
    );
    assert.match(big, /^HTTP\/1\.1 431 /);
    assert.match(big, /\r\nConnection: close\r\n/);
  });
});

describe('overload: a bounded queue, shed as MediaWiki answers under lag', () => {
  it('requests that arrive together past maxConcurrent are shed at once, the first ones served', { timeout: 15_000 }, async () => {
    const { port } = await serverWith({ load: { maxConcurrent: 4 } });
    // ten requests in one write: the server takes them in one turn of its event loop
    const one = 'GET /api.php?action=query&meta=siteinfo&format=json HTTP/1.1\r\nHost: x\r\n\r\n';
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1');
      let got = '';
      socket.on('error', reject);
      socket.on('data', (d) => {
        got += d.toString('latin1');
        if ((got.match(/HTTP\/1\.1 \d{3} /g) ?? []).length === 10) {
          socket.destroy();
          resolve(got);
        }
      });
      socket.on('connect', () => socket.write(one.repeat(10)));
    });
    const statuses = (answer.match(/HTTP\/1\.1 (\d{3}) /g) ?? []).map((l) => Number(l.slice(9, 12)));
    assert.deepEqual(statuses, [200, 200, 200, 200, 503, 503, 503, 503, 503, 503]);
  });

  it('past maxConcurrent requests in flight, a request gets 503, Retry-After and the maxlag error', { timeout: 15_000 }, async () => {
    const { port, url } = await serverWith({ load: { maxConcurrent: 1 } });
    // one request in flight: its headers are in, its body is not
    const held = net.connect(port, '127.0.0.1');
    held.on('error', () => {});
    held.write(
      'POST /api.php HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 40\r\n\r\naction=query',
    );
    let shed: Response | null = null;
    for (let i = 0; i < 100 && !shed; i++) {
      const r = await fetch(`${url}?action=query&meta=siteinfo&format=json`);
      if (r.status === 503) shed = r;
      else {
        await r.arrayBuffer();
        await new Promise((res) => setTimeout(res, 10));
      }
    }
    assert.ok(shed, 'no request was shed');
    assert.equal(shed.headers.get('retry-after'), '5');
    assert.equal(shed.headers.get('mediawiki-api-error'), 'maxlag');
    assert.match(shed.headers.get('x-database-lag') ?? '', /^\d+$/);
    const json = await shed.json();
    assert.equal(json.error.code, 'maxlag');
    assert.match(json.error.info, /^Waiting for a database server: \d+ seconds lagged$/);
    // the request in flight ends: the server answers again
    const answered = new Promise((r) => held.once('data', r));
    held.write('&meta=siteinfo&format=json&x'); // the 40 bytes announced
    await answered;
    held.destroy();
    const ok = await fetch(`${url}?action=query&meta=siteinfo&format=json`);
    assert.equal(ok.status, 200);
  });
});
