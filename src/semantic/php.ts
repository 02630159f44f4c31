/**
 * The few PHP behaviours Semantic MediaWiki's output depends on, reproduced exactly: `strval()` of a
 * float (precision 14, `%.14G` with PHP's own exponent form), `json_encode()` with its default flags
 * (escaped slashes, `\uXXXX` for non-ASCII) and `md5()` — SMW names query and anonymous subobjects by
 * the md5 of a json_encode()d array.
 */
import { createHash } from 'node:crypto';

const PRECISION = 14;

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

/** PHP's `strval((float) $x)` with the default precision=14 (php_gcvt, correctly rounded, ties to even). */
export function phpFloatToString(x: number): string {
  if (Number.isNaN(x)) return 'NAN';
  if (!Number.isFinite(x)) return x > 0 ? 'INF' : '-INF';
  if (x === 0) return Object.is(x, -0) ? '-0' : '0';
  const neg = x < 0;
  let { digits, exp10 } = exactDecimal(Math.abs(x));
  if (digits.length > PRECISION) {
    const head = digits.slice(0, PRECISION);
    const next = digits.charCodeAt(PRECISION) - 48;
    const restNonZero = /[1-9]/.test(digits.slice(PRECISION + 1));
    let up = next > 5 || (next === 5 && (restNonZero || (head.charCodeAt(PRECISION - 1) - 48) % 2 === 1));
    digits = head;
    if (up) {
      const n = (BigInt(head) + 1n).toString();
      if (n.length > head.length) exp10 += 1;
      digits = n.slice(0, PRECISION);
    }
    digits = digits.replace(/0+$/, '') || '0';
  }
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

/** A PHP array as json_encode sees it: a list, or an ordered map (keys may look like integers). */
export type PhpValue = string | number | boolean | null | PhpValue[] | PhpMap;
export class PhpMap {
  constructor(readonly entries: Array<[string, PhpValue]>) {}
}

function phpJsonString(s: string): string {
  let out = '"';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    switch (c) {
      case 0x22:
        out += '\\"';
        break;
      case 0x5c:
        out += '\\\\';
        break;
      case 0x2f:
        out += '\\/';
        break;
      case 0x08:
        out += '\\b';
        break;
      case 0x0c:
        out += '\\f';
        break;
      case 0x0a:
        out += '\\n';
        break;
      case 0x0d:
        out += '\\r';
        break;
      case 0x09:
        out += '\\t';
        break;
      default:
        out += c < 0x20 || c > 0x7e ? '\\u' + c.toString(16).padStart(4, '0') : s[i];
    }
  }
  return out + '"';
}

/** PHP's `json_encode($v)` with default flags (PHP 5.4+). A map with keys 0..n-1 in order is a list. */
export function phpJsonEncode(v: PhpValue): string {
  if (v === null) return 'null';
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : phpFloatToString(v);
  if (typeof v === 'string') return phpJsonString(v);
  if (Array.isArray(v)) return '[' + v.map(phpJsonEncode).join(',') + ']';
  const entries = v.entries;
  if (entries.length === 0 || entries.every(([k], i) => k === String(i))) return '[' + entries.map(([, x]) => phpJsonEncode(x)).join(',') + ']';
  return '{' + entries.map(([k, x]) => phpJsonString(k) + ':' + phpJsonEncode(x)).join(',') + '}';
}

export function md5(s: string): string {
  return createHash('md5').update(s, 'utf8').digest('hex');
}
