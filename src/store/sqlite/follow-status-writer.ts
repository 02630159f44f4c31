/** The follower's status written into an SQLite database's meta table (src/store/follow-status.ts). */
import Database from 'better-sqlite3';
import { FOLLOW_STATUS_KEY, type FollowStatusWriter } from '../follow-status.js';

export function openSqliteFollowStatusWriter(file: string): FollowStatusWriter {
  const conn = new Database(file, { fileMustExist: true });
  // a write waits for the follower's own batch or a reader's checkpoint rather than failing
  conn.pragma('busy_timeout = 10000');
  const upsert = conn.prepare('INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  return {
    async write(status) {
      upsert.run(FOLLOW_STATUS_KEY, JSON.stringify(status));
    },
    close: () => conn.close(),
  };
}
