/**
 * Query-page reports (querycache): placeholder until the reports are written. The importer calls
 * buildReports() on the finished tables, just before ANALYZE.
 */
import type Database from 'better-sqlite3';
import type { TitleCodec } from '../wiki/titles.js';

export function buildReports(_db: Database.Database, _ctx: { codec: TitleCodec; lang: string }): void {
  // filled in by the query-pages work
}
