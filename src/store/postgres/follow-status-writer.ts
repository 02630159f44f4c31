/**
 * The follower's status written into the served schema's meta table (src/store/follow-status.ts), and
 * announced as a batch is (replica.ts): the serving nodes read it again at once.
 */
import { FOLLOW_STATUS_KEY, type FollowStatusWriter } from '../follow-status.js';
import { connect, quoteSchema } from './db.js';
import { servedImport } from './catalog.js';
import { CHANGE_CHANNEL, type ChangeListener, listenForChanges } from './watch.js';

export function openPostgresFollowStatusWriter(url: string): FollowStatusWriter {
  const sql = connect(url, { max: 1 });
  let echo: { schema: string; listener: ChangeListener } | null = null;
  return {
    async write(status) {
      const served = await servedImport(sql);
      if (served === null) return;
      if (echo?.schema !== served.schema) {
        echo?.listener.close();
        echo = { schema: served.schema, listener: await listenForChanges(url, served.schema) };
      }
      const heard = echo.listener.count;
      await sql.begin(async (tx) => {
        await tx.unsafe(
          `INSERT INTO ${quoteSchema(served.schema)}.meta (key, value) VALUES ($1, $2)
           ON CONFLICT (key) DO UPDATE SET value = excluded.value`,
          [FOLLOW_STATUS_KEY, JSON.stringify(status)],
        );
        await tx.unsafe('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, served.schema]);
      });
      // as a batch does (replica.ts): back from PostgreSQL, the notice has gone to the serving nodes too
      await echo.listener.past(heard, 2000);
    },
    close: () => {
      echo?.listener.close();
      void sql.end({ timeout: 5 });
    },
  };
}
