/**
 * Pass 2's results crossing from an analysis worker to the main thread as a few flat buffers instead of
 * a structured clone of PageResult objects. A clone writes every property name of every object and the
 * main thread rebuilds the objects property by property: CPU on both threads for every page, with the
 * garbage on both. Here the worker writes the strings as UTF-16 into one
 * buffer (lossless for any JS string, lone surrogates included), the numbers into a Float64Array and the kinds of the few untyped values into a Uint8Array;
 * the three are transferred, not copied, and the main thread reads them back in the same order.
 *
 * Strings come back as fresh strings (Buffer.toString), never slices of a chunk-sized string: a slice
 * kept by a long-lived map (a property key, a title) would keep its whole chunk's text alive.
 *
 * Hook results that are flat arrays of primitives (the semantic hook's operations) or null are encoded
 * like the rest; any other value (a plain object, a Map) goes in `extra` and is cloned as before.
 */
import type { LinkRows, PageAnalyzer, PageResult } from './analysis.js';
import type { PageAnalysis } from './hooks.js';

export interface EncodedResults {
  count: number;
  bytes: Uint8Array;
  /** byte length of each string, in order */
  lengths: Uint32Array;
  nums: Float64Array;
  kinds: Uint8Array;
  extra: unknown[];
}

const K_STRING = 0;
const K_NUMBER = 1;
const K_NULL = 2;
const K_UNDEFINED = 3;
const K_TRUE = 4;
const K_FALSE = 5;
const K_ARRAY = 6;
const K_EXTRA = 7;

const F_REDIRECT = 1;
const F_LINKS = 2;
const F_SEARCH = 4;
const F_INLINE_QUERIES = 8;
const F_TEXT = 16;
const F_DEFAULT_SORT = 32;

/** a growable array of numbers of one typed-array kind */
class Numbers<T extends Float64Array | Uint32Array | Uint8Array> {
  n = 0;
  constructor(
    public a: T,
    private readonly make: (size: number) => T,
  ) {}

  push(v: number): void {
    if (this.n === this.a.length) {
      const b = this.make(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }

  /** the filled part, on a buffer of its own (transferable) */
  done(): T {
    return this.a.slice(0, this.n) as T;
  }
}

class Encoder {
  private buf: Buffer = Buffer.allocUnsafeSlow(1 << 20);
  private pos = 0;
  readonly lengths = new Numbers(new Uint32Array(1 << 14), (n) => new Uint32Array(n));
  readonly nums = new Numbers(new Float64Array(1 << 14), (n) => new Float64Array(n));
  readonly kinds = new Numbers(new Uint8Array(1 << 12), (n) => new Uint8Array(n));
  readonly extra: unknown[] = [];

  str(s: string): void {
    if (this.pos + s.length * 2 > this.buf.length) {
      const b = Buffer.allocUnsafeSlow(Math.max(this.buf.length * 2, this.pos + s.length * 2));
      this.buf.copy(b, 0, 0, this.pos);
      this.buf = b;
    }
    const n = this.buf.write(s, this.pos, 'utf16le');
    this.pos += n;
    this.lengths.push(n);
  }

  num(v: number): void {
    this.nums.push(v);
  }

  strs(list: readonly string[]): void {
    this.num(list.length);
    for (const s of list) this.str(s);
  }

  any(v: unknown): void {
    switch (typeof v) {
      case 'string':
        this.kinds.push(K_STRING);
        this.str(v);
        return;
      case 'number':
        this.kinds.push(K_NUMBER);
        this.num(v);
        return;
      case 'boolean':
        this.kinds.push(v ? K_TRUE : K_FALSE);
        return;
      case 'undefined':
        this.kinds.push(K_UNDEFINED);
        return;
    }
    if (v === null) this.kinds.push(K_NULL);
    else if (
      Array.isArray(v) &&
      v.every((x) => x === null || (typeof x !== 'object' && typeof x !== 'function' && typeof x !== 'bigint' && typeof x !== 'symbol'))
    ) {
      this.kinds.push(K_ARRAY);
      this.num(v.length);
      for (const x of v) this.any(x);
    } else {
      this.kinds.push(K_EXTRA);
      this.extra.push(v);
    }
  }

  done(count: number): EncodedResults {
    const bytes = new Uint8Array(this.pos);
    bytes.set(this.buf.subarray(0, this.pos));
    return { count, bytes, lengths: this.lengths.done(), nums: this.nums.done(), kinds: this.kinds.done(), extra: this.extra };
  }
}

/**
 * A chunk's results encoded one page at a time, as each is analysed: a page's result objects are garbage as
 * soon as it is added, instead of living until the whole chunk is done. Held for a chunk, they outlived the
 * young generation's collections and were promoted (on the analysis worker, and on the main thread, which
 * decoded whole chunks on arrival), to be marked and swept by full collections.
 */
export class ResultEncoder {
  private readonly e = new Encoder();
  count = 0;

  add(r: PageResult): void {
    encodeOne(this.e, r);
    this.count++;
  }

  /** the encoded chunk, and what postMessage should transfer */
  finish(): { encoded: EncodedResults; transfer: ArrayBuffer[] } {
    const encoded = this.e.done(this.count);
    return {
      encoded,
      transfer: [
        encoded.bytes.buffer as ArrayBuffer,
        encoded.lengths.buffer as ArrayBuffer,
        encoded.nums.buffer as ArrayBuffer,
        encoded.kinds.buffer as ArrayBuffer,
      ],
    };
  }
}

/**
 * A chunk analysed and encoded page by page, and what postMessage should transfer: the analysis workers'
 * answer, and the main thread's own chunks while they wait their turn.
 */
export function encodeChunk(
  analyzer: Pick<PageAnalyzer, 'chunkInto'>,
  afterId: number,
  limit: number,
): { encoded: EncodedResults; transfer: ArrayBuffer[] } {
  const e = new ResultEncoder();
  analyzer.chunkInto(afterId, limit, (r) => e.add(r));
  return e.finish();
}

function encodeOne(e: Encoder, r: PageResult): void {
  const a = r.analysis;
  const flags =
    (a.isRedirect ? F_REDIRECT : 0) |
    (r.links !== null ? F_LINKS : 0) |
    (r.search !== undefined ? F_SEARCH : 0) |
    (r.inlineQueries ? F_INLINE_QUERIES : 0) |
    (r.text !== undefined ? F_TEXT : 0) |
    (a.defaultSort !== undefined ? F_DEFAULT_SORT : 0);
  e.num(r.page.id);
  e.num(r.page.ns);
  e.num(flags);
  e.str(r.page.dbkey);
  e.str(r.page.latestTimestamp);
  if (a.defaultSort !== undefined) e.str(a.defaultSort);
  const l = r.links;
  if (l !== null) {
    e.num(l.pages.length);
    for (let i = 0; i < l.pages.length; i += 2) {
      e.num(l.pages[i] as number);
      e.str(l.pages[i + 1] as string);
    }
    e.strs(l.files);
    e.num(l.templates.length);
    for (let i = 0; i < l.templates.length; i += 2) {
      e.num(l.templates[i] as number);
      e.str(l.templates[i + 1] as string);
    }
    e.strs(l.categories);
    e.strs(l.langs);
    e.strs(l.external);
    e.strs(l.interwikis);
    e.strs(l.props);
  } else e.strs(a.categories);
  e.num(r.hooks.length);
  for (const h of r.hooks) e.any(h);
  if (r.text !== undefined) e.str(r.text);
  const s = r.search;
  if (s !== undefined) {
    e.str(s.title);
    e.strs(s.redirects);
    e.str(s.text);
    e.str(s.titleLemmas);
    e.str(s.redirectLemmas);
    e.str(s.textLemmas);
    e.strs(s.lemmaKeys);
  }
}

class Decoder {
  private readonly buf: Buffer;
  private pos = 0;
  private s = 0;
  private n = 0;
  private k = 0;
  private x = 0;

  constructor(private readonly d: EncodedResults) {
    this.buf = Buffer.from(d.bytes.buffer, d.bytes.byteOffset, d.bytes.byteLength);
  }

  str(): string {
    const end = this.pos + this.d.lengths[this.s++];
    const v = this.buf.toString('utf16le', this.pos, end);
    this.pos = end;
    return v;
  }

  num(): number {
    return this.d.nums[this.n++];
  }

  strs(): string[] {
    const n = this.num();
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = this.str();
    return out;
  }

  /** ns, DB key pairs (`count` values) */
  titles(): Array<number | string> {
    const n = this.num();
    const out = new Array<number | string>(n);
    for (let i = 0; i < n; i += 2) {
      out[i] = this.num();
      out[i + 1] = this.str();
    }
    return out;
  }

  any(): unknown {
    switch (this.d.kinds[this.k++]) {
      case K_STRING:
        return this.str();
      case K_NUMBER:
        return this.num();
      case K_NULL:
        return null;
      case K_UNDEFINED:
        return undefined;
      case K_TRUE:
        return true;
      case K_FALSE:
        return false;
      case K_ARRAY: {
        const n = this.num();
        const out = new Array<unknown>(n);
        for (let i = 0; i < n; i++) out[i] = this.any();
        return out;
      }
      case K_EXTRA:
        return this.d.extra[this.x++];
      default:
        throw new Error('pass 2: undecodable analysis results');
    }
  }
}

/**
 * The results of a chunk decoded one at a time, as the writer takes them: each is garbage once written (see
 * ResultEncoder), the chunk waiting its turn as its few flat buffers.
 */
export function* eachResult(d: EncodedResults): Generator<PageResult> {
  const r = new Decoder(d);
  for (let p = 0; p < d.count; p++) {
    const id = r.num();
    const ns = r.num();
    const flags = r.num();
    const dbkey = r.str();
    const latestTimestamp = r.str();
    const defaultSort = flags & F_DEFAULT_SORT ? r.str() : undefined;
    let links: LinkRows | null = null;
    let categories: string[];
    if (flags & F_LINKS) {
      const pages = r.titles();
      const files = r.strs();
      const templates = r.titles();
      const cats = r.strs();
      links = { pages, files, templates, categories: cats, langs: r.strs(), external: r.strs(), interwikis: r.strs(), props: r.strs() };
      // the analysis' categories are the category rows' targets (analysis.ts: the same map, in order)
      categories = [];
      for (let i = 0; i < cats.length; i += 3) categories.push(cats[i]);
    } else categories = r.strs();
    const isRedirect = (flags & F_REDIRECT) !== 0;
    // as analysis.ts makes them: a wikitext page's has defaultSort (maybe undefined), the others' none
    const analysis: PageAnalysis =
      flags & F_LINKS
        ? { pageId: id, ns, dbkey, isRedirect, latestTimestamp, categories, defaultSort }
        : { pageId: id, ns, dbkey, isRedirect, latestTimestamp, categories };
    const hookCount = r.num();
    const hooks = new Array<unknown>(hookCount);
    for (let i = 0; i < hookCount; i++) hooks[i] = r.any();
    const result: PageResult = { page: { id, ns, dbkey, latestTimestamp }, links, analysis, hooks };
    if (flags & F_TEXT) result.text = r.str();
    if (flags & F_SEARCH) {
      result.search = {
        id,
        ns,
        title: r.str(),
        redirects: r.strs(),
        text: r.str(),
        titleLemmas: r.str(),
        redirectLemmas: r.str(),
        textLemmas: r.str(),
        lemmaKeys: r.strs(),
      };
    }
    if (flags & F_INLINE_QUERIES) result.inlineQueries = true;
    yield result;
  }
}
