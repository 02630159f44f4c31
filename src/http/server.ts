/**
 * The HTTP layer: Fastify routes for /api.php (GET, POST urlencoded or multipart, OPTIONS), decoding
 * into flat parameters, handing them to ApiMain, and writing its status, headers and body; plus the
 * service around it: the response cache with its compressed forms, /health, /metrics, `GET /`, the
 * request log, graceful close, and replacing the database while serving. Nothing here knows about
 * modules or SQL.
 */
import type { IncomingHttpHeaders, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { Logger } from 'pino';
import { ApiMain } from '../api/main.js';
import type { CorsPolicy } from '../api/cors.js';
import { createRegistry } from '../modules/registry.js';
import type { Store } from '../store/store.js';
import { Wiki } from '../wiki/wiki.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import { decodeParams } from './params.js';
import { registerFileRoutes } from './files.js';
import { registerArticleRoutes } from './article.js';
import { ResponseCache, type CachedAnswer, type Entry, type Wire } from './response-cache.js';
import { createLogger } from './logger.js';
import { Generations, type Generation, type ImportIdentity } from './generations.js';
import { THRESHOLD, chooseEncoding, encodeBody, registerCompression, varyWithEncoding, type Encoding } from './compression.js';
import { Metrics, requestLabels, type RequestLabels, type Series } from './metrics.js';
import { registerHealth } from './health.js';
import { GracefulClose } from './shutdown.js';
import { makeClientErrorHandler } from './client-error.js';
import { DEFAULT_LIMITS, parseMultipart, type HttpLimits } from './limits.js';
import { DEFAULT_LOAD_LIMITS, createLoadShedding, type LoadLimits, type LoadState } from './load-shedding.js';
import { DEFAULT_MAX_RESULT_SIZE } from '../api/result-size.js';
import { watchIdleConnections } from './idle-timeout.js';
import { headerHead, newBlock, readHitHeaders, writeBlock, writeFresh, type Block, type HitHeaders } from './wire.js';
import { WriteBatch } from './write-batch.js';

export interface ServerOptions {
  /** the opened store to serve (the CLI opens it from --db); closed with the server */
  store: Store;
  debug?: boolean;
  /** pino log level (default warn; 'silent' in tests); one line per request at info */
  logLevel?: string;
  /** a logger to use instead of creating one (the CLI shares its own) */
  logger?: Logger;
  /** directory the files were imported from (to serve their bytes) */
  filesDir?: string;
  /** size of the response cache in MB (0 = off); default 64 */
  cacheMb?: number;
  /** the interwiki map, when the operator gives one (default: MediaWiki's list) */
  interwiki?: InterwikiMap;
  /** origins allowed to make credentialed cross-site requests ($wgCrossSiteAJAXdomains) and exceptions */
  cors?: CorsPolicy;
  /**
   * Believe X-Forwarded-For/-Proto/-Host from these peers (Fastify's trustProxy: true, a hop count,
   * or addresses/CIDR ranges): the URLs the API reports then name the proxy's scheme and host.
   */
  trustProxy?: boolean | number | string[];
  /** open the database again, for reload() (the CLI: the same --db); without it reload() fails */
  openStore?: () => Promise<Store>;
  /** body, connection and timeout limits (src/http/limits.ts) */
  limits?: Partial<HttpLimits>;
  /** load shedding (src/http/load-shedding.ts) */
  load?: Partial<LoadLimits>;
  /** $wgAPIMaxResultSize: bytes of values in one answer (default 8388608) */
  maxResultSize?: number;
}

/** What a database swap reports. */
export interface ReloadResult {
  changed: boolean;
  previous: ImportIdentity;
  current: ImportIdentity;
  generation: number;
}

export interface WikiServer {
  app: FastifyInstance;
  /** the store answering new requests */
  readonly store: Store;
  readonly identity: ImportIdentity;
  readonly generation: number;
  readonly log: Logger;
  /**
   * Open the database again and answer new requests from it; requests under way finish on the old one,
   * which is closed after them; the response cache is emptied. A database that cannot be opened is
   * reported (thrown) and the server goes on with the old one.
   */
  reload(): Promise<ReloadResult>;
  /** stop accepting, finish what runs (with Connection: close), cut the rest after graceMs */
  shutdown(graceMs: number): Promise<void>;
  /** requests in flight, unread answer bytes and requests shed (src/http/load-shedding.ts) */
  load: LoadState;
  close(): Promise<void>;
}

interface Built {
  api: ApiMain;
}

/** on a request to the API: what the metrics and the request log say about it */
const LABELS = Symbol('wikiquery.labels');
type Labelled = FastifyRequest & { [LABELS]?: { labels: RequestLabels; error: boolean } };
const HELP_LABELS: RequestLabels = { action: 'help', modules: [] };

/** An API request as both paths (the Fastify route and the direct one) hand it to answerApi. */
interface ApiCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  ip: string;
  /** scheme://host as the client addressed us */
  base: string;
  body: Record<string, unknown> | undefined;
}

/**
 * An answer with what the metrics say about it and its cache entry (null: not cached). An answer that is
 * not kept stays text until it is written: the direct path hands it to the socket with the header block
 * in one write, no Buffer made for it.
 */
interface ApiReply {
  answer: CachedAnswer | Omit<CachedAnswer, 'body'>;
  body: Buffer | string;
  entry: Entry | null;
  labels: RequestLabels;
  error: boolean;
}

/** on a direct request's response: the metrics series it is counted in (none: not an API answer) and its start */
const DIRECT = Symbol('wikiquery.direct');
const START = Symbol('wikiquery.start');
type DirectResponse = ServerResponse & { [DIRECT]?: Series; [START]?: number };

/** The error object of a request the HTTP layer refuses (its body could not be read). */
const refusal = (error: Error, base: string) =>
  JSON.stringify({ error: { code: 'badrequest', info: `The request could not be read: ${error.message}`, '*': `See ${base}/api.php for API usage` } });

/** a connection that neither sends nor takes bytes for this long is closed */
const IDLE_TIMEOUT_MS = 60_000;

const HOST_RE = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

export async function createServer(opts: ServerOptions): Promise<WikiServer> {
  const registry = createRegistry();
  const open =
    opts.openStore ??
    (() => {
      throw new Error('this server was given no way to reopen its database');
    });
  const build = async (store: Store): Promise<Built> => {
    const wiki = await Wiki.forServing(store.site, store.relations, opts.interwiki);
    return { api: new ApiMain(store, wiki, registry, { debug: opts.debug, cors: opts.cors, maxResultSize: opts.maxResultSize ?? DEFAULT_MAX_RESULT_SIZE }) };
  };
  const generations = await Generations.start(opts.store, build);
  const log = opts.logger ?? createLogger(opts.logLevel ?? 'warn');
  const actionNames = new Set(registry.actions.map((m) => m.name));
  const queryNames = new Set(registry.query.map((m) => m.name));

  let httpServer: Server | null = null;
  /** for requests too malformed to name a host: the address the server listens on */
  const listenHost = () => {
    const a = httpServer?.address();
    return a && typeof a === 'object' ? (a.family === 'IPv6' ? `[${a.address}]:${a.port}` : `${a.address}:${a.port}`) : '127.0.0.1';
  };
  const tp = opts.trustProxy;
  // once per process: a spread copy given more members is fine here
  const limits: HttpLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const app: FastifyInstance = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    // one line per request, written by the onResponse hook below with the API's own labels
    logController: new LogController({ disableRequestLogging: true }),
    // parameters are decoded by decodeParams from the raw URL, PHP-style
    routerOptions: { querystringParser: () => ({}) },
    bodyLimit: limits.bodyBytes,
    // Node checks header and request deadlines only every connectionsCheckingInterval (30 s by default):
    // half-open connections were held a minute
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs) },
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // a hop count: trust the nearest N peers
    trustProxy: typeof tp === 'number' ? (_addr: string, i: number) => i < tp : (tp ?? false),
    clientErrorHandler: makeClientErrorHandler(() => httpServer!, () => `http://${listenHost()}/api.php`) as (e: Error, s: Socket) => void,
  });
  httpServer = app.server;
  // a socket that neither sends nor takes bytes for this long (a client that stopped reading) is closed;
  // watched once a second rather than by Node's timer per request (src/http/idle-timeout.ts)
  const unwatchIdle = watchIdleConnections(app.server, IDLE_TIMEOUT_MS);
  app.server.maxConnections = limits.maxConnections;
  // once per process: a spread copy given more members is fine here
  const { state: load, hooks: loadHooks, gate: loadGate } = createLoadShedding({ ...DEFAULT_LOAD_LIMITS, ...opts.load });
  // PHP reads only urlencoded and multipart bodies; any other body is ignored, not an error.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  await app.register(formbody, { bodyLimit: limits.bodyBytes });
  // multipart under the same byte limit as urlencoded, streamed, refused (413) rather than truncated
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    parseMultipart(request.headers, payload, limits).then((fields) => done(null, fields), (e: Error) => done(e, undefined));
  });
  await registerCompression(app);
  const graceful = new GracefulClose(app);

  const cache = new ResponseCache((opts.cacheMb ?? 64) * 1024 * 1024);
  const metrics = new Metrics({
    cacheSize: () => cache.size,
    databaseBytes: () => generations.current.store.sizeBytes(),
    pages: () => generations.current.identity.pages,
    generation: () => generations.current.number,
  });

  /** Run `use` on the current generation; a swap meanwhile closes its database only after `use` has finished. */
  const withGeneration = async <T>(use: (gen: Generation<Built>) => Promise<T>): Promise<T> => {
    const gen = generations.acquire();
    try {
      return await use(gen);
    } finally {
      generations.release(gen);
    }
  };
  const withStore = <T>(use: (store: Store) => Promise<T>): Promise<T> => withGeneration((gen) => use(gen.store));

  // the base URL of the last Host seen (a server is addressed by few names)
  let lastHost: string | undefined;
  let lastTls = false;
  let lastBase = '';
  /** scheme://host as the client addressed us (a Host that is not a host name: our loopback address) */
  const baseOf = (tls: boolean, host: string | undefined): string => {
    if (host === lastHost && tls === lastTls && host !== undefined) return lastBase;
    const h = host ?? '';
    lastHost = host;
    lastTls = tls;
    lastBase = `${tls ? 'https' : 'http'}://${HOST_RE.test(h) ? h : '127.0.0.1'}`;
    return lastBase;
  };
  /** the base URL of a request on the Fastify route (through a trusted proxy: as the proxy was addressed) */
  const origin = (request: FastifyRequest): string => baseOf(request.protocol === 'https', request.host);


  /** the encoding chosen per Accept-Encoding value (clients send few distinct ones) */
  const encodings = new Map<string, Encoding | null>();
  const encodingOf = (acceptEncoding: string | undefined, bodyLength: number): Encoding | null => {
    if (acceptEncoding === undefined || bodyLength < THRESHOLD) return null;
    let e = encodings.get(acceptEncoding);
    if (e === undefined) {
      e = chooseEncoding(acceptEncoding, bodyLength);
      if (encodings.size >= 256) encodings.clear();
      encodings.set(acceptEncoding, e);
    }
    return e;
  };

  /**
   * An API answer's body for the client's Accept-Encoding, compressed here rather than by the plugin:
   * synchronously (the plugin streams large bodies through zlib, 3-4x slower for a 100 KB answer), and
   * for a cached answer only once per encoding.
   */
  const encodeFor = (acceptEncoding: string | undefined, r: ApiReply): { body: Buffer | string; encoding: Encoding | null } => {
    const plain = r.body;
    const encoding = encodingOf(acceptEncoding, typeof plain === 'string' ? Buffer.byteLength(plain) : plain.length);
    if (encoding === null) return { body: plain, encoding };
    let body = r.entry?.encoded?.[encoding];
    if (!body) {
      body = encodeBody(typeof plain === 'string' ? Buffer.from(plain, 'utf8') : plain, encoding);
      if (r.entry !== null) cache.addEncoded(r.entry, encoding, body);
    }
    return { body, encoding };
  };

  const sendAnswer = (request: FastifyRequest, reply: FastifyReply, r: ApiReply) => {
    const { body, encoding } = encodeFor(request.headers['accept-encoding'], r);
    reply.code(r.answer.status).headers(r.answer.headers);
    // a Buffer, as Fastify sends an answer from the cache
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    if (encoding === null) return reply.send(bytes);
    return reply.header('Content-Encoding', encoding).header('Vary', varyWithEncoding(r.answer.headers.Vary)).send(bytes);
  };

  const isError = (answer: CachedAnswer) => answer.headers['MediaWiki-API-Error'] !== undefined;
  const hitReply = (hit: Entry): ApiReply => ({ answer: hit, body: hit.body, entry: hit, labels: hit.labels ?? HELP_LABELS, error: isError(hit) });

  /**
   * The response cache's side of a request: null when its answer is not kept (only a GET's answer is a
   * function of its URL, and of the scheme and host it names in links; an Origin header changes CORS
   * handling), else the answer stored for this URL, scheme and host (or for this client alone), or
   * undefined; hits and misses are counted.
   */
  const fromCache = (method: string, origin: boolean, base: string, ip: string, url: string): Entry | null | undefined => {
    if (!cache.enabled || method !== 'GET' || origin) return null;
    const hit = cache.get(base, url) ?? cache.get(`${ip} ${base}`, url);
    metrics.cache(hit !== undefined);
    return hit;
  };

  /** The answer to an API request, from the response cache or computed (synchronously for a cache hit). */
  const answerApi = (call: ApiCall): ApiReply | Promise<ApiReply> => {
    const hit = fromCache(call.method, call.headers.origin !== undefined, call.base, call.ip, call.url);
    return hit ? hitReply(hit) : computeApi(call, hit === undefined);
  };

  const computeApi = async (call: ApiCall, cacheable: boolean): Promise<ApiReply> => {
    const url = call.url;
    const qi = url.indexOf('?');
    const { raw, phpArrays } = decodeParams(qi < 0 ? '' : url.slice(qi + 1), call.body);
    const labels = requestLabels(raw, actionNames, queryNames);
    // the API reads headers as text: a copy without the others (Node gives only Set-Cookie as a list) only when there are any
    const given = call.headers;
    let headers = given as Record<string, string>;
    for (const k in given) {
      if (typeof given[k] === 'string') continue;
      headers = {};
      for (const n in given) {
        const v = given[n];
        if (typeof v === 'string') headers[n] = v;
      }
      break;
    }
    // withGeneration inlined: no closure per request
    const gen = generations.acquire();
    let res: Awaited<ReturnType<ApiMain['handle']>>;
    try {
      res = await gen.app.api.handle({ method: call.method, url, headers, raw, ip: call.ip, apiUrl: `${call.base}/api.php` }, phpArrays);
    } finally {
      generations.release(gen);
    }
    const error = res.headers['MediaWiki-API-Error'] !== undefined;
    // an answer computed on a database that has since been replaced is not kept
    if (cacheable && res.cacheable && gen === generations.current) {
      const answer: CachedAnswer = { status: res.status, headers: res.headers, body: typeof res.body === 'string' ? Buffer.from(res.body, 'utf8') : res.body, labels };
      const entry = cache.set(res.cacheable.perClient ? `${call.ip} ${call.base}` : call.base, url, answer, res.cacheable.untilSecondEnds);
      return entry !== null ? { answer: entry, body: entry.body, entry, labels, error } : { answer, body: answer.body, entry: null, labels, error };
    }
    return { answer: res, body: res.body, entry: null, labels, error };
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const r = await answerApi({
      method: request.method,
      url: request.raw.url ?? '/',
      headers: request.headers,
      ip: request.ip,
      base: origin(request),
      body: request.body as Record<string, unknown> | undefined,
    });
    (request as Labelled)[LABELS] = { labels: r.labels, error: r.error };
    return sendAnswer(request, reply, r);
  };

  /**
   * The API's GET requests without a body, answered straight from node:http: Fastify's routing, request
   * and reply objects, hooks and logger child cost more per request than a small answer. The answer,
   * its headers (names in lower case and in the order Fastify writes them), the load accounting, the
   * metrics and graceful closing are the same as on the Fastify route, which takes every other request:
   * other methods, bodies, a trusted proxy (its addresses), info-level request logging, and a server
   * that is closing. A response-cache hit reads only the request headers it needs (from the raw list), and
   * is written from the entry's stored header block and body (src/http/wire.ts) in one end(): no header
   * object, no per-request validation of its headers, and no in-flight accounting when the socket takes it
   * whole (then its metrics are counted at once). Direct answers are written at the end of the event-loop
   * turn, together (src/http/write-batch.ts).
   */
  const direct = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (req.method !== 'GET' || closing || graceful.stopping || tp) return false;
    const url = req.url ?? '/';
    const qi = url.indexOf('?');
    const pathEnd = qi < 0 ? url.length : qi;
    if (!(pathEnd === 8 ? url.startsWith('/api.php') : pathEnd === 10 && url.startsWith('/w/api.php'))) return false;
    const h = readHitHeaders(req.rawHeaders, hitHeaders);
    if (h.body) return false;
    if (log.isLevelEnabled('info') || loadGate.wouldShed()) return false;
    const start = performance.now();
    loadGate.take();
    const socket = req.socket as IncomingMessage['socket'] & { encrypted?: boolean };
    const ip = socket.remoteAddress!;
    const base = baseOf(socket.encrypted === true, h.host);
    const hit = fromCache('GET', h.origin, base, ip, url);
    if (hit) {
      const acceptEncoding = h.acceptEncoding;
      batch.defer(res, () => writeHit(res, acceptEncoding, hit, start));
      return true;
    }
    loadGate.admit(res, onDirectClose);
    void answerDirect(res, { method: 'GET', url, headers: req.headers, ip, base, body: undefined }, hit === undefined, start);
    return true;
  };
  /** the direct answers of one event-loop turn, written together at its end (src/http/write-batch.ts) */
  const batch = new WriteBatch();
  /** the request headers a hit reads, filled per request */
  const hitHeaders: HitHeaders = { host: undefined, acceptEncoding: undefined, origin: false, body: false };

  const answerDirect = async (res: ServerResponse, call: ApiCall, cacheable: boolean, start: number): Promise<void> => {
    let r: ApiReply;
    try {
      r = await computeApi(call, cacheable);
    } catch (e) {
      refuseDirect(res, e as Error, call.base, start);
      return;
    }
    if (r.entry !== null && !graceful.stopping) return writeEntry(res, call.headers['accept-encoding'], r.entry, start);
    const { body, encoding } = encodeFor(call.headers['accept-encoding'], r);
    const status = r.answer.status;
    // A text answer (JSON answers are bytes already) goes out in one write with the header block, which
    // Node then sends as UTF-8 rather than Latin-1: the same bytes while the header values are ASCII, as
    // they are but for CORS's echo of the Origin header.
    const text = typeof body === 'string' && call.headers.origin !== undefined ? Buffer.from(body, 'utf8') : body;
    finishDirect(res, status, directHeaders(r.answer.headers, encoding), text, metrics.series(r.labels, status, r.error), start);
  };

  /** header names as Fastify's reply writes them (lower case), made once per name */
  const lowerNames = new Map<string, string>();
  const lowerName = (k: string): string => {
    let l = lowerNames.get(k);
    if (l === undefined) {
      l = k.toLowerCase();
      if (lowerNames.size < 256) lowerNames.set(k, l);
    }
    return l;
  };
  /** set a header in a flat list, in place when it is there already (as on an object keyed by name) */
  const put = (list: string[], name: string, value: string) => {
    for (let i = 0; i < list.length; i += 2) {
      if (list[i] === name) {
        list[i + 1] = value;
        return;
      }
    }
    list.push(name, value);
  };

  /** the headers of a direct answer as writeHead's flat list, named and ordered as Fastify's reply writes them */
  const directHeaders = (given: Record<string, string>, encoding: Encoding | null): string[] => {
    const out: string[] = [];
    let typed = false;
    for (const k in given) {
      const name = lowerName(k);
      if (name === 'content-type') typed = true;
      put(out, name, given[k]!);
    }
    if (encoding !== null) {
      put(out, 'content-encoding', encoding);
      put(out, 'vary', varyWithEncoding(given.Vary));
    }
    // as Fastify's reply.send of a Buffer, then the onSend hooks, then the length
    if (!typed) out.push('content-type', 'application/octet-stream');
    return out;
  };

  /** a cached answer's headers and body for this encoding, made once */
  const wireOf = (acceptEncoding: string | undefined, entry: Entry): Wire => {
    const encoding = encodingOf(acceptEncoding, entry.body.length);
    let wire = entry.wire[encoding ?? ''];
    if (wire === undefined) {
      const { body } = encodeFor(acceptEncoding, hitReply(entry));
      const headers = directHeaders(entry.headers, encoding);
      headers.push('content-length', String(body.length));
      wire = entry.wire[encoding ?? ''] = { headers, body: body as Buffer, block: newBlock(headerHead(entry.status, headers)) };
    }
    return wire;
  };
  const seriesOf = (entry: Entry): Series => {
    let series = entry.tag as Series | undefined;
    if (series === undefined) entry.tag = series = metrics.series(entry.labels ?? HELP_LABELS, entry.status, isError(entry));
    return series;
  };

  /** an answer just stored, for a request in flight since it arrived */
  const writeEntry = (res: ServerResponse, acceptEncoding: string | undefined, entry: Entry, start: number) => {
    const wire = wireOf(acceptEncoding, entry);
    writeOut(res, entry.status, wire.headers, wire.body, wire.body.length, seriesOf(entry), start, wire.block);
  };

  /**
   * A hit: written at once from the stored header block. It is counted in flight (and its metrics taken
   * when its response closes) only when the socket did not take it whole; else it is over already, and
   * counted now.
   */
  const writeHit = (res: ServerResponse, acceptEncoding: string | undefined, entry: Entry, start: number) => {
    const wire = wireOf(acceptEncoding, entry);
    const series = seriesOf(entry);
    send(res, entry.status, wire.headers, wire.body, wire.block);
    if (res.writableLength === 0) {
      // a socket destroyed by the write: the client never got it (as a response that closes unfinished)
      if (!res.socket?.destroyed) metrics.observe(series, (performance.now() - start) / 1000);
      return;
    }
    loadGate.admit(res, onDirectClose);
    loadGate.sent(res, wire.body.length);
    const d = res as DirectResponse;
    d[DIRECT] = series;
    d[START] = start;
  };

  /** as the error handler answers on the Fastify route (ApiMain answers every failure itself: not expected) */
  const refuseDirect = (res: ServerResponse, error: Error, base: string, start: number) => {
    log.warn({ err: error }, 'request body refused');
    const body = Buffer.from(refusal(error, base), 'utf8');
    const out = ['x-frame-options', 'DENY', 'mediawiki-api-error', 'badrequest', 'content-type', 'application/json; charset=utf-8'];
    // not an API answer: the metrics skip it, as the onResponse hook skips a request it has no labels for
    finishDirect(res, 400, out, body, undefined, start);
  };

  /** an answer not from the cache: its length (and, while closing, Connection: close) added to its headers */
  const finishDirect = (res: ServerResponse, status: number, out: string[], body: Buffer | string, series: Series | undefined, start: number) => {
    if (graceful.stopping) out.push('connection', 'close');
    const bytes = typeof body === 'string' ? Buffer.byteLength(body, 'utf8') : body.length;
    out.push('content-length', String(bytes));
    writeOut(res, status, out, body, bytes, series, start);
  };

  /** every direct answer's end: its bytes counted in flight, its series and start kept for the metrics, written */
  const writeOut = (res: ServerResponse, status: number, headers: string[], body: Buffer | string, bytes: number, series: Series | undefined, start: number, block?: Block) => {
    loadGate.sent(res, bytes);
    const d = res as DirectResponse;
    d[DIRECT] = series;
    d[START] = start;
    batch.defer(res, () => send(res, status, headers, body, block));
  };

  /** the answer's bytes: from a cached answer's stored header block, or a computed one's remembered header lines, when the response allows; else by writeHead */
  const send = (res: ServerResponse, status: number, headers: string[], body: Buffer | string, block?: Block) => {
    if (block !== undefined ? writeBlock(res, status, block, body as Buffer) : writeFresh(res, status, headers, body)) return;
    res.writeHead(status, headers);
    res.end(body);
  };

  // called by the load accounting's close listener: the metrics of a direct request that was answered,
  // as the onResponse hook records them on 'finish'
  function onDirectClose(res: ServerResponse) {
    const d = res as DirectResponse;
    const s = d[DIRECT];
    if (s !== undefined && res.writableFinished) metrics.observe(s, (performance.now() - d[START]!) / 1000);
  }

  // API answers are compressed by sendAnswer (compress: false: no plugin hooks on these routes); only
  // these routes are shed under load
  const apiRoute = { method: ['GET', 'POST', 'OPTIONS'], handler, compress: false, onRequest: loadHooks.onRequest, onSend: loadHooks.onSend } as const;
  // once per process: a spread copy given more members is fine here
  app.route({ ...apiRoute, method: [...apiRoute.method], url: '/api.php' });
  app.route({ ...apiRoute, method: [...apiRoute.method], url: '/w/api.php' });
  // the site root: where a person typing the server's address wants to go
  app.route({ method: ['GET', 'HEAD'], url: '/', exposeHeadRoute: false, handler: async (_req, reply) => reply.code(301).header('Location', '/api.php').header('Cache-Control', 'max-age=3600').send() });
  registerFileRoutes(app, withStore, opts.filesDir);
  registerArticleRoutes(app, (use) => withGeneration((gen) => use(gen.store, gen.app.api.wiki)));
  registerHealth(app, {
    stopping: () => graceful.stopping,
    identity: () => generations.current.identity,
    generation: () => generations.current.number,
    probe: () => withStore((store) => store.pages.byIds([1])).then(() => undefined),
  });
  metrics.register(app);

  // the direct path in front of Fastify's request listener (which stays the server's for everything else)
  let closing = false;
  app.addHook('onClose', (_instance, done) => {
    closing = true;
    unwatchIdle();
    done();
  });
  const [fastifyListener] = app.server.listeners('request') as Array<(req: IncomingMessage, res: ServerResponse) => void>;
  app.server.removeAllListeners('request');
  app.server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!direct(req, res)) fastifyListener!(req, res);
  });

  // callback style: no promise per request
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const l = (request as Labelled)[LABELS];
    if (l) metrics.request(l.labels, reply.statusCode, l.error, ms / 1000);
    if (log.isLevelEnabled('info')) {
      request.log.info(
        { method: request.method, url: request.raw.url, action: l?.labels.action, modules: l?.labels.modules, status: reply.statusCode, error: l?.error || undefined, ms: Math.round(ms * 100) / 100 },
        'request',
      );
    }
    done();
  });

  // Only the HTTP layer's own failures land here (ApiMain turns every failure of a request into an API
  // error): a body that cannot be parsed (truncated multipart, bad encoding, too large) is the client's
  // fault, so it gets a 4xx with MediaWiki's error object, never a 500.
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    request.log.warn({ err: error }, 'request body refused');
    // a body refused before its end was not read: the connection cannot carry another request
    if (status === 413) reply.header('Connection', 'close');
    reply.code(status).header('X-Frame-Options', 'DENY').header('MediaWiki-API-Error', 'badrequest').type('application/json; charset=utf-8');
    return refusal(error, origin(request));
  });
  // Unknown paths: MediaWiki's web server would answer 404 too; say where the API is.
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404).type('text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff');
    return `404 Not Found: ${request.method} ${(request.raw.url ?? '/').split('?')[0]}\nThe API is at ${origin(request)}/api.php\n`;
  });

  let reloadChain: Promise<unknown> = Promise.resolve();
  const reload = async (): Promise<ReloadResult> => {
    const previous = generations.current.identity;
    let store: Store;
    try {
      store = await open();
    } catch (e) {
      metrics.reloads.inc({ result: 'failed' });
      throw e;
    }
    const gen = await generations.replace(store);
    cache.clear();
    metrics.reloads.inc({ result: 'ok' });
    return { changed: gen.identity.id !== previous.id, previous, current: gen.identity, generation: gen.number };
  };

  return {
    app,
    get store() {
      return generations.current.store;
    },
    get identity() {
      return generations.current.identity;
    },
    get generation() {
      return generations.current.number;
    },
    log,
    load,
    // one reload at a time: a SIGHUP during a re-import's switch waits for it, then reopens again
    reload: () => {
      const next = reloadChain.then(reload, reload);
      reloadChain = next.catch(() => undefined);
      return next;
    },
    shutdown: async (graceMs: number) => {
      await graceful.begin(graceMs, (n) => log.warn({ connections: n }, 'grace period over: closing the remaining connections'));
      generations.close();
    },
    close: async () => {
      await app.close();
      generations.close();
    },
  };
}
