/**
 * PHP's json_encode() with its default flags (escaped slashes, `\uXXXX` for non-ASCII), which SMW
 * hashes to name query and anonymous subobjects.
 */
import { phpFloatToString } from './numbers.js';

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
  if (entries.length === 0 || entries.every(([k], i) => k === String(i)))
    return '[' + entries.map(([, x]) => phpJsonEncode(x)).join(',') + ']';
  return '{' + entries.map(([k, x]) => phpJsonString(k) + ':' + phpJsonEncode(x)).join(',') + '}';
}
