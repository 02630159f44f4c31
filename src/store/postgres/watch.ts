/**
 * Notices a re-import into PostgreSQL: polls the served pointer (one indexed one-row read per
 * interval) and calls back when it names another schema than the one seen before.
 */
import { connect } from './db.js';
import { servedImport } from './catalog.js';

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
