/**
 * list=prefixsearch (ApiQueryPrefixSearch of 1.25): titles that begin with the search text, as
 * TitlePrefixSearch finds them (the search box's suggestions); also a generator. `prefixSearchTitles`
 * is PrefixSearch::search, shared with action=opensearch: one range scan of the page title index.
 * Case-insensitive on the first letter (Unicode-aware) because titles are stored with it uppercased and
 * the search text is made a title the same way. When no title begins with the text as typed, the titles
 * are read as search reads them (search-text.ts, morphology.ts): titles and redirect titles whose folded
 * form begins with the folded text (any case, diacritics, apostrophe variants), or else whose words'
 * lemmas begin with the text's (`Києві` → Київ), as CirrusSearch's prefix search folds and analyses.
 */
import { queryModule, type ModuleContext } from '../../api/types.js';
import { limitParam, namespaceParam } from '../../api/param-presets.js';
import { NS_FILE, NS_MAIN, NS_MEDIA, NS_SPECIAL } from '../../wiki/namespaces.js';
import { namespaceList } from './search.js';
import { phpTrim } from '../../php/strings.js';
import { foldForSearch } from '../../wiki/search-text.js';
import { LemmaMemo, lemmaKeys } from '../../wiki/morphology.js';

export interface PrefixMatch {
  ns: number;
  dbkey: string;
  /** null for special pages */
  pageid: number | null;
}

/** PrefixSearch::validateNamespaces: the known ones of those given, else the main namespace. */
function validNamespaces(ctx: ModuleContext, namespaces: number[]): number[] {
  const valid = namespaces.filter((n) => ctx.wiki.codec.namespaces.has(n));
  return valid.length ? valid : [NS_MAIN];
}

/** PrefixSearch::searchBackend + defaultSearchBackend. */
async function backend(ctx: ModuleContext, namespaces: number[], search: string, limit: number, offset: number): Promise<PrefixMatch[]> {
  if (namespaces.length === 1) {
    if (namespaces[0] === NS_MEDIA) namespaces = [NS_FILE];
    // Special: pages are listed by SpecialPageFactory in MediaWiki; this wiki serves no special pages
    else if (namespaces[0] === NS_SPECIAL) return [];
  }
  // one namespace only: the first, or the main namespace when it is among the others
  let ns = namespaces[0];
  if (namespaces.slice(1).includes(NS_MAIN)) ns = NS_MAIN;
  if (ns < 0) return [];
  // Title::newFromText($search, $ns): an invalid title gives the empty prefix (every page), as in 1.25
  const t = ctx.wiki.codec.parse(search, ns);
  const prefix = t ? t.dbkey : '';
  let rows = await ctx.store.search.titlePrefix(ns, prefix, offset, limit);
  if (rows.length === 0 && (offset === 0 || (await ctx.store.search.titlePrefix(ns, prefix, 0, 1)).length === 0)) {
    // no title begins with the text as typed: the analysed titles
    const folded = foldForSearch(search);
    const keys = folded === '' ? [] : lemmaKeys(folded, new LemmaMemo(100));
    if (folded !== '') rows = await ctx.store.search.analysedTitlePrefix(ns, folded, keys, offset, limit);
  }
  return rows.map((r) => ({ ns: r.ns, dbkey: r.title, pageid: r.pageid }));
}

/** PrefixSearch::search: `limit` titles from `offset` that begin with `search`. */
export async function prefixSearchTitles(
  ctx: ModuleContext,
  search: string,
  limit: number,
  namespaces: number[],
  offset: number,
): Promise<PrefixMatch[]> {
  search = phpTrim(search);
  if (search === '') return [];
  namespaces = validNamespaces(ctx, namespaces);
  const title = ctx.wiki.codec.parse(search, NS_MAIN);
  if (title) {
    // an explicit namespace prefix searches that namespace; none searches the requested ones
    const ns = title.ns === NS_MAIN ? namespaces : [title.ns];
    return backend(ctx, ns, title.dbkey.replace(/_/g, ' '), limit, offset);
  }
  // a namespace prefix alone ("Категорія:") lists that namespace
  const dummy = ctx.wiki.codec.parse(search + 'Dummy', NS_MAIN);
  if (dummy && dummy.dbkey === 'Dummy' && dummy.ns !== NS_MAIN) return backend(ctx, [dummy.ns], '', limit, offset);
  return backend(ctx, namespaces, search, limit, offset);
}

export const prefixsearchModule = queryModule({
  kind: 'list',
  name: 'prefixsearch',
  prefix: 'ps',
  generator: true,
  description: 'Perform a prefix search for page titles.',
  params: {
    search: { type: 'string', required: true, help: 'Search string.' },
    namespace: namespaceParam('Namespaces to search.', { multi: true, default: 0 }),
    // non-standard maximum, for compatibility with action=opensearch (as 1.25)
    limit: limitParam(10, 'Maximum number of results to return.', 100, 200),
    offset: { type: 'integer', default: 0, help: 'Number of results to skip.' },
  },
  examples: ['action=query&list=prefixsearch&pssearch=Київ'],
  async run(ctx) {
    const p = ctx.params;
    const limit = p.limit as number;
    const offset = Math.max(0, p.offset as number);
    const titles = await prefixSearchTitles(ctx, p.search as string, limit + 1, namespaceList(p.namespace), offset);
    if (titles.length > limit) {
      ctx.setContinue('offset', offset + limit);
      titles.length = limit;
    }
    if (ctx.generator) {
      titles.forEach((t, i) => ctx.generator!.add({ ns: t.ns, dbkey: t.dbkey, data: { index: offset + i + 1 } }));
      return;
    }
    const out = ctx.result.queryList('prefixsearch');
    for (const t of titles) {
      const item: Record<string, unknown> = { ns: t.ns, title: ctx.wiki.titleText(t.ns, t.dbkey) };
      if (t.pageid === null) item.special = true;
      else item.pageid = t.pageid;
      out.push(item);
    }
  },
});
