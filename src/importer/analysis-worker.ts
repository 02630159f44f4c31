/**
 * An analysis worker of pass 2 (node:worker_threads): reads chunks of pages from its own read-only
 * view of the database being built and answers with their analysis (analysis.ts); the main thread
 * writes. Requests are answered in the order they arrive.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openImportReader } from '../store/open.js';
import { PageAnalyzer, type AnalysisSetup } from './analysis.js';
import { encodeChunk } from './result-codec.js';

export interface WorkerData {
  location: string;
  setup: AnalysisSetup;
}

export type WorkerRequest = { afterId: number; limit: number };

const data = workerData as WorkerData;
const reader = openImportReader(data.location);
const analyzer = await PageAnalyzer.create(reader, data.setup);
const port = parentPort!;
port.on('message', (req: WorkerRequest) => {
  try {
    const { encoded, transfer } = reader.snapshot(() => encodeChunk(analyzer, req.afterId, req.limit));
    port.postMessage({ ok: true, results: encoded }, transfer);
  } catch (e) {
    port.postMessage({ ok: false, error: (e as Error).stack ?? String(e) });
  }
});
port.on('close', () => reader.close());
