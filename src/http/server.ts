/**
 * The HTTP layer: Fastify routes for /api.php (GET, POST urlencoded or multipart, OPTIONS), decoding
 * into flat parameters, handing them to ApiMain, and writing its status, headers and body. Nothing here
 * knows about modules or SQL.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { ApiMain } from '../api/main.js';
import { createRegistry } from '../modules/registry.js';
import type { Store } from '../store/store.js';
import { Wiki } from '../wiki/wiki.js';
import { decodeParams } from './params.js';
import { registerFileRoutes } from './files.js';
import { registerArticleRoutes } from './article.js';
import { ResponseCache } from './response-cache.js';

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
}

export interface WikiServer {
  app: FastifyInstance;
  store: Store;
  close(): Promise<void>;
}

export async function createServer(opts: ServerOptions): Promise<WikiServer> {
  const store = opts.store;
  const wiki = await Wiki.load(store.site);
  const api = new ApiMain(store, wiki, createRegistry(), { debug: opts.debug });
  const app = Fastify({
    // request lines are logged at info level: shown with --debug only
    logger: { level: opts.logLevel ?? (opts.debug ? 'info' : 'warn') },
    // parameters are decoded by decodeParams from the raw URL, PHP-style
    routerOptions: { querystringParser: () => ({}) },
    bodyLimit: 8 * 1024 * 1024,
  });
  // PHP reads only urlencoded and multipart bodies; any other body is ignored, not an error.
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  await app.register(formbody, { bodyLimit: 8 * 1024 * 1024 });
  await app.register(multipart, { attachFieldsToBody: 'keyValues', limits: { fileSize: 1024 * 1024, fields: 200 } });

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
  registerArticleRoutes(app, store, wiki);
  // Only the HTTP layer's own failures land here (ApiMain turns every failure of a request into an API
  // error): a body that cannot be parsed (truncated multipart, bad encoding, too large) is the client's
  // fault, so it gets a 4xx with MediaWiki's error object, never a 500.
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    request.log.warn({ err: error }, 'request body refused');
    const host = request.headers.host ?? '127.0.0.1';
    reply.code(status).header('X-Frame-Options', 'DENY').header('MediaWiki-API-Error', 'badrequest').type('application/json; charset=utf-8');
    return JSON.stringify({ error: { code: 'badrequest', info: `The request could not be read: ${error.message}`, '*': `See ${request.protocol}://${host}/api.php for API usage` } });
  });

  return {
    app,
    store,
    close: async () => {
      await app.close();
      store.close();
    },
  };
}
