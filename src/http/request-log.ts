/**
 * What is recorded of each request answered on a Fastify route: its metrics (for an API request, by the
 * labels its route gave it) and, at log level info, one log line. The direct path (src/http/direct-path.ts)
 * records its own answers' metrics, and is not taken while info lines are logged.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Metrics, RequestLabels } from './metrics.js';

/** on a request to the API: what the metrics and the request log say about it */
const LABELS = Symbol('wikiquery.labels');
type Labelled = FastifyRequest & { [LABELS]?: { labels: RequestLabels; error: boolean; forwarded?: boolean } };

/**
 * Give an API request the labels it is counted and logged under; `forwarded`: sent to the upstream
 * (`serve --upstream`), whose query string may carry credentials and is not logged.
 */
export function labelRequest(request: FastifyRequest, labels: RequestLabels, error: boolean, forwarded?: boolean): void {
  (request as Labelled)[LABELS] = { labels, error, forwarded };
}

export function registerRequestLog(app: FastifyInstance, metrics: Metrics, log: Logger): void {
  // callback style: no promise per request
  app.addHook('onResponse', (request, reply, done) => {
    const ms = reply.elapsedTime;
    const labelled = (request as Labelled)[LABELS];
    if (labelled) metrics.request(labelled.labels, reply.statusCode, labelled.error, ms / 1000);
    if (log.isLevelEnabled('info')) {
      request.log.info(
        {
          method: request.method,
          url: labelled?.forwarded ? (request.raw.url ?? '/').split('?', 1)[0] : request.raw.url,
          upstream: labelled?.forwarded || undefined,
          action: labelled?.labels.action,
          modules: labelled?.labels.modules,
          status: reply.statusCode,
          error: labelled?.error || undefined,
          ms: Math.round(ms * 100) / 100,
        },
        'request',
      );
    }
    done();
  });
}
