/**
 * Notices a re-import into PostgreSQL: polls the served pointer (one indexed one-row read per
 * interval) and calls back when it names another schema than the one seen before. And notices the
 * batches the incremental path copies into the served schema (replica.ts announces each one).
 */
import { connect } from './db.js';
import { servedImport } from './catalog.js';

/** the channel a batch copied into a schema is announced on (payload: the schema; replica.ts) */
export const CHANGE_CHANNEL = 'wikiquery_change';

/** What a serving node knows of the batches written into its schema since it opened. */
export interface ChangeListener {
  /** batches announced so far (a reconnection counts as one: announcements may have been missed meanwhile) */
  readonly count: number;
  /** resolves once the count is past `count`, or after `ms` */
  past(count: number, ms: number): Promise<void>;
  close(): void;
}

/**
 * LISTENs on the primary for the batches copied into `schema`: the count is a number in memory, read by
 * the server before each turn's requests (src/http/live-database.ts) at no cost. A batch is announced by
 * the transaction that writes it, so the count moves as soon as PostgreSQL delivers the commit's notice.
 */
export async function listenForChanges(url: string, schema: string): Promise<ChangeListener> {
  const sql = connect(url, { max: 1 });
  let listening = false;
  let waiting: Array<{ count: number; resolve: () => void }> = [];
  const wake = () => {
    waiting = waiting.filter((w) => (w.count < state.count ? (w.resolve(), false) : true));
  };
  const state = {
    count: 0,
    past: (count: number, ms: number) =>
      state.count > count
        ? Promise.resolve()
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, ms);
            waiting.push({
              count,
              resolve: () => {
                clearTimeout(timer);
                resolve();
              },
            });
          }),
    close: () => void sql.end({ timeout: 1 }),
  };
  try {
    await sql.listen(
      CHANGE_CHANNEL,
      (payload) => {
        if (payload === schema) state.count++;
        wake();
      },
      () => {
        if (listening) state.count++;
        listening = true;
        wake();
      },
    );
  } catch (e) {
    state.close();
    throw e;
  }
  return state;
}

export function watchServedImport(url: string, intervalMs: number, onReplaced: () => Promise<unknown>): { close(): void } {
  const sql = connect(url, { max: 1, idle_timeout: 30 });
  let seen: string | null | undefined;
  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const now = (await servedImport(sql))?.schema ?? null;
      // `seen` moves on only once the server has switched: a failed reopen (a lagging replica) is tried again
      if (seen !== undefined && now !== null && now !== seen) await onReplaced();
      seen = now;
    } catch {
      // the database is unreachable for now: keep serving, look again at the next tick
    } finally {
      busy = false;
    }
  };
  void tick();
  const timer = setInterval(() => void tick(), intervalMs);
  timer.unref();
  return {
    close: () => {
      clearInterval(timer);
      void sql.end({ timeout: 1 });
    },
  };
}
