/** What the two message stores write alike. */
import type { KeyRange } from '../message-store.js';

/**
 * The conditions of a key range on a key column, each ` AND `-prefixed (only the bounds given: each is
 * an index range bound); `param` writes a bound's parameter (SQLite binds them by position).
 */
export function keyRangeConditions(range: KeyRange, param: (bound: 'min' | 'below' | 'max') => string): (col: string) => string {
  return (col) => {
    const c: string[] = [];
    if (range.min !== undefined) c.push(`${col} >= ${param('min')}`);
    if (range.below !== undefined) c.push(`${col} < ${param('below')}`);
    if (range.max !== undefined) c.push(`${col} <= ${param('max')}`);
    return c.map((x) => ' AND ' + x).join('');
  };
}
