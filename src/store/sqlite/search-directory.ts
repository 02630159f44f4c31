/**
 * A term's directory of blocks in the top-k postings (search-postings.ts), and the varints both are written
 * in. Per block: its first and last page, its size, its row in search_block, and for each column set a
 * query phrase names (search_df's six), of the block's main namespace pages and of all its pages, the row
 * with the greatest BM25 term frequency part (its weighted count f and row length D): with the mean row
 * length the block was bounded with (the index's, kept per block as the rows and tokens it was reckoned
 * from), `tfPart(f, D, mean)` is the block's bound for any IDF, the very score of its best row while the
 * mean is unchanged (so that ties with the k-th page are seen as ties), and a longer mean now raises any
 * row's part at most by the ratio of the two means.
 *
 * The directory is stored by columns (the spans, the block ids, then each bound series): a query decodes the
 * spans and the one or two series its phrases use, not the twelve.
 */

/** FTS5's bm25() constants */
export const K1 = 1.2;
export const B = 0.75;
/** the weights search.ts gives bm25() for the word columns (title, redirects, text, ltitle, lredirects, ltext) */
export const WEIGHTS = [10.0, 6.0, 1.0, 5.0, 3.0, 0.5];
/** search_index's word columns after ns: title, redirects, text, ltitle, lredirects, ltext */
export const WORD_COLUMNS = 6;
/** search_df's column sets: any of title/redirects/text, title/redirects, text; the same of the lemma columns */
export const DF_SETS = 6;
/** a block's bound series: DF_SETS of its main namespace pages, then DF_SETS of all its pages */
export const BOUNDS = 2 * DF_SETS;
/** a frontier kept at import longer than this is cut: its last point made one dominating the rest */
const MAX_FRONTIER = 8;

/** the word column weights of a search_df column set (0–2 the words' columns, 3–5 the lemmas') */
export function setWeights(set: number): number[] {
  const weights = [0, 0, 0, 0, 0, 0];
  const base = set >= 3 ? 3 : 0;
  const kind = set % 3;
  if (kind !== 2) {
    weights[base] = WEIGHTS[base];
    weights[base + 1] = WEIGHTS[base + 1];
  }
  if (kind !== 1) weights[base + 2] = WEIGHTS[base + 2];
  return weights;
}
/** twice the weights: whole numbers, so that a weighted count is stored as one */
const DOUBLE_WEIGHTS = Array.from({ length: DF_SETS }, (_v, i) => setWeights(i).map((w) => 2 * w));

/** BM25's term frequency part of one phrase on a row: f(k1+1) / (f + k1(1 − b + b·D/avgdl)), as fts5_aux.c. */
export function tfPart(f: number, d: number, avgdl: number): number {
  return (f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * d) / avgdl));
}

// ---------------------------------------------------------------------------------------------------------
// Unsigned LEB128 varints
// ---------------------------------------------------------------------------------------------------------

export class ByteWriter {
  private buf = Buffer.allocUnsafe(512);
  length = 0;

  uint(v: number): void {
    if (this.length + 10 > this.buf.length) {
      const next = Buffer.allocUnsafe(this.buf.length * 2);
      this.buf.copy(next, 0, 0, this.length);
      this.buf = next;
    }
    while (v >= 0x80) {
      this.buf[this.length++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.length++] = v;
  }

  bytes(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.length));
  }
}

/** A reader of LEB128 varints over a blob; `pos` moves past what it reads. */
export class ByteReader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}

  uint(): number {
    const b = this.buf;
    let byte = b[this.pos++];
    if (byte < 0x80) return byte;
    let v = byte & 0x7f;
    let scale = 0x80;
    for (;;) {
      byte = b[this.pos++];
      v += (byte & 0x7f) * scale;
      if (byte < 0x80) return v;
      scale *= 0x80;
    }
  }

  get done(): boolean {
    return this.pos >= this.buf.length;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Bounds
// ---------------------------------------------------------------------------------------------------------

/**
 * Each bound series' frontier over some rows: the (2f, D) points no other row beats in both (a greater
 * weighted count and a row no longer), flat, by growing 2f. The best row under any mean is one of them.
 */
export function frontiers(
  ns: ArrayLike<number>,
  lengths: ArrayLike<number>,
  counts: ArrayLike<number>,
  from: number,
  to: number,
): number[][] {
  const out: number[][] = [];
  for (let k = 0; k < BOUNDS; k++) out.push([]);
  for (let i = from; i < to; i++) {
    const at = i * WORD_COLUMNS;
    for (let set = 0; set < DF_SETS; set++) {
      const w = DOUBLE_WEIGHTS[set];
      let f2 = 0;
      for (let c = 0; c < WORD_COLUMNS; c++) f2 += w[c] * counts[at + c];
      if (f2 === 0) continue;
      addPoint(out[DF_SETS + set], f2, lengths[i]);
      if (ns[i] === 0) addPoint(out[set], f2, lengths[i]);
    }
  }
  for (const f of out) if (f.length > 2 * MAX_FRONTIER) cut(f);
  return out;
}

/** (f2, d) added to a frontier unless a point beats it; the points it beats dropped */
function addPoint(f: number[], f2: number, d: number): void {
  for (let j = 0; j < f.length; j += 2) if (f[j] >= f2 && f[j + 1] <= d) return;
  let w = 0;
  for (let j = 0; j < f.length; j += 2) {
    if (f[j] <= f2 && f[j + 1] >= d) continue;
    f[w++] = f[j];
    f[w++] = f[j + 1];
  }
  f.length = w;
  let at = 0;
  while (at < f.length && f[at] < f2) at += 2;
  f.splice(at, 0, f2, d);
}

/** a frontier of more than MAX_FRONTIER points: the rest made one point beating them all */
function cut(f: number[]): void {
  let f2 = 0;
  let d = Number.MAX_SAFE_INTEGER;
  for (let j = 2 * (MAX_FRONTIER - 1); j < f.length; j += 2) {
    if (f[j] > f2) f2 = f[j];
    if (f[j + 1] < d) d = f[j + 1];
  }
  f.length = 2 * (MAX_FRONTIER - 1);
  f.push(f2, d);
}

/** the frontier's best point under a mean row length, [2f, D] ([0, 0] when it has none) */
function best(f: readonly number[], mean: number): [number, number] {
  let f2 = 0;
  let d = 0;
  let top = -1;
  for (let j = 0; j < f.length; j += 2) {
    const part = tfPart(f[j] / 2, f[j + 1], mean);
    if (part > top) {
      top = part;
      f2 = f[j];
      d = f[j + 1];
    }
  }
  return [f2, d];
}

// ---------------------------------------------------------------------------------------------------------
// Entries
// ---------------------------------------------------------------------------------------------------------

/** One block's directory entry. */
export interface DirEntry {
  first: number;
  last: number;
  n: number;
  id: number;
  /** the rows and tokens of the index its bounds were picked with (the mean row length is their ratio) */
  rows: number;
  tokens: number;
  /** per bound series, the best row's 2f and D */
  bounds: number[];
}

/** An entry whose bounds are the frontiers' best points under the index's rows and tokens. */
export function entryOf(
  span: { first: number; last: number; n: number; id: number },
  fronts: readonly number[][],
  rows: number,
  tokens: number,
): DirEntry {
  const mean = rows > 0 && tokens > 0 ? tokens / rows : 1;
  const bounds: number[] = [];
  for (const f of fronts) bounds.push(...best(f, mean));
  return { first: span.first, last: span.last, n: span.n, id: span.id, rows, tokens, bounds };
}

/** An entry kept until its mean is known (the import's scratch table): span, id and frontiers. */
export function encodePending(span: { first: number; last: number; n: number; id: number }, fronts: readonly number[][]): Buffer {
  const w = new ByteWriter();
  w.uint(span.first);
  w.uint(span.last - span.first);
  w.uint(span.n);
  w.uint(span.id);
  for (const f of fronts) {
    w.uint(f.length / 2);
    for (const v of f) w.uint(v);
  }
  return w.bytes();
}

export function decodePending(blob: Uint8Array, rows: number, tokens: number): DirEntry {
  const r = new ByteReader(blob);
  const first = r.uint();
  const last = first + r.uint();
  const n = r.uint();
  const id = r.uint();
  const fronts: number[][] = [];
  for (let k = 0; k < BOUNDS; k++) {
    const f: number[] = [];
    for (let j = r.uint(); j > 0; j--) f.push(r.uint(), r.uint());
    fronts.push(f);
  }
  return entryOf({ first, last, n, id }, fronts, rows, tokens);
}

/**
 * A directory: the block count; the distinct (rows, tokens) of its entries; the byte length of each
 * section; then the sections: spans (first − the previous last, last − first, n), block ids with their
 * (rows, tokens) index, and the BOUNDS series (2f, D).
 */
export function encodeEntries(entries: readonly DirEntry[]): Buffer {
  const means: string[] = [];
  const sections: ByteWriter[] = [];
  for (let s = 0; s < 2 + BOUNDS; s++) sections.push(new ByteWriter());
  let prev = 0;
  for (const e of entries) {
    sections[0].uint(e.first - prev);
    sections[0].uint(e.last - e.first);
    sections[0].uint(e.n);
    prev = e.last;
    const key = `${e.rows} ${e.tokens}`;
    let m = means.indexOf(key);
    if (m < 0) m = means.push(key) - 1;
    sections[1].uint(e.id);
    sections[1].uint(m);
    for (let k = 0; k < BOUNDS; k++) {
      sections[2 + k].uint(e.bounds[2 * k]);
      sections[2 + k].uint(e.bounds[2 * k + 1]);
    }
  }
  const w = new ByteWriter();
  w.uint(entries.length);
  w.uint(means.length);
  for (const m of means) for (const v of m.split(' ')) w.uint(Number(v));
  for (const s of sections) w.uint(s.length);
  const head = w.bytes();
  return Buffer.concat([head, ...sections.map((s) => s.bytes())]);
}

/** A term's directory, decoded into parallel arrays (the query's form). */
export interface Directory {
  blocks: number;
  first: Float64Array;
  last: Float64Array;
  n: Int32Array;
  id: Float64Array;
  /** each block's mean row length of its bounds */
  avgdl: Float64Array;
  /** the bound series decoded (those asked for): per block, the best row's weighted count f and length D */
  f: Array<Float64Array | null>;
  d: Array<Float64Array | null>;
  /** for the update: each block's (rows, tokens) */
  rows: Float64Array;
  tokens: Float64Array;
}

/** A directory decoded: its spans, ids and means, and the bound series `series` (all when not given). */
export function decodeDirectory(blob: Uint8Array, series?: readonly number[]): Directory {
  const r = new ByteReader(blob);
  const blocks = r.uint();
  const meanRows: number[] = [];
  const meanTokens: number[] = [];
  for (let m = r.uint(); m > 0; m--) {
    meanRows.push(r.uint());
    meanTokens.push(r.uint());
  }
  const lengths: number[] = [];
  for (let s = 0; s < 2 + BOUNDS; s++) lengths.push(r.uint());
  const starts: number[] = [];
  let at = r.pos;
  for (const len of lengths) {
    starts.push(at);
    at += len;
  }
  const first = new Float64Array(blocks);
  const last = new Float64Array(blocks);
  const n = new Int32Array(blocks);
  const id = new Float64Array(blocks);
  const avgdl = new Float64Array(blocks);
  const rows = new Float64Array(blocks);
  const tokens = new Float64Array(blocks);
  const spans = new ByteReader(blob);
  spans.pos = starts[0];
  let prev = 0;
  for (let b = 0; b < blocks; b++) {
    first[b] = prev + spans.uint();
    last[b] = first[b] + spans.uint();
    n[b] = spans.uint();
    prev = last[b];
  }
  const ids = new ByteReader(blob);
  ids.pos = starts[1];
  for (let b = 0; b < blocks; b++) {
    id[b] = ids.uint();
    const m = ids.uint();
    rows[b] = meanRows[m];
    tokens[b] = meanTokens[m];
    avgdl[b] = rows[b] > 0 && tokens[b] > 0 ? tokens[b] / rows[b] : 1;
  }
  const f: Array<Float64Array | null> = [];
  const d: Array<Float64Array | null> = [];
  for (let k = 0; k < BOUNDS; k++) {
    if (series !== undefined && !series.includes(k)) {
      f.push(null);
      d.push(null);
      continue;
    }
    const fk = new Float64Array(blocks);
    const dk = new Float64Array(blocks);
    const s = new ByteReader(blob);
    s.pos = starts[2 + k];
    for (let b = 0; b < blocks; b++) {
      fk[b] = s.uint() / 2;
      dk[b] = s.uint();
    }
    f.push(fk);
    d.push(dk);
  }
  return { blocks, first, last, n, id, avgdl, f, d, rows, tokens };
}

/** A directory's entries (the update's form). */
export function directoryEntries(blob: Uint8Array): DirEntry[] {
  const dir = decodeDirectory(blob);
  const out: DirEntry[] = [];
  for (let b = 0; b < dir.blocks; b++) {
    const bounds: number[] = [];
    for (let k = 0; k < BOUNDS; k++) bounds.push((dir.f[k] as Float64Array)[b] * 2, (dir.d[k] as Float64Array)[b]);
    out.push({ first: dir.first[b], last: dir.last[b], n: dir.n[b], id: dir.id[b], rows: dir.rows[b], tokens: dir.tokens[b], bounds });
  }
  return out;
}

/** SQLite's varint (FTS5's averages record): big-endian 7-bit groups, a ninth byte of 8 bits. */
function sqliteVarint(buf: Uint8Array, at: number): [number, number] {
  let v = 0;
  for (let i = 0; i < 8; i++) {
    const byte = buf[at + i];
    v = v * 128 + (byte & 0x7f);
    if (byte < 0x80) return [v, at + i + 1];
  }
  return [v * 256 + buf[at + 8], at + 9];
}

/** FTS5's averages record read: [rows, tokens of all columns] (BM25's N and N·avgdl). */
export function averages(avg: Uint8Array): [number, number] {
  let [rows, at] = sqliteVarint(avg, 0);
  let tokens = 0;
  while (at < avg.length) {
    const [v, next] = sqliteVarint(avg, at);
    tokens += v;
    at = next;
  }
  return [rows, tokens];
}
