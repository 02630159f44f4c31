/**
 * The preprocessor's parse tree (Preprocessor_Hash's PPNode_Hash_*): text, template calls, template
 * arguments, extension tags, comments, ignored sections and headings; and the cache that lets a
 * template's tree serve every page that transcludes it.
 */

export interface TextNode {
  k: 'text';
  v: string;
}
/** {{title|parts}} */
export interface TplNode {
  k: 'tpl';
  title: PNode[];
  parts: Part[];
  /** the call starts a line (then a leading "*", "#", ":", ";" or "{|" of its output needs no newline) */
  lineStart: boolean;
  /** the source text of the call, output when a limit stops its expansion */
  raw: string;
}
/** {{{title|default}}} */
export interface ArgNode {
  k: 'arg';
  title: PNode[];
  parts: Part[];
  raw: string;
  lineStart: boolean;
}
/** an extension tag (<nowiki>, <ref>, …), kept verbatim */
export interface ExtNode {
  k: 'ext';
  raw: string;
}
/** a comment, kept (OT_WIKI, parse trees); with the blanks and newline of a line it takes whole */
export interface CommentNode {
  k: 'comment';
  raw: string;
}
/** what the view ignores, kept as written (OT_WIKI's page, parse trees): <noinclude> tags, an <includeonly> element */
export interface IgnoreNode {
  k: 'ignore';
  raw: string;
}
/** a well-formed heading line at the top level of a text (Preprocessor_Hash's <h level= i=>) */
export interface HeadingNode {
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
export type PNode = TextNode | TplNode | ArgNode | ExtNode | CommentNode | IgnoreNode | HeadingNode;

/** One "|"-separated argument. `nodes` is the whole argument; a named one also has name and value. */
export interface Part {
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
export function rawOf(nodes: readonly PNode[], from = 0): string {
  let s = '';
  for (let i = from; i < nodes.length; i++) {
    const n = nodes[i];
    s += n.k === 'text' ? n.v : n.raw;
  }
  return s;
}

/** nodes a tree holds (arguments included) */
export function treeSize(nodes: readonly PNode[]): number {
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
export function templateTreeSize(tree: readonly PNode[]): number {
  let n = templateTreeSizes.get(tree);
  if (n === undefined) templateTreeSizes.set(tree, (n = treeSize(tree)));
  return n;
}

export interface ArgDef {
  nodes: PNode[];
  /** named arguments are trimmed after expansion, positional ones are not */
  named: boolean;
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
