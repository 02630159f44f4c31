/**
 * Stage 2 of the preprocessor (PPFrame_Hash::expand, Parser::braceSubstitution / argSubstitution):
 * walks the tree in frames (one per template call, holding its arguments) and produces text. Template
 * parameters are expanded lazily and cached per frame, template calls without arguments are cached
 * per parent frame (MediaWiki's "empty-frame cache"), and three limits (expansion depth, expanded
 * bytes, visited nodes) bound the work: when one is hit the rest is left unexpanded, `limitHit` says
 * which, and nothing is thrown. Parser functions and magic variables come from the tables it is given.
 */
import { NS_MAIN, NS_TEMPLATE } from '../../wiki/namespaces.js';
import { replaceParameters } from '../../wiki/messages.js';
import { escapeRegExp } from '../regexp.js';
import { phpTrim, utf8Length } from '../../php/strings.js';
import { DEFAULT_LIMITS, headingMarker, type ExpansionReport, type HeadingMark, type PreprocessContext } from './context.js';
import { escapeWikiText } from './escape-wikitext.js';
import { Frame } from './frame.js';
import { SiteTables, normalizeNsName, resolveTitle } from './site-tables.js';
import { CH_SLASH, INDICATOR_OPEN, preprocessToTree } from './tokenizer.js';
import {
  rawOf,
  templateTreeSize,
  treeSize,
  type ArgDef,
  type ArgNode,
  type HeadingNode,
  type PNode,
  type Part,
  type TplNode,
} from './tree.js';

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
export const LITERAL = Symbol('literal');
/** A parser function's "found => false": the call is taken for a transclusion ({{ns:Nothing}}, {{int:}}). */
export const NOT_FOUND = Symbol('not found');
export type FnResult = string | typeof LITERAL | typeof NOT_FOUND;

export interface Call {
  frame: Frame;
  node: TplNode;
  /** the text after the colon, trimmed: the first argument */
  first: string;
  /** the expanded title as written, for the literal output */
  titleWithSpaces: string;
}

export type ParserFunction = (ex: Expander, c: Call) => FnResult;
/** A magic variable: {{NAME}} without arguments. */
export type Variable = (ex: Expander) => FnResult;

/** Parser functions by name (functions/registry.ts builds the table). */
export interface ParserFunctionLookup {
  parserFunction(name: string): ParserFunction | undefined;
}

export interface TitleInfo {
  ns: number;
  /** namespace name with spaces, '' for main */
  nsText: string;
  /** title without namespace, with spaces */
  text: string;
}

/** duplicate-displaytitle in languages/i18n/uk.json of 1.25 (used when the context has no message) */
export const DUPLICATE_DISPLAYTITLE_UK = '<strong>Увага:</strong> Відображений заголовок "$2" заміщує раніше відображений заголовок "$1".';

/** characters of expanded text that count as one node against maxNodes */
const TEXT_UNIT = 64;
/** characters of generated text to parse that count as one node */
const PARSE_UNIT = 8;

/** The tracking category message of each limit (Parser::limitationWarn's "$limitationType-category") */
const LIMIT_CATEGORIES = {
  depth: 'expansion-depth-exceeded-category',
  size: 'post-expand-template-inclusion-category',
  nodes: 'node-count-exceeded-category',
} as const;

/** $wgExpensiveParserFunctionLimit */
const EXPENSIVE_FUNCTION_LIMIT = 100;

export class Expander {
  readonly rootFrame = new Frame(null, null, null, 0);
  readonly templates = new Map<string, { ns: number; dbkey: string }>();
  readonly links = new Map<string, { ns: number; dbkey: string }>();
  readonly headings: HeadingMark[] = [];
  defaultSort: string | undefined;
  displayTitle: string | undefined;
  displayTitleIgnored = false;
  limitHit: string | undefined;
  /**
   * the tracking categories the expansion adds (Parser::addTrackingCategory: duplicate template arguments,
   * each limit hit), as message keys in the order first added
   */
  trackingCategories: Set<string> | null = null;
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

  constructor(
    readonly ctx: PreprocessContext,
    private readonly functions: ParserFunctionLookup,
    private readonly variables: ReadonlyMap<string, Variable>,
  ) {
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

  /**
   * Record a limit and its tracking category (Parser::limitationWarn); the size and node limits stop all
   * further expansion. An argument past the size limit is 1.25's post-expand-template-argument.
   */
  private hit(kind: 'depth' | 'size' | 'nodes', global: boolean, argument = false): void {
    if (this.limitHit === undefined) this.limitHit = kind;
    this.track(argument ? 'post-expand-template-argument-category' : LIMIT_CATEGORIES[kind]);
    if (global) this.stopped = true;
  }

  /** Parser::addTrackingCategory, by message key */
  track(key: string): void {
    (this.trackingCategories ??= new Set()).add(key);
  }

  /** Parser::parse's end: more expensive function calls than $wgExpensiveParserFunctionLimit */
  finish(): void {
    if (this.expensiveCount > EXPENSIVE_FUNCTION_LIMIT) this.track('expensive-parserfunction-category');
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
        this.hit('size', true, true);
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
    if (this.wikiMode ? subst === null : subst !== null && !SAFESUBST_WORDS.includes(subst.toUpperCase()))
      return this.literalCall(node, titleWithSpaces, frame);

    if (node.parts.length === 0) {
      const known = this.ctx.variable?.(part1);
      if (known !== undefined) return this.finishCall(node, known, frame, titleWithSpaces);
      const variable = this.variables.get(part1);
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
      const fn = this.functions.parserFunction(part1.slice(0, colon));
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
      const name = p.name === null ? p.key : phpTrim(this.expand(p.name, parent));
      // PPFrame_Hash::newChild: a parameter given twice
      if (args.has(name)) this.track('duplicate-args-category');
      args.set(name, p.def);
    }
    return new Frame(parent, args, key, parent.depth + 1);
  }

  private templateTree(key: string, text: string): PNode[] {
    let tree = (this.treeCache ??= new Map()).get(key);
    if (!tree) {
      const shared = this.ctx.treeCache;
      // trees with kept comments differ from the usual ones
      const tags = this.wikiMode
        ? this.site.extTagsKey + '\x00wiki'
        : this.ctx.keepComments
          ? this.site.extTagsKey + '\x00comments'
          : this.site.extTagsKey;
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
  trimmedArg(call: Call, k: number): string {
    if (k === 0) return call.first;
    const p = call.node.parts[k - 1];
    return p ? phpTrim(this.expand(p.nodes, call.frame)) : '';
  }

  hasArg(call: Call, k: number): boolean {
    return k === 0 || call.node.parts.length >= k;
  }

  /** All arguments expanded and trimmed (how MediaWiki calls functions without SFH_OBJECT_ARGS). */
  allTrimmedArgs(call: Call): string[] {
    const args = [call.first];
    for (const p of call.node.parts) args.push(phpTrim(this.expand(p.nodes, call.frame)));
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

/** Output starting with "*", "#", ":", ";" or "{|" is block-level: MediaWiki puts it on its own line. */
function startsBlock(s: string): boolean {
  const c = s.charCodeAt(0);
  return c === 42 || c === 35 || c === 58 || c === 59 || (c === 123 && s.charCodeAt(1) === 124);
}
