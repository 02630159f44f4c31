/**
 * What expandWikitext is given (the page, its callbacks into the wiki, the limits) and what it returns,
 * with the markers it leaves in headings for the renderer.
 */
import type { TemplateTreeCache } from './tree.js';

/** The SMW function an inline query comes from; 'concept-again': a #concept after the page's first (SMW answers it with smw_multiple_concepts) */
export type InlineQueryFn = 'ask' | 'show' | 'concept' | 'concept-again';

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
  inlineQuery?(fn: InlineQueryFn, args: string[]): { text: string; expand: boolean } | undefined;
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
  /** the tracking categories the expansion adds, as message keys (duplicate-args-category, the limits' …) */
  trackingCategories?: string[];
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
export function headingMarker(serial: number): string {
  return `\x7fUNIQ-h-${serial}-QINU\x7f`;
}

/**
 * The limits of a default 1.25 ParserOptions: $wgMaxPPExpandDepth and $wgMaxTemplateDepth (40),
 * $wgMaxArticleSize as the include size (2 MB), $wgMaxPPNodeCount (1,000,000).
 */
export const DEFAULT_LIMITS = { maxDepth: 40, maxExpandedBytes: 2 * 1024 * 1024, maxNodes: 1_000_000 } as const;
