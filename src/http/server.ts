/**
 * The HTTP layer: Fastify routes for /api.php (GET, POST urlencoded or multipart, OPTIONS), decoding
 * into flat parameters, handing them to ApiMain, and writing its status, headers and body; plus the
 * service around it: the response cache with its compressed forms, /health, /metrics, `GET /`, the
 * request log, graceful close, and replacing the database while serving. Nothing here knows about
 * modules or SQL.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import type { Logger } from 'pino';
import { ApiMain } from '../api/main.js';
import type { CorsPolicy } from '../api/cors.js';
import { createRegistry } from '../modules/registry.js';
import type { Store } from '../store/store.js';
import { Wiki } from '../wiki/wiki.js';
import { InterwikiMap } from '../wiki/interwiki.js';
import { decodeParams } from './params.js';
import { registerFileRoutes } from './files.js';
import { registerArticleRoutes } from './article.js';
import { ResponseCache, type CachedAnswer } from './response-cache.js';
import { createLogger } from './logger.js';
import { Generations, type Generation, type ImportIdentity } from './generations.js';
import { chooseEncoding, encodeBody, registerCompression, varyWithEncoding } from './compression.js';
import { Metrics, requestLabels, type RequestLabels } from './metrics.js';
import { registerHealth } from './health.js';
import { GracefulClose } from './shutdown.js';
import { makeClientErrorHandler } from './client-error.js';
import { DEFAULT_LIMITS, parseMultipart, type HttpLimits } from './limits.js';
import { DEFAULT_LOAD_LIMITS, registerLoadShedding, type LoadLimits, type LoadState } from './load-shedding.js';
import { DEFAULT_MAX_RESULT_SIZE } from '../api/result-size.js';

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

const HOST_RE = /^[A-Za-z0-9.-]+(?::\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](?::\d{1,5})?$/;

export async function createServer(opts: ServerOptions): Promise<WikiServer> {
  const registry = createRegistry();
  const open =
    opts.openStore ??
    (() => {
      throw new Error('this server was given no way to reopen its database');
    });
  const build = async (store: Store): Promise<Built> => {
    const wiki = await Wiki.load(store.site);
    if (opts.interwiki) {
      wiki.interwiki = opts.interwiki;
      wiki.interwikiReplaced = true;
    } else {
      // the map the import read the links with, when the database has one
      const imported = await store.relations.interwikiMap();
      if (imported.length) wiki.interwiki = new InterwikiMap(imported);
    }
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
    // a socket that neither sends nor takes bytes for this long (a client that stopped reading) is closed
    connectionTimeout: 60_000,
    // a hop count: trust the nearest N peers
    trustProxy: typeof tp === 'number' ? (_addr: string, i: number) => i < tp : (tp ?? false),
    clientErrorHandler: makeClientErrorHandler(() => httpServer!, () => `http://${listenHost()}/api.php`) as (e: Error, s: Socket) => void,
  });
  httpServer = app.server;
  app.server.maxConnections = limits.maxConnections;
  const load = registerLoadShedding(app, { ...DEFAULT_LOAD_LIMITS, ...opts.load });
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

  /** scheme://host as the client addressed us (through a trusted proxy: as the proxy was addressed) */
  const origin = (request: FastifyRequest): string => {
    const proto = request.protocol === 'https' ? 'https' : 'http';
    const host = HOST_RE.test(request.host) ? request.host : '127.0.0.1';
    return `${proto}://${host}`;
  };

  const labelled = new WeakMap<FastifyRequest, { labels: RequestLabels; error: boolean }>();

  /**
   * An API answer, compressed here rather than by the plugin: synchronously (the plugin streams large
   * bodies through zlib, 3-4x slower for a 100 KB answer), and for a cached answer only once per encoding.
   */
  const sendAnswer = (request: FastifyRequest, reply: FastifyReply, answer: CachedAnswer, cacheKey: string | null) => {
    const encoding = chooseEncoding(request.headers['accept-encoding'], answer.body.length);
    reply.code(answer.status).headers(answer.headers);
    if (encoding === null) return reply.send(answer.body);
    let body = answer.encoded?.[encoding];
    if (!body) {
      body = encodeBody(answer.body, encoding);
      if (cacheKey !== null) cache.addEncoded(cacheKey, encoding, body);
    }
    return reply.header('Content-Encoding', encoding).header('Vary', varyWithEncoding(answer.headers.Vary)).send(body);
  };

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.raw.url ?? '/';
    const base = origin(request);
    // only a GET's answer is a function of its URL (and of the scheme and host it names in links); an
    // Origin header changes CORS handling, so such requests bypass the cache
    const cacheKey = cache.enabled && request.method === 'GET' && request.headers.origin === undefined ? `${base} ${url}` : null;
    if (cacheKey !== null) {
      // an answer that names the client is stored under the client's address as well
      let hitKey = cacheKey;
      let hit = cache.get(cacheKey);
      if (!hit) {
        hitKey = `${request.ip} ${cacheKey}`;
        hit = cache.get(hitKey);
      }
      metrics.cache(hit !== undefined);
      if (hit) {
        labelled.set(request, { labels: hit.labels ?? { action: 'help', modules: [] }, error: hit.headers['MediaWiki-API-Error'] !== undefined });
        return sendAnswer(request, reply, hit, hitKey);
      }
    }
    const qi = url.indexOf('?');
    const { raw, phpArrays } = decodeParams(qi < 0 ? '' : url.slice(qi + 1), request.body as Record<string, unknown> | undefined);
    const labels = requestLabels(raw, actionNames, queryNames);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') headers[k] = v;
    const { gen, res } = await withGeneration(async (gen) => ({
      gen,
      res: await gen.app.api.handle({ method: request.method, url, headers, raw, ip: request.ip, apiUrl: `${base}/api.php` }, phpArrays),
    }));
    labelled.set(request, { labels, error: res.headers['MediaWiki-API-Error'] !== undefined });
    const body = Buffer.from(res.body, 'utf8');
    // an answer computed on a database that has since been replaced is not kept
    if (cacheKey !== null && res.cacheable && gen === generations.current) {
      const key = res.cacheable.perClient ? `${request.ip} ${cacheKey}` : cacheKey;
      const answer: CachedAnswer = { status: res.status, headers: res.headers, body, labels };
      cache.set(key, answer, res.cacheable.untilSecondEnds);
      return sendAnswer(request, reply, answer, key);
    }
    return sendAnswer(request, reply, { status: res.status, headers: res.headers, body }, null);
  };
  app.route({ method: ['GET', 'POST', 'OPTIONS'], url: '/api.php', handler });
  app.route({ method: ['GET', 'POST', 'OPTIONS'], url: '/w/api.php', handler });
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

  // callback style: no promise per request
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const l = labelled.get(request);
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
    return JSON.stringify({ error: { code: 'badrequest', info: `The request could not be read: ${error.message}`, '*': `See ${origin(request)}/api.php for API usage` } });
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
