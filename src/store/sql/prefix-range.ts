/** Upper bound (exclusive) of the binary range of strings that start with `prefix` (both stores order titles by bytes). */
export function prefixEnd(prefix: string): string {
  return prefix + '\u{10FFFF}';
}

/**
 * A list's from / to / prefix bounds on a title column as conditions on `where`, their values on `v`
 * (`@from`, `@to`, `@prefix`, `@prefixEnd`); `ge`/`le` are swapped by lists that walk backwards and
 * compare from and to in their own direction. An empty prefix bounds nothing.
 */
export function titleBounds(
  col: string,
  o: { from?: string; to?: string; prefix?: string },
  where: string[],
  v: Record<string, unknown>,
  ge = '>=',
  le = '<=',
): void {
  if (o.from !== undefined) {
    where.push(`${col} ${ge} @from`);
    v.from = o.from;
  }
  if (o.to !== undefined) {
    where.push(`${col} ${le} @to`);
    v.to = o.to;
  }
  if (o.prefix !== undefined && o.prefix !== '') {
    where.push(`${col} >= @prefix AND ${col} < @prefixEnd`);
    v.prefix = o.prefix;
    v.prefixEnd = prefixEnd(o.prefix);
  }
}
