/**
 * The thread of SqliteDerived.startReports: the query-page reports computed from the build file while
 * the import's connection goes on with the rest of the tail. The side file is this connection's main
 * database and holds only querycache and querycache_info; the build file is attached (in WAL mode
 * meanwhile, so this reader and the import's writer never wait for each other) and only read: every
 * other table a report names resolves to it, querycache to the side file. Posts each report's figures,
 * then 'done'.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { openScratchDb } from './scratch-db.js';
import { buildReports, REPORT_TABLES_SQL } from './reports.js';

export interface ReportsWorkerData {
  /** the build file (read) */
  file: string;
  /** the side file (written; thrown away after the import copies from it) */
  side: string;
  maxRows: number | null;
}

const data = workerData as ReportsWorkerData;
// main. only: without a schema these pragmas would apply to the build file attached below too (an
// exclusive lock there would shut the import's own connection out); the reports' sorts and groupings
// spill to temp files, as on the import's connection
const db = openScratchDb(data.side, 'main.');
db.exec(REPORT_TABLES_SQL);
db.prepare('ATTACH ? AS src').run(data.file);
// beside the import's 256 MiB, while the semantic indexes are built: 64 MiB put the import's peak at 991 MiB at
// 1,000,000 pages (the reports still end before the indexes do); their sorts spill to temp files
db.pragma('src.cache_size = -32768');
buildReports(db, {
  maxRows: data.maxRows,
  onReport: (name, rows, seconds) => parentPort!.postMessage({ name, rows, seconds }),
});
db.exec('DETACH src');
db.close();
parentPort!.postMessage('done');
