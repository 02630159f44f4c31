/**
 * The XML export (ApiQuery's export/exportnowrap and Special:Export of 1.25: WikiExporter with the current
 * revisions, XmlDumpWriter's schema 0.10) over HTTP on the demo wiki, and the round trip: every page of the
 * demo exported through Special:Export, the export imported by wikiquery's own importer, and the pages'
 * answers of both databases compared. The 1.39 oracle writes schema 0.11 (<origin>, sha1 on <text>, its
 * users "imported>…"): 1.25's Export.php wins.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DemoServer, demoDatabase, demoServerForFile, startDemoServer } from '../helpers/demo-server.js';
import { importWiki } from '../../src/importer/import.js';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';

const s = demoServerForFile();

async function exportText(params: Record<string, string>): Promise<{ status: number; type: string | null; text: string }> {
  const res = await s.get({ action: 'query', export: '', exportnowrap: '', format: 'json', ...params });
  return { status: res.status, type: res.headers.get('content-type'), text: res.text };
}

describe('action=query&export', () => {
  it('writes the current revision of each page as XmlDumpWriter does', async () => {
    const { status, type, text } = await exportText({ titles: 'Kyiv' });
    assert.equal(status, 200);
    assert.equal(type, 'text/xml; charset=utf-8');
    const server = new URL(s.url).origin;
    assert.ok(
      text.startsWith(
        '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ' +
          'xsi:schemaLocation="http://www.mediawiki.org/xml/export-0.10/ http://www.mediawiki.org/xml/export-0.10.xsd" version="0.10" xml:lang="uk">\n' +
          '  <siteinfo>\n    <sitename>Демовікі</sitename>\n    <dbname>demowiki</dbname>\n' +
          `    <base>${server}/index.php/%D0%93%D0%BE%D0%BB%D0%BE%D0%B2%D0%BD%D0%B0_%D1%81%D1%82%D0%BE%D1%80%D1%96%D0%BD%D0%BA%D0%B0</base>\n` +
          '    <generator>MediaWiki 1.25.4</generator>\n    <case>first-letter</case>\n    <namespaces>\n' +
          '      <namespace key="-2" case="first-letter">Медіа</namespace>\n      <namespace key="-1" case="first-letter">Спеціальна</namespace>\n' +
          '      <namespace key="0" case="first-letter" />\n',
      ),
      text.slice(0, 1200),
    );
    const pageXml = text.slice(text.indexOf('  <page>'));
    const rev = (await s.get({ action: 'query', prop: 'revisions', titles: 'Kyiv', rvprop: 'ids|timestamp|user|userid|comment|sha1|size' }))
      .json;
    const r = Object.values<any>(rev.query.pages)[0].revisions[0];
    const sha1 = BigInt('0x' + r.sha1)
      .toString(36)
      .padStart(31, '0');
    assert.equal(
      pageXml,
      '  <page>\n    <title>Kyiv</title>\n    <ns>0</ns>\n    <id>32</id>\n    <redirect title="Київ" />\n    <revision>\n' +
        `      <id>${r.revid}</id>\n      <timestamp>${r.timestamp}</timestamp>\n      <contributor>\n        <username>${r.user}</username>\n` +
        `        <id>${r.userid}</id>\n      </contributor>\n      <comment>${r.comment}</comment>\n      <model>wikitext</model>\n` +
        `      <format>text/x-wiki</format>\n      <text xml:space="preserve" bytes="${r.size}">#REDIRECT [[Київ]]</text>\n` +
        `      <sha1>${sha1}</sha1>\n    </revision>\n  </page>\n</mediawiki>\n`,
    );
  });

  it('escapes attributes as Sanitizer::encodeAttribute (apostrophes too) and texts as htmlspecialchars', async () => {
    const { text } = await exportText({ generator: 'allredirects', garunique: '', garlimit: 'max' });
    assert.ok(!/ title="[^"]*'/.test(text), 'no raw apostrophe in an attribute');
    const kyiv = await exportText({ titles: 'Київ' });
    assert.ok(kyiv.text.includes('&lt;gallery&gt;'), 'the text is escaped');
    assert.ok(kyiv.text.includes("«[[Кров'янка]]»"), 'apostrophes stay as they are in element text');
  });

  it('without exportnowrap: under query.export, {"*": xml} in formatversion 1, a string in 2', async () => {
    const nowrap = (await exportText({ titles: 'Київ|Немає такої' })).text;
    const fv1 = await s.get({ action: 'query', export: '', titles: 'Київ|Немає такої' });
    assert.deepEqual(Object.keys(fv1.json.query), ['pages', 'export']);
    assert.deepEqual(fv1.json.query.export, { '*': nowrap });
    const fv2 = await s.get({ action: 'query', export: '', titles: 'Київ', formatversion: 2 });
    assert.equal(
      fv2.json.query.export,
      nowrap.replace(/\s*<page>[\s\S]*<\/page>\n/, (m) => m),
    );
    // a missing page is not exported; an empty page set gives the stream alone
    assert.equal((nowrap.match(/<page>/g) ?? []).length, 1);
    const empty = (await exportText({ titles: 'Немає такої' })).text;
    assert.ok(empty.endsWith('  </siteinfo>\n</mediawiki>\n'));
  });

  it("an error with exportnowrap is XML, whatever format= says (ApiQuery::getCustomPrinter's ApiFormatRaw falls back on the xml printer)", async () => {
    for (const format of ['json', 'jsonfm', 'php']) {
      const r = await s.get({ action: 'query', export: '', exportnowrap: '', titles: 'Київ', list: 'allpages', apfrom: '<', format });
      assert.equal(r.headers.get('content-type'), 'text/xml; charset=utf-8');
      assert.equal(r.headers.get('mediawiki-api-error'), 'apinvalidtitle');
      assert.equal(
        r.text,
        `<?xml version="1.0"?><api><error code="apinvalidtitle" info="Bad title &quot;&lt;&quot;" xml:space="preserve">See ${s.url} for API usage</error></api>`,
      );
    }
    // an error before the module's printer is chosen is the format= printer's
    const before = await s.get({ action: 'query', export: '', exportnowrap: '', titles: 'Київ', maxlag: '-1', format: 'json' });
    assert.equal(before.json.error.code, 'maxlag');
  });
});

describe('Special:Export', () => {
  it('exports the pages of `pages` (one a line) or of the subpage as application/xml', async () => {
    const base = s.url.replace(/\/api\.php$/, '');
    const bySub = await fetch(`${base}/index.php/${encodeURIComponent('Спеціальна:Експорт/Kyiv')}`);
    assert.equal(bySub.headers.get('content-type'), 'application/xml; charset=utf-8');
    const text = await bySub.text();
    assert.equal(text, (await exportText({ titles: 'Kyiv' })).text);
    const form = await fetch(`${base}/index.php?title=Special:Export`);
    assert.equal(form.headers.get('content-type'), 'text/html; charset=utf-8');
    const byParam = await (
      await fetch(`${base}/index.php?title=Special:Export&pages=${encodeURIComponent('Kyiv\nКиїв\nKyiv\nwikipedia:X')}`)
    ).text();
    assert.deepEqual(
      [...byParam.matchAll(/<title>(.*)<\/title>/g)].map((m) => m[1]),
      ['Kyiv', 'Київ'],
    );
  });
});

describe('the export round trip', () => {
  let dir: string;
  let copy: DemoServer;
  const titles: string[] = [];

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'wikiquery-export-'));
    const nss = (await s.get({ action: 'query', meta: 'siteinfo', siprop: 'namespaces' })).json.query.namespaces;
    for (const ns of Object.keys(nss).filter((n) => Number(n) >= 0)) {
      let cont: Record<string, string> = { continue: '' };
      for (;;) {
        const res = (await s.get({ action: 'query', list: 'allpages', apnamespace: ns, aplimit: 'max', ...cont })).json;
        titles.push(...res.query.allpages.map((p: any) => p.title));
        if (!res.continue) break;
        cont = res.continue;
      }
    }
    // one export per namespace (a generator lists at most 500 pages), joined into one dump
    const parts: string[] = [];
    for (const ns of Object.keys(nss).filter((n) => Number(n) >= 0)) {
      let cont: Record<string, string> = { continue: '' };
      for (;;) {
        const res = await s.get(Object.assign({ generator: 'allpages', gapnamespace: ns, gaplimit: 'max' }, cont, { action: 'query' }));
        const text = (await exportText(Object.assign({ generator: 'allpages', gapnamespace: ns, gaplimit: 'max' }, cont))).text;
        parts.push(text);
        if (!res.json.continue) break;
        cont = res.json.continue;
      }
    }
    const head = parts[0].slice(0, parts[0].indexOf('</siteinfo>\n') + '</siteinfo>\n'.length);
    const body = parts.map((p) => p.slice(p.indexOf('</siteinfo>\n') + '</siteinfo>\n'.length, p.lastIndexOf('</mediawiki>'))).join('');
    const xml = head + body + '</mediawiki>\n';
    assert.equal((xml.match(/<page>/g) ?? []).length, titles.length);
    writeFileSync(join(dir, 'export.xml'), xml);
    const demo = await demoDatabase();
    await importWiki({
      dump: join(dir, 'export.xml'),
      db: join(dir, 'copy.sqlite'),
      filesDir: join(demo.dir, 'demo', 'files'),
      messageDirs: [join(demo.dir, 'demo', 'messages')],
      lang: 'uk',
      hooks: importHooks(),
      inlineQueries: importInlineQueries(),
      progress: false,
      log: () => {},
    });
    copy = await startDemoServer({ db: join(dir, 'copy.sqlite'), filesDir: join(demo.dir, 'demo', 'files') });
  });

  after(async () => {
    await copy?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('exports every page of the demo wiki', () => {
    assert.ok(titles.length > 300, `${titles.length} pages`);
  });

  it('imports back to the same pages, texts, revisions and links', async () => {
    const props = {
      action: 'query',
      prop: 'info|revisions|links|templates|categories|langlinks|extlinks|pageprops',
      rvprop: 'ids|timestamp|flags|comment|user|userid|size|sha1|content|contentmodel',
      pllimit: 'max',
      tllimit: 'max',
      cllimit: 'max',
      lllimit: 'max',
      ellimit: 'max',
      continue: '',
    };
    for (let i = 0; i < titles.length; i += 25) {
      const params = Object.assign({}, props, { titles: titles.slice(i, i + 25).join('|') });
      const [a, b] = await Promise.all([s.get(params), copy.get(params)]);
      // the copy has the current revisions only: each of its pages has one revision, which info calls new
      for (const page of Object.values<any>(b.json.query.pages)) delete page.new;
      for (const page of Object.values<any>(a.json.query.pages)) delete page.new;
      assert.deepEqual(b.json, a.json, titles.slice(i, i + 25).join(', '));
    }
  });

  it('lists the same pages and redirects', async () => {
    const lists: Array<Record<string, string>> = [
      { action: 'query', list: 'allpages', aplimit: 'max', continue: '' },
      { action: 'query', list: 'allredirects', arlimit: 'max', arprop: 'title|ids', continue: '' },
      { action: 'query', list: 'allcategories', aclimit: 'max', acprop: 'size', continue: '' },
    ];
    for (const params of lists) {
      const [a, b] = await Promise.all([s.get(params), copy.get(params)]);
      assert.deepEqual(b.json, a.json);
    }
  });
});
