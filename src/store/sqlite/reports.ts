import type { Db, Statement } from './db.js';
import type { ReportRow, ReportStore } from '../report-store.js';
import { StatementCache, jsonRowsSql } from './statement-cache.js';

const ROWS = jsonRowsSql(['qc_value', 'qc_namespace', 'qc_title', 'qc_extra'], 'FROM querycache WHERE qc_type = @type AND qc_seq >= @offset ORDER BY qc_seq LIMIT @limit');

export class SqliteReportStore implements ReportStore {
  // the limit written into the statement (a bound LIMIT made SQLite compile the statement again on every call)
  private readonly page: StatementCache;
  private readonly info: Statement<[string], string>;

  constructor(private readonly db: Db) {
    this.page = new StatementCache(db, 'ReportStore.rows');
    this.info = db.prepare('ReportStore.computedAt', 'SELECT qci_timestamp FROM querycache_info WHERE qci_type = ?', true);
  }

  async rows(type: string, offset: number, limit: number): Promise<ReportRow[]> {
    const rows = this.page.jsonRowsOf(ROWS, { type, offset, limit });
    const out: ReportRow[] = [];
    for (const r of rows) {
      const extra = r[3] as string | null;
      out.push({ value: r[0] as string, ns: r[1] as number, title: r[2] as string, extra: extra === null ? null : (JSON.parse(extra) as Record<string, string | null>) });
    }
    return out;
  }

  async computedAt(type: string): Promise<string | undefined> {
    return this.info.get(type);
  }
}
