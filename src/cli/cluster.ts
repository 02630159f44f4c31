/**
 * `wikiquery serve --workers N`: one primary process and N workers (node:cluster) that share the listening
 * socket and each open the read-only database, with their own response cache. The primary answers no
 * request: it prints the ready line once every worker listens, forwards SIGHUP (reopen the database) and
 * SIGTERM/SIGINT (stop gracefully, each worker within its grace period), and replaces a worker that dies
 * while serving, so one crash costs the requests that worker held and nothing more. The worker that takes
 * a /metrics request asks the primary, which gathers every worker's registry (prom-client's
 * AggregatorRegistry) and hands back one text: the service's counters, monotonic whichever worker answers.
 */
import cluster, { type Worker } from 'node:cluster';
import { AggregatorRegistry, type Registry } from 'prom-client';

/** What a worker tells the primary. */
export type WorkerMessage = { kind: 'ready'; line: string } | { kind: 'failed'; message: string } | { kind: 'metrics'; id: number };

/** What the primary answers a worker's `metrics` request. */
type PrimaryMessage = { kind: 'metrics-text'; id: number; text?: string; error?: string };

export function isWorker(): boolean {
  return cluster.isWorker;
}

/** In a worker: tell the primary (instead of printing). */
export function tellPrimary(msg: WorkerMessage): void {
  process.send?.(msg);
}

/**
 * In a worker: make `local` the registry the primary gathers from, and return what /metrics answers (the
 * aggregate of all workers, asked of the primary). Installed at start in every worker, since the primary
 * asks all of them whichever one took the request.
 */
export function workerSharedMetrics(local: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([local]);
  // its constructor makes this worker answer the primary's requests for its registry
  new AggregatorRegistry();
  const waiting = new Map<number, { resolve(text: string): void; reject(e: Error): void }>();
  let next = 0;
  process.on('message', (msg: PrimaryMessage) => {
    if (msg?.kind !== 'metrics-text') return;
    const w = waiting.get(msg.id);
    if (w === undefined) return;
    waiting.delete(msg.id);
    if (msg.text !== undefined) w.resolve(msg.text);
    else w.reject(new Error(msg.error ?? 'no answer'));
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      tellPrimary({ kind: 'metrics', id });
    });
}

/** A worker that died meanwhile asked for nothing any more. */
function reply(worker: Worker, msg: PrimaryMessage): void {
  if (worker.isConnected()) worker.send(msg);
}

/** Replacements of crashed workers allowed per minute before the primary gives up. */
const MAX_RESTARTS_PER_MINUTE = 10;

/**
 * Run the primary: fork `count` workers (they run this same command line), print the ready line when all
 * listen, and supervise them. Resolves with the exit code once every worker has stopped.
 */
export function runPrimary(
  count: number,
  log: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void },
): Promise<number> {
  return new Promise((resolve) => {
    let ready = 0;
    let announced = false;
    let stopping = false;
    let exitCode = 0;
    const restarts: number[] = [];
    const live = new Set<Worker>();
    // listens for the workers' registries (prom-client's own messages)
    const aggregator = new AggregatorRegistry();

    const finishIfDone = () => {
      if (stopping && live.size === 0) resolve(exitCode);
    };
    const stopAll = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      for (const worker of live) worker.process.kill(signal);
      finishIfDone();
    };

    const fork = () => {
      const worker = cluster.fork();
      live.add(worker);
      worker.on('message', (msg: WorkerMessage) => {
        if (msg?.kind === 'ready') {
          ready++;
          if (!announced && ready >= count) {
            announced = true;
            process.stdout.write(msg.line + '\n');
          }
        } else if (msg?.kind === 'metrics') {
          aggregator.clusterMetrics().then(
            (text) => reply(worker, { kind: 'metrics-text', id: msg.id, text }),
            (e: Error) => reply(worker, { kind: 'metrics-text', id: msg.id, error: e.message }),
          );
        } else if (msg?.kind === 'failed') {
          // a worker that cannot start (address in use, database unreadable) stops them all
          if (!stopping) process.stderr.write(`wikiquery serve: ${msg.message}\n`);
          exitCode = 1;
          stopAll('SIGTERM');
        }
      });
      worker.on('exit', (code, signal) => {
        live.delete(worker);
        if (stopping) return finishIfDone();
        const now = Date.now();
        while (restarts.length && now - restarts[0] > 60_000) restarts.shift();
        if (restarts.length >= MAX_RESTARTS_PER_MINUTE) {
          log.error({ restarts: restarts.length }, 'workers keep dying; stopping');
          exitCode = 1;
          return stopAll('SIGTERM');
        }
        restarts.push(now);
        // `pid` is the logging process's own (the primary's): the worker is named apart
        log.warn({ worker: worker.process.pid, code, signal }, 'worker died; starting another');
        fork();
      });
    };

    for (let i = 0; i < count; i++) fork();
    process.on('SIGHUP', () => {
      for (const worker of live) worker.process.kill('SIGHUP');
    });
    process.once('SIGTERM', () => stopAll('SIGTERM'));
    process.once('SIGINT', () => stopAll('SIGTERM'));
  });
}
