/**
 * What pywikibot 7.7.3 and mwn read at start-up, and the places where our answers followed 1.25 less
 * closely: action=paraminfo (ApiParamInfo of 1.25), every siprop of meta=siteinfo, Special: titles,
 * formatversion=2 page order, query-page ties, action=expandtemplates.
 * Where MediaWiki 1.39 (the oracle) differs from 1.25, 1.25 wins; the comments say where.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startDemoServer, demoServerForFile } from '../helpers/demo-server.js';
import { InterwikiMap } from '../../src/wiki/interwiki.js';

const s = demoServerForFile();

const param = (m: any, name: string) => m.parameters.find((p: any) => p.name === name);

describe('action=paraminfo', () => {
  it('types the submodule parameters with their module lists, as pywikibot asserts', async () => {
    const r = await s.get({ action: 'paraminfo', modules: 'main|paraminfo|query', formatversion: 2 });
    const [main, paraminfo, query] = r.json.paraminfo.modules;
    const action = param(main, 'action');
    assert.ok(action.type.includes('expandtemplates') && action.type.includes('query'));
    assert.deepEqual(action.type, [...action.type].sort());
    assert.deepEqual(Object.keys(action.submodules), action.type);
    assert.equal(action.submodules.query, 'query');
    // ApiMain::$Formats of 1.25, sorted as ApiParamInfo sorts a submodule parameter's values
    const formats = [
      'dbg',
      'dbgfm',
      'dump',
      'dumpfm',
      'json',
      'jsonfm',
      'none',
      'php',
      'phpfm',
      'rawfm',
      'txt',
      'txtfm',
      'wddx',
      'wddxfm',
      'xml',
      'xmlfm',
      'yaml',
      'yamlfm',
    ];
    assert.deepEqual(param(main, 'format').type, formats);
    assert.deepEqual(param(main, 'format').submodules, Object.fromEntries(formats.map((f) => [f, f])));
    // pywikibot: ParamInfo._init reads the query modules and the batch limit from the deprecated querymodules
    const qm = param(paraminfo, 'querymodules');
    assert.equal(qm.limit, 50);
    assert.equal(qm.deprecated, true);
    const sub = ['prop', 'list', 'meta'].flatMap((k) => param(query, k).type as string[]);
    assert.deepEqual([...qm.type].sort(), [...sub].sort());
    for (const k of ['prop', 'list', 'meta']) {
      const p = param(query, k);
      for (const n of p.type) assert.equal(p.submodules[n], 'query+' + n);
    }
    // ApiPageSet's generator: a submodule parameter whose modules take the g prefix, all of them query modules
    const gen = param(query, 'generator');
    assert.equal(gen.submoduleparamprefix, 'g');
    assert.ok(gen.type.includes('allpages') && !gen.type.includes('siteinfo'));
    assert.ok(gen.type.every((n: string) => sub.includes(n)));
    assert.equal(query.readrights, true);
    assert.deepEqual(query.helpurls, [
      'https://www.mediawiki.org/wiki/API:Query',
      'https://www.mediawiki.org/wiki/API:Meta',
      'https://www.mediawiki.org/wiki/API:Properties',
      'https://www.mediawiki.org/wiki/API:Lists',
    ]);
  });

  it('describes a module exactly as 1.25 does (fv1, helpformat=none: no description, no examples)', async () => {
    const r = await s.get({ action: 'paraminfo', modules: 'query+allcategories' });
    const m = r.json.paraminfo.modules[0];
    assert.equal(r.json.paraminfo.helpformat, 'none');
    // 1.39 says GPL-2.0-or-later and API:… pages under Special:MyLanguage/; 1.25 neither
    const { parameters, licenselink, ...head } = m;
    assert.deepEqual(head, {
      name: 'allcategories',
      classname: 'ApiQueryAllCategories',
      path: 'query+allcategories',
      group: 'list',
      prefix: 'ac',
      source: 'MediaWiki',
      sourcename: 'MediaWiki',
      licensetag: 'GPL-2.0+',
      readrights: '',
      generator: '',
      helpurls: ['https://www.mediawiki.org/wiki/API:Allcategories'],
    });
    assert.equal(
      licenselink,
      `${s.url.replace('/api.php', '')}/index.php/${encodeURIComponent('Спеціальна')}:${encodeURIComponent('Версія')}/License/MediaWiki`,
    );
    assert.deepEqual(param(m, 'limit'), { name: 'limit', default: 10, type: 'limit', max: 500, highmax: 5000, min: 1 });
    assert.deepEqual(param(m, 'prop'), {
      name: 'prop',
      default: '',
      multi: '',
      limit: 50,
      lowlimit: 50,
      highlimit: 500,
      type: ['size', 'hidden'],
    });
    assert.deepEqual(param(m, 'dir'), { name: 'dir', default: 'ascending', type: ['ascending', 'descending'] });
  });

  it('reports false flags as false in formatversion=2', async () => {
    const r = await s.get({ action: 'paraminfo', modules: 'query+siteinfo', formatversion: 2 });
    const numberingroup = param(r.json.paraminfo.modules[0], 'numberingroup');
    assert.deepEqual(numberingroup, { name: 'numberingroup', required: false, default: false, multi: false, type: 'boolean' });
  });

  it('warns about module paths that name no module, as ApiBase::getModuleFromPath', async () => {
    const r = await s.get({ action: 'paraminfo', modules: 'bogus|query+bogus|tokens+x|query+allpages' });
    assert.equal(
      r.json.warnings.paraminfo['*'],
      'The module "main" does not have a submodule "bogus"\nThe module "query" does not have a submodule "bogus"\nThe module "tokens" has no submodules',
    );
    assert.deepEqual(
      r.json.paraminfo.modules.map((m: any) => m.path),
      ['query+allpages'],
    );
  });

  it('keeps the deprecated querymodules, formatmodules, mainmodule and pagesetmodule forms', async () => {
    const r = await s.get({ action: 'paraminfo', querymodules: 'allpages', formatmodules: 'json', mainmodule: 1, pagesetmodule: 1 });
    const pi = r.json.paraminfo;
    assert.deepEqual(Object.keys(pi), ['helpformat', 'querymodules', 'formatmodules', 'mainmodule', 'pagesetmodule']);
    assert.equal(pi.querymodules[0].querytype, 'list');
    assert.equal(pi.formatmodules[0].classname, 'ApiFormatJson');
    assert.equal(pi.formatmodules[0].group, 'format');
    assert.equal(pi.mainmodule.path, 'main');
    assert.equal(pi.pagesetmodule.classname, 'ApiPageSet');
    assert.equal(pi.pagesetmodule.name, undefined);
    // 1.25's ApiPageSet: titles, pageids, revids, generator, redirects, converttitles
    assert.deepEqual(
      pi.pagesetmodule.parameters.map((p: any) => p.name),
      ['titles', 'pageids', 'revids', 'generator', 'redirects', 'converttitles'],
    );
  });

  it('gives descriptions and examples in the help formats', async () => {
    const w = await s.get({ action: 'paraminfo', modules: 'paraminfo', helpformat: 'wikitext' });
    const m = w.json.paraminfo.modules[0];
    assert.equal(m.description, 'Obtain information about API modules.');
    assert.deepEqual(m.examples, [
      {
        query: 'action=paraminfo&modules=parse|phpfm|query+allpages|query+siteinfo',
        description: 'action=paraminfo&modules=parse|phpfm|query+allpages|query+siteinfo',
      },
    ]);
    assert.equal(param(m, 'helpformat').description, 'Format of help strings.');
    const raw = await s.get({ action: 'paraminfo', modules: 'paraminfo', helpformat: 'raw' });
    assert.deepEqual(raw.json.paraminfo.modules[0].description, [{ key: 'apihelp-paraminfo-description', params: [] }]);
  });
});

describe('meta=siteinfo', () => {
  const ALL =
    'general|namespaces|namespacealiases|specialpagealiases|magicwords|interwikimap|dbrepllag|statistics|usergroups|libraries|extensions|fileextensions|rightsinfo|restrictions|languages|skins|extensiontags|functionhooks|showhooks|variables|protocols|defaultoptions';

  it('answers every 1.25 siprop, in the order asked for', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo', siprop: ALL });
    assert.equal(r.json.warnings, undefined);
    assert.deepEqual(Object.keys(r.json.query), ALL.split('|'));
    const rev = await s.get({ action: 'query', meta: 'siteinfo', siprop: 'skins|general' });
    assert.deepEqual(Object.keys(rev.json.query), ['skins', 'general']);
  });

  it('lists the special page aliases with the Ukrainian name first (MessagesUk.php, then ru, then en)', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo', siprop: 'specialpagealiases|magicwords', utf8: 1 });
    const sp = r.json.query.specialpagealiases;
    assert.deepEqual(
      sp.find((p: any) => p.realname === 'Version'),
      { realname: 'Version', aliases: ['Версія', 'Версия', 'Version'] },
    );
    assert.equal(sp[0].realname, 'BrokenRedirects');
    // special pages that came after 1.25 are not there
    assert.equal(
      sp.find((p: any) => p.realname === 'ApiSandbox'),
      undefined,
    );
    const mw = r.json.query.magicwords;
    assert.deepEqual(
      mw.find((m: any) => m.name === 'redirect'),
      { name: 'redirect', aliases: ['#ПЕРЕНАПРАВЛЕННЯ', '#ПЕРЕНАПР', '#перенапр', '#перенаправление', '#REDIRECT'] },
    );
    assert.deepEqual(mw.find((m: any) => m.name === 'img_thumbnail')['case-sensitive'], '');
  });

  it('general: the uk link prefix, BCassoc limits, variantarticlepath kept as false in fv1', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo', utf8: 1 });
    const g = r.json.query.general;
    assert.equal(g.linkprefixcharset, '„«');
    assert.equal(g.linkprefix, '/^((?>.*[^„«]|))(.+)$/sDu');
    assert.equal(g.variantarticlepath, false);
    assert.deepEqual(g.thumblimits, [120, 150, 180, 200, 250, 300]);
    assert.equal(g.rtl, undefined);
    const v2 = await s.get({ action: 'query', meta: 'siteinfo', formatversion: 2 });
    assert.deepEqual(v2.json.query.general.thumblimits, { 0: 120, 1: 150, 2: 180, 3: 200, 4: 250, 5: 300 });
    assert.deepEqual(v2.json.query.general.imagelimits['4'], { width: 1280, height: 1024 });
    assert.equal(v2.json.query.general.rtl, false);
  });

  it('interwikimap: the default list in prefix order, filterable by iw_local', async () => {
    const r = await s.get({ action: 'query', meta: 'siteinfo', siprop: 'interwikimap' });
    const map = r.json.query.interwikimap;
    assert.ok(map.length > 50);
    const prefixes = map.map((e: any) => e.prefix);
    assert.deepEqual(prefixes, [...prefixes].sort());
    assert.deepEqual(
      map.find((e: any) => e.prefix === 'wikipedia'),
      { prefix: 'wikipedia', url: 'https://en.wikipedia.org/wiki/$1', api: 'https://en.wikipedia.org/w/api.php' },
    );
    const local = await s.get({ action: 'query', meta: 'siteinfo', siprop: 'interwikimap', sifilteriw: 'local' });
    assert.deepEqual(local.json.query.interwikimap, []);
    const nonlocal = await s.get({ action: 'query', meta: 'siteinfo', siprop: 'interwikimap', sifilteriw: '!local' });
    assert.equal(nonlocal.json.query.interwikimap.length, map.length);
  });

  it('interwikimap: an operator list (serve --interwiki FILE) replaces the default one', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'wq-iw-')), 'interwiki.json');
    writeFileSync(
      file,
      JSON.stringify([
        { prefix: 'Sister', url: '//sister.example/wiki/$1', local: true, trans: true },
        { prefix: 'other', url: 'https://other.example/$1' },
      ]),
    );
    const own = await startDemoServer({ interwiki: InterwikiMap.fromFile(file) });
    try {
      const r = await own.get({ action: 'query', meta: 'siteinfo', siprop: 'interwikimap', formatversion: 2 });
      assert.deepEqual(r.json.query.interwikimap, [
        { prefix: 'other', url: 'https://other.example/$1', protorel: false },
        { prefix: 'sister', local: true, trans: true, url: 'http://sister.example/wiki/$1', protorel: true },
      ]);
      const local = await own.get({ action: 'query', meta: 'siteinfo', siprop: 'interwikimap', sifilteriw: 'local', formatversion: 2 });
      assert.deepEqual(
        local.json.query.interwikimap.map((e: any) => e.prefix),
        ['sister'],
      );
    } finally {
      await own.close();
    }
  });

  it('defaultoptions keep their booleans in fv1 (META_BC_BOOLS); usergroups count their members', async () => {
    const r = await s.get({
      action: 'query',
      meta: 'siteinfo',
      siprop: 'defaultoptions|usergroups|dbrepllag|extensions',
      sinumberingroup: 1,
    });
    const o = r.json.query.defaultoptions;
    assert.equal(o.searchNs0, true);
    assert.equal(o.searchNs1, false);
    assert.equal(o.skin, 'vector');
    assert.equal(o.language, 'uk');
    assert.equal(o['variant-sr'], 'sr');
    const groups = r.json.query.usergroups;
    assert.deepEqual(
      groups.map((g: any) => g.name),
      ['*', 'user', 'autoconfirmed', 'bot', 'sysop', 'bureaucrat', 'smwadministrator'],
    );
    assert.deepEqual(groups[0], { name: '*', rights: ['read'] });
    const stats = (await s.get({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).json.query.statistics;
    assert.equal(groups[1].number, stats.users);
    assert.equal(groups[2].number, undefined);
    assert.deepEqual(r.json.query.dbrepllag, [{ host: '', lag: 0 }]);
    assert.deepEqual(
      r.json.query.extensions.map((e: any) => [e.name, e.version, e.type]),
      [
        ['Semantic MediaWiki', '2.2', 'semantic'],
        ['Semantic Forms', '3.3', 'semantic'],
      ],
    );
  });

  it('the hooks, tags and variables of the wiki', async () => {
    const r = await s.get({
      action: 'query',
      meta: 'siteinfo',
      siprop: 'extensiontags|functionhooks|variables|showhooks|restrictions|skins',
    });
    const q = r.json.query;
    assert.deepEqual(q.extensiontags.slice(0, 4), ['<pre>', '<nowiki>', '<gallery>', '<indicator>']);
    assert.ok(q.extensiontags.includes('<ref>'));
    for (const f of ['ns', 'if', 'switch', 'ask', 'arraymap']) assert.ok(q.functionhooks.includes(f), f);
    assert.ok(q.variables.includes('currentyear') && !q.variables.includes('numberofviews'));
    assert.deepEqual(q.showhooks, []);
    assert.deepEqual(q.restrictions, {
      types: ['create', 'edit', 'move', 'upload'],
      levels: ['', 'autoconfirmed', 'sysop'],
      cascadinglevels: ['sysop'],
      semiprotectedlevels: ['autoconfirmed'],
    });
    assert.deepEqual(q.skins[0], { code: 'vector', default: '', '*': 'Векторне' });
  });
});

describe('Special: titles (Title::fixSpecialName)', () => {
  it('are normalised to the Ukrainian canonical name; existing special pages are not missing', async () => {
    // same answer as the oracle (1.39)
    const r = await s.get({
      action: 'query',
      titles: 'Special:Version|Special:Nonexistent|Спеціальна:AllPages/Foo|special:allpages',
      utf8: 1,
    });
    assert.equal(
      r.text,
      '{"query":{"normalized":[{"from":"Special:Version","to":"Спеціальна:Версія"},{"from":"Special:Nonexistent","to":"Спеціальна:Nonexistent"},{"from":"Спеціальна:AllPages/Foo","to":"Спеціальна:Усі сторінки/Foo"},{"from":"special:allpages","to":"Спеціальна:Усі сторінки"}],' +
        '"pages":{"-1":{"ns":-1,"title":"Спеціальна:Версія","special":""},"-2":{"ns":-1,"title":"Спеціальна:Nonexistent","special":"","missing":""},"-3":{"ns":-1,"title":"Спеціальна:Усі сторінки/Foo","special":""},"-4":{"ns":-1,"title":"Спеціальна:Усі сторінки","special":""}}}}',
    );
  });
});

describe('formatversion=2 query.pages', () => {
  it('is sorted by page id (ApiResult ksorts the BCarray), missing titles first', async () => {
    const gen = { action: 'query', generator: 'allpages', gapnamespace: 10, gaplimit: 8, continue: '' } as const;
    const v1 = await s.get(gen);
    const v2 = await s.get({ ...gen, formatversion: 2 });
    // JSON.parse would reorder integer keys: read fv1's order from the text
    const ids1 = [...v1.text.matchAll(/"(\d+)":\{"pageid"/g)].map((m) => Number(m[1]));
    assert.equal(ids1.length, 8);
    const ids2 = v2.json.query.pages.map((p: any) => p.pageid);
    // fv1 keeps the generator's (title) order, fv2 sorts
    assert.notDeepEqual(
      ids1,
      [...ids1].sort((a, b) => a - b),
    );
    assert.deepEqual(
      ids2,
      [...ids1].sort((a, b) => a - b),
    );
    const mixed = await s.get({ action: 'query', titles: 'Київ|Nope|Головна сторінка|Special:Version', formatversion: 2 });
    assert.deepEqual(
      mixed.json.query.pages.map((p: any) => p.title),
      ['Nope', 'Спеціальна:Версія', 'Головна сторінка', 'Київ'],
    );
  });
});

describe('query-page ties in MediaWiki index order', () => {
  async function results(page: string): Promise<Array<{ value: string; title: string }>> {
    const r = await s.get({ action: 'query', list: 'querypage', qppage: page, qplimit: 'max', continue: '' });
    return r.json.query.querypage.results;
  }
  async function ids(titles: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (let i = 0; i < titles.length; i += 50) {
      const r = await s.get({ action: 'query', titles: titles.slice(i, i + 50).join('|') });
      for (const p of Object.values(r.json.query.pages) as any[]) out.set(p.title, p.pageid);
    }
    return out;
  }
  function tiesIn(rows: Array<{ value: string; title: string }>, key: (t: string) => number | string, descending: boolean): number {
    let ties = 0;
    for (let i = 1; i < rows.length; i++) {
      if (rows[i].value !== rows[i - 1].value) continue;
      ties++;
      const a = key(rows[i - 1].title);
      const b = key(rows[i].title);
      assert.ok(descending ? a > b : a < b, `${rows[i - 1].title} (${a}) before ${rows[i].title} (${b})`);
    }
    return ties;
  }
  it('Shortpages by page id ascending, Longpages descending', async () => {
    const short = await results('Shortpages');
    const byTitle = await ids(short.map((r) => r.title));
    assert.ok(tiesIn(short, (t) => byTitle.get(t)!, false) > 0);
    const long = await results('Longpages');
    assert.ok(tiesIn(long, (t) => byTitle.get(t)!, true) > 0);
  });
  it('ListDuplicatedFiles by SHA-1 (same order as the oracle)', async () => {
    const rows = await results('ListDuplicatedFiles');
    const r = await s.get({ action: 'query', titles: rows.map((x) => x.title).join('|'), prop: 'imageinfo', iiprop: 'sha1' });
    const sha = new Map<string, string>();
    for (const p of Object.values(r.json.query.pages) as any[]) sha.set(p.title, p.imageinfo[0].sha1);
    assert.ok(tiesIn(rows, (t) => sha.get(t)!, false) > 0);
  });
});

describe('action=expandtemplates', () => {
  it('prop=properties carries the defaultsort {{DEFAULTSORT:}} set (ApiExpandTemplates.php:128-135, Parser.php:6075-6078 of 1.25)', async () => {
    const r = await s.get({ action: 'expandtemplates', text: '{{DEFAULTSORT:Ябко}}x', prop: 'properties|wikitext', utf8: 1 });
    assert.equal(r.text, '{"expandtemplates":{"properties":[{"name":"defaultsort","*":"Ябко"}],"wikitext":"x"}}');
    const none = await s.get({ action: 'expandtemplates', text: 'x', prop: 'properties|wikitext', utf8: 1 });
    assert.equal(none.text, '{"expandtemplates":{"wikitext":"x"}}');
  });
  it('without prop: the legacy format and its warning', async () => {
    const r = await s.get({ action: 'expandtemplates', text: 'a {{Прапор}} {{PAGENAME}}', title: 'Київ', utf8: 1 });
    assert.equal(
      r.text,
      '{"warnings":{"expandtemplates":{"*":"Because no values have been specified for the prop parameter, a legacy format has been used for the output. This format is deprecated, and in the future, a default value will be set for the prop parameter, causing the new format to always be used."}},' +
        '"expandtemplates":{"*":"a [[Файл:Прапор_України.png|20px|link=|Прапор]] Київ"}}',
    );
  });
  it('expands nested templates and parser functions; prop=wikitext; comments removed unless includecomments', async () => {
    const text = '<!-- c -->{{Вік|1990|2000}} {{Див. також|Київ}}';
    const r = await s.get({ action: 'expandtemplates', text, prop: 'wikitext', formatversion: 2 });
    assert.deepEqual(r.json, { expandtemplates: { wikitext: '10 Див. також: [[Київ]]' } });
    const c = await s.get({ action: 'expandtemplates', text, prop: 'wikitext|volatile', includecomments: 1, formatversion: 2 });
    assert.deepEqual(c.json, { expandtemplates: { wikitext: '<!-- c -->10 Див. також: [[Київ]]' } });
  });
  it('variables of the site, the request and the statistics (Parser::getVariableValue)', async () => {
    const stats = (await s.get({ action: 'query', meta: 'siteinfo', siprop: 'statistics' })).json.query.statistics;
    const text =
      '{{SERVER}}|{{server}}|{{SCRIPTPATH}}|{{CURRENTVERSION}}|{{currentversion}}|{{REVISIONID}}|{{NUMBEROFPAGES}}|{{КІЛЬКІСТЬ_СТАТЕЙ}}';
    const server = s.url.replace('/api.php', '');
    const r = await s.get({ action: 'expandtemplates', text, prop: 'wikitext', revid: 5 });
    // CURRENTVERSION is case-sensitive: {{currentversion}} is a (missing) template
    assert.equal(
      r.json.expandtemplates.wikitext,
      `${server}|${server}||1.25.4|[[:Шаблон:Currentversion]]|5|${stats.pages}|${stats.articles}`,
    );
    const norev = await s.get({ action: 'expandtemplates', text: '[{{REVISIONID}}]', prop: 'wikitext' });
    assert.equal(norev.json.expandtemplates.wikitext, '[]');
  });
  it('the default title is API; bad input gives MediaWiki errors', async () => {
    const r = await s.get({ action: 'expandtemplates', text: '{{FULLPAGENAME}}', prop: 'wikitext' });
    assert.equal(r.json.expandtemplates.wikitext, 'API');
    const bad = await s.get({ action: 'expandtemplates', text: 'x', title: 'Bad[title', prop: 'wikitext' });
    assert.deepEqual(bad.json.error.code, 'invalidtitle');
    const none = await s.get({ action: 'expandtemplates' });
    assert.deepEqual([none.json.error.code, none.json.error.info], ['notext', 'The text parameter must be set']);
    const mix = await s.get({ action: 'expandtemplates', text: 'x', prop: 'wikitext', generatexml: 1 });
    assert.equal(mix.json.error.code, 'invalidparammix');
  });
});

describe('prop=categoryinfo', () => {
  it('member counts of the category pages in the page set (pywikibot Category.categoryinfo, preloadpages)', async () => {
    const r = await s.get({ action: 'query', prop: 'categoryinfo', titles: 'Категорія:Україна|Категорія:Немає|Київ', formatversion: 2 });
    const byTitle = new Map(r.json.query.pages.map((p: any) => [p.title, p]));
    assert.deepEqual((byTitle.get('Категорія:Україна') as any).categoryinfo, { size: 4, pages: 1, files: 0, subcats: 3, hidden: false });
    assert.equal((byTitle.get('Категорія:Немає') as any).categoryinfo, undefined);
    assert.equal((byTitle.get('Київ') as any).categoryinfo, undefined);
  });
  it('cicontinue restarts at a category: the two halves join to the whole answer', async () => {
    const titles = 'Категорія:Україна|Категорія:Міста|Категорія:Столиці';
    const info = async (extra: Record<string, string>) => {
      const r = await s.get({ action: 'query', prop: 'categoryinfo', titles, formatversion: 2, ...extra });
      return r.json.query.pages.filter((p: any) => p.categoryinfo).map((p: any) => p.title);
    };
    const all = await info({});
    assert.equal(all.length, 3);
    const tail = await info({ cicontinue: 'Столиці' });
    assert.deepEqual(tail.sort(), ['Категорія:Столиці', 'Категорія:Україна']);
  });
});
