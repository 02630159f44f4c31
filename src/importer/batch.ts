/**
 * The import's unit of writing: a batch of the writer (one transaction in SQLite) that is committed
 * when `fn` returns (or its promise resolves) and rolled back when it throws, so that nothing half
 * written stays in a batch after a failure.
 */
import type { ImportWriter } from '../store/import-writer.js';

export function inBatch<T>(w: Pick<ImportWriter, 'begin' | 'commit' | 'rollback'>, fn: () => T): T {
  w.begin();
  let r: T;
  try {
    r = fn();
  } catch (e) {
    w.rollback();
    throw e;
  }
  if (r instanceof Promise) {
    return r.then(
      (v: unknown) => {
        w.commit();
        return v;
      },
      (e: unknown) => {
        w.rollback();
        throw e;
      },
    ) as T;
  }
  w.commit();
  return r;
}
