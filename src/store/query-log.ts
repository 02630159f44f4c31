/**
 * The debug query log, backend-neutral: while a request runs inside `queryLog.run(entries, …)` (the API
 * core does so with --debug), every store backend appends one entry per database statement it executes.
 * The core reads the entries for `debuginfo` without knowing which database answered.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface QueryLogEntry {
  /** the statement as the backend sent it, whitespace collapsed */
  sql: string;
  /** the store method that issued it, e.g. 'PageStore.byTitles' */
  function: string;
  /** seconds */
  time: number;
}

export const queryLog = new AsyncLocalStorage<QueryLogEntry[]>();
