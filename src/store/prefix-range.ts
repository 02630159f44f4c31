/** Upper bound (exclusive) of the binary range of strings that start with `prefix` (both stores order titles by bytes). */
export function prefixEnd(prefix: string): string {
  return prefix + '\u{10FFFF}';
}
