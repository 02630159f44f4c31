/**
 * The HTTP layer, assembled from its stages: the Fastify app with its limits, load shedding, the
 * response cache, the API's answers, compression, the routes (api.php, files, articles, /health,
 * /metrics), the direct path over node:http for the API's plain GETs, the request log, graceful close,
 * and replacing the database while serving. Nothing here knows about modules or SQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import type { FastifyInstance } from 'fastify';
import { ApiMain } from '../api/main.js';
import type { CorsPolicy } from '../api/cors.js';
import { DEFAULT_MAX_RESULT_SIZE } from '../api/result-size.js';
import { createRegistry } from '../modules/registry.js';
import type { Store } from '../store/store.js';
import { Wiki } from '../wiki/wiki.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import { ApiAnswers, type ServedApi } from './api-answers.js';
import { registerApiRoutes, registerFallbackAnswers } from './api-routes.js';
import { registerArticleRoutes } from './article.js';
import { BaseUrls } from './base-url.js';
import { AnswerEncoder } from './compression.js';
import { DirectPath } from './direct-path.js';
import { createFastifyApp, type TrustProxy } from './fastify-app.js';
import { registerFileRoutes } from './files.js';
import { Generations, type ImportIdentity } from './generations.js';
import { registerHealth } from './health.js';
import { DEFAULT_LIMITS, type HttpLimits } from './limits.js';
import { DEFAULT_LOAD_LIMITS, createLoadShedding, type LoadLimits, type LoadState } from './load-shedding.js';
import { createLogger } from './logger.js';
import { Metrics, type SharedMetrics } from './metrics.js';
import { Reloads, type ReloadResult } from './reload.js';
import { LiveDatabase } from './live-database.js';
import { registerRequestLog } from './request-log.js';
import { ResponseCache } from './response-cache.js';
import { GracefulClose } from './shutdown.js';
import { DEFAULT_THUMBNAIL_LIMITS, ThumbnailMaker, type ThumbnailLimits } from './thumbnails.js';
import { FOLLOW_STATUS_KEY, parseFollowStatus } from '../store/follow-status.js';
import { Upstream, type UpstreamOptions } from './upstream.js';

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
  trustProxy?: TrustProxy;
  /** open the database again, for reload() (the CLI: the same --db); without it reload() fails */
  openStore?: () => Promise<Store>;
  /** body, connection and timeout limits (src/http/limits.ts) */
  limits?: Partial<HttpLimits>;
  /** load shedding (src/http/load-shedding.ts) */
  load?: Partial<LoadLimits>;
  /** $wgAPIMaxResultSize: bytes of values in one answer (default 8388608) */
  maxResultSize?: number;
  /** with several worker processes: /metrics answers all of theirs together (src/cli/cluster.ts) */
  sharedMetrics?: SharedMetrics;
  /**
   * The folder thumbnails are kept in (made when first requested); without one, a temporary folder
   * removed when the server closes
   */
  thumbsDir?: string;
  /** renders at once, waiting renders, seconds per render (src/http/thumbnails.ts) */
  thumbLimits?: Partial<ThumbnailLimits>;
  /** ApiOptions.newContinuation: queries without continue= continue as in MediaWiki 1.26+ */
  newContinuation?: boolean;
  /** ApiOptions.readOnlyReason */
  readOnlyReason?: string;
  /** `serve --upstream`: the MediaWiki that answers what wikiquery does not (writes, sessions), src/http/upstream.ts */
  upstream?: UpstreamOptions;
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

export async function createServer(opts: ServerOptions): Promise<WikiServer> {
  const registry = createRegistry();
  // set below, once the first generation exists; ApiMain asks it for the lag at request time
  let live: LiveDatabase | undefined;
  const generations = await Generations.start(opts.store, async (store): Promise<ServedApi> => {
    const wiki = await Wiki.forServing(store.site, store.relations, opts.interwiki);
    return {
      api: new ApiMain(store, wiki, registry, {
        debug: opts.debug,
        cors: opts.cors,
        maxResultSize: opts.maxResultSize ?? DEFAULT_MAX_RESULT_SIZE,
        lag: () => live?.lagSeconds() ?? 0,
        newContinuation: opts.newContinuation,
        readOnlyReason: opts.readOnlyReason,
      }),
    };
  });
  const log = opts.logger ?? createLogger(opts.logLevel ?? 'warn');
  // once per process: a spread copy given more members is fine here
  const limits: HttpLimits = { ...DEFAULT_LIMITS, ...opts.limits };
  const app = await createFastifyApp(log, limits, opts.trustProxy);
  // read-your-writes: a writer's reads wait for the upstream change the follower has applied (its status in meta)
  const appliedRcid = async () => parseFollowStatus(await generations.current.store.liveMeta(FOLLOW_STATUS_KEY))?.position.rcid ?? null;
  const upstream = opts.upstream === undefined ? undefined : new Upstream({ appliedRcid, ...opts.upstream });
  if (upstream !== undefined) app.addHook('onClose', async () => upstream.close());
  // once per process: a spread copy given more members is fine here
  const load = createLoadShedding({ ...DEFAULT_LOAD_LIMITS, ...opts.load });
  const graceful = new GracefulClose(app);
  const cache = new ResponseCache((opts.cacheMb ?? 64) * 1024 * 1024);
  const metrics = new Metrics(
    {
      cacheSize: () => cache.size,
      databaseBytes: () => generations.current.store.sizeBytes(),
      pages: () => generations.current.identity.pages,
      generation: () => generations.current.number,
    },
    opts.sharedMetrics,
  );
  const reloads = new Reloads(generations, opts.openStore, cache, metrics);
  live = new LiveDatabase(generations, cache, opts.openStore === undefined ? undefined : () => reloads.reload(), (message) =>
    log.warn(message),
  );
  await live.start();
  const liveDatabase = live;
  metrics.follow(liveDatabase);
  const answers = new ApiAnswers(registry, generations, cache, metrics, liveDatabase, upstream !== undefined);
  const encoder = new AnswerEncoder(cache);
  const baseUrls = new BaseUrls();

  registerApiRoutes(app, {
    answers,
    encoder,
    baseUrls,
    loadHooks: load.hooks,
    upstream: upstream === undefined ? undefined : { forwarder: upstream, bodyBytes: limits.bodyBytes },
  });
  const ownThumbs = opts.thumbsDir === undefined ? fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-thumbs-')) : null;
  // once per process: a spread copy given more members is fine here
  const thumbnails = new ThumbnailMaker(opts.thumbsDir ?? ownThumbs!, { ...DEFAULT_THUMBNAIL_LIMITS, ...opts.thumbLimits });
  const removeOwnThumbs = () => {
    if (ownThumbs !== null) fs.rmSync(ownThumbs, { recursive: true, force: true });
  };
  registerFileRoutes(app, (use) => generations.using((gen) => use(gen.store)), opts.filesDir, thumbnails);
  registerArticleRoutes(app, (use) => generations.using((gen) => use(gen.store, gen.app.api.wiki)));
  registerHealth(app, {
    stopping: () => graceful.stopping,
    identity: () => generations.current.identity,
    generation: () => generations.current.number,
    probe: () => generations.using((gen) => gen.store.pages.byIds([1])).then(() => undefined),
    follow: () => liveDatabase.refresh().then(() => liveDatabase.status()),
    lag: () => liveDatabase.lagSeconds(),
  });
  metrics.register(app);
  new DirectPath({
    answers,
    encoder,
    metrics,
    loadGate: load.gate,
    graceful,
    baseUrls,
    log,
    behindProxy: Boolean(opts.trustProxy),
    upstream,
  }).install(app);
  registerRequestLog(app, metrics, log);
  registerFallbackAnswers(app, baseUrls);

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
    load: load.state,
    reload: () => reloads.reload(),
    shutdown: async (graceMs: number) => {
      await graceful.begin(graceMs, (n) => log.warn({ connections: n }, 'grace period over: closing the remaining connections'));
      generations.close();
      removeOwnThumbs();
    },
    close: async () => {
      await app.close();
      generations.close();
      removeOwnThumbs();
    },
  };
}
