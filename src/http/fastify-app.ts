/**
 * The Fastify instance every route is registered on, with the server's limits (body size, connections,
 * header, request and keep-alive deadlines, idle sockets), the bodies PHP reads (urlencoded and
 * multipart; any other is ignored, not an error), compression for what is not an API answer, and
 * MediaWiki's error object for requests Node's parser refuses (src/http/client-error.ts).
 */
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import formbody from '@fastify/formbody';
import type { Logger } from 'pino';
import { makeClientErrorHandler } from './client-error.js';
import { registerCompression } from './compression.js';
import { watchIdleConnections } from './idle-timeout.js';
import { parseMultipart, type HttpLimits } from './limits.js';

/** a connection that neither sends nor takes bytes for this long is closed */
const IDLE_TIMEOUT_MS = 60_000;

/**
 * Believe X-Forwarded-For/-Proto/-Host from these peers (Fastify's trustProxy: true, a hop count,
 * or addresses/CIDR ranges).
 */
export type TrustProxy = boolean | number | string[];

export async function createFastifyApp(log: Logger, limits: HttpLimits, trustProxy: TrustProxy | undefined): Promise<FastifyInstance> {
  const app: FastifyInstance = Fastify({
    loggerInstance: log as unknown as FastifyBaseLogger,
    // one line per request, written by the request log (src/http/request-log.ts) with the API's own labels
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
    trustProxy: typeof trustProxy === 'number' ? (_addr: string, i: number) => i < trustProxy : (trustProxy ?? false),
    clientErrorHandler: makeClientErrorHandler(
      () => app.server,
      () => `http://${listenHost(app)}/api.php`,
    ) as (e: Error, s: Socket) => void,
  });
  // a socket that neither sends nor takes bytes for this long (a client that stopped reading) is closed;
  // watched once a second rather than by Node's timer per request (src/http/idle-timeout.ts)
  const unwatchIdle = watchIdleConnections(app.server, IDLE_TIMEOUT_MS);
  app.addHook('onClose', (_instance, done) => {
    unwatchIdle();
    done();
  });
  app.server.maxConnections = limits.maxConnections;
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, _body, done) => done(null, undefined));
  await app.register(formbody, { bodyLimit: limits.bodyBytes });
  // multipart under the same byte limit as urlencoded, streamed, refused (413) rather than truncated
  app.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    parseMultipart(request.headers, payload, limits).then(
      (fields) => done(null, fields),
      (e: Error) => done(e, undefined),
    );
  });
  await registerCompression(app);
  return app;
}

/** for requests too malformed to name a host: the address the server listens on */
function listenHost(app: FastifyInstance): string {
  const address = app.server.address();
  return address && typeof address === 'object'
    ? address.family === 'IPv6'
      ? `[${address.address}]:${address.port}`
      : `${address.address}:${address.port}`
    : '127.0.0.1';
}
