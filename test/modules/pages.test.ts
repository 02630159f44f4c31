/**
 * The page modules the clients use: list=allpages, list=categorymembers (lists and generators),
 * prop=categories, prop=info and prop=revisions, over HTTP on the demo wiki.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

const get = (params: Record<string, string | number | boolean>) => s.get({ utf8: 1, ...params });

/** Follow the new-form continuation to the end and concatenate one list of the results. */
async function walk(params: Record<string, string | number>, pick: (json: any) => unknown[]): Promise<unknown[]> {
  const out: unknown[] = [];
  let cont: Record<string, string> = { continue: '' };
  for (let i = 0; i < 500; i++) {
    const r = await get({ ...params, ...cont });
    assert.equal(r.json.error, undefined, JSON.stringify(r.json.error));
    out.push(...pick(r.json));
    if (!r.json.continue) return out;
    cont = r.json.continue;
  }
  throw new Error('continuation did not end');
}

describe('list=allpages', () => {
  it('lists titles in byte order from apfrom, first letter uppercased, with apcontinue', async () => {
    const r = await get({ action: 'query', list: 'allpages', apfrom: 'к', aplimit: 3, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"allpages":{"apcontinue":"Кам\'янське"}},"query":{"allpages":[{"pageid":256,"ns":0,"title":"Казка про Їжака"},{"pageid":212,"ns":0,"title":"Кам\'янець"},{"pageid":247,"ns":0,"title":"Кам\'янець-Подільський"}]}}',
    );
  });
  it('batches of 1, 2 and 3 join into the one-shot listing, both directions', async () => {
    for (const dir of ['ascending', 'descending']) {
      const full = await get({ action: 'query', list: 'allpages', aplimit: 'max', apdir: dir, apnamespace: 14 });
      const all = full.json.query.allpages;
      assert.ok(all.length > 30);
      for (const n of [1, 2, 3])
        assert.deepEqual(
          await walk({ action: 'query', list: 'allpages', aplimit: n, apdir: dir, apnamespace: 14 }, (j) => j.query.allpages),
          all,
        );
    }
  });
  it('filters redirects and sizes; an invalid apfrom is apinvalidtitle', async () => {
    const red = await get({ action: 'query', list: 'allpages', apfilterredir: 'redirects', aplimit: 'max' });
    assert.ok(red.json.query.allpages.some((p: any) => p.title === 'Kyiv'));
    const info = await get({ action: 'query', generator: 'allpages', gapfilterredir: 'redirects', gaplimit: 'max', prop: 'info' });
    assert.ok(Object.values(info.json.query.pages).every((p: any) => p.redirect === ''));
    const small = await get({ action: 'query', list: 'allpages', apmaxsize: 100, aplimit: 'max', apnamespace: 14 });
    const big = await get({ action: 'query', list: 'allpages', apminsize: 101, aplimit: 'max', apnamespace: 14 });
    const every = await get({ action: 'query', list: 'allpages', aplimit: 'max', apnamespace: 14 });
    assert.equal(small.json.query.allpages.length + big.json.query.allpages.length, every.json.query.allpages.length);
    const bad = await get({ action: 'query', list: 'allpages', apfrom: 'A[b' });
    assert.equal(bad.json.error.code, 'apinvalidtitle');
    assert.equal(bad.json.error.info, 'Bad title "A[b"');
  });
});

describe('list=categorymembers', () => {
  it('lists pages, then subcategories, then files, each in sort-key order, with hex sort keys in cmcontinue', async () => {
    const r = await get({
      action: 'query',
      list: 'categorymembers',
      cmtitle: 'Category:Річки',
      cmlimit: 3,
      cmprop: 'ids|title|sortkeyprefix|type',
      continue: '',
    });
    assert.equal(
      r.text,
      '{"batchcomplete":"","continue":{"cmcontinue":"page|d093d09ed0a0d098d09dd0ac|57","continue":"-||"},"query":{"categorymembers":[{"pageid":277,"ns":0,"title":"Інгул","sortkeyprefix":"","type":"page"},{"pageid":323,"ns":0,"title":"Інгулець","sortkeyprefix":"","type":"page"},{"pageid":211,"ns":0,"title":"Ворскла","sortkeyprefix":"","type":"page"}]}}',
    );
    const all = (
      await get({ action: 'query', list: 'categorymembers', cmtitle: 'Категорія:Українська кухня', cmlimit: 'max', cmprop: 'title|type' })
    ).json.query.categorymembers;
    const types = all.map((m: any) => m.type);
    assert.deepEqual(
      types,
      [...types].sort((a: string, b: string) => ['page', 'subcat', 'file'].indexOf(a) - ['page', 'subcat', 'file'].indexOf(b)),
    );
    assert.deepEqual(new Set(types), new Set(['page', 'subcat', 'file']));
  });
  it('joins batches of 1, 2, 3 in every sort and direction; cmtype and cmnamespace filter', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { cmdir: 'desc' },
      { cmsort: 'timestamp' },
      { cmsort: 'timestamp', cmdir: 'older' },
      { cmtype: 'subcat|file' },
      { cmnamespace: '6' },
    ];
    for (const extra of variants) {
      const base = {
        action: 'query',
        list: 'categorymembers',
        cmtitle: 'Категорія:Українська кухня',
        cmprop: 'ids|title|type|timestamp',
        ...extra,
      };
      const full = (await get({ ...base, cmlimit: 'max' })).json.query.categorymembers;
      assert.ok(full.length > 0, JSON.stringify(extra));
      for (const n of [1, 2, 3])
        assert.deepEqual(await walk({ ...base, cmlimit: n }, (j) => j.query.categorymembers), full, JSON.stringify(extra));
      if ('cmtype' in extra) assert.ok(full.every((m: any) => m.type !== 'page'));
      if ('cmnamespace' in extra) assert.ok(full.every((m: any) => m.ns === 6));
    }
  });
  it('as a generator, with the English prefix; errors', async () => {
    const r = await get({ action: 'query', generator: 'categorymembers', gcmtitle: 'Category:Річки', gcmlimit: 'max', prop: 'info' });
    const pages = Object.values(r.json.query.pages) as any[];
    assert.ok(pages.length >= 20);
    assert.ok(pages.every((p) => p.pageid > 0 && /^\d{4}-\d\d-\d\dT/.test(p.touched)));
    assert.equal((await get({ action: 'query', list: 'categorymembers' })).json.error.code, 'cmmissingparam');
    assert.equal((await get({ action: 'query', list: 'categorymembers', cmtitle: 'Київ' })).json.error.code, 'cminvalidcategory');
    assert.equal(
      (await get({ action: 'query', list: 'categorymembers', cmtitle: 'Категорія:Річки', cmcontinue: 'x' })).json.error.code,
      'cmbadcontinue',
    );
    assert.equal(
      (await get({ action: 'query', generator: 'categorymembers', gcmtitle: 'Категорія:Річки', gcmcontinue: 'x' })).json.error.code,
      'gcmbadcontinue',
    );
  });
});

describe('prop=categories and prop=info', () => {
  it('categories of a page in name order, hidden ones marked', async () => {
    const r = await get({ action: 'query', prop: 'categories', titles: 'Київ', clprop: 'hidden' });
    const page = Object.values(r.json.query.pages)[0] as any;
    assert.deepEqual(
      page.categories.map((c: any) => c.title),
      ['Категорія:Міста', 'Категорія:Обласні центри', 'Категорія:Столиці', 'Категорія:Столиці україни'],
    );
    const hidden = await get({
      action: 'query',
      generator: 'categorymembers',
      gcmtitle: 'Категорія:Статті без джерел',
      gcmlimit: 3,
      prop: 'categories',
      clprop: 'hidden',
      clshow: 'hidden',
    });
    for (const p of Object.values(hidden.json.query.pages) as any[])
      assert.deepEqual(p.categories, [{ ns: 14, title: 'Категорія:Статті без джерел', hidden: '' }]);
  });
  it('prop=categories continues across pages with <page id>|<category>', async () => {
    const params = { action: 'query', prop: 'categories', titles: 'Київ|Львів|Одеса' };
    const full = (await get({ ...params, cllimit: 'max' })).json.query.pages;
    const flat = (pages: any) => Object.values(pages).flatMap((p: any) => (p.categories ?? []).map((c: any) => `${p.title}→${c.title}`));
    const expected = flat(full).sort();
    for (const n of [1, 2]) {
      const got = await walk({ ...params, cllimit: n }, (j) => flat(j.query.pages));
      assert.deepEqual([...got].sort(), expected);
    }
  });
  it('prop=info: 1.25 fields, redirect flag, protection and URLs', async () => {
    const r = await get({ action: 'query', prop: 'info', titles: 'Київ|Kyiv|Немає', inprop: 'protection|url' });
    const pages = Object.values(r.json.query.pages) as any[];
    const kyiv = pages.find((p) => p.title === 'Київ');
    assert.deepEqual(Object.keys(kyiv), [
      'pageid',
      'ns',
      'title',
      'contentmodel',
      'pagelanguage',
      'touched',
      'lastrevid',
      'length',
      'protection',
      'restrictiontypes',
      'fullurl',
      'editurl',
      'canonicalurl',
    ]);
    assert.equal(kyiv.fullurl, `${new URL(s.url).origin}/index.php/%D0%9A%D0%B8%D1%97%D0%B2`);
    assert.equal(pages.find((p) => p.title === 'Kyiv').redirect, '');
    assert.equal(pages.find((p) => p.title === 'Немає').missing, '');
  });
  it('prop=info: a title with "$$" keeps both dollars in its URL (Title::getFullURL puts the title into $wgArticlePath with str_replace)', async () => {
    const r = await get({ action: 'query', prop: 'info', titles: 'Ціна $$ і $1', inprop: 'url' });
    const page = Object.values(r.json.query.pages)[0] as any;
    const origin = new URL(s.url).origin;
    assert.equal(page.fullurl, `${origin}/index.php/%D0%A6%D1%96%D0%BD%D0%B0_$$_%D1%96_$1`);
    assert.equal(page.editurl, `${origin}/index.php?title=%D0%A6%D1%96%D0%BD%D0%B0_$$_%D1%96_$1&action=edit`);
  });
});

describe('prop=revisions', () => {
  it('the latest revision with content, in the 1.25 form and under slots.main', async () => {
    const legacy = await get({ action: 'query', prop: 'revisions', titles: 'Київ', rvprop: 'content|ids' });
    const rev = (Object.values(legacy.json.query.pages)[0] as any).revisions[0];
    assert.deepEqual(Object.keys(rev), ['revid', 'parentid', 'contentformat', 'contentmodel', '*']);
    assert.match(rev['*'], /\{\{Місто/);
    const slots = await get({ action: 'query', prop: 'revisions', titles: 'Київ', rvprop: 'content', rvslots: 'main', formatversion: 2 });
    const main = slots.json.query.pages[0].revisions[0].slots.main;
    assert.deepEqual(Object.keys(main), ['contentmodel', 'contentformat', 'content']);
    assert.equal(main.content, rev['*']);
  });
  it('enumeration mode lists the kept revisions newest first, continues with rvcontinue, and is single-page', async () => {
    const r = await get({ action: 'query', prop: 'revisions', titles: 'Львів', rvprop: 'ids|timestamp', rvlimit: 1, continue: '' });
    const first = (Object.values(r.json.query.pages)[0] as any).revisions;
    assert.equal(first.length, 1);
    assert.ok(r.json.continue.rvcontinue);
    const next = await get({
      action: 'query',
      prop: 'revisions',
      titles: 'Львів',
      rvprop: 'ids|timestamp',
      rvlimit: 1,
      ...r.json.continue,
    });
    const second = (Object.values(next.json.query.pages)[0] as any).revisions[0];
    assert.ok(second.timestamp < first[0].timestamp);
    // the first revision's text is not kept, its size and hash are
    const meta = await get({
      action: 'query',
      prop: 'revisions',
      titles: 'Львів',
      rvprop: 'ids|size|sha1|comment',
      rvlimit: 2,
      rvdir: 'newer',
    });
    const [oldest] = (Object.values(meta.json.query.pages)[0] as any).revisions;
    assert.equal(oldest.parentid, 0);
    assert.ok(oldest.size > 0);
    assert.match(oldest.sha1, /^[0-9a-f]{40}$/);
    const multi = await get({ action: 'query', prop: 'revisions', titles: 'Київ|Львів', rvlimit: 2 });
    assert.equal(multi.json.error.code, 'rvmultpages');
  });
});

describe("defects against 1.25's source: page modules", () => {
  it('inprop=preload is "" for an existing page and null for a missing one (ApiQueryInfo.php:471-478)', async () => {
    const r = await get({ action: 'query', prop: 'info', inprop: 'preload', titles: 'Київ|Немає' });
    assert.equal(
      r.text,
      '{"query":{"pages":{"-1":{"ns":0,"title":"Немає","missing":"","contentmodel":"wikitext","pagelanguage":"uk","preload":null},"336":{"pageid":336,"ns":0,"title":"Київ","contentmodel":"wikitext","pagelanguage":"uk","touched":"2015-12-10T07:56:07Z","lastrevid":562,"length":2782,"preload":""}}}}',
    );
  });
  it('rvparse caps an enumeration at one revision and defaults rvlimit to 1 (ApiQueryRevisionsBase.php:122-148)', async () => {
    const over = await get({
      action: 'query',
      prop: 'revisions',
      titles: 'Київ',
      rvprop: 'ids|content',
      rvparse: 1,
      rvlimit: 3,
      continue: '',
    });
    // 1.25's validateLimit says "set to" the value asked for
    assert.deepEqual(over.json.warnings, { revisions: { '*': 'rvlimit may not be over 1 (set to 3) for users' } });
    assert.deepEqual(over.json.continue, { rvcontinue: 487, continue: '||' });
    const revs = (Object.values(over.json.query.pages)[0] as any).revisions;
    assert.deepEqual(
      revs.map((r: any) => r.revid),
      [562],
    );
    assert.match(revs[0]['*'], /^<table class="infobox"/);
    const dflt = await get({
      action: 'query',
      prop: 'revisions',
      titles: 'Київ',
      rvprop: 'ids|content',
      rvparse: 1,
      rvdir: 'newer',
      continue: '',
    });
    assert.deepEqual(dflt.json.continue, { rvcontinue: 483, continue: '||' });
    const max = await get({
      action: 'query',
      prop: 'revisions',
      titles: 'Київ',
      rvprop: 'ids|content',
      rvparse: 1,
      rvlimit: 'max',
      continue: '',
    });
    assert.deepEqual(max.json.limits, { revisions: 1 });
    // without content rvparse is not read: the limit stays 500
    const ids = await get({ action: 'query', prop: 'revisions', titles: 'Київ', rvprop: 'ids', rvparse: 1, rvlimit: 3, continue: '' });
    assert.equal(ids.json.warnings, undefined);
    assert.equal((Object.values(ids.json.query.pages)[0] as any).revisions.length, 3);
  });
  it('rvparse over several pages parses the first and continues with <page>|<revision> (ApiQueryRevisions.php:132-134, 304-321)', async () => {
    const params = { action: 'query', prop: 'revisions', titles: 'Київ|Львів|Одеса', rvprop: 'ids|content', rvparse: 1 };
    const first = await get({ ...params, continue: '' });
    assert.deepEqual(first.json.continue, { rvcontinue: '336|562', continue: '||' });
    const pages = first.json.query.pages;
    assert.deepEqual(
      Object.values(pages).map((p: any) => [p.title, p.revisions?.map((r: any) => r.revid)]),
      [
        ['Одеса', [357]],
        ['Київ', undefined],
        ['Львів', undefined],
      ],
    );
    const all = await walk(params, (j) => Object.values(j.query.pages).flatMap((p: any) => (p.revisions ?? []).map((r: any) => r.revid)));
    assert.deepEqual(all, [357, 562, 606]);
  });
  it('content for more than 50 pages continues from the 51st (ApiQueryRevisions.php:132-134, 304-321)', async () => {
    const params = { action: 'query', generator: 'allpages', gaplimit: 60, prop: 'revisions', rvprop: 'ids|content' };
    const first = await get({ ...params, continue: '' });
    const withContent = Object.values(first.json.query.pages).filter((p: any) => p.revisions);
    assert.equal(withContent.length, 50);
    assert.match(first.json.continue.rvcontinue, /^\d+\|\d+$/);
    const ids = await get({ ...params, rvprop: 'ids', continue: '' });
    assert.equal(Object.values(ids.json.query.pages).filter((p: any) => p.revisions).length, 60);
    assert.equal(ids.json.continue.rvcontinue, undefined);
  });
  it('allpages as a generator with redirects= is gapparams (ApiQueryAllPages.php:50-57)', async () => {
    const r = await get({ action: 'query', generator: 'allpages', redirects: 1 });
    assert.equal(r.headers.get('mediawiki-api-error'), 'gapparams');
    assert.deepEqual(r.json.error, {
      code: 'gapparams',
      info: 'Use "gapfilterredir=nonredirects" option instead of "redirects" when using allpages as a generator',
      '*': `See ${s.url} for API usage`,
    });
    const list = await get({ action: 'query', list: 'allpages', redirects: 1, aplimit: 1 });
    assert.equal(list.json.error, undefined);
  });
  it('an invalid cmstarthexsortkey is cmbad_starthexsortkey, ignored with cmsort=timestamp (ApiQueryCategoryMembers.php:104-170)', async () => {
    const bad = await get({ action: 'query', list: 'categorymembers', cmtitle: 'Категорія:Міста', cmstarthexsortkey: 'abc' });
    assert.deepEqual(bad.json.error, {
      code: 'cmbad_starthexsortkey',
      info: 'The starthexsortkey provided is not valid',
      '*': `See ${s.url} for API usage`,
    });
    const badEnd = await get({ action: 'query', list: 'categorymembers', cmtitle: 'Категорія:Міста', cmendhexsortkey: 'zz' });
    assert.equal(badEnd.json.error.code, 'cmbad_endhexsortkey');
    const byTime = { action: 'query', list: 'categorymembers', cmtitle: 'Категорія:Міста', cmsort: 'timestamp', cmlimit: 3, continue: '' };
    const plain = await get(byTime);
    const ignored = await get({ ...byTime, cmstarthexsortkey: 'zz', cmendsortkeyprefix: 'Я' });
    assert.equal(
      ignored.text,
      '{"batchcomplete":"","continue":{"cmcontinue":"20100413200656|47","continue":"-||"},"query":{"categorymembers":[{"pageid":26,"ns":0,"title":"Суми"},{"pageid":33,"ns":0,"title":"Умань"},{"pageid":46,"ns":0,"title":"Тернопіль"}]}}',
    );
    assert.equal(ignored.text, plain.text);
    // and cmstart/cmend are not read with cmsort=sortkey
    const sortkey = await get({
      action: 'query',
      list: 'categorymembers',
      cmtitle: 'Категорія:Міста',
      cmstart: '2010-01-01T00:00:00Z',
      cmlimit: 2,
    });
    assert.equal(sortkey.json.error, undefined);
    const hex = await get({
      action: 'query',
      list: 'categorymembers',
      cmtitle: 'Категорія:Міста',
      cmstarthexsortkey: 'D09B',
      cmlimit: 2,
      continue: '',
    });
    assert.deepEqual(hex.json.query.categorymembers, [
      { pageid: 107, ns: 0, title: 'Лисичанськ' },
      { pageid: 331, ns: 0, title: 'Луганськ' },
    ]);
  });
  it('clcategories: a value that is not a category is warned about; with none left every category is listed (ApiQueryCategories.php:72-81)', async () => {
    const some = await get({ action: 'query', prop: 'categories', titles: 'Київ', clcategories: 'Київ|Категорія:Столиці|Столиці' });
    assert.equal(
      some.text,
      '{"warnings":{"categories":{"*":"\\"Київ\\" is not a category\\n\\"Столиці\\" is not a category"}},"query":{"pages":{"336":{"pageid":336,"ns":0,"title":"Київ","categories":[{"ns":14,"title":"Категорія:Столиці"}]}}}}',
    );
    const none = await get({ action: 'query', prop: 'categories', titles: 'Київ', clcategories: 'Столиці' });
    assert.deepEqual(none.json.warnings, { categories: { '*': '"Столиці" is not a category' } });
    assert.deepEqual(
      (Object.values(none.json.query.pages)[0] as any).categories.map((c: any) => c.title),
      ['Категорія:Міста', 'Категорія:Обласні центри', 'Категорія:Столиці', 'Категорія:Столиці україни'],
    );
  });
});
