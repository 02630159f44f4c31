import type Database from 'better-sqlite3';

/**
 * What a copy of the file elsewhere is told of each batch (a PostgreSQL database the file is the local
 * replica of: src/store/postgres/replica.ts): it records the batch's changes on the writer's connection,
 * inside the batch's transaction, and copies them once the batch has committed.
 */
export interface ChangeCapture {
  /** the writer's connection, opened: the capture's tables and triggers are made on it */
  attach(db: Database.Database): void;
  /** a page's row of the search index (its FTS5 column values) added, or removed (`added` false) */
  searchRow(page: number, columns: readonly string[], added: boolean): void;
  /** before a batch's transaction opens: what an earlier batch left uncopied is copied first */
  beforeBegin(): Promise<void>;
  /** the batch's last write, in its transaction */
  beforeCommit(): void;
  /** after the batch has committed: its changes copied */
  afterCommit(): Promise<void>;
  close(): void;
}
