/**
 * Top-k postings of the full-text index, beside FTS5's: what BM25 needs of a term on a page, kept so that a
 * query of plain words reads a few blocks of its words' postings instead of all of them (search-topk.ts).
 *
 * For every term of the six word columns of `search_index` (title, redirects, text and their lemma
 * columns), its pages in page id order, in blocks (`search_block`, at most BLOCK_SIZE pages as the import
 * writes them): per page its namespace, the number of tokens of its whole index row (FTS5's docsize, the
 * `D` of BM25) and the term's count in each of the six columns. A term's directory (`search_term`) lists
 * its blocks with, for each, its first and last page, its size and, for each column set a query phrase
 * names (search_df's six), the greatest BM25 term frequency part of any page of the block (of its main
 * namespace pages, and of all its pages), computed with the mean row length of the time: the block's bound
 * for any IDF (BM25's term is IDF times that part). `search_df` counts a term's pages per namespace and per
 * column set (FTS5's `nHit`, the IDF of BM25; the total of hits).
 *
 * The tokens are those of FTS5's ascii tokenizer on the same columns, so the counts are FTS5's.
 */
import type Database from 'better-sqlite3';
import type { SearchRow } from '../import-writer.js';
import { RowBuffer } from './import/row-buffer.js';
import {
  averages,
  ByteReader,
  ByteWriter,
  DF_SETS,
  type DirEntry,
  decodePending,
  directoryEntries,
  encodeEntries,
  encodePending,
  entryOf,
  frontiers,
  WORD_COLUMNS,
} from './search-directory.js';

/** pages a block holds as the import writes it */
export const BLOCK_SIZE = 128;
/** an update splits a block that grows past this */
const MAX_BLOCK = 2 * BLOCK_SIZE;

/** FTS5's ascii tokenizer: ASCII characters other than letters and digits separate tokens; the rest are token characters. */
const ASCII_SEPARATORS = /[\x00-\x2f\x3a-\x40\x5b-\x60\x7b-\x7f]+/;
const ASCII_UPPER = /[A-Z]/;

/** The tokens of a column as FTS5's ascii tokenizer makes them (ASCII letters lowercased). */
export function asciiTokens(text: string): string[] {
  if (text === '') return [];
  const source = ASCII_UPPER.test(text) ? text.replace(/[A-Z]+/g, (s) => s.toLowerCase()) : text;
  const parts = source.split(ASCII_SEPARATORS);
  let empty = 0;
  for (const p of parts) if (p === '') empty++;
  return empty === 0 ? parts : parts.filter((p) => p !== '');
}

/** One index row's postings: its length in tokens and each term's count per word column. */
export interface RowPostings {
  doc: number;
  ns: number;
  length: number;
  terms: Map<string, number[]>;
}

/** The word columns of an index row, in search_index's order after ns. */
function wordColumns(r: SearchRow): string[] {
  return [r.title, r.redirects.join(' '), r.text, r.titleLemmas, r.redirectLemmas, r.textLemmas];
}

export function rowPostings(r: SearchRow, nsToken: string): RowPostings {
  const terms = new Map<string, number[]>();
  let length = asciiTokens(nsToken).length;
  const columns = wordColumns(r);
  for (let c = 0; c < WORD_COLUMNS; c++) {
    const tokens = asciiTokens(columns[c]);
    length += tokens.length;
    for (const t of tokens) {
      let counts = terms.get(t);
      if (counts === undefined) {
        counts = [0, 0, 0, 0, 0, 0];
        terms.set(t, counts);
      }
      counts[c]++;
    }
  }
  return { doc: r.id, ns: r.ns, length, terms };
}

/** The column sets a posting's counts are in (search_df's six flags, 1 or 0). */
export function dfFlags(c: ArrayLike<number>, at = 0): number[] {
  const t = c[at],
    r = c[at + 1],
    x = c[at + 2],
    lt = c[at + 3],
    lr = c[at + 4],
    lx = c[at + 5];
  return [+(t + r + x > 0), +(t + r > 0), +(x > 0), +(lt + lr + lx > 0), +(lt + lr > 0), +(lx > 0)];
}

/** A block's pages, decoded: parallel arrays, counts WORD_COLUMNS per page. */
export interface Block {
  n: number;
  docs: Int32Array;
  ns: Int32Array;
  lengths: Int32Array;
  counts: Int32Array;
}

export function decodeBlock(data: Uint8Array, first: number, n: number): Block {
  const docs = new Int32Array(n);
  const ns = new Int32Array(n);
  const lengths = new Int32Array(n);
  const counts = new Int32Array(n * WORD_COLUMNS);
  const r = new ByteReader(data);
  let doc = first;
  for (let i = 0; i < n; i++) {
    doc += r.uint();
    docs[i] = doc;
    ns[i] = r.uint();
    lengths[i] = r.uint();
    const mask = r.uint();
    const at = i * WORD_COLUMNS;
    for (let c = 0; c < WORD_COLUMNS; c++) if (mask & (1 << c)) counts[at + c] = r.uint();
  }
  return { n, docs, ns, lengths, counts };
}

/** Postings being gathered (import) or rewritten (update), in page order. */
interface PostingList {
  docs: number[];
  ns: number[];
  lengths: number[];
  counts: number[];
}

/** The block [from, to) of a list, encoded, and its span and bound frontiers (id left for the caller). */
function encodeBlock(list: PostingList, from: number, to: number): { data: Buffer; span: Span; fronts: number[][] } {
  const w = new ByteWriter();
  const first = list.docs[from];
  let prev = first;
  for (let i = from; i < to; i++) {
    w.uint(list.docs[i] - prev);
    prev = list.docs[i];
    w.uint(list.ns[i]);
    w.uint(list.lengths[i]);
    const at = i * WORD_COLUMNS;
    let mask = 0;
    for (let c = 0; c < WORD_COLUMNS; c++) if (list.counts[at + c] > 0) mask |= 1 << c;
    w.uint(mask);
    for (let c = 0; c < WORD_COLUMNS; c++) {
      const v = list.counts[at + c];
      if (v > 0) w.uint(v);
    }
  }
  const fronts = frontiers(list.ns, list.lengths, list.counts, from, to);
  return { data: w.bytes(), span: { first, last: prev, n: to - from, id: 0 }, fronts };
}

interface Span {
  first: number;
  last: number;
  n: number;
  id: number;
}

/** The index's rows and tokens now (FTS5's averages record), [0, 0] when it has none. */
export function indexTotals(db: Database.Database): [number, number] {
  const avg = db.prepare('SELECT block FROM search_index_data WHERE id = 1').pluck().get() as Buffer | undefined;
  return avg === undefined ? [0, 0] : averages(avg);
}

/** Every term's directory made again from its blocks under the index's mean row length (a schema 15 database's). */
export function rewriteDirectories(db: Database.Database): number {
  const [rows, tokens] = indexTotals(db);
  const block = db.prepare('SELECT sb_data FROM search_block WHERE sb_id = ?').pluck();
  const put = db.prepare('UPDATE search_term SET stt_dir = ? WHERE stt_term = ?');
  let terms = 0;
  for (const [term, blob] of db.prepare('SELECT stt_term, stt_dir FROM search_term').raw().all() as Array<[string, Buffer]>) {
    const out: DirEntry[] = [];
    for (const e of oldDirectoryEntries(blob)) {
      const b = decodeBlock(block.get(e.id) as Buffer, e.first, e.n);
      const span = { first: b.docs[0], last: b.docs[b.n - 1], n: b.n, id: e.id };
      out.push(entryOf(span, frontiers(b.ns, b.lengths, b.counts, 0, b.n), rows, tokens));
    }
    put.run(encodeEntries(out), term);
    terms++;
  }
  return terms;
}

/** schema 15's directory entries: first, span, size, least row length, six greatest counts, block id */
function oldDirectoryEntries(blob: Uint8Array): Array<{ first: number; n: number; id: number }> {
  const r = new ByteReader(blob);
  const out: Array<{ first: number; n: number; id: number }> = [];
  while (!r.done) {
    const first = r.uint();
    r.uint();
    const n = r.uint();
    for (let k = 0; k < 1 + WORD_COLUMNS; k++) r.uint();
    out.push({ first, n, id: r.uint() });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The import: pages arrive in page id order
// ---------------------------------------------------------------------------------------------------------

/**
 * Gathers the postings of a batch of pages and writes them as blocks when the batch is written; the
 * directories and page counts are put together at the end (finish) from scratch tables in term order.
 */
export class PostingsImport {
  private pending = new Map<string, PostingList>();
  private df = new Map<string, Map<number, number[]>>();
  private blocks: RowBuffer | null = null;
  private heads: RowBuffer | null = null;
  private dfRows: RowBuffer | null = null;
  private nextBlock = 1;
  /** the index's rows and tokens written (BM25's N and N·avgdl, as FTS5 counts them), and the batch's */
  private rows = 0;
  private tokens = 0;
  private batchRows = 0;
  private batchTokens = 0;

  constructor(private readonly db: Database.Database) {}

  begin(): void {
    this.db.exec('CREATE TEMP TABLE IF NOT EXISTS wq_search_head (term TEXT NOT NULL, first INTEGER NOT NULL, entry BLOB NOT NULL)');
    this.db.exec(
      'CREATE TEMP TABLE IF NOT EXISTS wq_search_df (term TEXT NOT NULL, ns INTEGER NOT NULL, trx INTEGER, tr INTEGER, x INTEGER, l INTEGER, ltr INTEGER, lx INTEGER)',
    );
    this.nextBlock = ((this.db.prepare('SELECT max(sb_id) FROM search_block').pluck().get() as number | null) ?? 0) + 1;
    this.blocks = new RowBuffer(this.db, 'INSERT INTO search_block (sb_id, sb_data) VALUES', 2);
    this.heads = new RowBuffer(this.db, 'INSERT INTO temp.wq_search_head (term, first, entry) VALUES', 3);
    this.dfRows = new RowBuffer(this.db, 'INSERT INTO temp.wq_search_df (term, ns, trx, tr, x, l, ltr, lx) VALUES', 8);
  }

  page(p: RowPostings): void {
    this.batchRows++;
    this.batchTokens += p.length;
    for (const [term, c] of p.terms) {
      let list = this.pending.get(term);
      if (list === undefined) {
        list = { docs: [], ns: [], lengths: [], counts: [] };
        this.pending.set(term, list);
      }
      list.docs.push(p.doc);
      list.ns.push(p.ns);
      list.lengths.push(p.length);
      for (let i = 0; i < WORD_COLUMNS; i++) list.counts.push(c[i]);
      let byNs = this.df.get(term);
      if (byNs === undefined) {
        byNs = new Map();
        this.df.set(term, byNs);
      }
      let sets = byNs.get(p.ns);
      if (sets === undefined) {
        sets = [0, 0, 0, 0, 0, 0];
        byNs.set(p.ns, sets);
      }
      const f = dfFlags(c);
      for (let i = 0; i < DF_SETS; i++) sets[i] += f[i];
    }
  }

  /** the gathered postings, written as blocks */
  flush(): void {
    const blocks = this.blocks;
    const heads = this.heads;
    const dfRows = this.dfRows;
    if (blocks === null || heads === null || dfRows === null) return;
    for (const [term, list] of this.pending) {
      for (let from = 0; from < list.docs.length; from += BLOCK_SIZE) {
        // the bounds are picked when the index's mean row length is known (finish)
        const { data, span, fronts } = encodeBlock(list, from, Math.min(from + BLOCK_SIZE, list.docs.length));
        span.id = this.nextBlock++;
        blocks.add(span.id, data);
        heads.add(term, span.first, encodePending(span, fronts));
      }
    }
    this.rows += this.batchRows;
    this.tokens += this.batchTokens;
    this.batchRows = this.batchTokens = 0;
    for (const [term, byNs] of this.df) for (const [ns, s] of byNs) dfRows.add(term, ns, s[0], s[1], s[2], s[3], s[4], s[5]);
    this.pending = new Map();
    this.df = new Map();
  }

  discard(): void {
    this.batchRows = this.batchTokens = 0;
    this.pending = new Map();
    this.df = new Map();
  }

  /** the directories and page counts, from the scratch tables */
  finish(): void {
    this.flush();
    this.blocks?.flush();
    this.heads?.flush();
    this.dfRows?.flush();
    // each term's entries in block order, their bounds picked under the index's mean row length
    const rows = this.rows;
    const tokens = this.tokens;
    this.db.aggregate('wq_concat_entries', {
      start: () => [] as DirEntry[],
      // (typed by better-sqlite3 as the start value's element: the argument is the pending entry's blob)
      step: (entries: DirEntry[], pending: unknown) => {
        entries.push(decodePending(pending as Buffer, rows, tokens));
        return entries;
      },
      result: (entries: DirEntry[]) => encodeEntries(entries),
    });
    this.db.exec(
      `INSERT INTO search_term (stt_term, stt_dir)
       SELECT term, wq_concat_entries(entry ORDER BY first) FROM temp.wq_search_head GROUP BY term ORDER BY term`,
    );
    this.db.exec(
      `INSERT INTO search_df (sd_term, sd_ns, sd_trx, sd_tr, sd_x, sd_l, sd_ltr, sd_lx)
       SELECT term, ns, sum(trx), sum(tr), sum(x), sum(l), sum(ltr), sum(lx) FROM temp.wq_search_df GROUP BY term, ns ORDER BY term, ns`,
    );
    this.db.exec('DROP TABLE temp.wq_search_head');
    this.db.exec('DROP TABLE temp.wq_search_df');
    this.blocks = this.heads = this.dfRows = null;
  }
}

// ---------------------------------------------------------------------------------------------------------
// Updates: one page at a time
// ---------------------------------------------------------------------------------------------------------

/** Keeps the postings current as pages are added to and removed from the index (import --update, follow). */
export class PostingsUpdate {
  private readonly dirGet: Database.Statement;
  private readonly dirPut: Database.Statement;
  private readonly dirDrop: Database.Statement;
  private readonly blockGet: Database.Statement;
  private readonly blockPut: Database.Statement;
  private readonly blockAdd: Database.Statement;
  private readonly blockDrop: Database.Statement;
  private readonly dfAdd: Database.Statement;
  private readonly dfDrop: Database.Statement;
  /** the index's rows and tokens the blocks this update writes are bounded with (each block keeps its own) */
  private readonly totals: [number, number];

  constructor(db: Database.Database) {
    this.totals = indexTotals(db);
    this.dirGet = db.prepare('SELECT stt_dir FROM search_term WHERE stt_term = ?').pluck();
    this.dirPut = db.prepare('INSERT OR REPLACE INTO search_term (stt_term, stt_dir) VALUES (?, ?)');
    this.dirDrop = db.prepare('DELETE FROM search_term WHERE stt_term = ?');
    this.blockGet = db.prepare('SELECT sb_data FROM search_block WHERE sb_id = ?').pluck();
    this.blockPut = db.prepare('UPDATE search_block SET sb_data = ? WHERE sb_id = ?');
    this.blockAdd = db.prepare('INSERT INTO search_block (sb_data) VALUES (?)');
    this.blockDrop = db.prepare('DELETE FROM search_block WHERE sb_id = ?');
    this.dfAdd = db.prepare(
      `INSERT INTO search_df (sd_term, sd_ns, sd_trx, sd_tr, sd_x, sd_l, sd_ltr, sd_lx) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (sd_term, sd_ns) DO UPDATE SET sd_trx = sd_trx + excluded.sd_trx, sd_tr = sd_tr + excluded.sd_tr,
         sd_x = sd_x + excluded.sd_x, sd_l = sd_l + excluded.sd_l, sd_ltr = sd_ltr + excluded.sd_ltr, sd_lx = sd_lx + excluded.sd_lx`,
    );
    this.dfDrop = db.prepare('DELETE FROM search_df WHERE sd_term = ? AND sd_ns = ? AND sd_trx <= 0 AND sd_l <= 0');
  }

  /**
   * Pages whose postings are to be taken out when the batch commits (settle), unless the batch gives the
   * page's new ones (add): then each term of an edited page is rewritten once, not taken out and put back.
   */
  private readonly removed = new Map<number, RowPostings>();

  add(p: RowPostings): void {
    const old = this.removed.get(p.doc);
    if (old !== undefined) this.removed.delete(p.doc);
    if (old !== undefined && old.ns !== p.ns) this.takeOut(old);
    const before = old !== undefined && old.ns === p.ns ? old : null;
    for (const [term, c] of p.terms) {
      const was = before?.terms.get(term);
      if (was === undefined || before?.length !== p.length || !sameCounts(was, c)) this.change(term, p, c);
      const f = dfFlags(c);
      if (was !== undefined) {
        const g = dfFlags(was);
        let same = true;
        for (let i = 0; i < DF_SETS; i++) if ((f[i] -= g[i]) !== 0) same = false;
        if (same) continue;
      }
      this.dfAdd.run(term, p.ns, f[0], f[1], f[2], f[3], f[4], f[5]);
      if (was !== undefined) this.dfDrop.run(term, p.ns);
    }
    if (before !== null)
      for (const [term, c] of before.terms) {
        if (p.terms.has(term)) continue;
        this.takeOutTerm(term, before, c);
      }
  }

  remove(p: RowPostings): void {
    const earlier = this.removed.get(p.doc);
    if (earlier !== undefined) this.takeOut(earlier);
    this.removed.set(p.doc, p);
  }

  /** the removals no add replaced, applied (before the batch commits) */
  settle(): void {
    for (const p of this.removed.values()) this.takeOut(p);
    this.removed.clear();
  }

  /** a rolled back batch's removals forgotten */
  forget(): void {
    this.removed.clear();
  }

  private takeOut(p: RowPostings): void {
    for (const [term, c] of p.terms) this.takeOutTerm(term, p, c);
  }

  private takeOutTerm(term: string, p: RowPostings, c: number[]): void {
    this.change(term, p, null);
    const f = dfFlags(c);
    this.dfAdd.run(term, p.ns, -f[0], -f[1], -f[2], -f[3], -f[4], -f[5]);
    this.dfDrop.run(term, p.ns);
  }

  /** the page's posting in the term's list set to `counts`, or taken out (null) */
  private change(term: string, p: RowPostings, counts: number[] | null): void {
    const blob = this.dirGet.get(term) as Buffer | undefined;
    const entries = blob === undefined ? [] : directoryEntries(blob);
    // the block whose span the page falls in: the last one starting at or before it (else the first)
    let at = 0;
    while (at + 1 < entries.length && entries[at + 1].first <= p.doc) at++;
    const list: PostingList = { docs: [], ns: [], lengths: [], counts: [] };
    if (entries.length > 0) {
      const e = entries[at];
      const b = decodeBlock(this.blockGet.get(e.id) as Buffer, e.first, e.n);
      list.docs = Array.from(b.docs);
      list.ns = Array.from(b.ns);
      list.lengths = Array.from(b.lengths);
      list.counts = Array.from(b.counts);
    }
    let i = 0;
    while (i < list.docs.length && list.docs[i] < p.doc) i++;
    const present = i < list.docs.length && list.docs[i] === p.doc;
    if (present) {
      list.docs.splice(i, 1);
      list.ns.splice(i, 1);
      list.lengths.splice(i, 1);
      list.counts.splice(i * WORD_COLUMNS, WORD_COLUMNS);
    }
    if (counts !== null) {
      list.docs.splice(i, 0, p.doc);
      list.ns.splice(i, 0, p.ns);
      list.lengths.splice(i, 0, p.length);
      list.counts.splice(i * WORD_COLUMNS, 0, ...counts);
    } else if (!present) return;
    const replaced: DirEntry[] = [];
    const n = list.docs.length;
    // past MAX_BLOCK the block is split in two halves
    const cuts = n > MAX_BLOCK ? [0, n >> 1, n] : [0, n];
    for (let k = 0; k + 1 < cuts.length; k++) {
      if (cuts[k] === cuts[k + 1]) continue;
      const { data, span, fronts } = encodeBlock(list, cuts[k], cuts[k + 1]);
      if (k === 0 && entries.length > 0) {
        span.id = entries[at].id;
        this.blockPut.run(data, span.id);
      } else span.id = Number(this.blockAdd.run(data).lastInsertRowid);
      replaced.push(entryOf(span, fronts, this.totals[0], this.totals[1]));
    }
    if (entries.length > 0 && replaced.length === 0) this.blockDrop.run(entries[at].id);
    entries.splice(at, entries.length > 0 ? 1 : 0, ...replaced);
    if (entries.length === 0) this.dirDrop.run(term);
    else this.dirPut.run(term, encodeEntries(entries));
  }
}

function sameCounts(a: number[], b: number[]): boolean {
  for (let i = 0; i < WORD_COLUMNS; i++) if (a[i] !== b[i]) return false;
  return true;
}
