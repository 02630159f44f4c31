/**
 * list=search (ApiQuerySearch of 1.25): full-text search; also a generator.
 *
 * Answers as 1.25 does with an engine that has no separate title search (CirrusSearch): without srwhat,
 * titles, redirect titles and text are searched together, ranked by BM25 (title words above redirect
 * words above text words) with pages whose title or a redirect's is the whole query first. srwhat=title
 * searches titles and redirect titles, srwhat=text the text, srwhat=nearmatch resolves the query to one
 * title ignoring case. Snippets mark the matched words with searchmatch spans, HTML-escaped around them.
 */
import { queryModule, type QueryModuleContext } from '../../api/types.js';
import { limitParam, namespaceParam } from '../../api/param-presets.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { parseSearch, highlightLemmas, highlightTerms, type ParsedSearch } from '../../wiki/search-query.js';
import { LemmaMemo } from '../../wiki/morphology.js';
import { SUGGEST_CANDIDATES, suggestQuery, suggestionPrefix } from '../../wiki/search-suggest.js';
import {
  foldForSearch,
  highlightAll,
  sectionHeadings,
  stripMarkup,
  stripOptions,
  termMatcher,
  textSnippet,
  textWords,
  wordCount,
  type StripOptions,
  type TermMatcher,
} from '../../wiki/search-text.js';
import type { SearchDocument } from '../../store/search-store.js';
import type { Wiki } from '../../wiki/wiki.js';
import { LANGUAGE_CODES } from '../../wiki/language-codes.js';

/** SearchSqlite's backend name when $wgSearchType is null (ApiQuerySearch::BACKEND_NULL_PARAM). */
const BACKEND = 'database-backed';
/** The 'searchall' message of the content language: `усі:` (or `all:`) searches every namespace. */
const ALL_KEYWORDS = ['усі', 'all'];

const stripCache = new WeakMap<Wiki, StripOptions>();
export function wikiStripOptions(wiki: Wiki): StripOptions {
  let s = stripCache.get(wiki);
  if (!s) {
    s = stripOptions(wiki.codec, LANGUAGE_CODES);
    stripCache.set(wiki, s);
  }
  return s;
}

/** A multi-valued namespace parameter as numbers (its default may come as a single value). */
export function namespaceList(v: unknown): number[] {
  return ([] as unknown[]).concat(v ?? []).map(Number);
}

/** SearchEngine::replacePrefixes: a leading `namespace:` (or `усі:`) picks the namespaces to search. */
function replacePrefixes(ctx: QueryModuleContext, query: string, namespaces: number[]): { query: string; namespaces: number[] } {
  const colon = query.indexOf(':');
  if (colon < 0) return { query, namespaces };
  const prefix = query.slice(0, colon);
  let parsed = query;
  let ns = namespaces;
  if (ALL_KEYWORDS.includes(prefix.toLowerCase())) {
    ns = [...ctx.wiki.codec.namespaces.keys()].filter((n) => n >= 0);
    parsed = query.slice(colon + 1);
  } else {
    const id = ctx.wiki.codec.nsIdFromPrefix(prefix.replace(/ /g, '_'));
    if (id !== undefined) {
      ns = [id];
      parsed = query.slice(colon + 1);
    }
  }
  // the prefix was the whole query
  if (parsed.trim() === '') return { query, namespaces };
  return { query: parsed, namespaces: ns };
}

export const searchModule = queryModule({
  kind: 'list',
  name: 'search',
  prefix: 'sr',
  generator: true,
  description: 'Perform a full text search.',
  params: {
    search: { type: 'string', required: true, help: 'Search for all page titles (or content) that have this value.' },
    namespace: namespaceParam('Search only within these namespaces.', { multi: true, default: 0 }),
    what: { type: ['title', 'text', 'nearmatch'], help: 'Search inside the text or titles.' },
    info: { type: ['totalhits', 'suggestion'], multi: true, default: 'totalhits|suggestion', help: 'What metadata to return.' },
    prop: {
      type: [
        'size',
        'wordcount',
        'timestamp',
        'score',
        'snippet',
        'titlesnippet',
        'redirecttitle',
        'redirectsnippet',
        'sectiontitle',
        'sectionsnippet',
        'hasrelated',
      ],
      multi: true,
      default: 'size|wordcount|timestamp|snippet',
      help: 'What properties to return.',
    },
    offset: { type: 'integer', default: 0, help: 'When more results are available, use this to continue.' },
    // ApiBase::LIMIT_SML1/LIMIT_SML2
    limit: limitParam(10, 'How many total pages to return.', 50, 500),
    interwiki: { type: 'boolean', default: false, help: 'Include interwiki results in the search, if available.' },
    backend: { type: [BACKEND], help: 'Which search backend to use, if not the default.' },
  },
  examples: [
    'action=query&list=search&srsearch=місто',
    'action=query&list=search&srwhat=text&srsearch=памʼятник',
    'action=query&generator=search&gsrsearch=місто&prop=info',
  ],
  async run(ctx) {
    const p = ctx.params;
    const prop = new Set(p.prop as string[]);
    const info = new Set(p.info as string[]);
    if (prop.has('hasrelated')) ctx.warn('srprop=hasrelated has been deprecated');
    if (prop.has('score')) ctx.warn('srprop=score has been deprecated');
    const limit = p.limit as number;
    const offset = Math.max(0, p.offset as number);
    const { query, namespaces } = replacePrefixes(ctx, p.search as string, namespaceList(p.namespace));

    let hits: Array<{ pageid: number; ns: number; title: string }>;
    let totalHits: number | undefined;
    let parsed: ParsedSearch | null = null;
    if (p.what === 'nearmatch') {
      // SearchEngine::getNearMatchResultSet: one title or none, no total
      hits = offset === 0 ? await nearMatch(ctx, p.search as string) : [];
    } else {
      parsed = parseSearch(query);
      if (parsed === null) {
        hits = [];
        totalHits = 0;
      } else {
        const res = await ctx.store.search.fullText({
          query: parsed,
          namespaces,
          fields: p.what === 'title' ? 'title' : p.what === 'text' ? 'text' : 'all',
          offset,
          limit: limit + 1,
          countHits: info.has('totalhits') && !ctx.generator,
        });
        hits = res.hits;
        totalHits = res.totalHits;
      }
    }
    if (!ctx.generator) {
      const searchinfo: Record<string, unknown> = {};
      if (totalHits !== undefined) searchinfo.totalhits = totalHits;
      // "did you mean": only a query of plain words that found nothing asks the vocabulary
      if (info.has('suggestion') && parsed !== null && parsed.titleKey !== null && hits.length === 0 && offset === 0) {
        const words = parsed.titleKey.split(' ');
        const candidates = await ctx.store.search.vocabulary(words.map(suggestionPrefix), SUGGEST_CANDIDATES);
        const suggestion = suggestQuery(words, candidates, new LemmaMemo(10_000));
        if (suggestion !== null) searchinfo.suggestion = suggestion;
      }
      if (Object.keys(searchinfo).length > 0) ctx.result.object('query').searchinfo = searchinfo;
    }
    if (hits.length > limit) {
      ctx.setContinue('offset', offset + limit);
      hits = hits.slice(0, limit);
    }
    if (ctx.generator) {
      // 1.25 gives each page its place in the results (setGeneratorData 'index', counted from 1)
      // (populateFromTitles: the page set lists them in title order)
      hits.forEach((h, i) => ctx.generator!.add({ ns: h.ns, dbkey: h.title, data: { index: offset + i + 1 } }));
      return;
    }
    const out = ctx.result.queryList('search');
    const docs = await ctx.store.search.documents(hits.map((h) => h.pageid));
    // the lemmas of the documents' words, looked up once per request
    const memo = new LemmaMemo(50_000);
    const match = parsed ? termMatcher(highlightTerms(parsed), highlightLemmas(parsed), (w) => memo.lemmas(w)) : termMatcher([]);
    for (const d of docs) out.push(resultItem(ctx, d, prop, match));
  },
});

/** SearchEngine::getNearMatch: the page the query names, ignoring case (and diacritics, apostrophes). */
async function nearMatch(ctx: QueryModuleContext, query: string): Promise<Array<{ pageid: number; ns: number; title: string }>> {
  const t = ctx.wiki.codec.parse(query.trim(), 0);
  if (!t) return [];
  const [exact] = await ctx.store.pages.byTitles([{ ns: t.ns, dbkey: t.dbkey }]);
  if (exact) return [{ pageid: exact.pageid, ns: exact.ns, title: exact.title }];
  const key = foldForSearch(t.dbkey.replace(/_/g, ' '));
  const ids = key === '' ? [] : await ctx.store.search.titleKeyMatches(key, [t.ns], 1);
  return (await ctx.store.search.documents(ids)).map((d) => ({ pageid: d.pageid, ns: d.ns, title: d.title }));
}

function resultItem(ctx: QueryModuleContext, d: SearchDocument, prop: Set<string>, match: TermMatcher): Record<string, unknown> {
  const item: Record<string, unknown> = { ns: d.ns, title: ctx.wiki.titleText(d.ns, d.title) };
  const needsPlain = prop.has('snippet') || prop.has('wordcount');
  const plain = needsPlain ? (d.contentModel === 'wikitext' ? stripMarkup(d.text, wikiStripOptions(ctx.wiki)) : d.text) : '';
  if (prop.has('snippet')) item.snippet = textSnippet(plain, match);
  if (prop.has('size')) item.size = d.length;
  if (prop.has('wordcount')) item.wordcount = wordCount(plain);
  if (prop.has('timestamp')) item.timestamp = mwToIso(d.touched);
  if (prop.has('titlesnippet')) item.titlesnippet = highlightAll(d.title.replace(/_/g, ' '), match);
  const matches = (text: string) => textWords(text).some((w) => match(w.folded));
  // the redirect whose title matched, when one did (as CirrusSearch reports it)
  const redirect = d.redirects.find((r) => matches(r.dbkey.replace(/_/g, ' ')));
  if (redirect) {
    if (prop.has('redirecttitle')) item.redirecttitle = ctx.wiki.titleText(redirect.ns, redirect.dbkey);
    if (prop.has('redirectsnippet')) item.redirectsnippet = highlightAll(redirect.dbkey.replace(/_/g, ' '), match);
  }
  if ((prop.has('sectiontitle') || prop.has('sectionsnippet')) && d.contentModel === 'wikitext') {
    const heading = sectionHeadings(d.text)
      .map((h) => stripMarkup(h, wikiStripOptions(ctx.wiki)))
      .find(matches);
    if (heading !== undefined) {
      if (prop.has('sectiontitle')) item.sectiontitle = heading;
      if (prop.has('sectionsnippet')) item.sectionsnippet = highlightAll(heading, match);
    }
  }
  return item;
}
