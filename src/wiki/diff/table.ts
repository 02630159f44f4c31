/**
 * The diff body of MediaWiki 1.25 (DifferenceEngine::generateTextDiffBody with its native PHP engine,
 * DiffFormatter::format, TableDiffFormatter): table rows of the changed lines with two lines of context
 * around each block, the changes within a line marked word by word, byte for byte as 1.25 writes them.
 */
import { htmlspecialchars } from '../html.js';
import { type DiffOp, diffSequences, wordLevelDiff } from './engine.js';

/** TableDiffFormatter's context lines before and after a block */
const CONTEXT_LINES = 2;

/**
 * The diff body of two texts, its line numbers left as `<!--LINE n-->` (DifferenceEngine keeps them so in
 * its cache and replaces them per user language: localiseLineNumbers).
 */
export function tableDiffBody(oldText: string, newText: string): string {
  const ota = oldText.replace(/\r\n/g, '\n').split('\n');
  const nta = newText.replace(/\r\n/g, '\n').split('\n');
  return formatTable(diffSequences(ota, nta));
}

/** DifferenceEngine::localiseLineNumbers: each `<!--LINE n-->` becomes the line number message */
export function localiseLineNumbers(body: string, lineNumber: (n: string) => string): string {
  return body.replace(/<!--LINE (\d+)-->/g, (_m, n: string) => lineNumber(n));
}

/** DiffFormatter::format with TableDiffFormatter's output */
function formatTable(edits: DiffOp[]): string {
  const out: string[] = [];
  let xi = 1;
  let yi = 1;
  let block: DiffOp[] | null = null;
  let context: string[] = [];
  let x0 = 0;
  let y0 = 0;
  for (const edit of edits) {
    if (edit.type === 'copy') {
      const orig = edit.orig!;
      if (block) {
        if (orig.length <= CONTEXT_LINES + CONTEXT_LINES) block.push(edit);
        else {
          const trail = orig.slice(0, CONTEXT_LINES);
          block.push({ type: 'copy', orig: trail, closing: trail });
          writeBlock(out, x0, CONTEXT_LINES + xi - x0, y0, CONTEXT_LINES + yi - y0, block);
          block = null;
        }
      }
      context = orig;
    } else {
      if (!block) {
        context = context.slice(Math.max(0, context.length - CONTEXT_LINES));
        x0 = xi - context.length;
        y0 = yi - context.length;
        block = [];
        if (context.length) block.push({ type: 'copy', orig: context, closing: context });
      }
      block.push(edit);
    }
    if (edit.orig) xi += edit.orig.length;
    if (edit.closing) yi += edit.closing.length;
  }
  if (block) writeBlock(out, x0, xi - x0, y0, yi - y0, block);
  return out.join('');
}

function writeBlock(out: string[], xbeg: number, _xlen: number, ybeg: number, _ylen: number, edits: DiffOp[]): void {
  out.push(
    `<tr><td colspan="2" class="diff-lineno" id="L${xbeg}" ><!--LINE ${xbeg}--></td>\n<td colspan="2" class="diff-lineno"><!--LINE ${ybeg}--></td></tr>\n`,
  );
  for (const edit of edits) {
    if (edit.type === 'copy') {
      for (const line of edit.orig!) {
        const h = htmlspecialchars(line);
        out.push(`<tr>${contextLine(h)}${contextLine(h)}</tr>\n`);
      }
    } else if (edit.type === 'add') {
      for (const line of edit.closing!)
        out.push(`<tr>${EMPTY_LINE}${addedLine(`<ins class="diffchange">${htmlspecialchars(line)}</ins>`)}</tr>\n`);
    } else if (edit.type === 'delete') {
      for (const line of edit.orig!)
        out.push(`<tr>${deletedLine(`<del class="diffchange">${htmlspecialchars(line)}</del>`)}${EMPTY_LINE}</tr>\n`);
    } else changed(out, edit.orig!, edit.closing!);
  }
}

/** TableDiffFormatter::changed: the word-level diff's lines side by side, leftovers of the new side alone */
function changed(out: string[], orig: string[], closing: string[]): void {
  const { orig: del, closing: add } = wordLevelDiff(orig, closing);
  let d = 0;
  let a = 0;
  // `while ( $line = array_shift( $del ) )`: PHP stops at a line that is falsy, and "0" is
  while (d < del.length && del[d] !== '' && del[d] !== '0') {
    const line = del[d++];
    // array_shift of an empty array gives null, which the <div> wraps as nothing
    const aline = a < add.length ? add[a++] : null;
    out.push(`<tr>${deletedLine(line)}${addedLine(aline)}</tr>\n`);
  }
  for (; a < add.length; a++) out.push(`<tr>${EMPTY_LINE}${addedLine(add[a])}</tr>\n`);
}

const EMPTY_LINE = '<td colspan="2">&#160;</td>';

const addedLine = (line: string | null) => wrapLine('+', 'diff-addedline', line);
const deletedLine = (line: string) => wrapLine('−', 'diff-deletedline', line);
const contextLine = (line: string) => wrapLine('&#160;', 'diff-context', line);

function wrapLine(marker: string, cls: string, line: string | null): string {
  // the <div> lets 'overflow: auto' scroll the cell
  const inner = line !== '' ? `<div>${escapeWhiteSpace(line ?? '')}</div>` : '';
  return `<td class='diff-marker'>${marker}</td><td class='${cls}'>${inner}</td>`;
}

/**
 * TableDiffFormatter::escapeWhiteSpace: leading, trailing and doubled spaces made visible (PCRE's ^ and $
 * of /m are at \n only, JavaScript's also at \r and U+2028/9)
 */
function escapeWhiteSpace(s: string): string {
  return s
    .replace(/(^|\n) /g, '$1&#160; ')
    .replace(/ (?=\n|$)/g, ' &#160;')
    .replace(/ {2}/g, '&#160; ');
}
