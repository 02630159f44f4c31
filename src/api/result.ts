/**
 * The result tree and its output metadata, as MediaWiki's ApiResult keeps it: one tree that the
 * formatters turn into formatversion 1 (content under '*', booleans as "" or absent, pages as an object)
 * or formatversion 2 (content under its own name, real booleans, pages as an array).
 *
 * Nodes are plain objects, arrays, Maps (ordered objects whose keys may look like integers — JS objects
 * would reorder those) and primitives. Metadata rides on symbol-keyed properties, which JSON never sees.
 */

/** Name of the key holding the node's "content" value; fv1 renames it to '*' and moves it last. */
export const CONTENT = Symbol('content');
/** 'BCarray': an object in fv1, a list of its values in fv2 (query.pages). */
export const ARRAY_TYPE = Symbol('arrayType');

/**
 * Keys whose boolean values formatversion 1 prints as JSON booleans instead of ""/absent
 * (ApiResult::META_BC_BOOLS: siteinfo's defaultoptions, general.variantarticlepath).
 */
export const BC_BOOLS = Symbol('bcBools');

export type Node = unknown;
export type Obj = Record<string, unknown> & { [CONTENT]?: string; [ARRAY_TYPE]?: 'BCarray'; [BC_BOOLS]?: readonly string[] };

/** A list that fv1 prints as an array and fv2 as an object keyed 0, 1, … (ApiResult's 'BCassoc'). */
export function bcAssoc<T>(items: T[]): T[] {
  (items as T[] & { [ARRAY_TYPE]?: string })[ARRAY_TYPE] = 'BCassoc';
  return items;
}

/** Build an object whose `key` is its content value, e.g. {size: 3, category: 'Name'} in fv2, {size: 3, '*': 'Name'} in fv1. */
export function withContent<T extends Record<string, unknown>>(obj: T, key: string, value: string): T {
  (obj as Record<string, unknown>)[key] = value;
  (obj as Obj)[CONTENT] = key;
  return obj;
}

/** An ordered map that fv1 prints as an object and fv2 as an array of its values. */
export function bcArray(): Map<string, unknown> & { [ARRAY_TYPE]?: 'BCarray' } {
  const m = new Map<string, unknown>() as Map<string, unknown> & { [ARRAY_TYPE]?: 'BCarray' };
  m[ARRAY_TYPE] = 'BCarray';
  return m;
}

/** A node the JSON writer prints by a way of its own: PrintedJson, RowList. */
export abstract class WriterNode {}

/**
 * A node printed already (a precomputed answer the store keeps): compact JSON in one form, `ascii` (every
 * non-ASCII character escaped: the text) or `utf8` (the bytes). The JSON writer copies it when it prints
 * that form, and prints `value()` otherwise. Its value must print the same in both formatversions (lists
 * and plain objects of strings and numbers: no booleans, content members or array types).
 */
export class PrintedJson extends WriterNode {
  constructor(
    readonly form: 'ascii' | 'utf8',
    readonly json: string | Uint8Array,
  ) {
    super();
  }

  value(): unknown {
    return JSON.parse(
      typeof this.json === 'string'
        ? this.json
        : Buffer.from(this.json.buffer, this.json.byteOffset, this.json.byteLength).toString('utf8'),
    );
  }
}

/**
 * The members of the objects of a RowList, in the order a module adds them, and which of them is the
 * content member (fv1 prints it last, as '*'). Made once per module: the JSON writer keeps each member's
 * quoted key here, per output form.
 */
export class RowShape {
  readonly contentIndex: number;
  /** the members' indexes in fv1's order: the content member last */
  readonly fv1Order: readonly number[];
  /** the writer's quoted keys with their colon, by form (formatversion and ASCII escaping) */
  readonly printed: Array<Uint8Array[] | undefined> = [undefined, undefined, undefined, undefined];

  /**
   * per key: a string value is a DB key (or prefixed DB key) printed in its text form, underscores as
   * spaces (Title::getText), made as it is written rather than as a string of its own per item
   */
  readonly spaced: readonly boolean[];

  constructor(
    readonly keys: readonly string[],
    readonly contentKey?: string,
    spacedKeys: readonly string[] = [],
  ) {
    this.spaced = keys.map((k) => spacedKeys.includes(k));
    if (spacedKeys.some((k) => !keys.includes(k))) throw new Error(`RowShape: spaced members ${spacedKeys.join(', ')} are not all keys`);
    this.contentIndex = contentKey === undefined ? -1 : keys.indexOf(contentKey);
    if (contentKey !== undefined && this.contentIndex < 0) throw new Error(`RowShape: content member ${contentKey} is not a key`);
    const order = keys.map((_k, i) => i).filter((i) => i !== this.contentIndex);
    if (this.contentIndex >= 0) order.push(this.contentIndex);
    this.fv1Order = order;
  }
}

/**
 * A list of objects with the same members (a list module's items), kept as their values, row after
 * row: no object per item for the module to build and the writer to walk. It prints exactly as the
 * list of those objects would (`objects()`): an undefined value is a member the item does not have, and
 * fv1 drops false members as it does an object's. Values are what an object's members may be; a spaced
 * member's string is its DB key form (its size is the same: '_' and ' ' are one byte each).
 */
export class RowList extends WriterNode {
  /** `shape.keys.length` values per row */
  readonly values: unknown[] = [];

  constructor(readonly shape: RowShape) {
    super();
  }

  get length(): number {
    return this.values.length / this.shape.keys.length;
  }

  /** the items as plain objects (members in shape order; undefined values left out; spaced members' text) */
  objects(): Obj[] {
    const { keys, contentKey, spaced } = this.shape;
    const width = keys.length;
    const out: Obj[] = [];
    for (let i = 0; i < this.values.length; i += width) {
      const o: Obj = {};
      for (let j = 0; j < width; j++) {
        const v = this.values[i + j];
        if (v !== undefined) o[keys[j]!] = spaced[j] && typeof v === 'string' ? v.replace(/_/g, ' ') : v;
      }
      if (contentKey !== undefined) o[CONTENT] = contentKey;
      out.push(o);
    }
    return out;
  }
}

/**
 * A RowList printed as query.pages is (a BCarray keyed by page id): formatversion 1 an object whose
 * members are the rows under their keys, in the order added; formatversion 2 the list of the rows in
 * the order of their keys (ApiResult's ksort). Keys are non-negative integers (the page ids of existing
 * pages), one per row.
 */
export class KeyedRowList extends RowList {
  readonly keys: number[] = [];

  /** the map it stands for (the pretty printer's and any reader's) */
  node(): Map<string, unknown> {
    const m = bcArray();
    const items = this.objects();
    for (let i = 0; i < items.length; i++) m.set(String(this.keys[i]), items[i]);
    return m;
  }
}

/** $wgAPIMaxResultSize's running count (result-size.ts ResultSizeBudget, which reads RowList) */
export interface SizeBudget {
  fits(value: unknown): boolean;
  fitsValues(values: readonly unknown[], start: number): boolean;
}

/**
 * The top level of a response. Keys keep insertion order, and some are added "on top" (warnings,
 * continuation, batchcomplete), exactly as MediaWiki's ADD_ON_TOP does.
 */
export class ApiResult {
  private top = new Map<string, unknown>();
  /** $wgAPIMaxResultSize accounting (set by the request) */
  sizeBudget: SizeBudget | null = null;

  /**
   * ApiResult::addValue's size check for a value a module is about to add: false (with the truncation
   * warning) when it would take the answer past $wgAPIMaxResultSize; the module then continues from it.
   */
  fits(value: unknown): boolean {
    return this.sizeBudget === null || this.sizeBudget.fits(value);
  }

  /** fits for a row of a RowList, pushed already: its values from `start` to the end */
  fitsValues(values: readonly unknown[], start: number): boolean {
    return this.sizeBudget === null || this.sizeBudget.fitsValues(values, start);
  }

  private customRoot: unknown[] | undefined;

  /**
   * Print this array as the whole response instead of the top-level object (ApiOpenSearch's JSON form);
   * warnings and everything else set on the result are then not printed.
   */
  setRoot(value: unknown[]): void {
    this.customRoot = value;
  }

  get root(): unknown[] | undefined {
    return this.customRoot;
  }

  get(key: string): unknown {
    return this.top.get(key);
  }

  has(key: string): boolean {
    return this.top.has(key);
  }

  set(key: string, value: unknown): void {
    this.top.set(key, value);
  }

  prepend(key: string, value: unknown): void {
    const next = new Map<string, unknown>([[key, value]]);
    for (const [k, v] of this.top) if (k !== key) next.set(k, v);
    this.top = next;
  }

  delete(key: string): void {
    this.top.delete(key);
  }

  /** Get or create a plain object at top[key]. */
  object(key: string): Obj {
    let v = this.top.get(key) as Obj | undefined;
    if (v === undefined) {
      v = {};
      this.top.set(key, v);
    }
    return v;
  }

  /** Get or create the `query` object's member `name` as an array (list modules append their items). */
  queryList(name: string): unknown[] {
    const q = this.object('query');
    let list = q[name] as unknown[] | undefined;
    if (list === undefined) {
      list = [];
      q[name] = list;
    }
    return list;
  }

  /** Get or create the `query` object's member `name` as a RowList of this shape. */
  queryRows(name: string, shape: RowShape): RowList {
    const q = this.object('query');
    let list = q[name] as RowList | undefined;
    if (list === undefined) {
      list = new RowList(shape);
      q[name] = list;
    }
    return list;
  }

  clear(): void {
    this.top = new Map();
  }

  entries(): Map<string, unknown> {
    return this.top;
  }
}
