/**
 * PHP 5's numbers: a float printed as `(string)` prints it (precision 14), round(), the (int) and
 * (float) casts, intval() and is_numeric().
 */

const PRECISION = 14;

/** A numeric string as is_numeric() and loose comparison see one: leading blanks allowed, trailing not. */
const NUMERIC_STRING = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** PHP is_numeric() of a string (decimal forms only). */
export function isNumericString(s: string): boolean {
  return NUMERIC_STRING.test(s);
}

/** Exact decimal digits of a finite positive double: `digits` × 10^(exp10 - digits.length + 1). */
function exactDecimal(x: number): { digits: string; exp10: number } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const hi = view.getUint32(0);
  const lo = view.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e2: number;
  if (biased === 0) {
    e2 = -1074; // subnormal
  } else {
    mant |= 1n << 52n;
    e2 = biased - 1075;
  }
  let digits: string;
  let scale: number; // value = digits × 10^scale
  if (e2 >= 0) {
    digits = (mant << BigInt(e2)).toString();
    scale = 0;
  } else {
    digits = (mant * 5n ** BigInt(-e2)).toString();
    scale = e2;
  }
  // strip trailing zeros of the integer digit string (keeps the value)
  let end = digits.length;
  while (end > 1 && digits[end - 1] === '0') end--;
  scale += digits.length - end;
  digits = digits.slice(0, end);
  return { digits, exp10: digits.length - 1 + scale };
}

/** The exact value rounded to 14 significant digits, ties to even (zend_dtoa, mode 2). */
function roundedExactDigits(x: number): { digits: string; exp10: number } {
  let { digits, exp10 } = exactDecimal(x);
  if (digits.length > PRECISION) {
    const head = digits.slice(0, PRECISION);
    const next = digits.charCodeAt(PRECISION) - 48;
    const restNonZero = /[1-9]/.test(digits.slice(PRECISION + 1));
    const up = next > 5 || (next === 5 && (restNonZero || (head.charCodeAt(PRECISION - 1) - 48) % 2 === 1));
    digits = head;
    if (up) {
      const n = (BigInt(head) + 1n).toString();
      if (n.length > head.length) exp10 += 1;
      digits = n.slice(0, PRECISION);
    }
    digits = digits.replace(/0+$/, '') || '0';
  }
  return { digits, exp10 };
}

/**
 * The 14 significant digits of a finite positive double (trailing zeros dropped) and its decimal
 * exponent. toExponential rounds correctly but breaks ties upwards where PHP breaks them to even; a
 * tie needs a 5 in the fifteenth digit, so only then is the exact (BigInt) expansion worth its cost.
 */
function significantDigits(x: number): { digits: string; exp10: number } {
  if (x.toExponential(PRECISION).charCodeAt(PRECISION + 1) === 53) return roundedExactDigits(x);
  const [mantissa, exponent] = x.toExponential(PRECISION - 1).split('e');
  return { digits: mantissa.replace('.', '').replace(/0+$/, '') || '0', exp10: Number(exponent) };
}

/** PHP's `strval((float) $x)` with the default precision=14 (php_gcvt: `%.14G`, correctly rounded, ties to even). */
export function phpFloatToString(x: number): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INF' : '-INF';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const neg = x < 0;
  const { digits, exp10 } = significantDigits(Math.abs(x));
  const decpt = exp10 + 1;
  let out: string;
  if (decpt < 0 ? decpt < -3 : decpt > PRECISION) {
    const e = decpt - 1;
    out = digits[0] + '.' + (digits.length > 1 ? digits.slice(1) : '0') + 'E' + (e < 0 ? '-' : '+') + String(Math.abs(e));
  } else if (decpt <= 0) {
    out = '0.' + '0'.repeat(-decpt) + digits;
  } else if (digits.length <= decpt) {
    out = digits + '0'.repeat(decpt - digits.length);
  } else {
    out = digits.slice(0, decpt) + '.' + digits.slice(decpt);
  }
  return neg ? '-' + out : out;
}

/** PHP round(): half away from zero, after pre-rounding to 15 significant digits. */
export function phpRound(value: number, places: number): number {
  if (!Number.isFinite(value)) return value;
  const f = 10 ** Math.abs(places);
  let t = places >= 0 ? value * f : value / f;
  if (!Number.isFinite(t)) return value;
  t = Number(t.toPrecision(15));
  const r = Math.sign(t) * Math.floor(Math.abs(t) + 0.5);
  return places >= 0 ? r / f : r * f;
}

/** PHP's (int) cast of a float: truncated, 0 for NAN and the infinities. */
export function phpIntCast(v: number): number {
  return Number.isFinite(v) ? Math.trunc(v) : 0;
}

/** PHP (float) cast of a run of digits and dots ("1.2.3" → 1.2, "." → 0). */
export function phpFloatval(s: string): number {
  const dot = s.indexOf('.');
  const second = dot < 0 ? -1 : s.indexOf('.', dot + 1);
  const v = Number(second < 0 ? s : s.slice(0, second));
  return Number.isNaN(v) ? 0 : v;
}

/** PHP's (float) cast of a string: its leading number, 0 when there is none. */
export function phpFloatCast(s: string): number {
  const m = /^[ \t\n\r\v\f]*[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?/.exec(s);
  return m ? Number(m[0].trim()) : 0;
}

/** PHP intval of a string: the leading integer, 0 when none. */
export function phpIntval(s: string): number {
  const m = /^[ \t\n\r\v\f]*([+-]?\d+)/.exec(s);
  return m ? Number(m[1]) : 0;
}
