import type { PgDb } from './db.js';
import type { ReportRow, ReportStore } from '../report-store.js';

export class PostgresReportStore implements ReportStore {
  constructor(private readonly db: PgDb) {}

  /** a range scan of querycache's primary key (qc_type, qc_seq) */
  async rows(type: string, offset: number, limit: number): Promise<ReportRow[]> {
    const rows = await this.db.all<{ qc_value: string; qc_namespace: number; qc_title: string; qc_extra: string | null }>(
      'ReportStore.rows',
      'SELECT qc_value, qc_namespace, qc_title, qc_extra FROM querycache WHERE qc_type = $1 AND qc_seq >= $2 ORDER BY qc_seq LIMIT $3',
      [type, offset, limit],
    );
    return rows.map((r) => ({
      value: r.qc_value,
      ns: r.qc_namespace,
      title: r.qc_title,
      extra: r.qc_extra === null ? null : (JSON.parse(r.qc_extra) as Record<string, string | null>),
    }));
  }

  async computedAt(type: string): Promise<string | undefined> {
    return this.db.value<string>('ReportStore.computedAt', 'SELECT qci_timestamp FROM querycache_info WHERE qci_type = $1', [type]);
  }
}
