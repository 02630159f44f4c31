/** `import DUMP --update`: a dump of changed pages read into batches for the incremental path. */
import path from 'node:path';
import fs from 'node:fs';
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { openUpdater, type UpdaterOptions } from '../update.js';
import type { UpdateItem } from '../update-items.js';
import { readDump, type DumpUpload } from '../dump-reader.js';
import { checkDumpPath } from '../dump-source.js';

export interface UpdateFromDumpOptions extends UpdaterOptions {
  dump: string;
  db: string;
  /** page items per batch (one transaction each; default 500) */
  batchPages?: number;
}

export interface UpdateFromDumpSummary {
  batches: number;
  pages: number;
  deleted: number;
  revisions: number;
  logItems: number;
  files: number;
  /** pages re-analysed because a page they transclude changed */
  refreshed: number;
  seconds: number;
  /** of which: applying the batches, the refresh queue, the reports and autocompletion answers */
  applySeconds: number;
  refreshSeconds: number;
  reportSeconds: number;
  pagesPerSecond: number;
}

/** pages a refresh transaction re-analyses at the end of `import --update` */
const REFRESH_CHUNK = 500;

/**
 * `import DUMP --update`: a dump of changed pages (Special:Export of some pages, full history or current
 * only) applied through the incremental path, in batches of `batchPages` pages; the pages it does not
 * mention stay. Then the refresh queue is drained and the query-page reports recomputed, so that the
 * database answers as a fresh import of the wiki's new state would.
 */
export async function updateFromDump(opts: UpdateFromDumpOptions): Promise<UpdateFromDumpSummary> {
  const t0 = performance.now();
  checkDumpPath(opts.dump);
  const log = opts.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const updater = await openUpdater(opts.db, opts);
  const out: UpdateFromDumpSummary = {
    batches: 0,
    pages: 0,
    deleted: 0,
    revisions: 0,
    logItems: 0,
    files: 0,
    refreshed: 0,
    seconds: 0,
    applySeconds: 0,
    refreshSeconds: 0,
    reportSeconds: 0,
    pagesPerSecond: 0,
  };
  const batchPages = opts.batchPages ?? 500;
  try {
    let batch: UpdateItem[] = [];
    let pagesInBatch = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      const s = await updater.apply(batch);
      out.batches++;
      out.pages += s.pages;
      out.deleted += s.deleted;
      out.revisions += s.revisions;
      out.logItems += s.logItems;
      out.files += s.files;
      batch = [];
      pagesInBatch = 0;
    };
    const fileItem = (u: DumpUpload) => {
      if (opts.filesDir === undefined || u.filename === '') return;
      const rel = uploadPath(opts.filesDir, u.filename.replace(/ /g, '_'));
      if (rel === null) log(`warning: ${u.filename}: not in ${opts.filesDir}; its upload record is kept without the file`);
      else batch.push({ type: 'file', file: { upload: u, path: rel } });
    };
    for await (const item of readDump(opts.dump, { onWarning: (m) => log(`warning: ${m}`) })) {
      batch.push(item);
      if (item.type === 'upload') fileItem(item.upload);
      if (item.type !== 'page') continue;
      for (const u of item.page.uploads) fileItem(u);
      if (++pagesInBatch >= batchPages) await flush();
    }
    await flush();
    const t1 = performance.now();
    out.applySeconds = (t1 - t0) / 1000;
    while (updater.refreshBacklog() > 0) out.refreshed += await updater.refresh(REFRESH_CHUNK);
    const t2 = performance.now();
    out.refreshSeconds = (t2 - t1) / 1000;
    await updater.rebuildReports();
    out.reportSeconds = (performance.now() - t2) / 1000;
  } finally {
    updater.close();
  }
  out.seconds = (performance.now() - t0) / 1000;
  out.pagesPerSecond = out.seconds > 0 ? out.pages / out.seconds : out.pages;
  return out;
}

/** where a file of a MediaWiki upload directory is: hashed ($wgHashedUploadDirectory: a/ab/Name) or flat */
function uploadPath(filesDir: string, name: string): string | null {
  const h = crypto.createHash('md5').update(name).digest('hex');
  for (const rel of [`${h[0]}/${h.slice(0, 2)}/${name}`, name]) if (fs.existsSync(path.join(filesDir, ...rel.split('/')))) return rel;
  return null;
}
