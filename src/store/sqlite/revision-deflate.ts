/**
 * revision_text's encoder: raw deflate (RFC 1951), which the store reads back with zlib's inflateRawSync,
 * made here instead of by zlib for the texts of a wiki.
 *
 * Why: zlib spends most of a ~600-byte text's ~20 µs building the three Huffman trees of the text's one
 * block (and clearing its state): the import deflates every revision (1,000,000 pages: ~22 CPU s, most of
 * it in pass 1, where both cores are busy). This encoder writes one dynamic block with a code made once
 * (below), so a text costs its LZ77 matching and its bits: ~7 µs. The code is the Huffman code of symbol
 * counts of Ukrainian wikitext (2,000 pages of the synthetic 100,000-page dump: its letters are UTF-8
 * pairs 0xD0/0xD1 + 0x80..0xBF, its markup ASCII), counts averaged over groups of bytes and of match
 * lengths so that the code lengths come in runs and the block header is 56 bytes; the texts come out
 * ~9% bigger than zlib's (0.570 of their bytes against 0.524). A text the code does not fit (another
 * script, binary-like data) is left to zlib: whichever is used, the bytes depend on the text alone, so
 * an import of the same dump gives the same database.
 */
import { deflateRawSync } from 'node:zlib';

/** code lengths of literal/length symbols 0..285 and of distance symbols 0..29, one hex digit each */
const LIT_LENGTHS =
  'ffeeeeeeee7eeeeeeeeeeeeeeeeeeeee4aaaaaa99999999999999999998888888eeeeeeeeeeeeeeeeeeeeeeeeee777777bbbbbbbbbbbbbbbbbbbbbbbbbb7777788888888888888888888888888888888aaaaaaaaaaaaaaaa7777777777777777dddddddddddddddd34ddddcccccccccccccccccccccccccccccccccccccccccc85555555588888888bbbbbbbbbbbbb';
const DIST_LENGTHS = '888866664434343345887777788777';

const LEN_BASE = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258];
const LEN_EXTRA = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0];
const DIST_BASE = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577];
const DIST_EXTRA = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13];
/** the order of the code length code's lengths in a block header */
const CL_ORDER = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15];

const WSIZE = 32768;
const WMASK = WSIZE - 1;
const HBITS = 15;
const HMASK = (1 << HBITS) - 1;
/** candidates tried per position; a match this long is taken at once */
const MAX_CHAIN = 16;
const NICE_MATCH = 64;
/** above this share of the input (plus the header) the text goes to zlib instead */
const POOR_FIT = 0.7;
/** texts beyond this go to zlib (positions stay far from 2^31 in the chains below) */
const MAX_BYTES = 1 << 28;

/** canonical Huffman codes of `lengths`, bit-reversed (deflate writes codes from their first bit on) */
function canonicalCodes(lengths: number[]): number[] {
  const count = new Array<number>(16).fill(0);
  for (const l of lengths) if (l > 0) count[l]++;
  // a complete code: zlib's inflate refuses an over-subscribed or incomplete literal/length or distance code
  let kraft = 0;
  for (let l = 1; l < 16; l++) kraft += count[l] / 2 ** l;
  if (kraft !== 1) throw new Error('revision-deflate: the code is not complete');
  const next = new Array<number>(16).fill(0);
  for (let l = 1, code = 0; l < 16; l++) {
    code = (code + count[l - 1]) << 1;
    next[l] = code;
  }
  return lengths.map((l) => {
    if (l === 0) return 0;
    let c = next[l]++;
    let r = 0;
    for (let i = 0; i < l; i++) {
      r = (r << 1) | (c & 1);
      c >>= 1;
    }
    return r;
  });
}

/** Huffman code lengths (at most maxBits) of the symbol counts; ties go to the lower symbol */
function huffmanLengths(counts: number[], maxBits: number): number[] {
  let weights = counts.slice();
  for (;;) {
    type Node = { w: number; o: number; s?: number; kids?: [Node, Node] };
    let order = 0;
    const queue: Node[] = [];
    weights.forEach((w, s) => {
      if (w > 0) queue.push({ w, o: order++, s });
    });
    const lengths = new Array<number>(counts.length).fill(0);
    if (queue.length === 1) {
      lengths[queue[0].s!] = 1;
      return lengths;
    }
    const before = (a: Node, b: Node) => a.w - b.w || a.o - b.o;
    queue.sort(before);
    while (queue.length > 1) {
      const a = queue.shift()!;
      const b = queue.shift()!;
      const parent: Node = { w: a.w + b.w, o: order++, kids: [a, b] };
      let i = 0;
      while (i < queue.length && before(queue[i], parent) < 0) i++;
      queue.splice(i, 0, parent);
    }
    const walk = (n: Node, depth: number) => {
      if (n.kids) {
        walk(n.kids[0], depth + 1);
        walk(n.kids[1], depth + 1);
      } else lengths[n.s!] = depth;
    };
    walk(queue[0], 0);
    if (Math.max(...lengths) <= maxBits) return lengths;
    const floor = Math.max(1, Math.floor(Math.max(...weights) / 64));
    weights = weights.map((w) => (w > 0 ? w + floor : 0));
  }
}

/** the block header (BFINAL, dynamic codes, the two codes' lengths) as bytes and the bits left over */
function blockHeader(lengths: number[]): { bytes: Uint8Array; acc: number; bits: number } {
  // the lengths run-length coded: 16 repeats the previous 3..6 times, 17/18 are 3..10/11..138 zeros
  const runs: Array<[symbol: number, extra: number, extraBits: number]> = [];
  for (let i = 0; i < lengths.length; ) {
    const l = lengths[i];
    let run = 1;
    while (i + run < lengths.length && lengths[i + run] === l) run++;
    if (l === 0 && run >= 3) {
      const r = Math.min(run, 138);
      runs.push(r >= 11 ? [18, r - 11, 7] : [17, r - 3, 3]);
      i += r;
      continue;
    }
    runs.push([l, 0, 0]);
    i++;
    for (let left = run - 1; left >= 3; ) {
      const r = Math.min(left, 6);
      runs.push([16, r - 3, 2]);
      left -= r;
      i += r;
    }
  }
  const clCounts = new Array<number>(19).fill(0);
  for (const [s] of runs) clCounts[s]++;
  const clLengths = huffmanLengths(clCounts, 7);
  const clCodes = canonicalCodes(clLengths);
  let hclen = 19;
  while (hclen > 4 && clLengths[CL_ORDER[hclen - 1]] === 0) hclen--;
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const put = (v: number, n: number) => {
    acc |= v << bits;
    bits += n;
    while (bits >= 8) {
      out.push(acc & 255);
      acc >>>= 8;
      bits -= 8;
    }
  };
  put(1, 1); // BFINAL: the only block
  put(2, 2); // dynamic Huffman codes
  put(286 - 257, 5);
  put(30 - 1, 5);
  put(hclen - 4, 4);
  for (let i = 0; i < hclen; i++) put(clLengths[CL_ORDER[i]], 3);
  for (const [s, extra, extraBits] of runs) {
    put(clCodes[s], clLengths[s]);
    if (extraBits > 0) put(extra, extraBits);
  }
  return { bytes: Uint8Array.from(out), acc, bits };
}

const litLengths = [...LIT_LENGTHS].map((c) => parseInt(c, 16));
const distLengths = [...DIST_LENGTHS].map((c) => parseInt(c, 16));
const litCodes = Uint16Array.from(canonicalCodes(litLengths));
const litBits = Uint8Array.from(litLengths);
const distCodes = canonicalCodes(distLengths);
const HEADER = blockHeader([...litLengths, ...distLengths]);

// a match length / distance as its symbol's code with the extra bits above it, and the bits in all
const lenCode = new Uint32Array(259);
const lenBits = new Uint8Array(259);
for (let s = 0; s < 29; s++) {
  const end = s < 28 ? LEN_BASE[s + 1] : 259;
  for (let len = LEN_BASE[s]; len < end; len++) {
    lenCode[len] = litCodes[257 + s] | ((len - LEN_BASE[s]) << litBits[257 + s]);
    lenBits[len] = litBits[257 + s] + LEN_EXTRA[s];
  }
}
const distCode = new Uint32Array(WSIZE + 1);
const distBits = new Uint8Array(WSIZE + 1);
for (let s = 0; s < 30; s++) {
  const end = s < 29 ? DIST_BASE[s + 1] : WSIZE + 1;
  for (let d = DIST_BASE[s]; d < end; d++) {
    distCode[d] = distCodes[s] | ((d - DIST_BASE[s]) << distLengths[s]);
    distBits[d] = distLengths[s] + DIST_EXTRA[s];
  }
}

/*
 * Hash chains over "global" positions: a text's position p is base + p + 1, and every text starts above
 * the last one's end plus the window, so what earlier texts left in the tables is never a candidate
 * (below base) and nothing is cleared between texts. The tables and the output buffer are this thread's.
 */
const head = new Int32Array(1 << HBITS);
const prev = new Int32Array(WSIZE);
let base = 0;
let out = new Uint8Array(1 << 16);

/** A text's UTF-8 bytes → raw deflate, in an ArrayBuffer of its own (it can be transferred to another thread). */
export function deflateRevisionBytes(buf: Uint8Array): Uint8Array {
  const n = buf.length;
  if (n > MAX_BYTES) return zlibDeflate(buf);
  if (base > 0x40000000) {
    head.fill(0);
    prev.fill(0);
    base = 0;
  }
  // a literal is at most 15 bits and a match of 3 bytes or more at most 48: under 2 bytes a byte
  if (out.length < 2 * n + HEADER.bytes.length + 8) out = new Uint8Array(2 * n + HEADER.bytes.length + 8);
  const o = out;
  o.set(HEADER.bytes, 0);
  let pos = HEADER.bytes.length;
  let acc = HEADER.acc;
  let bits = HEADER.bits;
  const b0 = base;
  let i = 0;
  while (i < n) {
    let bestLen = 0;
    let bestDist = 0;
    if (i + 2 < n) {
      const h = ((buf[i] << 10) ^ (buf[i + 1] << 5) ^ buf[i + 2]) & HMASK;
      const g = b0 + i + 1;
      const maxLen = n - i < 258 ? n - i : 258;
      let c = head[h];
      for (let chain = MAX_CHAIN; c > b0 && g - c <= WSIZE && chain > 0; chain--) {
        const p = c - b0 - 1;
        if (buf[p + bestLen] === buf[i + bestLen]) {
          let l = 0;
          while (l < maxLen && buf[p + l] === buf[i + l]) l++;
          if (l > bestLen) {
            bestLen = l;
            bestDist = i - p;
            if (l >= NICE_MATCH || l === maxLen) break;
          }
        }
        const next = prev[c & WMASK];
        if (next >= c) break;
        c = next;
      }
      prev[g & WMASK] = head[h];
      head[h] = g;
    }
    if (bestLen >= 3) {
      acc |= lenCode[bestLen] << bits; // at most 7 + 20 bits held
      bits += lenBits[bestLen];
      while (bits >= 8) {
        o[pos++] = acc & 255;
        acc >>>= 8;
        bits -= 8;
      }
      const dc = distCode[bestDist];
      const db = distBits[bestDist];
      if (db > 16) {
        // up to 15 + 13 bits: in two parts
        acc |= (dc & 0xffff) << bits;
        bits += 16;
        while (bits >= 8) {
          o[pos++] = acc & 255;
          acc >>>= 8;
          bits -= 8;
        }
        acc |= (dc >>> 16) << bits;
        bits += db - 16;
      } else {
        acc |= dc << bits;
        bits += db;
      }
      while (bits >= 8) {
        o[pos++] = acc & 255;
        acc >>>= 8;
        bits -= 8;
      }
      // the positions inside the match go into the chains too
      const end = i + bestLen;
      for (let p = i + 1; p < end && p + 2 < n; p++) {
        const h = ((buf[p] << 10) ^ (buf[p + 1] << 5) ^ buf[p + 2]) & HMASK;
        const g = b0 + p + 1;
        prev[g & WMASK] = head[h];
        head[h] = g;
      }
      i = end;
    } else {
      const b = buf[i++];
      acc |= litCodes[b] << bits;
      bits += litBits[b];
      while (bits >= 8) {
        o[pos++] = acc & 255;
        acc >>>= 8;
        bits -= 8;
      }
    }
  }
  acc |= litCodes[256] << bits; // end of block
  bits += litBits[256];
  while (bits > 0) {
    o[pos++] = acc & 255;
    acc >>>= 8;
    bits -= 8;
  }
  base = b0 + n + WSIZE + 1;
  if (pos > POOR_FIT * n + HEADER.bytes.length) return zlibDeflate(buf);
  return o.slice(0, pos);
}

/** zlib's raw deflate with the smallest window that reaches back over the whole text (the default's bytes) */
function zlibDeflate(buf: Uint8Array): Uint8Array {
  let w = 9;
  while (w < 15 && (1 << w) - 262 < buf.length) w++;
  return new Uint8Array(deflateRawSync(buf, { windowBits: w, memLevel: 8 }));
}
