/**
 * `serve --upstream`: what wikiquery forwards to a stand-in upstream (an HTTP server of this test that
 * records what it is sent) and what it answers itself; read-your-writes after a forwarded edit; an
 * upstream that answers garbage or nothing; a request naming another host.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import http, { type IncomingMessage } from 'node:http';
import net from 'node:net';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const seen: Seen[] = [];
let mode: 'ok' | 'garbage' | 'silent' = 'ok';
let newestRcid = 41;
const changes: Array<{ rcid: number; user: string | string[] }> = [{ rcid: 41, user: 'Bot' }];
let stand: http.Server;
let standUrl = '';
let applied = 0;
let s: DemoServer;

before(async () => {
  stand = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      if (mode === 'silent') return;
      if (mode === 'garbage') {
        req.socket.end('HTTP/1.1 200 OK\r\nContent-Length: 9\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n');
        return;
      }
      const url = new URL(req.url ?? '/', 'http://x');
      const params = new URLSearchParams(url.search + '&' + body);
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      if (params.get('list') === 'recentchanges') {
        const name = /upwiki_session=abc123/.test(req.headers.cookie ?? '') ? 'Bot' : (req.headers['x-forwarded-for'] ?? '?');
        const newestFirst = [...changes].reverse();
        res.end(
          JSON.stringify({ query: { userinfo: { name }, recentchanges: newestFirst.map((c) => Object.assign({ type: 'edit' }, c)) } }),
        );
      } else if (params.get('action') === 'edit') {
        // as MediaWiki: another client's change comes in meanwhile, and the write's own recent change is
        // written after its answer (a deferred update)
        changes.push({ rcid: ++newestRcid, user: 'Someone else' });
        const user = /upwiki_session=abc123/.test(req.headers.cookie ?? '') ? 'Bot' : (req.headers['x-forwarded-for'] ?? '?');
        setTimeout(() => changes.push({ rcid: ++newestRcid, user }), 150);
        res.setHeader('Set-Cookie', ['upwiki_session=abc123; path=/w/; domain=.upstream.example; HttpOnly']);
        res.end(JSON.stringify({ edit: { result: 'Success', newrevid: 900 } }));
      } else {
        res.setHeader('Connection', 'keep-alive');
        res.setHeader('X-Upstream', 'yes');
        res.end(JSON.stringify({ upstream: params.get('action') }));
      }
    });
  });
  await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
  standUrl = `http://127.0.0.1:${(stand.address() as net.AddressInfo).port}/w/api.php`;
  s = await startDemoServer({
    server: { upstream: { apiUrl: standUrl, waitMs: 600, timeoutMs: 500, appliedRcid: async () => applied } },
  });
});

after(async () => {
  await s.close();
  stand.closeAllConnections();
  await new Promise((resolve) => stand.close(resolve));
});

function last(): Seen {
  return seen[seen.length - 1]!;
}

describe('forwarded or local', () => {
  it('answers an anonymous read itself', async () => {
    const before = seen.length;
    const r = await s.get({ action: 'query', meta: 'siteinfo' });
    assert.equal(r.status, 200);
    assert.ok(r.json.query.general);
    assert.equal(seen.length, before);
  });

  it('answers an anonymous read itself from the cache too; the same URL with the upstream session is forwarded', async () => {
    const params = { action: 'query', meta: 'userinfo', uiprop: 'groups' };
    const before = seen.length;
    const first = await s.get(params);
    const again = await s.get(params);
    assert.equal(again.text, first.text);
    assert.equal(first.json.query.userinfo.anon, '');
    // a cookie naming neither the upstream's session nor a position changes nothing
    const other = await s.get(params, { headers: { cookie: 'theme=dark' } });
    assert.equal(other.text, first.text);
    assert.equal(seen.length, before);
    const session = await s.get(params, { headers: { cookie: 'theme=dark; upwiki_session=abc123' } });
    assert.deepEqual(session.json, { upstream: 'query' });
    assert.equal(seen.length, before + 1);
  });

  it('forwards the GETs it does not answer, even after answering the same module locally', async () => {
    await s.get({ action: 'query', list: 'allpages', aplimit: 1 });
    const before = seen.length;
    const unknownFormat = await s.get({ action: 'query', list: 'allpages', aplimit: 1, format: 'nosuchformat' });
    assert.deepEqual(unknownFormat.json, { upstream: 'query' });
    assert.match(last().url, /format=nosuchformat/);
    const mixed = await s.get({ action: 'query', list: 'allpages|nosuchlist', aplimit: 1 });
    assert.deepEqual(mixed.json, { upstream: 'query' });
    const tokens = await s.get({ action: 'tokens' });
    assert.deepEqual(tokens.json, { upstream: 'tokens' });
    assert.equal(seen.length, before + 3);
  });

  it('forwards a login with its body, relays the answer and drops hop-by-hop headers', async () => {
    const body = 'action=login&lgname=Bot%40x&lgpassword=secret&format=json';
    const r = await new Promise<{ status: number; headers: IncomingMessage['headers']; text: string }>((resolve, reject) => {
      const req = http.request(
        s.url,
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/x-www-form-urlencoded', 'X-Keep': 'me', Connection: 'X-Keep' },
        },
        (res) => {
          let text = '';
          res.on('data', (d: Buffer) => (text += d.toString('utf8')));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(r.status, 200);
    assert.deepEqual(JSON.parse(r.text), { upstream: 'login' });
    assert.equal(r.headers['x-upstream'], 'yes');
    const got = last();
    assert.equal(got.method, 'POST');
    assert.equal(got.url, '/w/api.php');
    assert.equal(got.body, 'action=login&lgname=Bot%40x&lgpassword=secret&format=json');
    assert.equal(got.headers['x-keep'], undefined, 'a header the Connection header names is not sent on');
    assert.equal(got.headers.host, new URL(standUrl).host);
  });

  it('forwards what it does not implement, tokens, and a logged-in session’s userinfo', async () => {
    await s.get({ action: 'nosuchmodule' });
    assert.match(last().url, /action=nosuchmodule/);
    await s.get({ action: 'query', list: 'watchlist' });
    assert.match(last().url, /list=watchlist/);
    await s.get({ action: 'query', meta: 'tokens', type: 'login' });
    assert.match(last().url, /meta=tokens&type=login/);
    const before = seen.length;
    const anonymous = await s.get({ action: 'query', meta: 'userinfo' });
    assert.equal(anonymous.json.query.userinfo.anon, '', 'an anonymous userinfo is local');
    assert.equal(seen.length, before);
    const r = await s.get({ action: 'query', meta: 'userinfo' }, { headers: { cookie: 'upwiki_session=abc123' } });
    assert.deepEqual(r.json, { upstream: 'query' });
    assert.equal(last().headers.cookie, 'upwiki_session=abc123');
  });

  it('forwards a multipart upload byte for byte', async () => {
    const form = new FormData();
    form.set('action', 'upload');
    form.set('filename', 'A.png');
    form.set('file', new Blob([new Uint8Array([0, 1, 2, 255])]), 'A.png');
    const request = new Request(s.url, { method: 'POST', body: form });
    const sent = Buffer.from(await request.clone().arrayBuffer()).toString('utf8');
    const r = await fetch(request);
    assert.equal(r.status, 200);
    assert.equal(last().body, sent);
    assert.equal(last().headers['content-type'], request.headers.get('content-type'));
  });

  it('sends a request naming another host to the configured upstream only', async () => {
    const port = new URL(s.url).port;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () => {
        socket.write('GET http://evil.example/api.php?action=edit&format=json HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n');
      });
      let text = '';
      socket.on('data', (d) => (text += d.toString('utf8')));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    assert.match(answer, /^HTTP\/1.1 200/);
    // the edit (between the questions for the upstream's recent changes before and after it)
    const edit = [...seen].reverse().find((r) => r.url.includes('action=edit'))!;
    assert.equal(edit.headers.host, new URL(standUrl).host);
    assert.equal(edit.url, '/w/api.php?action=edit&format=json');
  });
});

describe('read-your-writes', () => {
  it('gives the writer a marker; its reads wait for follow, others do not', async () => {
    applied = 0;
    const edit = await fetch(s.url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'action=edit&title=A&text=x&token=%2B%5C&format=json',
    });
    assert.equal(edit.status, 200);
    const cookies = edit.headers.getSetCookie();
    assert.ok(cookies.includes('upwiki_session=abc123; HttpOnly; Path=/'), `rewritten: ${cookies.join(' | ')}`);
    // the writer's own change (written upstream after the answer), not another client's that came first
    const marker = cookies.find((c) => c.startsWith('wikiquery_rcid='));
    assert.equal(marker?.split(';')[0], `wikiquery_rcid=${newestRcid}`);
    assert.deepEqual(changes[changes.length - 1], { rcid: newestRcid, user: '127.0.0.1' });
    assert.equal(changes[changes.length - 2]!.user, 'Someone else');
    const cookie = marker!.split(';')[0]!;

    // another client: no wait (asked twice: the second answer is the cache's)
    await s.get({ action: 'query', meta: 'siteinfo' });
    const t0 = performance.now();
    const other = await s.get({ action: 'query', meta: 'siteinfo' });
    assert.ok(performance.now() - t0 < 400);
    assert.equal(other.json.warnings, undefined);

    // the writer: waits until follow reaches the position
    setTimeout(() => {
      applied = newestRcid;
    }, 250);
    const t1 = performance.now();
    const mine = await s.get({ action: 'query', meta: 'siteinfo' }, { headers: { cookie } });
    const waited = performance.now() - t1;
    assert.ok(waited >= 200 && waited < 600, `waited ${waited} ms`);
    assert.equal(mine.json.warnings, undefined);

    // past the bound: answered, with a warning
    applied = 0;
    const late = await s.get({ action: 'query', meta: 'siteinfo' }, { headers: { cookie } });
    assert.match(late.json.warnings.main['*'], /Waited 0.6 s for this wiki to apply your last change/);
  });
});

describe('a failing upstream', () => {
  it('answers a malformed upstream answer with an error object', async () => {
    mode = 'garbage';
    const r = await s.get({ action: 'edit' });
    mode = 'ok';
    assert.equal(r.status, 502);
    assert.equal(r.headers.get('mediawiki-api-error'), 'upstreamerror');
    assert.equal(r.json.error.code, 'upstreamerror');
  });

  it('answers an upstream that does not answer with a timeout error object', async () => {
    mode = 'silent';
    const r = await s.get({ action: 'purge' });
    mode = 'ok';
    assert.equal(r.status, 504);
    assert.equal(r.json.error.code, 'upstreamtimeout');
  });
});

describe('the request log', () => {
  it('leaves a forwarded request’s query string (its credentials) out', async () => {
    const lines: string[] = [];
    const { default: pino } = await import('pino');
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const logged = await startDemoServer({ server: { logger, upstream: { apiUrl: standUrl, timeoutMs: 500 } } });
    try {
      await logged.get({ action: 'login', lgname: 'Bot@x', lgpassword: 'hunter2secret' });
      await logged.get({ action: 'query', meta: 'siteinfo' });
    } finally {
      await logged.close();
    }
    const requests = lines.filter((l) => l.includes('"msg":"request"'));
    assert.equal(requests.length, 2);
    assert.ok(!lines.some((l) => l.includes('hunter2secret')), 'the password is not logged');
    assert.match(requests[0]!, /"url":"\/api.php","upstream":true/);
    assert.match(requests[1]!, /meta=siteinfo/);
  });
});
