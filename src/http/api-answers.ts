/**
 * The answer to an API request, whichever HTTP path took it (the Fastify route or the direct one): from
 * the response cache, or computed by the current generation's ApiMain and kept in the cache when it may be.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ApiMain, Registry } from '../api/main.js';
import type { Generations } from './generations.js';
import type { LiveDatabase } from './live-database.js';
import type { CachedAnswer, Entry, ResponseCache } from './response-cache.js';
import { requestLabels, type Metrics, type RequestLabels } from './metrics.js';
import { decodeParams, type DecodedParams } from './params.js';

/** What the server builds on each generation's store. */
export interface ServedApi {
  api: ApiMain;
}

/** the labels of an answer that names no action (the help page) */
export const HELP_LABELS: RequestLabels = { action: 'help', modules: [] };

/** An API request as both paths hand it over. */
export interface ApiCall {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  ip: string;
  /** scheme://host as the client addressed us */
  base: string;
  body: Record<string, unknown> | undefined;
  /** warnings the HTTP layer adds to the answer (a read that waited for `follow` in vain); such an answer is not kept */
  warnings?: string[];
  /** the parameters, when the HTTP layer has decoded them already (to sort a request for `--upstream`) */
  params?: DecodedParams;
}

/**
 * An answer with what the metrics say about it and its cache entry (null: not cached). An answer that is
 * not kept stays text until it is written: the direct path hands it to the socket with the header block
 * in one write, no Buffer made for it.
 */
export interface ApiReply {
  answer: CachedAnswer | Omit<CachedAnswer, 'body'>;
  body: Buffer | string;
  entry: Entry | null;
  labels: RequestLabels;
  error: boolean;
}

export const isError = (answer: CachedAnswer): boolean => answer.headers['MediaWiki-API-Error'] !== undefined;

export class ApiAnswers {
  readonly actionNames: ReadonlySet<string>;
  readonly queryNames: ReadonlySet<string>;

  constructor(
    registry: Registry,
    private readonly generations: Generations<ServedApi>,
    private readonly cache: ResponseCache,
    private readonly metrics: Metrics,
    /** the database's changes made in place, looked for before each request */
    private readonly live?: LiveDatabase,
    /** writes are forwarded to an upstream wiki (`serve --upstream`) */
    private readonly writeApi = false,
  ) {
    this.actionNames = new Set(registry.actions.map((m) => m.name));
    this.queryNames = new Set(registry.query.map((m) => m.name));
  }

  /** The answer to an API request, from the response cache or computed (synchronously for a cache hit). */
  answer(call: ApiCall): ApiReply | Promise<ApiReply> {
    const hit =
      call.warnings === undefined ? this.fromCache(call.method, call.headers.origin !== undefined, call.base, call.ip, call.url) : null;
    return hit ? this.hitReply(hit) : this.compute(call, hit === undefined);
  }

  /**
   * The response cache's side of a request: null when its answer is not kept (only a GET's answer is a
   * function of its URL, and of the scheme and host it names in links; an Origin header changes CORS
   * handling), else the answer stored for this URL, scheme and host (or for this client alone), or
   * undefined; hits and misses are counted.
   */
  fromCache(method: string, origin: boolean, base: string, ip: string, url: string): Entry | null | undefined {
    // every request passes here first (both paths): a change committed meanwhile empties the cache now,
    // and until the database is reopened on it answers are neither taken from the cache nor kept
    if (this.live?.check()) return null;
    if (!this.cache.enabled || method !== 'GET' || origin) return null;
    const hit = this.cache.get(base, url) ?? this.cache.get(`${ip} ${base}`, url);
    this.metrics.cache(hit !== undefined);
    return hit;
  }

  hitReply(hit: Entry): ApiReply {
    return { answer: hit, body: hit.body, entry: hit, labels: hit.labels ?? HELP_LABELS, error: isError(hit) };
  }

  /** The answer computed by ApiMain, kept in the cache when `cacheable` and ApiMain allows it. */
  async compute(call: ApiCall, cacheable: boolean): Promise<ApiReply> {
    const url = call.url;
    const queryStart = url.indexOf('?');
    const { raw, phpArrays } = call.params ?? decodeParams(queryStart < 0 ? '' : url.slice(queryStart + 1), call.body);
    const labels = requestLabels(raw, this.actionNames, this.queryNames);
    const headers = textHeaders(call.headers);
    // after a change, the answer waits for the database reopened on it
    if (this.live?.reopeningNow) await this.live.settled();
    // Generations.using inlined: no closure per request
    const generations = this.generations;
    const gen = generations.acquire();
    let res: Awaited<ReturnType<ApiMain['handle']>>;
    try {
      res = await gen.app.api.handle(
        {
          method: call.method,
          url,
          headers,
          raw,
          ip: call.ip,
          apiUrl: `${call.base}/api.php`,
          warnings: call.warnings,
          writeApi: this.writeApi,
        },
        phpArrays,
      );
    } finally {
      generations.release(gen);
    }
    const error = res.headers['MediaWiki-API-Error'] !== undefined;
    // an answer computed on a database that has since been replaced is not kept
    if (cacheable && res.cacheable && gen === generations.current && !this.live?.reopeningNow) {
      const answer: CachedAnswer = {
        status: res.status,
        headers: res.headers,
        body: typeof res.body === 'string' ? Buffer.from(res.body, 'utf8') : res.body,
        labels,
      };
      const entry = this.cache.set(
        res.cacheable.perClient ? `${call.ip} ${call.base}` : call.base,
        url,
        answer,
        res.cacheable.untilSecondEnds,
      );
      return entry !== null
        ? { answer: entry, body: entry.body, entry, labels, error }
        : { answer, body: answer.body, entry: null, labels, error };
    }
    return { answer: res, body: res.body, entry: null, labels, error };
  }
}

/**
 * The request headers as the API reads them, as text: a copy without the others (Node gives only
 * Set-Cookie as a list) only when there are any.
 */
function textHeaders(given: IncomingHttpHeaders): Record<string, string> {
  for (const name in given) {
    if (typeof given[name] === 'string') continue;
    const headers: Record<string, string> = {};
    for (const other in given) {
      const value = given[other];
      if (typeof value === 'string') headers[other] = value;
    }
    return headers;
  }
  return given as Record<string, string>;
}
