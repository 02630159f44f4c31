/**
 * Continuation join test: every list and generator of allcategories, allimages, allfileusages and
 * duplicatefiles walked with limits 1, 2 and 3 in each of the three continuation forms, following the
 * continuation exactly as a client would, must join into the one-shot `limit=max` listing -- nothing
 * lost, nothing repeated. Also the envelope of each form (warning, rawcontinue, batchcomplete).
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { RAW_CONTINUE_WARNING as RAW_WARNING, demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

type Params = Record<string, string | number>;
type Form = 'raw' | 'rawcontinue' | 'new';
const FORMS: Form[] = ['raw', 'rawcontinue', 'new'];
const LIMITS = [1, 2, 3];

interface Walk {
  name: string;
  params: Params;
  /** the limit parameters set to 1, 2, 3 (or max for the one-shot listing) */
  limits: Array<[string, (n: number) => number]>;
  /**
   * list: the items of query.<list>, joined in order;
   * pages: the generated pages, each exactly once over the whole walk;
   * pageset: generated pages that may come again in later batches (allfileusages: a page using files of
   *   several batches; duplicatefiles: a duplicate of several files), compared as a set, and batch by batch
   *   against the list walk `sameAs` when there is one;
   * dups: duplicatefiles per page, joined per page across batches.
   */
  kind: 'list' | 'pages' | 'pageset' | 'dups' | 'redirlinks';
  list?: string;
  /** dups kind: the page entry key joined per page (default duplicatefiles) */
  propKey?: string;
  /** the module whose limits.<module> the one-shot answer reports */
  module?: string;
  sameAs?: Walk;
  /** what limit=max means for the module (500 unless declared otherwise: srlimit 50, pslimit 100) */
  max?: number;
  /** known core deviations: forms this walk cannot yet complete */
  todo?: Partial<Record<Form, string>>;
}

const same = (n: number) => n;
const FILES_WITH_DUPLICATES =
  'Файл:Linux logo.png|File:Tux.png|Файл:Пінгвін.png|Файл:Прапор України.png|Файл:Ukraine flag copy.png|Файл:Flag of Ukraine.png|Файл:Зірка.svg|Файл:Немає.png|Файл:Zoo.png|Київ';

const listFileUsages: Walk = {
  name: 'list=allfileusages afprop=ids|title',
  params: { list: 'allfileusages', afprop: 'ids|title' },
  limits: [['aflimit', same]],
  kind: 'list',
  list: 'allfileusages',
};
const WALKS: Walk[] = [
  {
    name: 'list=allcategories acprop=size|hidden',
    params: { list: 'allcategories', acprop: 'size|hidden' },
    limits: [['aclimit', same]],
    kind: 'list',
    list: 'allcategories',
  },
  {
    name: 'list=allcategories descending',
    params: { list: 'allcategories', acdir: 'descending' },
    limits: [['aclimit', same]],
    kind: 'list',
    list: 'allcategories',
  },
  {
    name: 'list=allcategories prefix, min',
    params: { list: 'allcategories', acprefix: 'С', acmin: 1, acprop: 'size' },
    limits: [['aclimit', same]],
    kind: 'list',
    list: 'allcategories',
  },
  { name: 'generator=allcategories', params: { generator: 'allcategories' }, limits: [['gaclimit', same]], kind: 'pages' },
  {
    name: 'list=allimages',
    params: { list: 'allimages', aiprop: 'timestamp|user|size|sha1' },
    limits: [['ailimit', same]],
    kind: 'list',
    list: 'allimages',
  },
  {
    name: 'list=allimages descending',
    params: { list: 'allimages', aidir: 'descending', aiprop: '' },
    limits: [['ailimit', same]],
    kind: 'list',
    list: 'allimages',
  },
  {
    name: 'list=allimages from/to',
    params: { list: 'allimages', aifrom: 'B', aito: 'Я', aiprop: '' },
    limits: [['ailimit', same]],
    kind: 'list',
    list: 'allimages',
  },
  {
    name: 'list=allimages sort=timestamp',
    params: { list: 'allimages', aisort: 'timestamp', aiprop: 'timestamp' },
    limits: [['ailimit', same]],
    kind: 'list',
    list: 'allimages',
  },
  {
    name: 'list=allimages sort=timestamp older',
    params: { list: 'allimages', aisort: 'timestamp', aidir: 'older', aiprop: 'timestamp' },
    limits: [['ailimit', same]],
    kind: 'list',
    list: 'allimages',
  },
  {
    name: 'list=allimages mime',
    params: { list: 'allimages', aimime: 'image/gif|image/svg+xml|application/pdf', aiprop: 'mime' },
    limits: [['ailimit', same]],
    kind: 'list',
    list: 'allimages',
  },
  { name: 'generator=allimages', params: { generator: 'allimages' }, limits: [['gailimit', same]], kind: 'pages' },
  {
    name: 'generator=allimages sort=timestamp older',
    params: { generator: 'allimages', gaisort: 'timestamp', gaidir: 'older' },
    limits: [['gailimit', same]],
    kind: 'pages',
  },
  listFileUsages,
  {
    name: 'list=allfileusages descending',
    params: { list: 'allfileusages', afprop: 'ids|title', afdir: 'descending' },
    limits: [['aflimit', same]],
    kind: 'list',
    list: 'allfileusages',
  },
  {
    name: 'list=allfileusages unique',
    params: { list: 'allfileusages', afunique: '' },
    limits: [['aflimit', same]],
    kind: 'list',
    list: 'allfileusages',
  },
  {
    name: 'list=allfileusages unique descending prefix',
    params: { list: 'allfileusages', afunique: '', afdir: 'descending', afprefix: 'П' },
    limits: [['aflimit', same]],
    kind: 'list',
    list: 'allfileusages',
  },
  {
    name: 'generator=allfileusages',
    params: { generator: 'allfileusages' },
    limits: [['gaflimit', same]],
    kind: 'pageset',
    sameAs: listFileUsages,
  },
  {
    name: 'generator=allfileusages unique',
    params: { generator: 'allfileusages', gafunique: '' },
    limits: [['gaflimit', same]],
    kind: 'pages',
  },
  {
    name: 'prop=duplicatefiles titles=',
    params: { prop: 'duplicatefiles', titles: FILES_WITH_DUPLICATES },
    limits: [['dflimit', same]],
    kind: 'dups',
  },
  {
    name: 'prop=duplicatefiles descending titles=',
    params: { prop: 'duplicatefiles', dfdir: 'descending', titles: FILES_WITH_DUPLICATES },
    limits: [['dflimit', same]],
    kind: 'dups',
  },
  // a file that duplicates several of the given files is generated once per batch, so again in later batches
  {
    name: 'generator=duplicatefiles titles=',
    params: { generator: 'duplicatefiles', titles: FILES_WITH_DUPLICATES },
    limits: [['gdflimit', same]],
    kind: 'pageset',
  },
  {
    name: 'generator=allimages&prop=duplicatefiles',
    params: { generator: 'allimages', prop: 'duplicatefiles' },
    limits: [
      ['gailimit', same],
      ['dflimit', same],
    ],
    kind: 'dups',
  },
  {
    name: 'generator=allimages&prop=duplicatefiles wider batches',
    params: { generator: 'allimages', prop: 'duplicatefiles' },
    limits: [
      ['gailimit', (n) => n + 4],
      ['dflimit', same],
    ],
    kind: 'dups',
  },
  // cmnamespace filters while reading: sparse matches must neither be lost nor end the walk early
  {
    name: 'list=categorymembers cmnamespace=14 sort=timestamp',
    params: { list: 'categorymembers', cmtitle: 'Категорія:Міста', cmnamespace: 14, cmsort: 'timestamp', cmprop: 'ids|title|timestamp' },
    limits: [['cmlimit', same]],
    kind: 'list',
    list: 'categorymembers',
  },
  {
    name: 'list=categorymembers cmnamespace=6|14 sort=timestamp older',
    params: {
      list: 'categorymembers',
      cmtitle: 'Категорія:Українська кухня',
      cmnamespace: '6|14',
      cmsort: 'timestamp',
      cmdir: 'older',
      cmprop: 'ids|title|timestamp',
    },
    limits: [['cmlimit', same]],
    kind: 'list',
    list: 'categorymembers',
  },
  {
    name: 'list=categorymembers cmnamespace=14 sortkey',
    params: { list: 'categorymembers', cmtitle: 'Категорія:Міста', cmnamespace: 14, cmprop: 'ids|title|sortkey' },
    limits: [['cmlimit', same]],
    kind: 'list',
    list: 'categorymembers',
  },
  {
    name: 'generator=categorymembers gcmnamespace=0 sort=timestamp',
    params: { generator: 'categorymembers', gcmtitle: 'Категорія:Українська кухня', gcmnamespace: 0, gcmsort: 'timestamp' },
    limits: [['gcmlimit', same]],
    kind: 'pages',
  },
  {
    name: 'list=search',
    params: { list: 'search', srsearch: 'памʼятник', srprop: 'size|snippet|titlesnippet' },
    limits: [['srlimit', same]],
    kind: 'list',
    list: 'search',
    max: 50,
  },
  {
    name: 'list=search srwhat=text OR',
    // quoted: the words as written (their other forms would make more than one answer of 50)
    params: { list: 'search', srsearch: '"річка" OR "озеро"', srwhat: 'text', srprop: '' },
    limits: [['srlimit', same]],
    kind: 'list',
    list: 'search',
    max: 50,
  },
  {
    name: 'generator=search',
    params: { generator: 'search', gsrsearch: 'памʼятник' },
    limits: [['gsrlimit', same]],
    kind: 'pages',
    max: 50,
  },
  {
    name: 'list=prefixsearch',
    params: { list: 'prefixsearch', pssearch: 'к' },
    limits: [['pslimit', same]],
    kind: 'list',
    list: 'prefixsearch',
    max: 100,
  },
  {
    name: 'generator=prefixsearch',
    params: { generator: 'prefixsearch', gpssearch: 'Категорія:' },
    limits: [['gpslimit', same]],
    kind: 'pages',
    max: 100,
  },
  {
    name: 'generator=allimages older&prop=duplicatefiles descending',
    params: { generator: 'allimages', gaisort: 'timestamp', gaidir: 'older', prop: 'duplicatefiles', dfdir: 'descending' },
    limits: [
      ['gailimit', (n) => n + 1],
      ['dflimit', same],
    ],
    kind: 'dups',
  },
  // page relations (issue 9)
  ...relationWalks(),
];

function relationWalks(): Walk[] {
  const prop = (name: string, module: string, params: Params, limit: string): Walk => ({
    name,
    params,
    limits: [[limit, same]],
    kind: 'dups',
    propKey: module,
    module,
  });
  const CITIES = 'Київ|Львів|Одеса|Харків|Головна сторінка|Шаблон:Місто';
  const listWalk = (name: string, params: Params, limit: string, list: string, max?: number): Walk => ({
    name,
    params,
    limits: [[limit, same]],
    kind: 'list',
    list,
    max,
  });
  const allLinks = listWalk('list=alllinks ids|title', { list: 'alllinks', alprop: 'ids|title', alprefix: 'К' }, 'allimit', 'alllinks');
  return [
    prop('prop=links', 'links', { prop: 'links', titles: CITIES }, 'pllimit'),
    prop(
      'prop=links descending, namespaces',
      'links',
      { prop: 'links', titles: CITIES, pldir: 'descending', plnamespace: '0|14|6' },
      'pllimit',
    ),
    prop('prop=templates', 'templates', { prop: 'templates', titles: CITIES }, 'tllimit'),
    prop('prop=linkshere', 'linkshere', { prop: 'linkshere', titles: 'Київ|Україна|Дніпро (річка)|Немає такої' }, 'lhlimit'),
    prop(
      'prop=linkshere namespaces',
      'linkshere',
      { prop: 'linkshere', titles: 'Київ|Україна|Користувач:Тарас', lhnamespace: '0|2|10' },
      'lhlimit',
    ),
    prop('prop=transcludedin', 'transcludedin', { prop: 'transcludedin', titles: 'Шаблон:Місто|Шаблон:Прапор|Шаблон:!!' }, 'tilimit'),
    prop('prop=redirects', 'redirects', { prop: 'redirects', titles: 'Київ|Борщ|Львів|Одеса', rdprop: 'pageid|title|fragment' }, 'rdlimit'),
    {
      name: 'generator=links',
      params: { generator: 'links', titles: CITIES },
      limits: [['gpllimit', same]],
      kind: 'pageset',
      module: 'links',
    },
    {
      name: 'generator=templates',
      params: { generator: 'templates', titles: CITIES },
      limits: [['gtllimit', same]],
      kind: 'pageset',
      module: 'templates',
    },
    {
      name: 'generator=linkshere',
      params: { generator: 'linkshere', titles: 'Київ|Україна' },
      limits: [['glhlimit', same]],
      kind: 'pageset',
      module: 'linkshere',
    },
    listWalk('list=backlinks', { list: 'backlinks', bltitle: 'Київ' }, 'bllimit', 'backlinks'),
    listWalk(
      'list=backlinks namespaces descending',
      { list: 'backlinks', bltitle: 'Київська область', blnamespace: '0|2|10|14', bldir: 'descending' },
      'bllimit',
      'backlinks',
    ),
    {
      name: 'list=backlinks blredirect',
      params: { list: 'backlinks', bltitle: 'Київ', blredirect: '' },
      limits: [['bllimit', same]],
      kind: 'redirlinks',
      list: 'backlinks',
      max: 250,
    },
    { name: 'generator=backlinks', params: { generator: 'backlinks', gbltitle: 'Київ' }, limits: [['gbllimit', same]], kind: 'pages' },
    listWalk('list=embeddedin', { list: 'embeddedin', eititle: 'Шаблон:Місто' }, 'eilimit', 'embeddedin'),
    listWalk('list=embeddedin namespaces', { list: 'embeddedin', eititle: 'Шаблон:Прапор', einamespace: '0|10' }, 'eilimit', 'embeddedin'),
    allLinks,
    // not with alfrom: 1.25 drops the from bound once a continuation is given, which descending walks past
    listWalk('list=alllinks unique descending', { list: 'alllinks', alunique: '', aldir: 'descending', alto: 'Я' }, 'allimit', 'alllinks'),
    {
      name: 'generator=alllinks',
      params: { generator: 'alllinks', galprefix: 'К' },
      limits: [['gallimit', same]],
      kind: 'pageset',
      sameAs: allLinks,
    },
    listWalk('list=alltransclusions', { list: 'alltransclusions', atprop: 'ids|title' }, 'atlimit', 'alltransclusions'),
    listWalk('list=alltransclusions unique', { list: 'alltransclusions', atunique: '' }, 'atlimit', 'alltransclusions'),
    listWalk('list=allredirects', { list: 'allredirects', arprop: 'ids|title|fragment|interwiki' }, 'arlimit', 'allredirects'),
    listWalk('list=allredirects unique', { list: 'allredirects', arunique: '' }, 'arlimit', 'allredirects'),
    prop('prop=extlinks', 'extlinks', { prop: 'extlinks', titles: 'Київ|Керч|Демонстраційна сторінка|Львів|Одеса' }, 'ellimit'),
    prop('prop=extlinks protocol', 'extlinks', { prop: 'extlinks', titles: 'Київ|Керч|Львів|Одеса', elprotocol: 'https' }, 'ellimit'),
    prop('prop=langlinks', 'langlinks', { prop: 'langlinks', titles: CITIES, llprop: 'url|autonym' }, 'lllimit'),
    prop('prop=langlinks descending', 'langlinks', { prop: 'langlinks', titles: CITIES, lldir: 'descending' }, 'lllimit'),
    listWalk('list=exturlusage', { list: 'exturlusage' }, 'eulimit', 'exturlusage'),
    listWalk(
      'list=exturlusage *.example.org',
      { list: 'exturlusage', euquery: '*.example.org', euprop: 'title|url' },
      'eulimit',
      'exturlusage',
    ),
    {
      name: 'generator=exturlusage',
      params: { generator: 'exturlusage', geuquery: 'example.com', geuprotocol: 'https' },
      limits: [['geulimit', same]],
      kind: 'pages',
    },
    listWalk(
      'list=pageswithprop',
      { list: 'pageswithprop', pwppropname: 'defaultsort', pwpprop: 'ids|title|value' },
      'pwplimit',
      'pageswithprop',
    ),
    listWalk(
      'list=pageswithprop descending',
      { list: 'pageswithprop', pwppropname: 'defaultsort', pwpdir: 'descending' },
      'pwplimit',
      'pageswithprop',
    ),
    listWalk('list=pagepropnames', { list: 'pagepropnames' }, 'ppnlimit', 'pagepropnames'),
  ];
}

interface Batch {
  json: any;
  /** list items, or generated page titles */
  items: unknown[];
  /** duplicatefiles per page title in this response */
  dups: Map<string, unknown[]>;
  /** page ids of this response (generators) */
  pageids: number[];
}

function read(walk: Walk, json: any): Batch {
  assert.equal(json.error, undefined, JSON.stringify(json.error));
  const pages = Object.values(json.query?.pages ?? {}) as any[];
  const dups = new Map<string, unknown[]>();
  const key = walk.propKey ?? 'duplicatefiles';
  for (const p of pages) if (p[key]) dups.set(p.title, p[key]);
  const items = walk.kind === 'list' || walk.kind === 'redirlinks' ? (json.query?.[walk.list!] ?? []) : pages.map((p) => p.title);
  return { json, items, dups, pageids: pages.filter((p) => p.pageid).map((p) => p.pageid) };
}

function withLimits(walk: Walk, n: number | 'max'): Params {
  const p: Params = { action: 'query', ...walk.params };
  for (const [name, f] of walk.limits) p[name] = n === 'max' ? 'max' : f(n);
  return p;
}

/** All responses of a walk, following the continuation as a client does. */
async function walkAll(walk: Walk, n: number, form: Form): Promise<Batch[]> {
  const base = withLimits(walk, n);
  const batches: Batch[] = [];
  if (form === 'new') {
    let req: Params = { ...base, continue: '' };
    for (let i = 0; i < 1000; i++) {
      const r = await s.get(req);
      const b = read(walk, r.json);
      batches.push(b);
      assert.equal(r.json['query-continue'], undefined);
      assert.equal(r.json.warnings, undefined, JSON.stringify(r.json.warnings));
      const cont = r.json.continue;
      // batchcomplete: always for lists; never while a prop module is still working on a batch
      if (walk.kind === 'list' || !cont) assert.equal(r.json.batchcomplete, '', `batchcomplete: ${JSON.stringify(cont)}`);
      if (cont && Object.keys(cont).some((k) => k === 'dfcontinue')) assert.equal(r.json.batchcomplete, undefined);
      if (!cont) return batches;
      assert.match(cont.continue, /^[^|]*\|\|/);
      // merge the whole continue object into the original request
      req = { ...base, ...cont };
    }
    assert.fail('no end');
  }
  const generator = walk.params.generator as string | undefined;
  let genParams: Params = {};
  let others: Params = {};
  for (let i = 0; i < 1000; i++) {
    const req: Params = { ...base, ...genParams, ...others, ...(form === 'rawcontinue' ? { rawcontinue: 1 } : {}) };
    const r = await s.get(req);
    const b = read(walk, r.json);
    batches.push(b);
    assert.equal(r.json.continue, undefined);
    assert.equal(r.json.batchcomplete, undefined);
    const qc = r.json['query-continue'];
    if (form === 'raw' && qc) assert.equal(r.json.warnings?.query?.['*'], RAW_WARNING);
    else assert.equal(r.json.warnings?.query, undefined);
    if (!qc) return batches;
    // the classic client: finish the non-generator modules on the same generator batch, then move the generator on
    const next: Params = {};
    for (const [module, kv] of Object.entries(qc as Record<string, Params>)) if (module !== generator) Object.assign(next, kv);
    if (Object.keys(next).length) {
      others = next;
    } else {
      genParams = qc[generator!];
      others = {};
    }
  }
  assert.fail('no end');
}

function joinDups(batches: Batch[]): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const b of batches) for (const [title, list] of b.dups) out.set(title, [...(out.get(title) ?? []), ...list]);
  return out;
}

const sortedTitles = (m: Map<string, unknown[]>) => [...m.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));

describe('continuation join: batches of 1, 2, 3 join into the one-shot listing', () => {
  for (const walk of WALKS) {
    describe(walk.name, () => {
      let oneShot: Batch;
      before(async () => {
        const r = await s.get({ ...withLimits(walk, 'max'), rawcontinue: 1 });
        oneShot = read(walk, r.json);
        assert.equal(r.json['query-continue'], undefined, 'the one-shot listing is complete');
        for (const [name] of walk.limits) {
          const module =
            walk.module ??
            (name === 'dflimit' || name === 'gdflimit' ? 'duplicatefiles' : ((walk.params.list ?? walk.params.generator) as string));
          assert.equal(r.json.limits[module], walk.max ?? 500, name);
        }
      });
      for (const form of FORMS) {
        for (const n of LIMITS) {
          const todo = walk.todo?.[form];
          it(`${form}, limit ${n}`, todo ? { todo } : {}, async () => {
            assert.ok(oneShot.items.length > 0 || oneShot.dups.size > 0, 'the one-shot listing is not empty');
            const batches = await walkAll(walk, n, form);
            const limitOf = (name: string) => walk.limits.find(([l]) => l === name)![1](n);
            switch (walk.kind) {
              case 'list': {
                for (const b of batches) assert.ok(b.items.length <= n);
                assert.deepEqual(
                  batches.flatMap((b) => b.items),
                  oneShot.items,
                );
                assert.ok(batches.length >= Math.ceil(oneShot.items.length / n));
                break;
              }
              case 'pages': {
                for (const b of batches) assert.ok(b.items.length <= n);
                const joined = batches.flatMap((b) => b.items as string[]);
                assert.equal(new Set(joined).size, joined.length, 'no page twice');
                assert.deepEqual([...joined].sort(), [...(oneShot.items as string[])].sort());
                break;
              }
              case 'pageset': {
                const joined = batches.flatMap((b) => b.items as string[]);
                assert.deepEqual([...new Set(joined)].sort(), [...(oneShot.items as string[])].sort());
                for (const b of batches) assert.ok(b.items.length <= n);
                if (!walk.sameAs) break;
                // batch by batch: the pages using the links of the same batch of the list
                const links = await walkAll(walk.sameAs, n, form);
                assert.equal(batches.length, links.length);
                batches.forEach((b, i) => {
                  assert.equal(new Set(b.pageids).size, b.pageids.length, 'each page once per batch');
                  assert.deepEqual(
                    [...b.pageids].sort((x, y) => x - y),
                    [...new Set(links[i].items.map((l: any) => l.fromid as number))].sort((x, y) => x - y),
                  );
                });
                break;
              }
              case 'redirlinks': {
                // blredirect: a batch continuing in the second level lists the first level again from its
                // start (1.25 keeps the first level's continuation); a client merges by page id
                const merged = new Map<number, any>();
                for (const b of batches) {
                  for (const e of b.items as any[]) {
                    const old = merged.get(e.pageid);
                    if (!old) merged.set(e.pageid, { ...e, redirlinks: e.redirlinks ? [...e.redirlinks] : undefined });
                    else if (e.redirlinks) old.redirlinks = [...(old.redirlinks ?? []), ...e.redirlinks];
                  }
                }
                const clean = (e: any) => (e.redirlinks ? e : (({ redirlinks: _r, ...rest }) => rest)(e));
                assert.deepEqual([...merged.values()].map(clean), oneShot.items);
                break;
              }
              case 'dups': {
                const dfl = walk.propKey ? limitOf(walk.limits[walk.limits.length - 1][0]) : limitOf('dflimit');
                for (const b of batches)
                  assert.ok([...b.dups.values()].reduce((sum, l) => sum + l.length, 0) <= dfl, 'dflimit counts over the batch');
                assert.deepEqual(sortedTitles(joinDups(batches)), sortedTitles(oneShot.dups));
                // every generated page came out
                const titles = new Set(batches.flatMap((b) => b.items as string[]));
                assert.deepEqual([...titles].sort(), [...new Set(oneShot.items as string[])].sort());
                break;
              }
            }
          });
        }
      }
    });
  }
});

describe('continuation envelopes', () => {
  it('raw: query-continue plus the warning under warnings.query', async () => {
    const r = await s.get({ action: 'query', list: 'allcategories', aclimit: 1 });
    assert.deepEqual(Object.keys(r.json), ['warnings', 'query-continue', 'query']);
    assert.deepEqual(r.json.warnings, { query: { '*': RAW_WARNING } });
    assert.deepEqual(r.json['query-continue'], { allcategories: { accontinue: 'Історія' } });
  });
  it('rawcontinue: the same without the warning', async () => {
    const r = await s.get({ action: 'query', list: 'allcategories', aclimit: 1, rawcontinue: 1 });
    assert.deepEqual(Object.keys(r.json), ['query-continue', 'query']);
  });
  it('continue=: batchcomplete and the continue object; continue wins over rawcontinue', async () => {
    const r = await s.get({ action: 'query', list: 'allcategories', aclimit: 1, continue: '', rawcontinue: 1 });
    assert.deepEqual(Object.keys(r.json), ['batchcomplete', 'continue', 'query']);
    assert.deepEqual(r.json.continue, { accontinue: 'Історія', continue: '-||' });
  });
  it('a list and a generator together: each continues on its own', async () => {
    const r = await s.get({
      action: 'query',
      generator: 'allimages',
      gailimit: 1,
      list: 'allcategories|allfileusages',
      aclimit: 1,
      aflimit: 1,
      continue: '',
    });
    assert.deepEqual(r.json.continue, {
      accontinue: 'Історія',
      afcontinue: '2014_рік.png|337',
      gaicontinue: 'Blank.png',
      continue: 'gaicontinue||',
    });
    // when the lists are done they are named after '||' and skipped
    const done = await s.get({
      action: 'query',
      generator: 'allimages',
      gailimit: 1,
      list: 'allcategories',
      aclimit: 1,
      gaicontinue: 'Blank.png',
      continue: 'gaicontinue||allcategories',
    });
    assert.equal(done.json.query.allcategories, undefined);
    assert.deepEqual(
      Object.values(done.json.query.pages).map((p: any) => p.title),
      ['Файл:Blank.png'],
    );
    // '-' as the generator part: the generator is done and only the lists run
    const dry = await s.get({
      action: 'query',
      generator: 'allimages',
      gailimit: 1,
      list: 'allcategories',
      aclimit: 1,
      accontinue: 'Історія',
      continue: '-||',
    });
    assert.equal(dry.json.query.pages, undefined);
    assert.deepEqual(dry.json.query.allcategories, [{ '*': 'Історія' }]);
  });
});

describe('categorymembers with a namespace filter', () => {
  // Before the filter was applied while reading, cmnamespace with cmsort=timestamp read a fixed window of
  // rows and filtered it: a sparse namespace came back empty (or short) with no continuation.
  for (const sort of ['timestamp', 'sortkey']) {
    it(`cmsort=${sort}: the filtered listing is the unfiltered one restricted to the namespaces`, async () => {
      const base = {
        action: 'query',
        list: 'categorymembers',
        cmtitle: 'Категорія:Українська кухня',
        cmsort: sort,
        cmprop: 'ids|title',
        cmlimit: 'max',
        continue: '',
      };
      const all = (await s.get(base)).json.query.categorymembers as Array<{ ns: number }>;
      for (const ns of ['0', '6', '14', '6|14']) {
        const wanted = ns.split('|').map(Number);
        const r = await s.get({ ...base, cmnamespace: ns });
        assert.deepEqual(
          r.json.query.categorymembers,
          all.filter((m) => wanted.includes(m.ns)),
          `cmnamespace=${ns}`,
        );
        assert.equal(r.json.continue, undefined);
        // the first member of a sparse namespace comes with limit 1, and a continuation when there are more
        const one = await s.get({ ...base, cmnamespace: ns, cmlimit: 1 });
        assert.deepEqual(
          one.json.query.categorymembers,
          all.filter((m) => wanted.includes(m.ns)).slice(0, 1),
          `cmnamespace=${ns}, cmlimit=1`,
        );
        assert.equal(one.json.continue !== undefined, all.filter((m) => wanted.includes(m.ns)).length > 1);
      }
    });
  }
  it('a namespace the wiki does not have: 1.25 warns for a multi-value namespace parameter and drops the value', async () => {
    const r = await s.get({ action: 'query', list: 'categorymembers', cmtitle: 'Категорія:Міста', cmnamespace: '999|14', cmlimit: 2 });
    assert.equal(r.json.warnings.categorymembers['*'], "Unrecognized value for parameter 'cmnamespace': 999");
    assert.ok(r.json.query.categorymembers.every((m: { ns: number }) => m.ns === 14));
  });
  // ApiBase::parseMultiValue dies for a single value; dieUsage prefixes the code: apunknown_apnamespace
  it('a single-value namespace parameter with an unknown namespace is an error (apunknown_apnamespace)', async () => {
    const r = await s.get({ action: 'query', list: 'allpages', apnamespace: 999 });
    assert.equal(r.headers.get('mediawiki-api-error'), 'apunknown_apnamespace');
    assert.equal(r.json.error.info, "Unrecognized value for parameter 'apnamespace': 999");
  });
});
