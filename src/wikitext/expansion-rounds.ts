/**
 * Template expansion over a snapshot of the pages it reads, for every expansion of a page's text (the
 * importer, action=parse and its pre-save transform, action=expandtemplates): the preprocessor is
 * synchronous, the store is not, so an expansion runs against what has been fetched so far and says
 * what else it asked for (templates, #ifexist targets, inline queries); `expandInRounds` has the caller
 * fetch all of that in one batch and expands again, one nesting level further each round (as
 * MessageLoader does for messages). A snapshot over a synchronous source (the importer's database
 * under construction) answers everything in the first round.
 */
import type { TitleCodec } from '../wiki/titles.js';
import { NS_TEMPLATE } from '../wiki/namespaces.js';
import { DEFAULT_LIMITS, type ExpandResult, type InlineQueryFn, type PreprocessContext } from './preprocessor/context.js';
import { expandWikitext } from './preprocessor/index.js';
import { TemplateTreeCache } from './preprocessor/tree.js';
import { displayTitleProp } from './display-title.js';
import { MessageSnapshot, Messages, type MessageSource } from '../wiki/messages.js';

export interface TitleRef {
  ns: number;
  dbkey: string;
}

/** A transclusion source: its text and the title it comes from (after one redirect, if any). */
export interface Transcluded {
  text: string;
  ns: number;
  dbkey: string;
}

/** Pages read synchronously (Parser::statelessFetchTemplate over a local database). */
export interface PageSource {
  /** the text to transclude for a title, after one redirect; null when there is none */
  template(t: TitleRef): Transcluded | null;
  exists(t: TitleRef): boolean;
  /** the message catalogs and MediaWiki: overrides {{int:}} reads */
  messages?: MessageSource;
}

/** `${ns}|${dbkey}`, the key of the snapshot's maps */
export const titleKey = (t: TitleRef): string => `${t.ns}|${t.dbkey}`;

/**
 * What the expansion rounds have learnt about pages: text (after one redirect) or missing, existence.
 * With a source, what was not learnt is read from it (and nothing is ever wanted).
 */
export class PageSnapshot {
  /** `${ns}|${dbkey}` → the text with the title it comes from, or null when there is no such page */
  readonly templates = new Map<string, Transcluded | null>();
  readonly exists = new Map<string, boolean>();
  /** inline query calls (queryKey) → their output */
  readonly queries = new Map<string, InlineQueryOutput>();
  /** the stored message texts {{int:}} read (without a source); what a round read unfetched is wanted */
  readonly messageTexts = new MessageSnapshot();

  constructor(readonly source?: PageSource) {}

  /** where {{int:}} looks messages up: the source's (synchronous) messages, else what the rounds fetched */
  messages(): MessageSource {
    return this.source?.messages ?? this.messageTexts;
  }

  /** the known text of a title; undefined when it has not been fetched (and there is no source) */
  template(key: string, t: TitleRef): Transcluded | null | undefined {
    const v = this.templates.get(key);
    if (v !== undefined || !this.source) return v;
    return this.source.template(t);
  }

  pageExists(key: string, t: TitleRef): boolean | undefined {
    const v = this.exists.get(key);
    if (v !== undefined || !this.source) return v;
    return this.source.exists(t);
  }
}

export interface InlineQueryOutput {
  text: string;
  /** the output has template calls to expand (see PreprocessContext.inlineQuery) */
  expand: boolean;
}

export interface InlineQueryCall {
  /** 'concept-again': a #concept after the page's first (SMW answers it with smw_multiple_concepts) */
  fn: InlineQueryFn;
  /** the arguments, expanded and trimmed */
  args: string[];
}

/**
 * Distinct inline queries one page may run. SMW has no such bound, but every query costs store round
 * trips and a page (or a template on it) could hold thousands; calls past it output nothing.
 */
export const MAX_INLINE_QUERIES = 100;

/**
 * Expansion rounds at most: one per nesting level of templates, bounded by MediaWiki's
 * $wgMaxTemplateDepth (40); deeper calls are not expanded anyway.
 */
export const MAX_EXPANSION_DEPTH = DEFAULT_LIMITS.maxDepth;

/**
 * Templates one expansion over the store fetches at most (the node limit stops far earlier in practice);
 * a template past it is taken as missing.
 */
const MAX_TEMPLATES = 2000;

export function queryKey(call: InlineQueryCall): string {
  return call.fn + '\u0000' + call.args.join('\u0000');
}

/**
 * PreprocessContext.inlineQuery over the answers known so far: a call not answered yet is added to
 * `wanted` (and left as written this round); calls beyond MAX_INLINE_QUERIES output nothing.
 */
function inlineQueryAnswers(
  known: ReadonlyMap<string, InlineQueryOutput>,
  wanted: Map<string, InlineQueryCall>,
): NonNullable<PreprocessContext['inlineQuery']> {
  return (fn, args) => {
    const call = { fn, args };
    const k = queryKey(call);
    const answer = known.get(k);
    if (answer !== undefined) return answer;
    if (known.size + wanted.size >= MAX_INLINE_QUERIES && !wanted.has(k)) return { text: '', expand: false };
    wanted.set(k, call);
    return undefined;
  };
}

export interface ExpandRound {
  result: ExpandResult;
  wantedTemplates: TitleRef[];
  wantedExists: TitleRef[];
  /** inline queries met whose output is not in the snapshot yet */
  wantedQueries: InlineQueryCall[];
  /** stored message texts {{int:}} read that the snapshot has not fetched: every key in every language */
  wantedMessages: { langs: string[]; keys: string[] };
}

/** parse trees of template texts, shared by every expansion of the serving process (pages, messages) */
export const sharedTreeCache = new TemplateTreeCache();
const siteTables = new WeakMap<TitleCodec, { names: Record<number, string>; subpages: number[] }>();

/**
 * The namespace names and the namespaces with subpages of a wiki, as PreprocessContext takes them; one
 * pair of objects per codec, so the preprocessor's tables built from them are reused.
 */
export function namespaceTables(codec: TitleCodec): { names: Record<number, string>; subpages: number[] } {
  let t = siteTables.get(codec);
  if (!t) {
    const names: Record<number, string> = {};
    const subpages: number[] = [];
    for (const n of codec.namespaces.values()) {
      names[n.id] = n.name;
      if (n.subpages) subpages.push(n.id);
    }
    t = { names, subpages };
    siteTables.set(codec, t);
  }
  return t;
}

/** What an expansion reads of the wiki's pages, for titles that can have one (no special page, ns ≥ 0). */
export interface PageLookup {
  template(t: TitleRef): Transcluded | null;
  exists(t: TitleRef): boolean;
}

/**
 * The part of a PreprocessContext every expansion of a wiki's text shares, a page's or a message's: the
 * title it is expanded for, title parsing, the namespace tables, and templates and #ifexist read
 * through `pages`.
 */
export function pageContext(
  codec: TitleCodec,
  title: TitleRef,
  pages: PageLookup,
): Pick<PreprocessContext, 'title' | 'getTemplate' | 'pageExists' | 'resolveTarget' | 'namespaceNames' | 'namespacesWithSubpages'> {
  const t = namespaceTables(codec);
  return {
    title: { ns: title.ns, dbkey: title.dbkey, nsText: codec.nsName(title.ns) ?? '' },
    getTemplate: (target) => {
      const tt = codec.parse(target, NS_TEMPLATE);
      // Special: and Media: (ns < 0) have no text to transclude
      return !tt || tt.ns < 0 ? null : pages.template(tt);
    },
    pageExists: (target) => {
      const tt = codec.parse(target, 0);
      return !tt || tt.ns < 0 ? false : pages.exists(tt);
    },
    resolveTarget: (target, defaultNs) => {
      const tt = codec.parse(target, defaultNs);
      return tt && { ns: tt.ns, dbkey: tt.dbkey, nsText: codec.nsName(tt.ns) ?? '' };
    },
    namespaceNames: t.names,
    namespacesWithSubpages: t.subpages,
  };
}

export interface ExpandOptions {
  codec: TitleCodec;
  title: TitleRef;
  siteName: string;
  now: Date;
  limits?: PreprocessContext['limits'];
  /** messages in the content language the expansion shows (duplicate-displaytitle) */
  message?: (key: string) => string | undefined;
  /** the pre-save transform's expansion (see PreprocessContext.outputType) */
  outputType?: 'html' | 'wiki';
  stripItem?: (raw: string) => string;
  /** mark headings for the renderer (PreprocessContext.headingMarkers) */
  headingMarkers?: boolean;
  /** evaluate {{#ask:}} / {{#show:}} (their output comes from the snapshot; missing ones are wanted) */
  inlineQueries?: boolean;
  /** collect the limit report's node count and transclusion times (PreprocessContext.limitReport) */
  limitReport?: boolean;
  /** keep comments (expandtemplates' includecomments) */
  keepComments?: boolean;
  /** the variables of the live wiki the caller computes (PreprocessContext.variable) */
  variable?: PreprocessContext['variable'];
  /**
   * false: {{DISPLAYTITLE:}} is recorded as written, never checked against the title (expandtemplates
   * shows no duplicate-displaytitle warning)
   */
  checkDisplayTitle?: boolean;
  /** parse trees shared across expansions; default the serving process's */
  treeCache?: TemplateTreeCache;
  /** the wiki's content language ({{CONTENTLANGUAGE}}, the page language of {{PLURAL}} and friends); default 'uk' */
  contentLang?: string;
  /**
   * the user language of the parser options, in which {{int:}} looks messages up
   * (CoreParserFunctions::intFunction): uselang for the API, the content language at import (LinksUpdate's
   * canonical options); default the content language
   */
  userLang?: string;
}

/** whether a round asked for anything it did not have */
function wantsMore(round: ExpandRound): boolean {
  return (
    round.wantedTemplates.length > 0 ||
    round.wantedExists.length > 0 ||
    round.wantedQueries.length > 0 ||
    round.wantedMessages.keys.length > 0
  );
}

/** Fetches, in one batch, what a round asked for into the snapshot. */
export type RoundFetcher = (round: ExpandRound, snap: PageSnapshot) => Promise<void>;

/**
 * Expand `text` in rounds until it asks for nothing new, at most one per level of template nesting:
 * `fetch` fills the snapshot between rounds, `beforeRound` resets what a round's callbacks collected.
 */
export async function expandInRounds(
  text: string,
  snap: PageSnapshot,
  o: ExpandOptions,
  fetch: RoundFetcher,
  beforeRound?: () => void,
): Promise<ExpandRound> {
  let round = expandRound(text, snap, o);
  for (let n = 0; n < MAX_EXPANSION_DEPTH && wantsMore(round); n++) {
    await fetch(round, snap);
    beforeRound?.();
    round = expandRound(text, snap, o);
  }
  return round;
}

export function expandRound(text: string, snap: PageSnapshot, o: ExpandOptions): ExpandRound {
  const wantedTemplates = new Map<string, TitleRef>();
  const wantedExists = new Map<string, TitleRef>();
  const wantedQueries = new Map<string, InlineQueryCall>();
  const contentLang = o.contentLang ?? 'uk';
  const userLang = o.userLang ?? contentLang;
  // Message::plain() does not transform, so the message environment never fetches a template
  const messages = new Messages(snap.messages(), { codec: o.codec, siteName: o.siteName, contentLang, fetchTemplate: () => null });
  const page = pageContext(o.codec, o.title, {
    template: (tt) => {
      const key = titleKey(tt);
      const v = snap.template(key, tt);
      if (v === undefined) {
        if (snap.templates.size + wantedTemplates.size < MAX_TEMPLATES) wantedTemplates.set(key, { ns: tt.ns, dbkey: tt.dbkey });
        return null;
      }
      return v;
    },
    exists: (tt) => {
      const key = titleKey(tt);
      const v = snap.pageExists(key, tt);
      if (v === undefined) {
        wantedExists.set(key, { ns: tt.ns, dbkey: tt.dbkey });
        return false;
      }
      return v;
    },
  });
  // every field written in one literal (no spread, none added later): one object shape for every page,
  // which the preprocessor's many reads of ctx stay fast on (a spread object with fields added after it
  // cost ~15 µs a page at import)
  const ctx: PreprocessContext = {
    title: page.title,
    getTemplate: page.getTemplate,
    pageExists: page.pageExists,
    resolveTarget: page.resolveTarget,
    namespaceNames: page.namespaceNames,
    namespacesWithSubpages: page.namespacesWithSubpages,
    siteName: o.siteName,
    now: o.now,
    treeCache: o.treeCache ?? sharedTreeCache,
    limits: o.limits,
    keepComments: o.keepComments,
    variable: o.variable,
    message: o.message,
    outputType: o.outputType,
    stripItem: o.stripItem,
    headingMarkers: o.headingMarkers,
    limitReport: o.limitReport,
    language: contentLang,
    contentLanguage: contentLang,
    // wfMessage($key, $args)->inLanguage(user language)->plain(): MessageCache's whole lookup
    interfaceMessage: (key, args) => messages.plain(key, args, userLang),
    displayTitle: o.checkDisplayTitle !== false ? (text) => displayTitleProp(text, o.title, o.codec) : undefined,
    inlineQuery: o.inlineQueries ? inlineQueryAnswers(snap.queries, wantedQueries) : undefined,
  };
  const result = expandWikitext(text, ctx);
  const wantedTexts = snap.source?.messages ? new Map<string, Set<string>>() : snap.messageTexts.wantedTexts;
  const wantedMessages = { langs: [...wantedTexts.keys()], keys: [...new Set([...wantedTexts.values()].flatMap((k) => [...k]))] };
  return {
    result,
    wantedTemplates: [...wantedTemplates.values()],
    wantedExists: [...wantedExists.values()],
    wantedQueries: [...wantedQueries.values()],
    wantedMessages,
  };
}
