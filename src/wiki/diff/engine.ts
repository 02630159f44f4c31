/**
 * MediaWiki 1.25's line and word diffs (includes/diff/DairikiDiff.php), ported line for line: which lines
 * (words) of the old text were kept, deleted, added or changed. DiffEngine's longest common subsequence
 * is its own heuristic (Myers-style searches in at most eight chunks per level, not a minimal edit
 * script): a minimal one, such as the `diff` package's, pairs other lines in about one case in two
 * hundred of random edits (measured against 1.25's PHP code), and the HTML would then differ. Then
 * shiftBoundaries (a run of changes slides down as far as equal lines allow, lining up with a run of the
 * other side), the grouping into copy/delete/add/change operations, and WordLevelDiff's words.
 *
 * Bounded: the subsequence search counts its steps, and past MAX_WORK the lines still in question count
 * as changed, as compareSeq marks them when it finds no common subsequence (deterministic, unlike a clock).
 */
import { phpLooseEquals } from '../../php/compare.js';
import { htmlspecialchars } from '../html.js';

export type DiffOpType = 'copy' | 'delete' | 'add' | 'change';

/** DiffOp: `orig` the old side's lines (null for add), `closing` the new side's (null for delete) */
export interface DiffOp {
  type: DiffOpType;
  orig: string[] | null;
  closing: string[] | null;
}

/** steps (matches visited) of the subsequence search one diff may take: about half a second at most */
const MAX_WORK = 5_000_000;

/** DiffEngine::diff: the edits that turn `from` into `to` */
export function diffSequences(from: readonly string[], to: readonly string[]): DiffOp[] {
  const nFrom = from.length;
  const nTo = to.length;
  const engine = new LcsEngine(from, to);
  const xchanged = engine.xchanged;
  const ychanged = engine.ychanged;
  shiftBoundaries(from, xchanged, ychanged);
  shiftBoundaries(to, ychanged, xchanged);

  const edits: DiffOp[] = [];
  let xi = 0;
  let yi = 0;
  while (xi < nFrom || yi < nTo) {
    const copy: string[] = [];
    while (xi < nFrom && yi < nTo && !xchanged[xi] && !ychanged[yi]) {
      copy.push(from[xi++]);
      yi++;
    }
    if (copy.length) edits.push({ type: 'copy', orig: copy, closing: copy });
    const del: string[] = [];
    while (xi < nFrom && xchanged[xi]) del.push(from[xi++]);
    const add: string[] = [];
    while (yi < nTo && ychanged[yi]) add.push(to[yi++]);
    if (del.length && add.length) edits.push({ type: 'change', orig: del, closing: add });
    else if (del.length) edits.push({ type: 'delete', orig: del, closing: null });
    else if (add.length) edits.push({ type: 'add', orig: null, closing: add });
    else if (xi < nFrom || yi < nTo) {
      // unreachable when the flags describe a common subsequence; guards the loop all the same
      edits.push({ type: 'change', orig: from.slice(xi), closing: to.slice(yi) });
      break;
    }
  }
  return edits;
}

/** DiffEngine::diffLocal, diag, lcsPos and compareSeq: the changed lines of each side */
class LcsEngine {
  readonly xchanged: boolean[];
  readonly ychanged: boolean[];
  private readonly xv: string[] = [];
  private readonly yv: string[] = [];
  private readonly xind: number[] = [];
  private readonly yind: number[] = [];
  private seq: number[] = [];
  /** in_seq: y is in the current sequence when inSeq[y] === gen (a new diag clears it by taking the next gen) */
  private inSeq: Int32Array = new Int32Array(0);
  private gen = 0;
  private lcs = 0;
  private work = 0;

  constructor(from: readonly string[], to: readonly string[]) {
    const nFrom = from.length;
    const nTo = to.length;
    this.xchanged = new Array<boolean>(nFrom).fill(false);
    this.ychanged = new Array<boolean>(nTo).fill(false);
    // leading and trailing common lines
    let skip = 0;
    while (skip < nFrom && skip < nTo && from[skip] === to[skip]) skip++;
    let xi = nFrom;
    let yi = nTo;
    let endskip = 0;
    while (--xi > skip && --yi > skip) {
      if (from[xi] !== to[yi]) break;
      endskip++;
    }
    // lines that are not in both texts are changed, and out of the search
    const xhash = new Set<string>();
    for (let i = skip; i < nFrom - endskip; i++) xhash.add(from[i]);
    const yhash = new Set<string>();
    for (let i = skip; i < nTo - endskip; i++) {
      const line = to[i];
      if ((this.ychanged[i] = !xhash.has(line))) continue;
      yhash.add(line);
      this.yv.push(line);
      this.yind.push(i);
    }
    for (let i = skip; i < nFrom - endskip; i++) {
      const line = from[i];
      if ((this.xchanged[i] = !yhash.has(line))) continue;
      this.xv.push(line);
      this.xind.push(i);
    }
    this.inSeq = new Int32Array(Math.max(this.xv.length, this.yv.length) + 1);
    this.compareSeq(0, this.xv.length, 0, this.yv.length);
  }

  /** DiffEngine::diag: the LCS of a box in nchunks stripes, with the points where it crosses them */
  private diag(xoff: number, xlim: number, yoff: number, ylim: number, nchunks: number): [number, Array<[number, number]>] {
    let flip = false;
    if (xlim - xoff > ylim - yoff) {
      // the shorter sequence in x
      flip = true;
      [xoff, xlim, yoff, ylim] = [yoff, ylim, xoff, xlim];
    }
    const ymatches = new Map<string, number[]>();
    const ys = flip ? this.xv : this.yv;
    const xs = flip ? this.yv : this.xv;
    for (let i = ylim - 1; i >= yoff; i--) {
      const l = ymatches.get(ys[i]);
      if (l) l.push(i);
      else ymatches.set(ys[i], [i]);
    }
    this.lcs = 0;
    this.seq[0] = yoff - 1;
    this.gen++;
    const ymids: Array<number[] | undefined> = [[]];
    const numer = xlim - xoff + nchunks - 1;
    let x = xoff;
    for (let chunk = 0; chunk < nchunks; chunk++) {
      if (chunk > 0) for (let i = 0; i <= this.lcs; i++) (ymids[i] ??= [])[chunk - 1] = this.seq[i];
      const x1 = xoff + Math.trunc((numer + (xlim - xoff) * chunk) / nchunks);
      for (; x < x1; x++) {
        const matches = ymatches.get(xs[x]);
        if (!matches) continue;
        // past the budget the box has no common subsequence: compareSeq marks it all changed
        if ((this.work += matches.length) > MAX_WORK) return [0, []];
        let k = 0;
        let m = 0;
        while (m < matches.length) {
          const y = matches[m++];
          if (this.inSeq[y] !== this.gen) {
            k = this.lcsPos(y);
            ymids[k] = ymids[k - 1]?.slice();
            break;
          }
        }
        while (m < matches.length) {
          const y = matches[m++];
          if (y > this.seq[k - 1]) {
            // the next match just replaces the previous one
            this.inSeq[this.seq[k]] = 0;
            this.seq[k] = y;
            this.inSeq[y] = this.gen;
          } else if (this.inSeq[y] !== this.gen) {
            k = this.lcsPos(y);
            ymids[k] = ymids[k - 1]?.slice();
          }
        }
      }
    }
    const seps: Array<[number, number]> = [flip ? [yoff, xoff] : [xoff, yoff]];
    const ymid = ymids[this.lcs] ?? [];
    for (let n = 0; n < nchunks - 1; n++) {
      const x1 = xoff + Math.trunc((numer + (xlim - xoff) * n) / nchunks);
      const y1 = (ymid[n] ?? 0) + 1;
      seps.push(flip ? [y1, x1] : [x1, y1]);
    }
    seps.push(flip ? [ylim, xlim] : [xlim, ylim]);
    return [this.lcs, seps];
  }

  /** DiffEngine::lcsPos */
  private lcsPos(ypos: number): number {
    let end = this.lcs;
    if (end === 0 || ypos > this.seq[end]) {
      this.seq[++this.lcs] = ypos;
      this.inSeq[ypos] = this.gen;
      return this.lcs;
    }
    let beg = 1;
    while (beg < end) {
      const mid = Math.trunc((beg + end) / 2);
      if (ypos > this.seq[mid]) beg = mid + 1;
      else end = mid;
    }
    this.inSeq[this.seq[end]] = 0;
    this.seq[end] = ypos;
    this.inSeq[ypos] = this.gen;
    return end;
  }

  /** DiffEngine::compareSeq: the LCS of a box, recursively, the lines outside it marked changed */
  private compareSeq(xoff: number, xlim: number, yoff: number, ylim: number): void {
    const xv = this.xv;
    const yv = this.yv;
    // slide down the bottom initial diagonal, up the top one (PHP's loose ==)
    while (xoff < xlim && yoff < ylim && phpLooseEquals(xv[xoff], yv[yoff])) {
      ++xoff;
      ++yoff;
    }
    while (xlim > xoff && ylim > yoff && phpLooseEquals(xv[xlim - 1], yv[ylim - 1])) {
      --xlim;
      --ylim;
    }
    let lcs = 0;
    let seps: Array<[number, number]> = [];
    if (xoff !== xlim && yoff !== ylim && this.work < MAX_WORK) {
      const nchunks = Math.min(7, xlim - xoff, ylim - yoff) + 1;
      [lcs, seps] = this.diag(xoff, xlim, yoff, ylim, nchunks);
    }
    if (lcs === 0) {
      // no common subsequence: everything in the box changed
      while (yoff < ylim) this.ychanged[this.yind[yoff++]] = true;
      while (xoff < xlim) this.xchanged[this.xind[xoff++]] = true;
    } else {
      let pt1 = seps[0];
      for (let i = 1; i < seps.length; i++) {
        const pt2 = seps[i];
        this.compareSeq(pt1[0], pt2[0], pt1[1], pt2[1]);
        pt1 = pt2;
      }
    }
  }
}

/**
 * DiffEngine::shiftBoundaries, line for line: slide each run of changed lines down while the line after
 * it equals its first line, merging it with the runs it meets, and then back up to where it lines up
 * with a run of changes on the other side, if it passed one.
 */
function shiftBoundaries(lines: readonly string[], changed: boolean[], otherChanged: readonly boolean[]): void {
  let i = 0;
  let j = 0;
  const len = lines.length;
  const otherLen = otherChanged.length;
  for (;;) {
    // scan forwards to find the beginning of another run of changes, keeping j in step
    while (j < otherLen && otherChanged[j]) j++;
    while (i < len && !changed[i]) {
      i++;
      j++;
      while (j < otherLen && otherChanged[j]) j++;
    }
    if (i === len) break;
    let start = i;
    while (++i < len && changed[i]) {
      // the end of this run of changes
    }
    let runLength: number;
    let corresponding: number;
    do {
      runLength = i - start;
      // shift the run up while the line before it equals its last line, merging with earlier runs
      while (start > 0 && phpLooseEquals(lines[start - 1], lines[i - 1])) {
        changed[--start] = true;
        changed[--i] = false;
        while (start > 0 && changed[start - 1]) start--;
        while (j > 0 && otherChanged[--j]) {
          // back over the other side's run
        }
      }
      // the last point where the run lines up with a run of the other side
      corresponding = j < otherLen ? i : len;
      // shift it down as far as possible, merging with later runs
      while (i < len && phpLooseEquals(lines[start], lines[i])) {
        changed[start++] = false;
        changed[i++] = true;
        while (i < len && changed[i]) i++;
        j++;
        if (j < otherLen && otherChanged[j]) {
          corresponding = i;
          while (j < otherLen && otherChanged[j]) j++;
        }
      }
    } while (runLength !== i - start);
    // back up to the corresponding run of the other side, if there is one
    while (corresponding < i) {
      changed[--start] = true;
      changed[--i] = false;
      while (j > 0 && otherChanged[--j]) {
        // back over the other side's run
      }
    }
  }
}

/** WordLevelDiff::MAX_LINE_LENGTH: a longer line (in UTF-8 bytes) is one word */
const MAX_LINE_LENGTH = 10000;

/**
 * WordLevelDiff::split's words: a run of spaces, a run of word characters (ASCII letters, digits, _ and
 * every non-ASCII character: the PHP pattern matches UTF-8 bytes \x80-\xff), or one other character,
 * each with one following space. PCRE's \s there is ASCII whitespace only.
 */
const WORD = /([\t\x0b\f\r ]+|[0-9_A-Za-z\u0080-\u{10ffff}]+|.)(?:(?!<\n)[\t\x0b\f\r ])?/gsu;

function splitWords(lines: readonly string[]): { words: string[]; stripped: string[] } {
  const words: string[] = [];
  const stripped: string[] = [];
  let first = true;
  for (const line of lines) {
    if (first) first = false;
    else {
      words.push('\n');
      stripped.push('\n');
    }
    if (Buffer.byteLength(line, 'utf8') > MAX_LINE_LENGTH) {
      words.push(line);
      stripped.push(line);
      continue;
    }
    for (const m of line.matchAll(WORD)) {
      words.push(m[0]);
      stripped.push(m[1]);
    }
  }
  return { words, stripped };
}

const INLINE_CLASS = ' class="diffchange diffchange-inline"';

/** HWLDFWordAccumulator: words back into lines of HTML, the changed ones wrapped in <ins>/<del> */
class WordAccumulator {
  private readonly lines: string[] = [];
  private line = '';
  private group = '';
  private tag = '';

  private flushGroup(newTag: string): void {
    if (this.group !== '') {
      if (this.tag === 'ins') this.line += `<ins${INLINE_CLASS}>${htmlspecialchars(this.group)}</ins>`;
      else if (this.tag === 'del') this.line += `<del${INLINE_CLASS}>${htmlspecialchars(this.group)}</del>`;
      else this.line += htmlspecialchars(this.group);
    }
    this.group = '';
    this.tag = newTag;
  }

  private flushLine(newTag: string): void {
    this.flushGroup(newTag);
    // an empty line is made visible with a no-break space
    this.lines.push(this.line !== '' ? this.line : '&#160;');
    this.line = '';
  }

  addWords(words: readonly string[], tag = ''): void {
    if (tag !== this.tag) this.flushGroup(tag);
    for (let word of words) {
      if (word === '') continue;
      // a new line only ever comes as the first character of a word
      if (word[0] === '\n') {
        this.flushLine(tag);
        word = word.slice(1);
      }
      this.group += word;
    }
  }

  getLines(): string[] {
    this.flushLine('~done');
    return this.lines;
  }
}

/**
 * WordLevelDiff of the lines of a change: the old lines and the new lines as HTML (escaped), the words
 * deleted and added marked; one entry per line.
 */
export function wordLevelDiff(origLines: readonly string[], closingLines: readonly string[]): { orig: string[]; closing: string[] } {
  const o = splitWords(origLines);
  const c = splitWords(closingLines);
  // MappedDiff: the edits of the stripped words, carried over to the words with their spaces
  const edits = diffSequences(o.stripped, c.stripped);
  const orig = new WordAccumulator();
  const closing = new WordAccumulator();
  let xi = 0;
  let yi = 0;
  for (const edit of edits) {
    const origWords = edit.orig ? o.words.slice(xi, (xi += edit.orig.length)) : null;
    const closingWords = edit.closing ? c.words.slice(yi, (yi += edit.closing.length)) : null;
    if (edit.type === 'copy') {
      orig.addWords(origWords!);
      closing.addWords(closingWords!);
    } else {
      if (origWords) orig.addWords(origWords, 'del');
      if (closingWords) closing.addWords(closingWords, 'ins');
    }
  }
  return { orig: orig.getLines(), closing: closing.getLines() };
}
