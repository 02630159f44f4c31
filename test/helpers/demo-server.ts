/**
 * Test harness: the demo wiki generated and imported (once per `npm test` pass, or once per process for a
 * test file run on its own) and served on a free loopback port. Requests go over real HTTP.
 */
import type { InterwikiMap } from '../../src/wiki/interwiki.js';
import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import zlib from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ServerOptions, type WikiServer } from '../../src/http/server.js';
import { openStore } from '../../src/store/open.js';
import { TEST_DB, freshPostgresDatabase } from './test-db.js';

export interface ApiAnswer {
  status: number;
  headers: Headers;
  text: string;
  /** parsed JSON body (undefined when the body is not JSON) */
  json: any;
}

export interface DemoServer {
  url: string;
  dir: string;
  server: WikiServer;
  /** GET /api.php with these parameters (format=json is added unless given) */
  get(params: Record<string, string | number | boolean>, init?: RequestInit): Promise<ApiAnswer>;
  /** POST /api.php with an urlencoded body */
  post(params: Record<string, string>, query?: Record<string, string>): Promise<ApiAnswer>;
  close(): Promise<void>;
}

/** The 1.25 warning that comes with raw query-continue when neither continue nor rawcontinue was sent. */
export const RAW_CONTINUE_WARNING =
  "Formatting of continuation data will be changing soon. To continue using the current formatting, use the 'rawcontinue' parameter. To begin using the new format, pass an empty string for 'continue' in the initial query.";

export function toQuery(params: Record<string, string | number | boolean>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) p.set(k, v === true ? '' : String(v));
  return p.toString();
}

/** the headers fetch() sends unless told otherwise: the tests were written against fetch */
const FETCH_DEFAULTS: Record<string, string> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

const keepAlive = new http.Agent({ keepAlive: true });

/** the default headers as sent (Headers' order, lower case): made once, not per request */
const DEFAULT_HEADERS = Object.freeze(Object.fromEntries(new Headers(FETCH_DEFAULTS)));

/** where a request goes: the server's address, parsed once, and the path with the query */
interface Target {
  hostname: string;
  port: string;
  path: string;
}

function decoded(body: Buffer, encoding: string | undefined): Buffer {
  if (encoding === 'gzip') return zlib.gunzipSync(body);
  if (encoding === 'deflate') return zlib.inflateSync(body);
  if (encoding === 'br') return zlib.brotliDecompressSync(body);
  return body;
}

/**
 * One request as fetch() makes it (its default headers, the body decoded), over node:http: fetch costs
 * the suite several times the CPU per request, and some files send thousands.
 */
function request(method: string, target: Target, headers?: HeadersInit, body?: string): Promise<ApiAnswer> {
  let sent = DEFAULT_HEADERS;
  if (headers !== undefined) {
    const given = new Headers(headers);
    for (const [name, value] of Object.entries(FETCH_DEFAULTS)) if (!given.has(name)) given.set(name, value);
    sent = Object.fromEntries(given);
  }
  return send(method, target, sent, body, true);
}

function send(
  method: string,
  target: Target,
  headers: Record<string, string>,
  body: string | undefined,
  retry: boolean,
): Promise<ApiAnswer> {
  const { hostname, port, path } = target;
  return new Promise((resolve, reject) => {
    const req = http.request({ hostname, port, path, method, headers, agent: keepAlive, timeout: 10_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const received = new Headers();
        for (let i = 0; i < res.rawHeaders.length; i += 2) received.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
        let text: string;
        try {
          text = decoded(Buffer.concat(chunks), res.headers['content-encoding']).toString('utf8');
        } catch (e) {
          reject(e);
          return;
        }
        let json: any;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: received, text, json });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`no answer in 10 s: ${method} http://${hostname}:${port}${path}`)));
    req.on('error', (e: NodeJS.ErrnoException) => {
      // a kept-alive socket the server closed while this process was busy (its idle timeout passed):
      // the request never reached the server, so it is sent once more on a new socket, as browsers do
      if (retry && req.reusedSocket && e.code === 'ECONNRESET') send(method, target, headers, body, false).then(resolve, reject);
      else reject(e);
    });
    req.end(body);
  });
}

export interface DemoDatabase {
  /** the folder holding the generated demo (demo/: dump.xml, files/, messages/) and demo.sqlite */
  dir: string;
  /** the SQLite file (tests of SQLite's own query plans read it) */
  db: string;
  /** what the demo server answers from: that file, or in the PostgreSQL pass the same dump imported into a database of the test cluster */
  served: string;
}

/**
 * Generate the demo wiki into `dir` and import it, as `wikiquery import` does: into dir/demo.sqlite, and
 * with `postgres` also into a new database of the test cluster. `npm test` (scripts/run-tests.ts) builds
 * it once for both passes (importing it into the cluster with importDemo for the PostgreSQL pass) and
 * hands it to every test process through WIKIQUERY_TEST_DEMO_DIR and WIKIQUERY_TEST_DEMO_SERVED.
 */
export async function buildDemoDatabase(dir: string, postgres: boolean): Promise<DemoDatabase> {
  // loaded here, not with this file: a test process given the pass's demo never imports, and loading the
  // importer's modules would cost it a third of a CPU second
  const { generateDemo } = await import('../../src/demo/build.js');
  generateDemo(join(dir, 'demo'));
  const db = join(dir, 'demo.sqlite');
  const built = { dir, db, served: db };
  await importDemo(built, db);
  if (postgres) built.served = await importDemo(built, await freshPostgresDatabase('demo'));
  return built;
}

/** The generated demo of `demo.dir` imported into `location` (a file, or a database of the test cluster); the location. */
export async function importDemo(demo: DemoDatabase, location: string): Promise<string> {
  const [{ importWiki }, { importHooks, importInlineQueries }] = await Promise.all([
    import('../../src/importer/import.js'),
    import('../../src/cli/import-command.js'),
  ]);
  await importWiki({
    dump: join(demo.dir, 'demo', 'dump.xml'),
    db: location,
    filesDir: join(demo.dir, 'demo', 'files'),
    messageDirs: [join(demo.dir, 'demo', 'messages')],
    lang: 'uk',
    hooks: importHooks(),
    inlineQueries: importInlineQueries(),
    progress: false,
    log: () => {},
  });
  return location;
}

let prepared: DemoDatabase | null = null;

/**
 * The demo wiki, imported: the one the test runner built for the whole pass when it set
 * WIKIQUERY_TEST_DEMO_DIR (shared by every test process: read it, never write it -- a test that changes a
 * database copies it first), or else one generated and imported into a temporary directory for this
 * process (a test file run on its own).
 */
export async function demoDatabase(): Promise<DemoDatabase> {
  if (prepared) return prepared;
  const shared = process.env.WIKIQUERY_TEST_DEMO_DIR;
  if (shared) {
    const db = join(shared, 'demo.sqlite');
    prepared = { dir: shared, db, served: process.env.WIKIQUERY_TEST_DEMO_SERVED || db };
    return prepared;
  }
  const dir = mkdtempSync(join(tmpdir(), 'wikiquery-test-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  prepared = await buildDemoDatabase(dir, TEST_DB === 'postgres');
  return prepared;
}

/**
 * @param opts.filesDir the files directory to serve (default: the demo's, when serving the demo database)
 * @param opts.server further server options (CORS, trusted proxies, cache size)
 */
export async function startDemoServer(
  opts: { debug?: boolean; db?: string; filesDir?: string; server?: Partial<ServerOptions>; interwiki?: InterwikiMap } = {},
): Promise<DemoServer> {
  const { dir, served: db } = opts.db ? { dir: '', served: opts.db } : await demoDatabase();
  const server = await createServer({
    store: await openStore(db, { debug: opts.debug }),
    // as the CLI does: reload() opens the same location again, /metrics reports a file's size
    openStore: () => openStore(db, { debug: opts.debug }),
    debug: opts.debug,
    logLevel: 'silent',
    filesDir: opts.filesDir ?? (dir ? join(dir, 'demo', 'files') : undefined),
    interwiki: opts.interwiki,
    ...opts.server,
  });
  const address = await server.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `${address}/api.php`;
  const { hostname, port } = new URL(address);
  return {
    url,
    dir,
    server,
    get(params, init) {
      const withFormat = 'format' in params ? params : { format: 'json', ...params };
      return request('GET', { hostname, port, path: `/api.php?${toQuery(withFormat)}` }, init?.headers);
    },
    post(params, query) {
      const q = query ? '?' + toQuery(query) : '';
      return request(
        'POST',
        { hostname, port, path: '/api.php' + q },
        { 'content-type': 'application/x-www-form-urlencoded' },
        toQuery(params),
      );
    },
    close: () => server.close(),
  };
}

/**
 * The demo server of a whole test file: started before its first test, closed after its last. The object
 * returned stands for it from the start, so a file can keep it in a const.
 */
export function demoServerForFile(): DemoServer {
  let running: DemoServer | undefined;
  before(async () => {
    running = await startDemoServer();
  });
  after(async () => {
    await running?.close();
  });
  const started = (): DemoServer => {
    if (!running) throw new Error('the demo server is started in before(): use it inside a test or hook');
    return running;
  };
  return {
    get url() {
      return started().url;
    },
    get dir() {
      return started().dir;
    },
    get server() {
      return started().server;
    },
    get: (params, init) => started().get(params, init),
    post: (params, query) => started().post(params, query),
    close: () => started().close(),
  };
}

/** The answer is MediaWiki's error object for `code` and `info`, and names the code in its header. */
export function assertApiError(s: DemoServer, answer: { json: any; headers: Headers }, code: string, info: string): void {
  assert.deepEqual(answer.json, { error: { code, info, '*': `See ${s.url} for API usage` } });
  assert.equal(answer.headers.get('mediawiki-api-error'), code);
}
