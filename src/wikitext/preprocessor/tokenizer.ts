/**
 * Stage 1 of the preprocessor, MediaWiki's Preprocessor_Hash::preprocessToObj: a single left-to-right
 * scan with an explicit stack (no recursion, so no input can overflow the call stack) building the tree
 * of text / template / tplarg / ext-tag nodes. Comments and <noinclude>/<includeonly> sections are
 * dropped here, according to whether the text is the page itself or a transcluded template.
 */
import { escapeRegExp } from '../regexp.js';
import type { PNode, Part, TextNode } from './tree.js';

export const DEFAULT_EXTENSION_TAGS = [
  'nowiki',
  'pre',
  'gallery',
  'ref',
  'references',
  'math',
  'source',
  'syntaxhighlight',
  'poem',
  'charinsert',
  'inputbox',
  'categorytree',
  'imagemap',
  'timeline',
  'hiero',
  'score',
  'templatedata',
  'indicator',
  'graph',
  'chem',
  'ce',
];

export const INDICATOR_OPEN = /^<indicator[\s>/]/i;

/** Shared empty node list: accumulators allocate their own array only when a node arrives. */
const NO_NODES: PNode[] = [];

/**
 * Accumulates the nodes of one part of an open construct ("|"-separated argument, heading line or
 * the top level); consecutive literal text is merged into one text node. Pathological input opens a
 * construct per few characters, so this is kept small.
 */
class Accum {
  nodes: PNode[] = NO_NODES;
  /** whether the last node is a text node later literal text may be appended to */
  private mergeable = false;
  /** index in nodes of the "=" of a named argument, -1 when none */
  eq = -1;
  /** source offsets of the part (for Part.raw) */
  start: number;
  end: number;
  /** of a heading line: where its last comment ends and where the text before that comment ends */
  commentEnd = -1;
  visualEnd = -1;

  constructor(start = 0) {
    this.start = this.end = start;
  }

  private push(n: PNode): void {
    if (this.nodes === NO_NODES) this.nodes = [n];
    else this.nodes.push(n);
  }

  addLiteral(s: string): void {
    if (s === '') return;
    if (this.mergeable) (this.nodes[this.nodes.length - 1] as TextNode).v += s;
    else {
      this.push({ k: 'text', v: s });
      this.mergeable = true;
    }
  }

  addNode(n: PNode): void {
    this.push(n);
    this.mergeable = false;
  }

  /** The "=" of a named argument: its own node, so the argument can be split there later. */
  addEquals(): void {
    this.push({ k: 'text', v: '=' });
    this.mergeable = false;
    this.eq = this.nodes.length - 1;
  }

  addAccum(other: Accum): void {
    for (const n of other.nodes) {
      if (n.k === 'text') this.addLiteral(n.v);
      else this.addNode(n);
    }
  }

  /** Remove `len` trailing spaces/tabs (the indentation before a comment that eats its line). */
  trimTrailingBlanks(len: number): void {
    if (!this.mergeable) return;
    const last = this.nodes[this.nodes.length - 1] as TextNode;
    const v = last.v;
    if (v.length < len) return;
    for (let j = v.length - len; j < v.length; j++) {
      const c = v.charCodeAt(j);
      if (c !== 32 && c !== 9) return;
    }
    last.v = v.slice(0, v.length - len);
  }
}

/** An open "{{"/"[["/heading on the tokenizer stack (PPDStackElement). */
interface Piece {
  open: '{' | '[' | '\n';
  close: '}' | ']' | '\n';
  count: number;
  lineStart: boolean;
  /** offset of the first opening character */
  start: number;
  parts: Accum[];
}

/**
 * Append to `target` what the text would have been had the piece never opened
 * (PPDStackElement::breakSyntax).
 */
function breakSyntaxInto(target: Accum, piece: Piece, parts: readonly Accum[], openingCount: number): void {
  if (piece.open === '\n') {
    target.addAccum(parts[0]);
    return;
  }
  target.addLiteral(piece.open.repeat(openingCount));
  parts.forEach((p, idx) => {
    if (idx > 0) target.addLiteral('|');
    target.addAccum(p);
  });
}

const CH_NL = 10;
const CH_TAB = 9;
const CH_SPACE = 32;
const CH_LT = 60;
const CH_EQ = 61;
export const CH_SLASH = 47;
const CH_LBRACKET = 91;
const CH_LBRACE = 123;
const CH_PIPE = 124;

/** "{", "[", "<" and newline: the characters the tokenizer always stops at */
const ALWAYS_SPECIAL = new Uint8Array(128);
for (const c of [CH_LBRACE, CH_LBRACKET, CH_LT, CH_NL]) ALWAYS_SPECIAL[c] = 1;

const elementRegexCache = new Map<string, RegExp>();
/** Sticky regex recognizing, right after "<", a known tag name or "!--" (the $elementsRegex of MediaWiki). */
function elementRegex(names: readonly string[]): RegExp {
  const key = names.join('|');
  let re = elementRegexCache.get(key);
  if (!re) {
    re = new RegExp(`(${names.map(escapeRegExp).join('|')})(?:[ \\t\\n\\r\\f\\v]|/>|>)|(!--)`, 'iy');
    elementRegexCache.set(key, re);
  }
  return re;
}

const closingTagCache = new Map<string, RegExp>();
function closingTagRegex(lowerName: string): RegExp {
  let re = closingTagCache.get(lowerName);
  if (!re) {
    re = new RegExp(`</${escapeRegExp(lowerName)}[ \\t\\n\\r\\f\\v]*>`, 'gi');
    closingTagCache.set(lowerName, re);
  }
  return re;
}

function countRun(text: string, i: number, code: number, max = Infinity): number {
  let n = 0;
  while (i + n < text.length && n < max && text.charCodeAt(i + n) === code) n++;
  return n;
}

/** spaces and tabs just before offset i */
function blanksBefore(text: string, i: number): number {
  let n = 0;
  while (i - n > 0 && (text.charCodeAt(i - n - 1) === CH_SPACE || text.charCodeAt(i - n - 1) === CH_TAB)) n++;
  return n;
}

/** "=" signs just before offset i */
function equalsBefore(text: string, i: number): number {
  let n = 0;
  while (i - n > 0 && text.charCodeAt(i - n - 1) === CH_EQ) n++;
  return n;
}

function countBlanks(text: string, i: number): number {
  let n = 0;
  for (let c = text.charCodeAt(i + n); c === CH_SPACE || c === CH_TAB; c = text.charCodeAt(i + n)) n++;
  return n;
}

interface ParseResult {
  nodes: PNode[];
  /** too many constructs were open at once: later openings were taken literally */
  overflow: boolean;
}

/**
 * At most this many "{{", "[[" or headings open at the same time. Real pages nest a few dozen deep;
 * text that opens tens of thousands without closing them only costs memory, so past this bound
 * further openings are taken as literal text (and the node limit is reported).
 */
const MAX_OPEN_PIECES = 20000;

/**
 * Build the preprocessor tree of `text`. `forInclusion` selects the transclusion view (noinclude
 * dropped, includeonly kept, onlyinclude honoured) instead of the page view.
 */
/**
 * keepComments: false drops comments, true keeps them as literal text, 'node' as verbatim nodes (OT_WIKI);
 * keepIgnored: the tags the view ignores, and the element it drops, stay as literal text (OT_WIKI's root)
 */
export function preprocessToTree(
  text: string,
  forInclusion: boolean,
  extTags: readonly string[],
  keepComments: boolean | 'node' = false,
  keepIgnored = false,
): ParseResult {
  const len = text.length;
  let overflow = false;

  // Tags handled here, as in MediaWiki: "ignored tags" vanish but their content stays, "ignored
  // elements" vanish with their content, extension tags become verbatim nodes.
  let ignoredTags: string[];
  let ignoredElement: string;
  let enableOnlyinclude = false;
  if (forInclusion) {
    ignoredTags = ['includeonly', '/includeonly'];
    ignoredElement = 'noinclude';
    enableOnlyinclude = text.includes('<onlyinclude>') && text.includes('</onlyinclude>');
  } else {
    ignoredTags = ['noinclude', '/noinclude', 'onlyinclude', '/onlyinclude'];
    ignoredElement = 'includeonly';
  }
  const elementRe = elementRegex([...extTags, ignoredElement, ...ignoredTags]);

  const root = new Accum();
  const stack: Piece[] = [];
  let top: Piece | undefined;
  let accum = root;
  let findPipe = false;
  let findEquals = false;
  let inHeading = false;
  let headingIndex = 1;

  /** Recompute the current accumulator and search flags after the stack changed (getFlags). */
  const refresh = (): void => {
    top = stack[stack.length - 1];
    if (!top) {
      accum = root;
      findPipe = findEquals = inHeading = false;
      return;
    }
    const part = top.parts[top.parts.length - 1];
    accum = part;
    findPipe = top.open !== '\n' && top.open !== '[';
    findEquals = findPipe && top.parts.length > 1 && part.eq < 0;
    inHeading = top.open === '\n';
  };

  let i = 0;
  let noMoreGT = false;
  let findOnlyinclude = enableOnlyinclude;
  // The text starts on a new line: look for a heading before anything else.
  let fakeLineStart = true;

  for (;;) {
    if (findOnlyinclude) {
      // Transcluded text with <onlyinclude>: skip everything up to the next one.
      const startPos = text.indexOf('<onlyinclude>', i);
      if (startPos < 0) break;
      i = startPos + '<onlyinclude>'.length;
      findOnlyinclude = false;
    }

    let found: 'line-start' | 'line-end' | 'pipe' | 'equals' | 'angle' | 'close' | 'open';
    let curChar = 0;
    if (fakeLineStart) {
      found = 'line-start';
    } else {
      // Literal text up to the next character that can matter in the current state.
      // (Locals, not the closure's variables: this loop sees every character of the text.)
      const closing = top ? top.close.charCodeAt(0) : -1;
      const pipe = findPipe ? CH_PIPE : -1;
      const equals = findEquals ? CH_EQ : -1;
      let j = i;
      for (; j < len; j++) {
        const c = text.charCodeAt(j);
        if (c < 128 && (ALWAYS_SPECIAL[c] === 1 || c === closing || c === pipe || c === equals)) break;
      }
      if (j > i) {
        accum.addLiteral(text.slice(i, j));
        i = j;
      }
      if (i >= len) {
        if (top && top.open === '\n')
          found = 'line-end'; // finish off a heading at the end
        else break;
      } else {
        curChar = text.charCodeAt(i);
        if (curChar === CH_PIPE) found = 'pipe';
        else if (curChar === CH_EQ) found = 'equals';
        else if (curChar === CH_LT) found = 'angle';
        else if (curChar === CH_NL) found = inHeading ? 'line-end' : 'line-start';
        else if (curChar === closing) found = 'close';
        else found = 'open';
      }
    }

    switch (found) {
      case 'angle': {
        if (enableOnlyinclude && text.startsWith('</onlyinclude>', i)) {
          findOnlyinclude = true;
          continue;
        }
        elementRe.lastIndex = i + 1;
        const m = elementRe.exec(text);
        if (!m) {
          accum.addLiteral('<');
          i++;
          continue;
        }
        if (m[2] === '!--') {
          const next = skipComment(text, i, accum);
          if (top && next.closed) {
            // where a heading's "=" run has to end when the line ends in comments
            const part = accum;
            if (part.commentEnd !== next.wsStart - 1) part.visualEnd = next.wsStart;
            part.commentEnd = next.i - 1;
          }
          // a kept comment is literal text, with the blanks and the newline of a line it takes whole
          if (keepComments === 'node') accum.addNode({ k: 'comment', raw: text.slice(i - next.eaten, next.i) });
          else if (keepComments) accum.addLiteral(text.slice(i - next.eaten, next.i));
          i = next.i;
          if (next.eatLine) fakeLineStart = true;
          continue;
        }
        const name = m[1];
        const lower = name.toLowerCase();
        const attrStart = i + name.length + 1;
        const tagEndPos = noMoreGT ? -1 : text.indexOf('>', attrStart);
        if (tagEndPos < 0) {
          // No ">" anywhere after here: never look for one again (avoids O(n²) on "<nowiki<nowiki…").
          noMoreGT = true;
          accum.addLiteral('<');
          i++;
          continue;
        }
        if (ignoredTags.includes(lower)) {
          if (keepIgnored) accum.addNode({ k: 'ignore', raw: text.slice(i, tagEndPos + 1) });
          i = tagEndPos + 1;
          continue;
        }
        const tagStartPos = i;
        if (text.charCodeAt(tagEndPos - 1) === CH_SLASH) {
          i = tagEndPos + 1; // <tag ... />
        } else {
          const closeRe = closingTagRegex(lower);
          closeRe.lastIndex = tagEndPos + 1;
          const cm = closeRe.exec(text);
          // MediaWiki 1.25: an unclosed tag runs to the end of the text.
          i = cm ? cm.index + cm[0].length : len;
        }
        if (lower === ignoredElement) {
          if (keepIgnored) accum.addNode({ k: 'ignore', raw: text.slice(tagStartPos, i) });
          continue;
        }
        accum.addNode({ k: 'ext', raw: text.slice(tagStartPos, i) });
        continue;
      }

      case 'line-start': {
        // The newline belongs before a heading in any case.
        if (fakeLineStart) fakeLineStart = false;
        else {
          accum.addLiteral('\n');
          i++;
        }
        const count = countRun(text, i, CH_EQ, 6);
        // A single "=" at the start of a line inside a template argument is taken as the
        // name/value separator rather than a heading (MediaWiki's heuristic).
        if (count > 0 && !(count === 1 && findEquals)) {
          const heading = new Accum(i);
          heading.addLiteral('='.repeat(count));
          stack.push({ open: '\n', close: '\n', count, lineStart: true, start: i, parts: [heading] });
          refresh();
          i += count;
        }
        continue;
      }

      case 'line-end': {
        // A heading line ends. Whether or not it is a well-formed heading its text is the same, so
        // the content simply moves to the enclosing accumulator. The newline is not consumed: it may
        // start the next heading.
        const piece = stack.pop() as Piece;
        const part = piece.parts[0];
        // Is it a heading? The "=" run before the line's trailing blanks (or before its trailing
        // comments) closes it; a line of "=" alone is a heading of (n-1)/2.
        let searchStart = i - blanksBefore(text, i);
        if (part.commentEnd >= 0 && searchStart - 1 === part.commentEnd) {
          searchStart = part.visualEnd;
          searchStart -= blanksBefore(text, searchStart);
        }
        const equalsLength = equalsBefore(text, searchStart);
        let level = 0;
        if (equalsLength > 0) {
          if (searchStart - equalsLength === piece.start) level = equalsLength < 3 ? 0 : Math.min(6, Math.floor((equalsLength - 1) / 2));
          else level = Math.min(equalsLength, piece.count);
        }
        refresh();
        // only headings that end up at the top level become <h> (one inside a template argument stays text)
        if (level > 0)
          accum.addNode({
            k: 'h',
            level,
            index: headingIndex++,
            start: piece.start,
            nodes: part.nodes,
            raw: text.slice(piece.start, i),
            possible: stack.length !== 0,
          });
        else accum.addAccum(part);
        continue;
      }

      case 'open': {
        const open = curChar === CH_LBRACE ? '{' : '[';
        const count = countRun(text, i, curChar);
        if (count >= 2 && stack.length >= MAX_OPEN_PIECES) overflow = true;
        if (count >= 2 && !overflow) {
          const start = i;
          stack.push({
            open,
            close: open === '{' ? '}' : ']',
            count,
            lineStart: i > 0 && text.charCodeAt(i - 1) === CH_NL,
            start,
            parts: [new Accum(start + count)],
          });
          refresh();
        } else {
          accum.addLiteral(open.repeat(count));
        }
        i += count;
        continue;
      }

      case 'close': {
        const piece = top as Piece;
        const maxCount = piece.count;
        // Only up to three closing characters can match (scanning further would make "{{{{…}}}}"
        // runs quadratic).
        const count = countRun(text, i, curChar, Math.min(maxCount, 3));
        // "{" makes templates (2) and arguments (3); "[" only pairs up "[[…]]" (2) as plain text.
        let matching: number;
        if (piece.open === '[') matching = count >= 2 ? 2 : 0;
        else matching = count >= 3 ? 3 : count === 2 ? 2 : 0;
        if (matching === 0) {
          accum.addLiteral(piece.close.repeat(count));
          i += count;
          continue;
        }

        const parts = piece.parts;
        let element: PNode | null = null;
        if (piece.open === '{') {
          parts[parts.length - 1].end = i;
          const elemStart = piece.start + piece.count - matching;
          const raw = text.slice(elemStart, i + matching);
          const title = parts[0].nodes;
          const args: Part[] = [];
          let argIndex = 1;
          for (let p = 1; p < parts.length; p++) {
            const pa = parts[p];
            const nodes = pa.nodes;
            const partRaw = text.slice(pa.start, pa.end);
            if (pa.eq >= 0) {
              const value = nodes.slice(pa.eq + 1);
              args.push({ nodes, name: nodes.slice(0, pa.eq), value, key: '', def: { nodes: value, named: true }, raw: partRaw });
            } else {
              args.push({ nodes, name: null, value: nodes, key: String(argIndex++), def: { nodes, named: false }, raw: partRaw });
            }
          }
          element =
            matching === 3
              ? { k: 'arg', title, parts: args, raw, lineStart: maxCount === matching && piece.lineStart }
              : { k: 'tpl', title, parts: args, raw, lineStart: maxCount === matching && piece.lineStart };
        }
        i += matching;
        stack.pop();
        refresh();
        // Braces left over ("{{{{x}}" …) stay open, or become literal when too few remain.
        if (matching < piece.count) {
          piece.count -= matching;
          piece.parts = [new Accum(piece.start + piece.count)];
          if (piece.count >= 2) {
            stack.push(piece);
            refresh();
          } else {
            accum.addLiteral(piece.open.repeat(piece.count));
          }
        }
        if (element) accum.addNode(element);
        else {
          // "[[…]]" is no element: its text goes on, its pipes and equals signs stay literal.
          breakSyntaxInto(accum, piece, parts, matching);
          accum.addLiteral(']'.repeat(matching));
        }
        continue;
      }

      case 'pipe': {
        const piece = top as Piece;
        const parts = piece.parts;
        parts[parts.length - 1].end = i;
        // A fresh exact-size array on the first "|" (push would reserve room for 17 parts, which adds
        // up when hostile text opens thousands of "{{x|").
        if (parts.length === 1) piece.parts = [parts[0], new Accum(i + 1)];
        else parts.push(new Accum(i + 1));
        refresh();
        i++;
        continue;
      }

      case 'equals': {
        accum.addEquals();
        refresh();
        i++;
        continue;
      }
    }
  }

  // Whatever is still open was not markup after all.
  for (const piece of stack) breakSyntaxInto(root, piece, piece.parts, piece.count);
  for (const n of root.nodes) if (n.k === 'h') n.possible = false;
  return { nodes: root.nodes, overflow };
}

/**
 * Skip the comment starting at `i` ("<!--"). Like MediaWiki, a run of comments alone on its line
 * (only blanks around) takes the whole line with it, so that removing it leaves no blank line.
 */
function skipComment(
  text: string,
  i: number,
  accum: Accum,
): { i: number; eatLine: boolean; eaten: number; closed: boolean; wsStart: number } {
  const endPos = text.indexOf('-->', i + 4);
  if (endPos < 0) return { i: text.length, eatLine: false, eaten: 0, closed: false, wsStart: i }; // unclosed: runs to the end
  let wsStart = i;
  while (wsStart > 0 && (text.charCodeAt(wsStart - 1) === CH_SPACE || text.charCodeAt(wsStart - 1) === CH_TAB)) wsStart--;
  // wsEnd: the last blank after the comment, or its ">"
  let wsEnd = endPos + 2 + countBlanks(text, endPos + 3);
  while (text.startsWith('<!--', wsEnd + 1)) {
    const c = text.indexOf('-->', wsEnd + 4);
    if (c < 0) break;
    wsEnd = c + 2 + countBlanks(text, c + 3);
  }
  if (wsStart > 0 && text.charCodeAt(wsStart - 1) === CH_NL && text.charCodeAt(wsEnd + 1) === CH_NL) {
    accum.trimTrailingBlanks(i - wsStart);
    return { i: wsEnd + 2, eatLine: true, eaten: i - wsStart, closed: true, wsStart };
  }
  return { i: endPos + 3, eatLine: false, eaten: 0, closed: true, wsStart };
}

/**
 * The headings at the top level of a text's tree (the page view, or the transclusion view of "T-"
 * sections), in order: what Parser::extractSections walks.
 */
export function topLevelHeadings(
  text: string,
  forInclusion: boolean,
  extTags: readonly string[] = DEFAULT_EXTENSION_TAGS,
): Array<{ index: number; level: number; start: number }> {
  const { nodes } = preprocessToTree(text, forInclusion, extTags);
  const out: Array<{ index: number; level: number; start: number }> = [];
  for (const n of nodes) if (n.k === 'h') out.push({ index: n.index, level: n.level, start: n.start });
  return out;
}
