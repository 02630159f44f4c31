/**
 * Rendering a page over the asynchronous store: template expansion in rounds (each round fetches, in
 * one batch, every template and #ifexist target the previous one asked for), the HTML passes of
 * src/wikitext/render/, the image sizes of every file shown (one files.byNames call) and the existence
 * of every page linked, transcluded or categorised into (one pages.byTitles call). Semantic
 * MediaWiki's inline queries ({{#ask:}}, {{#show:}}) are answered between rounds too: their output may
 * call templates, which the next round fetches. Results are kept in
 * the parser cache by page revision and options.
 */
import { roundFetcher } from './transclusion.js';
import type { Store } from '../store/store.js';
import type { Wiki } from '../wiki/wiki.js';
import { compareBytes } from '../wiki/collation.js';
import { MessageLoader } from './message-loader.js';
import { expandInRounds, expandRound, PageSnapshot, type TitleRef } from '../wikitext/expansion-rounds.js';
import { finish, finishIndicators, linkTargets, renderBody } from '../wikitext/render/parser.js';
import { addTrackingCategory } from '../wikitext/render/images.js';
import { fallbackChain } from '../wiki/language.js';
import {
  EN_INTERFACE_MESSAGES,
  EXPANSION_TRACKING,
  TRACKING_MESSAGES,
  UK_MESSAGES,
  type RenderEnv,
  type RenderFile,
  type RenderMessages,
  type TrackingMessage,
} from '../wikitext/render/env.js';
import { ParserCache } from '../wikitext/parser-cache.js';
import { limitReportData, timingProfile, type LimitReportValue } from '../wikitext/render/limit-report.js';
import { pstPass2, sanitizeIp, signatureArgs, signatureDate } from '../wikitext/pre-save-transform.js';
import { evaluateInlineQueries } from './smw/inline-query.js';
import { redirectTargetAndText } from '../wikitext/redirect.js';
import { redirectHeaderHtml } from '../wikitext/render/redirect-header.js';

/** $wgMaxArticleSize (2048 KB): a longer text is not parsed */
export const MAX_TEXT_BYTES = 2048 * 1024;

export interface RenderedPage {
  html: string;
  links: Array<TitleRef & { exists: boolean }>;
  templates: Array<TitleRef & { exists: boolean }>;
  images: string[];
  externallinks: string[];
  sections: Array<Record<string, unknown>>;
  categories: Array<{ name: string; sortkey: string; missing: boolean; hidden: boolean }>;
  langlinks: Array<{ lang: string; title: string }>;
  iwlinks: Array<{ prefix: string; title: string; url?: string }>;
  properties: Array<[string, string]>;
  /** ParserOutput::getModules */
  modules: string[];
  /** ParserOutput::getIndicators: [name, HTML] in the order set */
  indicators: Array<[string, string]>;
  /** the HTML of the {{DISPLAYTITLE:}} that applies (ParserOutput::getDisplayTitle) */
  displayTitle?: string;
  /** ParserOutput's limit report data (Parser::parse) */
  limitReport: Array<[string, LimitReportValue]>;
  /** the rows of the transclusion expansion time report */
  timingProfile: string[];
  limitHit?: string;
  /** characters held, for the cache bound */
  size: number;
}

export interface RenderOptions {
  title: TitleRef;
  text: string;
  editSections: boolean;
  toc: boolean;
  /** the user language (uselang): the interface texts the HTML shows; default the content language */
  userLang?: string;
}

/** texts of the interface, in the user language (the skin's edit links, Linker's titles, the TOC's title) */
const USER_KEYS = [
  'editsection',
  'editsectionhint',
  'toc',
  'red-link-title',
  'thumbnail-more',
  'thumbnail_error',
  'thumbnail_toobigimagearea',
  'size-megapixel',
] as const;
/** what the page holds whoever reads it: tracking categories, messages put into the text, link targets */
const CONTENT_KEYS: Array<keyof RenderMessages> = [
  ...TRACKING_MESSAGES,
  'duplicate-displaytitle',
  'invalid-indicator-name',
  'rfcurl',
  'pubmedurl',
  'redirectto',
];
const messageCache = new WeakMap<Store, Map<string, Promise<RenderMessages>>>();

/**
 * A content message the store lacks: the built-in uk text of the tracking categories and URLs; the
 * indicator error is wfMessage()->parse(), which for a missing message is 1.25's "&lt;key&gt;"
 */
function missingContentMessage(k: keyof RenderMessages): string {
  return k === 'invalid-indicator-name' ? '&lt;invalid-indicator-name&gt;' : UK_MESSAGES[k];
}

async function loadMessages(store: Store, wiki: Wiki, userLang: string): Promise<RenderMessages> {
  let byLang = messageCache.get(store);
  if (!byLang) messageCache.set(store, (byLang = new Map()));
  let p = byLang.get(userLang);
  if (!p) {
    p = (async () => {
      const loader = new MessageLoader(store, wiki);
      await loader.prefetchAll([
        { keys: USER_KEYS, code: userLang },
        { keys: CONTENT_KEYS, code: wiki.lang },
      ]);
      const [user, content] = await loader.render((m) => [
        USER_KEYS.map((k) => m.get(k, true, userLang)),
        CONTENT_KEYS.map((k) => m.get(k, true, wiki.lang)),
      ]);
      const out = {} as RenderMessages;
      // without the store's text: the built-in uk text for Ukrainian, English (the last fallback) otherwise
      const builtIn = fallbackChain(userLang).includes('uk') || userLang === 'uk' ? UK_MESSAGES : EN_INTERFACE_MESSAGES;
      USER_KEYS.forEach((k, i) => (out[k] = user[i] === false ? builtIn[k] : (user[i] as string)));
      CONTENT_KEYS.forEach((k, i) => (out[k] = content[i] === false ? missingContentMessage(k) : (content[i] as string)));
      return out;
    })();
    // user languages are few in practice, but a client can name any valid code: keep the map bounded
    if (byLang.size >= 64) byLang.clear();
    byLang.set(userLang, p);
  }
  return p;
}

const caches = new WeakMap<Store, ParserCache<RenderedPage>>();
let cacheChars = 32 * 1024 * 1024;

/** size of every parser cache (characters of rendered output); 0 turns caching off */
export function configureParserCache(chars: number): void {
  cacheChars = chars;
}

export function parserCache(store: Store): ParserCache<RenderedPage> {
  let c = caches.get(store);
  if (!c) {
    c = new ParserCache<RenderedPage>(cacheChars);
    caches.set(store, c);
  }
  return c;
}

/**
 * The renderer's version, stored with every output an import renders (--render): an output made by
 * another version is ignored when served. Raise it whenever the HTML the renderer makes for some
 * wikitext, or the shape of RenderedPage, changes.
 */
export const RENDERER_VERSION = 6;

/** what the parser cache keys a render on besides the revision (ParserOptions' hash in MediaWiki) */
export function renderOptionsKey(wiki: Wiki, o: { editSections: boolean; toc: boolean; userLang?: string }): string {
  const lang = o.userLang ?? wiki.lang;
  return `${o.editSections ? 1 : 0}|${o.toc ? 1 : 0}${lang === wiki.lang ? '' : `|${lang}`}`;
}

/** the options of a page view and a plain action=parse: the only ones an import renders */
export const DEFAULT_RENDER_OPTIONS = { editSections: true, toc: true } as const;

export interface RevisionRender {
  pageid: number;
  revid: number;
  title: TitleRef;
  editSections: boolean;
  toc: boolean;
  userLang?: string;
  /** the revision's wikitext, asked for only when the page is rendered */
  text: () => Promise<string>;
}

/**
 * A revision of a page rendered with the parser cache: the memory cache, then the table an import
 * filled with --render (one seek, only for the options it renders with), then the renderer. What is read
 * from the table or rendered is kept in the memory cache.
 */
export async function renderRevision(store: Store, wiki: Wiki, r: RevisionRender): Promise<RenderedPage> {
  const options = renderOptionsKey(wiki, r);
  const memKey = `${r.revid}|${options}`;
  const cache = parserCache(store);
  const hit = cache.get(memKey);
  if (hit) return hit;
  if (options === renderOptionsKey(wiki, DEFAULT_RENDER_OPTIONS) && !wiki.interwikiReplaced) {
    const stored = await store.parserCache.get(r.pageid, r.revid, options, RENDERER_VERSION);
    if (stored !== null) {
      const page = JSON.parse(stored) as RenderedPage;
      cache.set(memKey, page);
      return page;
    }
  }
  const page = await renderPage(store, wiki, {
    title: r.title,
    text: await r.text(),
    editSections: r.editSections,
    toc: r.toc,
    userLang: r.userLang,
  });
  cache.set(memKey, page);
  return page;
}

/** import --render: a page's latest revision rendered as a page view does, serialised for the table */
export async function renderForStorage(
  store: Store,
  wiki: Wiki,
  title: TitleRef,
  text: string,
): Promise<{ optionsKey: string; output: string }> {
  const page = await renderPage(store, wiki, { title, text, ...DEFAULT_RENDER_OPTIONS });
  return { optionsKey: renderOptionsKey(wiki, DEFAULT_RENDER_OPTIONS), output: JSON.stringify(page) };
}

const key = (t: TitleRef) => `${t.ns}|${t.dbkey}`;

/**
 * ParserOutput's link list as LinkHolderArray::replaceInternal fills it: the targets found in the page
 * table first (in the table's (namespace, title) order), then the missing ones in the order written;
 * grouped by namespace in the order the namespaces first appear.
 */
function linkOrder(all: TitleRef[], exists: (t: TitleRef) => boolean): Array<TitleRef & { exists: boolean }> {
  const seen = new Map<string, TitleRef>();
  for (const t of all) if (!seen.has(key(t))) seen.set(key(t), t);
  const list = [...seen.values()];
  const good = list.filter(exists).sort((a, b) => a.ns - b.ns || compareBytes(a.dbkey, b.dbkey));
  const bad = list.filter((t) => !exists(t));
  const byNs = new Map<number, Array<TitleRef & { exists: boolean }>>();
  for (const t of good) (byNs.get(t.ns) ?? byNs.set(t.ns, []).get(t.ns)!).push({ ns: t.ns, dbkey: t.dbkey, exists: true });
  for (const t of bad) (byNs.get(t.ns) ?? byNs.set(t.ns, []).get(t.ns)!).push({ ns: t.ns, dbkey: t.dbkey, exists: false });
  return [...byNs.values()].flat();
}

/** 1.25's en.json text (uk.json has none), for a store without the message */
const SIGNATURE_ANON = '[[{{#special:Contributions}}/$1|$2]]';

/**
 * Parser::preSaveTransform of `text` on page `title` by the anonymous user at `ip` (the API's user):
 * {{subst:}} expanded in rounds over the store like a render, then signatures and pipe tricks.
 */
export async function preSaveTransform(
  store: Store,
  wiki: Wiki,
  title: TitleRef,
  text: string,
  ip: string,
  userLang?: string,
): Promise<string> {
  const snap = new PageSnapshot();
  const now = new Date();
  const held: string[] = [];
  // strip markers: \x7f is no title character, so no pipe trick can reach across one
  const stripItem = (raw: string) => `\x7fUNIQ-pst-${held.push(raw) - 1}-QINU\x7f`;
  const source = text.replace(/\r\n?/g, '\n');
  const options = {
    codec: wiki.codec,
    title,
    siteName: wiki.info.sitename,
    now,
    outputType: 'wiki' as const,
    stripItem,
    contentLang: wiki.lang,
    userLang,
  };
  // each round puts its comments and tags behind markers afresh
  const round = await expandInRounds(source, snap, options, roundFetcher(store), () => (held.length = 0));
  const loader = new MessageLoader(store, wiki);
  const [sigMsg, tzMsg] = await Promise.all([loader.get('signature-anon', wiki.lang), loader.get('timezone-utc', wiki.lang)]);
  const [user, nick] = signatureArgs(sanitizeIp(ip));
  // Message::text(): parameters in, then {{…}} transformed for the page
  const sigSource = (sigMsg === false ? SIGNATURE_ANON : sigMsg).replace(/\$([12])/g, (_m, k: string) => (k === '1' ? user : nick));
  const signature = expandRound(sigSource, new PageSnapshot(), {
    codec: wiki.codec,
    title,
    siteName: wiki.info.sitename,
    now,
    contentLang: wiki.lang,
  }).result.text;
  const out = pstPass2(round.result.text, {
    titleText: title.dbkey.replace(/_/g, ' '),
    signature,
    date: signatureDate(now, tzMsg === false ? 'UTC' : tzMsg),
  });
  return out.replace(/\x7fUNIQ-pst-(\d+)-QINU\x7f/g, (_m, k: string) => held[Number(k)] ?? '');
}

/** Render wikitext as the page `o.title`. */
export async function renderPage(store: Store, wiki: Wiki, o: RenderOptions): Promise<RenderedPage> {
  const started = process.hrtime.bigint();
  const cpuStart = process.cpuUsage();
  const messages = await loadMessages(store, wiki, o.userLang ?? wiki.lang);
  // WikitextContent::fillParserOutput: a redirect renders the text after its link, under a header naming
  // the target, and the target is a page link (an interwiki link when it is on another wiki)
  const redirect = redirectTargetAndText(o.text, wiki.codec, wiki.interwiki);
  const source = redirect === null ? o.text : redirect.rest;
  const localTarget =
    redirect !== null && redirect.target.interwiki === undefined ? [{ ns: redirect.target.ns, dbkey: redirect.target.dbkey }] : [];
  const snap = new PageSnapshot();
  const expandOptions = {
    codec: wiki.codec,
    title: o.title,
    siteName: wiki.info.sitename,
    now: new Date(),
    inlineQueries: true,
    headingMarkers: true,
    limitReport: true,
    message: (k: string) => (k in messages ? messages[k as keyof RenderMessages] : undefined),
    contentLang: wiki.lang,
    userLang: o.userLang,
  };
  const round = await expandInRounds(
    source,
    snap,
    expandOptions,
    roundFetcher(store, (calls) => evaluateInlineQueries(store, wiki, calls, o.title)),
  );
  const expanded = round.result;
  const env: RenderEnv = {
    codec: wiki.codec,
    title: o.title,
    messages,
    pages: new Map(),
    files: new Map<string, RenderFile>(),
    editSections: o.editSections,
    toc: o.toc,
    interwiki: wiki.interwiki,
    headings: expanded.headings,
  };
  let body = renderBody(expanded.text, source, env, expanded.defaultSort);
  if (body.out.filesWanted.size === 0) env.filesLoaded = true;
  else {
    const files = await store.files.byNames([...body.out.filesWanted]);
    for (const [name, f] of files)
      env.files.set(name, { width: f.width, height: f.height, mediaType: f.mediaType, mime: `${f.majorMime}/${f.minorMime}` });
    env.filesLoaded = true;
    body = renderBody(expanded.text, source, env, expanded.defaultSort);
  }
  // both are ParserOutput properties set while preprocessing, before the double underscores of internalParse
  const early: Array<[string, string]> = [];
  if (expanded.displayTitle !== undefined) early.push(['displaytitle', expanded.displayTitle]);
  if (expanded.defaultSort !== undefined) early.push(['defaultsort', expanded.defaultSort]);
  if (early.length) {
    const rest = [...body.out.properties];
    body.out.properties.clear();
    for (const [k, v] of [...early, ...rest]) body.out.properties.set(k, v);
  }
  if (expanded.displayTitleIgnored) addTrackingCategory(env, body.out, 'restricted-displaytitle-ignored');
  for (const key of expanded.trackingCategories ?? [])
    if (EXPANSION_TRACKING.has(key)) addTrackingCategory(env, body.out, key as TrackingMessage);
  const targets = [
    ...localTarget,
    ...expanded.links,
    ...linkTargets(body),
    ...expanded.templates,
    ...[...body.out.categories.keys()].map((dbkey) => ({ ns: 14, dbkey })),
  ];
  // page existence of every target and the hidden flag of the categories, each in one batched call
  const catNames = [...body.out.categories.keys()];
  const [rows, cats] = await Promise.all([
    targets.length ? store.pages.byTitles(targets) : Promise.resolve([]),
    catNames.length ? store.categories.byTitles(catNames) : Promise.resolve([]),
  ]);
  const hiddenCats = new Set(cats.filter((c) => c.hidden).map((c) => c.title));
  for (const r of rows) env.pages.set(`${r.ns}|${r.title}`, { redirect: r.isRedirect });
  const out = body.out;
  const iwPrefix = redirect?.target.interwiki;
  if (redirect !== null && iwPrefix !== undefined) {
    const dbkey = redirect.target.dbkey;
    if (!out.iwLinks.some((l) => l.prefix === iwPrefix && l.title === dbkey))
      out.iwLinks.push({ prefix: iwPrefix, title: dbkey, url: wiki.interwiki.url(iwPrefix, dbkey) });
  }
  const html = redirect === null ? finish(body, o.toc) : redirectHeaderHtml(redirect.target, env) + finish(body, o.toc);
  const exists = (t: TitleRef) => env.pages.has(key(t));
  const byNs = (a: TitleRef[]) => [...a].sort((x, y) => x.ns - y.ns);
  const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
  const cpu = process.cpuUsage(cpuStart);
  const page: RenderedPage = {
    html,
    links: linkOrder(
      [...expanded.links, ...out.links.values(), ...localTarget].filter((t) => t.ns >= 0),
      exists,
    ),
    templates: byNs(expanded.templates).map((t) => ({ ns: t.ns, dbkey: t.dbkey, exists: exists(t) })),
    images: [...out.images.keys()],
    externallinks: [...new Set(out.externalLinks)],
    sections: out.sections,
    categories: [...out.categories].map(([name, sortkey]) => ({
      name,
      sortkey,
      missing: !env.pages.has(`14|${name}`),
      hidden: hiddenCats.has(name),
    })),
    langlinks: out.langLinks,
    iwlinks: out.iwLinks,
    properties: [...out.properties],
    modules: [...out.modules],
    indicators: finishIndicators(body),
    // expandOptions.limitReport: the report is there
    limitReport: limitReportData((cpu.user + cpu.system) / 1e6, wallMs / 1000, expanded.report!),
    timingProfile: timingProfile(expanded.report!),
    size: 0,
  };
  if (expanded.limitHit) page.limitHit = expanded.limitHit;
  if (expanded.displayTitle !== undefined) page.displayTitle = expanded.displayTitle;
  page.size =
    html.length +
    200 +
    JSON.stringify(page.sections).length +
    page.links.length * 40 +
    page.indicators.reduce((n, [k, v]) => n + k.length + v.length, 0);
  return page;
}
