/**
 * PHP 5's comparisons of two strings: loose `==` and `>` (numerically when both are numeric strings)
 * and strnatcmp(), natsort's natural order.
 */
import { compareBytes } from '../wiki/collation.js';
import { isNumericString } from './numbers.js';

/** PHP's loose == between two strings: numeric strings compare as numbers. */
export function phpLooseEquals(a: string, b: string): boolean {
  if (a === b) return true;
  return isNumericString(a) && isNumericString(b) && Number(a) === Number(b);
}

/** PHP's $a > $b for two strings: numerically when both are numeric, else byte-wise. */
export function phpLooseGreater(a: string, b: string): boolean {
  if (isNumericString(a) && isNumericString(b)) return Number(a) > Number(b);
  return compareBytes(a, b) > 0;
}

/** PHP's strnatcmp (natural order, byte-wise, case-sensitive), as natsort uses it. */
export function strnatcmp(x: string, y: string): number {
  const a = Buffer.from(x, 'utf8');
  const b = Buffer.from(y, 'utf8');
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length > b.length ? 1 : -1;
  const at = (buf: Buffer, i: number) => (i < buf.length ? buf[i] : 0);
  const digit = (c: number) => c >= 0x30 && c <= 0x39;
  const space = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
  let ai = 0;
  let bi = 0;
  let leading = true;
  for (;;) {
    let ca = at(a, ai);
    let cb = at(b, bi);
    // leading zeros of the strings are skipped
    while (leading && ca === 0x30 && ai + 1 < a.length && digit(a[ai + 1])) ca = at(a, ++ai);
    while (leading && cb === 0x30 && bi + 1 < b.length && digit(b[bi + 1])) cb = at(b, ++bi);
    leading = false;
    while (space(ca)) ca = at(a, ++ai);
    while (space(cb)) cb = at(b, ++bi);
    if (digit(ca) && digit(cb)) {
      // a run starting with 0 compares left-aligned (a fraction), others by magnitude
      const fractional = ca === 0x30 || cb === 0x30;
      let result = 0;
      for (; ; ai++, bi++) {
        const da = ai < a.length && digit(a[ai]);
        const db = bi < b.length && digit(b[bi]);
        if (!da && !db) break;
        if (!da) {
          result = -1;
          break;
        }
        if (!db) {
          result = 1;
          break;
        }
        if (a[ai] !== b[bi]) {
          if (fractional) {
            result = a[ai] < b[bi] ? -1 : 1;
            break;
          }
          if (result === 0) result = a[ai] < b[bi] ? -1 : 1;
        }
      }
      if (result !== 0) return result;
      if (ai === a.length && bi === b.length) return 0;
      if (ai === a.length) return -1;
      if (bi === b.length) return 1;
      ca = a[ai];
      cb = b[bi];
    }
    if (ca < cb) return -1;
    if (ca > cb) return 1;
    ai++;
    bi++;
    if (ai >= a.length && bi >= b.length) return 0;
    if (ai >= a.length) return -1;
    if (bi >= b.length) return 1;
  }
}
