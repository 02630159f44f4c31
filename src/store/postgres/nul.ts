/**
 * PostgreSQL's text cannot hold NUL; SQLite's can, and a request may carry one to the store (allmessages'
 * names and key bounds, a hex sort key, a crafted continue value). No stored text has a NUL (XML 1.0 and
 * the importer exclude it), so each such value is rewritten to a NUL-free one selecting the same rows.
 * For s = p + '\0' + rest, in byte order: x = s never holds; x >= s and x > s both mean x > p, that is
 * x >= p + '\x01'; x <= s and x < s both mean x <= p, that is x < p + '\x01'.
 */

function cut(s: string): number {
  return s.indexOf('\0');
}

/** a bound used with >= or < */
export function geLt(s: string): string;
export function geLt(s: string | undefined): string | undefined;
export function geLt(s: string | undefined): string | undefined {
  if (s === undefined) return s;
  const i = cut(s);
  return i < 0 ? s : s.slice(0, i) + '\x01';
}

/** a bound used with <= or > */
export function leGt(s: string): string;
export function leGt(s: string | undefined): string | undefined;
export function leGt(s: string | undefined): string | undefined {
  if (s === undefined) return s;
  const i = cut(s);
  return i < 0 ? s : s.slice(0, i);
}

/**
 * The start of a (text, id) row comparison: with a NUL no row equals the text, so the id no longer
 * matters and the text bound is rewritten as above.
 */
export function rowStart(text: string, id: number, descending: boolean): [string, number] {
  if (cut(text) < 0) return [text, id];
  return descending ? [leGt(text), Number.MAX_SAFE_INTEGER] : [geLt(text), Number.MIN_SAFE_INTEGER];
}

/** a value compared for equality: with a NUL it matches nothing */
export function matchesNothing(s: string | undefined): boolean {
  return s !== undefined && cut(s) >= 0;
}

/** a batch compared for equality, without the values that match nothing */
export function equalityBatch(values: readonly string[]): string[] {
  return values.filter((v) => cut(v) < 0);
}

/** a bound used with the operator `op` */
export function bound(op: string, s: string): string;
export function bound(op: string, s: string | undefined): string | undefined;
export function bound(op: string, s: string | undefined): string | undefined {
  return op === '>=' || op === '<' ? geLt(s) : leGt(s);
}

/**
 * An id bound from a request (a continuation value) as int8 takes it: SQLite compares any number with
 * an integer column; PostgreSQL refuses one beyond int8 or with a fraction. Stored ids are far below
 * 2^53, so a larger bound selects what the largest safe integer does, and a fraction is rounded the way
 * the comparison `op` would treat it.
 */
export function idBound(n: number, op: '>=' | '<='): number {
  if (!Number.isFinite(n)) return n > 0 ? Number.MAX_SAFE_INTEGER : -Number.MAX_SAFE_INTEGER;
  const whole = op === '>=' ? Math.ceil(n) : Math.floor(n);
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, whole));
}
