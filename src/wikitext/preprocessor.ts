/**
 * A wikitext preprocessor after MediaWiki 1.25's Preprocessor_Hash + Parser::braceSubstitution: it
 * expands templates, template parameters, parser functions and magic variables, so that the link,
 * category and Semantic MediaWiki annotation extraction that follows sees what MediaWiki saw.
 *
 * Two stages, as in MediaWiki:
 *  1. `preprocessToTree` — a single left-to-right scan with an explicit stack (no recursion, so no
 *     input can overflow the call stack) building a tree of text / template / tplarg / ext-tag nodes.
 *     Comments and <noinclude>/<includeonly> sections are dropped here, according to whether the text
 *     is the page itself or a transcluded template.
 *  2. `Expander` — walks the tree in frames (one per template call, holding its arguments) and
 *     produces text. Template parameters are expanded lazily and cached per frame, template calls
 *     without arguments are cached per parent frame (MediaWiki's "empty-frame cache"), and three
 *     limits (expansion depth, expanded bytes, visited nodes) bound the work: when one is hit the
 *     rest is left unexpanded, `limitHit` says which, and nothing is thrown.
 *
 * What MediaWiki renders as markup is output as the wikitext that produces it: a missing template
 * becomes the red link `[[:Шаблон:Name]]` (leading colon: never a category or file), a loop
 * `<span class="error">Template loop detected: [[Шаблон:Name]]</span>`, #expr errors
 * `<strong class="error">Expression error: …</strong>`; page names are escaped with HTML character
 * references as wfEscapeWikiText does ("Кам'янка" → "Кам&#39;янка"), which title parsing decodes.
 *
 * Deliberate differences from MediaWiki, because this output feeds a later parsing stage rather than
 * HTML: extension tags (<ref>, <gallery>, <nowiki>, …) are kept verbatim, content unexpanded;
 * Semantic MediaWiki and Semantic Forms parser functions other than #arraymap/#arraymaptemplate, as
 * well as unknown `{{#name:…}}` functions and #time, are output as `{{#name:…|…}}` with their
 * arguments expanded (values untrimmed, as written); `{{=}}` gives "=" when no such template exists; variables and functions needing the live
 * wiki (NUMBEROFARTICLES, fullurl: …) stay as written; a limit leaves the source text of what it
 * stopped instead of an error message.
 *
 * As in 1.25, a plain `{{subst:…}}` outside the pre-save transform stays as written and `safesubst:`
 * expands like a plain call; the pre-save transform (outputType 'wiki') expands only those two.
 *
 * This module is pure: all page access goes through the context's callbacks.
 */
import { convertGrammar, convertPlural, formatNumText, lcfirst, parseFormattedNumber, ucfirst } from '../wiki/language.js';
import { NS_MAIN, NS_MEDIAWIKI, NS_TEMPLATE } from '../wiki/namespaces.js';
import { replaceParameters } from '../wiki/messages.js';
import { wfUrlencode } from '../wiki/files.js';
import { phpLooseEquals } from '../php/compare.js';
import { isNumericString, phpFloatCast, phpFloatToString, phpFloatval, phpIntCast, phpIntval, phpRound } from '../php/numbers.js';
import { phpArraySlice, phpExplodeLimit, phpTrim } from '../php/strings.js';
import { phpUrlencode, rawUrlEncode } from '../php/url.js';
import { decodeCharReferences } from '../wiki/titles.js';
import { escapeXmlText, htmlspecialchars } from '../wiki/html.js';
import { fixSpecialName, resolveSpecialAlias } from '../wiki/special-pages.js';
import { escapeRegExp } from './regexp.js';

// ---------------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------------

export interface PreprocessContext {
  /** the page being expanded; dbkey has underscores, nsText is the local namespace name ('' for main) */
  title: { ns: number; dbkey: string; nsText: string };
  /**
   * Wikitext of a transclusion target as written ('Місто', 'Шаблон:Місто', ':Головна',
   * 'Користувач:X/y'), or null when the page does not exist. The caller normalizes the title,
   * defaults the namespace to Template (a leading ':' means main) and follows redirects; the
   * returned ns/dbkey are those of the page whose text this is.
   */
  getTemplate(target: string): { text: string; ns: number; dbkey: string } | null;
  /** does a page exist (for #ifexist); raw text, no default namespace */
  pageExists(target: string): boolean;
  /** parse a title for {{PAGENAME:…}}-like magic words; text is the title without namespace, with spaces */
  parseTitle?(text: string): { ns: number; nsText: string; text: string } | null;
  /**
   * Resolve a target as written, with the given default namespace, to a title (null when the title is
   * invalid). Used to report missing templates, to render their red links and for #ifexist links.
   * Without it a built-in resolver using Ukrainian/English namespace names is used.
   */
  resolveTarget?(target: string, defaultNs: number): { ns: number; dbkey: string; nsText?: string } | null;
  /**
   * local namespace names by number (spaces or underscores), overriding the built-in uk defaults.
   * This, namespacesWithSubpages and extensionTags are read once per set of objects: pass the same
   * (unchanged) objects for every page and the tables built from them are reused.
   */
  namespaceNames?: Readonly<Record<number, string>>;
  /** namespaces where '/' makes subpages (default: MediaWiki's $wgNamespacesWithSubpages) */
  namespacesWithSubpages?: readonly number[];
  /** tags whose content is not preprocessed (MediaWiki's strip list); default: core + common extensions */
  extensionTags?: readonly string[];
  /** {{SITENAME}}; left unexpanded when absent */
  siteName?: string;
  /** the time of CURRENT* / LOCAL* variables (UTC); default: now */
  now?: Date;
  limits?: { maxDepth?: number; maxExpandedBytes?: number; maxNodes?: number };
  /** parse trees of template texts shared between calls (one cache per import run, say) */
  treeCache?: TemplateTreeCache;
  /**
   * keep <!-- comments --> in the output (ParserOptions::setRemoveComments(false), expandtemplates'
   * includecomments); they are removed by default
   */
  keepComments?: boolean;
  /**
   * The value of a variable the preprocessor cannot compute by itself ({{SERVER}}, {{NUMBEROFPAGES}},
   * {{REVISIONID}}, … as written, aliases included), or undefined to leave it as it is written.
   */
  variable?(word: string): string | undefined;
  /**
   * {{DISPLAYTITLE:…}}: the HTML the page's title would show for this text, or null when
   * $wgRestrictDisplayTitle refuses it (not the page's own title). Without it the last argument is
   * recorded as written.
   */
  displayTitle?(text: string): string | null;
  /** a message in the content language, as the wiki has it (duplicate-displaytitle); built-in uk text otherwise */
  message?(key: string): string | undefined;
  /**
   * 'wiki' is the pre-save transform's expansion (Parser::OT_WIKI): only {{subst:…}} calls are expanded,
   * everything else stays as written; comments are kept, and they and extension tags go through
   * `stripItem` (strip markers) so that the signature and pipe-trick passes do not see into them.
   * Default 'html': everything but plain {{subst:…}} is expanded.
   */
  outputType?: 'html' | 'wiki';
  /** OT_WIKI: the marker standing for a comment or an extension tag in the output */
  stripItem?(raw: string): string;
  /** mark headings for the renderer's section numbering (ExpandResult.headings, HEADING_MARKER_RE) */
  headingMarkers?: boolean;
  /**
   * Semantic MediaWiki's inline queries: the output of `{{#ask:…}}` / `{{#show:…}}` for these
   * (expanded, trimmed) arguments, or undefined to leave the call as written (no query engine, or its
   * answer is not known yet). `expand`: the output holds template calls to expand (format=template),
   * as SMW's printer runs Parser::replaceVariables on it; otherwise it is inserted as it is (noparse).
   */
  inlineQuery?(fn: 'ask' | 'show' | 'concept' | 'concept-again', args: string[]): { text: string; expand: boolean } | undefined;
  /**
   * The language of {{PLURAL}}, {{GRAMMAR}} and {{formatnum}} (Parser::getTargetLanguage): the content
   * language for a page, the user language for an interface message. Default 'uk'.
   */
  language?: string;
  /** {{CONTENTLANGUAGE}}; default 'uk' */
  contentLanguage?: string;
  /**
   * {{int:key|…}}: Message::plain of the key in the target language with the call's arguments as $1…,
   * parsed again in a frame holding them (CoreParserFunctions::intFunction). Without it no message
   * exists: Message::plain's "<key>".
   */
  interfaceMessage?(key: string, args: string[]): string;
  /**
   * the content language's parser-template-loop-warning ($1: the template), read when a loop is met;
   * 1.25's English text when absent or undefined
   */
  templateLoopWarning?(): string | undefined;
  /**
   * Past the expansion depth limit output PPFrame::expand's "Expansion depth limit exceeded" error, as
   * MediaWiki does; by default the source text stays (the importer reads links from it).
   */
  depthLimitError?: boolean;
  /**
   * Collect what only the limit report uses: the generated node count and the time spent on each
   * transcluded page (ExpandResult.report.generatedNodes, .profile)
   */
  limitReport?: boolean;
}

/** What Parser::parse puts in its limit report about the preprocessor (ParserOutput::setLimitReportData) */
export interface ExpansionReport {
  /** nodes the expansion visited (mPPNodeCount) */
  visitedNodes: number;
  /** nodes the parse trees used hold (mGeneratedPPNodeCount), each tree counted once per expansion */
  generatedNodes: number;
  /** bytes of template and function output included (mIncludeSizes['post-expand']) */
  postExpandBytes: number;
  /** bytes of template arguments substituted (mIncludeSizes['arg']) */
  argBytes: number;
  /** the deepest nesting of expansion reached (mHighestExpansionDepth) */
  highestDepth: number;
  /** expensive parser function calls: {{#ifexist:}} of a title not checked before (mExpensiveFunctionCount) */
  expensiveCount: number;
  /** with ctx.limitReport: per transcluded page (prefixed DB key) its calls and the milliseconds spent expanding it */
  profile?: Array<{ name: string; calls: number; ms: number }>;
  /** with ctx.limitReport: from the start of the first transclusion to the end of the last, in milliseconds */
  profileTotalMs?: number;
}

export interface ExpandResult {
  /** expanded wikitext */
  text: string;
  /** every page transcluded (each once, in first-use order), nested and missing ones included */
  templates: Array<{ ns: number; dbkey: string }>;
  /** pages whose existence #ifexist checked: MediaWiki records them as page links */
  links: Array<{ ns: number; dbkey: string }>;
  /** the last {{DEFAULTSORT:…}} (or a synonym) */
  defaultSort?: string;
  /**
   * the page's display title: with ctx.displayTitle the HTML of the {{DISPLAYTITLE:…}} that applies;
   * without it the argument of the last one, as written
   */
  displayTitle?: string;
  /** a {{DISPLAYTITLE:…}} was refused (Parser::addTrackingCategory('restricted-displaytitle-ignored')) */
  displayTitleIgnored?: boolean;
  /** 'depth' | 'size' | 'nodes' | 'error' when a limit stopped (part of) the expansion */
  limitHit?: string;
  /** with ctx.headingMarkers: the headings behind the markers in the text, by serial */
  headings?: HeadingMark[];
  /** with ctx.limitReport: what the limit report states */
  report?: ExpansionReport;
}

/** Parser::$mHeadings: where a heading of the expanded text was written */
export interface HeadingMark {
  /** the template it comes from, null for the page itself */
  title: { ns: number; dbkey: string } | null;
  /** its number among the headings of that text */
  index: number;
  /** the page's own headings: offset of the heading in the page's text (UTF-16 units) */
  start: number | null;
}

/** the marker expandWikitext puts in a heading with ctx.headingMarkers; the renderer takes it out */
export const HEADING_MARKER_RE = /\x7fUNIQ-h-(\d+)-QINU\x7f/g;
/** the marker at the start of a headline, with the whitespace after it (the renderer's reading of it) */
export const LEADING_HEADING_MARKER_RE = /^\x7fUNIQ-h-(\d+)-QINU\x7f\s*/;
function headingMarker(serial: number): string {
  return `\x7fUNIQ-h-${serial}-QINU\x7f`;
}

/**
 * The limits of a default 1.25 ParserOptions: $wgMaxPPExpandDepth and $wgMaxTemplateDepth (40),
 * $wgMaxArticleSize as the include size (2 MB), $wgMaxPPNodeCount (1,000,000).
 */
export const DEFAULT_LIMITS = { maxDepth: 40, maxExpandedBytes: 2 * 1024 * 1024, maxNodes: 1_000_000 } as const;

/** Expand the templates, parameters, parser functions and variables of a page's wikitext. */
export function expandWikitext(text: string, ctx: PreprocessContext): ExpandResult {
  const ex = new Expander(ctx);
  let out: string;
  try {
    const tree = ex.parse(text, false, ctx.outputType === 'wiki');
    out = ex.expand(tree, ex.rootFrame);
  } catch (e) {
    // Defensive only: every limit is handled without exceptions, but a host stack overflow
    // (RangeError) must not take the importer down with it.
    if (!(e instanceof RangeError)) throw e;
    out = text;
    ex.limitHit = 'error';
  }
  const result: ExpandResult = { text: out, templates: [...ex.templates.values()], links: [...ex.links.values()] };
  if (ctx.limitReport) result.report = ex.report();
  if (ex.defaultSort !== undefined) result.defaultSort = ex.defaultSort;
  if (ex.displayTitle !== undefined) result.displayTitle = ex.displayTitle;
  if (ex.displayTitleIgnored) result.displayTitleIgnored = true;
  if (ctx.headingMarkers) result.headings = ex.headings;
  if (ex.limitHit !== undefined) result.limitHit = ex.limitHit;
  return result;
}

/**
 * Parse trees of transcluded texts, reusable across expandWikitext calls: trees are never modified
 * by expansion, so a template used on thousands of pages is parsed once. Keyed by the text itself;
 * bounded by the total length of the texts held (oldest dropped first).
 */
export class TemplateTreeCache {
  private readonly trees = new Map<string, PNode[]>();
  private chars = 0;
  /** the extension tag list the trees were parsed with (a tree depends on it) */
  private tags: string | undefined;

  constructor(private readonly maxChars = 32 * 1024 * 1024) {}

  /** @internal */
  get(text: string, tags: string): PNode[] | undefined {
    return this.tags === tags ? this.trees.get(text) : undefined;
  }

  /** @internal */
  set(text: string, tags: string, tree: PNode[]): void {
    if (this.tags !== tags) {
      this.trees.clear();
      this.chars = 0;
      this.tags = tags;
    }
    if (text.length > this.maxChars || this.trees.has(text)) return;
    this.trees.set(text, tree);
    this.chars += text.length;
    for (const [oldest] of this.trees) {
      if (this.chars <= this.maxChars) break;
      this.trees.delete(oldest);
      this.chars -= oldest.length;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Parse tree
// ---------------------------------------------------------------------------------------------------

interface TextNode {
  k: 'text';
  v: string;
}
/** {{title|parts}} */
interface TplNode {
  k: 'tpl';
  title: PNode[];
  parts: Part[];
  /** the call starts a line (then a leading "*", "#", ":", ";" or "{|" of its output needs no newline) */
  lineStart: boolean;
  /** the source text of the call, output when a limit stops its expansion */
  raw: string;
}
/** {{{title|default}}} */
interface ArgNode {
  k: 'arg';
  title: PNode[];
  parts: Part[];
  raw: string;
  lineStart: boolean;
}
/** an extension tag (<nowiki>, <ref>, …), kept verbatim */
interface ExtNode {
  k: 'ext';
  raw: string;
}
/** a comment, kept (OT_WIKI, parse trees); with the blanks and newline of a line it takes whole */
interface CommentNode {
  k: 'comment';
  raw: string;
}
/** what the view ignores, kept as written (OT_WIKI's page, parse trees): <noinclude> tags, an <includeonly> element */
interface IgnoreNode {
  k: 'ignore';
  raw: string;
}
/** a well-formed heading line at the top level of a text (Preprocessor_Hash's <h level= i=>) */
interface HeadingNode {
  k: 'h';
  level: number;
  /** its number among the headings of the text it was parsed from, from 1 */
  index: number;
  /** offset of its first "=" in that text */
  start: number;
  nodes: PNode[];
  raw: string;
  /** not (yet) at the top level: expanded as plain text (Preprocessor_Hash's possible-h) */
  possible: boolean;
}
type PNode = TextNode | TplNode | ArgNode | ExtNode | CommentNode | IgnoreNode | HeadingNode;

/** One "|"-separated argument. `nodes` is the whole argument; a named one also has name and value. */
interface Part {
  nodes: PNode[];
  /** nodes before the first top-level "=", or null for a positional argument */
  name: PNode[] | null;
  /** nodes after that "=", or all nodes for a positional argument */
  value: PNode[];
  /** a positional argument's number as a string ("1", "2", …), '' for a named one */
  key: string;
  /** the argument as a template frame holds it */
  def: ArgDef;
  /** source text of the argument */
  raw: string;
}

/** Source text of a node list, for output when a limit stops expansion (no recursion needed). */
function rawOf(nodes: readonly PNode[], from = 0): string {
  let s = '';
  for (let i = from; i < nodes.length; i++) {
    const n = nodes[i];
    s += n.k === 'text' ? n.v : n.raw;
  }
  return s;
}

/** nodes a tree holds (arguments included) */
function treeSize(nodes: readonly PNode[]): number {
  let n = nodes.length;
  for (const node of nodes) {
    if (node.k === 'tpl' || node.k === 'arg') {
      n += treeSize(node.title);
      for (const p of node.parts) n += 1 + treeSize(p.nodes);
    } else if (node.k === 'h') n += treeSize(node.nodes);
  }
  return n;
}

/** the sizes of shared template trees, counted once per tree */
const templateTreeSizes = new WeakMap<readonly PNode[], number>();
function templateTreeSize(tree: readonly PNode[]): number {
  let n = templateTreeSizes.get(tree);
  if (n === undefined) templateTreeSizes.set(tree, (n = treeSize(tree)));
  return n;
}

// ---------------------------------------------------------------------------------------------------
// Stage 1: tokenizer (Preprocessor_Hash::preprocessToObj)
// ---------------------------------------------------------------------------------------------------

export const DEFAULT_EXTENSION_TAGS = [
  'nowiki', 'pre', 'gallery', 'ref', 'references', 'math', 'source', 'syntaxhighlight', 'poem', 'charinsert',
  'inputbox', 'categorytree', 'imagemap', 'timeline', 'hiero', 'score', 'templatedata', 'indicator', 'graph',
  'chem', 'ce',
];

const INDICATOR_OPEN = /^<indicator[\s>\/]/i;

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
const CH_SLASH = 47;
const CH_LBRACKET = 91;
const CH_RBRACKET = 93;
const CH_LBRACE = 123;
const CH_RBRACE = 125;
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
function preprocessToTree(text: string, forInclusion: boolean, extTags: readonly string[], keepComments: boolean | 'node' = false, keepIgnored = false): ParseResult {
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
        if (top && top.open === '\n') found = 'line-end'; // finish off a heading at the end
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
        if (level > 0) accum.addNode({ k: 'h', level, index: headingIndex++, start: piece.start, nodes: part.nodes, raw: text.slice(piece.start, i), possible: stack.length !== 0 });
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
function skipComment(text: string, i: number, accum: Accum): { i: number; eatLine: boolean; eaten: number; closed: boolean; wsStart: number } {
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

// ---------------------------------------------------------------------------------------------------
// The tree as XML (action=parse prop=parsetree, expandtemplates prop=parsetree)
// ---------------------------------------------------------------------------------------------------

/**
 * Parser::preprocessToDom(text) printed as a stock 1.25 prints it: PHP's dom extension makes the
 * preprocessor Preprocessor_DOM, whose tree is serialised by libxml (DOMDocument::saveXML): text
 * escapes only &, < and >, CR is a newline (the XML it was loaded from), empty elements are <x/>, every heading is <h level= i=> and a named
 * argument is <name>…</name>=<value>…</value>. (1.39's Preprocessor_Hash also escapes '"', names
 * headings inside arguments <possible-h> and wraps the "=" in <equals>.)
 */
export function preprocessToXml(text: string, extTags: readonly string[] = DEFAULT_EXTENSION_TAGS): string {
  const { nodes } = preprocessToTree(text, false, extTags, 'node', true);
  return element('root', '', xmlNodes(nodes));
}

/**
 * The headings at the top level of a text's tree (the page view, or the transclusion view of "T-"
 * sections), in order: what Parser::extractSections walks.
 */
export function topLevelHeadings(text: string, forInclusion: boolean, extTags: readonly string[] = DEFAULT_EXTENSION_TAGS): Array<{ index: number; level: number; start: number }> {
  const { nodes } = preprocessToTree(text, forInclusion, extTags);
  const out: Array<{ index: number; level: number; start: number }> = [];
  for (const n of nodes) if (n.k === 'h') out.push({ index: n.index, level: n.level, start: n.start });
  return out;
}

/** a text node as libxml prints it; the XML the DOM was loaded from had its line ends normalised to \n */
function xmlText(s: string): string {
  return escapeXmlText(s.replace(/\r\n?/g, '\n'));
}

function element(name: string, attrs: string, inner: string): string {
  return inner === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`;
}

function xmlNodes(nodes: readonly PNode[]): string {
  let out = '';
  for (const n of nodes) {
    switch (n.k) {
      case 'text':
        out += xmlText(n.v);
        break;
      case 'comment':
      case 'ignore':
        out += element(n.k, '', xmlText(n.raw));
        break;
      case 'ext':
        out += xmlExt(n.raw);
        break;
      case 'h':
        out += element('h', ` level="${n.level}" i="${n.index}"`, xmlNodes(n.nodes));
        break;
      case 'tpl':
      case 'arg': {
        let inner = element('title', '', xmlNodes(n.title));
        for (const p of n.parts) {
          inner +=
            p.name === null
              ? `<part><name index="${p.key}"/>${element('value', '', xmlNodes(p.value))}</part>`
              : `<part>${element('name', '', xmlNodes(p.name))}=${element('value', '', xmlNodes(p.value))}</part>`;
        }
        out += element(n.k === 'tpl' ? 'template' : 'tplarg', n.lineStart ? ' lineStart="1"' : '', inner);
        break;
      }
    }
  }
  return out;
}

/** <ext><name/><attr/><inner/><close/></ext> from the tag as the tokenizer took it */
function xmlExt(raw: string): string {
  const name = /^<([^\s/>]+)/.exec(raw)![1];
  const tagEnd = raw.indexOf('>');
  let out = `<ext>${element('name', '', xmlText(name))}`;
  if (raw.charCodeAt(tagEnd - 1) === CH_SLASH) return `${out}${element('attr', '', xmlText(raw.slice(1 + name.length, tagEnd - 1)))}</ext>`;
  out += element('attr', '', xmlText(raw.slice(1 + name.length, tagEnd)));
  const rest = raw.slice(tagEnd + 1);
  const close = new RegExp(`</${escapeRegExp(name)}[ \\t\\n\\r\\f\\v]*>$`, 'i').exec(rest);
  const inner = close ? rest.slice(0, close.index) : rest;
  out += element('inner', '', xmlText(inner));
  if (close) out += element('close', '', xmlText(close[0]));
  return out + '</ext>';
}

// ---------------------------------------------------------------------------------------------------
// Stage 2: expansion (PPFrame_Hash::expand, Parser::braceSubstitution / argSubstitution)
// ---------------------------------------------------------------------------------------------------

interface ArgDef {
  nodes: PNode[];
  /** named arguments are trimmed after expansion, positional ones are not */
  named: boolean;
}

/** The expansion context of one template call (the page itself is the root frame). */
class Frame {
  /** expanded arguments, by name */
  argCache: Map<string, string> | null = null;
  /** expansions of argument-less template calls made from this frame, by template key */
  childCache: Map<string, string> | null = null;
  constructor(
    readonly parent: Frame | null,
    readonly args: Map<string, ArgDef> | null,
    /** "ns:dbkey" of the template this frame expands; null for the page */
    readonly key: string | null,
    /** template nesting depth (0 for the page) */
    readonly depth: number,
  ) {}

  get isTemplate(): boolean {
    return this.parent !== null;
  }

  get isEmpty(): boolean {
    return this.args === null || this.args.size === 0;
  }

  /** False when `key` is already being expanded further up: a template loop. */
  loopCheck(key: string): boolean {
    for (let f: Frame | null = this; f; f = f.parent) if (f.key === key) return false;
    return true;
  }
}

/** A transclusion target as written, resolved (see Expander.lookupTarget). */
interface TemplateTarget {
  /** the title as written */
  ns: number;
  dbkey: string;
  nsText?: string;
  /** the page whose text is transcluded, null when missing */
  page: { text: string; ns: number; dbkey: string } | null;
  /** "ns:dbkey" of that page */
  pageKey: string;
  tree: PNode[] | null;
  /** already reported in ExpandResult.templates */
  recorded: boolean;
}

/** A parser-function or variable result meaning "output the call itself, arguments expanded". */
const LITERAL = Symbol('literal');
/** A parser function's "found => false": the call is taken for a transclusion ({{ns:Nothing}}, {{int:}}). */
const NOT_FOUND = Symbol('not found');
type FnResult = string | typeof LITERAL | typeof NOT_FOUND;

interface Call {
  frame: Frame;
  node: TplNode;
  /** the text after the colon, trimmed: the first argument */
  first: string;
  /** the expanded title as written, for the literal output */
  titleWithSpaces: string;
}

type ParserFunction = (ex: Expander, c: Call) => FnResult;

interface TitleInfo {
  ns: number;
  /** namespace name with spaces, '' for main */
  nsText: string;
  /** title without namespace, with spaces */
  text: string;
}

/** characters of expanded text that count as one node against maxNodes */
const TEXT_UNIT = 64;
/** characters of generated text to parse that count as one node */
const PARSE_UNIT = 8;

class Expander {
  readonly rootFrame = new Frame(null, null, null, 0);
  readonly templates = new Map<string, { ns: number; dbkey: string }>();
  readonly links = new Map<string, { ns: number; dbkey: string }>();
  readonly headings: HeadingMark[] = [];
  defaultSort: string | undefined;
  displayTitle: string | undefined;
  displayTitleIgnored = false;
  limitHit: string | undefined;
  /** template-format inline query outputs being expanded, one inside another */
  inlineTemplateDepth = 0;
  /** a {{#concept:}} has been expanded (a page defines one concept; SMW answers the others with an error) */
  conceptSeen = false;

  private readonly maxDepth: number;
  private readonly maxBytes: number;
  private readonly maxNodes: number;
  private readonly site: SiteTables;
  readonly current: TitleInfo;

  private nodeCount = 0;
  private postExpandBytes = 0;
  private argBytes = 0;
  private expandDepth = 0;
  private visitedNodes = 0;
  private generatedNodes = 0;
  private highestDepth = 0;
  private expensiveCount = 0;
  /** #ifexist targets checked (a second check of one costs nothing, as LinkCache answers it) */
  private existChecked: Set<string> | null = null;
  /** ctx.limitReport: page key → calls and nanoseconds; the first start and last end of a transclusion */
  private profile: Map<string, { calls: number; ns: bigint }> | null = null;
  private profileStart: bigint | null = null;
  private profileEnd: bigint | null = null;
  /** set by the size and node limits: from then on nothing more is expanded */
  private stopped = false;

  // made on first use: most message expansions transclude nothing
  private fetchCache: Map<string, { text: string; ns: number; dbkey: string } | null> | null = null;
  private treeCache: Map<string, PNode[]> | null = null;
  private targetCache: Map<string, TemplateTarget | null> | null = null;

  constructor(readonly ctx: PreprocessContext) {
    const lim = ctx.limits ?? {};
    this.maxDepth = lim.maxDepth ?? DEFAULT_LIMITS.maxDepth;
    this.maxBytes = lim.maxExpandedBytes ?? DEFAULT_LIMITS.maxExpandedBytes;
    this.maxNodes = lim.maxNodes ?? DEFAULT_LIMITS.maxNodes;
    this.wikiMode = ctx.outputType === 'wiki';
    this.site = SiteTables.of(ctx).withNamespace(ctx.title.ns, ctx.title.nsText);
    this.current = { ns: ctx.title.ns, nsText: this.nsName(ctx.title.ns), text: ctx.title.dbkey.replace(/_/g, ' ') };
  }

  /** the target language (PreprocessContext.language) */
  get lang(): string {
    return this.ctx.language ?? 'uk';
  }

  get extTagSet(): ReadonlySet<string> {
    return this.site.extTagSet;
  }

  // --- limits -------------------------------------------------------------------------------------

  /** Record a limit; the size and node limits stop all further expansion. */
  private hit(kind: 'depth' | 'size' | 'nodes', global: boolean): void {
    if (this.limitHit === undefined) this.limitHit = kind;
    if (global) this.stopped = true;
  }

  /** A size or node limit was hit: nothing more is expanded (loops over values should stop). */
  get isStopped(): boolean {
    return this.stopped;
  }

  /** Charge work to the node budget; false (and expansion stops) when it is exhausted. */
  charge(n: number): boolean {
    return !this.stopped && this.countNodes(n);
  }

  private countNodes(n: number): boolean {
    this.nodeCount += n;
    if (this.nodeCount > this.maxNodes) {
      this.hit('nodes', true);
      return false;
    }
    return true;
  }

  // --- tree ---------------------------------------------------------------------------------------

  readonly wikiMode: boolean;

  parse(text: string, forInclusion: boolean, keepIgnored = false): PNode[] {
    const r = preprocessToTree(text, forInclusion, this.site.extTags, this.wikiMode ? 'node' : this.ctx.keepComments, keepIgnored);
    if (r.overflow) this.hit('nodes', false);
    if (this.ctx.limitReport) this.generatedNodes += treeSize(r.nodes);
    return r.nodes;
  }

  /** one timed transclusion of the page `key` (SectionProfiler's section, inclusive of what it includes) */
  private profiled(key: string, started: bigint): void {
    const ended = process.hrtime.bigint();
    const p = (this.profile ??= new Map()).get(key);
    if (p) {
      p.calls++;
      p.ns += ended - started;
    } else this.profile.set(key, { calls: 1, ns: ended - started });
    // an inner transclusion ends first but starts after the one holding it
    if (this.profileStart === null || started < this.profileStart) this.profileStart = started;
    this.profileEnd = ended;
  }

  /** An expensive parser function call (Parser::incrementExpensiveFunctionCount); `key` once per expansion */
  countExpensive(key: string): void {
    this.existChecked ??= new Set();
    if (this.existChecked.has(key)) return;
    this.existChecked.add(key);
    this.expensiveCount++;
  }

  report(): ExpansionReport {
    const r: ExpansionReport = {
      visitedNodes: this.visitedNodes,
      generatedNodes: this.generatedNodes,
      postExpandBytes: this.postExpandBytes,
      argBytes: this.argBytes,
      highestDepth: this.highestDepth,
      expensiveCount: this.expensiveCount,
    };
    if (this.ctx.limitReport) {
      r.profile = [...(this.profile ?? [])].map(([key, v]) => {
        const colon = key.indexOf(':');
        const ns = Number(key.slice(0, colon));
        const name = (ns === NS_MAIN ? '' : this.nsName(ns).replace(/ /g, '_') + ':') + key.slice(colon + 1);
        return { name, calls: v.calls, ms: Number(v.ns) / 1e6 };
      });
      r.profileTotalMs = this.profileStart === null || this.profileEnd === null ? 0 : Number(this.profileEnd - this.profileStart) / 1e6;
    }
    return r;
  }

  // --- expansion ----------------------------------------------------------------------------------

  /**
   * Expand a node list in a frame. Work is charged to the node budget: one unit per visited node
   * and one per TEXT_UNIT characters of output, so that a template repeating big literal text (or
   * feeding it to a parser function) many times is bounded like one with many nodes.
   */
  expand(nodes: readonly PNode[], frame: Frame): string {
    if (nodes.length === 0) return '';
    if (nodes.length === 1 && nodes[0].k === 'text') {
      const v = nodes[0].v;
      this.visitedNodes++;
      this.countNodes(1 + Math.floor(v.length / TEXT_UNIT));
      return v;
    }
    if (this.stopped) return rawOf(nodes);
    if (this.expandDepth >= this.maxDepth) {
      this.hit('depth', false);
      return this.ctx.depthLimitError ? '<span class="error">Expansion depth limit exceeded</span>' : rawOf(nodes);
    }
    if (++this.expandDepth > this.highestDepth) this.highestDepth = this.expandDepth;
    this.visitedNodes += nodes.length;
    try {
      let out = '';
      for (let i = 0; i < nodes.length; i++) {
        const n = nodes[i];
        // Every visited node counts; once a global limit is hit the rest is output as written.
        if (this.stopped || !this.countNodes(1)) {
          out += rawOf(nodes, i);
          break;
        }
        if (n.k === 'text') out += n.v;
        else if (n.k === 'tpl') out += this.expandTemplate(n, frame);
        else if (n.k === 'arg') out += this.expandArg(n, frame);
        else if (n.k === 'h') out += this.expandHeading(n, frame);
        // OT_WIKI keeps what the page view ignores as plain text; comments and tags go behind markers
        else if (n.k === 'ignore') out += n.raw;
        else if (!this.wikiMode && INDICATOR_OPEN.test(n.raw)) out += this.expandIndicator(n.raw, frame);
        else out += this.wikiMode && this.ctx.stripItem ? this.ctx.stripItem(n.raw) : n.raw;
      }
      this.countNodes(Math.floor(out.length / TEXT_UNIT));
      return out;
    } finally {
      this.expandDepth--;
    }
  }

  /**
   * A heading: with ctx.headingMarkers a marker goes right after its "=" run, naming the page the
   * heading was written on and its number there (PPFrame_Hash::expand for <h> in OT_HTML).
   */
  private expandHeading(node: HeadingNode, frame: Frame): string {
    const s = this.expand(node.nodes, frame);
    if (node.possible || !this.ctx.headingMarkers || this.wikiMode) return s;
    let title: { ns: number; dbkey: string } | null = null;
    if (frame.key !== null) {
      const colon = frame.key.indexOf(':');
      title = { ns: Number(frame.key.slice(0, colon)), dbkey: frame.key.slice(colon + 1) };
    }
    const serial = this.headings.push({ title, index: node.index, start: frame.key === null ? node.start : null }) - 1;
    return s.slice(0, node.level) + headingMarker(serial) + s.slice(node.level);
  }

  /** Expanded text of a whole argument ("name=value" for a named one), untrimmed. */
  expandPart(part: Part | undefined, frame: Frame): string {
    return part ? this.expand(part.nodes, frame) : '';
  }

  /** {{{name|default}}} */
  private expandArg(node: ArgNode, frame: Frame): string {
    if (this.stopped || !this.countNodes(1)) return node.raw;
    const nameWithSpaces = this.expand(node.title, frame);
    // OT_WIKI: the page's own {{{…}}} stay as written (argSubstitution uses a default only in a template)
    if (this.wikiMode && !frame.parent) return this.bracketedImplode('{{{', nameWithSpaces, node.parts, '}}}', frame);
    const text = this.getArgument(frame, phpTrim(nameWithSpaces));
    if (text !== null) {
      this.argBytes += utf8Length(text);
      if (this.argBytes > this.maxBytes) {
        this.hit('size', true);
        return node.raw;
      }
      return text;
    }
    // The default is the whole first part, "=" included ({{{a|b=c}}} gives "b=c").
    if (node.parts.length > 0) return this.expand(node.parts[0].nodes, frame);
    return `{{{${nameWithSpaces}}}}`;
  }

  private getArgument(frame: Frame, name: string): string | null {
    if (!frame.args || !frame.parent) return null;
    const cached = frame.argCache?.get(name);
    if (cached !== undefined) return cached;
    const def = frame.args.get(name);
    if (!def) return null;
    let v = this.expand(def.nodes, frame.parent);
    if (def.named) v = phpTrim(v);
    (frame.argCache ??= new Map()).set(name, v);
    return v;
  }

  /** {{…}}: variable, parser function or transclusion (Parser::braceSubstitution). */
  private expandTemplate(node: TplNode, frame: Frame): string {
    if (this.stopped || !this.countNodes(1)) return node.raw;
    const titleWithSpaces = this.expand(node.title, frame);
    let part1 = phpTrim(titleWithSpaces);

    // braceSubstitution's SUBST step: in the pre-save transform only subst:/safesubst: calls expand;
    // otherwise a plain subst: stays as written and safesubst: expands like a plain call
    const hasColon = part1.includes(':');
    const subst = hasColon ? substPrefix(part1) : null;
    if (subst) part1 = part1.slice(subst.length);
    if (this.wikiMode ? subst === null : subst !== null && !SAFESUBST_WORDS.includes(subst.toUpperCase())) return this.literalCall(node, titleWithSpaces, frame);

    if (node.parts.length === 0) {
      const known = this.ctx.variable?.(part1);
      if (known !== undefined) return this.finishCall(node, known, frame, titleWithSpaces);
      const variable = VARIABLES.get(part1);
      if (variable) return this.finishCall(node, variable(this), frame, titleWithSpaces);
    }

    let nowiki = false;
    if (hasColon) {
      const afterMsgnw = stripPrefixCI(part1, MSGNW_WORDS);
      if (afterMsgnw !== null) {
        nowiki = true;
        part1 = afterMsgnw;
      } else {
        part1 = stripPrefixCI(part1, MSG_WORDS) ?? part1;
      }
      part1 = stripPrefixCI(part1, RAW_WORDS) ?? part1;
    }

    const colon = hasColon ? part1.indexOf(':') : -1;
    if (colon >= 0) {
      const fn = lookupFunction(part1.slice(0, colon));
      if (fn) {
        const call: Call = { frame, node, first: phpTrim(part1.slice(colon + 1)), titleWithSpaces };
        const r = fn(this, call);
        if (r !== NOT_FOUND) return this.finishCall(node, r, frame, titleWithSpaces);
      }
    }
    // "#…" can never be a template title: unknown parser functions (SMW's #set, #ask …) stay as they are.
    if (part1.startsWith('#')) return this.literalCall(node, titleWithSpaces, frame);
    return this.transclude(node, frame, part1, titleWithSpaces, nowiki);
  }

  /** The call as written, with its title and arguments expanded (virtualBracketedImplode). */
  literalCall(node: TplNode, titleWithSpaces: string, frame: Frame): string {
    return this.bracketedImplode('{{', titleWithSpaces, node.parts, '}}', frame);
  }

  private bracketedImplode(open: string, title: string, parts: readonly Part[], close: string, frame: Frame): string {
    let s = open + title;
    for (const p of parts) s += '|' + this.expand(p.nodes, frame);
    return s + close;
  }

  /**
   * Account for a call's output: a block-level start gets its own line (as MediaWiki does), and the
   * total size of template and function output is limited.
   */
  private finishCall(node: TplNode, result: FnResult, frame: Frame, titleWithSpaces: string): string {
    if (result === LITERAL || result === NOT_FOUND) return this.literalCall(node, titleWithSpaces, frame);
    let text = result;
    if (!node.lineStart && startsBlock(text)) text = '\n' + text;
    this.postExpandBytes += utf8Length(text);
    if (this.postExpandBytes > this.maxBytes) {
      this.hit('size', true);
      return node.raw;
    }
    return text;
  }

  private transclude(node: TplNode, frame: Frame, part1: string, titleWithSpaces: string, nowiki: boolean): string {
    const target = this.lookupTarget(this.relativeSubpage(part1));
    if (!target) return this.literalCall(node, titleWithSpaces, frame);
    // OT_WIKI: a missing template is no red link, the call stays as written
    if (this.wikiMode && !target.page) return this.literalCall(node, titleWithSpaces, frame);
    if (frame.depth >= this.maxDepth) {
      this.hit('depth', false);
      return node.raw;
    }
    const page = target.page;
    if (!page && part1 === '=') return this.finishCall(node, '=', frame, titleWithSpaces); // {{=}}
    if (!target.recorded) {
      // The title as written (a redirect, when it differs from the page) and the page itself. The
      // built-in resolver's guess is only used for missing pages: it may not know every namespace.
      target.recorded = true;
      if (!page || this.ctx.resolveTarget) this.recordTemplate(target.ns, target.dbkey);
      if (page) this.recordTemplate(page.ns, page.dbkey);
    }
    let text: string;
    if (!page) {
      // A red link, as MediaWiki renders a missing template.
      text = `[[:${this.targetText(target)}]]`;
    } else if (!frame.loopCheck(target.pageKey)) {
      text = `<span class="error">${replaceParameters(this.ctx.templateLoopWarning?.() ?? 'Template loop detected: [[$1]]', [this.targetText(target)])}</span>`;
    } else if (nowiki) {
      // the source as written (PPFrame::RECOVER_ORIG): the pre-save transform's {{subst:msgnw:…}} puts it in
      // as it is, a page view shows it escaped
      text = this.wikiMode ? page.text : escapeWikiText(page.text);
    } else {
      const key = target.pageKey;
      const started = this.ctx.limitReport ? process.hrtime.bigint() : null;
      target.tree ??= this.templateTree(key, page.text);
      const child = this.newChild(frame, node.parts, key);
      if (child.isEmpty) {
        // MediaWiki's empty-frame cache: a call without arguments gives the same text each time.
        const cached = frame.childCache?.get(key);
        if (cached !== undefined) text = cached;
        else {
          text = this.expand(target.tree, child);
          (frame.childCache ??= new Map()).set(key, text);
        }
      } else {
        text = this.expand(target.tree, child);
      }
      if (started !== null) this.profiled(key, started);
    }
    return this.finishCall(node, text, frame, titleWithSpaces);
  }

  /**
   * What a transclusion target as written refers to: its title, the page text behind it (after the
   * caller's redirect handling) and, once needed, the parsed tree. Cached per target text, since
   * the same few templates are called over and over.
   */
  private lookupTarget(target: string): TemplateTarget | null {
    let t = (this.targetCache ??= new Map()).get(target);
    if (t === undefined) {
      const title = this.resolve(target, NS_TEMPLATE);
      if (title) {
        const page = this.ctx.getTemplate(target);
        t = Object.assign({}, title, { page, pageKey: page ? `${page.ns}:${page.dbkey}` : '', tree: null, recorded: false });
      } else t = null;
      this.targetCache.set(target, t);
    }
    return t;
  }

  private targetText(t: TemplateTarget): string {
    return this.prefixedText(t.ns, t.dbkey.replace(/_/g, ' '), t.nsText);
  }

  /** A child frame for a template call: names of named arguments are expanded now, values lazily. */
  newChild(parent: Frame, parts: readonly Part[], key: string): Frame {
    this.countNodes(parts.length);
    const args = new Map<string, ArgDef>();
    for (const p of parts) {
      args.set(p.name === null ? p.key : phpTrim(this.expand(p.name, parent)), p.def);
    }
    return new Frame(parent, args, key, parent.depth + 1);
  }

  private templateTree(key: string, text: string): PNode[] {
    let tree = (this.treeCache ??= new Map()).get(key);
    if (!tree) {
      const shared = this.ctx.treeCache;
      // trees with kept comments differ from the usual ones
      const tags = this.wikiMode ? this.site.extTagsKey + '\x00wiki' : this.ctx.keepComments ? this.site.extTagsKey + '\x00comments' : this.site.extTagsKey;
      tree = shared?.get(text, tags);
      if (tree) {
        if (this.ctx.limitReport) this.generatedNodes += templateTreeSize(tree);
      } else {
        tree = this.parse(text, true);
        shared?.set(text, tags, tree);
      }
      this.treeCache.set(key, tree);
    }
    return tree;
  }

  fetch(target: string): { text: string; ns: number; dbkey: string } | null {
    let page = (this.fetchCache ??= new Map()).get(target);
    if (page === undefined) {
      page = this.ctx.getTemplate(target);
      this.fetchCache.set(target, page);
    }
    return page;
  }

  private recordTemplate(ns: number, dbkey: string): void {
    const key = `${ns}:${dbkey}`;
    if (!this.templates.has(key)) this.templates.set(key, { ns, dbkey });
  }

  recordLink(ns: number, dbkey: string): void {
    const key = `${ns}:${dbkey}`;
    if (!this.links.has(key)) this.links.set(key, { ns, dbkey });
  }

  /**
   * {{/Sub}} and {{../Sibling}}, relative to the current page where its namespace has subpages
   * (Linker::normalizeSubpageLink). The result carries an explicit namespace so that the Template
   * default does not apply.
   */
  private relativeSubpage(target: string): string {
    if (!this.hasSubpages(this.current.ns)) return target;
    const base = this.current.text;
    let full: string;
    if (target.startsWith('/')) {
      full = base + '/' + phpTrim(target.slice(1).replace(/\/+$/, ''));
    } else if (target.startsWith('../')) {
      const dots = (/^(?:\.\.\/)+/.exec(target) as RegExpExecArray)[0];
      const levels = dots.length / 3;
      const rest = target.slice(dots.length).replace(/\/+$/, '');
      const segments = base.split('/');
      if (segments.length <= levels) return target; // above the root page: not a relative link
      full = segments.slice(0, segments.length - levels).join('/');
      if (rest !== '') full += '/' + rest;
    } else {
      return target;
    }
    return this.current.nsText === '' ? ':' + full : `${this.current.nsText}:${full}`;
  }

  // --- titles -------------------------------------------------------------------------------------

  /** the name of a namespace the wiki has, undefined for another number */
  knownNsName(ns: number): string | undefined {
    return this.site.nsNames.get(ns);
  }

  nsName(ns: number): string {
    return this.site.nsNames.get(ns) ?? (ns === NS_MAIN ? '' : `Namespace ${ns}`);
  }

  nsIndex(name: string): number | undefined {
    return this.site.nsIndexes.get(normalizeNsName(name));
  }

  hasSubpages(ns: number): boolean {
    return this.site.subpageNs.has(ns);
  }

  prefixedText(ns: number, text: string, nsText?: string): string {
    const name = nsText !== undefined ? nsText.replace(/_/g, ' ') : this.nsName(ns);
    return name === '' ? text : `${name}:${text}`;
  }

  /** A target as written → title, through the context or the built-in resolver. */
  resolve(target: string, defaultNs: number): { ns: number; dbkey: string; nsText?: string } | null {
    if (this.ctx.resolveTarget) return this.ctx.resolveTarget(target, defaultNs);
    return resolveTitle(target, defaultNs, this);
  }

  /** A title for {{PAGENAME:…}} and friends. */
  titleInfo(text: string): TitleInfo | null {
    if (this.ctx.parseTitle) {
      const t = this.ctx.parseTitle(text);
      return t ? { ns: t.ns, nsText: t.nsText.replace(/_/g, ' '), text: t.text.replace(/_/g, ' ') } : null;
    }
    const t = this.resolve(text, NS_MAIN);
    return t ? { ns: t.ns, nsText: t.nsText?.replace(/_/g, ' ') ?? this.nsName(t.ns), text: t.dbkey.replace(/_/g, ' ') } : null;
  }

  // --- helpers for parser functions -------------------------------------------------------------

  /** Argument k (0 = the text after the colon) expanded and trimmed; '' when absent. */
  trimmedArg(c: Call, k: number): string {
    if (k === 0) return c.first;
    const p = c.node.parts[k - 1];
    return p ? phpTrim(this.expand(p.nodes, c.frame)) : '';
  }

  hasArg(c: Call, k: number): boolean {
    return k === 0 || c.node.parts.length >= k;
  }

  /** All arguments expanded and trimmed (how MediaWiki calls functions without SFH_OBJECT_ARGS). */
  allTrimmedArgs(c: Call): string[] {
    const args = [c.first];
    for (const p of c.node.parts) args.push(phpTrim(this.expand(p.nodes, c.frame)));
    return args;
  }

  /**
   * <indicator>: CoreTagHooks::indicator parses its content with recursiveTagParseFully in the frame
   * the tag is in, so the templates, arguments and parser functions of the content are expanded here
   * (and recorded like the page's own); the renderer takes the tag out of the text
   * (src/wikitext/render/parser.ts).
   */
  expandIndicator(raw: string, frame: Frame): string {
    const tagEnd = raw.indexOf('>');
    const close = /<\/indicator[ \t\n\r\f\v]*>$/i.exec(raw);
    if (raw.charCodeAt(tagEnd - 1) === CH_SLASH || !close || close.index <= tagEnd) return raw;
    return raw.slice(0, tagEnd + 1) + this.expandGenerated(raw.slice(tagEnd + 1, close.index), frame, false) + close[0];
  }

  /**
   * Parse and expand generated wikitext in a frame (for #arraymap and friends). Parsing is charged
   * to the node budget too, since #arraymap parses its formula once per value.
   */
  expandGenerated(text: string, frame: Frame, forInclusion: boolean): string {
    if (!this.charge(Math.ceil(text.length / PARSE_UNIT))) return text;
    return this.expand(this.parse(text, forInclusion), frame);
  }

  setDefaultSort(key: string, noReplace: boolean): void {
    if (this.defaultSort === undefined || !noReplace) this.defaultSort = key;
  }

  /**
   * CoreParserFunctions::displaytitle (1.24+ arguments): `noreplace` keeps an earlier display title,
   * a later different one without `noerror` replaces it and shows the duplicate-displaytitle warning.
   */
  setDisplayTitle(raw: string, option: string): string {
    const check = this.ctx.displayTitle;
    if (!check) {
      this.displayTitle = raw;
      return '';
    }
    // strip markers of extension tags are removed: their output never reaches a title
    const tags = [...this.extTagSet].map(escapeRegExp).join('|');
    const text = tags ? raw.replace(new RegExp(`<(${tags})(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</\\1\\s*>)`, 'gi'), '') : raw;
    const shown = check(text);
    if (shown === null) {
      this.displayTitleIgnored = true;
      return '';
    }
    const arg = option.toLowerCase();
    const old = this.displayTitle;
    if (old === undefined || arg !== 'noreplace') this.displayTitle = shown;
    if (old !== undefined && old !== shown && arg !== 'noreplace' && arg !== 'noerror') {
      const msg = this.ctx.message?.('duplicate-displaytitle') ?? DUPLICATE_DISPLAYTITLE_UK;
      const filled = msg.replace(/\$([12])/g, (_m, n: string) => escapeWikiText(n === '1' ? old : shown));
      return `<span class="error">${filled}</span>`;
    }
    return '';
  }
}

// ---------------------------------------------------------------------------------------------------
// Namespaces and titles
// ---------------------------------------------------------------------------------------------------

/** Local namespace names of a Ukrainian MediaWiki (MessagesUk.php) plus SMW/SF canonical names. */
const DEFAULT_NAMESPACE_NAMES: Record<number, string> = {
  [-2]: 'Медіа',
  [-1]: 'Спеціальна',
  1: 'Обговорення',
  2: 'Користувач',
  3: 'Обговорення користувача',
  4: 'Project',
  5: 'Project talk',
  6: 'Файл',
  7: 'Обговорення файлу',
  8: 'MediaWiki',
  9: 'Обговорення MediaWiki',
  10: 'Шаблон',
  11: 'Обговорення шаблону',
  12: 'Довідка',
  13: 'Обговорення довідки',
  14: 'Категорія',
  15: 'Обговорення категорії',
  102: 'Property',
  103: 'Property talk',
  106: 'Form',
  107: 'Form talk',
  108: 'Concept',
  109: 'Concept talk',
};

/** Canonical English names and the uk aliases, accepted as prefixes by the built-in resolver. */
const NAMESPACE_ALIASES: Array<[string, number]> = [
  ['Media', -2], ['Special', -1], ['Talk', 1], ['User', 2], ['User talk', 3], ['Project', 4], ['Project talk', 5],
  ['File', 6], ['File talk', 7], ['Image', 6], ['Image talk', 7], ['MediaWiki', 8], ['MediaWiki talk', 9],
  ['Template', 10], ['Template talk', 11], ['Help', 12], ['Help talk', 13], ['Category', 14], ['Category talk', 15],
  ['Property', 102], ['Property talk', 103], ['Form', 106], ['Form talk', 107], ['Concept', 108], ['Concept talk', 109],
  ['Спеціальні', -1], ['Зображення', 6], ['Обговорення зображення', 7], ['Обговорення шаблона', 11],
];

/** $wgNamespacesWithSubpages of MediaWiki's defaults */
const DEFAULT_SUBPAGE_NAMESPACES = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15];

function normalizeNsName(name: string): string {
  return name.replace(/[_ ]+/g, ' ').trim().toLowerCase();
}

/**
 * What an Expander knows of the wiki besides the page: namespace names and prefixes, namespaces with
 * subpages, extension tags. They depend only on the context's namespaceNames, namespacesWithSubpages
 * and extensionTags, which an import passes unchanged (the same objects) for every page, so the tables
 * of the last configuration are reused: building them costs more than expanding a short page.
 */
class SiteTables {
  private static last: { key: Pick<PreprocessContext, SiteKey>; tables: SiteTables } | null = null;
  readonly extTagSet: ReadonlySet<string>;
  /** the extension tag list as TemplateTreeCache keys trees by it */
  readonly extTagsKey: string;

  private constructor(
    readonly nsNames: Map<number, string>,
    readonly nsIndexes: Map<string, number>,
    readonly extTags: readonly string[],
    readonly subpageNs: ReadonlySet<number>,
  ) {
    this.extTagSet = new Set(extTags);
    this.extTagsKey = extTags.join('|');
  }

  static of(ctx: PreprocessContext): SiteTables {
    const last = SiteTables.last;
    if (last && SITE_KEYS.every((k) => last.key[k] === ctx[k])) return last.tables;
    const tables = new SiteTables(
      new Map(),
      new Map(),
      (ctx.extensionTags ?? DEFAULT_EXTENSION_TAGS).map((t) => t.toLowerCase()),
      new Set(ctx.namespacesWithSubpages ?? DEFAULT_SUBPAGE_NAMESPACES),
    );
    for (const [name, ns] of NAMESPACE_ALIASES) tables.nsIndexes.set(normalizeNsName(name), ns);
    for (const [ns, name] of Object.entries(DEFAULT_NAMESPACE_NAMES)) tables.setNamespace(Number(ns), name);
    for (const [ns, name] of Object.entries(ctx.namespaceNames ?? {})) tables.setNamespace(Number(ns), name);
    SiteTables.last = {
      key: { namespaceNames: ctx.namespaceNames, namespacesWithSubpages: ctx.namespacesWithSubpages, extensionTags: ctx.extensionTags },
      tables,
    };
    return tables;
  }

  /** These tables with `name` as the name of `ns`: themselves when they say so already, else a copy. */
  withNamespace(ns: number, name: string): SiteTables {
    const spaced = name.replace(/_/g, ' ');
    if (ns !== NS_MAIN && spaced === '') return this;
    if (this.nsNames.get(ns) === spaced && this.nsIndexes.get(normalizeNsName(spaced)) === ns) return this;
    const copy = new SiteTables(new Map(this.nsNames), new Map(this.nsIndexes), this.extTags, this.subpageNs);
    copy.setNamespace(ns, name);
    return copy;
  }

  private setNamespace(ns: number, name: string): void {
    const spaced = name.replace(/_/g, ' ');
    if (ns !== NS_MAIN && spaced === '') return;
    this.nsNames.set(ns, spaced);
    this.nsIndexes.set(normalizeNsName(spaced), ns);
  }
}

type SiteKey = 'namespaceNames' | 'namespacesWithSubpages' | 'extensionTags';
const SITE_KEYS: readonly SiteKey[] = ['namespaceNames', 'namespacesWithSubpages', 'extensionTags'];

const INVALID_TITLE_CHARS = /[\[\]{}|<>\u0000-\u001f\u007f\ufffd]|%[0-9A-Fa-f]{2}/;
/** what Title::secureAndSplit turns into one "_" */
const TITLE_WHITESPACE = /[ _\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * A minimal Title::newFromText: entities decoded, "_" as space, a leading ":" for main, a known
 * namespace prefix, the fragment dropped, first letter upper-cased. Null for an invalid title.
 */
function resolveTitle(
  target: string,
  defaultNs: number,
  names: { nsIndex(name: string): number | undefined; nsName(ns: number): string },
): { ns: number; dbkey: string; nsText: string } | null {
  let t = decodeCharReferences(target).replace(/[\u200e\u200f\u202a-\u202e]/g, '').replace(TITLE_WHITESPACE, ' ').trim();
  const hash = t.indexOf('#');
  if (hash >= 0) t = t.slice(0, hash).trim();
  let ns = defaultNs;
  if (t.startsWith(':')) {
    ns = NS_MAIN;
    t = t.slice(1).trim();
  }
  const colon = t.indexOf(':');
  if (colon > 0) {
    const idx = names.nsIndex(t.slice(0, colon));
    if (idx !== undefined) {
      ns = idx;
      t = t.slice(colon + 1).trim();
    }
  }
  if (t === '' || INVALID_TITLE_CHARS.test(t) || t.includes('~~~') || utf8Length(t) > 255) return null;
  if (t === '.' || t === '..' || t.startsWith('./') || t.startsWith('../') || t.includes('/./') || t.includes('/../')) return null;
  t = ucfirst(t);
  return { ns, dbkey: t.replace(/ /g, '_'), nsText: names.nsName(ns) };
}

// ---------------------------------------------------------------------------------------------------
// Magic words
// ---------------------------------------------------------------------------------------------------

const SUBST_WORDS = ['SUBST:', 'SAFESUBST:', 'ПІДСТ:', 'ПІДСТАНОВКА:', 'ПОДСТАНОВКА:', 'ПОДСТ:', 'БЕЗПЕЧНА_ПІДСТАНОВКА:', 'ЗАЩПОДСТ:'];
const MSGNW_WORDS = ['MSGNW:', 'ПОВІД_БЕЗ_ВІКІ:', 'СООБЩ_БЕЗ_ВИКИ:'];
const MSG_WORDS = ['MSG:', 'ПОВІД:', 'ПОВІДОМЛЕННЯ:', 'СООБЩЕНИЕ:', 'СООБЩ:'];
const RAW_WORDS = ['RAW:', 'НЕОБРОБ:', 'НЕОБРАБ:'];

/** Remove a case-insensitive prefix (MagicWord::matchStartAndRemove); null when none matches. */
const SAFESUBST_WORDS = ['SAFESUBST:', 'БЕЗПЕЧНА_ПІДСТАНОВКА:', 'ЗАЩПОДСТ:'];

/** the subst:/safesubst: prefix (one of SUBST_WORDS, as written) the text starts with, or null */
function substPrefix(s: string): string | null {
  const upper = s.slice(0, 32).toUpperCase();
  for (const w of SUBST_WORDS) if (upper.startsWith(w)) return s.slice(0, w.length);
  return null;
}

function stripPrefixCI(s: string, words: readonly string[]): string | null {
  const upper = s.slice(0, 32).toUpperCase();
  for (const w of words) if (upper.startsWith(w)) return s.slice(w.length);
  return null;
}

type TitleWord =
  | 'pagename' | 'pagenamee' | 'fullpagename' | 'fullpagenamee' | 'basepagename' | 'basepagenamee'
  | 'subpagename' | 'subpagenamee' | 'rootpagename' | 'rootpagenamee' | 'namespace' | 'namespacee'
  | 'namespacenumber' | 'talkspace' | 'talkspacee' | 'subjectspace' | 'subjectspacee' | 'talkpagename'
  | 'talkpagenamee' | 'subjectpagename' | 'subjectpagenamee';

/** Case-sensitive synonyms (English and MessagesUk.php) of the title magic words. */
const TITLE_WORDS: Record<TitleWord, string[]> = {
  pagename: ['PAGENAME', 'НАЗВА_СТОРІНКИ', 'НАЗВАНИЕ_СТРАНИЦЫ'],
  pagenamee: ['PAGENAMEE', 'НАЗВА_СТОРІНКИ_2', 'НАЗВАНИЕ_СТРАНИЦЫ_2'],
  fullpagename: ['FULLPAGENAME', 'ПОВНА_НАЗВА_СТОРІНКИ', 'ПОЛНОЕ_НАЗВАНИЕ_СТРАНИЦЫ'],
  fullpagenamee: ['FULLPAGENAMEE', 'ПОВНА_НАЗВА_СТОРІНКИ_2', 'ПОЛНОЕ_НАЗВАНИЕ_СТРАНИЦЫ_2'],
  basepagename: ['BASEPAGENAME', 'ОСНОВА_НАЗВИ_ПІДСТОРІНКИ', 'ОСНОВА_НАЗВАНИЯ_СТРАНИЦЫ'],
  basepagenamee: ['BASEPAGENAMEE', 'ОСНОВА_НАЗВИ_ПІДСТОРІНКИ_2', 'ОСНОВА_НАЗВАНИЯ_СТРАНИЦЫ_2'],
  subpagename: ['SUBPAGENAME', 'НАЗВА_ПІДСТОРІНКИ', 'НАЗВАНИЕ_ПОДСТРАНИЦЫ'],
  subpagenamee: ['SUBPAGENAMEE', 'НАЗВА_ПІДСТОРІНКИ_2', 'НАЗВАНИЕ_ПОДСТРАНИЦЫ_2'],
  rootpagename: ['ROOTPAGENAME'],
  rootpagenamee: ['ROOTPAGENAMEE'],
  namespace: ['NAMESPACE', 'ПРОСТІР_НАЗВ', 'ПРОСТРАНСТВО_ИМЁН'],
  namespacee: ['NAMESPACEE', 'ПРОСТІР_НАЗВ_2', 'ПРОСТРАНСТВО_ИМЁН_2'],
  namespacenumber: ['NAMESPACENUMBER'],
  talkspace: ['TALKSPACE', 'ПРОСТІР_ОБГОВОРЕННЯ', 'ПРОСТРАНСТВО_ОБСУЖДЕНИЙ'],
  talkspacee: ['TALKSPACEE', 'ПРОСТІР_ОБГОВОРЕННЯ_2', 'ПРОСТРАНСТВО_ОБСУЖДЕНИЙ_2'],
  subjectspace: ['SUBJECTSPACE', 'ARTICLESPACE', 'ПРОСТІР_СТАТЕЙ', 'ПРОСТРАНСТВО_СТАТЕЙ'],
  subjectspacee: ['SUBJECTSPACEE', 'ARTICLESPACEE', 'ПРОСТІР_СТАТЕЙ_2', 'ПРОСТРАНСТВО_СТАТЕЙ_2'],
  talkpagename: ['TALKPAGENAME', 'НАЗВА_СТОРІНКИ_ОБГОВОРЕННЯ', 'НАЗВАНИЕ_СТРАНИЦЫ_ОБСУЖДЕНИЯ'],
  talkpagenamee: ['TALKPAGENAMEE', 'НАЗВА_СТОРІНКИ_ОБГОВОРЕННЯ_2', 'НАЗВАНИЕ_СТРАНИЦЫ_ОБСУЖДЕНИЯ_2'],
  subjectpagename: ['SUBJECTPAGENAME', 'ARTICLEPAGENAME', 'НАЗВА_СТАТТІ', 'НАЗВАНИЕ_СТРАНИЦЫ_СТАТЬИ'],
  subjectpagenamee: ['SUBJECTPAGENAMEE', 'ARTICLEPAGENAMEE', 'НАЗВА_СТАТТІ_2', 'НАЗВАНИЕ_СТРАНИЦЫ_СТАТЬИ_2'],
};

/** The value of a title magic word for a title (CoreParserFunctions / Parser::getVariableValue). */
function titleWord(ex: Expander, word: TitleWord, t: TitleInfo): string {
  const subject = t.ns >= 0 ? t.ns & ~1 : t.ns;
  const talk = t.ns >= 0 ? t.ns | 1 : -1;
  const url = (s: string): string => wfUrlencode(s.replace(/ /g, '_'));
  const prefixed = (ns: number): string => ex.prefixedText(ns, t.text, ns === t.ns ? t.nsText : undefined);
  switch (word) {
    case 'pagename':
      return escapeWikiText(t.text);
    case 'pagenamee':
      return escapeWikiText(url(t.text));
    case 'fullpagename':
      return escapeWikiText(prefixed(t.ns));
    case 'fullpagenamee':
      return escapeWikiText(url(prefixed(t.ns)));
    case 'subpagename':
    case 'subpagenamee': {
      const s = ex.hasSubpages(t.ns) ? t.text.slice(t.text.lastIndexOf('/') + 1) : t.text;
      return escapeWikiText(word === 'subpagename' ? s : url(s));
    }
    case 'basepagename':
    case 'basepagenamee': {
      const slash = t.text.lastIndexOf('/');
      const s = ex.hasSubpages(t.ns) && slash >= 0 ? t.text.slice(0, slash) : t.text;
      return escapeWikiText(word === 'basepagename' ? s : url(s));
    }
    case 'rootpagename':
    case 'rootpagenamee': {
      const s = ex.hasSubpages(t.ns) ? (t.text.split('/').find((x) => x !== '') ?? '') : t.text;
      return escapeWikiText(word === 'rootpagename' ? s : url(s));
    }
    case 'namespace':
      return t.nsText;
    case 'namespacee':
      return url(t.nsText);
    case 'namespacenumber':
      return String(t.ns);
    case 'talkspace':
      return talk < 0 ? '' : ex.nsName(talk);
    case 'talkspacee':
      return talk < 0 ? '' : url(ex.nsName(talk));
    case 'subjectspace':
      return subject === t.ns ? t.nsText : ex.nsName(subject);
    case 'subjectspacee':
      return url(subject === t.ns ? t.nsText : ex.nsName(subject));
    case 'talkpagename':
      return talk < 0 ? '' : escapeWikiText(prefixed(talk));
    case 'talkpagenamee':
      return talk < 0 ? '' : escapeWikiText(url(prefixed(talk)));
    case 'subjectpagename':
      return escapeWikiText(prefixed(subject));
    case 'subjectpagenamee':
      return escapeWikiText(url(prefixed(subject)));
  }
}

const UK_MONTHS = ['січень', 'лютий', 'березень', 'квітень', 'травень', 'червень', 'липень', 'серпень', 'вересень', 'жовтень', 'листопад', 'грудень'];
export const UK_MONTHS_GEN = ['січня', 'лютого', 'березня', 'квітня', 'травня', 'червня', 'липня', 'серпня', 'вересня', 'жовтня', 'листопада', 'грудня'];
const UK_MONTHS_ABBR = ['січ', 'лют', 'бер', 'квіт', 'трав', 'чер', 'лип', 'сер', 'вер', 'жов', 'лис', 'груд'];
const UK_DAYS = ['неділя', 'понеділок', 'вівторок', 'середа', 'четвер', "п'ятниця", 'субота'];

export function pad2(n: number): string {
  return n < 10 ? '0' + n : String(n);
}

/** ISO-8601 week number (PHP date('W')). */
function isoWeek(d: Date): number {
  const t = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
  const dow = t.getUTCDay() || 7;
  t.setUTCDate(t.getUTCDate() + 4 - dow);
  const yearStart = Date.UTC(t.getUTCFullYear(), 0, 1);
  return Math.ceil(((t.getTime() - yearStart) / 86400000 + 1) / 7);
}

/** CURRENT… and LOCAL… variables (the wiki's local time is taken to be UTC). */
const TIME_WORDS: Array<[string[], (d: Date) => string]> = [
  [['YEAR', 'ПОТОЧНИЙ_РІК', 'ЛОКАЛЬНИЙ_РІК'], (d) => String(d.getUTCFullYear())],
  [['MONTH', 'MONTH2', 'ПОТОЧНИЙ_МІСЯЦЬ', 'ПОТОЧНИЙ_МІСЯЦЬ_2', 'ЛОКАЛЬНИЙ_МІСЯЦЬ', 'ЛОКАЛЬНИЙ_МІСЯЦЬ_2'], (d) => pad2(d.getUTCMonth() + 1)],
  [['MONTH1', 'ПОТОЧНИЙ_МІСЯЦЬ_1', 'ЛОКАЛЬНИЙ_МІСЯЦЬ_1'], (d) => String(d.getUTCMonth() + 1)],
  [['MONTHNAME', 'НАЗВА_ПОТОЧНОГО_МІСЯЦЯ', 'НАЗВА_ЛОКАЛЬНОГО_МІСЯЦЯ'], (d) => UK_MONTHS[d.getUTCMonth()]],
  [['MONTHNAMEGEN', 'НАЗВА_ПОТОЧНОГО_МІСЯЦЯ_РОД', 'НАЗВА_ЛОКАЛЬНОГО_МІСЯЦЯ_РОД'], (d) => UK_MONTHS_GEN[d.getUTCMonth()]],
  [['MONTHABBREV', 'НАЗВА_ПОТОЧНОГО_МІСЯЦЯ_АБР', 'НАЗВА_ЛОКАЛЬНОГО_МІСЯЦЯ_АБР'], (d) => UK_MONTHS_ABBR[d.getUTCMonth()]],
  [['DAY', 'ПОТОЧНИЙ_ДЕНЬ', 'ЛОКАЛЬНИЙ_ДЕНЬ'], (d) => String(d.getUTCDate())],
  [['DAY2', 'ПОТОЧНИЙ_ДЕНЬ_2', 'ЛОКАЛЬНИЙ_ДЕНЬ_2'], (d) => pad2(d.getUTCDate())],
  [['DAYNAME', 'НАЗВА_ПОТОЧНОГО_ДНЯ', 'НАЗВА_ЛОКАЛЬНОГО_ДНЯ'], (d) => UK_DAYS[d.getUTCDay()]],
  [['DOW', 'ПОТОЧНИЙ_ДЕНЬ_ТИЖНЯ', 'ЛОКАЛЬНИЙ_ДЕНЬ_ТИЖНЯ'], (d) => String(d.getUTCDay())],
  [['WEEK', 'ПОТОЧНИЙ_ТИЖДЕНЬ', 'ЛОКАЛЬНИЙ_ТИЖДЕНЬ'], (d) => String(isoWeek(d))],
  [['TIME', 'ПОТОЧНИЙ_ЧАС', 'ЛОКАЛЬНИЙ_ЧАС'], (d) => `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}`],
  [['HOUR', 'ПОТОЧНА_ГОДИНА', 'ЛОКАЛЬНА_ГОДИНА'], (d) => pad2(d.getUTCHours())],
  [
    ['TIMESTAMP', 'МІТКА_ПОТОЧНОГО_ЧАСУ', 'МІТКА_ЛОКАЛЬНОГО_ЧАСУ'],
    (d) => `${d.getUTCFullYear()}${pad2(d.getUTCMonth() + 1)}${pad2(d.getUTCDate())}${pad2(d.getUTCHours())}${pad2(d.getUTCMinutes())}${pad2(d.getUTCSeconds())}`,
  ],
];

/** Variables MediaWiki knows but this module cannot compute: they stay as written (never a template). */
const UNSUPPORTED_VARIABLES = (
  'NUMBEROFPAGES NUMBEROFARTICLES NUMBEROFFILES NUMBEROFUSERS NUMBEROFACTIVEUSERS NUMBEROFEDITS NUMBEROFVIEWS ' +
  'NUMBEROFADMINS REVISIONID REVISIONDAY REVISIONDAY2 REVISIONMONTH REVISIONMONTH1 REVISIONYEAR REVISIONTIMESTAMP ' +
  'REVISIONUSER REVISIONSIZE PAGEID SERVER SERVERNAME SCRIPTPATH STYLEPATH CURRENTVERSION PAGESIZE PROTECTIONLEVEL ' +
  'PAGESINCATEGORY PAGESINCAT КІЛЬКІСТЬ_СТОРІНОК КІЛЬКІСТЬ_СТАТЕЙ КІЛЬКІСТЬ_ФАЙЛІВ КІЛЬКІСТЬ_КОРИСТУВАЧІВ ' +
  'КІЛЬКІСТЬ_РЕДАГУВАНЬ СЕРВЕР НАЗВА_СЕРВЕРА ШЛЯХ_ДО_СКРИПТУ ПОТОЧНА_ВЕРСІЯ ІД_ВЕРСІЇ'
).split(' ');

type Variable = (ex: Expander) => FnResult;

/** Magic variables: {{NAME}} without arguments, case-sensitive. */
const VARIABLES = new Map<string, Variable>();
for (const [word, names] of Object.entries(TITLE_WORDS) as Array<[TitleWord, string[]]>) {
  for (const n of names) VARIABLES.set(n, (ex) => titleWord(ex, word, ex.current));
}
for (const [names, fmt] of TIME_WORDS) {
  for (const n of names) {
    const f: Variable = (ex) => fmt(ex.ctx.now ?? new Date());
    if (/^[A-Z0-9]+$/.test(n)) {
      VARIABLES.set('CURRENT' + n, f);
      VARIABLES.set('LOCAL' + n, f);
    } else VARIABLES.set(n, f);
  }
}
for (const n of ['SITENAME', 'НАЗВА_САЙТУ', 'НАЗВАНИЕ_САЙТА']) VARIABLES.set(n, (ex) => ex.ctx.siteName ?? LITERAL);
for (const n of ['CONTENTLANGUAGE', 'CONTENTLANG', 'МОВА_ВМІСТУ', 'ЯЗЫК_СОДЕРЖАНИЯ']) VARIABLES.set(n, (ex) => ex.ctx.contentLanguage ?? 'uk');
for (const n of ['DIRECTIONMARK', 'DIRMARK', 'НАПРЯМОК_ПИСЬМА']) VARIABLES.set(n, () => '\u200e');
for (const n of UNSUPPORTED_VARIABLES) VARIABLES.set(n, () => LITERAL);
VARIABLES.set('!', () => '|');

// ---------------------------------------------------------------------------------------------------
// Parser functions
// ---------------------------------------------------------------------------------------------------

/** Case-insensitive function names (lower-cased keys) … */
const FUNCTIONS_CI = new Map<string, ParserFunction>();
/** … and case-sensitive ones. */
const FUNCTIONS_CS = new Map<string, ParserFunction>();

function lookupFunction(name: string): ParserFunction | undefined {
  return FUNCTIONS_CS.get(name) ?? FUNCTIONS_CI.get(name.toLowerCase());
}

function defineCI(names: readonly string[], fn: ParserFunction): void {
  for (const n of names) FUNCTIONS_CI.set(n.toLowerCase(), fn);
}

function defineCS(names: readonly string[], fn: ParserFunction): void {
  for (const n of names) FUNCTIONS_CS.set(n, fn);
}

// -- Semantic MediaWiki's inline queries (the answer comes from the caller, see inlineQuery) --

for (const fn of ['ask', 'show'] as const) {
  defineCI(['#' + fn], (ex, c) => {
    if (!ex.ctx.inlineQuery) return LITERAL;
    const r = ex.ctx.inlineQuery(fn, ex.allTrimmedArgs(c));
    if (r === undefined) return LITERAL;
    if (!r.expand) return r.text;
    // ResultPrinter::$maxRecursionDepth: a template printer's output inside another's nests at most 2 deep
    if (ex.inlineTemplateDepth >= 2) return '';
    ex.inlineTemplateDepth++;
    try {
      // in the calling frame, so that template depth accumulates through query output
      return ex.expandGenerated(r.text, c.frame, false);
    } finally {
      ex.inlineTemplateDepth--;
    }
  });
}

// SMW's {{#concept:}}: its description box, made by the same caller (it needs the properties' types)
defineCI(['#concept'], (ex, c) => {
  if (!ex.ctx.inlineQuery) return LITERAL;
  const fn = ex.conceptSeen ? 'concept-again' : 'concept';
  ex.conceptSeen = true;
  return ex.ctx.inlineQuery(fn, ex.allTrimmedArgs(c))?.text ?? LITERAL;
});

// -- ParserFunctions extension --

defineCI(['#if'], (ex, c) => ex.trimmedArg(c, c.first !== '' ? 1 : 2));

defineCI(['#ifeq'], (ex, c) => {
  const left = decodeCharReferences(c.first);
  const right = decodeCharReferences(ex.trimmedArg(c, 1));
  return ex.trimmedArg(c, phpLooseEquals(left, right) ? 2 : 3);
});

defineCI(['#iferror'], (ex, c) => {
  if (isErrorText(c.first)) return ex.trimmedArg(c, 1);
  return ex.hasArg(c, 2) ? ex.trimmedArg(c, 2) : c.first;
});

defineCI(['#ifexist'], (ex, c) => {
  const target = c.first;
  const t = target === '' ? null : ex.resolve(target, NS_MAIN);
  if (!t) return ex.trimmedArg(c, 2);
  ex.recordLink(t.ns, t.dbkey);
  ex.countExpensive(`${t.ns}:${t.dbkey}`);
  return ex.trimmedArg(c, ex.ctx.pageExists(target) ? 1 : 2);
});

defineCI(['#switch'], (ex, c) => {
  const primary = decodeCharReferences(c.first);
  let found = false;
  let defaultFound = false;
  let defaultValue: PNode[] | null = null;
  let lastItemHadNoEquals = false;
  let lastItem = '';
  const isDefault = (s: string): boolean => s.toLowerCase() === '#default';
  for (const part of c.node.parts) {
    if (part.name !== null) {
      lastItemHadNoEquals = false;
      // "a|b=x": a match on an earlier bare value falls through to the next value.
      if (found) return phpTrim(ex.expand(part.value, c.frame));
      const test = decodeCharReferences(phpTrim(ex.expand(part.name, c.frame)));
      if (phpLooseEquals(test, primary)) return phpTrim(ex.expand(part.value, c.frame));
      if (defaultFound || isDefault(test)) {
        defaultValue = part.value;
        defaultFound = false;
      }
    } else {
      lastItemHadNoEquals = true;
      lastItem = phpTrim(ex.expand(part.value, c.frame));
      const test = decodeCharReferences(lastItem);
      if (phpLooseEquals(test, primary)) found = true;
      else if (isDefault(test)) defaultFound = true;
    }
  }
  // A last value without "=" is the default.
  if (lastItemHadNoEquals) return lastItem;
  return defaultValue ? phpTrim(ex.expand(defaultValue, c.frame)) : '';
});

// Evaluating an expression costs about as much per EXPR_UNIT characters as expanding a node.
const EXPR_UNIT = 4;
defineCI(['#expr'], (ex, c) => (ex.charge(Math.ceil(c.first.length / EXPR_UNIT)) ? evaluateExpression(c.first) : LITERAL));

defineCI(['#ifexpr'], (ex, c) => {
  if (!ex.charge(Math.ceil(c.first.length / EXPR_UNIT))) return LITERAL;
  const r = evaluateExpressionRaw(c.first);
  if (typeof r !== 'string') return r.error;
  const truthy = r !== '' && !(isNumericString(r) && Number(r) === 0);
  return ex.trimmedArg(c, truthy ? 1 : 2);
});

defineCI(['#titleparts'], (ex, c) => {
  const [title, partsArg, offsetArg] = [c.first, ex.trimmedArg(c, 1), ex.trimmedArg(c, 2)];
  const t = ex.titleInfo(title);
  if (!t) return title;
  const parts = phpIntval(partsArg);
  let offset = phpIntval(offsetArg);
  const bits = phpExplodeLimit(ex.prefixedText(t.ns, t.text, t.nsText), '/', 25);
  if (offset > 0) offset--;
  return phpArraySlice(bits, offset, parts === 0 ? undefined : parts).join('/');
});

// -- Semantic Forms --

/** {{#arraymap:value|delimiter|var|formula|new delimiter|conjunction}} */
defineCI(['#arraymap'], (ex, c) => {
  const parts = c.node.parts;
  const value = c.first;
  const delimiter = ex.hasArg(c, 1) ? unescapeNewlines(ex.trimmedArg(c, 1)) : ',';
  const variable = parts[1] ? phpTrim(stripComments(parts[1].raw)) : 'x';
  const formula = parts[2] ? parts[2].raw : 'x';
  const newDelimiter = ex.hasArg(c, 4) ? unescapeNewlines(ex.trimmedArg(c, 4)) : ', ';
  let conjunction = ex.hasArg(c, 5) ? unescapeNewlines(ex.trimmedArg(c, 5)) : newDelimiter;
  const values = delimiter === '' ? Array.from(value) : value.split(delimiter);
  const results: string[] = [];
  for (const raw of values) {
    if (ex.isStopped) break;
    const v = phpTrim(raw);
    if (v === '') continue;
    // The formula's source with the variable replaced, then preprocessed and expanded afresh.
    const source = variable === '' ? formula : formula.split(variable).join(v);
    const r = phpTrim(ex.expandGenerated(source, c.frame, c.frame.isTemplate));
    if (r !== '') results.push(r);
  }
  if (conjunction !== newDelimiter) conjunction = ' ' + phpTrim(conjunction) + ' ';
  let out = '';
  results.forEach((r, idx) => {
    if (idx === 0) out += r;
    else if (idx === results.length - 1) out += conjunction + r;
    else out += newDelimiter + r;
  });
  return out;
});

/** {{#arraymaptemplate:value|template|delimiter|new delimiter}} */
defineCI(['#arraymaptemplate'], (ex, c) => {
  const value = c.first;
  const template = ex.trimmedArg(c, 1);
  const delimiter = ex.hasArg(c, 2) ? unescapeNewlines(ex.trimmedArg(c, 2)) : ',';
  const newDelimiter = ex.hasArg(c, 3) ? unescapeNewlines(ex.trimmedArg(c, 3)) : ', ';
  const results: string[] = [];
  for (const raw of delimiter === '' ? [value] : value.split(delimiter)) {
    if (ex.isStopped) break;
    const v = phpTrim(raw);
    if (v === '') continue;
    results.push(ex.expandGenerated(`{{${template}|1=${v}}}`, c.frame, false));
  }
  return results.join(newDelimiter);
});

// -- core parser functions --

defineCI(['lc', 'НР', 'НИЖНІЙ_РЕГІСТР', 'МАЛИМИ_БУКВАМИ', 'МАЛЕНЬКИМИ_БУКВАМИ'], (_ex, c) => c.first.toLowerCase());
defineCI(['uc', 'ВР', 'ВЕРХНІЙ_РЕГІСТР', 'ВЕЛИКИМИ_БУКВАМИ', 'БОЛЬШИМИ_БУКВАМИ'], (_ex, c) => c.first.toUpperCase());
defineCI(['lcfirst', 'НР_ПЕРША', 'ПЕРША_БУКВА_МАЛА', 'ПЕРВАЯ_БУКВА_МАЛЕНЬКАЯ'], (_ex, c) => lcfirst(c.first));
defineCI(['ucfirst', 'ВР_ПЕРША', 'ПЕРША_БУКВА_ВЕЛИКА', 'ПЕРВАЯ_БУКВА_БОЛЬШАЯ'], (_ex, c) => ucfirst(c.first));

defineCI(['urlencode', 'ЗАКОДОВАНА_АДРЕСА', 'ЗАКОДИРОВАННЫЙ_АДРЕС'], (ex, c) => {
  const mode = ex.trimmedArg(c, 1).toUpperCase();
  if (mode === 'WIKI') return wfUrlencode(c.first.replace(/ /g, '_'));
  if (mode === 'PATH') return rawUrlEncode(c.first);
  return phpUrlencode(c.first);
});

defineCI(['anchorencode', 'КОДУВАТИ_МІТКУ', 'КОДИРОВАТЬ_МЕТКУ'], (_ex, c) => anchorEncode(c.first));

function pad(ex: Expander, c: Call, left: boolean): string {
  const [s, lengthArg] = [c.first, ex.trimmedArg(c, 1)];
  const padding = ex.hasArg(c, 2) ? ex.trimmedArg(c, 2) : '0';
  const padChars = Array.from(padding);
  if (padChars.length === 0) return s;
  let remaining = Math.min(phpIntval(lengthArg), 500) - Array.from(s).length;
  let fill = '';
  while (remaining > 0) {
    fill += padChars.slice(0, remaining).join('');
    remaining -= padChars.length;
  }
  return left ? fill + s : s + fill;
}
defineCI(['padleft', 'ЗАПОВНИТИ_ЛІВОРУЧ', 'ЗАПОЛНИТЬ_СЛЕВА'], (ex, c) => pad(ex, c, true));
defineCI(['padright', 'ЗАПОВНИТИ_ПРАВОРУЧ', 'ЗАПОЛНИТЬ_СПРАВА'], (ex, c) => pad(ex, c, false));

/** CoreParserFunctions::ns's index: intval of a number (or "0"), else a namespace name or alias */
function namespaceOf(ex: Expander, arg: string): number | undefined {
  const n = phpIntval(arg);
  if (n !== 0 || phpLooseEquals(arg, '0')) return n;
  return ex.nsIndex(arg);
}
/** Language::getFormattedNsText: '' for a number no namespace has */
function formattedNsText(ex: Expander, ns: number): string {
  return ns === NS_MAIN ? '' : ex.knownNsName(ns) ?? '';
}
defineCI(['ns', 'ПН', 'ПИ'], (ex, c) => {
  const ns = namespaceOf(ex, c.first);
  return ns === undefined ? NOT_FOUND : formattedNsText(ex, ns);
});
defineCI(['nse', 'ПН_2', 'ПИК'], (ex, c) => {
  const ns = namespaceOf(ex, c.first);
  return ns === undefined ? NOT_FOUND : wfUrlencode(formattedNsText(ex, ns).replace(/ /g, '_'));
});

// the rawsuffix magic word ("R", uk "Н") is case-sensitive
defineCI(['formatnum', 'ФОРМАТУВАТИ_ЧИСЛО', 'ФОРМАТИРОВАТЬ_ЧИСЛО'], (ex, c) => {
  const arg = ex.trimmedArg(c, 1);
  if (arg === 'R' || arg === 'Н') return parseFormattedNumber(c.first, ex.lang);
  if (arg === 'NOSEP') return c.first;
  return formatNumText(c.first, ex.lang);
});

defineCI(['plural', 'МНОЖИНА', 'МНОЖЕСТВЕННОЕ_ЧИСЛО'], (ex, c) => {
  const args = ex.allTrimmedArgs(c);
  const num = parseFormattedNumber(args[0], ex.lang);
  return convertPlural(/^\d+$/.test(num) ? Number(num) : phpFloatCast(num), args.slice(1), ex.lang);
});
defineCI(['grammar', 'ВІДМІНОК', 'ПАДЕЖ'], (ex, c) => convertGrammar(ex.trimmedArg(c, 1), c.first, ex.lang));
defineCI(['gender', 'СТАТЬ', 'ПОЛ'], (ex, c) => {
  const forms = ex.allTrimmedArgs(c).slice(1);
  if (forms.length === 0) return '';
  return forms.length >= 3 ? forms[2] : forms[0];
});

defineCI(['int', 'ВНУТР'], (ex, c) => {
  const key = c.first;
  if (key === '') return NOT_FOUND;
  // Message::plain() in the parser options' user language, '<key>' when no such message exists (no hook:
  // no message exists); then parsed again in a frame holding the call's arguments, as braceSubstitution
  // does with a result that is not 'noparse'
  const args = ex.allTrimmedArgs(c).slice(1);
  const text = ex.ctx.interfaceMessage ? ex.ctx.interfaceMessage(key, args) : `<${htmlspecialchars(key)}>`;
  return ex.expandGenerated(text, ex.newChild(c.frame, c.node.parts, ''), false);
});

defineCI(['#language', '#МОВА', '#ЯЗЫК'], (_ex, c) => LANGUAGE_NAMES[c.first.toLowerCase()] ?? c.first.toLowerCase());

defineCI(['#tag', '#тег', '#мітка', '#метка', '#тэг'], (ex, c) => {
  const name = c.first.toLowerCase();
  if (!ex.extTagSet.has(name)) return `<span class="error">Unknown extension tag "${name}"</span>`;
  const parts = c.node.parts;
  const inner = parts.length > 0 ? ex.expandPart(parts[0], c.frame) : null;
  let attrs = '';
  for (const p of parts.slice(1)) {
    if (p.name === null) continue;
    const attrName = phpTrim(ex.expand(p.name, c.frame));
    let value = phpTrim(ex.expand(p.value, c.frame));
    const quoted = /^(?:["']([\s\S]+)["']|""|'')$/.exec(value);
    if (quoted) value = quoted[1] ?? '';
    // CoreParserFunctions::tagObj escapes both the name and the value
    attrs += ` ${htmlspecialchars(attrName)}="${htmlspecialchars(value)}"`;
  }
  return inner === null ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>`;
});

// {{PAGENAME:title}} and friends
for (const [word, names] of Object.entries(TITLE_WORDS) as Array<[TitleWord, string[]]>) {
  defineCS(names, (ex, c) => {
    const t = c.first === '' ? null : ex.titleInfo(c.first);
    return t ? titleWord(ex, word, t) : '';
  });
}

defineCS(
  ['DEFAULTSORT', 'DEFAULTSORTKEY', 'DEFAULTCATEGORYSORT', 'СОРТУВАННЯ_ЗА_ЗАМОВЧУВАННЯМ', 'СТАНДАРТНЕ_СОРТУВАННЯ', 'СОРТУВАННЯ', 'КЛЮЧ_СОРТУВАННЯ', 'СОРТИРОВКА_ПО_УМОЛЧАНИЮ', 'КЛЮЧ_СОРТИРОВКИ'],
  (ex, c) => {
    if (c.first !== '') ex.setDefaultSort(c.first, ex.trimmedArg(c, 1).toLowerCase() === 'noreplace');
    return '';
  },
);
defineCS(['DISPLAYTITLE', 'ПОКАЗАТИ_ЗАГОЛОВОК', 'ПОКАЗАТЬ_ЗАГОЛОВОК'], (ex, c) => ex.setDisplayTitle(c.first, ex.trimmedArg(c, 1)));

/** languages/i18n/uk.json of 1.25 */
export const DUPLICATE_DISPLAYTITLE_UK = '<strong>Увага:</strong> Відображений заголовок "$2" заміщує раніше відображений заголовок "$1".';

/** CoreParserFunctions::special: the local name of a special page (an unknown one as written) */
function specialTitle(ex: Expander, text: string): string {
  const r = resolveSpecialAlias(text.replace(/ /g, '_'));
  const name = r ? fixSpecialName(text.replace(/ /g, '_')) : ucfirst(text.replace(/ /g, '_'));
  return `${ex.nsName(-1)}:${name.replace(/_/g, ' ')}`;
}
defineCI(['#special'], (ex, c) => specialTitle(ex, c.first));
defineCI(['#speciale'], (ex, c) => wfUrlencode(specialTitle(ex, c.first).replace(/ /g, '_')));

// Functions that need the wiki's live state or its URLs: kept as written, and never taken for templates.
defineCI(
  ['localurl', 'localurle', 'fullurl', 'fullurle', 'canonicalurl', 'canonicalurle', 'filepath', 'special', 'speciale',
    'bidi', '#formatdate', '#dateformat', 'numberofpages', 'numberofusers',
    'numberofactiveusers', 'numberofarticles', 'numberoffiles', 'numberofadmins', 'numberofedits', 'numberofviews',
    'pageid', 'cascadingsources', 'ЛОКАЛЬНА_АДРЕСА', 'ПОВНА_АДРЕСА', 'ШЛЯХ_ДО_ФАЙЛУ', 'спеціальна'],
  () => LITERAL,
);
defineCS(['PAGESINCATEGORY', 'PAGESINCAT', 'PAGESIZE', 'PROTECTIONLEVEL', 'NUMBERINGROUP', 'NUMINGROUP', 'PAGESINNAMESPACE', 'PAGESINNS', 'REVISIONID', 'REVISIONUSER', 'REVISIONTIMESTAMP'], () => LITERAL);

const LANGUAGE_NAMES: Record<string, string> = {
  uk: 'українська', en: 'English', ru: 'русский', be: 'беларуская', 'be-tarask': 'беларуская (тарашкевіца)',
  pl: 'polski', de: 'Deutsch', fr: 'français', es: 'español', it: 'italiano', pt: 'português', cs: 'čeština',
  sk: 'slovenčina', bg: 'български', sr: 'српски / srpski', hr: 'hrvatski', ro: 'română', hu: 'magyar',
  la: 'Latina', el: 'Ελληνικά', tr: 'Türkçe', ka: 'ქართული', crh: 'qırımtatarca', rue: 'русиньскый',
  yi: 'ייִדיש', he: 'עברית', lt: 'lietuvių', lv: 'latviešu', et: 'eesti', fi: 'suomi', sv: 'svenska',
  nl: 'Nederlands', ja: '日本語', zh: '中文', eo: 'Esperanto',
};
// keys come from the wikitext ({{#language:constructor}}, {{#expr: constructor}}): no prototype to find them in
Object.setPrototypeOf(LANGUAGE_NAMES, null);

// ---------------------------------------------------------------------------------------------------
// #expr (ParserFunctions' ExprParser: a shunting-yard evaluator with bounded stacks)
// ---------------------------------------------------------------------------------------------------

const enum Op {
  NEGATIVE = 3, POSITIVE, PLUS, MINUS, TIMES, DIVIDE, MOD, OPEN, CLOSE, AND, OR, NOT, EQUALITY, LESS, GREATER,
  LESSEQ, GREATEREQ, NOTEQ, ROUND, EXPONENT, SINE, COSINE, TANGENS, ARCSINE, ARCCOS, ARCTAN, EXP, LN, ABS = 32,
  FLOOR, TRUNC, CEIL, POW, PI, FMOD, SQRT,
}

const PRECEDENCE: Record<number, number> = {
  [Op.NEGATIVE]: 10, [Op.POSITIVE]: 10, [Op.EXPONENT]: 10,
  [Op.SINE]: 9, [Op.COSINE]: 9, [Op.TANGENS]: 9, [Op.ARCSINE]: 9, [Op.ARCCOS]: 9, [Op.ARCTAN]: 9, [Op.EXP]: 9,
  [Op.LN]: 9, [Op.ABS]: 9, [Op.FLOOR]: 9, [Op.TRUNC]: 9, [Op.CEIL]: 9, [Op.NOT]: 9, [Op.SQRT]: 9,
  [Op.POW]: 8,
  [Op.TIMES]: 7, [Op.DIVIDE]: 7, [Op.MOD]: 7, [Op.FMOD]: 7,
  [Op.PLUS]: 6, [Op.MINUS]: 6,
  [Op.ROUND]: 5,
  [Op.EQUALITY]: 4, [Op.LESS]: 4, [Op.GREATER]: 4, [Op.LESSEQ]: 4, [Op.GREATEREQ]: 4, [Op.NOTEQ]: 4,
  [Op.AND]: 3, [Op.OR]: 2, [Op.PI]: 0, [Op.OPEN]: -1, [Op.CLOSE]: -1,
};

const OP_NAMES: Record<number, string> = {
  [Op.NEGATIVE]: '-', [Op.POSITIVE]: '+', [Op.NOT]: 'not', [Op.TIMES]: '*', [Op.DIVIDE]: '/', [Op.MOD]: 'mod',
  [Op.FMOD]: 'fmod', [Op.PLUS]: '+', [Op.MINUS]: '-', [Op.ROUND]: 'round', [Op.EQUALITY]: '=', [Op.LESS]: '<',
  [Op.GREATER]: '>', [Op.LESSEQ]: '<=', [Op.GREATEREQ]: '>=', [Op.NOTEQ]: '<>', [Op.AND]: 'and', [Op.OR]: 'or',
  [Op.EXPONENT]: 'e', [Op.SINE]: 'sin', [Op.COSINE]: 'cos', [Op.TANGENS]: 'tan', [Op.ARCSINE]: 'asin',
  [Op.ARCCOS]: 'acos', [Op.ARCTAN]: 'atan', [Op.LN]: 'ln', [Op.EXP]: 'exp', [Op.ABS]: 'abs', [Op.FLOOR]: 'floor',
  [Op.TRUNC]: 'trunc', [Op.CEIL]: 'ceil', [Op.POW]: '^', [Op.PI]: 'pi', [Op.SQRT]: 'sqrt',
};

const WORDS: Record<string, Op> = {
  mod: Op.MOD, fmod: Op.FMOD, and: Op.AND, or: Op.OR, not: Op.NOT, round: Op.ROUND, div: Op.DIVIDE, e: Op.EXPONENT,
  sin: Op.SINE, cos: Op.COSINE, tan: Op.TANGENS, asin: Op.ARCSINE, acos: Op.ARCCOS, atan: Op.ARCTAN, exp: Op.EXP,
  ln: Op.LN, abs: Op.ABS, trunc: Op.TRUNC, floor: Op.FLOOR, ceil: Op.CEIL, pi: Op.PI, sqrt: Op.SQRT,
};
// keys come from the wikitext ({{#language:constructor}}, {{#expr: constructor}}): no prototype to find them in
Object.setPrototypeOf(WORDS, null);

const SYMBOL_OPS: Record<string, Op> = { '*': Op.TIMES, '/': Op.DIVIDE, '^': Op.POW, '=': Op.EQUALITY, '<': Op.LESS, '>': Op.GREATER };

const MAX_EXPR_STACK = 100;

class ExprError extends Error {}

const EXPR_MESSAGES: Record<string, string> = {
  stack_exhausted: 'Expression error: Stack exhausted.',
  unexpected_number: 'Expression error: Unexpected number.',
  unrecognised_word: 'Expression error: Unrecognized word "$1".',
  unexpected_operator: 'Expression error: Unexpected $1 operator.',
  missing_operand: 'Expression error: Missing operand for $1.',
  unexpected_closing_bracket: 'Expression error: Unexpected closing bracket.',
  unrecognised_punctuation: 'Expression error: Unrecognized punctuation character "$1".',
  unclosed_bracket: 'Expression error: Unclosed bracket.',
  division_by_zero: 'Division by zero.',
  invalid_argument: 'Invalid argument for $1: < -1 or > 1.',
  invalid_argument_ln: 'Invalid argument for ln: <= 0.',
  not_a_number: 'In $1: result is not a number.',
};

function exprError(key: string, param = ''): ExprError {
  return new ExprError(EXPR_MESSAGES[key].replace('$1', param));
}

/** {{#expr:…}}: the value, or MediaWiki's error markup. */
function evaluateExpression(expr: string): string {
  const r = evaluateExpressionRaw(expr);
  return typeof r === 'string' ? r : r.error;
}

function evaluateExpressionRaw(expr: string): string | { error: string } {
  try {
    return doExpression(expr);
  } catch (e) {
    if (e instanceof ExprError) return { error: `<strong class="error">${htmlspecialchars(e.message)}</strong>` };
    throw e;
  }
}

function doExpression(input: string): string {
  const expr = input.replace(/&lt;|&gt;|&minus;|−/g, (m) => (m === '&lt;' ? '<' : m === '&gt;' ? '>' : '-'));
  const operands: number[] = [];
  const operators: Op[] = [];
  let p = 0;
  const end = expr.length;
  let expecting: 'expression' | 'operator' = 'expression';

  while (p < end) {
    if (operands.length > MAX_EXPR_STACK || operators.length > MAX_EXPR_STACK) throw exprError('stack_exhausted');
    const code = expr.charCodeAt(p);
    const ch = expr[p];
    const ch2 = code === 60 || code === 62 || code === 33 ? expr.slice(p, p + 2) : ''; // "<", ">", "!"
    let op: Op;
    let name = '';
    if (code === 32 || code === 9 || code === 13 || code === 10) {
      p++;
      continue;
    } else if (isExprNumberChar(code)) {
      if (expecting !== 'expression') throw exprError('unexpected_number');
      let q = p;
      while (q < end && isExprNumberChar(expr.charCodeAt(q))) q++;
      operands.push(phpFloatval(expr.slice(p, q)));
      p = q;
      expecting = 'operator';
      continue;
    } else if (isAsciiLetter(code)) {
      let q = p;
      while (q < end && isAsciiLetter(expr.charCodeAt(q))) q++;
      const word = expr.slice(p, q).toLowerCase();
      p = q;
      const w = WORDS[word];
      if (w === undefined) throw exprError('unrecognised_word', word);
      op = w;
      if (op === Op.EXPONENT && expecting === 'expression') {
        operands.push(Math.E); // "e" as a constant; after an operand it is the "×10^" operator
        expecting = 'operator';
        continue;
      }
      if (op === Op.PI) {
        if (expecting !== 'expression') throw exprError('unexpected_number');
        operands.push(Math.PI);
        expecting = 'operator';
        continue;
      }
      if (PRECEDENCE[op] === 9) {
        // unary function
        if (expecting !== 'expression') throw exprError('unexpected_operator', word);
        operators.push(op);
        continue;
      }
      name = word;
    } else if (ch2 === '<=') {
      name = ch2;
      op = Op.LESSEQ;
      p += 2;
    } else if (ch2 === '>=') {
      name = ch2;
      op = Op.GREATEREQ;
      p += 2;
    } else if (ch2 === '<>' || ch2 === '!=') {
      name = ch2;
      op = Op.NOTEQ;
      p += 2;
    } else if (ch === '+' || ch === '-') {
      p++;
      if (expecting === 'expression') {
        operators.push(ch === '+' ? Op.POSITIVE : Op.NEGATIVE);
        continue;
      }
      name = ch;
      op = ch === '+' ? Op.PLUS : Op.MINUS;
    } else if (ch === '*' || ch === '/' || ch === '^' || ch === '=' || ch === '<' || ch === '>') {
      name = ch;
      op = SYMBOL_OPS[ch];
      p++;
    } else if (ch === '(') {
      if (expecting === 'operator') throw exprError('unexpected_operator', '(');
      operators.push(Op.OPEN);
      p++;
      continue;
    } else if (ch === ')') {
      let last = operators[operators.length - 1];
      while (last !== undefined && last !== Op.OPEN) {
        doOperation(last, operands);
        operators.pop();
        last = operators[operators.length - 1];
      }
      if (last === undefined) throw exprError('unexpected_closing_bracket');
      operators.pop();
      expecting = 'operator';
      p++;
      continue;
    } else {
      throw exprError('unrecognised_punctuation', String.fromCodePoint(expr.codePointAt(p) ?? 0));
    }

    // A binary operator: reduce what binds at least as tightly, then push it.
    if (expecting === 'expression') throw exprError('unexpected_operator', name);
    let last = operators[operators.length - 1];
    while (last !== undefined && PRECEDENCE[op] <= PRECEDENCE[last]) {
      doOperation(last, operands);
      operators.pop();
      last = operators[operators.length - 1];
    }
    operators.push(op);
    expecting = 'expression';
  }

  for (let op = operators.pop(); op !== undefined; op = operators.pop()) {
    if (op === Op.OPEN) throw exprError('unclosed_bracket');
    doOperation(op, operands);
  }
  return operands.map(phpFloatToString).join('<br />\n');
}

function isExprNumberChar(c: number): boolean {
  return (c >= 48 && c <= 57) || c === 46;
}

function isAsciiLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

function doOperation(op: Op, stack: number[]): void {
  const need = (n: number): void => {
    if (stack.length < n) throw exprError('missing_operand', OP_NAMES[op]);
  };
  const unary = PRECEDENCE[op] >= 9 && op !== Op.EXPONENT;
  need(unary ? 1 : 2);
  if (unary) {
    const a = stack.pop() as number;
    let r: number;
    switch (op) {
      case Op.NEGATIVE: r = -a; break;
      case Op.POSITIVE: r = a; break;
      case Op.NOT: r = a ? 0 : 1; break;
      case Op.SINE: r = Math.sin(a); break;
      case Op.COSINE: r = Math.cos(a); break;
      case Op.TANGENS: r = Math.tan(a); break;
      case Op.ARCSINE:
      case Op.ARCCOS:
        if (a < -1 || a > 1) throw exprError('invalid_argument', OP_NAMES[op]);
        r = op === Op.ARCSINE ? Math.asin(a) : Math.acos(a);
        break;
      case Op.ARCTAN: r = Math.atan(a); break;
      case Op.EXP: r = Math.exp(a); break;
      case Op.LN:
        if (a <= 0) throw exprError('invalid_argument_ln');
        r = Math.log(a);
        break;
      case Op.ABS: r = Math.abs(a); break;
      case Op.FLOOR: r = Math.floor(a); break;
      case Op.TRUNC: r = phpIntCast(a); break;
      case Op.CEIL: r = Math.ceil(a); break;
      case Op.SQRT:
        r = Math.sqrt(a);
        if (Number.isNaN(r)) throw exprError('not_a_number', 'sqrt');
        break;
      default: throw exprError('missing_operand', OP_NAMES[op]);
    }
    stack.push(r);
    return;
  }
  const right = stack.pop() as number;
  const left = stack.pop() as number;
  let r: number;
  switch (op) {
    case Op.TIMES: r = left * right; break;
    case Op.DIVIDE:
      if (right === 0) throw exprError('division_by_zero', OP_NAMES[op]);
      r = left / right;
      break;
    case Op.MOD: {
      const l = phpIntCast(left);
      const rr = phpIntCast(right);
      if (rr === 0) throw exprError('division_by_zero', OP_NAMES[op]);
      r = l % rr;
      break;
    }
    case Op.FMOD:
      if (right === 0) throw exprError('division_by_zero', OP_NAMES[op]);
      r = left % right;
      break;
    case Op.PLUS: r = left + right; break;
    case Op.MINUS: r = left - right; break;
    case Op.AND: r = left && right ? 1 : 0; break;
    case Op.OR: r = left || right ? 1 : 0; break;
    case Op.EQUALITY: r = left === right ? 1 : 0; break;
    case Op.NOTEQ: r = left !== right ? 1 : 0; break;
    case Op.LESS: r = left < right ? 1 : 0; break;
    case Op.GREATER: r = left > right ? 1 : 0; break;
    case Op.LESSEQ: r = left <= right ? 1 : 0; break;
    case Op.GREATEREQ: r = left >= right ? 1 : 0; break;
    case Op.ROUND: r = phpRound(left, phpIntCast(right)); break;
    case Op.EXPONENT: r = left * Math.pow(10, right); break;
    case Op.POW: r = Math.pow(left, right); break;
    default: throw exprError('missing_operand', OP_NAMES[op]);
  }
  stack.push(r);
}

// ---------------------------------------------------------------------------------------------------
// String helpers (PHP and MediaWiki equivalents)
// ---------------------------------------------------------------------------------------------------

/** The error markup #iferror looks for. */
function isErrorText(s: string): boolean {
  return /<(?:strong|span|p|div)\s(?:[^\s>]*\s+)*?class="(?:[^"\s>]*\s+)*?error(?:\s[^">]*)?"/.test(s);
}


function stripComments(s: string): string {
  return s.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
}

/** Semantic Forms lets "\n" stand for a newline in delimiters. */
function unescapeNewlines(s: string): string {
  return s.replace(/\\n/g, '\n');
}

function utf8Length(s: string): number {
  if (s.length > 256) return Buffer.byteLength(s, 'utf8');
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // a surrogate pair counts 4: 2 for each half
    n += c < 0x80 ? 1 : c < 0x800 || (c >= 0xd800 && c < 0xe000) ? 2 : 3;
  }
  return n;
}

/** Output starting with "*", "#", ":", ";" or "{|" is block-level: MediaWiki puts it on its own line. */
function startsBlock(s: string): boolean {
  const c = s.charCodeAt(0);
  return c === 42 || c === 35 || c === 58 || c === 59 || (c === 123 && s.charCodeAt(1) === 124);
}

const ESCAPE_RE = /[\n\r](?:----|[#*: \n\r\t])|(?:ISBN|RFC|PMID)[ \t\r\n\f]|__|:\/\/|["&'<=>[\]{|};]/g;
const ESCAPE_CHAR: Record<string, string> = {
  '#': '&#35;', '*': '&#42;', ':': '&#58;', ' ': '&#32;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;', '\f': '&#12;',
};
const NON_SLASH_PROTOCOLS = /\b(bitcoin|geo|magnet|mailto|news|sip|sips|sms|tel|urn|xmpp):/gi;

/**
 * wfEscapeWikiText: what MediaWiki does to page names it substitutes, so that they cannot form markup
 * ("Кам'янка" → "Кам&#39;янка"). Consumers decode character references in titles, as MediaWiki does.
 */
export function escapeWikiText(text: string): string {
  const out = ('\n' + text).replace(ESCAPE_RE, (m) => {
    if (m.length === 1) return `&#${m.charCodeAt(0)};`;
    if (m === '__') return '_&#95;';
    if (m === '://') return '&#58;//';
    const c0 = m[0];
    if (c0 === '\n' || c0 === '\r') {
      if (m.endsWith('----')) return c0 + '&#45;---';
      if (m === '\r\n') return '&#13;\n';
      return c0 + ESCAPE_CHAR[m[1]];
    }
    return m.slice(0, -1) + ESCAPE_CHAR[m[m.length - 1]]; // ISBN/RFC/PMID + whitespace
  });
  return out.slice(1).replace(NON_SLASH_PROTOCOLS, '$1&#58;');
}

/** {{anchorencode:}}: the legacy (HTML4) section anchor of a heading text. */
function anchorEncode(text: string): string {
  let t = text.replace(/[ _]+/g, ' ').trim();
  // Links in headings leave only their label.
  t = t.replace(/\[\[:?([^\]|]*)(?:\|([^\]]*))?\]\]/g, (_m, target: string, label?: string) => label ?? target);
  t = decodeCharReferences(t).replace(/[ _]+/g, ' ').trim();
  return phpUrlencode(t.replace(/ /g, '_')).replace(/%3A/g, ':').replace(/%/g, '.');
}

