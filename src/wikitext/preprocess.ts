/**
 * Template expansion for rendering, over a snapshot of the pages it reads: the preprocessor is
 * synchronous, the store is not, so an expansion runs against what has been fetched so far and says
 * what else it asked for (templates, #ifexist targets); the caller fetches all of that in one batch
 * and expands again, one nesting level further each round (as MessageLoader does for messages).
 */
import type { TitleCodec } from '../wiki/titles.js';
import { NS_SPECIAL, NS_TEMPLATE } from '../wiki/namespaces.js';
import { expandWikitext, TemplateTreeCache, type ExpandResult, type PreprocessContext } from './preprocessor.js';
import { displayTitleProp } from './display-title.js';

export interface TitleRef {
  ns: number;
  dbkey: string;
}

/** what the expansion rounds have learnt about pages: text (after one redirect) or missing, existence */
export class PageSnapshot {
  /** `${ns}|${dbkey}` → the text with the title it comes from, or null when there is no such page */
  readonly templates = new Map<string, { text: string; ns: number; dbkey: string } | null>();
  readonly exists = new Map<string, boolean>();
  /** inline query calls (queryKey) → their output */
  readonly queries = new Map<string, InlineQueryOutput>();
}

export interface InlineQueryOutput {
  text: string;
  /** the output has template calls to expand (see PreprocessContext.inlineQuery) */
  expand: boolean;
}

export interface InlineQueryCall {
  fn: 'ask' | 'show';
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
export const MAX_EXPANSION_DEPTH = 40;

export function queryKey(call: InlineQueryCall): string {
  return call.fn + '\u0000' + call.args.join('\u0000');
}

export interface ExpandRound {
  result: ExpandResult;
  wantedTemplates: TitleRef[];
  wantedExists: TitleRef[];
  /** inline queries met whose output is not in the snapshot yet */
  wantedQueries: InlineQueryCall[];
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
  /** time the transclusions for the limit report (PreprocessContext.profile) */
  profile?: boolean;
}

export function expandRound(text: string, snap: PageSnapshot, o: ExpandOptions): ExpandRound {
  const wantedTemplates = new Map<string, TitleRef>();
  const wantedExists = new Map<string, TitleRef>();
  const wantedQueries = new Map<string, InlineQueryCall>();
  const t = namespaceTables(o.codec);
  const ctx: PreprocessContext = {
    title: { ns: o.title.ns, dbkey: o.title.dbkey, nsText: o.codec.nsName(o.title.ns) ?? '' },
    getTemplate: (target) => {
      const tt = o.codec.parse(target, NS_TEMPLATE);
      if (!tt || tt.ns === NS_SPECIAL || tt.ns < 0) return null;
      const key = `${tt.ns}|${tt.dbkey}`;
      const v = snap.templates.get(key);
      if (v === undefined) {
        wantedTemplates.set(key, { ns: tt.ns, dbkey: tt.dbkey });
        return null;
      }
      return v;
    },
    pageExists: (target) => {
      const tt = o.codec.parse(target, 0);
      if (!tt || tt.ns < 0) return false;
      const key = `${tt.ns}|${tt.dbkey}`;
      const v = snap.exists.get(key);
      if (v === undefined) {
        wantedExists.set(key, { ns: tt.ns, dbkey: tt.dbkey });
        return false;
      }
      return v;
    },
    resolveTarget: (target, defaultNs) => {
      const tt = o.codec.parse(target, defaultNs);
      return tt && { ns: tt.ns, dbkey: tt.dbkey, nsText: o.codec.nsName(tt.ns) ?? '' };
    },
    namespaceNames: t.names,
    namespacesWithSubpages: t.subpages,
    siteName: o.siteName,
    now: o.now,
    treeCache: sharedTreeCache,
    limits: o.limits,
    displayTitle: (text) => displayTitleProp(text, o.title, o.codec),
    message: o.message,
    outputType: o.outputType,
    stripItem: o.stripItem,
    headingMarkers: o.headingMarkers,
    profile: o.profile,
  };
  if (o.inlineQueries) {
    ctx.inlineQuery = (fn, args) => {
      const call = { fn, args };
      const k = queryKey(call);
      const known = snap.queries.get(k);
      if (known !== undefined) return known;
      if (snap.queries.size + wantedQueries.size >= MAX_INLINE_QUERIES && !wantedQueries.has(k)) return { text: '', expand: false };
      wantedQueries.set(k, call);
      return undefined;
    };
  }
  const result = expandWikitext(text, ctx);
  return { result, wantedTemplates: [...wantedTemplates.values()], wantedExists: [...wantedExists.values()], wantedQueries: [...wantedQueries.values()] };
}
