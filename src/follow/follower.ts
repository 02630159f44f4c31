/**
 * The follow loop: from the position stored in the database (or, for a database made by `import`, the
 * newest change its dump holds; for an empty one, the upstream's newest change once it is filled from the
 * API), read a window of changes, build its batch, apply it in one transaction through the incremental
 * updater, and go on; poll every `interval` once a poll finds nothing new. A failure before the transaction commits
 * leaves the database as it was: the window is read again after a backoff. Killed at any moment, the
 * next run starts from the last committed batch's position.
 */
import type { UpdateItem, UpstreamPosition } from '../importer/update-items.js';
import type { Updater } from '../importer/update.js';
import { mwToEpochMs, mwToIso } from '../wiki/timestamps.js';
import { buildBatch } from './batch.js';
import { ChangeGapError, checkReach, overlapStart, readWindow, RecentlyApplied } from './changes.js';
import type { UpstreamClient } from './upstream-client.js';

/** What the follower reports after each poll, for /health and /metrics of every server on the database. */
export interface FollowStatus {
  upstream: string;
  position: UpstreamPosition;
  /** seconds the database is behind the upstream (0 when the last poll found nothing new) */
  lagSeconds: number;
  /** when the last poll ended, ISO 8601 */
  checkedAt: string;
  changesApplied: number;
  batchesApplied: number;
  errors: number;
  backlog: number;
  /** changes since the query-page reports were last recomputed (they are at most --reports-interval behind) */
  reportsPending: boolean;
  lastError: string;
  /** the longest the follower goes without writing its status */
  heartbeatSeconds: number;
}

export interface FollowerOptions {
  client: UpstreamClient;
  filesDir?: string;
  /** seconds between polls once caught up */
  interval: number;
  /** --since: where a database without a stored position starts (TS_MW) */
  since?: string;
  /** changes per batch */
  maxChanges?: number;
  /** pages re-analysed between polls (the refreshLinks-like backlog) */
  refreshPerPoll?: number;
  /** titles per request the upstream allows */
  limit: number;
  /** seconds between recomputations of the query-page reports (as updateSpecialPages.php from cron) */
  reportsInterval: number;
  updater: Updater;
  /** the newest change a database made by `import` holds (TS_MW), or null */
  newestStored: () => Promise<string | null>;
  /** the position of a fill that has not been stored yet */
  filledAt?: UpstreamPosition;
  /** what the fill's dump could not carry (accounts without edits), applied with its position */
  filledWith?: readonly UpdateItem[];
  /** each poll's status (written to the database's meta by the caller) */
  report?: (status: FollowStatus) => Promise<void>;
  log: (line: string) => void;
  signal: AbortSignal;
  /** stop after this many polls (tests) */
  maxPolls?: number;
}

const MAX_BACKOFF_MS = 60_000;

/** Where following starts, given what the database holds. */
export async function startPosition(opts: FollowerOptions): Promise<{ position: UpstreamPosition; store: boolean }> {
  // a database just filled from the API goes on from where the fill began
  if (opts.filledAt !== undefined) return { position: opts.filledAt, store: true };
  const stored = opts.updater.position();
  const api = opts.client.api;
  // a position a follower stored wins; --since places a database that has none, or only its dump's newest change
  if (stored !== null && (stored.api !== '' || opts.since === undefined)) return { position: stored, store: false };
  if (opts.since !== undefined) return { position: { api, timestamp: opts.since, rcid: 0, logid: 0 }, store: false };
  const newest = await opts.newestStored();
  // rcid 0: the changes of that second are read again (an overlap is harmless: stored revisions are skipped)
  return { position: { api, timestamp: newest ?? '19700101000000', rcid: 0, logid: 0 }, store: false };
}

export async function follow(opts: FollowerOptions): Promise<FollowStatus> {
  const { client, updater, log, signal } = opts;
  const start = await startPosition(opts);
  let position = start.position;
  if (start.store) await updater.apply([...(opts.filledWith ?? []), { type: 'position', position }]);
  if (position.api !== client.api && position.api !== '') {
    log(`note: the database followed ${position.api} until now; it follows ${client.api} from its position`);
  }
  if (position.api !== client.api) position = Object.assign({}, position, { api: client.api });
  await checkReach(client, position);
  const status: FollowStatus = {
    upstream: client.api,
    position,
    lagSeconds: 0,
    checkedAt: new Date().toISOString(),
    changesApplied: 0,
    batchesApplied: 0,
    errors: 0,
    backlog: updater.refreshBacklog(),
    reportsPending: true,
    lastError: '',
    heartbeatSeconds: Math.max(60, opts.interval * 2),
  };
  // each write of the status is a commit, after which every server reopens the database: written when
  // something happened, else once a heartbeat
  let reported = 0;
  let failures = 0;
  // what the database holds of the stretch the first window reads again: a row that comes late there is
  // told apart from one applied before a restart
  const recent = new RecentlyApplied();
  recent.seed(updater.appliedSince(overlapStart(position)));
  let reportsDue = 0;
  // a follower stopped after a batch and before its reports were recomputed left them behind: once at start
  let changedSinceReports = true;
  for (let poll = 0; !signal.aborted && (opts.maxPolls === undefined || poll < opts.maxPolls); poll++) {
    let caughtUp = true;
    let applied = false;
    let happened = poll === 0;
    const backlogBefore = status.backlog;
    const reportsPendingBefore = status.reportsPending;
    try {
      if (failures > 0) await checkReach(client, position);
      const window = await readWindow(client, position, opts.maxChanges ?? 500, recent);
      if (signal.aborted) break;
      if (window.changes.length > 0 || window.logs.length > 0) {
        const started = Date.now();
        const items = await buildBatch(window, { client, limit: opts.limit, filesDir: opts.filesDir });
        if (signal.aborted) break;
        await updater.apply(items);
        recent.add(window);
        position = window.end;
        status.changesApplied += window.changes.length;
        status.batchesApplied++;
        happened = true;
        applied = true;
        log(progressLine(window.changes.length, items, position, window.complete, Date.now() - started));
      }
      if (window.changes.length > 0) changedSinceReports = true;
      caughtUp = window.complete;
      status.position = position;
      // behind: as old as the newest change applied; caught up: nothing newer than what the poll saw
      status.lagSeconds = caughtUp ? 0 : Math.max(0, Math.round((Date.now() - mwToEpochMs(position.timestamp)) / 1000));
      // the refreshed pages' links count in the reports too: refreshed first
      if (opts.refreshPerPoll !== 0 && updater.refreshBacklog() > 0 && (await updater.refresh(opts.refreshPerPoll ?? 200)) > 0)
        changedSinceReports = true;
      status.backlog = updater.refreshBacklog();
      if (changedSinceReports && Date.now() >= reportsDue) {
        await updater.rebuildReports();
        changedSinceReports = false;
        reportsDue = Date.now() + opts.reportsInterval * 1000;
      }
      status.reportsPending = changedSinceReports;
      failures = 0;
    } catch (e) {
      if (e instanceof ChangeGapError) throw e;
      failures++;
      status.errors++;
      status.lastError = (e as Error).message;
      happened = true;
      log(`error: ${(e as Error).message}; nothing of this batch was applied, reading it again`);
    }
    status.checkedAt = new Date().toISOString();
    if (status.backlog !== backlogBefore || status.reportsPending !== reportsPendingBefore || !caughtUp) happened = true;
    if (opts.report !== undefined && (happened || Date.now() - reported >= status.heartbeatSeconds * 1000)) {
      reported = Date.now();
      try {
        await opts.report(status);
      } catch (e) {
        log(`warning: the follower's status could not be written: ${(e as Error).message}`);
      }
    }
    if (failures > 0) await abortableSleep(Math.min(MAX_BACKOFF_MS, 1000 * 2 ** Math.min(failures - 1, 6)), signal);
    // a poll that found changes is followed by another at once: on a wiki edited every second, waiting a
    // whole interval after each batch would put the changes made meanwhile an interval and a batch behind
    else if (caughtUp && !applied) await abortableSleep(opts.interval * 1000, signal);
  }
  return status;
}

function progressLine(changes: number, items: readonly UpdateItem[], position: UpstreamPosition, complete: boolean, ms: number): string {
  let revisions = 0;
  let pages = 0;
  let deletions = 0;
  let files = 0;
  for (const item of items) {
    if (item.type === 'revision') revisions++;
    else if (item.type === 'page') pages++;
    else if (item.type === 'deletion') deletions++;
    else if (item.type === 'file') files++;
  }
  const lag = Math.max(0, Math.round((Date.now() - mwToEpochMs(position.timestamp)) / 1000));
  return (
    `batch: ${changes} changes, ${revisions} revisions, ${pages} pages, ${deletions} deletions, ${files} files in ${(ms / 1000).toFixed(1)} s; ` +
    `at ${mwToIso(position.timestamp)} (rc ${position.rcid}, log ${position.logid})${complete ? ', caught up' : `, ${lag} s behind`}`
  );
}

async function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  if (signal.aborted) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done);
  });
}
