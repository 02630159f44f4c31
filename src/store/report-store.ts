/** Report data of the wiki, as the API modules need it: the precomputed special-page reports. */

/** One row of a query-page report (MediaWiki's querycache), in result order. */
export interface ReportRow {
  /** the report's value column as MediaWiki's database returned it (a string) */
  value: string;
  ns: number;
  /** DB key */
  title: string;
  /** the extra columns of the report's query (ApiQueryQueryPage's databaseResult), in column order; null when none */
  extra: Record<string, string | null> | null;
}

export interface ReportStore {
  /**
   * Rows of one report from position `offset` (0-based), at most `limit` of them: a range scan of
   * querycache's primary key (qc_type, qc_seq).
   */
  rows(type: string, offset: number, limit: number): Promise<ReportRow[]>;
  /** when the report was computed (TS_MW), or undefined when it was not */
  computedAt(type: string): Promise<string | undefined>;
}
