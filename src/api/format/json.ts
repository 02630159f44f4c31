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
  pos = 0;
  let s: string;
  try {
    put(root, opts.formatversion, opts.pretty ? '\n' : '', opts.ascii);
    // ascii: every byte is < 0x80, and latin1 makes the one-byte string without decoding
    s = out.toString(opts.ascii ? 'latin1' : 'utf8', 0, pos);
  } finally {
    // one huge answer does not pin its buffer
    if (out.length > OUT_KEEP) out = Buffer.allocUnsafe(OUT_START);
  }
  if (!opts.ascii && (s.includes('\u2028') || s.includes('\u2029'))) s = s.replace(/[\u2028\u2029]/g, escapeUnit);
  // A JSON answer must never be mistaken for a Flash cross-domain policy (FormatJson::encode).
  if (s.includes('<') && /<\s*cross-domain-policy\s*>/i.test(s)) s = s.replace(/<\s*cross-domain-policy\s*>/gi, (m) => m.replace('<', '\\u003C').replace('>', '\\u003E'));
  return s;
}

function escapeUnit(c: string): string {
  return '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
}

const NOT_PLAIN = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/**
 * The answer's bytes: the whole answer is written into one buffer and decoded once. Strings joined with
 * `+=` made a rope of thousands of pieces (every escaped string a decoded piece of its own) that the
 * response then flattened. One request writes one answer at a time (the writer never yields).
 */
const OUT_START = 1 << 16;
const OUT_KEEP = 1 << 22;
let out = Buffer.allocUnsafe(OUT_START);
let pos = 0;

function reserve(n: number): void {
  if (pos + n <= out.length) return;
  const next = Buffer.allocUnsafe(Math.max(pos + n, 2 * out.length));
  out.copy(next, 0, 0, pos);
  out = next;
}

/** A string known to be ASCII (separators, numbers, escaped keys). */
function putAscii(s: string): void {
  const n = s.length;
  reserve(n);
  const b = out;
  let o = pos;
  for (let i = 0; i < n; i++) b[o++] = s.charCodeAt(i);
  pos = o;
}

/** Any string, as UTF-8 (its ASCII head copied here, the rest encoded natively). */
function putText(s: string): void {
  const n = s.length;
  reserve(3 * n);
  const b = out;
  let o = pos;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x80) {
      // i is the first non-ASCII unit: a surrogate pair is never cut
      pos = o + b.write(i === 0 ? s : s.slice(i), o, 'utf8');
      return;
    }
    b[o++] = c;
  }
  pos = o;
}

/**
 * JSON.stringify(s) followed by PHP json_encode's default escaping of every non-ASCII UTF-16 unit as
 * lowercase `\uXXXX` (astral characters as their surrogate pair), in one pass over the string's units
 * into the answer's bytes.
 */
function putQuotedAscii(s: string): void {
  const n = s.length;
  reserve(2 + 6 * n);
  const b = out;
  let o = pos;
  b[o++] = 34;
  let i = 0;
  if (n > 16) {
    // a head of printable ASCII without quote or backslash (messages, timestamps, Latin names) is
    // copied natively
    const stop = s.search(NOT_PLAIN);
    const plain = stop === -1 ? n : stop;
    if (plain > 16) {
      o += b.write(s, o, plain, 'latin1');
      i = plain;
    }
  }
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
  pos = o;
}

/** Quoted keys, reused: most keys are the same few names in every answer (bounded: ids vary). */
const quotedKeys = new Map<string, string>();
const quotedKeysAscii = new Map<string, string>();

function putKey(k: string, ascii: boolean): void {
  const cache = ascii ? quotedKeysAscii : quotedKeys;
  let q = cache.get(k);
  if (q === undefined) {
    if (ascii) {
      const start = pos;
      putQuotedAscii(k);
      q = out.toString('latin1', start, pos);
      if (cache.size < 4096) cache.set(k, q);
      return;
    }
    q = JSON.stringify(k);
    if (cache.size < 4096) cache.set(k, q);
  }
  if (ascii) putAscii(q);
  else putText(q);
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
 * One node as JSON, into the answer's bytes. Objects apply the fv1 transform on the way (false and
 * undefined members dropped, the content member renamed '*' and written last); BCarray maps are lists in fv2.
 */
function put(v: unknown, fv: 1 | 2, nl: string, ascii: boolean): void {
  switch (typeof v) {
    case 'string':
      if (ascii) putQuotedAscii(v);
      else putText(JSON.stringify(v));
      return;
    case 'number':
      putAscii(Number.isFinite(v) ? String(v) : '0');
      return;
    case 'boolean':
      putAscii(fv === 1 ? '""' : v ? 'true' : 'false');
      return;
    case 'bigint':
      putAscii(v.toString());
      return;
    case 'object':
      break;
    default:
      putAscii('null');
      return;
  }
  if (v === null) {
    putAscii('null');
    return;
  }
  const inner = nl === '' ? '' : nl + '    ';
  // the array types only change fv2's output (a symbol read on every node of every shape is not free)
  const arrayType = fv === 2 ? (v as { [ARRAY_TYPE]?: string })[ARRAY_TYPE] : undefined;
  if (fv === 2 && arrayType === 'BCassoc' && Array.isArray(v)) {
    // fv2 prints a BCassoc list as an object keyed by index
    const m = new Map<string, unknown>();
    v.forEach((item, i) => m.set(String(i), item));
    put(m, fv, nl, ascii);
    return;
  }
  if (Array.isArray(v) || (fv === 2 && arrayType === 'BCarray')) {
    reserve(1);
    out[pos++] = 91; // [
    let empty = true;
    const items = Array.isArray(v) ? v : ksortedValues(v as Map<string, unknown>);
    for (let n = 0; n < items.length; n++) {
      const item = items[n];
      if (fv === 1 && (item === false || item === undefined)) continue;
      if (!empty) {
        reserve(1);
        out[pos++] = 44;
      }
      if (inner !== '') putAscii(inner);
      put(item, fv, inner, ascii);
      empty = false;
    }
    if (!empty && nl !== '') putAscii(nl);
    reserve(1);
    out[pos++] = 93; // ]
    return;
  }
  const colon = nl === '' ? ':' : ': ';
  const contentKey = fv === 1 ? (v as { [CONTENT]?: string })[CONTENT] : undefined;
  const bcBools = fv === 1 ? (v as { [BC_BOOLS]?: readonly string[] })[BC_BOOLS] : undefined;
  reserve(1);
  out[pos++] = 123; // {
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
    const bcBool = bcBools !== undefined && typeof item === 'boolean' && bcBools.includes(k);
    if (!bcBool) {
      if (fv === 1 && item === false) continue;
      if (k === contentKey) {
        content = item;
        continue;
      }
    }
    if (!empty) {
      reserve(1);
      out[pos++] = 44;
    }
    if (inner !== '') putAscii(inner);
    putKey(k, ascii);
    putAscii(colon);
    if (bcBool) putAscii(item ? 'true' : 'false');
    else put(item, fv, inner, ascii);
    empty = false;
  }
  if (content !== undefined && content !== false) {
    if (!empty) {
      reserve(1);
      out[pos++] = 44;
    }
    if (inner !== '') putAscii(inner);
    putAscii('"*"');
    putAscii(colon);
    put(content, fv, inner, ascii);
    empty = false;
  }
  if (!empty && nl !== '') putAscii(nl);
  reserve(1);
  out[pos++] = 125; // }
}
