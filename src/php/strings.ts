/**
 * PHP's string functions as MediaWiki's code calls them: trim() with PHP's own blank set, explode()
 * with a limit, array_slice() and md5().
 */
import { createHash } from 'node:crypto';

/** PHP trim(): only " \t\n\r\0\x0B", not Unicode spaces. */
export function phpTrim(s: string): string {
  let a = 0;
  let b = s.length;
  while (a < b && isPhpBlank(s.charCodeAt(a))) a++;
  while (b > a && isPhpBlank(s.charCodeAt(b - 1))) b--;
  return a === 0 && b === s.length ? s : s.slice(a, b);
}

function isPhpBlank(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13 || c === 0 || c === 11;
}

/** PHP strlen() of a string as UTF-8: its length in bytes. */
export function utf8Length(s: string): number {
  if (s.length > 256) return Buffer.byteLength(s, 'utf8');
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // a surrogate pair counts 4: 2 for each half
    n += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 2 : 3;
  }
  return n;
}

/** PHP explode() with a positive limit: the last piece keeps the rest, separators included. */
export function phpExplodeLimit(s: string, sep: string, limit: number): string[] {
  const bits = s.split(sep);
  if (bits.length <= limit) return bits;
  return [...bits.slice(0, limit - 1), bits.slice(limit - 1).join(sep)];
}

/** PHP array_slice() (negative offset and length count from the end). */
export function phpArraySlice<T>(arr: readonly T[], offset: number, length?: number): T[] {
  const n = arr.length;
  let start = offset < 0 ? Math.max(n + offset, 0) : Math.min(offset, n);
  let end = length === undefined ? n : length < 0 ? n + length : start + length;
  end = Math.min(Math.max(end, start), n);
  start = Math.min(start, n);
  return arr.slice(start, end);
}

/** PHP md5() of a string: of its UTF-8 bytes, in lower-case hex. */
export function md5(s: string): string {
  return createHash('md5').update(s, 'utf8').digest('hex');
}

/** PHP's nl2br: <br /> before each line end (\r\n, \n\r, \n or \r) */
export function nl2br(s: string): string {
  return s.replace(/\r\n|\n\r|\n|\r/g, (m) => `<br />${m}`);
}
