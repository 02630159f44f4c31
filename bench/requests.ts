/**
 * The benchmark's request list: the spec's endpoints with the parameters of its examples and the other hot
 * read paths, the values they take from the wiki served (ask values, continue values), and SEED, the
 * contract's nine requests.
 */
export interface BenchRequest {
  name: string;
  query: string;
}

/** The spec's endpoints with the parameters its examples use, plus the other hot read paths. */
export function requests(big: boolean, ask: AskValues, cont: ContinueValues): BenchRequest[] {
  const q = (o: Record<string, string>) => new URLSearchParams({ format: 'json', ...o }).toString();
  return [
    // page relations at scale: the hub every 9th article links to (≥100,000 backlinks at 1,000,000 pages) and
    // the page of 5,000 links, each a first batch and the batch its continue value points at
    ...(big
      ? [
          { name: 'backlinks (hub, first 500)', query: q(backlinksQuery({})) },
          { name: 'backlinks (hub, continued)', query: q(backlinksQuery(cont.backlinks)) },
          { name: 'links (5,000-link page, first 500)', query: q(linksQuery({})) },
          { name: 'links (5,000-link page, continued)', query: q(linksQuery(cont.links)) },
          // the selective property query: Країна is Україна on ~90% of the articles, Населення > 100000 on 0.2%
          {
            name: 'ask (Країна, Населення, sorted)',
            query: q({ action: 'ask', query: '[[Країна::Україна]][[Населення::>100000]]|?Населення|sort=Населення' }),
          },
        ]
      : []),
    // SMW's query engine: a selective property query sorted by a number, and a category query of 10 results
    {
      name: 'ask (property, sorted)',
      query: q({ action: 'ask', query: `[[Розташоване в::${ask.location}]][[Населення::>100000]]|?Населення|sort=Населення` }),
    },
    { name: 'ask (category, 10 results)', query: q({ action: 'ask', query: `[[Категорія:${ask.category}]]|limit=10` }) },
    {
      name: 'sfautocomplete (property)',
      query: q({ action: 'sfautocomplete', property: big ? 'Розташоване_в' : 'Регіон', substr: big ? 'малю' : 'київ' }),
    },
    // a one-letter prefix: the 1000-value cap is reached on any wiki size
    { name: 'sfautocomplete (1000 values)', query: q({ action: 'sfautocomplete', property: 'Розташоване_в', substr: 'м' }) },
    { name: 'duplicatefiles (titles)', query: q({ action: 'query', prop: 'duplicatefiles', titles: 'File:Flag_of_Ukraine.png' }) },
    { name: 'allcategories (acprop=size)', query: q({ action: 'query', list: 'allcategories', acprop: 'size' }) },
    { name: 'generator=allimages + duplicatefiles', query: q({ action: 'query', generator: 'allimages', prop: 'duplicatefiles' }) },
    { name: 'generator=allfileusages', query: q({ action: 'query', generator: 'allfileusages', gaffrom: 'П' }) },
    { name: 'allmessages (amprefix)', query: q({ action: 'query', meta: 'allmessages', amprefix: 'demo-' }) },
    { name: 'querypage (Ancientpages)', query: q({ action: 'query', list: 'querypage', qppage: 'Ancientpages' }) },
    { name: 'browsebysubject', query: q({ action: 'browsebysubject', subject: big ? 'Сторінка_1' : 'Демонстраційна_сторінка' }) },
    { name: 'tokens', query: q({ action: 'tokens' }) },
    { name: 'parse (page, parser cache)', query: q({ action: 'parse', page: big ? 'Сторінка_1' : 'Київ' }) },
    // search: a rare word, a word on nearly every page (BM25 over every match), phrases of both kinds
    { name: 'search (one word)', query: q({ action: 'query', list: 'search', srsearch: big ? 'бомка' : 'памʼятник' }) },
    { name: 'search (word on every page)', query: q({ action: 'query', list: 'search', srsearch: big ? 'поселення' : 'місто' }) },
    // top-k retrieval: a word on a third of the pages, and two words rare, common and on every page
    { name: 'search (common word)', query: q({ action: 'query', list: 'search', srsearch: big ? 'вигляд' : 'київ' }) },
    { name: 'search (two rare words)', query: q({ action: 'query', list: 'search', srsearch: big ? 'бомка чосище' : 'стоїть памʼятник' }) },
    { name: 'search (two common words)', query: q({ action: 'query', list: 'search', srsearch: big ? 'вигляд україна' : 'київ місто' }) },
    {
      name: 'search (two words on every page)',
      query: q({ action: 'query', list: 'search', srsearch: big ? 'поселення громади' : 'у місті' }),
    },
    { name: 'search (phrase)', query: q({ action: 'query', list: 'search', srsearch: big ? '"бомка чосище"' : '"стоїть памʼятник"' }) },
    {
      name: 'search (phrase on every page)',
      query: q({ action: 'query', list: 'search', srsearch: big ? '"поселення громади"' : '"у місті"' }),
    },
    { name: 'opensearch (prefix)', query: q({ action: 'opensearch', search: big ? 'Бо' : 'Ки' }) },
    { name: 'siteinfo', query: q({ action: 'query', meta: 'siteinfo', siprop: 'general|namespaces|namespacealiases' }) },
    // page relations: every synthetic article transcludes Шаблон:Поселення (N backlinks): the first batch and
    // one continued from the middle are each a seek into templatelinks, never a count or a sort of the set
    ...(big
      ? [
          {
            name: 'embeddedin (first 500 of N)',
            query: q({ action: 'query', list: 'embeddedin', eititle: 'Шаблон:Поселення', eilimit: '500' }),
          },
          {
            name: 'embeddedin (continued)',
            query: q({ action: 'query', list: 'embeddedin', eititle: 'Шаблон:Поселення', eilimit: '500', eicontinue: '0|5000' }),
          },
        ]
      : [
          {
            name: 'backlinks (blredirect)',
            query: q({ action: 'query', list: 'backlinks', bltitle: 'Київ', blredirect: '', bllimit: 'max' }),
          },
        ]),
    { name: 'alllinks (continued)', query: q({ action: 'query', list: 'alllinks', alcontinue: 'П|1', allimit: '500' }) },
    // the lists bots poll all day, 50 rows each (the demo has fewer recent changes and log entries)
    {
      name: 'recentchanges (50)',
      query: q({ action: 'query', list: 'recentchanges', rclimit: '50', rcprop: 'title|timestamp|ids|user|comment|sizes|flags' }),
    },
    { name: 'logevents (50)', query: q({ action: 'query', list: 'logevents', lelimit: '50' }) },
    {
      name: 'usercontribs (50)',
      query: q({ action: 'query', list: 'usercontribs', ucuser: big ? 'Адміністратор' : 'Олена Коваль', uclimit: '50' }),
    },
    {
      name: 'revisions (history walk)',
      query: q({
        action: 'query',
        prop: 'revisions',
        titles: big ? 'Головна сторінка' : 'Пісочниця',
        rvlimit: '50',
        rvprop: 'ids|timestamp|user|comment|size',
      }),
    },
  ];
}

export const backlinksQuery = (o: Record<string, string>) => ({
  action: 'query',
  list: 'backlinks',
  bltitle: 'Україна',
  bllimit: '500',
  continue: '',
  ...o,
});
export const linksQuery = (o: Record<string, string>) => ({
  action: 'query',
  prop: 'links',
  titles: 'Список поселень',
  pllimit: '500',
  continue: '',
  ...o,
});

export interface ContinueValues {
  backlinks: Record<string, string>;
  links: Record<string, string>;
}

/** The continue values of the first batches (read from the server: they hold page ids). */
export async function continueValues(base: string, big: boolean): Promise<ContinueValues> {
  if (!big) return { backlinks: {}, links: {} };
  const get = async (o: Record<string, string>) =>
    ((await (await fetch(`${base}?${new URLSearchParams({ format: 'json', ...o })}`)).json()) as { continue?: Record<string, string> })
      .continue ?? {};
  const bl = await get(backlinksQuery({}));
  const pl = await get(linksQuery({}));
  if (!bl.blcontinue || !pl.plcontinue)
    throw new Error('the synthetic wiki has no hub or link-list page to continue through (regenerate .bench/)');
  return { backlinks: bl, links: pl };
}

export interface AskValues {
  location: string;
  category: string;
}

/** Values the ask requests use: fixed on the demo; on a synthetic wiki read from the wiki itself (its generator's names are random). */
export async function askValues(base: string, big: boolean): Promise<AskValues> {
  if (!big) return { location: 'Київська область', category: 'Супи' };
  const query = '[[Категорія:Поселення]][[Населення::>150000]]|?Розташоване в|?Категорія|limit=1';
  const j = (await (await fetch(`${base}?${new URLSearchParams({ action: 'ask', format: 'json', query })}`)).json()) as {
    query: { results: Record<string, { printouts: Record<string, Array<{ fulltext: string }>> }> };
  };
  const first = Object.values(j.query.results)[0];
  const location = first.printouts['Розташоване в'][0].fulltext;
  const category =
    first.printouts.Категорія.map((c) => c.fulltext.replace(/^[^:]*:/, '')).find((c) => c.startsWith('Громада')) ?? 'Поселення';
  return { location, category };
}

/** Size and kind of the wiki a server serves: the synthetic generator's wiki has its own request values. */
export async function wikiShape(base: string): Promise<{ pages: number; synthetic: boolean }> {
  const j = (await (await fetch(`${base}?action=query&meta=siteinfo&siprop=general|statistics&format=json`)).json()) as {
    query: { general: { wikiid?: string }; statistics: { pages: number } };
  };
  return { pages: j.query.statistics.pages, synthetic: j.query.general.wikiid === 'bigwiki' };
}

/** The request list for the wiki `base` serves (`big`: the synthetic wiki's values; undefined: ask the server). */
export async function requestList(
  base: string,
  big: boolean | undefined,
  keep: (r: BenchRequest) => boolean,
): Promise<{ list: BenchRequest[]; pages: number; big: boolean }> {
  const shape = await wikiShape(base);
  const b = big ?? shape.synthetic;
  return { list: requests(b, await askValues(base, b), await continueValues(base, b)).filter(keep), pages: shape.pages, big: b };
}

/** The polled lists of issue 32 (50 rows each), measured with the seed's in `--seed-table` against UNCACHED_POLLED_SHARE. */
export const POLLED = ['recentchanges (50)', 'logevents (50)', 'usercontribs (50)'];

/** The contract's nine requests (docs/spec/wiki-query-api.md), by their names in requests(). */
export const SEED = [
  'sfautocomplete (property)',
  'duplicatefiles (titles)',
  'allcategories (acprop=size)',
  'generator=allimages + duplicatefiles',
  'generator=allfileusages',
  'allmessages (amprefix)',
  'querypage (Ancientpages)',
  'browsebysubject',
  'tokens',
];
