/**
 * Titles on other wikis in the page set (ApiPageSet::processTitlesArray and resolvePendingRedirects of
 * 1.25): `titles=wikipedia:Europe` is listed under query.interwiki (with `url` for iwurl) and is no page;
 * a redirect to another wiki keeps its redirects entry (tointerwiki) and its target joins query.interwiki;
 * the redirect page records the target as an interwiki link (WikitextContent::fillParserOutput's addLink),
 * so prop=iwlinks shows it. The reference MediaWiki (1.39) answers the titles= cases the same way.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dumpXml, page } from '../helpers/dump-pages.js';
import { demoServerForFile, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { importWiki } from '../../src/importer/import.js';
import { TEST_DB, freshPostgresDatabase } from '../helpers/test-db.js';

const demo = demoServerForFile();

describe('interwiki titles in titles=', () => {
  it('query.interwiki lists them with their prefix, normalized as Title writes them; they are no pages', async () => {
    const r = await demo.get({ action: 'query', titles: 'wikipedia:Europe|Київ|Wikipedia:Europe#Hist|MediaWikiWiki:Foo_bar' });
    assert.deepEqual(r.json.query, {
      normalized: [
        { from: 'Wikipedia:Europe#Hist', to: 'wikipedia:Europe' },
        { from: 'MediaWikiWiki:Foo_bar', to: 'mediawikiwiki:Foo bar' },
      ],
      interwiki: [
        { title: 'wikipedia:Europe', iw: 'wikipedia' },
        { title: 'mediawikiwiki:Foo bar', iw: 'mediawikiwiki' },
      ],
      pages: { '336': { pageid: 336, ns: 0, title: 'Київ' } },
    });
  });

  it('iwurl adds the URL; with nothing but interwiki titles there is no pages object', async () => {
    const r = await demo.get({ action: 'query', titles: 'wikipedia:Europe', iwurl: 1, prop: 'info', formatversion: 2 });
    assert.deepEqual(r.json, {
      query: { interwiki: [{ title: 'wikipedia:Europe', iw: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Europe' }] },
    });
  });

  it('a namespace name is no interwiki prefix; a title of another wiki keeps its case', async () => {
    const r = await demo.get({ action: 'query', titles: 'Категорія:Річки|wikipedia:europe', formatversion: 2 });
    assert.deepEqual(r.json.query.interwiki, [{ title: 'wikipedia:europe', iw: 'wikipedia' }]);
    assert.deepEqual(
      r.json.query.pages.map((p: any) => p.title),
      ['Категорія:Річки'],
    );
  });
});

describe('redirects to another wiki', () => {
  let s: DemoServer;
  before(async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-iw-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(
      path.join(dir, 'dump.xml'),
      dumpXml([
        page('Європа', 0, '#REDIRECT [[wikipedia:Europe#History]]'),
        page('Старий континент', 0, '#REDIRECT [[Європа]]'),
        page('Сторінка', 0, 'Текст.'),
        page('Посилання', 0, '[[wikipedia:Europe]] [[wikipedia:Asia]] [[commons:Kyiv]] [[mw:Help:Contents]] [[wikipedia:Africa|Африка]]'),
      ]),
    );
    const db = TEST_DB === 'postgres' ? await freshPostgresDatabase('iw') : path.join(dir, 'wiki.sqlite');
    await importWiki({ dump: path.join(dir, 'dump.xml'), db, messageDirs: [], lang: 'uk', progress: false, log: () => {} });
    s = await startDemoServer({ db });
  });
  after(async () => {
    await s?.close();
  });

  it('redirects= keeps the redirect (tointerwiki, tofragment) and the target joins query.interwiki', async () => {
    const r = await s.get({ action: 'query', titles: 'Старий континент|Сторінка', redirects: 1, iwurl: 1, formatversion: 2 });
    assert.deepEqual(r.json.query.interwiki, [{ title: 'wikipedia:Europe', iw: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Europe' }]);
    assert.deepEqual(r.json.query.redirects, [
      { from: 'Старий континент', to: 'Європа' },
      { from: 'Європа', to: 'wikipedia:Europe', tofragment: 'History', tointerwiki: 'wikipedia' },
    ]);
    assert.deepEqual(
      r.json.query.pages.map((p: any) => p.title),
      ['Сторінка'],
    );
  });

  it("the redirect page's interwiki link is its target (prop=iwlinks); a redirect to it has none", async () => {
    const r = await s.get({ action: 'query', titles: 'Європа', prop: 'iwlinks', iwprop: 'url', formatversion: 2 });
    assert.deepEqual(r.json.query.pages[0].iwlinks, [
      { prefix: 'wikipedia', title: 'Europe', url: 'https://en.wikipedia.org/wiki/Europe' },
    ]);
    const none = await s.get({ action: 'query', titles: 'Старий континент', prop: 'iwlinks', formatversion: 2 });
    assert.equal(none.json.query.pages[0].iwlinks, undefined);
  });

  it('prop=iwlinks: (prefix, title) order, iwprefix/iwtitle, iwdir, iwlimit with continuation, iwurl deprecated', async () => {
    const iw = async (params: Record<string, string | number>) =>
      (await s.get({ action: 'query', titles: 'Посилання', prop: 'iwlinks', continue: '', formatversion: 2, ...params })).json;
    const all = [
      { prefix: 'commons', title: 'Kyiv' },
      { prefix: 'mw', title: 'Help:Contents' },
      { prefix: 'wikipedia', title: 'Africa' },
      { prefix: 'wikipedia', title: 'Asia' },
      { prefix: 'wikipedia', title: 'Europe' },
    ];
    assert.deepEqual((await iw({})).query.pages[0].iwlinks, all);
    assert.deepEqual((await iw({ iwdir: 'descending' })).query.pages[0].iwlinks, [...all].reverse());
    assert.deepEqual((await iw({ iwprefix: 'wikipedia' })).query.pages[0].iwlinks, all.slice(2));
    assert.deepEqual((await iw({ iwprefix: 'wikipedia', iwtitle: 'Asia' })).query.pages[0].iwlinks, [all[3]]);
    const first = await iw({ iwlimit: 2 });
    assert.deepEqual(first.query.pages[0].iwlinks, all.slice(0, 2));
    const pageid = first.query.pages[0].pageid;
    assert.deepEqual(first.continue, { iwcontinue: `${pageid}|wikipedia|Africa`, continue: '||' });
    assert.deepEqual((await iw({ iwlimit: 2, ...first.continue })).query.pages[0].iwlinks, all.slice(2, 4));
    // iwurl is iwprop=url, deprecated (ApiQueryIWLinks.php of 1.25: PARAM_DEPRECATED)
    const url = await iw({ iwurl: 1, iwprefix: 'commons' });
    assert.deepEqual(url.query.pages[0].iwlinks, [{ prefix: 'commons', title: 'Kyiv', url: 'https://commons.wikimedia.org/wiki/Kyiv' }]);
    assert.deepEqual(url.warnings, { iwlinks: { warnings: 'The iwurl parameter has been deprecated.' } });
  });
});
