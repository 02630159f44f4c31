import type { Db } from './db.js';
import type { ReportStore } from '../report-store.js';

export class SqliteReportStore implements ReportStore {
  constructor(private readonly db: Db) {}
}
