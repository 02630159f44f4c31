/**
 * MediaWiki's binary collation: titles, sort keys and message keys compare as their UTF-8 bytes (SQLite's
 * BINARY, MySQL's varbinary). JavaScript's `<` compares UTF-16 code units, which orders characters above
 * U+FFFF before U+E000–U+FFFF, so every ordering decision in JS goes through this.
 */
export function compareBytes(a: string, b: string): number {
  if (a === b) return 0;
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
