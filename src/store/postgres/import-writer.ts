/**
 * The import writer for a PostgreSQL location: the pipeline writes a local SQLite staging file (the
 * import's working set), which `finish()` publishes into a fresh schema (publish.ts).
 */
import os from 'node:os';
import path from 'node:path';
import type { ImportWriter } from '../import-writer.js';
import { openSqliteStagingWriter } from '../sqlite/import/writer.js';
import { publishToPostgres } from './publish.js';

export function openPostgresImportWriter(url: string, opts: { log: (line: string) => void; stagingDir?: string }): ImportWriter {
  const dir = opts.stagingDir ?? process.env.WIKIQUERY_STAGING_DIR ?? os.tmpdir();
  const staging = path.join(dir, `wikiquery-staging-${process.pid}-${Date.now()}.sqlite`);
  return openSqliteStagingWriter(redact(url), staging, async (file, beforePublish) => {
    await publishToPostgres(file, url, { log: opts.log, beforeSwitch: beforePublish });
  });
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
