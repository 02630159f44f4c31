/**
 * Serialization of the result tree to JSON, formatversion 1 (MediaWiki's BC transform) or 2, compact or
 * pretty (PHP's JSON_PRETTY_PRINT: 4 spaces, "key": value), with PHP json_encode's escaping choices.
 */
import { ARRAY_TYPE, BC_BOOLS, CONTENT } from '../result.js';

export interface JsonOptions {
  formatversion: 1 | 2;
  /** escape every non-ASCII character as \uXXXX (fv1 default; fv2 with ascii=1) */
  ascii: boolean;
  pretty: boolean;
}

export function toJson(root: unknown, opts: JsonOptions): string {
  // ascii: every string (and key) is escaped as it is written, so the structure is never scanned
  let s = write(root, opts.formatversion, opts.pretty ? '\n' : '', opts.ascii);
  if (!opts.ascii && (s.includes('\u2028') || s.includes('\u2029'))) s = s.replace(/[\u2028\u2029]/g, escapeUnit);
  // A JSON answer must never be mistaken for a Flash cross-domain policy (FormatJson::encode).
  if (s.includes('<') && /<\s*cross-domain-policy\s*>/i.test(s)) s = s.replace(/<\s*cross-domain-policy\s*>/gi, (m) => m.replace('<', '\\u003C').replace('>', '\\u003E'));
  return s;
}

function escapeUnit(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];
/** bytes of the escaped string being built (grown as needed; one request writes one string at a time) */
let scratch = Buffer.allocUnsafe(4096);
const SCRATCH_KEEP = 1 << 22;

/**
 * JSON.stringify(s) followed by PHP json_encode's default escaping of every non-ASCII UTF-16 unit as
 * lowercase `\uXXXX` (astral characters as their surrogate pair), in one pass over the string's units
 * into bytes. Ukrainian answers escape most characters: concatenating the escapes one by one built a rope
 * of thousands of pieces per answer, and a scan of the whole answer followed.
 */
function quoteAscii(s: string): string {
  const n = s.length;
  let i = 0;
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c < 0x20 || c === 34 || c === 92) break;
  }
  if (i === n) return '"' + s + '"';
  const size = 2 + 6 * n;
  // a string larger than SCRATCH_KEEP gets its own buffer, so one huge value does not pin memory
  const b = size <= scratch.length ? scratch : size <= SCRATCH_KEEP ? (scratch = Buffer.allocUnsafe(Math.max(size, 2 * scratch.length))) : Buffer.allocUnsafe(size);
  b[0] = 34;
  let o = 1;
  for (let k = 0; k < i; k++) b[o++] = s.charCodeAt(k);
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80 || c < 0x20) {
      // JSON.stringify's short forms of the control characters
      if (c === 8 || c === 9 || c === 10 || c === 12 || c === 13) {
        b[o] = 92;
        b[o + 1] = c === 8 ? 98 : c === 9 ? 116 : c === 10 ? 110 : c === 12 ? 102 : 114;
        o += 2;
        continue;
      }
      b[o] = 92;
      b[o + 1] = 117;
      b[o + 2] = HEX[c >> 12]!;
      b[o + 3] = HEX[(c >> 8) & 15]!;
      b[o + 4] = HEX[(c >> 4) & 15]!;
      b[o + 5] = HEX[c & 15]!;
      o += 6;
    } else if (c === 34 || c === 92) {
      b[o] = 92;
      b[o + 1] = c;
      o += 2;
    } else {
      b[o++] = c;
    }
  }
  b[o++] = 34;
  return b.toString('latin1', 0, o);
}

/** Quoted keys, reused: most keys are the same few names in every answer (bounded: ids vary). */
const quotedKeys = new Map<string, string>();
const quotedKeysAscii = new Map<string, string>();

function quoteKey(k: string, ascii: boolean): string {
  const cache = ascii ? quotedKeysAscii : quotedKeys;
  let q = cache.get(k);
  if (q === undefined) {
    q = ascii ? quoteAscii(k) : JSON.stringify(k);
    if (cache.size < 4096) cache.set(k, q);
  }
  return q;
}

/**
 * ApiResult::transformForTypes of 1.25 ksorts a BCarray before taking its values: query.pages comes out
 * in page id order (the negative keys of missing and special titles first), whatever order it was built in.
 */
function ksortedValues(m: Map<string, unknown>): unknown[] {
  const keys = [...m.keys()];
  const numeric = keys.every((k) => /^-?\d+$/.test(k));
  keys.sort(numeric ? (a, b) => Number(a) - Number(b) : (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((k) => m.get(k));
}

/**
 * One node as JSON. Objects apply the fv1 transform on the way (false and undefined members dropped, the
 * content member renamed '*' and written last); BCarray maps are lists in fv2. Strings are built with `+=`
 * (V8 ropes), which costs less than collecting parts in an array.
 */
function write(v: unknown, fv: 1 | 2, nl: string, ascii: boolean): string {
  switch (typeof v) {
    case 'string':
      return ascii ? quoteAscii(v) : JSON.stringify(v);
    case 'number':
      return Number.isFinite(v) ? String(v) : '0';
    case 'boolean':
      return fv === 1 ? '""' : v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object':
      break;
    default:
      return 'null';
  }
  if (v === null) return 'null';
  const inner = nl === '' ? '' : nl + '    ';
  const arrayType = (v as { [ARRAY_TYPE]?: string })[ARRAY_TYPE];
  if (fv === 2 && arrayType === 'BCassoc' && Array.isArray(v)) {
    // fv2 prints a BCassoc list as an object keyed by index
    const m = new Map<string, unknown>();
    v.forEach((item, i) => m.set(String(i), item));
    return write(m, fv, nl, ascii);
  }
  if (Array.isArray(v) || (fv === 2 && arrayType === 'BCarray')) {
    let out = '[';
    let empty = true;
    for (const item of Array.isArray(v) ? v : ksortedValues(v as Map<string, unknown>)) {
      if (fv === 1 && (item === false || item === undefined)) continue;
      out += (empty ? '' : ',') + inner + write(item, fv, inner, ascii);
      empty = false;
    }
    return empty ? '[]' : out + nl + ']';
  }
  const colon = nl === '' ? ':' : ': ';
  const contentKey = fv === 1 ? (v as { [CONTENT]?: string })[CONTENT] : undefined;
  const bcBools = fv === 1 ? (v as { [BC_BOOLS]?: readonly string[] })[BC_BOOLS] : undefined;
  let out = '{';
  let empty = true;
  let content: unknown;
  // one loop for Maps and objects (a closure per object cost more than the members it wrote)
  const entries: Iterable<[string, unknown]> | null = v instanceof Map ? v : null;
  const keys = entries === null ? Object.keys(v) : null;
  const iter = entries !== null ? entries[Symbol.iterator]() : null;
  for (let n = 0; ; n++) {
    let k: string;
    let item: unknown;
    if (keys !== null) {
      if (n >= keys.length) break;
      k = keys[n]!;
      item = (v as Record<string, unknown>)[k];
    } else {
      const r = iter!.next();
      if (r.done) break;
      [k, item] = r.value;
    }
    if (item === undefined) continue;
    if (bcBools !== undefined && typeof item === 'boolean' && bcBools.includes(k)) {
      out += (empty ? '' : ',') + inner + quoteKey(k, ascii) + colon + (item ? 'true' : 'false');
      empty = false;
      continue;
    }
    if (fv === 1 && item === false) continue;
    if (k === contentKey) {
      content = item;
      continue;
    }
    out += (empty ? '' : ',') + inner + quoteKey(k, ascii) + colon + write(item, fv, inner, ascii);
    empty = false;
  }
  if (content !== undefined && content !== false) {
    out += (empty ? '' : ',') + inner + '"*"' + colon + write(content, fv, inner, ascii);
    empty = false;
  }
  return empty ? '{}' : out + nl + '}';
}
