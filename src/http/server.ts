/**
 * The HTTP layer: Fastify routes for /api.php (GET, POST urlencoded or multipart, OPTIONS), decoding
 * into flat parameters, handing them to ApiMain, and writing its status, headers and body. Nothing here
 * knows about modules or SQL.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import { ApiMain } from '../api/main.js';
import { createRegistry } from '../modules/registry.js';
import type { Store } from '../store/store.js';
import { Wiki } from '../wiki/wiki.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import { decodeParams } from './params.js';
import { registerFileRoutes } from './files.js';
import { ResponseCache } from './response-cache.js';
import { DEFAULT_LIMITS, clientErrorHandler, parseMultipart, type HttpLimits } from './limits.js';
import { DEFAULT_LOAD_LIMITS, registerLoadShedding, type LoadLimits, type LoadState } from './load-shedding.js';
import { DEFAULT_MAX_RESULT_SIZE } from '../api/result-size.js';

export interface ServerOptions {
  /** the opened store to serve (the CLI opens it from --db); closed with the server */
  store: Store;
  debug?: boolean;
  /** pino log level; 'silent' in tests */
  logLevel?: string;
  /** directory the files were imported from (to serve their bytes) */
  filesDir?: string;
  /** size of the response cache in MB (0 = off); default 64 */
  cacheMb?: number;
  /** the interwiki map, when the operator gives one (default: MediaWiki's list) */
  interwiki?: InterwikiMap;
  /** body, connection and timeout limits (src/http/limits.ts) */
  limits?: Partial<HttpLimits>;
  /** load shedding (src/http/load-shedding.ts) */
  load?: Partial<LoadLimits>;
  /** $wgAPIMaxResultSize: bytes of values in one answer (default 8388608) */
  maxResultSize?: number;
}

export interface WikiServer {
  app: FastifyInstance;
  store: Store;
  load: LoadState;
  close(): Promise<void>;
}

export async function createServer(opts: ServerOptions): Promise<WikiServer> {
  const store = opts.store;
  const wiki = await Wiki.load(store.site);
  if (opts.interwiki) wiki.interwiki = opts.interwiki;
  const api = new ApiMain(store, wiki, createRegistry(), { debug: opts.debug, maxResultSize: opts.maxResultSize ?? DEFAULT_MAX_RESULT_SIZE });
  const limits: HttpLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const app = Fastify({
    // request lines are logged at info level: shown with --debug only
    logger: { level: opts.logLevel ?? (opts.debug ? 'info' : 'warn') },
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
    clientErrorHandler,
  });
  app.server.maxConnections = limits.maxConnections;
  const load = registerLoadShedding(app, { ...DEFAULT_LOAD_LIMITS, ...opts.load });
  // PHP reads only urlencoded and multipart bodies; any other body is ignored, not an error.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  await app.register(formbody, { bodyLimit: limits.bodyBytes });
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    parseMultipart(request.headers, payload, limits).then((fields) => done(null, fields), (e: Error) => done(e, undefined));
  });

  const cache = new ResponseCache((opts.cacheMb ?? 64) * 1024 * 1024);

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const url = request.raw.url ?? '/';
    // only a GET's answer is a function of its URL (and of the Host it names in links); an Origin header
    // changes CORS handling, so such requests bypass the cache
    const cacheKey = cache.enabled && request.method === 'GET' && request.headers.origin === undefined ? `${request.headers.host ?? ''} ${url}` : null;
    if (cacheKey !== null) {
      // an answer that names the client is stored under the client's address as well
      const hit = cache.get(cacheKey) ?? cache.get(`${request.ip} ${cacheKey}`);
      if (hit) return reply.code(hit.status).headers(hit.headers).send(hit.body);
    }
    const qi = url.indexOf('?');
    const { raw, phpArrays } = decodeParams(qi < 0 ? '' : url.slice(qi + 1), request.body as Record<string, unknown> | undefined);
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(request.headers)) if (typeof v === 'string') headers[k] = v;
    const host = request.headers.host ?? '127.0.0.1';
    const res = await api.handle(
      { method: request.method, url, headers, raw, ip: request.ip, apiUrl: `${request.protocol}://${host}/api.php` },
      phpArrays,
    );
    const body = Buffer.from(res.body, 'utf8');
    if (cacheKey !== null && res.cacheable) {
      cache.set(res.cacheable.perClient ? `${request.ip} ${cacheKey}` : cacheKey, { status: res.status, headers: res.headers, body }, res.cacheable.untilSecondEnds);
    }
    reply.code(res.status).headers(res.headers);
    return reply.send(body);
  };
  app.route({ method: ['GET', 'POST', 'OPTIONS'], url: '/api.php', handler });
  app.route({ method: ['GET', 'POST', 'OPTIONS'], url: '/w/api.php', handler });
  registerFileRoutes(app, store, opts.filesDir);
  // Only the HTTP layer's own failures land here (ApiMain turns every failure of a request into an API
  // error): a body that cannot be parsed (truncated multipart, bad encoding, too large) is the client's
  // fault, so it gets a 4xx with MediaWiki's error object, never a 500.
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    request.log.warn({ err: error }, 'request body refused');
    const host = request.headers.host ?? '127.0.0.1';
    // a body refused before its end was not read: the connection cannot carry another request
    if (status === 413) reply.header('Connection', 'close');
    reply.code(status).header('X-Frame-Options', 'DENY').header('MediaWiki-API-Error', 'badrequest').type('application/json; charset=utf-8');
    return JSON.stringify({ error: { code: 'badrequest', info: `The request could not be read: ${error.message}`, '*': `See ${request.protocol}://${host}/api.php for API usage` } });
  });

  return {
    app,
    store,
    load,
    close: async () => {
      await app.close();
      store.close();
    },
  };
}
