/**
 * /metrics in Prometheus' text format (prom-client): API requests by action and HTTP status (and
 * whether the answer was MediaWiki's error object), query submodules used, a latency histogram per
 * action, response-cache hits and misses, the database (size, pages, which import, reloads) and
 * prom-client's process metrics (CPU, memory, event-loop lag, GC). Labels take only names the server
 * knows (unknown actions count as `invalid`), so a client cannot grow the series without bound. Under
 * --workers every worker's registry is gathered and aggregated (SharedMetrics): a gauge every worker
 * shares says so with `aggregator: 'max'`, or the workers' values would be added up.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Registry, collectDefaultMetrics, type Metric } from 'prom-client';
import type { FollowStatusRecord } from '../store/follow-status.js';
import { mwToEpochMs } from '../wiki/timestamps.js';

export interface RequestLabels {
  action: string;
  modules: string[];
}

interface Tally {
  labels: Record<string, string>;
  count: number;
  /** how much of count prom-client has been given */
  reported: number;
}

interface LatencyTally {
  labels: { action: string };
  /** observations per bucket (not cumulative), by LATENCY_BUCKETS */
  buckets: number[];
  sum: number;
  count: number;
}

/** where one kind of answer (action, status, result, modules) is counted */
export interface Series {
  request: Tally;
  modules: Tally[];
  action: string;
  latency: LatencyTally;
}

const LATENCY_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** Hand a counter what was counted since the last time, series in the order they first appeared. */
function flush(counter: Counter<string>, series: Iterable<Tally>): void {
  for (const tally of series) {
    if (tally.count === tally.reported) continue;
    counter.inc(tally.labels, tally.count - tally.reported);
    tally.reported = tally.count;
  }
}

/**
 * A histogram by action that the registry reads as it reads prom-client's Histogram: the same values
 * (cumulative buckets with `le`, +Inf, _sum, _count per series, the series' labels shared), so the
 * text is the same; only observing is cheaper (no label hashing per observation).
 */
class LatencyHistogram {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  constructor(
    readonly name: string,
    readonly help: string,
    private readonly bounds: number[],
    private readonly series: Map<string, LatencyTally>,
  ) {}

  getForPromString() {
    const values: { labels: Record<string, string | number>; sharedLabels: Record<string, string>; value: number; metricName: string }[] =
      [];
    for (const s of this.series.values()) {
      let acc = 0;
      for (let i = 0; i < this.bounds.length; i++) {
        acc += s.buckets[i]!;
        values.push({ labels: { le: this.bounds[i]! }, sharedLabels: s.labels, value: acc, metricName: `${this.name}_bucket` });
      }
      values.push({ labels: { le: '+Inf' }, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_bucket` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.sum, metricName: `${this.name}_sum` });
      values.push({ labels: {}, sharedLabels: s.labels, value: s.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }

  /** as prom-client's get(): each value's shared labels spread into its own */
  get() {
    const data = this.getForPromString();
    return { ...data, values: data.values.map(({ labels, sharedLabels, ...v }) => ({ ...v, labels: { ...labels, ...sharedLabels } })) };
  }

  reset(): void {
    this.series.clear();
  }
}

export interface MetricsSource {
  cacheSize(): { entries: number; bytes: number };
  /** bytes of the database file(s) (undefined when the backend cannot say) */
  databaseBytes(): Promise<number | undefined>;
  pages(): number;
  generation(): number;
}

/**
 * With several worker processes, /metrics must describe the service, not whichever worker took the
 * request (counters would jump between the workers' values, which Prometheus reads as resets). Given
 * this process's registry once at start, it returns what /metrics answers: the text of every worker's
 * registry aggregated (counters and histograms summed, gauges by each one's `aggregator`).
 */
export type SharedMetrics = (local: Registry) => () => Promise<string>;

export class Metrics {
  readonly registry = new Registry();
  /**
   * Counted per request in plain objects (prom-client hashes the label values on every inc/observe,
   * several times per request) and handed to prom-client when /metrics is read, in the order
   * the series first appeared, so the output is what direct inc/observe calls would give.
   */
  private readonly requestSeries = new Map<string, Tally>();
  private readonly moduleSeries = new Map<string, Tally>();
  private readonly latencySeries = new Map<string, LatencyTally>();
  /** the series of each kind of answer, by action, status, result and modules (bounded: modules vary) */
  private readonly seriesByKind = new Map<string, Series>();
  private readonly hits: Tally = { labels: {}, count: 0, reported: 0 };
  private readonly misses: Tally = { labels: {}, count: 0, reported: 0 };
  readonly reloads: Counter<'result'>;
  /** the text /metrics answers: this registry's, or every worker's aggregated */
  private readonly text: () => Promise<string>;

  constructor(source: MetricsSource, shared?: SharedMetrics) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    const requestSeries = this.requestSeries;
    const moduleSeries = this.moduleSeries;
    const latencySeries = this.latencySeries;
    new Counter({
      name: 'wikiquery_api_requests_total',
      help: "api.php requests answered, by action, HTTP status and result (ok, or error: the answer is MediaWiki's error object)",
      labelNames: ['action', 'status', 'result'],
      registers,
      collect() {
        flush(this, requestSeries.values());
      },
    });
    new Counter({
      name: 'wikiquery_api_module_requests_total',
      help: 'action=query requests using each prop/list/meta/generator module',
      labelNames: ['module'],
      registers,
      collect() {
        flush(this, moduleSeries.values());
      },
    });
    const latency = new LatencyHistogram(
      'wikiquery_api_request_duration_seconds',
      'time from the request to the response, by action',
      LATENCY_BUCKETS,
      latencySeries,
    );
    this.registry.registerMetric(latency as unknown as Metric);
    const hits = [this.hits];
    const misses = [this.misses];
    new Counter({
      name: 'wikiquery_response_cache_hits_total',
      help: 'GET answers served from the response cache',
      registers,
      collect() {
        flush(this, hits);
      },
    });
    new Counter({
      name: 'wikiquery_response_cache_misses_total',
      help: 'cacheable GET requests the response cache did not hold',
      registers,
      collect() {
        flush(this, misses);
      },
    });
    this.reloads = new Counter({
      name: 'wikiquery_database_reloads_total',
      help: 'database re-opens (re-import or SIGHUP), by result',
      labelNames: ['result'],
      registers,
    });
    new Gauge({
      name: 'wikiquery_response_cache_entries',
      help: 'answers in the response cache',
      registers,
      collect() {
        this.set(source.cacheSize().entries);
      },
    });
    new Gauge({
      name: 'wikiquery_response_cache_bytes',
      help: 'approximate bytes held by the response cache',
      registers,
      collect() {
        this.set(source.cacheSize().bytes);
      },
    });
    new Gauge({
      name: 'wikiquery_database_bytes',
      help: 'size of the database being served',
      registers,
      // every worker serves the same database
      aggregator: 'max',
      async collect() {
        const bytes = await source.databaseBytes().catch(() => undefined);
        if (bytes !== undefined) this.set(bytes);
      },
    });
    new Gauge({
      name: 'wikiquery_database_pages',
      help: 'pages of the wiki being served',
      registers,
      aggregator: 'max',
      collect() {
        this.set(source.pages());
      },
    });
    new Gauge({
      name: 'wikiquery_database_generation',
      help: 'how many databases a worker has served (1 + reloads; with several workers, the most of any)',
      registers,
      aggregator: 'max',
      collect() {
        this.set(source.generation());
      },
    });
    const registry = this.registry;
    this.text = shared ? shared(registry) : () => registry.metrics();
  }

  /** The follower's figures (src/http/live-database.ts), present while a follower reports to the database. */
  follow(source: { refresh(): Promise<void>; status(): FollowStatusRecord | null; lagSeconds(): number }): void {
    const registers = [this.registry];
    const figure = (name: string, help: string, value: (s: FollowStatusRecord) => number) =>
      new Gauge({
        name,
        help,
        registers,
        // the follower's figures: every worker reads the same
        aggregator: 'max',
        collect() {
          const status = source.status();
          if (status === null) this.reset();
          else this.set(value(status));
        },
      });
    new Gauge({
      name: 'wikiquery_follow_info',
      help: 'the upstream wiki a follower keeps this database current with (its api.php)',
      labelNames: ['upstream'],
      registers,
      aggregator: 'max',
      // collected first: the figures below read what it refreshed
      async collect() {
        await source.refresh();
        const status = source.status();
        this.reset();
        if (status !== null) this.set({ upstream: status.upstream }, 1);
      },
    });
    figure('wikiquery_follow_lag_seconds', 'seconds the database is behind the upstream', () => source.lagSeconds());
    figure('wikiquery_follow_position_timestamp_seconds', "the upstream's newest change applied (Unix time)", (s) =>
      Math.floor(mwToEpochMs(s.position.timestamp) / 1000),
    );
    figure('wikiquery_follow_changes_applied', 'upstream changes the follower has applied since it started', (s) => s.changesApplied);
    figure('wikiquery_follow_batches_applied', 'batches the follower has applied since it started', (s) => s.batchesApplied);
    figure('wikiquery_follow_errors', 'failed polls of the follower since it started (each retried)', (s) => s.errors);
    figure('wikiquery_follow_backlog_pages', 'pages waiting to be re-analysed after a page they transclude changed', (s) => s.backlog);
  }

  request(labels: RequestLabels, status: number, error: boolean, seconds: number): void {
    this.observe(this.series(labels, status, error), seconds);
  }

  /**
   * The series a kind of answer is counted in, to count with observe() (a cached answer keeps its own:
   * a hit then looks nothing up). The latency series is held until a reset of the registry replaces it.
   */
  series(labels: RequestLabels, status: number, error: boolean): Series {
    const action = labels.action;
    const key = `${action}\t${status}\t${error ? 'error' : 'ok'}`;
    const kind = labels.modules.length === 0 ? key : `${key}\t${labels.modules.join('|')}`;
    let series = this.seriesByKind.get(kind);
    if (series === undefined) {
      series = this.newSeries(labels, key, status, error);
      if (this.seriesByKind.size < 4096) this.seriesByKind.set(kind, series);
    }
    return series;
  }

  private newSeries(labels: RequestLabels, key: string, status: number, error: boolean): Series {
    const action = labels.action;
    let request = this.requestSeries.get(key);
    if (!request)
      this.requestSeries.set(
        key,
        (request = { labels: { action, status: String(status), result: error ? 'error' : 'ok' }, count: 0, reported: 0 }),
      );
    const modules: Tally[] = [];
    for (const moduleName of labels.modules) {
      let tally = this.moduleSeries.get(moduleName);
      if (!tally) this.moduleSeries.set(moduleName, (tally = { labels: { module: moduleName }, count: 0, reported: 0 }));
      modules.push(tally);
    }
    return { request, modules, action, latency: this.latency(action) };
  }

  private latency(action: string): LatencyTally {
    let latency = this.latencySeries.get(action);
    if (!latency)
      this.latencySeries.set(
        action,
        (latency = { labels: { action }, buckets: new Array<number>(LATENCY_BUCKETS.length).fill(0), sum: 0, count: 0 }),
      );
    return latency;
  }

  observe(series: Series, seconds: number): void {
    series.request.count++;
    for (let i = 0; i < series.modules.length; i++) series.modules[i]!.count++;
    let latency = series.latency;
    // a registry reset dropped the series: start a new one
    if (this.latencySeries.get(series.action) !== latency) latency = series.latency = this.latency(series.action);
    latency.sum += seconds;
    latency.count++;
    // the first bucket whose bound is not below the value (beyond the last: only +Inf, which is the count)
    for (let i = 0; i < LATENCY_BUCKETS.length; i++) {
      if (seconds <= LATENCY_BUCKETS[i]!) {
        latency.buckets[i]!++;
        break;
      }
    }
  }

  cache(hit: boolean): void {
    if (hit) this.hits.count++;
    else this.misses.count++;
  }

  register(app: FastifyInstance): void {
    app.get('/metrics', async (_request, reply) => {
      reply.header('Cache-Control', 'no-store');
      let body: string;
      try {
        body = await this.text();
      } catch (e) {
        // one worker's figures alone would read as a counter reset: fail the scrape instead
        return reply
          .code(503)
          .type('text/plain; charset=utf-8')
          .send(`the workers' metrics could not be gathered: ${e instanceof Error ? e.message : String(e)}\n`);
      }
      return reply.header('Content-Type', this.registry.contentType).send(body);
    });
  }
}

/**
 * The action and query modules a request names, kept to names the registry knows: `action` (default
 * help; unknown → invalid) and, for action=query, every prop, list, meta and generator value.
 */
const QUERY_MODULE_PARAMS = ['prop', 'list', 'meta', 'generator'];

export function requestLabels(raw: Record<string, string>, actions: ReadonlySet<string>, queryModules: ReadonlySet<string>): RequestLabels {
  const named = raw.action ?? 'help';
  const action = actions.has(named) ? named : 'invalid';
  const modules: string[] = [];
  if (action === 'query') {
    for (const param of QUERY_MODULE_PARAMS) {
      const value = raw[param];
      if (value === undefined) continue;
      for (const moduleName of value.split('|'))
        if (queryModules.has(moduleName) && !modules.includes(moduleName)) modules.push(moduleName);
    }
  }
  return { action, modules };
}
