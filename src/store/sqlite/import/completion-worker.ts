/**
 * The thread of SqliteSemanticImportWriter.buildCompletionIndex: opens the aux file (the staged values in
 * smw_ac_stage, the autocompletion tables empty), makes the distinct values, runs the importer's build
 * module over them through a SqliteSemanticImportWriter of its own, and posts the module's counts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { CompletionIndexCounts, SemanticImportWriter } from '../../import-writer.js';
import { SqliteSemanticImportWriter, type CompletionWorkerData } from './semantic.js';

const data = workerData as CompletionWorkerData;
const db = new Database(data.file);
// scratch: thrown away (copied from) by the import, as the import's own file is until it is complete
db.unsafeMode(true);
db.pragma('journal_mode = OFF');
db.unsafeMode(false);
db.pragma('synchronous = OFF');
db.pragma('locking_mode = EXCLUSIVE');
db.pragma('cache_size = -16384'); // 16 MiB (beside the import's 256): its sorts spill to temp files beyond it
db.pragma('temp_store = FILE');
const m = (await import(data.build)) as { buildCompletionIndex: (w: SemanticImportWriter, heavyRows: number) => CompletionIndexCounts };
const w = new SqliteSemanticImportWriter(db);
w.completionValuesFromStage();
const counts = m.buildCompletionIndex(w, data.heavyRows);
db.close();
parentPort!.postMessage(counts);
