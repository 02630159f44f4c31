/**
 * /metrics in Prometheus' text format (prom-client): API requests by action and HTTP status (and
 * whether the answer was MediaWiki's error object), query submodules used, a latency histogram per
 * action, response-cache hits and misses, the database (size, pages, which import, reloads) and
 * prom-client's process metrics (CPU, memory, event-loop lag, GC). Labels take only names the server
 * knows (unknown actions count as `invalid`), so a client cannot grow the series without bound.
 */
import type { FastifyInstance } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface RequestLabels {
  action: string;
  modules: string[];
}

export interface MetricsSource {
  cacheSize(): { entries: number; bytes: number };
  /** bytes of the database file(s) (undefined when the backend cannot say) */
  databaseBytes(): Promise<number | undefined>;
  pages(): number;
  generation(): number;
}

export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'action' | 'status' | 'result'>;
  private readonly modules: Counter<'module'>;
  private readonly latency: Histogram<'action'>;
  private readonly cacheHits: Counter;
  private readonly cacheMisses: Counter;
  readonly reloads: Counter<'result'>;

  constructor(source: MetricsSource) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.requests = new Counter({ name: 'wikiquery_api_requests_total', help: 'api.php requests answered, by action, HTTP status and result (ok, or error: the answer is MediaWiki\'s error object)', labelNames: ['action', 'status', 'result'], registers });
    this.modules = new Counter({ name: 'wikiquery_api_module_requests_total', help: 'action=query requests using each prop/list/meta/generator module', labelNames: ['module'], registers });
    this.latency = new Histogram({
      name: 'wikiquery_api_request_duration_seconds',
      help: 'time from the request to the response, by action',
      labelNames: ['action'],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers,
    });
    this.cacheHits = new Counter({ name: 'wikiquery_response_cache_hits_total', help: 'GET answers served from the response cache', registers });
    this.cacheMisses = new Counter({ name: 'wikiquery_response_cache_misses_total', help: 'cacheable GET requests the response cache did not hold', registers });
    this.reloads = new Counter({ name: 'wikiquery_database_reloads_total', help: 'database re-opens (re-import or SIGHUP), by result', labelNames: ['result'], registers });
    new Gauge({ name: 'wikiquery_response_cache_entries', help: 'answers in the response cache', registers, collect() { this.set(source.cacheSize().entries); } });
    new Gauge({ name: 'wikiquery_response_cache_bytes', help: 'approximate bytes held by the response cache', registers, collect() { this.set(source.cacheSize().bytes); } });
    new Gauge({
      name: 'wikiquery_database_bytes',
      help: 'size of the database being served',
      registers,
      async collect() {
        const b = await source.databaseBytes().catch(() => undefined);
        if (b !== undefined) this.set(b);
      },
    });
    new Gauge({ name: 'wikiquery_database_pages', help: 'pages of the wiki being served', registers, collect() { this.set(source.pages()); } });
    new Gauge({ name: 'wikiquery_database_generation', help: 'how many databases this process has served (1 + reloads)', registers, collect() { this.set(source.generation()); } });
  }

  request(labels: RequestLabels, status: number, error: boolean, seconds: number): void {
    this.requests.inc({ action: labels.action, status: String(status), result: error ? 'error' : 'ok' });
    for (const m of labels.modules) this.modules.inc({ module: m });
    this.latency.observe({ action: labels.action }, seconds);
  }

  cache(hit: boolean): void {
    (hit ? this.cacheHits : this.cacheMisses).inc();
  }

  register(app: FastifyInstance): void {
    app.get('/metrics', async (_request, reply) => {
      const body = await this.registry.metrics();
      return reply.header('Content-Type', this.registry.contentType).header('Cache-Control', 'no-store').send(body);
    });
  }
}

/**
 * The action and query modules a request names, kept to names the registry knows: `action` (default
 * help; unknown → invalid) and, for action=query, every prop, list, meta and generator value.
 */
export function requestLabels(raw: Record<string, string>, actions: ReadonlySet<string>, queryModules: ReadonlySet<string>): RequestLabels {
  const a = raw.action ?? 'help';
  const action = actions.has(a) ? a : 'invalid';
  const modules: string[] = [];
  if (action === 'query') {
    for (const p of ['prop', 'list', 'meta', 'generator']) {
      const v = raw[p];
      if (v === undefined) continue;
      for (const m of v.split('|')) if (queryModules.has(m) && !modules.includes(m)) modules.push(m);
    }
  }
  return { action, modules };
}
