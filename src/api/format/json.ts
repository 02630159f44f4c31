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
  return writer.toJson(root, opts);
}

/**
 * The answer as bytes of its own, for the response: no string to make and no UTF-8 to encode again on
 * the way out (for a 100 KB answer those cost more than writing it). Only an answer that FormatJson's
 * escapes change is made as text first.
 */
export function toJsonBytes(root: unknown, opts: JsonOptions): Buffer {
  return writer.toJsonBytes(root, opts);
}

const LESS_THAN = 0x3c;
const LINE_SEPARATOR = Buffer.from('\u2028', 'utf8');
const PARAGRAPH_SEPARATOR = Buffer.from('\u2029', 'utf8');

/** what PHP's encoder leaves to FormatJson: U+2028/U+2029 escaped, a cross-domain-policy tag broken */
function applyFormatJsonEscapes(json: string, opts: JsonOptions): string {
  if (!opts.ascii && (json.includes('\u2028') || json.includes('\u2029'))) json = json.replace(/[\u2028\u2029]/g, escapeUnit);
  // A JSON answer must never be mistaken for a Flash cross-domain policy (FormatJson::encode).
  if (json.includes('<') && /<\s*cross-domain-policy\s*>/i.test(json))
    json = json.replace(/<\s*cross-domain-policy\s*>/gi, (tag) => tag.replace('<', '\\u003C').replace('>', '\\u003E'));
  return json;
}

function escapeUnit(unit: string): string {
  return '\\u' + unit.charCodeAt(0).toString(16).padStart(4, '0');
}

const NOT_PLAIN = /[^\x20\x21\x23-\x5b\x5d-\x7e]/;

const HEX_DIGITS = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/**
 * `\uXXXX` as two stores, a 32-bit and a 16-bit one (little-endian words, written through a DataView at
 * any offset): six byte stores and four table loads per escaped unit were most of a Cyrillic answer's
 * writing.
 */
const ESCAPE_PREFIX_AND_HIGH_BYTE_DIGITS = new Uint32Array(256);
const LOW_BYTE_DIGITS = new Uint16Array(256);
for (let byte = 0; byte < 256; byte++) {
  ESCAPE_PREFIX_AND_HIGH_BYTE_DIGITS[byte] = 92 | (117 << 8) | (HEX_DIGITS[byte >> 4]! << 16) | (HEX_DIGITS[byte & 15]! << 24);
  LOW_BYTE_DIGITS[byte] = HEX_DIGITS[byte >> 4]! | (HEX_DIGITS[byte & 15]! << 8);
}

/** the buffer's starting size, and the size past which an answer's buffer is dropped after it */
const INITIAL_BYTES = 1 << 16;
const MAX_KEPT_BYTES = 1 << 22;

/** how many long ASCII strings the writer remembers the bytes of, and the longest it remembers */
const RECENT_COUNT = 4;
const RECENT_MAX_LENGTH = 2048;

const MEMBER_SKIPPED = 0;
const MEMBER_WRITTEN = 1;
const MEMBER_CONTENT = 2;

/**
 * ApiResult::transformForTypes of 1.25 ksorts a BCarray before taking its values: query.pages comes out
 * in page id order (the negative keys of missing and special titles first), whatever order it was built in.
 */
function ksortedValues(map: Map<string, unknown>): unknown[] {
  const keys = [...map.keys()];
  const numeric = keys.every((k) => /^-?\d+$/.test(k));
  keys.sort(numeric ? (a, b) => Number(a) - Number(b) : (a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return keys.map((k) => map.get(k));
}

/**
 * The answer's bytes: the whole answer is written into one buffer and decoded once. Strings joined with
 * `+=` made a rope of thousands of pieces (every escaped string a decoded piece of its own) that the
 * response then flattened. A writer writes one answer at a time (it never yields), and keeps its buffer
 * and its caches of keys and strings from one answer to the next.
 */
export class JsonWriter {
  private bytes = Buffer.allocUnsafe(INITIAL_BYTES);
  private view = viewOf(this.bytes);
  /** bytes of the answer written so far */
  private written = 0;
  /** has the answer non-ASCII bytes (UTF-8 text written by writeUtf8 or a PrintedJson) */
  private hasNonAscii = false;

  /**
   * The last few long strings written in the ASCII form, with their bytes: the same texts come back in
   * answer after answer (the raw-continuation warning of every list, deprecation notices), and a
   * comparison finds them (the same string object, or an internalized one, compares without reading it).
   */
  private readonly recentStrings: string[] = new Array<string>(RECENT_COUNT).fill('');
  private readonly recentBytes: Uint8Array[] = new Array<Uint8Array>(RECENT_COUNT).fill(new Uint8Array(0));
  private recentNext = 0;

  /**
   * Quoted keys with their colon, as bytes, reused, per form (ascii + 2 × pretty): most keys are the same
   * few names in every answer (bounded: ids vary). Copied byte by byte: cheaper than re-reading the key.
   */
  private readonly keyCaches: Array<Map<string, Uint8Array>> = [new Map(), new Map(), new Map(), new Map()];
  /** the last cached key written, for a list of objects with the same members (a compare instead of a lookup) */
  private lastKey = '';
  private lastKeyForm = -1;
  private lastKeyBytes: Uint8Array = new Uint8Array(0);

  /**
   * Per member of the RowList being written, the string last written for it and where its bytes are in this
   * answer: the same value in the next row (a user's name down a list of their contributions, a bot's edit
   * summary) is copied rather than escaped again. Reset for each list, and for a row of another shape (a list
   * inside a row's value).
   */
  private rowStringsShape: RowShape | null = null;
  private rowStrings: Array<string | undefined> = [];
  private rowStringStarts: number[] = [];
  private rowStringEnds: number[] = [];

  toJson(root: unknown, opts: JsonOptions): string {
    this.writeAnswer(root, opts);
    try {
      return applyFormatJsonEscapes(this.text(opts.ascii), opts);
    } finally {
      this.release();
    }
  }

  toJsonBytes(root: unknown, opts: JsonOptions): Buffer {
    this.writeAnswer(root, opts);
    try {
      const bytes = this.bytes.subarray(0, this.written);
      const lessThan = bytes.indexOf(LESS_THAN) >= 0;
      if (!lessThan && (opts.ascii || (bytes.indexOf(LINE_SEPARATOR) < 0 && bytes.indexOf(PARAGRAPH_SEPARATOR) < 0))) return copyOf(bytes);
      const plain = this.text(opts.ascii);
      const escaped = applyFormatJsonEscapes(plain, opts);
      return escaped === plain ? copyOf(bytes) : Buffer.from(escaped, 'utf8');
    } finally {
      this.release();
    }
  }

  /**
   * The answer's bytes as a string. ascii: every byte is < 0x80, and latin1 makes the one-byte string
   * without decoding. Non-ASCII UTF-8 beyond a few hundred bytes goes through UTF-16: ICU's transcoding is
   * many times faster than V8's UTF-8 decoder on Cyrillic.
   */
  private text(ascii: boolean): string {
    if (ascii) return this.bytes.toString('latin1', 0, this.written);
    if (this.hasNonAscii && this.written > 256)
      return transcode(this.bytes.subarray(0, this.written), 'utf8', 'utf16le').toString('utf16le');
    return this.bytes.toString('utf8', 0, this.written);
  }

  private writeAnswer(root: unknown, opts: JsonOptions): void {
    this.written = 0;
    this.hasNonAscii = false;
    try {
      this.writeValue(root, opts.formatversion, opts.pretty ? '\n' : '', opts.ascii);
    } catch (e) {
      this.release();
      throw e;
    }
  }

  /** one huge answer does not pin its buffer */
  private release(): void {
    if (this.bytes.length > MAX_KEPT_BYTES) {
      this.bytes = Buffer.allocUnsafe(INITIAL_BYTES);
      this.view = viewOf(this.bytes);
    }
  }

  /** room for `count` more bytes */
  private reserve(count: number): void {
    if (this.written + count <= this.bytes.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.written + count, 2 * this.bytes.length));
    this.bytes.copy(next, 0, 0, this.written);
    this.bytes = next;
    this.view = viewOf(next);
  }

  private writeByte(byte: number): void {
    this.reserve(1);
    this.bytes[this.written++] = byte;
  }

  /** A string known to be ASCII (separators, numbers, escaped keys). */
  private writeAscii(ascii: string): void {
    const length = ascii.length;
    this.reserve(length);
    const buf = this.bytes;
    let at = this.written;
    for (let i = 0; i < length; i++) buf[at++] = ascii.charCodeAt(i);
    this.written = at;
  }

  /**
   * A non-negative 31-bit integer's digits (counts, ids, sizes: most numbers of an answer) straight into the
   * answer: String(v) made a string per number. -0 prints "0", as String(-0).
   */
  private writeUint(value: number): void {
    this.reserve(10);
    const buf = this.bytes;
    let at = this.written;
    if (value < 10) {
      buf[at] = 48 + value;
      this.written = at + 1;
      return;
    }
    let digits = 1;
    for (let rest = value; rest >= 10; rest = (rest / 10) | 0) digits++;
    at += digits;
    this.written = at;
    for (let rest = value; ; ) {
      const quotient = (rest / 10) | 0;
      buf[--at] = 48 + rest - quotient * 10;
      if (quotient === 0) break;
      rest = quotient;
    }
  }

  /** Any string, as UTF-8 (its ASCII head copied here, the rest encoded natively). */
  private writeUtf8(text: string): void {
    const length = text.length;
    this.reserve(3 * length);
    const buf = this.bytes;
    let at = this.written;
    for (let i = 0; i < length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x80) {
        // i is the first non-ASCII unit: a surrogate pair is never cut
        this.hasNonAscii = true;
        this.written = at + buf.write(i === 0 ? text : text.slice(i), at, 'utf8');
        return;
      }
      buf[at++] = unit;
    }
    this.written = at;
  }

  /**
   * JSON.stringify(text) followed by PHP json_encode's default escaping of every non-ASCII UTF-16 unit as
   * lowercase `\uXXXX` (astral characters as their surrogate pair), in one pass over the string's units
   * into the answer's bytes. Printable ASCII is tested first: it is most units of most answers.
   */
  private writeQuotedAscii(text: string): void {
    const length = text.length;
    if (length > 64 && length <= RECENT_MAX_LENGTH) {
      const recent = this.recentIndex(text);
      if (recent >= 0) {
        const bytes = this.recentBytes[recent]!;
        this.reserve(bytes.length);
        this.bytes.set(bytes, this.written);
        this.written += bytes.length;
        return;
      }
      const start = this.written;
      this.writeQuotedAsciiUnits(text, length);
      this.remember(text, start);
      return;
    }
    this.writeQuotedAsciiUnits(text, length);
  }

  private recentIndex(text: string): number {
    for (let i = 0; i < RECENT_COUNT; i++) if (this.recentStrings[i] === text) return i;
    return -1;
  }

  private remember(text: string, start: number): void {
    this.recentStrings[this.recentNext] = text;
    this.recentBytes[this.recentNext] = Uint8Array.prototype.slice.call(this.bytes, start, this.written);
    this.recentNext = (this.recentNext + 1) % RECENT_COUNT;
  }

  private writeQuotedAsciiUnits(text: string, length: number): void {
    this.reserve(2 + 6 * length);
    const buf = this.bytes;
    const view = this.view;
    let at = this.written;
    buf[at++] = 34;
    let i = 0;
    // a long head of printable ASCII without quote or backslash (messages, URLs) is copied natively; the
    // search and the native call cost more than the loop below over a title or a timestamp
    if (length > 64 && text.charCodeAt(0) < 0x80) {
      const stop = text.search(NOT_PLAIN);
      const plain = stop === -1 ? length : stop;
      if (plain > 64) {
        at += buf.write(text, at, plain, 'latin1');
        i = plain;
      }
    }
    for (; i < length; i++) {
      const unit = text.charCodeAt(i);
      if (unit >= 0x20 && unit < 0x80) {
        if (unit === 34 || unit === 92) buf[at++] = 92;
        buf[at++] = unit;
        continue;
      }
      at = writeEscapedUnit(buf, view, at, unit);
    }
    buf[at++] = 34;
    this.written = at;
  }

  /**
   * writeQuotedAsciiUnits of a DB key in its text form: every '_' written as ' ' (a loop of its own: the
   * test is not paid by every other string)
   */
  private writeSpacedAsciiUnits(dbKey: string): void {
    const length = dbKey.length;
    this.reserve(2 + 6 * length);
    const buf = this.bytes;
    const view = this.view;
    let at = this.written;
    buf[at++] = 34;
    for (let i = 0; i < length; i++) {
      const unit = dbKey.charCodeAt(i);
      if (unit < 0x20 || unit >= 0x80) at = writeEscapedUnit(buf, view, at, unit);
      else if (unit === 95) buf[at++] = 32;
      else {
        if (unit === 34 || unit === 92) buf[at++] = 92;
        buf[at++] = unit;
      }
    }
    buf[at++] = 34;
    this.written = at;
  }

  private writeKey(key: string, ascii: boolean, pretty: boolean): void {
    // a short key of printable ASCII without quote or backslash (nearly every key) is copied as it is read:
    // cheaper than finding its bytes in the cache
    const length = key.length;
    if (length <= 24) {
      this.reserve(length + 4);
      const buf = this.bytes;
      let at = this.written;
      buf[at++] = 34;
      let i = 0;
      for (; i < length; i++) {
        const unit = key.charCodeAt(i);
        if (unit < 0x20 || unit >= 0x7f || unit === 34 || unit === 92) break;
        buf[at++] = unit;
      }
      if (i === length) {
        buf[at++] = 34;
        buf[at++] = 58;
        if (pretty) buf[at++] = 32;
        this.written = at;
        return;
      }
    }
    this.writeCachedKey(key, ascii, pretty);
  }

  /** any other key: its escaped bytes, made once (bounded) */
  private writeCachedKey(key: string, ascii: boolean, pretty: boolean): void {
    const form = (ascii ? 1 : 0) + (pretty ? 2 : 0);
    let keyBytes: Uint8Array | undefined;
    if (key === this.lastKey && form === this.lastKeyForm) keyBytes = this.lastKeyBytes;
    else {
      keyBytes = this.keyCaches[form]!.get(key);
      if (keyBytes !== undefined) {
        this.lastKey = key;
        this.lastKeyForm = form;
        this.lastKeyBytes = keyBytes;
      }
    }
    if (keyBytes === undefined) {
      const cache = this.keyCaches[form]!;
      const start = this.written;
      if (ascii) this.writeQuotedAscii(key);
      else this.writeUtf8(JSON.stringify(key));
      this.writeAscii(pretty ? ': ' : ':');
      keyBytes = Uint8Array.prototype.slice.call(this.bytes, start, this.written);
      if (cache.size < 4096) cache.set(key, keyBytes);
      return;
    }
    const length = keyBytes.length;
    this.reserve(length);
    const buf = this.bytes;
    const at = this.written;
    for (let i = 0; i < length; i++) buf[at + i] = keyBytes[i]!;
    this.written = at + length;
  }

  /**
   * One member of an object, after a comma unless it is the first written: MEMBER_SKIPPED (undefined, or
   * fv1's false), MEMBER_CONTENT (the content member, written last by the caller) or MEMBER_WRITTEN.
   */
  private writeMember(
    key: string,
    item: unknown,
    fv: 1 | 2,
    indent: string,
    ascii: boolean,
    bcBools: readonly string[] | undefined,
    contentKey: string | undefined,
    empty: boolean,
  ): number {
    if (item === undefined) return MEMBER_SKIPPED;
    const bcBool = bcBools !== undefined && typeof item === 'boolean' && bcBools.includes(key);
    if (!bcBool) {
      if (fv === 1 && item === false) return MEMBER_SKIPPED;
      if (key === contentKey) return MEMBER_CONTENT;
    }
    if (!empty) this.writeByte(44);
    if (indent !== '') this.writeAscii(indent);
    this.writeKey(key, ascii, indent !== '');
    if (bcBool) this.writeAscii(item ? 'true' : 'false');
    else this.writeValue(item, fv, indent, ascii);
    return MEMBER_WRITTEN;
  }

  /**
   * One node as JSON, into the answer's bytes. Objects apply the fv1 transform on the way (false and
   * undefined members dropped, the content member renamed '*' and written last); BCarray maps are lists in
   * fv2. `newline` is '' when compact, else the line break and indentation the node's closing bracket
   * stands after.
   */
  private writeValue(value: unknown, fv: 1 | 2, newline: string, ascii: boolean): void {
    switch (typeof value) {
      case 'string':
        if (ascii) this.writeQuotedAscii(value);
        else this.writeUtf8(JSON.stringify(value));
        return;
      case 'number':
        if ((value | 0) === value && value >= 0) this.writeUint(value);
        else this.writeAscii(Number.isFinite(value) ? String(value) : '0');
        return;
      case 'boolean':
        this.writeAscii(fv === 1 ? '""' : value ? 'true' : 'false');
        return;
      case 'bigint':
        this.writeAscii(value.toString());
        return;
      case 'object':
        break;
      default:
        this.writeAscii('null');
        return;
    }
    if (value === null) {
      this.writeAscii('null');
      return;
    }
    // one test for both kinds of node the writer prints itself (every object node pays it)
    if (value instanceof WriterNode) {
      if (value instanceof PrintedJson) this.writePrinted(value, fv, newline, ascii);
      else if (newline !== '')
        this.writeValue(value instanceof KeyedRowList ? value.node() : (value as RowList).objects(), fv, newline, ascii);
      else if (value instanceof KeyedRowList) this.writeKeyedRows(value, fv, ascii);
      else this.writeRows(value as RowList, fv, ascii);
      return;
    }
    const indent = newline === '' ? '' : newline + '    ';
    // the array types only change fv2's output (a symbol read on every node of every shape is not free)
    const arrayType = fv === 2 ? (value as { [ARRAY_TYPE]?: string })[ARRAY_TYPE] : undefined;
    if (fv === 2 && arrayType === 'BCassoc' && Array.isArray(value)) {
      // fv2 prints a BCassoc list as an object keyed by index
      const byIndex = new Map<string, unknown>();
      value.forEach((item, i) => byIndex.set(String(i), item));
      this.writeValue(byIndex, fv, newline, ascii);
      return;
    }
    if (Array.isArray(value) || (fv === 2 && arrayType === 'BCarray'))
      this.writeList(Array.isArray(value) ? value : ksortedValues(value as Map<string, unknown>), fv, newline, indent, ascii);
    else this.writeObject(value, fv, newline, indent, ascii);
  }

  private writeList(items: unknown[], fv: 1 | 2, newline: string, indent: string, ascii: boolean): void {
    this.writeByte(91); // [
    let empty = true;
    for (let n = 0; n < items.length; n++) {
      const item = items[n];
      if (fv === 1 && (item === false || item === undefined)) continue;
      if (!empty) this.writeByte(44);
      if (indent !== '') this.writeAscii(indent);
      this.writeValue(item, fv, indent, ascii);
      empty = false;
    }
    if (!empty && newline !== '') this.writeAscii(newline);
    this.writeByte(93); // ]
  }

  private writeObject(value: object, fv: 1 | 2, newline: string, indent: string, ascii: boolean): void {
    const contentKey = fv === 1 ? (value as { [CONTENT]?: string })[CONTENT] : undefined;
    const bcBools = fv === 1 ? (value as { [BC_BOOLS]?: readonly string[] })[BC_BOOLS] : undefined;
    this.writeByte(123); // {
    let empty = true;
    let content: unknown;
    if (value instanceof Map) {
      for (const member of value as Map<string, unknown>) {
        const written = this.writeMember(member[0], member[1], fv, indent, ascii, bcBools, contentKey, empty);
        if (written === MEMBER_CONTENT) content = member[1];
        else if (written === MEMBER_WRITTEN) empty = false;
      }
    } else {
      // own members only (Object.keys' array per object cost more than the member it wrote)
      for (const key in value) {
        if (!Object.hasOwn(value, key)) continue;
        const item = (value as Record<string, unknown>)[key];
        const written = this.writeMember(key, item, fv, indent, ascii, bcBools, contentKey, empty);
        if (written === MEMBER_CONTENT) content = item;
        else if (written === MEMBER_WRITTEN) empty = false;
      }
    }
    if (content !== undefined && content !== false) {
      if (!empty) this.writeByte(44);
      if (indent !== '') this.writeAscii(indent);
      this.writeAscii('"*"');
      this.writeAscii(newline === '' ? ':' : ': ');
      this.writeValue(content, fv, indent, ascii);
      empty = false;
    }
    if (!empty && newline !== '') this.writeAscii(newline);
    this.writeByte(125); // }
  }

  /** A node printed already: copied when this answer is its form (compact, and ASCII or not as it is). */
  private writePrinted(node: PrintedJson, fv: 1 | 2, newline: string, ascii: boolean): void {
    if (newline !== '' || node.form !== (ascii ? 'ascii' : 'utf8')) {
      this.writeValue(node.value(), fv, newline, ascii);
      return;
    }
    const json = node.json;
    this.reserve(json.length);
    if (typeof json === 'string') {
      this.written += this.bytes.write(json, this.written, 'latin1');
    } else {
      this.bytes.set(json, this.written);
      this.written += json.length;
      this.hasNonAscii = true;
    }
  }

  /**
   * A RowList, compact: each row as the object it stands for would print (writeObject), with the members'
   * quoted keys made once per shape and form. fv1 prints the content member last, as '*'.
   */
  private writeRows(list: RowList, fv: 1 | 2, ascii: boolean): void {
    const keys = this.printedKeys(list.shape, fv, ascii);
    const width = list.shape.keys.length;
    this.forgetRowStrings(list.shape);
    const valueCount = list.values.length;
    this.writeByte(91); // [
    for (let i = 0; i < valueCount; i += width) {
      if (i !== 0) this.writeByte(44);
      this.writeRow(list, i, keys, fv, ascii);
    }
    this.writeByte(93); // ]
  }

  /**
   * A KeyedRowList, compact: fv1 an object of the rows under their keys, in the order added; fv2 a list of
   * the rows in key order (in order already, as a generator's pages mostly are, they are not sorted)
   */
  private writeKeyedRows(list: KeyedRowList, fv: 1 | 2, ascii: boolean): void {
    const keys = this.printedKeys(list.shape, fv, ascii);
    const width = list.shape.keys.length;
    this.forgetRowStrings(list.shape);
    const rowKeys = list.keys;
    const rowCount = rowKeys.length;
    if (fv === 1) {
      this.writeByte(123); // {
      for (let row = 0; row < rowCount; row++) {
        if (row !== 0) this.writeByte(44);
        this.writeByte(34);
        this.writeUint(rowKeys[row]!);
        this.reserve(2);
        this.bytes[this.written++] = 34;
        this.bytes[this.written++] = 58;
        this.writeRow(list, row * width, keys, fv, ascii);
      }
      this.writeByte(125); // }
      return;
    }
    let order: number[] | null = null;
    for (let row = 1; row < rowCount; row++) {
      if (rowKeys[row - 1]! > rowKeys[row]!) {
        order = rowKeys.map((_key, i) => i).sort((a, b) => rowKeys[a]! - rowKeys[b]!);
        break;
      }
    }
    this.writeByte(91); // [
    for (let row = 0; row < rowCount; row++) {
      if (row !== 0) this.writeByte(44);
      this.writeRow(list, (order === null ? row : order[row]!) * width, keys, fv, ascii);
    }
    this.writeByte(93); // ]
  }

  /** no string remembered for the members of the rows about to be written */
  private forgetRowStrings(shape: RowShape): void {
    const strings = this.rowStrings;
    for (let i = 0; i < shape.keys.length; i++) strings[i] = undefined;
    this.rowStringsShape = shape;
  }

  /** the row of a RowList whose values start at `start`, as the object it stands for (writeObject) */
  private writeRow(list: RowList, start: number, keys: Uint8Array[], fv: 1 | 2, ascii: boolean): void {
    const shape = list.shape;
    const order = fv === 1 ? shape.fv1Order : null;
    const values = list.values;
    const width = shape.keys.length;
    if (this.rowStringsShape !== shape) this.forgetRowStrings(shape);
    this.writeByte(123); // {
    let empty = true;
    for (let column = 0; column < width; column++) {
      const index = order === null ? column : order[column]!;
      const item = values[start + index];
      if (item === undefined || (fv === 1 && item === false)) continue;
      const keyBytes = keys[index]!;
      const length = keyBytes.length;
      this.reserve(length + 1);
      const buf = this.bytes;
      let at = this.written;
      if (!empty) buf[at++] = 44;
      for (let i = 0; i < length; i++) buf[at++] = keyBytes[i]!;
      this.written = at;
      empty = false;
      if (typeof item === 'number' && (item | 0) === item && item >= 0) this.writeUint(item);
      else if (typeof item === 'string') {
        if (this.rowStrings[index] === item) {
          const from = this.rowStringStarts[index]!;
          const to = this.rowStringEnds[index]!;
          this.reserve(to - from);
          // a short value (a type, an action, a timestamp) is copied here: copyWithin's call costs more
          if (to - from > 48) this.bytes.copyWithin(this.written, from, to);
          else {
            const bytes = this.bytes;
            let out = this.written;
            for (let i = from; i < to; i++) bytes[out++] = bytes[i]!;
          }
          this.written += to - from;
          continue;
        }
        const begin = this.written;
        if (shape.spaced[index]) {
          if (ascii) this.writeSpacedAsciiUnits(item);
          else this.writeUtf8(JSON.stringify(item.replace(/_/g, ' ')));
        } else if (ascii) this.writeQuotedAscii(item);
        else this.writeUtf8(JSON.stringify(item));
        this.rowStrings[index] = item;
        this.rowStringStarts[index] = begin;
        this.rowStringEnds[index] = this.written;
      } else this.writeValue(item, fv, '', ascii);
    }
    this.writeByte(125); // }
  }

  /** a shape's quoted keys with their colon, compact, for this form (fv1's content member as '*') */
  private printedKeys(shape: RowShape, fv: 1 | 2, ascii: boolean): Uint8Array[] {
    const form = (fv === 1 ? 0 : 2) + (ascii ? 1 : 0);
    let keys = shape.printed[form];
    if (keys === undefined) {
      keys = [];
      for (let j = 0; j < shape.keys.length; j++) {
        const start = this.written;
        if (fv === 1 && j === shape.contentIndex) this.writeAscii('"*":');
        else this.writeKey(shape.keys[j]!, ascii, false);
        keys.push(Uint8Array.prototype.slice.call(this.bytes, start, this.written));
        this.written = start;
      }
      shape.printed[form] = keys;
    }
    return keys;
  }
}

/** The answer's bytes in a buffer of their own (Buffer.from would zero-fill the new memory before copying into it). */
function copyOf(bytes: Buffer): Buffer {
  const out = Buffer.allocUnsafeSlow(bytes.length);
  out.set(bytes);
  return out;
}

function viewOf(buffer: Buffer): DataView {
  return new DataView(buffer.buffer, buffer.byteOffset, buffer.length);
}

/**
 * A unit outside printable ASCII, at `at`, as JSON.stringify's short form of a control character or as
 * `\uXXXX`; returns the offset after it. Room for six bytes is reserved by the caller.
 */
function writeEscapedUnit(buf: Buffer, view: DataView, at: number, unit: number): number {
  if (unit === 8 || unit === 9 || unit === 10 || unit === 12 || unit === 13) {
    buf[at] = 92;
    buf[at + 1] = unit === 8 ? 98 : unit === 9 ? 116 : unit === 10 ? 110 : unit === 12 ? 102 : 114;
    return at + 2;
  }
  view.setUint32(at, ESCAPE_PREFIX_AND_HIGH_BYTE_DIGITS[unit >> 8]!, true);
  view.setUint16(at + 4, LOW_BYTE_DIGITS[unit & 255]!, true);
  return at + 6;
}

/** One request writes one answer at a time: one writer serves them all, its buffer and caches reused. */
const writer = new JsonWriter();
