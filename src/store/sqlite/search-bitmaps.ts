/**
 * Page bitmaps beside the top-k postings (search-postings.ts), for counting a query's matches (totalhits)
 * without walking its words' postings: the pages of each frequent term (on at least 1/BITMAP_DENSITY of the
 * page ids) in its words' columns (`term:e`) and in its lemma columns (`term:l`), and the indexed pages of
 * each namespace (`:n<ns>`). A bitmap is stored in chunks of CHUNK_BITS page ids (`search_bitmap`, all-zero
 * chunks left out), so that an update rewrites half a kilobyte per term, not the whole bitmap. A query
 * counts the pages of several words by AND-ing their bitmaps (a term without one is read from its postings:
 * it is rare enough).
 *
 * The keys cannot be tokens: ':' separates tokens (FTS5's ascii tokenizer).
 */
import type Database from 'better-sqlite3';
import { decodeDirectory, WORD_COLUMNS } from './search-directory.js';
import { decodeBlock, type RowPostings } from './search-postings.js';

/** a term on at least 1/BITMAP_DENSITY of the page ids has bitmaps */
export const BITMAP_DENSITY = 64;
/** page ids per stored chunk (a multiple of 32) */
export const CHUNK_BITS = 4096;
const CHUNK_WORDS = CHUNK_BITS / 32;

export function termKey(term: string, lemma: boolean): string {
  return `${term}:${lemma ? 'l' : 'e'}`;
}

export function nsKey(ns: number): string {
  return `:n${ns}`;
}

/** a chunk's bits as 32-bit words (a copy: a blob's bytes need not be aligned) */
function chunkWords(data: Uint8Array): Uint32Array {
  const words = new Uint32Array(CHUNK_WORDS);
  new Uint8Array(words.buffer).set(data.subarray(0, CHUNK_WORDS * 4));
  return words;
}

function chunkBlob(words: Uint32Array): Buffer {
  return Buffer.from(words.buffer, words.byteOffset, words.byteLength);
}

/** The bitmaps made again from the postings and the index's rows (import, a schema 15 database's upgrade). */
export function buildBitmaps(db: Database.Database): number {
  db.exec('DELETE FROM search_bitmap');
  const maxDoc = (db.prepare('SELECT max(id) FROM search_index_docsize').pluck().get() as number | null) ?? 0;
  const min = Math.max(1, Math.ceil((maxDoc + 1) / BITMAP_DENSITY));
  const put = db.prepare('INSERT INTO search_bitmap (sbm_key, sbm_chunk, sbm_data) VALUES (?, ?, ?)');
  const dir = db.prepare('SELECT stt_dir FROM search_term WHERE stt_term = ?').pluck();
  const block = db.prepare('SELECT sb_data FROM search_block WHERE sb_id = ?').pluck();
  const words = Math.ceil((maxDoc + 1) / 32);
  const write = (key: string, bits: Uint32Array) => {
    for (let c = 0; c * CHUNK_WORDS < bits.length; c++) {
      const chunk = bits.subarray(c * CHUNK_WORDS, (c + 1) * CHUNK_WORDS);
      if (chunk.some((w) => w !== 0)) {
        const full = new Uint32Array(CHUNK_WORDS);
        full.set(chunk);
        put.run(key, c, chunkBlob(full));
      }
    }
  };
  const frequent = db
    .prepare('SELECT sd_term, sum(sd_trx), sum(sd_l) FROM search_df GROUP BY sd_term HAVING sum(sd_trx) >= ? OR sum(sd_l) >= ?')
    .raw()
    .all(min, min) as Array<[string, number, number]>;
  for (const [term, exactPages, lemmaPages] of frequent) {
    const blob = dir.get(term) as Buffer | undefined;
    if (blob === undefined) continue;
    const d = decodeDirectory(blob);
    const exact = new Uint32Array(words);
    const lemma = new Uint32Array(words);
    for (let b = 0; b < d.blocks; b++) {
      const k = decodeBlock(block.get(d.id[b]) as Buffer, d.first[b], d.n[b]);
      for (let i = 0; i < k.n; i++) {
        const doc = k.docs[i];
        const at = i * WORD_COLUMNS;
        if (k.counts[at] + k.counts[at + 1] + k.counts[at + 2] > 0) exact[doc >>> 5] |= 1 << (doc & 31);
        if (k.counts[at + 3] + k.counts[at + 4] + k.counts[at + 5] > 0) lemma[doc >>> 5] |= 1 << (doc & 31);
      }
    }
    if (exactPages >= min) write(termKey(term, false), exact);
    if (lemmaPages >= min) write(termKey(term, true), lemma);
  }
  const byNs = new Map<number, Uint32Array>();
  for (const [doc, ns] of db
    .prepare('SELECT d.id, p.page_namespace FROM search_index_docsize d JOIN page p ON p.page_id = d.id')
    .raw()
    .iterate() as IterableIterator<[number, number]>) {
    let bits = byNs.get(ns);
    if (bits === undefined) byNs.set(ns, (bits = new Uint32Array(words)));
    bits[doc >>> 5] |= 1 << (doc & 31);
  }
  for (const [ns, bits] of byNs) write(nsKey(ns), bits);
  return frequent.length;
}

/** Keeps the bitmaps current as pages are added to and removed from the index (import --update, follow). */
export class BitmapUpdate {
  private readonly get: Database.Statement;
  private readonly has: Database.Statement;
  private readonly put: Database.Statement;
  private readonly drop: Database.Statement;

  constructor(db: Database.Database) {
    this.get = db.prepare('SELECT sbm_data FROM search_bitmap WHERE sbm_key = ? AND sbm_chunk = ?').pluck();
    this.has = db.prepare('SELECT 1 FROM search_bitmap WHERE sbm_key = ? LIMIT 1').pluck();
    this.put = db.prepare('INSERT OR REPLACE INTO search_bitmap (sbm_key, sbm_chunk, sbm_data) VALUES (?, ?, ?)');
    this.drop = db.prepare('DELETE FROM search_bitmap WHERE sbm_key = ? AND sbm_chunk = ?');
  }

  /** the page's bits set (`on`) or cleared in its namespace's bitmap and in its terms' that have one */
  page(p: RowPostings, on: boolean): void {
    this.set(nsKey(p.ns), p.doc, on, true);
    for (const [term, c] of p.terms) {
      if (c[0] + c[1] + c[2] > 0) this.set(termKey(term, false), p.doc, on, false);
      if (c[3] + c[4] + c[5] > 0) this.set(termKey(term, true), p.doc, on, false);
    }
  }

  /** `always`: made when the key has no bitmap yet (a namespace's); else a term without one stays without */
  private set(key: string, doc: number, on: boolean, always: boolean): void {
    const chunk = Math.floor(doc / CHUNK_BITS);
    const blob = this.get.get(key, chunk) as Buffer | undefined;
    if (blob === undefined && !always && this.has.get(key) === undefined) return;
    const words = blob === undefined ? new Uint32Array(CHUNK_WORDS) : chunkWords(blob);
    const at = doc % CHUNK_BITS;
    if (on) words[at >>> 5] |= 1 << (at & 31);
    else words[at >>> 5] &= ~(1 << (at & 31));
    if (words.some((w) => w !== 0)) this.put.run(key, chunk, chunkBlob(words));
    else if (blob !== undefined) this.drop.run(key, chunk);
  }
}

/** Reads a key's bitmap into `into` (OR-ed), words for page ids [0, 32·into.length); false when the key has none. */
export function orBitmap(stmt: { all(key: string): unknown[] }, key: string, into: Uint32Array): boolean {
  const rows = stmt.all(key) as Array<[number, Uint8Array]>;
  for (const [chunk, data] of rows) {
    const from = chunk * CHUNK_WORDS;
    if (from >= into.length) break;
    const words = chunkWords(data);
    const n = Math.min(CHUNK_WORDS, into.length - from);
    for (let i = 0; i < n; i++) into[from + i] |= words[i];
  }
  return rows.length > 0;
}

/** the set bits of a bitmap, counted */
export function popcount(bits: Uint32Array): number {
  let total = 0;
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i];
    if (v === 0) continue;
    v -= (v >>> 1) & 0x55555555;
    v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
    total += Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
  }
  return total;
}
