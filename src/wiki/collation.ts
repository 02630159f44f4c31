/**
 * MediaWiki's binary collation: titles, sort keys and message keys compare as their UTF-8 bytes (SQLite's
 * BINARY, MySQL's varbinary). JavaScript's `<` compares UTF-16 code units, which orders characters above
 * U+FFFF before U+E000–U+FFFF, so every ordering decision in JS goes through this.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  // Outside the surrogates, UTF-16 units order as the UTF-8 bytes of their code points do: compare units
  // up to the first difference, without encoding (two Buffers per comparison were most of a sort's time).
  // A surrogate there is decided by the bytes, as Buffer.from encodes it (a lone one as U+FFFD).
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  // a prefix encodes to a prefix of the bytes, or ends in a lone high surrogate (EF BF BD) where the other
  // has a pair (F0 …): shorter first either way
  if (i === n) return a.length < b.length ? -1 : 1;
  const x = a.charCodeAt(i);
  const y = b.charCodeAt(i);
  if ((x < 0xd800 || x > 0xdfff) && (y < 0xd800 || y > 0xdfff)) return x < y ? -1 : 1;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
