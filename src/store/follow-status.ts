/**
 * The follower's status (`wikiquery follow`), kept in the database's meta table so that every `serve`
 * on the database -- any number of processes or nodes -- reports the same upstream, position, lag and
 * counts in /health and /metrics and answers `maxlag` from it. The follower writes it after each batch
 * and, while nothing changes upstream, every `heartbeatSeconds`: a status older than twice that says the
 * follower has stopped, and the lag grows with its age.
 */
export const FOLLOW_STATUS_KEY = 'follow_status';

export interface FollowStatusRecord {
  /** the upstream's api.php */
  upstream: string;
  /** TS_MW of the newest change applied, its rc_id and the newest log id */
  position: { timestamp: string; rcid: number; logid: number };
  /** seconds behind the upstream when the status was written */
  lagSeconds: number;
  /** when the status was written, ISO 8601 */
  checkedAt: string;
  /** the longest the follower waits between two writes of its status */
  heartbeatSeconds: number;
  changesApplied: number;
  batchesApplied: number;
  errors: number;
  /** pages waiting to be re-analysed (refreshLinks) */
  backlog: number;
  /** changes the query-page reports do not show yet (absent: a follower that did not say) */
  reportsPending?: boolean;
  lastError: string;
}

/** The status of a meta value, or null when it is absent or unreadable. */
export function parseFollowStatus(value: string | undefined): FollowStatusRecord | null {
  if (value === undefined) return null;
  try {
    const v = JSON.parse(value) as FollowStatusRecord;
    return typeof v.upstream === 'string' && typeof v.checkedAt === 'string' && typeof v.position === 'object' ? v : null;
  } catch {
    return null;
  }
}

/** The lag a server reports now: the status's, plus its age once the follower has missed two heartbeats. */
export function currentLag(status: FollowStatusRecord, now: number): number {
  const age = (now - Date.parse(status.checkedAt)) / 1000;
  const stale = age > 2 * status.heartbeatSeconds;
  return Math.max(0, Math.floor(status.lagSeconds + (stale ? age : 0)));
}

export interface FollowStatusWriter {
  write(status: FollowStatusRecord): Promise<void>;
  close(): void;
}
