/**
 * The thread of SqliteSemanticImportWriter.buildCompletionIndex: opens the aux file (the staged values in
 * smw_ac_stage, the autocompletion tables empty), makes the distinct values, runs the importer's build
 * module over them through a SqliteSemanticImportWriter of its own, and posts the module's counts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openScratchDb } from './scratch-db.js';
import type { CompletionIndexCounts, SemanticImportWriter } from '../../import-writer.js';
import { SqliteSemanticImportWriter, type CompletionWorkerData } from './semantic.js';

const data = workerData as CompletionWorkerData;
// scratch: thrown away (copied from) by the import, as the import's own file is until it is complete
const db = openScratchDb(data.file);
db.pragma('cache_size = -16384'); // 16 MiB (beside the import's 256): its sorts spill to temp files beyond it
const m = (await import(data.build)) as { buildCompletionIndex: (w: SemanticImportWriter, heavyRows: number) => CompletionIndexCounts };
const w = new SqliteSemanticImportWriter(db);
w.completionValuesFromStage();
const counts = m.buildCompletionIndex(w, data.heavyRows);
db.close();
parentPort!.postMessage(counts);
