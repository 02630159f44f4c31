/**
 * The Fastify routes of api.php: /api.php and /w/api.php for every request the direct path
 * (src/http/direct-path.ts) leaves to Fastify (other methods, bodies, a trusted proxy, request logging,
 * closing), the site root, and the answers to what no route takes: unknown paths and unreadable requests.
 */
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, preParsingHookHandler } from 'fastify';
import type { ApiAnswers, ApiReply } from './api-answers.js';
import type { BaseUrls } from './base-url.js';
import { varyWithEncoding, type AnswerEncoder } from './compression.js';
import type { LoadHooks } from './load-shedding.js';
import { refusalBody } from './refusal.js';
import { labelRequest } from './request-log.js';
import { HttpLimitError } from './limits.js';
import { requestLabels } from './metrics.js';
import { decodeParams } from './params.js';
import { chronologyCookie, type Upstream } from './upstream.js';

/** The stages an API route hands a request through. */
export interface ApiRouteStages {
  answers: ApiAnswers;
  encoder: AnswerEncoder;
  baseUrls: BaseUrls;
  /** load shedding: only the API's routes are shed */
  loadHooks: LoadHooks;
  /** `serve --upstream`: what wikiquery does not answer itself goes there (src/http/upstream.ts) */
  upstream?: { forwarder: Upstream; bodyBytes: number };
}

export function registerApiRoutes(app: FastifyInstance, { answers, encoder, baseUrls, loadHooks, upstream }: ApiRouteStages): void {
  const sendAnswer = (request: FastifyRequest, reply: FastifyReply, apiReply: ApiReply) => {
    const { body, encoding } = encoder.encode(request.headers['accept-encoding'], apiReply.body, apiReply.entry);
    reply.code(apiReply.answer.status).headers(apiReply.answer.headers);
    // a Buffer, as Fastify sends an answer from the cache
    const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
    if (encoding === null) return reply.send(bytes);
    return reply.header('Content-Encoding', encoding).header('Vary', varyWithEncoding(apiReply.answer.headers.Vary)).send(bytes);
  };
  // the body's bytes as the client sent them, for a request forwarded upstream
  const rawBodies = new WeakMap<FastifyRequest, Buffer>();
  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    let warnings: string[] | undefined;
    if (upstream !== undefined) {
      const url = request.raw.url ?? '/';
      const queryStart = url.indexOf('?');
      const { raw } = decodeParams(queryStart < 0 ? '' : url.slice(queryStart + 1), request.body as Record<string, unknown> | undefined);
      const forwarder = upstream.forwarder;
      if (forwarder.forwards(raw, request.headers, answers.actionNames, answers.queryNames)) {
        const before = await forwarder.positionBefore(raw.action, request.headers.cookie, request.ip);
        const relayed = await forwarder.relay(
          { method: request.method, url, headers: request.headers, ip: request.ip, rawBody: rawBodies.get(request) },
          `${baseUrls.ofRequest(request)}/api.php`,
        );
        const rcid = await forwarder.positionAfter(raw.action, relayed, { cookie: request.headers.cookie, ip: request.ip }, before);
        if (rcid !== null) {
          const given = relayed.headers['set-cookie'];
          relayed.headers['set-cookie'] = (Array.isArray(given) ? given : given === undefined ? [] : [given]).concat(
            chronologyCookie(rcid, forwarder.waitMs),
          );
        }
        labelRequest(
          request,
          requestLabels(raw, answers.actionNames, answers.queryNames),
          relayed.headers['mediawiki-api-error'] !== undefined,
          true,
        );
        return reply.code(relayed.status).headers(relayed.headers).send(relayed.body);
      }
      const warning = await forwarder.waitFor(request.headers.cookie);
      if (warning !== null) warnings = [warning];
    }
    const apiReply = await answers.answer({
      method: request.method,
      url: request.raw.url ?? '/',
      headers: request.headers,
      ip: request.ip,
      base: baseUrls.ofRequest(request),
      body: request.body as Record<string, unknown> | undefined,
      warnings,
    });
    labelRequest(request, apiReply.labels, apiReply.error);
    return sendAnswer(request, reply, apiReply);
  };
  // with an upstream, the body is read here under the request limit and kept: a forwarded request is sent on
  // as the client sent it (a multipart upload's boundaries and all)
  const keepBody: preParsingHookHandler | undefined =
    upstream === undefined
      ? undefined
      : async (request, _reply, payload) => {
          const chunks: Buffer[] = [];
          let size = 0;
          for await (const chunk of payload) {
            size += (chunk as Buffer).length;
            if (size > upstream.bodyBytes) throw new HttpLimitError(`the body is larger than ${upstream.bodyBytes} bytes`, 413);
            chunks.push(chunk as Buffer);
          }
          const body = Buffer.concat(chunks);
          rawBodies.set(request, body);
          return Readable.from([body]);
        };
  // API answers are compressed by sendAnswer (compress: false: no plugin hooks on these routes)
  const apiRoute = {
    method: ['GET', 'POST', 'OPTIONS'],
    handler,
    compress: false,
    onRequest: loadHooks.onRequest,
    onSend: loadHooks.onSend,
    preParsing: keepBody,
  } as const;
  // once per process: a spread copy given more members is fine here
  app.route({ ...apiRoute, method: [...apiRoute.method], url: '/api.php' });
  app.route({ ...apiRoute, method: [...apiRoute.method], url: '/w/api.php' });
  // the site root: where a person typing the server's address wants to go, the wiki's main page (a client
  // wants /api.php, which every page of the view links to)
  app.route({
    method: ['GET', 'HEAD'],
    url: '/',
    exposeHeadRoute: false,
    handler: async (_req, reply) => reply.code(301).header('Location', '/index.php').header('Cache-Control', 'max-age=3600').send(),
  });
}

export function registerFallbackAnswers(app: FastifyInstance, baseUrls: BaseUrls): void {
  // Only the HTTP layer's own failures land here (ApiMain turns every failure of a request into an API
  // error): a body that cannot be parsed (truncated multipart, bad encoding, too large) is the client's
  // fault, so it gets a 4xx with MediaWiki's error object, never a 500.
  app.setErrorHandler(async (error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
    request.log.info({ err: error }, 'request body refused');
    // a body refused before its end was not read: the connection cannot carry another request
    if (status === 413) reply.header('Connection', 'close');
    reply
      .code(status)
      .header('X-Frame-Options', 'DENY')
      .header('MediaWiki-API-Error', 'badrequest')
      .type('application/json; charset=utf-8');
    return refusalBody(error.message, `${baseUrls.ofRequest(request)}/api.php`);
  });
  // Unknown paths: MediaWiki's web server would answer 404 too; say where the API is.
  app.setNotFoundHandler(async (request, reply) => {
    reply.code(404).type('text/plain; charset=utf-8').header('X-Content-Type-Options', 'nosniff');
    return `404 Not Found: ${request.method} ${(request.raw.url ?? '/').split('?')[0]}\nThe API is at ${baseUrls.ofRequest(request)}/api.php\n`;
  });
}
