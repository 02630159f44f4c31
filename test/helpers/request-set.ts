/**
 * The demo wiki's request set: the seed requests `npm run bench` measures, the README's example and a
 * broad list touching every module (actions, prop/list/meta modules, generators, continuation, other
 * formats). Tests that compare two servers (SQLite against PostgreSQL, node against node) send these.
 * Nothing here is random (list=random and sort=random are left out: a new answer each time) and
 * nothing names the clock (curtimestamp): two correct servers answer each byte for byte alike but for the
 * fields sameBytes() masks.
 */
import http from 'node:http';

export type RequestParams = Record<string, string>;

/** The contract's seed requests (docs/spec/wiki-query-api.md), as bench/bench.ts sends them on the demo wiki. */
export const SEED_REQUESTS: Array<[string, RequestParams]> = [
  ['sfautocomplete (property)', { action: 'sfautocomplete', property: 'Регіон', substr: 'київ' }],
  ['duplicatefiles (titles)', { action: 'query', prop: 'duplicatefiles', titles: 'File:Flag_of_Ukraine.png' }],
  ['allcategories (acprop=size)', { action: 'query', list: 'allcategories', acprop: 'size' }],
  ['generator=allimages + duplicatefiles', { action: 'query', generator: 'allimages', prop: 'duplicatefiles' }],
  ['generator=allfileusages', { action: 'query', generator: 'allfileusages', gaffrom: 'П' }],
  ['allmessages (amprefix)', { action: 'query', meta: 'allmessages', amprefix: 'demo-' }],
  ['querypage (Ancientpages)', { action: 'query', list: 'querypage', qppage: 'Ancientpages' }],
  ['browsebysubject', { action: 'browsebysubject', subject: 'Демонстраційна_сторінка' }],
  ['tokens', { action: 'tokens' }],
];

/** The README's example request (its first lines). */
export const README_REQUESTS: Array<[string, RequestParams]> = [['README: tokens', { action: 'tokens' }]];

const FILES =
  'File:Flag_of_Ukraine.png|Файл:Linux logo.png|File:Tux.png|Файл:Пінгвін.png|Файл:Прапор України.png|Файл:Зірка.svg|Файл:Немає.png';
const PAGES = 'Київ|Львів|Одеса|Харків|Дніпро|Неіснуюча|Файл:Tux.png|Демовікі:Пісочниця';

/** Every module, with the parameters that take each through its store reads. */
export const BROAD_REQUESTS: Array<[string, RequestParams]> = [
  // bench's other requests on the demo wiki
  [
    'ask (property, sorted)',
    { action: 'ask', query: '[[Розташоване в::Київська область]][[Населення::>100000]]|?Населення|sort=Населення' },
  ],
  ['ask (category, 10 results)', { action: 'ask', query: '[[Категорія:Супи]]|limit=10' }],
  [
    'ask (several pages, offset)',
    { action: 'ask', query: '[[Категорія:Міста]][[Населення::>200000]]|?Населення|sort=Населення|order=desc|limit=3|offset=3' },
  ],
  [
    'ask (printouts of every kind)',
    { action: 'ask', query: '[[Категорія:Міста]]|?Населення|?Розташоване в|?Категорія|?Дата заснування|limit=20' },
  ],
  [
    'askargs',
    { action: 'askargs', conditions: 'Категорія:Міста|Населення::>500000', printouts: 'Населення', parameters: 'sort=Населення|order=asc' },
  ],
  ['sfautocomplete (1000 values)', { action: 'sfautocomplete', property: 'Розташоване_в', substr: 'м' }],
  ['sfautocomplete (category)', { action: 'sfautocomplete', category: 'Міста', substr: 'ки' }],
  ['browsebysubject (city)', { action: 'browsebysubject', subject: 'Київ' }],
  [
    'smwinfo (every count)',
    {
      action: 'smwinfo',
      info: 'propcount|usedpropcount|declaredpropcount|proppagecount|querycount|querysize|formatcount|conceptcount|subobjectcount',
    },
  ],
  ['parse (page)', { action: 'parse', page: 'Київ' }],
  [
    'parse (text)',
    {
      action: 'parse',
      text: "'''Привіт''' [[Київ]] {{PAGENAME}} [[Категорія:Тест]]",
      title: 'Тест',
      prop: 'text|links|categories|templates|sections',
    },
  ],
  ['expandtemplates', { action: 'expandtemplates', text: '{{PAGENAME}} {{#if: x | так | ні}}', title: 'Київ', prop: 'wikitext' }],
  ['opensearch (prefix)', { action: 'opensearch', search: 'Ки' }],
  ['search (one word)', { action: 'query', list: 'search', srsearch: 'памʼятник' }],
  ['search (word on every page)', { action: 'query', list: 'search', srsearch: 'місто' }],
  ['search (phrase)', { action: 'query', list: 'search', srsearch: '"стоїть памʼятник"' }],
  ['search (title, what=title)', { action: 'query', list: 'search', srsearch: 'Київ', srwhat: 'title' }],
  ['generator=search', { action: 'query', generator: 'search', gsrsearch: 'річка', prop: 'info' }],
  ['prefixsearch', { action: 'query', list: 'prefixsearch', pssearch: 'Ха' }],
  [
    'siteinfo',
    {
      action: 'query',
      meta: 'siteinfo',
      siprop: 'general|namespaces|namespacealiases|statistics|interwikimap|specialpagealiases|magicwords',
    },
  ],
  ['userinfo', { action: 'query', meta: 'userinfo', uiprop: 'rights|groups' }],
  ['tokens (query meta)', { action: 'query', meta: 'tokens' }],
  ['allmessages (list)', { action: 'query', meta: 'allmessages', ammessages: 'august|july|mainpage|demo-apostrophe|nosuchmessage' }],
  ['allmessages (from, limit)', { action: 'query', meta: 'allmessages', amfrom: 'b', amto: 'c', amprop: 'default' }],
  // prop modules on a page set with missing and file titles, redirects resolved
  ['info (page set)', { action: 'query', prop: 'info', titles: PAGES, redirects: '', inprop: 'protection|talkid|url|displaytitle' }],
  [
    'revisions (content)',
    { action: 'query', prop: 'revisions', titles: 'Київ|Львів', rvprop: 'ids|timestamp|user|comment|size|sha1|content' },
  ],
  [
    'revisions (history)',
    { action: 'query', prop: 'revisions', titles: 'Демовікі:Пісочниця', rvlimit: 'max', rvprop: 'ids|user|comment|parsedcomment|content' },
  ],
  ['revisions (revids)', { action: 'query', prop: 'revisions', revids: '1|2|3|4|5|6|7|8|999999', rvprop: 'ids|content' }],
  ['categories', { action: 'query', prop: 'categories', titles: PAGES, clprop: 'sortkey|timestamp|hidden', cllimit: 'max' }],
  ['categoryinfo', { action: 'query', prop: 'categoryinfo', titles: 'Категорія:Міста|Категорія:Супи|Категорія:Немає' }],
  ['duplicatefiles (several titles)', { action: 'query', prop: 'duplicatefiles', titles: FILES, dflimit: 'max' }],
  ['imageinfo', { action: 'query', prop: 'imageinfo', titles: FILES, iiprop: 'timestamp|user|size|sha1|mime|url|metadata|dimensions' }],
  ['images', { action: 'query', prop: 'images', titles: PAGES, imlimit: 'max' }],
  ['fileusage', { action: 'query', prop: 'fileusage', titles: FILES, fulimit: 'max' }],
  ['contributors', { action: 'query', prop: 'contributors', titles: 'Київ|Львів|Одеса|Харків|Демовікі:Пісочниця' }],
  ['links', { action: 'query', prop: 'links', titles: PAGES, pllimit: 'max' }],
  ['templates', { action: 'query', prop: 'templates', titles: PAGES, tllimit: 'max' }],
  ['linkshere', { action: 'query', prop: 'linkshere', titles: 'Київ|Україна', lhlimit: 'max', lhprop: 'pageid|title|redirect' }],
  ['transcludedin', { action: 'query', prop: 'transcludedin', titles: 'Шаблон:Місто', tilimit: 'max' }],
  ['redirects', { action: 'query', prop: 'redirects', titles: 'Київ|Львів', rdlimit: 'max' }],
  ['pageprops', { action: 'query', prop: 'pageprops', titles: PAGES }],
  ['extlinks', { action: 'query', prop: 'extlinks', titles: PAGES, ellimit: 'max' }],
  ['langlinks', { action: 'query', prop: 'langlinks', titles: PAGES, lllimit: 'max', llprop: 'url' }],
  ['iwlinks', { action: 'query', prop: 'iwlinks', titles: PAGES, iwlimit: 'max', iwprop: 'url' }],
  // lists
  ['allpages', { action: 'query', list: 'allpages', aplimit: '50', apfrom: 'К' }],
  ['allpages (namespace, redirects)', { action: 'query', list: 'allpages', apnamespace: '6', apfilterredir: 'all', aplimit: 'max' }],
  [
    'categorymembers',
    {
      action: 'query',
      list: 'categorymembers',
      cmtitle: 'Категорія:Міста',
      cmlimit: '20',
      cmprop: 'ids|title|sortkey|sortkeyprefix|type|timestamp',
    },
  ],
  [
    'categorymembers (continued)',
    {
      action: 'query',
      list: 'categorymembers',
      cmtitle: 'Категорія:Міста',
      cmlimit: '20',
      cmsort: 'timestamp',
      cmdir: 'desc',
      continue: '',
    },
  ],
  ['allcategories (max, from)', { action: 'query', list: 'allcategories', acprop: 'size|hidden', aclimit: 'max', acfrom: 'М' }],
  ['allimages', { action: 'query', list: 'allimages', ailimit: 'max', aiprop: 'timestamp|user|size|sha1|mime|url' }],
  ['allimages (by sha1)', { action: 'query', list: 'allimages', aisha1: '0000000000000000000000000000000000000000' }],
  ['allfileusages', { action: 'query', list: 'allfileusages', aflimit: 'max', afprop: 'ids|title' }],
  ['imageusage', { action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iulimit: 'max' }],
  ['querypage (Wantedpages)', { action: 'query', list: 'querypage', qppage: 'Wantedpages', qplimit: 'max' }],
  ['querypage (Uncategorizedpages)', { action: 'query', list: 'querypage', qppage: 'Uncategorizedpages', qplimit: 'max' }],
  ['backlinks (blredirect)', { action: 'query', list: 'backlinks', bltitle: 'Київ', blredirect: '', bllimit: 'max' }],
  ['embeddedin', { action: 'query', list: 'embeddedin', eititle: 'Шаблон:Місто', eilimit: 'max' }],
  ['alllinks (continued)', { action: 'query', list: 'alllinks', alcontinue: 'П|1', allimit: '500' }],
  ['alllinks (unique)', { action: 'query', list: 'alllinks', alunique: '', allimit: 'max' }],
  ['alltransclusions', { action: 'query', list: 'alltransclusions', atlimit: 'max', atprop: 'ids|title' }],
  ['allredirects', { action: 'query', list: 'allredirects', arlimit: 'max', arprop: 'ids|title|fragment' }],
  ['exturlusage', { action: 'query', list: 'exturlusage', eulimit: 'max' }],
  ['pageswithprop', { action: 'query', list: 'pageswithprop', pwppropname: 'defaultsort', pwplimit: 'max', pwpprop: 'ids|title|value' }],
  ['pagepropnames', { action: 'query', list: 'pagepropnames' }],
  [
    'users',
    { action: 'query', list: 'users', ususers: 'Тарас|Олена Коваль|Нема|192.0.2.15', usprop: 'editcount|groups|rights|registration' },
  ],
  ['allusers', { action: 'query', list: 'allusers', aulimit: 'max', auprop: 'editcount|groups' }],
  [
    'usercontribs',
    {
      action: 'query',
      list: 'usercontribs',
      ucuser: 'Тарас|Олена Коваль|Адміністратор',
      ucnamespace: '0|4|14',
      uclimit: 'max',
      ucprop: 'ids|title|sizediff|parsedcomment',
    },
  ],
  ['logevents', { action: 'query', list: 'logevents', lelimit: 'max', leprop: 'ids|title|type|details|parsedcomment' }],
  ['recentchanges', { action: 'query', list: 'recentchanges', rclimit: 'max', rcprop: 'title|ids|sizes|flags|user|loginfo|parsedcomment' }],
  // generators, continuation and other formats
  [
    'generator=categorymembers + info|categories',
    { action: 'query', generator: 'categorymembers', gcmtitle: 'Категорія:Міста', gcmlimit: '10', prop: 'info|categories', continue: '' },
  ],
  [
    'generator=links + revisions',
    { action: 'query', generator: 'links', titles: 'Київ', gpllimit: 'max', prop: 'revisions', rvprop: 'ids|size' },
  ],
  ['generator=backlinks', { action: 'query', generator: 'backlinks', gbltitle: 'Україна', gbllimit: 'max', prop: 'pageprops' }],
  [
    'generator=allpages + imageinfo',
    { action: 'query', generator: 'allpages', gapnamespace: '6', gaplimit: 'max', prop: 'imageinfo', iiprop: 'size|sha1' },
  ],
  ['pageids', { action: 'query', pageids: '1|2|3|50|99999', prop: 'info' }],
  ['format=xml', { action: 'query', list: 'allcategories', acprop: 'size', format: 'xml' }],
  ['format=jsonfm', { action: 'query', list: 'allimages', aiprop: 'size|url', format: 'jsonfm' }],
  ['format=php', { action: 'query', prop: 'info', titles: 'Київ', format: 'php' }],
  ['paraminfo', { action: 'paraminfo', modules: 'query+allpages|parse|ask' }],
  ['help', { action: 'help', modules: 'query+categorymembers' }],
  ['an error (unknown action)', { action: 'nosuchaction' }],
  ['an error (bad title)', { action: 'query', prop: 'info', titles: '<>|Київ' }],
];

/** The demo wiki's whole request set, in the order above. */
export const DEMO_REQUESTS: Array<[string, RequestParams]> = [...SEED_REQUESTS, ...README_REQUESTS, ...BROAD_REQUESTS];

/**
 * Answers name the host they were asked on (file URLs, "See http://HOST/api.php"): servers on different
 * ports are compared with one Host header for all (fetch cannot set Host; node:http can).
 */
export const COMPARED_HOST = 'wikiquery.test';

export interface PlainAnswer {
  status: number;
  contentType: string | undefined;
  apiError: string | undefined;
  body: Buffer;
  text: string;
}

/** GET `path` (with its query) from the server at `base` (http://127.0.0.1:PORT) with Host: COMPARED_HOST, on a new connection. */
export function getAs(base: string, path: string, timeoutMs = 10_000): Promise<PlainAnswer> {
  const u = new URL(path, base);
  return new Promise((resolve, reject) => {
    // a connection per request (agent: false): a kept-alive socket the server closes after its keep-alive
    // timeout, just as the client reuses it on a loaded machine, fails the request on the client's side
    const req = http.get(
      { host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { host: COMPARED_HOST }, timeout: timeoutMs, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const header = (name: string) => (typeof res.headers[name] === 'string' ? (res.headers[name] as string) : undefined);
          resolve({
            status: res.statusCode ?? 0,
            contentType: header('content-type'),
            apiError: header('mediawiki-api-error'),
            body,
            text: body.toString('utf8'),
          });
        });
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${path}: no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
  });
}

/** The api.php path of a request of the set (format=json unless it names another). */
export function apiPath(params: RequestParams): string {
  return '/api.php?' + new URLSearchParams({ format: 'json', ...params }).toString();
}

/**
 * The per-request clock readings of the set: the parser's limit report (action=parse) states the CPU and wall
 * time of that parse (`CPU time usage: 0.011 seconds`, as MediaWiki 1.25) and the transclusion expansion time
 * report, and siteinfo's `time` is the server's clock (two nodes asked at once may straddle a second). With `backend`, also siteinfo's
 * dbtype and dbversion (they name the database engine, and must differ between SQLite and PostgreSQL).
 */
export function masked(text: string, opts: { backend?: boolean } = {}): string {
  // the comment's CPU and real time lines, and the transclusion time report (times, and the order they give)
  let t = text
    .replace(/(CPU|Real) time usage: [0-9.]+/g, '$1 time usage: (time)')
    .replace(/(Transclusion expansion time report \(%,ms,calls,template\)\\n)[\s\S]*?(\\n-->)/g, '$1(times)$2')
    .replace(/("time":"|time=")\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"/g, '$1(now)"');
  if (opts.backend) t = t.replace(/"dbtype":"[^"]*","dbversion":"[^"]*"/g, '"dbtype":(engine),"dbversion":(version)');
  return t;
}
