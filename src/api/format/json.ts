/**
 * Serialization of the result tree to JSON, formatversion 1 (MediaWiki's BC transform) or 2, compact or
 * pretty (PHP's JSON_PRETTY_PRINT: 4 spaces, "key": value), with PHP json_encode's escaping choices.
 */
import { transcode } from 'node:buffer';
import { ARRAY_TYPE, BC_BOOLS, CONTENT, KeyedRowList, PrintedJson, type RowList, type RowShape, WriterNode } from '../result.js';

export interface JsonOptions {
  formatversion: 1 | 2;
  /** escape every non-ASCII character as \uXXXX (fv1 default; fv2 with ascii=1) */
  ascii: boolean;
  pretty: boolean;
}

export function toJson(root: unknown, opts: JsonOptions): string {
  write(root, opts);
  try {
    return mend(text(opts.ascii), opts);
  } finally {
    release();
  }
}

/**
 * The answer as bytes of its own, for the response: no string to make and no UTF-8 to encode again on
 * the way out (for a 100 KB answer those cost more than writing it). Only an answer toJson would mend
 * is made as text first.
 */
export function toJsonBytes(root: unknown, opts: JsonOptions): Buffer {
  write(root, opts);
  try {
    const bytes = out.subarray(0, pos);
    const lt = bytes.indexOf(LT) >= 0;
    if (!lt && (opts.ascii || (bytes.indexOf(LS) < 0 && bytes.indexOf(PS) < 0))) return Buffer.from(bytes);
    const plain = text(opts.ascii);
    const mended = mend(plain, opts);
    return mended === plain ? Buffer.from(bytes) : Buffer.from(mended, 'utf8');
  } finally {
    release();
  }
}

/**
 * The answer's bytes as a string. ascii: every byte is < 0x80, and latin1 makes the one-byte string
 * without decoding. Non-ASCII UTF-8 beyond a few hundred bytes goes through UTF-16: ICU's transcoding is
 * ~10× faster than V8's UTF-8 decoder on Cyrillic (a 45 kB answer: 9 µs instead of 100).
 */
function text(ascii: boolean): string {
  if (ascii) return out.toString('latin1', 0, pos);
  if (wide && pos > 256) return transcode(out.subarray(0, pos), 'utf8', 'utf16le').toString('utf16le');
  return out.toString('utf8', 0, pos);
}

const LT = 0x3c;
const LS = Buffer.from('\u2028', 'utf8');
const PS = Buffer.from('\u2029', 'utf8');

function write(root: unknown, opts: JsonOptions): void {
  pos = 0;
  wide = false;
  try {
    put(root, opts.formatversion, opts.pretty ? '\n' : '', opts.ascii);
  } catch (e) {
    release();
    throw e;
  }
}

/** one huge answer does not pin its buffer */
function release(): void {
  if (out.length > OUT_KEEP) {
    out = Buffer.allocUnsafe(OUT_START);
    outView = viewOf(out);
  }
}

/** what PHP's encoder leaves to FormatJson: U+2028/U+2029 escaped, a cross-domain-policy tag broken */
function mend(s: string, opts: JsonOptions): string {
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
let outView = viewOf(out);
let pos = 0;
/** has the answer non-ASCII bytes (UTF-8 text written by putText or a PrintedJson) */
let wide = false;

function viewOf(b: Buffer): DataView {
  return new DataView(b.buffer, b.byteOffset, b.length);
}

function reserve(n: number): void {
  if (pos + n <= out.length) return;
  const next = Buffer.allocUnsafe(Math.max(pos + n, 2 * out.length));
  out.copy(next, 0, 0, pos);
  out = next;
  outView = viewOf(next);
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

/**
 * A non-negative 31-bit integer's digits (counts, ids, sizes: most numbers of an answer) straight into the
 * answer: String(v) made a string per number (~6 ns more each). -0 prints "0", as String(-0).
 */
function putUint(v: number): void {
  reserve(10);
  const b = out;
  let o = pos;
  if (v < 10) {
    b[o] = 48 + v;
    pos = o + 1;
    return;
  }
  let digits = 1;
  for (let t = v; t >= 10; t = (t / 10) | 0) digits++;
  o += digits;
  pos = o;
  for (let t = v; ; ) {
    const q = (t / 10) | 0;
    b[--o] = 48 + t - q * 10;
    if (q === 0) break;
    t = q;
  }
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
      wide = true;
      pos = o + b.write(i === 0 ? s : s.slice(i), o, 'utf8');
      return;
    }
    b[o++] = c;
  }
  pos = o;
}

/**
 * `\uXXXX` as two stores: HI[c >> 8] is the bytes `\u` and the high byte's two hex digits, LO[c & 255] the
 * low byte's two (little-endian words, written through a DataView at any offset). Six byte stores and
 * four table loads per escaped unit were most of a Cyrillic answer's writing.
 */
const HI = new Uint32Array(256);
const LO = new Uint16Array(256);
for (let i = 0; i < 256; i++) {
  HI[i] = 92 | (117 << 8) | (HEX[i >> 4]! << 16) | (HEX[i & 15]! << 24);
  LO[i] = HEX[i >> 4]! | (HEX[i & 15]! << 8);
}

/**
 * JSON.stringify(s) followed by PHP json_encode's default escaping of every non-ASCII UTF-16 unit as
 * lowercase `\uXXXX` (astral characters as their surrogate pair), in one pass over the string's units
 * into the answer's bytes. Printable ASCII is tested first: it is most units of most answers.
 */
function putQuotedAscii(s: string): void {
  const n = s.length;
  if (n > 64 && n <= RECENT_MAX) {
    const hit = recentIndex(s);
    if (hit >= 0) {
      const q = recentBytes[hit]!;
      reserve(q.length);
      out.set(q, pos);
      pos += q.length;
      return;
    }
    const start = pos;
    putQuotedAsciiUnits(s, n);
    remember(s, start);
    return;
  }
  putQuotedAsciiUnits(s, n);
}

/**
 * The last few long strings written in the ASCII form, with their bytes: the same texts come back in
 * answer after answer (the raw-continuation warning of every list, deprecation notices), and a
 * comparison finds them (the same string object, or an internalized one, compares without reading it).
 */
const RECENT = 4;
const RECENT_MAX = 2048;
const recentStrings: string[] = new Array<string>(RECENT).fill('');
const recentBytes: Uint8Array[] = new Array<Uint8Array>(RECENT).fill(new Uint8Array(0));
let recentNext = 0;

function recentIndex(s: string): number {
  for (let i = 0; i < RECENT; i++) if (recentStrings[i] === s) return i;
  return -1;
}

function remember(s: string, start: number): void {
  recentStrings[recentNext] = s;
  recentBytes[recentNext] = Uint8Array.prototype.slice.call(out, start, pos);
  recentNext = (recentNext + 1) % RECENT;
}

function putQuotedAsciiUnits(s: string, n: number): void {
  reserve(2 + 6 * n);
  const b = out;
  const d = outView;
  let o = pos;
  b[o++] = 34;
  let i = 0;
  // a long head of printable ASCII without quote or backslash (messages, URLs) is copied natively; the
  // search and the native call cost more than the loop below over a title or a timestamp
  if (n > 64 && s.charCodeAt(0) < 0x80) {
    const stop = s.search(NOT_PLAIN);
    const plain = stop === -1 ? n : stop;
    if (plain > 64) {
      o += b.write(s, o, plain, 'latin1');
      i = plain;
    }
  }
  for (; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x80) {
      if (c === 34 || c === 92) b[o++] = 92;
      b[o++] = c;
      continue;
    }
    // JSON.stringify's short forms of the control characters
    if (c === 8 || c === 9 || c === 10 || c === 12 || c === 13) {
      b[o] = 92;
      b[o + 1] = c === 8 ? 98 : c === 9 ? 116 : c === 10 ? 110 : c === 12 ? 102 : 114;
      o += 2;
      continue;
    }
    d.setUint32(o, HI[c >> 8]!, true);
    d.setUint16(o + 4, LO[c & 255]!, true);
    o += 6;
  }
  b[o++] = 34;
  pos = o;
}

/**
 * putQuotedAsciiUnits of a DB key in its text form: every '_' written as ' ' (a loop of its own: the
 * test is not paid by every other string)
 */
function putSpacedAsciiUnits(s: string): void {
  const n = s.length;
  reserve(2 + 6 * n);
  const b = out;
  const d = outView;
  let o = pos;
  b[o++] = 34;
  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x80) {
      if (c === 95) b[o++] = 32;
      else {
        if (c === 34 || c === 92) b[o++] = 92;
        b[o++] = c;
      }
      continue;
    }
    if (c === 8 || c === 9 || c === 10 || c === 12 || c === 13) {
      b[o] = 92;
      b[o + 1] = c === 8 ? 98 : c === 9 ? 116 : c === 10 ? 110 : c === 12 ? 102 : 114;
      o += 2;
      continue;
    }
    d.setUint32(o, HI[c >> 8]!, true);
    d.setUint16(o + 4, LO[c & 255]!, true);
    o += 6;
  }
  b[o++] = 34;
  pos = o;
}

/**
 * Quoted keys with their colon, as bytes, reused: most keys are the same few names in every answer
 * (bounded: ids vary). Copied byte by byte: cheaper than re-reading the key's characters.
 */
const keyCaches: Array<Map<string, Uint8Array>> = [new Map(), new Map(), new Map(), new Map()];

/** the last key written, for a list of objects with the same members (a compare instead of a lookup) */
let lastKey = '';
let lastKind = -1;
let lastBytes: Uint8Array = new Uint8Array(0);

function putKey(k: string, ascii: boolean, pretty: boolean): void {
  // a short key of printable ASCII without quote or backslash (nearly every key) is copied as it is read:
  // cheaper than finding its bytes in the cache
  const n = k.length;
  if (n <= 24) {
    reserve(n + 4);
    const b = out;
    let o = pos;
    b[o++] = 34;
    let i = 0;
    for (; i < n; i++) {
      const c = k.charCodeAt(i);
      if (c < 0x20 || c >= 0x7f || c === 34 || c === 92) break;
      b[o++] = c;
    }
    if (i === n) {
      b[o++] = 34;
      b[o++] = 58;
      if (pretty) b[o++] = 32;
      pos = o;
      return;
    }
  }
  putCachedKey(k, ascii, pretty);
}

/** any other key: its escaped bytes, made once (bounded) */
function putCachedKey(k: string, ascii: boolean, pretty: boolean): void {
  const kind = (ascii ? 1 : 0) + (pretty ? 2 : 0);
  let q: Uint8Array | undefined;
  if (k === lastKey && kind === lastKind) q = lastBytes;
  else {
    q = keyCaches[kind]!.get(k);
    if (q !== undefined) {
      lastKey = k;
      lastKind = kind;
      lastBytes = q;
    }
  }
  if (q === undefined) {
    const cache = keyCaches[kind]!;
    const start = pos;
    if (ascii) putQuotedAscii(k);
    else putText(JSON.stringify(k));
    putAscii(pretty ? ': ' : ':');
    q = Uint8Array.prototype.slice.call(out, start, pos);
    if (cache.size < 4096) cache.set(k, q);
    return;
  }
  const n = q.length;
  reserve(n);
  const b = out;
  const o = pos;
  for (let i = 0; i < n; i++) b[o + i] = q[i]!;
  pos = o + n;
}

const MEMBER_SKIPPED = 0;
const MEMBER_WRITTEN = 1;
const MEMBER_CONTENT = 2;

/**
 * One member of an object, after a comma unless it is the first written: MEMBER_SKIPPED (undefined, or
 * fv1's false), MEMBER_CONTENT (the content member, written last by the caller) or MEMBER_WRITTEN.
 */
function putMember(k: string, item: unknown, fv: 1 | 2, inner: string, ascii: boolean, bcBools: readonly string[] | undefined, contentKey: string | undefined, empty: boolean): number {
  if (item === undefined) return MEMBER_SKIPPED;
  const bcBool = bcBools !== undefined && typeof item === 'boolean' && bcBools.includes(k);
  if (!bcBool) {
    if (fv === 1 && item === false) return MEMBER_SKIPPED;
    if (k === contentKey) return MEMBER_CONTENT;
  }
  if (!empty) {
    reserve(1);
    out[pos++] = 44;
  }
  if (inner !== '') putAscii(inner);
  putKey(k, ascii, inner !== '');
  if (bcBool) putAscii(item ? 'true' : 'false');
  else put(item, fv, inner, ascii);
  return MEMBER_WRITTEN;
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
      if ((v | 0) === v && v >= 0) putUint(v);
      else putAscii(Number.isFinite(v) ? String(v) : '0');
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
  // one test for both kinds of node the writer prints itself (every object node pays it)
  if (v instanceof WriterNode) {
    if (v instanceof PrintedJson) putPrinted(v, fv, nl, ascii);
    else if (nl !== '') put(v instanceof KeyedRowList ? v.node() : (v as RowList).objects(), fv, nl, ascii);
    else if (v instanceof KeyedRowList) putKeyedRows(v, fv, ascii);
    else putRows(v as RowList, fv, ascii);
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
  if (v instanceof Map) {
    for (const e of v as Map<string, unknown>) {
      const r = putMember(e[0], e[1], fv, inner, ascii, bcBools, contentKey, empty);
      if (r === MEMBER_CONTENT) content = e[1];
      else if (r === MEMBER_WRITTEN) empty = false;
    }
  } else {
    // own members only (Object.keys' array per object cost more than the member it wrote)
    for (const k in v) {
      if (!Object.prototype.hasOwnProperty.call(v, k)) continue;
      const item = (v as Record<string, unknown>)[k];
      const r = putMember(k, item, fv, inner, ascii, bcBools, contentKey, empty);
      if (r === MEMBER_CONTENT) content = item;
      else if (r === MEMBER_WRITTEN) empty = false;
    }
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

/** A node printed already: copied when this answer is its form (compact, and ASCII or not as it is). */
function putPrinted(v: PrintedJson, fv: 1 | 2, nl: string, ascii: boolean): void {
  if (nl !== '' || v.form !== (ascii ? 'ascii' : 'utf8')) {
    put(v.value(), fv, nl, ascii);
    return;
  }
  const json = v.json;
  if (typeof json === 'string') {
    reserve(json.length);
    pos += out.write(json, pos, 'latin1');
  } else {
    reserve(json.length);
    out.set(json, pos);
    pos += json.length;
    wide = true;
  }
}

/**
 * A RowList, compact: each row as the object it stands for would print (put's object case), with the
 * members' quoted keys made once per shape and form. fv1 prints the content member last, as '*'.
 */
function putRows(list: RowList, fv: 1 | 2, ascii: boolean): void {
  const keys = printedKeys(list.shape, fv, ascii);
  const width = list.shape.keys.length;
  const n = list.values.length;
  reserve(1);
  out[pos++] = 91; // [
  for (let i = 0; i < n; i += width) {
    if (i !== 0) {
      reserve(1);
      out[pos++] = 44;
    }
    putRow(list, i, keys, fv, ascii);
  }
  reserve(1);
  out[pos++] = 93; // ]
}

/**
 * A KeyedRowList, compact: fv1 an object of the rows under their keys, in the order added; fv2 a list of
 * the rows in key order (in order already, as a generator's pages mostly are, they are not sorted)
 */
function putKeyedRows(list: KeyedRowList, fv: 1 | 2, ascii: boolean): void {
  const keys = printedKeys(list.shape, fv, ascii);
  const width = list.shape.keys.length;
  const rowKeys = list.keys;
  const n = rowKeys.length;
  reserve(1);
  if (fv === 1) {
    out[pos++] = 123; // {
    for (let r = 0; r < n; r++) {
      reserve(3);
      if (r !== 0) out[pos++] = 44;
      out[pos++] = 34;
      putUint(rowKeys[r]!);
      reserve(2);
      out[pos++] = 34;
      out[pos++] = 58;
      putRow(list, r * width, keys, fv, ascii);
    }
    reserve(1);
    out[pos++] = 125; // }
    return;
  }
  let order: number[] | null = null;
  for (let r = 1; r < n; r++) {
    if (rowKeys[r - 1]! > rowKeys[r]!) {
      order = rowKeys.map((_k, i) => i).sort((a, b) => rowKeys[a]! - rowKeys[b]!);
      break;
    }
  }
  out[pos++] = 91; // [
  for (let r = 0; r < n; r++) {
    if (r !== 0) {
      reserve(1);
      out[pos++] = 44;
    }
    putRow(list, (order === null ? r : order[r]!) * width, keys, fv, ascii);
  }
  reserve(1);
  out[pos++] = 93; // ]
}

/** the row of a RowList whose values start at `at`, as the object it stands for (put's object case) */
function putRow(list: RowList, at: number, keys: Uint8Array[], fv: 1 | 2, ascii: boolean): void {
  const shape = list.shape;
  const order = fv === 1 ? shape.fv1Order : null;
  const values = list.values;
  const width = shape.keys.length;
  reserve(1);
  out[pos++] = 123; // {
  let empty = true;
  for (let j = 0; j < width; j++) {
    const k = order === null ? j : order[j]!;
    const item = values[at + k];
    if (item === undefined || (fv === 1 && item === false)) continue;
    const q = keys[k]!;
    const n = q.length;
    reserve(n + 1);
    const b = out;
    let o = pos;
    if (!empty) b[o++] = 44;
    for (let x = 0; x < n; x++) b[o++] = q[x]!;
    pos = o;
    empty = false;
    if (typeof item === 'number' && (item | 0) === item && item >= 0) putUint(item);
    else if (typeof item === 'string') {
      if (shape.spaced[k]) {
        if (ascii) putSpacedAsciiUnits(item);
        else putText(JSON.stringify(item.replace(/_/g, ' ')));
      } else if (ascii) putQuotedAscii(item);
      else putText(JSON.stringify(item));
    } else put(item, fv, '', ascii);
  }
  reserve(1);
  out[pos++] = 125; // }
}

/** a shape's quoted keys with their colon, compact, for this form (fv1's content member as '*') */
function printedKeys(shape: RowShape, fv: 1 | 2, ascii: boolean): Uint8Array[] {
  const form = (fv === 1 ? 0 : 2) + (ascii ? 1 : 0);
  let keys = shape.printed[form];
  if (keys === undefined) {
    keys = [];
    for (let j = 0; j < shape.keys.length; j++) {
      const start = pos;
      if (fv === 1 && j === shape.contentIndex) putAscii('"*":');
      else putKey(shape.keys[j]!, ascii, false);
      keys.push(Uint8Array.prototype.slice.call(out, start, pos));
      pos = start;
    }
    shape.printed[form] = keys;
  }
  return keys;
}
