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

/**
 * For the statements SQLite caches by shape (a number whose bits say which clauses it has): binds `value`
 * as `@name` on `v` when it is given and answers `bit`, else 0.
 */
export function boundBit(v: Record<string, unknown>, name: string, value: unknown, bit: number): number {
  if (value === undefined) return 0;
  v[name] = value;
  return bit;
}

/**
 * titleBounds for the statements cached by shape: binds from / to / prefix on `v` and answers their bits,
 * `bit` for from, `bit * 2` for to, `bit * 4` for a prefix; titleBoundsWhere writes the clauses of those bits.
 */
export function titleBoundsBits(o: { from?: string; to?: string; prefix?: string }, v: Record<string, unknown>, bit: number): number {
  let shape = boundBit(v, 'from', o.from, bit) | boundBit(v, 'to', o.to, bit * 2);
  if (o.prefix !== undefined && o.prefix !== '') {
    shape |= bit * 4;
    v.prefix = o.prefix;
    v.prefixEnd = prefixEnd(o.prefix);
  }
  return shape;
}

/** the conditions on `col` of titleBoundsBits' bits in `shape` (`ge`/`le` as for titleBounds) */
export function titleBoundsWhere(col: string, shape: number, bit: number, where: string[], ge = '>=', le = '<='): void {
  if (shape & bit) where.push(`${col} ${ge} @from`);
  if (shape & (bit * 2)) where.push(`${col} ${le} @to`);
  if (shape & (bit * 4)) where.push(`${col} >= @prefix AND ${col} < @prefixEnd`);
}

/** `clause` on `where` and `value` bound on `v` as `@name`, when `value` is given */
export function whereBound(where: string[], v: Record<string, unknown>, clause: string, name: string, value: unknown): void {
  if (value === undefined) return;
  where.push(clause);
  v[name] = value;
}
