/**
 * Matching for autocompletion: a value matches a typed substring when the value, or one of its words
 * (after a space or an underscore), starts with it — compared case-insensitively for all of Unicode,
 * with the apostrophes ' ’ ʼ as one character and the underscore as a space.
 *
 * The word-prefix index stores, per value, the folded text from each word start ("word keys"), cut to
 * KEY_CHARS characters so that a long text costs a bounded number of bytes per word.
 */
import { foldForMatch } from '../wiki/language.js';

/** Characters (code points) kept of each word key. Queries longer than this are checked on the value. */
export const KEY_CHARS = 64;

/** The folded form: NFC, Unicode lowercase, one apostrophe, '_' as ' ', final sigma as sigma. */
export function fold(s: string): string {
  return foldForMatch(s.normalize('NFC')).replace(/_/g, ' ').replace(/ς/g, 'σ');
}

/** The first `n` code points of `s`. */
export function cutChars(s: string, n: number): string {
  if (s.length <= n) return s;
  let i = 0;
  let count = 0;
  while (i < s.length && count < n) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
    count++;
  }
  return s.slice(0, i);
}

/** The folded word keys of a value: from its start and after every space/underscore, each once. */
export function wordKeys(value: string): string[] {
  const f = fold(value);
  const keys = new Set<string>();
  for (let i = 0; i < f.length; i++) {
    if ((i === 0 || f.charCodeAt(i - 1) === 32) && f.charCodeAt(i) !== 32) keys.add(cutChars(f.slice(i, i + 2 * KEY_CHARS), KEY_CHARS));
  }
  return [...keys];
}

/** Does the value (or one of its words) start with the already folded query? */
export function matchesFolded(value: string, foldedQuery: string): boolean {
  const f = fold(value);
  if (f.startsWith(foldedQuery)) return true;
  let i = f.indexOf(' ');
  while (i >= 0) {
    if (f.startsWith(foldedQuery, i + 1)) return true;
    i = f.indexOf(' ', i + 1);
  }
  return false;
}
