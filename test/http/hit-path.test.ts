/**
 * The response-cache hit path (src/http/wire.ts, src/http/idle-timeout.ts): a hit written from its stored
 * header block gives the bytes Node's writeHead gives, on every kind of connection; the request headers a
 * hit reads from the raw list are those of Node's header object; and a connection that stops taking bytes
 * is closed after the idle timeout without a timer per request.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { readHitHeaders, type HitHeaders } from '../../src/http/wire.js';
import { watchIdleConnections } from '../../src/http/idle-timeout.js';

/** Everything the server sends on one connection for `request` (sent as given), until it closes or goes quiet. */
function exchange(port: number, request: string, quietMs = 400): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(timer);
      c.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const c = net.connect(port, '127.0.0.1', () => c.write(request));
    c.on('data', (d: Buffer) => {
      chunks.push(d);
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    c.on('error', reject);
    c.on('close', done);
    timer = setTimeout(done, 5000);
  });
}

const portOf = (s: DemoServer) => Number(new URL(s.url).port);
/** the Date lines differ by the second the answer was written */
const undated = (t: string) => t.replace(/\r\nDate: [^\r]*\r\n/g, '\r\nDate: -\r\n');

describe('a cache hit is written as writeHead writes it', () => {
  let cached: DemoServer;
  let uncached: DemoServer;
  before(async () => {
    cached = await startDemoServer();
    uncached = await startDemoServer({ server: { cacheMb: 0 } });
  });
  after(async () => {
    await cached.close();
    await uncached.close();
  });

  const paths = [
    '/api.php?action=query&list=allcategories&acprop=size&format=json',
    '/api.php?action=tokens&format=json',
    '/api.php?action=nosuchaction&format=json',
    '/w/api.php?action=query&list=allpages&aplimit=max&format=json',
  ];
  const connections: Array<[string, (path: string, extra: string) => string]> = [
    // two on one keep-alive connection: the second is a hit (pipelined: written after the first)
    ['keep-alive, pipelined', (p, x) => `GET ${p} HTTP/1.1\r\nHost: h\r\n${x}\r\n`.repeat(2)],
    ['Connection: close', (p, x) => `GET ${p} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n${x}\r\n`],
    ['HTTP/1.0', (p, x) => `GET ${p} HTTP/1.0\r\nHost: h\r\n${x}\r\n`],
    ['HTTP/1.0 keep-alive', (p, x) => `GET ${p} HTTP/1.0\r\nHost: h\r\nConnection: keep-alive\r\n${x}\r\n`.repeat(2)],
    ['Expect: 100-continue', (p, x) => `GET ${p} HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\n${x}\r\n`],
  ];
  for (const [name, request] of connections) {
    it(`same bytes from the cache as computed: ${name}`, async () => {
      // each combination on its own connections, all at once: an exchange ends by going quiet, so one
      // after another they would wait out the quiet period dozens of times
      const extras = ['', 'Accept-Encoding: gzip\r\n', 'accept-encoding: br\r\nACCEPT-ENCODING: gzip\r\n'];
      const combinations = paths.flatMap((path) => extras.map((extra) => [path, extra] as const));
      await Promise.all(
        combinations.map(async ([path, extra]) => {
          const text = request(path, extra);
          // the first exchange fills the cache, the second is answered from it
          await exchange(portOf(cached), text);
          const hit = await exchange(portOf(cached), text);
          const computed = await exchange(portOf(uncached), text);
          assert.ok(hit.startsWith('HTTP/1.'), `${path} ${extra}`);
          assert.equal(undated(hit), undated(computed), `${path} ${JSON.stringify(extra)}`);
        }),
      );
    });
  }
});

describe('a computed answer is written as writeHead writes it', () => {
  let direct: DemoServer;
  let routed: DemoServer;
  before(async () => {
    direct = await startDemoServer({ server: { cacheMb: 0 } });
    // a trusted proxy sends every request through Fastify's route, whose reply writes its headers by
    // writeHead; requests from 127.0.0.1 are not the proxy's, so their answers are those of the direct path
    routed = await startDemoServer({ server: { cacheMb: 0, trustProxy: ['192.0.2.1'] } });
  });
  after(async () => {
    await direct.close();
    await routed.close();
  });

  const paths = [
    '/api.php?action=query&list=allcategories&acprop=size&format=json',
    '/api.php?action=tokens&format=json',
    '/api.php?action=nosuchaction&format=json',
    // siteinfo's general part carries the clock (time=): the namespaces do not
    '/api.php?action=query&meta=siteinfo&siprop=namespaces&format=xml',
    '/api.php?action=query&list=allpages&apfrom=%D0%91&format=json&origin=*',
    '/api.php?action=query&list=allpages&callback=f&format=json',
    '/w/api.php?action=query&list=allpages&aplimit=max&format=json',
  ];
  for (const [name, request] of [
    ['keep-alive, pipelined, each path twice', (p: string, x: string) => `GET ${p} HTTP/1.1\r\nHost: h\r\n${x}\r\n`.repeat(2)],
    ['Connection: close', (p: string, x: string) => `GET ${p} HTTP/1.1\r\nHost: h\r\nConnection: close\r\n${x}\r\n`],
    ['HTTP/1.0', (p: string, x: string) => `GET ${p} HTTP/1.0\r\nHost: h\r\n${x}\r\n`],
  ] as const) {
    it(`same bytes from the direct path as from writeHead: ${name}`, async () => {
      const extras = ['', 'Accept-Encoding: gzip\r\n', 'Origin: http://example.org\r\n'];
      const combinations = paths.flatMap((path) => extras.map((extra) => [path, extra] as const));
      await Promise.all(
        combinations.map(async ([path, extra]) => {
          const text = request(path, extra);
          const [mine, theirs] = await Promise.all([exchange(portOf(direct), text, 150), exchange(portOf(routed), text, 150)]);
          assert.ok(mine.startsWith('HTTP/1.'), `${path} ${extra}`);
          assert.equal(undated(mine), undated(theirs), `${path} ${JSON.stringify(extra)}`);
        }),
      );
    });
  }
});

describe('answers written together at the end of a turn', () => {
  it('reach every connection of a busy turn whole and in order, hits and computed answers alike', async () => {
    const server = await startDemoServer();
    try {
      const port = portOf(server);
      const paths = [
        '/api.php?action=tokens&format=json',
        '/api.php?action=query&list=allcategories&acprop=size&format=json',
        '/api.php?action=query&list=allpages&aplimit=5&format=json',
      ];
      // each connection asks for the three in its own order, pipelined; alone first (the answers to expect)
      const orders = Array.from({ length: 24 }, (_, i) =>
        [paths[i % 3]!, paths[(i + 1) % 3]!, paths[(i + 2) % 3]!].map((p, k) => `${p}&requestid=${i}-${k}`),
      );
      const request = (order: string[]) => order.map((p) => `GET ${p} HTTP/1.1\r\nHost: h\r\n\r\n`).join('');
      const alone: string[] = [];
      for (const order of orders) alone.push(undated(await exchange(port, request(order), 150)));
      // then all at once, twice (the second time from the cache)
      for (let round = 0; round < 2; round++) {
        const together = await Promise.all(orders.map((order) => exchange(port, request(order), 150)));
        together.forEach((text, i) => assert.equal(undated(text), alone[i], `connection ${i}, round ${round}`));
      }
      assert.ok(alone.every((t) => t.split('HTTP/1.1 200 OK').length === 4));
    } finally {
      await server.close();
    }
  });
});

describe('the request headers a hit reads', () => {
  it("are those of Node's header object (first Host, Accept-Encoding joined, any case, any Origin)", async () => {
    const seen: Array<[HitHeaders, http.IncomingHttpHeaders]> = [];
    const server = http.createServer((req, res) => {
      const mine = readHitHeaders(req.rawHeaders, {
        host: undefined,
        acceptEncoding: undefined,
        origin: false,
        body: false,
        cookie: undefined,
      });
      seen.push([{ ...mine }, req.headers]);
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    const heads = [
      'Host: a\r\n',
      'host: a\r\nHOST: b\r\n',
      'Host: a\r\nAccept-Encoding: gzip\r\naccept-encoding: br\r\nAccept-encoding: deflate\r\n',
      'Host: a\r\nOrigin: https://x.org\r\n',
      'Host: a\r\nORIGIN: https://x.org\r\norigin: https://y.org\r\n',
      'Host: a\r\nContent-Length: 0\r\n',
      'Host: a\r\ncontent-length: 0\r\n',
      'Host: a\r\nTransfer-Encoding: chunked\r\n',
      'Host: a\r\nX-Accept-Encoding: gzip\r\nHosts: b\r\nOrigins: c\r\n',
      'Host: \r\nAccept-Encoding: \r\n',
      'Host: a\r\nCookie: a=1\r\ncookie: b=2\r\nCOOKIE: c=3\r\nCookies: d\r\n',
    ];
    try {
      for (const h of heads) {
        const body = /transfer-encoding/i.test(h) ? '0\r\n\r\n' : '';
        await exchange(port, `GET /x HTTP/1.1\r\n${h}Connection: close\r\n\r\n${body}`, 100);
      }
      assert.equal(seen.length, heads.length);
      for (const [mine, node] of seen) {
        assert.deepEqual(mine, {
          host: node.host,
          acceptEncoding: node['accept-encoding'],
          origin: node.origin !== undefined,
          body: node['content-length'] !== undefined || node['transfer-encoding'] !== undefined,
          cookie: node.cookie,
        });
      }
    } finally {
      server.close();
    }
  });
});

describe('the idle timeout of a connection', () => {
  it('closes a connection that stops taking bytes, and only that one', { timeout: 15_000 }, async () => {
    const big = Buffer.alloc(32 * 1024 * 1024, 'x');
    const server = http.createServer((req, res) => {
      if (req.url === '/big') res.end(big);
      else res.end('ok');
    });
    const stop = watchIdleConnections(server, 500);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as net.AddressInfo).port;
    try {
      // the server's side of each connection, in the order they come, with when they closed
      const sides: Array<{ opened: number; closed?: number }> = [];
      server.on('connection', (socket: net.Socket) => {
        const side: { opened: number; closed?: number } = { opened: Date.now() };
        sides.push(side);
        socket.on('close', () => (side.closed = Date.now()));
      });
      // a client that asks for 32 MB and reads nothing
      const stalled = net.connect(port, '127.0.0.1', () => stalled.write('GET /big HTTP/1.1\r\nHost: a\r\n\r\n'));
      stalled.pause();
      stalled.on('error', () => {});
      await new Promise((r) => stalled.once('connect', r));
      // a client that keeps asking meanwhile
      const busy = net.connect(port, '127.0.0.1');
      let busyClosed = false;
      busy.on('close', () => (busyClosed = true));
      busy.on('data', () => {});
      await new Promise((r) => busy.once('connect', r));
      const t0 = Date.now();
      while (Date.now() - t0 < 2500) {
        busy.write('GET /small HTTP/1.1\r\nHost: a\r\n\r\n');
        await new Promise((r) => setTimeout(r, 100));
      }
      assert.equal(sides.length, 2);
      const [first, second] = sides;
      assert.ok(first!.closed !== undefined, 'the stalled connection is open');
      const after = first!.closed! - first!.opened;
      assert.ok(after >= 500 && after < 2000, `closed after ${after} ms`);
      assert.equal(second!.closed, undefined);
      assert.equal(busyClosed, false);
      stalled.destroy();
      busy.destroy();
    } finally {
      stop();
      server.close();
      server.closeAllConnections();
    }
  });
});
