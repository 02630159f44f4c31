/**
 * The import writer for a PostgreSQL location: the pipeline writes a local SQLite staging file (the
 * import's working set), which `finish()` publishes into a fresh schema (publish.ts). With `keepStaging`
 * the file is kept there once published, as the local replica the incremental path writes (replica.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { ImportWriter } from '../import-writer.js';
import { openSqliteStagingWriter } from '../sqlite/import/writer.js';
import { publishToPostgres } from './publish.js';
import { REPLICA_SCHEMA_KEY, REPLICA_SEQ_KEY } from './replica.js';

export function openPostgresImportWriter(
  url: string,
  opts: { log: (line: string) => void; stagingDir?: string; keepStaging?: string },
): ImportWriter {
  const keep = opts.keepStaging === undefined ? undefined : path.resolve(opts.keepStaging);
  // a kept file is built next to where it goes: renamed there, never copied
  const dir = keep !== undefined ? path.dirname(keep) : (opts.stagingDir ?? process.env.WIKIQUERY_STAGING_DIR ?? os.tmpdir());
  const staging = path.join(dir, `wikiquery-staging-${process.pid}-${Date.now()}.sqlite`);
  return openSqliteStagingWriter(redact(url), staging, async (file, beforePublish) => {
    const { schema } = await publishToPostgres(file, url, { log: opts.log, beforeSwitch: beforePublish });
    if (keep !== undefined) keepAsReplica(file, keep, schema);
  });
}

/**
 * The published staging file made the replica of `schema`: named so, with the planner's statistics the
 * updater's statements are planned with, then renamed onto `keep` (an older replica is replaced).
 */
function keepAsReplica(file: string, keep: string, schema: string): void {
  const db = new Database(file);
  try {
    const set = db.prepare('INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)');
    set.run(REPLICA_SCHEMA_KEY, schema);
    set.run(REPLICA_SEQ_KEY, '0');
    db.pragma('analysis_limit = 1000');
    db.exec('ANALYZE');
    db.pragma('journal_mode = WAL');
  } finally {
    db.close();
  }
  for (const side of [`${keep}-wal`, `${keep}-shm`, `${keep}-journal`]) fs.rmSync(side, { force: true });
  fs.renameSync(file, keep);
}

/** The location without its password, for messages. */
export function redact(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'postgres://…';
  }
}
