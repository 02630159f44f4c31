/**
 * The requests that compare an updated wiki with a fresh import of its final dump: every read module over
 * the pages a series of changes touched, the query-page reports, the counters.
 */
import type { RequestParams } from './request-set.js';

/** the query-page reports (each read after the update's report run) */
const REPORTS = [
  'Ancientpages',
  'BrokenRedirects',
  'DoubleRedirects',
  'ListDuplicatedFiles',
  'Listredirects',
  'MediaStatistics',
  'Mostimages',
  'Mostlinkedcategories',
  'Mostlinkedtemplates',
  'Mostlinked',
  'Unusedimages',
  'Wantedcategories',
  'Wantedfiles',
  'Wantedpages',
  'Wantedtemplates',
];

/**
 * Every read module over `titles` and the wiki-wide lists and counters a change moves (any wiki: the
 * requests name no page of their own)
 */
export function pageRequests(titles: string[]): Array<[string, RequestParams]> {
  const all = titles.join('|');
  const out: Array<[string, RequestParams]> = [
    [
      'query props of the changed pages',
      {
        action: 'query',
        titles: all,
        prop: 'info|categories|links|templates|images|extlinks|langlinks|iwlinks|pageprops|contributors|categoryinfo|imageinfo|duplicatefiles|redirects',
        pllimit: 'max',
        cllimit: 'max',
        tllimit: 'max',
        imlimit: 'max',
        ellimit: 'max',
        rdlimit: 'max',
        pclimit: 'max',
        redirects: '',
      },
    ],
    [
      'query backlink props of the changed pages',
      {
        action: 'query',
        titles: all,
        prop: 'linkshere|transcludedin|fileusage',
        lhlimit: 'max',
        tilimit: 'max',
        fulimit: 'max',
      },
    ],
    ['siteinfo statistics', { action: 'query', meta: 'siteinfo', siprop: 'statistics' }],
    ['allpages', { action: 'query', list: 'allpages', aplimit: 'max' }],
    ['allpages (redirects)', { action: 'query', list: 'allpages', apfilterredir: 'redirects', aplimit: 'max' }],
    ['allcategories size', { action: 'query', list: 'allcategories', acprop: 'size|hidden', aclimit: 'max' }],
    ['allimages', { action: 'query', list: 'allimages', ailimit: 'max', aiprop: 'timestamp|user|size|sha1|mime' }],
    ['allimages by time', { action: 'query', generator: 'allimages', gaisort: 'timestamp', gailimit: 'max', prop: 'duplicatefiles' }],
    ['alllinks', { action: 'query', list: 'alllinks', allimit: 'max', alprop: 'ids|title' }],
    ['alltransclusions', { action: 'query', list: 'alltransclusions', atlimit: 'max', atprop: 'ids|title' }],
    ['allfileusages', { action: 'query', list: 'allfileusages', aflimit: 'max', afprop: 'ids|title' }],
    ['allredirects', { action: 'query', list: 'allredirects', arlimit: 'max', arprop: 'ids|title' }],
  ];
  for (const t of titles) {
    out.push([`parse ${t}`, { action: 'parse', page: t, redirects: '' }]);
    out.push([
      `revisions ${t}`,
      {
        action: 'query',
        titles: t,
        prop: 'revisions',
        rvlimit: 'max',
        rvprop: 'ids|timestamp|user|userid|comment|size|sha1|flags|content',
      },
    ]);
    out.push([`backlinks ${t}`, { action: 'query', list: 'backlinks', bltitle: t, bllimit: 'max', blredirect: '' }]);
    out.push([`browsebysubject ${t}`, { action: 'browsebysubject', subject: t }]);
  }
  for (const r of REPORTS) out.push([`querypage ${r}`, { action: 'query', list: 'querypage', qppage: r, qplimit: 'max' }]);
  return out;
}

/** every read module over the pages the demo's changes touched (test/data/update/changes.json) */
export function changedPageRequests(titles: string[]): Array<[string, RequestParams]> {
  const out: Array<[string, RequestParams]> = [
    ...pageRequests(titles),
    ['allmessages demo-', { action: 'query', meta: 'allmessages', amprefix: 'demo-', amlang: 'uk' }],
    ['allusers', { action: 'query', list: 'allusers', aulimit: 'max', auprop: 'editcount|registration' }],
    ['usercontribs', { action: 'query', list: 'usercontribs', ucuser: 'Нова Дописувачка|Адміністратор|192.0.2.7', uclimit: 'max' }],
    ['embeddedin Заглушка', { action: 'query', list: 'embeddedin', eititle: 'Шаблон:Заглушка', eilimit: 'max' }],
    ['search (new text)', { action: 'query', list: 'search', srsearch: 'станцію метро', srlimit: 'max' }],
    ['search (new page)', { action: 'query', list: 'search', srsearch: 'вигадане місто', srlimit: 'max' }],
    ['search (moved title)', { action: 'query', list: 'search', srsearch: 'Полтава', srwhat: 'title', srlimit: 'max' }],
    ['search (deleted)', { action: 'query', list: 'search', srsearch: 'Одеса', srlimit: 'max' }],
    ['prefixsearch', { action: 'query', list: 'prefixsearch', pssearch: 'Полтава', pslimit: 'max' }],
    ['ask cities', { action: 'ask', query: '[[Категорія:Міста]]|?Населення|?Розташоване в|sort=Населення|order=desc|limit=100' }],
    ['ask located in', { action: 'ask', query: '[[Розташоване в::Нове Місто]]|?Розташоване в' }],
    ['askargs population', { action: 'askargs', conditions: 'Населення::>1000000', printouts: 'Населення' }],
    ['sfautocomplete region', { action: 'sfautocomplete', property: 'Розташоване_в', substr: 'нов' }],
    ['sfautocomplete category', { action: 'sfautocomplete', category: 'Міста', substr: 'нов' }],
    [
      'expandtemplates',
      { action: 'expandtemplates', text: '{{Заглушка|тест}} {{int:demo-greeting}}', prop: 'wikitext|categories|templates' },
    ],
  ];
  for (const c of ['Незавершені_статті', 'Заготовки', 'Міста', 'Курортні_міста', 'Столиці', 'Логотипи']) {
    out.push([
      `categorymembers ${c}`,
      { action: 'query', list: 'categorymembers', cmtitle: `Категорія:${c}`, cmlimit: 'max', cmprop: 'ids|title|sortkeyprefix|type' },
    ]);
  }
  return out;
}
