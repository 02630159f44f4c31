/**
 * Reading the upstream's change stream from a position: `list=recentchanges` (every type, log rows
 * included, oldest first, with continuation) and `list=logevents` (entries recent changes lack: page
 * creations, autocreated accounts), as one window of changes after the position. Changes of one second
 * are ordered by rc_id (MediaWiki sorts by timestamp, then id), so the position is the pair.
 */
import { isoToMw, mwToIso } from '../wiki/timestamps.js';
import type { RecentChangeItem, UpstreamPosition } from '../importer/update-items.js';
import { UpstreamError, type ApiAnswer, type UpstreamClient } from './upstream-client.js';

/** A log entry as list=logevents reported it (1.25 and 1.39 shapes both read). */
export interface LogEvent {
  logId: number;
  type: string;
  action: string;
  ns: number;
  title: string;
  pageId: number;
  user: string;
  userId: number;
  timestamp: string;
  comment: string;
  /** the entry's parameters: 1.39's `params`, or 1.25's member named after the log type */
  params: Record<string, unknown>;
}

export interface ChangeWindow {
  changes: RecentChangeItem[];
  /** parameters of the log rows among `changes`, by rc id */
  logParams: Map<number, Record<string, unknown>>;
  logs: LogEvent[];
  /** the position after the window */
  end: UpstreamPosition;
  /** false when the window stopped at `maxChanges` and more changes follow */
  complete: boolean;
}

/** The upstream's recent changes no longer reach back to the position: following would leave a gap. */
export class ChangeGapError extends Error {
  constructor(position: UpstreamPosition, oldest: string) {
    super(
      `the upstream's recent changes start at ${mwToIso(oldest)}, after this database's position ${mwToIso(position.timestamp)} ` +
        `(rc ${position.rcid}): the changes between are gone ($wgRCMaxAge). Re-synchronise: import a fresh dump of the ` +
        `upstream (dumpBackup.php --full --uploads, then wikiquery import), or follow into an empty database, which is filled from the API`,
    );
    this.name = 'ChangeGapError';
  }
}

const RC_PROPS = 'title|ids|sizes|flags|user|userid|comment|timestamp|loginfo';

function num(v: unknown): number {
  return typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : 0;
}
function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

/** A recent change row, or an UpstreamError when the row lacks what every row has. */
export function readChange(row: ApiAnswer): RecentChangeItem {
  if (typeof row !== 'object' || row === null || typeof row.timestamp !== 'string' || num(row.rcid) <= 0 || typeof row.type !== 'string') {
    throw new UpstreamError(`a malformed recent change: ${JSON.stringify(row).slice(0, 200)}`);
  }
  const change: RecentChangeItem = {
    rcid: num(row.rcid),
    type: row.type,
    ns: num(row.ns),
    title: str(row.title),
    pageId: num(row.pageid),
    revId: num(row.revid),
    oldRevId: num(row.old_revid),
    timestamp: isoToMw(row.timestamp),
    user: str(row.user),
    userId: num(row.userid),
    comment: str(row.comment),
    minor: row.minor !== undefined && row.minor !== false,
    bot: row.bot !== undefined && row.bot !== false,
    oldLen: num(row.oldlen),
    newLen: num(row.newlen),
  };
  if (row.type === 'log') {
    change.logId = num(row.logid);
    change.logType = str(row.logtype);
    change.logAction = str(row.logaction);
  }
  return change;
}

/** The parameters of a log row or entry, as 1.39 (`params`/`logparams`) or 1.25 (a member named after the type) gives them. */
export function logParamsOf(row: ApiAnswer, type: string): Record<string, unknown> {
  const p = row.logparams ?? row.params ?? row[type];
  const out: Record<string, unknown> = {};
  if (p !== null && typeof p === 'object' && !Array.isArray(p)) Object.assign(out, p);
  // 1.25's move: {"new_ns":0,"new_title":"B","suppressedredirect":""}
  if (out.new_title !== undefined && out.target_title === undefined) {
    out.target_title = out.new_title;
    out.target_ns = out.new_ns;
  }
  if (row.suppressedredirect !== undefined || out.suppressedredirect !== undefined) out.suppressredirect = '';
  return out;
}

export function readLogEvent(row: ApiAnswer): LogEvent {
  if (typeof row !== 'object' || row === null || num(row.logid) <= 0 || typeof row.timestamp !== 'string' || typeof row.type !== 'string') {
    throw new UpstreamError(`a malformed log entry: ${JSON.stringify(row).slice(0, 200)}`);
  }
  return {
    logId: num(row.logid),
    type: row.type,
    action: str(row.action),
    ns: num(row.ns),
    title: str(row.title),
    pageId: num(row.logpage ?? row.pageid),
    user: str(row.user),
    userId: num(row.userid),
    timestamp: isoToMw(row.timestamp),
    comment: str(row.comment),
    params: logParamsOf(row, row.type),
  };
}

function after(ts: string, id: number, pos: { timestamp: string; id: number }): boolean {
  return ts > pos.timestamp || (ts === pos.timestamp && id > pos.id);
}

/**
 * A log row's rc_id is taken when its deferred update runs, after the request has answered: two actions of
 * one second (a deletion and the undeletion right after it) can get their rows in the wrong order. Within a
 * second the log rows keep their places, in the order of their log ids, which are taken in the action.
 */
export function orderLogRows(changes: RecentChangeItem[]): void {
  for (let i = 0; i < changes.length; ) {
    let j = i;
    while (j < changes.length && changes[j].timestamp === changes[i].timestamp) j++;
    const slots: number[] = [];
    for (let k = i; k < j; k++) if (changes[k].logId !== undefined) slots.push(k);
    if (slots.length > 1) {
      const rows = slots.map((k) => changes[k]).sort((a, b) => (a.logId ?? 0) - (b.logId ?? 0));
      slots.forEach((k, n) => (changes[k] = rows[n]));
    }
    i = j;
  }
}

/** The upstream's newest change and log entry: where following starts on a database filled from the API. */
export async function newestPosition(client: UpstreamClient): Promise<UpstreamPosition> {
  const rc = await client.call({ action: 'query', list: 'recentchanges', rcprop: 'ids|timestamp', rcdir: 'older', rclimit: 1 });
  const le = await client.call({ action: 'query', list: 'logevents', leprop: 'ids|timestamp', ledir: 'older', lelimit: 1 });
  const row = rc.query?.recentchanges?.[0];
  const log = le.query?.logevents?.[0];
  return {
    api: client.api,
    timestamp: row ? isoToMw(str(row.timestamp)) : log ? isoToMw(str(log.timestamp)) : '19700101000000',
    rcid: row ? num(row.rcid) : 0,
    logid: log ? num(log.logid) : 0,
  };
}

/**
 * Fails with ChangeGapError when the upstream's oldest recent change is newer than the position and is
 * not the change right after it: the changes between were purged.
 */
export async function checkReach(client: UpstreamClient, position: UpstreamPosition): Promise<void> {
  const rc = await client.call({ action: 'query', list: 'recentchanges', rcprop: 'ids|timestamp', rcdir: 'newer', rclimit: 1 });
  const oldest = rc.query?.recentchanges?.[0];
  if (oldest === undefined) return;
  const ts = isoToMw(str(oldest.timestamp));
  if (ts > position.timestamp && (position.rcid === 0 || num(oldest.rcid) > position.rcid + 1)) throw new ChangeGapError(position, ts);
}

/** A recent change as the database holds it: [id, timestamp, revision id, log id]. */
export type StoredChange = [number, string, number, number];

/**
 * What tells a change row apart: its id alone is not enough, since a database made by `import` (or by the
 * fill from the API, which imports) numbered its recent changes itself, as rebuildrecentchanges.php does,
 * and those ids are the upstream's ids of other changes.
 */
function changeKey(timestamp: string, revId: number, logId: number): string {
  return `${timestamp}|${revId}|${logId}`;
}

/**
 * What the follower applied lately: MediaWiki writes a change's row after its request has answered
 * (a deferred update) with the time the request began, so a row can appear after newer ones were read.
 * Each window reads again from `OVERLAP_SECONDS` before the position and takes the rows and entries of
 * that stretch it has not applied.
 */
export class RecentlyApplied {
  /** rc id → changeKey of the row applied under it */
  readonly changes = new Map<number, string>();
  readonly logs = new Map<number, string>();
  /** false until it knows what was applied of the overlap (then a row of it that it lacks came late) */
  known = false;

  /** what the database holds from the overlap's start on (a restarted follower) */
  seed(stored: { changes: StoredChange[]; logs: Array<[number, string]> }): void {
    for (const [id, ts, revId, logId] of stored.changes) this.changes.set(id, changeKey(ts, revId, logId));
    for (const [id, ts] of stored.logs) this.logs.set(id, ts);
    this.known = true;
  }

  /** whether this upstream row was applied: a row of the database under its id that is the same change */
  has(c: RecentChangeItem): boolean {
    return this.changes.get(c.rcid) === changeKey(c.timestamp, c.revId, c.logId ?? 0);
  }

  add(window: ChangeWindow): void {
    this.known = true;
    for (const c of window.changes) this.changes.set(c.rcid, changeKey(c.timestamp, c.revId, c.logId ?? 0));
    for (const l of window.logs) this.logs.set(l.logId, l.timestamp);
    const oldest = shiftSeconds(window.end.timestamp, -OVERLAP_SECONDS);
    // the key starts with the timestamp (TS_MW, 14 digits)
    for (const [id, key] of this.changes) if (key.slice(0, 14) < oldest) this.changes.delete(id);
    for (const [id, ts] of this.logs) if (ts < oldest) this.logs.delete(id);
  }
}

export const OVERLAP_SECONDS = 30;

/** where a window after `position` starts reading (TS_MW) */
export function overlapStart(position: { timestamp: string }): string {
  return shiftSeconds(position.timestamp, -OVERLAP_SECONDS);
}

export function shiftSeconds(ts: string, seconds: number): string {
  return isoToMw(new Date(Date.parse(mwToIso(ts)) + seconds * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'));
}

/** The changes after `position`, at most `maxChanges` of them (a whole second's changes may exceed it by their count). */
export async function readWindow(
  client: UpstreamClient,
  position: UpstreamPosition,
  maxChanges: number,
  recent: RecentlyApplied = new RecentlyApplied(),
): Promise<ChangeWindow> {
  const changes: RecentChangeItem[] = [];
  const logParams = new Map<number, Record<string, unknown>>();
  let complete = true;
  const overlapFrom = shiftSeconds(position.timestamp, -OVERLAP_SECONDS);
  const start = mwToIso(overlapFrom);
  const from = { timestamp: position.timestamp, id: position.rcid };
  // a row of the overlap the follower has not applied came late: it is new
  const isNew = (c: RecentChangeItem) => after(c.timestamp, c.rcid, from) || (c.timestamp >= overlapFrom && recent.known && !recent.has(c));
  const logQuery = {
    action: 'query',
    list: 'logevents',
    leprop: 'ids|title|type|user|userid|timestamp|comment|details',
    ledir: 'newer',
    lestart: start,
    lelimit: 'max',
  };
  // the log's first answer is asked for at once, beside the recent changes': one round trip less per poll
  const logAnswers = client.continued(logQuery);
  const firstLogAnswer = logAnswers.next();
  // read (and its failure seen) below, or dropped with the window: never an unhandled rejection
  firstLogAnswer.catch(() => {});
  rows: for await (const answer of client.continued({
    action: 'query',
    list: 'recentchanges',
    rcprop: RC_PROPS,
    rcdir: 'newer',
    rcstart: start,
    rclimit: 'max',
  })) {
    const rows = answer.query?.recentchanges;
    if (!Array.isArray(rows)) throw new UpstreamError(`${client.api}: list=recentchanges answered without its list`);
    for (const row of rows) {
      const change = readChange(row);
      if (!isNew(change)) continue;
      if (changes.length >= maxChanges && change.timestamp !== changes[changes.length - 1].timestamp) {
        complete = false;
        break rows;
      }
      changes.push(change);
      if (change.type === 'log') logParams.set(change.rcid, logParamsOf(row, change.logType ?? ''));
    }
  }
  changes.sort((a, b) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.rcid - b.rcid));
  orderLogRows(changes);
  // a late row of the overlap does not move the position back
  const lastRow = changes[changes.length - 1];
  const last = lastRow !== undefined && after(lastRow.timestamp, lastRow.rcid, from) ? lastRow : undefined;
  const endTs = last ? last.timestamp : position.timestamp;

  const readLogs = async (answers: AsyncGenerator<ApiAnswer>, first: Promise<IteratorResult<ApiAnswer>>): Promise<LogEvent[]> => {
    const logs: LogEvent[] = [];
    for (let next = await first; !next.done; next = await answers.next()) {
      const rows = next.value.query?.logevents;
      if (!Array.isArray(rows)) throw new UpstreamError(`${client.api}: list=logevents answered without its list`);
      for (const row of rows) {
        const entry = readLogEvent(row);
        if (entry.logId <= position.logid && !(entry.timestamp >= overlapFrom && recent.known && !recent.logs.has(entry.logId))) continue;
        // a window cut short ends at its last change's second: entries after it come with the next window
        if (!complete && entry.timestamp > endTs) {
          await answers.return(undefined);
          return logs;
        }
        logs.push(entry);
      }
    }
    return logs;
  };
  let logs = await readLogs(logAnswers, firstLogAnswer);
  // the log was read beside the recent changes, so an action between the two reads can have its row but not
  // yet its entry: then the log is read again, after the rows, as it always is then
  const read = new Set(logs.map((l) => l.logId));
  if (changes.some((c) => c.logId !== undefined && c.logId > position.logid && !read.has(c.logId) && !recent.logs.has(c.logId))) {
    const again = client.continued(logQuery);
    logs = await readLogs(again, again.next());
  }
  logs.sort((a, b) => a.logId - b.logId);
  const end: UpstreamPosition = {
    api: position.api,
    // the newest change's second, even when log entries are newer: a change of a second between could
    // still come; the log entries already read are told apart by their ids
    timestamp: endTs,
    rcid: last ? last.rcid : position.rcid,
    logid: logs.length > 0 ? Math.max(position.logid, logs[logs.length - 1].logId) : position.logid,
  };
  return { changes, logParams, logs, end, complete };
}
