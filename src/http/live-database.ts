/**
 * A database changed in place while it is served (`follow` or `import --update` writing to it): before
 * the requests of each turn of the event loop the store's change counter is read (SQLite: one step of a
 * prepared PRAGMA data_version, on files in WAL mode, the ones written in place).
 * When another process has committed since, the response cache is emptied at once -- no answer computed
 * before the change is given after it -- and the database is reopened as a new generation, so the facts a
 * store reads once when it opens (the statistics, the site's facts) are read again; changes that come
 * while it reopens are caught up with one more reopening. The follower's status (src/store/follow-status.ts)
 * is read again at each change: it gives /health, /metrics and `maxlag` the upstream's lag.
 */
import { currentLag, FOLLOW_STATUS_KEY, parseFollowStatus, type FollowStatusRecord } from '../store/follow-status.js';
import type { Generation, Generations } from './generations.js';
import type { ResponseCache } from './response-cache.js';

export class LiveDatabase {
  private generation: Generation<unknown>;
  private seen: number | null;
  private reopening = false;
  private again = false;
  private pending: Promise<void> | null = null;
  private checkedThisTurn = false;
  private readonly nextTurn = () => {
    this.checkedThisTurn = false;
  };
  private resolvePending: (() => void) | null = null;
  private followStatus: FollowStatusRecord | null = null;
  /** reopenings after a change, and those that failed */
  reopened = 0;
  failed = 0;

  constructor(
    private readonly generations: Generations<unknown>,
    private readonly cache: ResponseCache,
    /** opens the database again as the next generation (Reloads.reload); without it only the cache is emptied */
    private readonly reopen: (() => Promise<unknown>) | undefined,
    private readonly warn: (message: string) => void,
  ) {
    this.generation = generations.current;
    this.seen = this.generation.store.changeCounter();
  }

  /** Start: the follower's status as the database holds it now. */
  async start(): Promise<void> {
    await this.readStatus();
  }

  /**
   * Before each request: has another process committed since the last look? True while the database is
   * being reopened after a change: the request then waits for `settled()` and its answer is not kept.
   */
  check(): boolean {
    // once per turn of the event loop: the answers of one turn were asked for together (a statement on a
    // file in WAL mode costs a read transaction's start, more than a cached answer's whole path)
    if (this.checkedThisTurn) return this.reopening;
    this.checkedThisTurn = true;
    setImmediate(this.nextTurn);
    const current = this.generations.current;
    if (current !== this.generation) {
      // a reopened database counts from its own opening: a commit since then is a change to catch up with
      this.generation = current;
      this.seen = this.seen === null ? null : 0;
    }
    if (this.seen === null) return false;
    const now = current.store.changeCounter();
    if (now !== this.seen) {
      this.seen = now;
      this.cache.clear();
      this.changed();
    }
    return this.reopening;
  }

  get reopeningNow(): boolean {
    return this.reopening;
  }

  /** Resolves once the reopening after the changes seen so far is done. */
  settled(): Promise<void> {
    return this.pending ?? Promise.resolve();
  }

  /** For readers outside the API (/health, /metrics): the status after the changes committed so far. */
  async refresh(): Promise<void> {
    if (this.check()) await this.settled();
  }

  /** the upstream's lag in seconds as the follower last reported it (0 without a follower) */
  lagSeconds(now = Date.now()): number {
    return this.followStatus === null ? 0 : currentLag(this.followStatus, now);
  }

  status(): FollowStatusRecord | null {
    return this.followStatus;
  }

  private changed(): void {
    if (this.reopening) {
      this.again = true;
      return;
    }
    this.reopening = true;
    if (this.pending === null) this.pending = new Promise<void>((resolve) => (this.resolvePending = resolve));
    const reopened = this.reopen === undefined ? Promise.resolve() : this.reopen();
    reopened
      .then(
        () => {
          if (this.reopen !== undefined) this.reopened++;
        },
        (e: unknown) => {
          this.failed++;
          this.warn(`the database changed but could not be reopened: ${(e as Error).message}`);
        },
      )
      .then(() => this.readStatus())
      .finally(() => {
        this.reopening = false;
        if (this.again) {
          this.again = false;
          this.changed();
          return;
        }
        this.resolvePending?.();
        this.pending = null;
        this.resolvePending = null;
      });
  }

  private async readStatus(): Promise<void> {
    try {
      this.followStatus = parseFollowStatus(await this.generations.current.store.liveMeta(FOLLOW_STATUS_KEY));
    } catch (e) {
      this.warn(`the follower's status could not be read: ${(e as Error).message}`);
    }
  }
}
