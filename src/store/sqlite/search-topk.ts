/**
 * Top-k retrieval of plain-word queries over the postings of search-postings.ts: the best `offset + limit`
 * pages by FTS5's own BM25 (fts5_aux.c, the same phrases, weights, IDFs and row lengths as the MATCH that
 * search.ts compiles, so the same scores and order), without reading every posting of a frequent word.
 *
 * The page id space is cut into ranges; a range's bound is the sum over the query's phrases of the best
 * score any block of the phrase's term overlapping it could give (its columns' greatest counts, its least
 * row length). Ranges are scored best bound first, and the walk stops when no range left can beat the
 * k-th page found. A query of one word counts its hits from the page counts kept per term (`search_df`);
 * other queries count theirs by walking the doc lists of their words.
 */
import type { Db, Statement } from './db.js';
import { asciiTokens, type Block, decodeBlock } from './search-postings.js';
import { averages, B, DF_SETS, decodeDirectory, type Directory, K1, setWeights, tfPart, WORD_COLUMNS } from './search-directory.js';
import { nsKey, orBitmap, popcount, termKey } from './search-bitmaps.js';
import type { FullTextResult, FullTextSearch, TitlePrefixRow } from '../search-store.js';
import type { ParsedSearch } from '../../wiki/search-query.js';

/** a query of more words than this is left to FTS5 */
const MAX_WORDS = 8;
/** ranges the page id space is cut into, at most (their width a power of two, at least MIN_RANGE) */
const RANGES = 4096;
const MIN_RANGE = 64;
/** a query whose words' postings are at most this many is scored whole: every match, no bounds */
const EXHAUSTIVE = 256;
/** a word whose postings are in at most this many blocks has them read in one statement */
const FETCH_ALL = 1024;
/** blocks of fewer pages than this, on average, are small */
const SMALL_BLOCK = 32;
/** several words whose common pages are at most this many have those pages scored one by one */
const FEW_COMMON = 2048;
/** relative slack of the comparisons of a bound with a score (the bound is computed in floating point too) */
const SLACK = 1e-12;

/** One phrase of the MATCH: a token in a set of columns (search_df's index of that set). */
export interface Phrase {
  term: number;
  weights: number[];
  dfSet: number;
  idf: number;
}

interface Hit {
  id: number;
  score: number;
}

/** Whether the top-k path answers a query: one group of plain single-token words, nothing excluded. */
export function topKEligible(q: ParsedSearch): boolean {
  if (q.groups.length !== 1) return false;
  const g = q.groups[0];
  if (g.not.length > 0 || g.must.length === 0 || g.must.length > MAX_WORDS) return false;
  for (const t of g.must) {
    if (t.prefix || t.tokens.length !== 1) return false;
    const tokens = asciiTokens(t.tokens[0]);
    if (tokens.length !== 1 || tokens[0] !== t.tokens[0]) return false;
    for (const l of t.lemmas) {
      const lt = asciiTokens(l);
      if (lt.length !== 1 || lt[0] !== l) return false;
    }
  }
  return true;
}

/** FTS5's BM25 term of one phrase for one row: IDF · f(k1+1) / (f + k1(1 − b + b·D/avgdl)), as fts5_aux.c computes it. */
function bm25(idf: number, f: number, d: number, avgdl: number): number {
  return idf * ((f * (K1 + 1.0)) / (f + K1 * (1 - B + (B * d) / avgdl)));
}

export class SqliteTopK {
  private readonly dir: Statement<[string]>;
  private readonly block: Statement<[number]>;
  private readonly blocks: Statement<[string]>;
  private readonly df: Statement<[string]>;
  private readonly averages: Statement;
  private readonly titlePages: Statement<[string]>;
  private readonly lemmaTitlePages: Statement<[string]>;
  private readonly page: Statement<[number]>;
  private readonly bitmap: Statement<[string]>;

  constructor(db: Db) {
    this.dir = db.prepare('SearchStore.fullText', 'SELECT stt_dir FROM search_term WHERE stt_term = ?', true);
    this.block = db.prepare('SearchStore.fullText', 'SELECT sb_data FROM search_block WHERE sb_id = ?', true);
    this.blocks = db.prepare(
      'SearchStore.fullText',
      'SELECT sb_id, sb_data FROM search_block WHERE sb_id IN (SELECT value FROM json_each(?))',
      'raw',
    );
    this.df = db.prepare(
      'SearchStore.fullText',
      'SELECT sd_ns, sd_trx, sd_tr, sd_x, sd_l, sd_ltr, sd_lx FROM search_df WHERE sd_term = ?',
      'raw',
    );
    // FTS5's averages record: its row count and each column's token total (BM25's N and avgdl)
    this.averages = db.prepare('SearchStore.fullText', 'SELECT block FROM search_index_data WHERE id = 1', true);
    this.titlePages = db.prepare('SearchStore.fullText', 'SELECT st_page FROM search_title WHERE st_key = ?', true);
    this.lemmaTitlePages = db.prepare('SearchStore.fullText', 'SELECT stl_page FROM search_title_lemma WHERE stl_key = ?', true);
    this.page = db.prepare('SearchStore.fullText', 'SELECT page_namespace AS ns, page_title AS title FROM page WHERE page_id = ?');
    this.bitmap = db.prepare(
      'SearchStore.fullText',
      'SELECT sbm_chunk, sbm_data FROM search_bitmap WHERE sbm_key = ? ORDER BY sbm_chunk',
      'raw',
    );
  }

  fullText(req: FullTextSearch): FullTextResult {
    const q = req.query;
    const words = q.groups[0].must;
    const namespaces = new Set(req.namespaces.filter((n) => n >= 0));
    const empty: FullTextResult = { hits: [], totalHits: req.countHits ? 0 : undefined };
    const avg = this.averages.get() as Buffer | undefined;
    if (avg === undefined || namespaces.size === 0) return empty;
    const [nRow, nToken] = averages(avg);
    if (nRow <= 0) return empty;
    const avgdl = nToken / nRow;

    // the phrases in the MATCH's order: each word, then its lemmas
    const tokens: string[] = [];
    const phrases: Phrase[] = [];
    const wordPhrases: number[][] = [];
    for (const w of words) {
      const own: number[] = [];
      const set = w.titleOnly ? 'title' : req.fields;
      own.push(phrases.length);
      phrases.push(phrase(termIndex(tokens, w.tokens[0]), false, set));
      for (const l of w.lemmas) {
        own.push(phrases.length);
        phrases.push(phrase(termIndex(tokens, l), true, set));
      }
      wordPhrases.push(own);
    }
    const dfs: number[][][] = [];
    const dirs: Array<Directory | null> = [];
    // the bound series the phrases use: their column sets, of the main namespace's pages when only those are asked
    const base = namespaces.size === 1 && namespaces.has(0) ? 0 : DF_SETS;
    for (let t = 0; t < tokens.length; t++) {
      dfs.push(this.df.all(tokens[t]) as number[][]);
      const blob = this.dir.get(tokens[t]) as Buffer | undefined;
      const series: number[] = [];
      for (const p of phrases) if (p.term === t) series.push(base + p.dfSet);
      dirs.push(blob === undefined ? null : decodeDirectory(blob, series));
    }
    for (const p of phrases) {
      let nHit = 0;
      for (const row of dfs[p.term]) nHit += row[1 + p.dfSet];
      const idf = Math.log((nRow - nHit + 0.5) / (nHit + 0.5));
      p.idf = idf <= 0.0 ? 1e-6 : idf;
    }
    const search = new Walk(phrases, wordPhrases, dirs, namespaces, avgdl, this.block, this.blocks);

    // the pages whose title (2) or title read through its lemmas (1) is the query come first
    const tier = new Map<number, number>();
    if (q.titleKey !== null && req.fields !== 'text') {
      for (const id of this.titlePages.all(q.titleKey) as number[]) tier.set(id, 2);
      for (const key of q.titleLemmaKeys) for (const id of this.lemmaTitlePages.all(key) as number[]) if (!tier.has(id)) tier.set(id, 1);
    }
    const first: Array<Hit & { tier: number }> = [];
    for (const [id, t] of tier) {
      const score = search.scoreOf(id);
      if (score !== null) first.push({ id, score, tier: t });
    }
    first.sort((a, b) => b.tier - a.tier || b.score - a.score || a.id - b.id);
    const want = req.offset + req.limit;
    // several words: their common pages from the bitmaps; when they are few (words that seldom meet), those
    // pages are scored, not the ranges where each word is
    const common = words.length > 1 ? matchBitmap(this.bitmap, tokens, phrases, wordPhrases, dfs, dirs, namespaces, search) : null;
    const commonCount = common === null ? null : popcount(common);
    const rest =
      first.length >= want
        ? []
        : common !== null && (commonCount as number) <= FEW_COMMON
          ? search.topOf(setBits(common), want - first.length, tier)
          : search.top(want - first.length, tier);
    const ranked: Hit[] = first.length >= want ? first : (first as Hit[]).concat(rest);
    const hits: TitlePrefixRow[] = [];
    for (const h of ranked.slice(req.offset, want)) {
      const row = this.page.get(h.id) as { ns: number; title: string } | undefined;
      if (row !== undefined) hits.push({ pageid: h.id, ns: row.ns, title: row.title });
    }
    const out: FullTextResult = { hits };
    if (req.countHits) {
      // one word: its pages, or those of its one lemma (every page with a form of it also holds the lemma)
      const w = words.length === 1 ? words[0] : null;
      const single = w === null ? null : w.lemmas.length === 0 ? phrases[0] : w.lemmas.length === 1 ? phrases[1] : null;
      if (single !== null) {
        let total = 0;
        for (const row of dfs[single.term]) if (namespaces.has(row[0])) total += row[1 + single.dfSet];
        out.totalHits = total;
      } else out.totalHits = commonCount ?? search.knownCount() ?? search.count();
    }
    return out;
  }
}

/** the set bits of a bitmap: page ids, ascending */
function setBits(bits: Uint32Array): number[] {
  const out: number[] = [];
  for (let i = 0; i < bits.length; i++) {
    let v = bits[i];
    while (v !== 0) {
      const low = v & -v;
      out.push(i * 32 + 31 - Math.clz32(low));
      v ^= low;
    }
  }
  return out;
}

/**
 * The matches on the page bitmaps: each word's pages (its terms' bitmaps, or their postings when they have
 * none) AND-ed, and with the namespaces' pages when a word has pages elsewhere. Null when a phrase is in a
 * column set the bitmaps do not keep (srwhat, intitle:).
 */
function matchBitmap(
  bitmap: Statement<[string]>,
  tokens: readonly string[],
  phrases: readonly Phrase[],
  wordPhrases: readonly number[][],
  dfs: ReadonlyArray<number[][]>,
  dirs: ReadonlyArray<Directory | null>,
  namespaces: ReadonlySet<number>,
  walk: Walk,
): Uint32Array | null {
  let maxDoc = 0;
  for (const p of phrases) {
    if (p.dfSet % 3 !== 0) return null;
    const d = dirs[p.term];
    if (d !== null && d.blocks > 0 && d.last[d.blocks - 1] > maxDoc) maxDoc = d.last[d.blocks - 1];
  }
  const size = (maxDoc >>> 5) + 1;
  let all: Uint32Array | null = null;
  let elsewhere = false;
  for (const own of wordPhrases) {
    const bits = new Uint32Array(size);
    for (const i of own) {
      const p = phrases[i];
      let pages = 0;
      for (const row of dfs[p.term]) {
        pages += row[1 + p.dfSet];
        if (row[1 + p.dfSet] > 0 && !namespaces.has(row[0])) elsewhere = true;
      }
      if (pages === 0) continue;
      if (!orBitmap(bitmap, termKey(tokens[p.term], p.dfSet === 3), bits)) walk.orPostings(p, bits);
    }
    if (all === null) all = bits;
    else for (let k = 0; k < size; k++) all[k] &= bits[k];
  }
  if (all === null) return new Uint32Array(size);
  if (elsewhere) {
    const inNs = new Uint32Array(size);
    for (const ns of namespaces) orBitmap(bitmap, nsKey(ns), inNs);
    for (let k = 0; k < size; k++) all[k] &= inNs[k];
  }
  return all;
}

/** the index of a token in the query's list of distinct tokens (added when new) */
function termIndex(tokens: string[], token: string): number {
  const i = tokens.indexOf(token);
  if (i >= 0) return i;
  tokens.push(token);
  return tokens.length - 1;
}

/** A word's phrase (or a lemma's) in the columns of `set`, with search.ts's weights. */
function phrase(term: number, lemma: boolean, set: FullTextSearch['fields']): Phrase {
  const dfSet = (lemma ? 3 : 0) + (set === 'all' ? 0 : set === 'title' ? 1 : 2);
  return { term, weights: setWeights(dfSet), dfSet, idf: 0 };
}

/** the index of the first page id at or after `doc` in a block's ascending ids */
function firstAtOrAfter(docs: Int32Array, doc: number): number {
  let lo = 0;
  let hi = docs.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (docs[mid] < doc) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The query's words (indices), those of fewest postings first. */
function wordsByPostings(wordPhrases: readonly number[][], phrases: readonly Phrase[], dirs: ReadonlyArray<Directory | null>): number[] {
  const sizes: number[] = [];
  for (const own of wordPhrases) {
    let size = 0;
    const terms: number[] = [];
    for (const i of own) {
      const t = phrases[i].term;
      const d = dirs[t];
      if (d === null || terms.includes(t)) continue;
      terms.push(t);
      for (let b = 0; b < d.blocks; b++) size += d.n[b];
    }
    sizes.push(size);
  }
  const order: number[] = [];
  for (let w = 0; w < wordPhrases.length; w++) order.push(w);
  order.sort((a, b) => sizes[a] - sizes[b] || a - b);
  return order;
}

function byRank(a: Hit, b: Hit): number {
  return b.score - a.score || a.id - b.id;
}

/** One query's walk over its terms' blocks (decoded once each). */
class Walk {
  private readonly blocks = new Map<number, Block>();
  private readonly width: number;
  private readonly ranges: number;
  /** the words, fewest postings first */
  private readonly wordOrder: number[];
  /** a range's pages (by offset in it): each phrase's weighted count, row length, words found, namespace wanted */
  private readonly f: Float64Array;
  private readonly lengths: Int32Array;
  private readonly words: Int32Array;
  private readonly inNs: Uint8Array;
  /** only main namespace pages are asked: the blocks' bounds of those pages apply */
  private readonly mainOnly: boolean;

  constructor(
    private readonly phrases: readonly Phrase[],
    private readonly wordPhrases: readonly number[][],
    private readonly dirs: ReadonlyArray<Directory | null>,
    private readonly namespaces: ReadonlySet<number>,
    private readonly avgdl: number,
    private readonly blockStmt: Statement<[number]>,
    private readonly blocksStmt: Statement<[string]>,
  ) {
    this.mainOnly = namespaces.size === 1 && namespaces.has(0);
    let maxDoc = 0;
    for (const d of dirs) if (d !== null && d.blocks > 0 && d.last[d.blocks - 1] > maxDoc) maxDoc = d.last[d.blocks - 1];
    let width = MIN_RANGE;
    while (width * RANGES < maxDoc + 1) width *= 2;
    this.width = width;
    this.ranges = Math.floor(maxDoc / width) + 1;
    this.wordOrder = wordsByPostings(wordPhrases, phrases, dirs);
    this.f = new Float64Array(phrases.length * width);
    this.lengths = new Int32Array(width);
    this.words = new Int32Array(width);
    this.inNs = new Uint8Array(width);
    // the blocks of a word whose pages are in many small blocks (a rare word's, a batch of the import
    // each), read at once
    const ids: number[] = [];
    const small = new Map<number, { d: Directory; b: number }>();
    for (const d of dirs) {
      if (d === null || d.blocks > FETCH_ALL || d.blocks < 2) continue;
      let postings = 0;
      for (let b = 0; b < d.blocks; b++) postings += d.n[b];
      if (postings >= SMALL_BLOCK * d.blocks) continue;
      for (let b = 0; b < d.blocks; b++) {
        ids.push(d.id[b]);
        small.set(d.id[b], { d, b });
      }
    }
    if (ids.length > 0) {
      for (const [id, data] of this.blocksStmt.all(JSON.stringify(ids)) as Array<[number, Buffer]>) {
        const at = small.get(id);
        if (at !== undefined) this.blocks.set(id, decodeBlock(data, at.d.first[at.b], at.d.n[at.b]));
      }
    }
  }

  private decoded(d: Directory, b: number): Block {
    const id = d.id[b];
    let block = this.blocks.get(id);
    if (block === undefined) {
      block = decodeBlock(this.blockStmt.get(id) as Buffer, d.first[b], d.n[b]);
      this.blocks.set(id, block);
    }
    return block;
  }

  /** the phrase's weighted count on the i-th page of a block */
  private static freq(p: Phrase, block: Block, i: number): number {
    const at = i * WORD_COLUMNS;
    let f = 0;
    for (let c = 0; c < WORD_COLUMNS; c++) {
      const w = p.weights[c];
      if (w !== 0) f += w * block.counts[at + c];
    }
    return f;
  }

  /** the index of the last block starting at or before `doc` (-1 if none) */
  private static blockAt(d: Directory, doc: number): number {
    let lo = 0;
    let hi = d.blocks - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (d.first[mid] <= doc) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return found;
  }

  /** a page's BM25, or null when it does not match (or is in another namespace) */
  scoreOf(doc: number): number | null {
    const f = new Float64Array(this.phrases.length);
    let length = -1;
    for (let i = 0; i < this.phrases.length; i++) {
      const p = this.phrases[i];
      const d = this.dirs[p.term];
      if (d === null) continue;
      const b = Walk.blockAt(d, doc);
      if (b < 0 || d.last[b] < doc) continue;
      const block = this.decoded(d, b);
      const at = block.docs.indexOf(doc);
      if (at < 0) continue;
      if (!this.namespaces.has(block.ns[at])) return null;
      f[i] = Walk.freq(p, block, at);
      length = block.lengths[at];
    }
    for (const own of this.wordPhrases) {
      let any = false;
      for (const i of own) if (f[i] > 0) any = true;
      if (!any) return null;
    }
    let score = 0.0;
    for (let i = 0; i < this.phrases.length; i++) score += bm25(this.phrases[i].idf, f[i], length, this.avgdl);
    return score;
  }

  /** each range's bound (-1: a word has no page in it) */
  private bounds(): Float64Array {
    const total = new Float64Array(this.ranges);
    const present = new Int32Array(this.ranges);
    const own = new Float64Array(this.ranges);
    const word = new Float64Array(this.ranges);
    for (const phraseIds of this.wordPhrases) {
      word.fill(0);
      for (const i of phraseIds) {
        const p = this.phrases[i];
        const d = this.dirs[p.term];
        if (d === null) continue;
        own.fill(0);
        // the block's greatest tfPart of the phrase's column set (of its ns 0 pages when only those are
        // asked), computed with its own mean row length: a longer mean now raises a row's part at most by
        // their ratio
        const at = (this.mainOnly ? 0 : DF_SETS) + p.dfSet;
        const bestF = d.f[at] as Float64Array;
        const bestD = d.d[at] as Float64Array;
        for (let b = 0; b < d.blocks; b++) {
          if (bestF[b] === 0) continue;
          const part = tfPart(bestF[b], bestD[b], d.avgdl[b]);
          const bound = p.idf * part * (this.avgdl > d.avgdl[b] ? this.avgdl / d.avgdl[b] : 1);
          const end = Math.floor(d.last[b] / this.width);
          for (let r = Math.floor(d.first[b] / this.width); r <= end; r++) if (bound > own[r]) own[r] = bound;
        }
        for (let r = 0; r < this.ranges; r++) word[r] += own[r];
      }
      for (let r = 0; r < this.ranges; r++) {
        if (word[r] > 0) {
          total[r] += word[r];
          present[r]++;
        }
      }
    }
    const words = this.wordPhrases.length;
    for (let r = 0; r < this.ranges; r++) if (present[r] < words) total[r] = -1;
    return total;
  }

  /**
   * The matches of range r (in the namespaces): added to `hits` with their scores (those of `skip` left
   * out), or, without `hits`, counted.
   */
  private range(r: number, hits: Hit[] | null, skip: ReadonlyMap<number, number> | null): number {
    const lo = r * this.width;
    const hi = lo + this.width;
    const n = this.phrases.length;
    const f = this.f;
    const lengths = this.lengths;
    const words = this.words;
    const inNs = this.inNs;
    f.fill(0);
    words.fill(0);
    // the rarest word's pages are read from its blocks; the other words are looked up on those pages only
    const order = this.wordOrder;
    let seen = 0;
    for (let wi = 0; wi < order.length; wi++) {
      const w = order[wi];
      for (const i of this.wordPhrases[w]) {
        const p = this.phrases[i];
        const d = this.dirs[p.term];
        if (d === null) continue;
        if (wi === 0) {
          // the blocks overlapping [lo, hi): from the last one starting at or before lo
          let b = Math.max(0, Walk.blockAt(d, lo));
          for (; b < d.blocks && d.first[b] < hi; b++) {
            if (d.last[b] < lo) continue;
            const block = this.decoded(d, b);
            for (let k = firstAtOrAfter(block.docs, lo); k < block.n; k++) {
              const doc = block.docs[k];
              if (doc >= hi) break;
              const fk = Walk.freq(p, block, k);
              if (fk === 0) continue;
              const o = doc - lo;
              f[o * n + i] = fk;
              lengths[o] = block.lengths[k];
              words[o] |= 1 << w;
              inNs[o] = this.namespaces.has(block.ns[k]) ? 1 : 0;
            }
          }
          continue;
        }
        for (let o = 0; o < this.width; o++) {
          if (words[o] !== seen) continue;
          const doc = lo + o;
          const b = Walk.blockAt(d, doc);
          if (b < 0 || d.last[b] < doc) continue;
          const block = this.decoded(d, b);
          const k = firstAtOrAfter(block.docs, doc);
          if (k >= block.n || block.docs[k] !== doc) continue;
          const fk = Walk.freq(p, block, k);
          if (fk === 0) continue;
          f[o * n + i] = fk;
        }
      }
      if (wi > 0) {
        // a page of the earlier words that has this one too
        for (let o = 0; o < this.width; o++) {
          if (words[o] !== seen) continue;
          for (const i of this.wordPhrases[w]) {
            if (f[o * n + i] > 0) {
              words[o] |= 1 << w;
              break;
            }
          }
        }
      }
      seen |= 1 << w;
    }
    const all = (1 << this.wordPhrases.length) - 1;
    let matches = 0;
    for (let o = 0; o < this.width; o++) {
      if (words[o] !== all || inNs[o] === 0) continue;
      matches++;
      if (hits === null || skip?.has(lo + o)) continue;
      let score = 0.0;
      for (let i = 0; i < n; i++) score += bm25(this.phrases[i].idf, f[o * n + i], lengths[o], this.avgdl);
      hits.push({ id: lo + o, score });
    }
    return matches;
  }

  /** the postings the query's words hold, all told */
  private postings(): number {
    let total = 0;
    for (const d of this.dirs) if (d !== null) for (let b = 0; b < d.blocks; b++) total += d.n[b];
    return total;
  }

  /** every match with its score (few postings: each block decoded once, the pages merged) */
  private everyMatch(): Hit[] {
    const n = this.phrases.length;
    const slot = new Map<number, number>();
    const docs: number[] = [];
    const f: number[] = [];
    const lengths: number[] = [];
    const words: number[] = [];
    const inNs: boolean[] = [];
    for (let w = 0; w < this.wordPhrases.length; w++) {
      for (const i of this.wordPhrases[w]) {
        const p = this.phrases[i];
        const d = this.dirs[p.term];
        if (d === null) continue;
        for (let b = 0; b < d.blocks; b++) {
          const block = this.decoded(d, b);
          for (let k = 0; k < block.n; k++) {
            const fk = Walk.freq(p, block, k);
            if (fk === 0) continue;
            const doc = block.docs[k];
            let s = slot.get(doc);
            if (s === undefined) {
              s = docs.length;
              slot.set(doc, s);
              docs.push(doc);
              lengths.push(block.lengths[k]);
              words.push(0);
              inNs.push(this.namespaces.has(block.ns[k]));
              for (let j = 0; j < n; j++) f.push(0);
            }
            f[s * n + i] = fk;
            words[s] |= 1 << w;
          }
        }
      }
    }
    const all = (1 << this.wordPhrases.length) - 1;
    const hits: Hit[] = [];
    for (let s = 0; s < docs.length; s++) {
      if (words[s] !== all || !inNs[s]) continue;
      let score = 0.0;
      for (let i = 0; i < n; i++) score += bm25(this.phrases[i].idf, f[s * n + i], lengths[s], this.avgdl);
      hits.push({ id: docs[s], score });
    }
    return hits;
  }

  /** the matches when the walk scored them all (few postings), else null */
  private scoredAll: Hit[] | null = null;

  /** the best `k` of the pages `docs` (each a match or not) not in `skip`, best first (ties by page id) */
  topOf(docs: readonly number[], k: number, skip: ReadonlyMap<number, number>): Hit[] {
    const hits: Hit[] = [];
    for (const id of docs) {
      if (skip.has(id)) continue;
      const score = this.scoreOf(id);
      if (score !== null) hits.push({ id, score });
    }
    hits.sort(byRank);
    return hits.length > k ? hits.slice(0, k) : hits;
  }

  /** the best `k` matches not in `skip`, best first (ties by page id) */
  top(k: number, skip: ReadonlyMap<number, number>): Hit[] {
    if (this.postings() <= EXHAUSTIVE) {
      this.scoredAll = this.everyMatch();
      const hits: Hit[] = [];
      for (const h of this.scoredAll) if (!skip.has(h.id)) hits.push(h);
      hits.sort(byRank);
      return hits.length > k ? hits.slice(0, k) : hits;
    }
    const bounds = this.bounds();
    const order: number[] = [];
    for (let r = 0; r < this.ranges; r++) if (bounds[r] > 0) order.push(r);
    order.sort((a, b) => bounds[b] - bounds[a] || a - b);
    let hits: Hit[] = [];
    let threshold = -1;
    let thresholdId = 0;
    let matches = 0;
    let walkedAll = true;
    for (const r of order) {
      const bound = bounds[r];
      if (threshold >= 0) {
        if (bound < threshold * (1 - SLACK)) {
          walkedAll = false;
          break;
        }
        // a page of this range scores at most the k-th one's; with a higher id it ranks below it
        if (bound <= threshold * (1 + SLACK) && r * this.width > thresholdId) {
          walkedAll = false;
          continue;
        }
      }
      matches += this.range(r, hits, skip);
      if (hits.length >= k) {
        hits.sort(byRank);
        if (hits.length > k) hits = hits.slice(0, k);
        threshold = hits[k - 1].score;
        thresholdId = hits[k - 1].id;
      }
    }
    if (walkedAll) this.matched = matches;
    hits.sort(byRank);
    return hits.length > k ? hits.slice(0, k) : hits;
  }

  /** the number of matches when top() walked every range that has any */
  private matched = -1;

  /** the number of matches when the walk has it without more work (few postings, or top() walked them all) */
  knownCount(): number | null {
    if (this.scoredAll === null && this.postings() <= EXHAUSTIVE) this.scoredAll = this.everyMatch();
    if (this.scoredAll !== null) return this.scoredAll.length;
    return this.matched >= 0 ? this.matched : null;
  }

  /** the pages where the phrase is, set in `bits` (from its postings) */
  orPostings(p: Phrase, bits: Uint32Array): void {
    const d = this.dirs[p.term];
    if (d === null) return;
    for (let b = 0; b < d.blocks; b++) {
      const block = this.decoded(d, b);
      for (let k = 0; k < block.n; k++) {
        const doc = block.docs[k];
        if (doc >>> 5 < bits.length && Walk.freq(p, block, k) > 0) bits[doc >>> 5] |= 1 << (doc & 31);
      }
    }
  }

  /** every match, counted */
  count(): number {
    const known = this.knownCount();
    if (known !== null) return known;
    const bounds = this.bounds();
    let total = 0;
    for (let r = 0; r < this.ranges; r++) if (bounds[r] > 0) total += this.range(r, null, null);
    return total;
  }
}
