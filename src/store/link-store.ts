/** Link data of the wiki, as the API modules need it. */
export interface LinkStore {
  /**
   * list=allfileusages: at most `limit` rows of imagelinks in (target, from) order, red links included.
   * `from`/`to` bound the target regardless of direction (MediaWiki does not swap them).
   */
  fileUsages(opts: FileUsageOptions & { continueAt?: { target: string; from: number } }): FileUsageRow[];
  /** list=allfileusages&afunique: at most `limit` distinct targets (file DB keys) in order */
  fileUsageTargets(opts: FileUsageOptions & { continueAt?: string }): string[];
}

/** One image link: page `from` uses the file `target` (DB key, no prefix). */
export interface FileUsageRow {
  target: string;
  from: number;
}

export interface FileUsageOptions {
  from?: string;
  to?: string;
  prefix?: string;
  descending: boolean;
  limit: number;
}
