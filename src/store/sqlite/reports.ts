import type { Db, Statement } from './db.js';
import type { ReportRow, ReportStore } from '../report-store.js';
import { StatementCache, jsonColumnsSql } from './statement-cache.js';

const ROWS = jsonColumnsSql(
  ['qc_value', 'qc_namespace', 'qc_title', 'qc_extra'],
  'FROM querycache WHERE qc_type = @type AND qc_seq >= @offset ORDER BY qc_seq LIMIT @limit',
);

export class SqliteReportStore implements ReportStore {
  // the limit written into the statement (a bound LIMIT made SQLite compile the statement again on every call)
  private readonly page: StatementCache;
  private readonly info: Statement<[string], string>;

  constructor(readonly db: Db) {
    this.page = new StatementCache(db, 'ReportStore.rows');
    this.info = db.prepare('ReportStore.computedAt', 'SELECT qci_timestamp FROM querycache_info WHERE qci_type = ?', true);
  }

  async rows(type: string, offset: number, limit: number): Promise<ReportRow[]> {
    const [values, namespaces, titles, extras] = this.page.jsonRowsOf(ROWS, { type, offset, limit }) as [
      string[],
      number[],
      string[],
      Array<string | null>,
    ];
    const out: ReportRow[] = [];
    for (let i = 0; i < values.length; i++) {
      const extra = extras[i]!;
      out.push({
        value: values[i]!,
        ns: namespaces[i]!,
        title: titles[i]!,
        extra: extra === null ? null : (JSON.parse(extra) as Record<string, string | null>),
      });
    }
    return out;
  }

  async computedAt(type: string): Promise<string | undefined> {
    return this.info.get(type);
  }
}
