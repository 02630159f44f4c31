import type { Db, Statement } from './db.js';
import type { ReportRow, ReportStore } from '../report-store.js';

interface QcRow {
  qc_value: string;
  qc_namespace: number;
  qc_title: string;
  qc_extra: string | null;
}

export class SqliteReportStore implements ReportStore {
  private readonly page: Statement<[string, number, number], QcRow>;
  private readonly info: Statement<[string], string>;

  constructor(private readonly db: Db) {
    this.page = db.prepare(
      'ReportStore.rows',
      'SELECT qc_value, qc_namespace, qc_title, qc_extra FROM querycache WHERE qc_type = ? AND qc_seq >= ? ORDER BY qc_seq LIMIT ?',
    );
    this.info = db.prepare('ReportStore.computedAt', 'SELECT qci_timestamp FROM querycache_info WHERE qci_type = ?', true);
  }

  async rows(type: string, offset: number, limit: number): Promise<ReportRow[]> {
    return this.page.all(type, offset, limit).map((r) => ({
      value: r.qc_value,
      ns: r.qc_namespace,
      title: r.qc_title,
      extra: r.qc_extra === null ? null : (JSON.parse(r.qc_extra) as Record<string, string | null>),
    }));
  }

  async computedAt(type: string): Promise<string | undefined> {
    return this.info.get(type);
  }
}
