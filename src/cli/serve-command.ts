/**
 * `wikiquery serve --db FILE …`: checks its options and the database before anything listens, prints one
 * ready line on stdout (`wikiquery: <sitename>, N pages, serving http://HOST:PORT/api.php`), and then runs
 * as a service: SIGTERM/SIGINT stop it within the grace period, SIGHUP reopens the database, and a
 * re-import (a replaced file, or a PostgreSQL database's new served import) is picked up by itself
 * (watchStoreLocation in src/store/open.ts).
 */
import { formatHelp, parseCommand, parseNumber, parsePort, UsageError, usageFailure, type CommandSpec } from './args.js';
import type { WikiServer } from '../http/server.js';
import { createLogger, LOG_LEVELS } from '../http/logger.js';
import { databaseProblem } from '../store/sqlite/db.js';
import {
  describeStoreError,
  openStore,
  parseStoreLocation,
  printableLocation,
  serveServerProblem,
  unsupportedLocation,
  watchStoreLocation,
} from '../store/open.js';
import { availableParallelism } from 'node:os';
import { isWorker, runPrimary, tellPrimary, workerSharedMetrics } from './cluster.js';
import { InterwikiMap } from '../wiki/interwiki.js';
import { DEFAULT_READ_ONLY_REASON } from '../wiki/users.js';

/**
 * What serving needs beyond the checks of the options and the database: loaded once those pass, so that
 * `serve --help` and a refused command line answer without loading the server (a CPU second and more).
 */
function serverModules() {
  return Promise.all([
    import('../http/server.js'),
    import('../http/malloc-thresholds.js'),
    import('../modules/page-renderer.js'),
    import('../wiki/morphology.js'),
  ]);
}

export const SERVE_COMMAND: CommandSpec = {
  name: 'serve',
  synopsis: 'serve --db FILE [--host ADDR] [--port N] [--files DIR] [options]',
  summary: "Answers MediaWiki 1.25's api.php (GET and POST /api.php) from an imported database.",
  options: {
    db: {
      type: 'string',
      value: 'FILE|URL',
      help: 'the database `wikiquery import` wrote: an SQLite file (a path, or sqlite:PATH) or a PostgreSQL database (postgres://USER@HOST/DB; ?host=/socket/dir for a Unix socket)',
    },
    'db-replica': {
      type: 'string',
      value: 'URL',
      help: 'a streaming replica of the PostgreSQL --db: reads go there (the served import is read from --db)',
    },
    host: { type: 'string', value: 'ADDR', default: '127.0.0.1', help: 'address to listen on (0.0.0.0: every interface)' },
    port: { type: 'string', value: 'N', default: '8080', help: 'TCP port (0: any free port)' },
    files: { type: 'string', value: 'DIR', help: 'serve the uploaded files from the directory they were imported from' },
    thumbs: {
      type: 'string',
      value: 'DIR',
      help: 'keep the thumbnails made from the files here (default: DB.thumbs beside an SQLite --db; a temporary folder for PostgreSQL)',
    },
    'thumb-renders': {
      type: 'string',
      value: 'N',
      default: '2',
      help: 'thumbnails made at once per process; 32 more wait, the rest get 503',
    },
    'cache-mb': { type: 'string', value: 'MB', default: '64', help: 'response cache size (0: off)' },
    'parser-cache-mb': {
      type: 'string',
      value: 'MB',
      default: '32',
      help: 'parser cache size: rendered pages kept per revision for action=parse and the article path (0: off)',
    },
    'cors-origin': {
      type: 'string',
      multiple: true,
      value: 'PATTERN',
      help: 'origins allowed to make cross-site requests with origin=, as $wgCrossSiteAJAXdomains: host names, * and ? wildcards (*.example.org)',
    },
    'cors-except': {
      type: 'string',
      multiple: true,
      value: 'PATTERN',
      help: 'exceptions to --cors-origin ($wgCrossSiteAJAXdomainExceptions)',
    },
    'trust-proxy': {
      type: 'string',
      value: 'PROXIES',
      help: 'believe X-Forwarded-For/-Proto/-Host from these peers: addresses or CIDR ranges (comma-separated), a hop count, or true for any',
    },
    'watch-interval': {
      type: 'string',
      value: 'S',
      default: '2',
      help: 'check the database (file, or PostgreSQL served import) for a re-import every S seconds (0: only on SIGHUP)',
    },
    'shutdown-grace': {
      type: 'string',
      value: 'S',
      default: '10',
      help: 'on SIGTERM/SIGINT, let running requests finish for at most S seconds',
    },
    'max-concurrent': {
      type: 'string',
      value: 'N',
      default: '64',
      help: "API requests in flight (or taken together) past which a request is shed: HTTP 503, Retry-After and MediaWiki's maxlag error (0: never)",
    },
    'max-connections': {
      type: 'string',
      value: 'N',
      default: '4096',
      help: 'open connections; more are closed as they arrive (give the process more file descriptors: ulimit -n)',
    },
    'max-result-size': {
      type: 'string',
      value: 'BYTES',
      default: '8388608',
      help: '$wgAPIMaxResultSize: bytes of values in one answer; past it the module continues in the next request',
    },
    'new-continuation': {
      type: 'boolean',
      help: 'a query without continue= or rawcontinue= gets the continue/batchcomplete form of MediaWiki 1.26+, not query-continue (docs/clients.md)',
    },
    'read-only-reason': {
      type: 'string',
      value: 'TEXT',
      default: DEFAULT_READ_ONLY_REASON,
      help: "the readonlyreason of write modules' readonly error ($wgReadOnly)",
    },
    workers: {
      type: 'string',
      value: 'N',
      default: String(availableParallelism()),
      help: 'processes answering requests, sharing the port (node:cluster); default: one per core; 1: this process alone',
    },
    interwiki: {
      type: 'string',
      value: 'FILE',
      help: "the interwiki map (JSON, as src/wiki/data/interwiki.json) instead of MediaWiki's default list",
    },
    upstream: {
      type: 'string',
      value: 'API_URL',
      help: "the live MediaWiki's api.php (normally the one `wikiquery follow` follows): writes, logins, a logged-in user's session requests and what wikiquery does not implement are forwarded there",
    },
    'upstream-wait': {
      type: 'string',
      value: 'S',
      default: '5',
      help: "after a client's forwarded write, its reads wait at most S seconds for follow to apply it (then answer with a lag warning)",
    },
    'log-level': { type: 'string', value: 'LEVEL', default: 'warn', help: `${LOG_LEVELS.join(', ')}; info logs one line per request` },
    debug: { type: 'boolean', help: "add MediaWiki's debuginfo (SQL queries and timings) to every answer" },
  },
  notes: [
    'Signals: SIGTERM/SIGINT stop (exit 0 after the running requests), SIGHUP reopens the database (systemctl reload).',
    'Exit codes: 0 stopped, 1 cannot serve (database, address), 2 usage.',
  ],
};

export interface ServeOptions {
  db: string;
  dbReplica?: string;
  host: string;
  port: number;
  files?: string;
  /** the thumbnail folder (default: beside an SQLite database) */
  thumbs?: string;
  thumbRenders?: number;
  debug?: boolean;
  cacheMb?: number;
  parserCacheMb?: number;
  logLevel?: string;
  corsOrigins?: string[];
  corsExcept?: string[];
  trustProxy?: boolean | number | string[];
  watchSeconds?: number;
  graceSeconds?: number;
  interwiki?: InterwikiMap;
  maxConcurrent?: number;
  maxConnections?: number;
  maxResultSize?: number;
  newContinuation?: boolean;
  readOnlyReason?: string;
  /** worker processes (1: serve in this process) */
  workers?: number;
  upstream?: string;
  upstreamWaitSeconds?: number;
}

export async function runServeCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let o: ServeOptions;
  try {
    const { values, positionals } = parseCommand(SERVE_COMMAND, argv, env);
    if (values.help) {
      process.stdout.write(formatHelp(SERVE_COMMAND) + '\n');
      return 0;
    }
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    if (!values.db) throw new UsageError('--db FILE is required');
    const level = values['log-level'] as string;
    if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new UsageError(`--log-level ${level}: one of ${LOG_LEVELS.join(', ')}`);
    o = {
      db: values.db as string,
      dbReplica: values['db-replica'] as string | undefined,
      host: values.host as string,
      port: parsePort(values.port as string),
      files: values.files as string | undefined,
      thumbs: values.thumbs as string | undefined,
      thumbRenders: parseWhole(values['thumb-renders'] as string, '--thumb-renders', 'thumbnails at once'),
      debug: values.debug === true,
      cacheMb: parseNumber(values['cache-mb'] as string, '--cache-mb', 'megabytes (0 turns the cache off)'),
      parserCacheMb: parseNumber(values['parser-cache-mb'] as string, '--parser-cache-mb', 'megabytes (0 turns the parser cache off)'),
      logLevel: level,
      corsOrigins: values['cors-origin'] as string[] | undefined,
      corsExcept: values['cors-except'] as string[] | undefined,
      trustProxy: values['trust-proxy'] === undefined ? undefined : parseTrustProxy(values['trust-proxy'] as string),
      watchSeconds: parseNumber(values['watch-interval'] as string, '--watch-interval', 'seconds'),
      graceSeconds: parseNumber(values['shutdown-grace'] as string, '--shutdown-grace', 'seconds'),
      maxConcurrent: parseWhole(values['max-concurrent'] as string, '--max-concurrent', 'requests (0: never shed)'),
      maxConnections: parseWhole(values['max-connections'] as string, '--max-connections', 'connections'),
      maxResultSize: parseWhole(values['max-result-size'] as string, '--max-result-size', 'bytes'),
      workers: parseWorkers(values.workers as string),
      newContinuation: values['new-continuation'] === true,
      readOnlyReason: values['read-only-reason'] as string,
      upstream: values.upstream === undefined ? undefined : parseUpstream(values.upstream as string),
      upstreamWaitSeconds: parseNumber(values['upstream-wait'] as string, '--upstream-wait', 'seconds'),
    };
    if (values.interwiki !== undefined) {
      try {
        o.interwiki = InterwikiMap.fromFile(values.interwiki as string);
      } catch (e) {
        throw new UsageError(`--interwiki ${String(values.interwiki)}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  } catch (e) {
    return usageFailure(SERVE_COMMAND, e);
  }
  const unsupported = unsupportedLocation(o.db);
  if (unsupported !== null) {
    process.stderr.write(`wikiquery serve: --db ${o.db}: ${unsupported}\n`);
    return 2;
  }
  const where = parseStoreLocation(o.db);
  if (o.dbReplica !== undefined && (where.backend !== 'postgres' || parseStoreLocation(o.dbReplica).backend !== 'postgres')) {
    process.stderr.write('wikiquery serve: --db-replica: a postgres:// replica of a postgres:// --db\n');
    return 2;
  }
  if (where.backend === 'sqlite') {
    const problem = databaseProblem(where.path);
    if (problem !== null) {
      process.stderr.write(
        `wikiquery serve: --db ${o.db}: ${problem}${problem === 'no such file' ? ' (run wikiquery import first)' : ''}\n`,
      );
      return 1;
    }
  }
  // a database server is asked once, before any worker starts: down, or the role without rights, is one clear line
  if (!isWorker()) {
    const problem = await serveServerProblem(o.db);
    if (problem !== null) {
      process.stderr.write(`wikiquery serve: --db ${printableLocation(o.db)}: ${problem}\n`);
      return 1;
    }
  }
  if (!isWorker() && (o.workers ?? 1) > 1) return runPrimary(o.workers!, createLogger(o.logLevel ?? 'warn'));
  // search's Ukrainian dictionary, read before this process listens: the first search would wait for it
  (await serverModules())[3].loadMorphology();
  try {
    await serve(o);
    return 0;
  } catch (e) {
    const message = listenError(e, o);
    if (isWorker()) {
      tellPrimary({ kind: 'failed', message });
      return 1;
    }
    process.stderr.write(`wikiquery serve: ${message}\n`);
    return 1;
  }
}

function parseWhole(value: string, what: string, unit: string): number {
  const n = parseNumber(value, what, unit);
  if (!Number.isInteger(n)) throw new UsageError(`${what} ${value}: expected a whole number of ${unit}`);
  return n;
}

function parseWorkers(v: string): number {
  if (!/^\d+$/.test(v.trim()) || Number(v) < 1 || Number(v) > 256)
    throw new UsageError(`--workers ${v}: a number of processes from 1 to 256`);
  return Number(v);
}

/** `true`/`false`, a hop count, or a list of addresses and CIDR ranges. */
export function parseTrustProxy(v: string): boolean | number | string[] {
  const s = v.trim();
  if (s === 'true') return true;
  if (s === 'false') return false;
  if (/^\d+$/.test(s)) return Number(s);
  const list = s.split(/[\s,]+/).filter(Boolean);
  if (
    list.length === 0 ||
    !list.every((a) => /^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(a) || ['loopback', 'linklocal', 'uniquelocal'].includes(a))
  ) {
    throw new UsageError(`--trust-proxy ${v}: expected true, a hop count, or proxy addresses/CIDR ranges (e.g. 127.0.0.1,10.0.0.0/8)`);
  }
  return list;
}

function listenError(e: unknown, o: ServeOptions): string {
  const err = e as NodeJS.ErrnoException;
  switch (err.code) {
    case 'EADDRINUSE':
      return `${o.host}:${o.port}: address already in use (another server is listening there; choose another --port)`;
    case 'EACCES':
      return `${o.host}:${o.port}: permission denied (ports below 1024 need privileges; put nginx in front, see docs/operations.md)`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `--host ${o.host}: not an address of this machine`;
    default:
      // a database server that went away after the check: said as the check says it
      if (parseStoreLocation(o.db).backend === 'postgres') return `--db ${printableLocation(o.db)}: ${describeStoreError(o.db, e)}`;
      return err.message ?? String(e);
  }
}

/** Serve until a stop signal; resolves once listening. */
export async function serve(o: ServeOptions): Promise<WikiServer> {
  const [{ createServer }, { raiseMallocThresholds }, { configureParserCache }] = await serverModules();
  const log = createLogger(o.logLevel ?? 'warn');
  // large answers are made and freed per request: the heap must not shrink and grow again under them
  raiseMallocThresholds();
  // characters of rendered output held, ~2 bytes each
  if (o.parserCacheMb !== undefined) configureParserCache((o.parserCacheMb * 1024 * 1024) / 2);
  const open = () => openStore(o.db, { debug: o.debug, replica: o.dbReplica });
  const store = await open();
  // a server that cannot be built lets go of the store: a PostgreSQL pool would keep the process alive
  const server = await createServer({
    store,
    openStore: open,
    debug: o.debug,
    filesDir: o.files,
    thumbsDir: o.thumbs ?? defaultThumbsDir(o.db),
    thumbLimits: o.thumbRenders === undefined ? undefined : { concurrency: Math.max(1, o.thumbRenders) },
    cacheMb: o.cacheMb,
    logger: log,
    cors: { allow: o.corsOrigins ?? [], except: o.corsExcept ?? [] },
    trustProxy: o.trustProxy,
    interwiki: o.interwiki,
    load: o.maxConcurrent === undefined ? undefined : { maxConcurrent: o.maxConcurrent },
    limits: o.maxConnections === undefined ? undefined : { maxConnections: o.maxConnections },
    maxResultSize: o.maxResultSize,
    upstream: o.upstream === undefined ? undefined : { apiUrl: o.upstream, waitMs: (o.upstreamWaitSeconds ?? 5) * 1000 },
    sharedMetrics: isWorker() ? workerSharedMetrics : undefined,
    newContinuation: o.newContinuation,
    readOnlyReason: o.readOnlyReason,
  }).catch((e: unknown) => {
    store.close();
    throw e;
  });
  let address: string;
  try {
    address = await server.app.listen({ host: o.host, port: o.port });
  } catch (e) {
    await server.close();
    throw e;
  }
  const id = server.identity;
  // the first line is what scripts wait for; the second says where a person looks
  const ready =
    `wikiquery: ${id.sitename}, ${id.pages} pages, serving ${address}/api.php\n` +
    `wikiquery: the wiki's pages at ${address}/index.php, health at ${address}/health, metrics at ${address}/metrics`;
  // a worker's primary prints the line once all its workers listen
  if (isWorker()) tellPrimary({ kind: 'ready', line: ready });
  else process.stdout.write(ready + '\n');

  const reopen = (why: string) =>
    server.reload().then(
      (r) =>
        log.info(
          { why, import: r.current.id, previous: r.previous.id, generation: r.generation },
          r.changed ? 'serving the new import' : 'database reopened',
        ),
      (e: Error) => {
        log.error({ why, err: e.message }, 'database could not be reopened; still serving the previous one');
        throw e;
      },
    );
  const watcher =
    (o.watchSeconds ?? 2) > 0 ? watchStoreLocation(o.db, (o.watchSeconds ?? 2) * 1000, () => reopen('a new import was published')) : null;
  const onHup = () => void reopen('SIGHUP').catch(() => {});
  process.on('SIGHUP', onHup);
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    watcher?.close();
    process.off('SIGHUP', onHup);
    log.info({ signal }, 'stopping');
    void server.shutdown((o.graceSeconds ?? 10) * 1000).then(() => {
      log.flush?.();
      process.exit(0);
    });
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return server;
}

/** `wiki.sqlite.thumbs` beside an SQLite database; none (a temporary folder) for a PostgreSQL one */
export function defaultThumbsDir(db: string): string | undefined {
  if (/^postgres(ql)?:/i.test(db)) return undefined;
  return `${db.replace(/^sqlite:/i, '')}.thumbs`;
}

/** --upstream: an absolute http(s) URL of an api.php */
function parseUpstream(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--upstream ${value}: the upstream's api.php as an absolute URL (http://wiki.example.org/w/api.php)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UsageError(`--upstream ${value}: an http: or https: URL`);
  if (url.username !== '' || url.password !== '') throw new UsageError(`--upstream ${value}: no credentials in the URL`);
  return url.href;
}
