/**
 * Pass 2's analysis on worker threads: chunks of pages go to the workers in turn and their results come
 * back as promises, which the caller awaits in the order it asked (page id order). How many chunks
 * are asked for ahead is the caller's bound on memory.
 */
import { Worker } from 'node:worker_threads';
import type { ImportSource } from '../store/import-writer.js';
import { PageAnalyzer, type AnalysisSetup, type PageResult } from './analysis.js';
import type { InterwikiMap } from '../wiki/interwiki.js';
import type { WorkerData, WorkerRequest } from './analysis-worker.js';
import { eachResult, type EncodedResults } from './result-codec.js';

/**
 * A chunk's results: how many, and the results one at a time (decoded as they are taken, so that only the
 * page being written is held as objects: see result-codec.ts).
 */
export interface ChunkResults {
  count: number;
  each(): Iterable<PageResult>;
}

/** the results of a chunk made on this thread */
export function chunkOf(results: readonly PageResult[]): ChunkResults {
  return { count: results.length, each: () => results };
}

/** an encoded chunk, decoded as it is taken */
export function encodedChunk(d: EncodedResults): ChunkResults {
  return { count: d.count, each: () => eachResult(d) };
}

export interface ChunkAnalyzer {
  /** the analysis of the pages after `afterId` (at most `limit`), in page id order */
  chunk(afterId: number, limit: number): Promise<ChunkResults>;
  close(): Promise<void>;
}

interface Pending {
  resolve: (r: ChunkResults) => void;
  reject: (e: Error) => void;
}

class WorkerPool implements ChunkAnalyzer {
  private readonly workers: Array<{ worker: Worker; pending: Pending[] }> = [];
  private next = 0;
  private failure: Error | null = null;

  constructor(
    n: number,
    data: WorkerData,
    private readonly onClosed: () => void,
  ) {
    for (let i = 0; i < n; i++) {
      // a bigger young generation: a chunk's garbage dies young instead of being promoted and swept
      const worker = new Worker(new URL('./analysis-worker.js', import.meta.url), {
        workerData: data,
        resourceLimits: { maxYoungGenerationSizeMb: 96 },
      });
      const entry = { worker, pending: [] as Pending[] };
      worker.on('message', (m: { ok: true; results: EncodedResults } | { ok: false; error: string }) => {
        const p = entry.pending.shift();
        if (m.ok) {
          // decoded when the writer takes it (a malformed chunk throws there, in page order)
          p?.resolve(encodedChunk(m.results));
        } else {
          const e = new Error(`page analysis failed: ${m.error}`);
          p?.reject(e);
          this.fail(e);
        }
      });
      worker.on('error', (e: unknown) => this.fail(e instanceof Error ? e : new Error(String(e))));
      worker.on('exit', (code) => {
        if (entry.pending.length > 0) this.fail(new Error(`an analysis worker exited (code ${code}) with work pending`));
      });
      this.workers.push(entry);
    }
  }

  private fail(e: Error): void {
    this.failure ??= e;
    for (const w of this.workers) for (const p of w.pending.splice(0)) p.reject(this.failure);
  }

  chunk(afterId: number, limit: number): Promise<ChunkResults> {
    if (this.failure) return Promise.reject(this.failure);
    const entry = this.workers[this.next++ % this.workers.length];
    return new Promise((resolve, reject) => {
      entry.pending.push({ resolve, reject });
      entry.worker.postMessage({ afterId, limit } satisfies WorkerRequest);
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.worker.terminate()));
    this.onClosed();
  }
}

/** Analysis on the calling thread (no workers asked for) */
class InlineAnalyzer implements ChunkAnalyzer {
  constructor(private readonly analyzer: PageAnalyzer) {}

  async chunk(afterId: number, limit: number): Promise<ChunkResults> {
    return chunkOf(this.analyzer.chunk(afterId, limit));
  }

  async close(): Promise<void> {}
}

/**
 * `workers` threads reading `location` (what the writer's shareForReading() gave), or with 0 the
 * calling thread reading `source`.
 */
export async function createChunkAnalyzer(
  workers: number,
  setup: AnalysisSetup,
  local: { source: ImportSource; interwiki: InterwikiMap; share: () => string; stopSharing: () => void },
): Promise<ChunkAnalyzer> {
  if (workers <= 0) return new InlineAnalyzer(await PageAnalyzer.create(local.source, setup, local.interwiki));
  return new WorkerPool(workers, { location: local.share(), setup }, local.stopSharing);
}
