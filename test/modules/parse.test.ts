/**
 * action=parse and the renderer: a table of wikitext → HTML (test/data/render-cases.json, each case's
 * HTML checked against the oracle MediaWiki where 1.39 and 1.25 agree, with the reason where they do
 * not), a sanitizer table of hostile wikitext that must come out inert, the API's parameters and output
 * shapes (fv1/fv2), errors, limits, the parser cache, and the article path with action=raw.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoServerForFile } from '../helpers/demo-server.js';
import { removeHtmlTags, checkCss, escapeId } from '../../src/wikitext/sanitizer.js';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const cases = JSON.parse(readFileSync(join(ROOT, 'test', 'data', 'render-cases.json'), 'utf8')) as Array<{
  name: string;
  wikitext: string;
  html: string;
}>;
const hostile = JSON.parse(readFileSync(join(ROOT, 'test', 'data', 'hostile-wikitext.json'), 'utf8')) as string[];

const s = demoServerForFile();

const parseText = async (text: string, extra: Record<string, string> = {}) =>
  (
    await s.post({
      action: 'parse',
      text,
      title: 'API',
      prop: 'text',
      disablelimitreport: '1',
      format: 'json',
      formatversion: '2',
      ...extra,
    })
  ).json;

describe('renderer: wikitext → HTML as MediaWiki 1.25', () => {
  assert.ok(cases.length >= 40);
  for (const c of cases) {
    it(c.name, async () => {
      const r = await parseText(c.wikitext);
      assert.equal(r.parse.text, c.html);
    });
  }
});

describe('sanitizer: hostile wikitext comes out inert', () => {
  assert.ok(hostile.length >= 50);
  // every tag of the output, and whether any carries script
  const inert = (html: string) => {
    const problems: string[] = [];
    for (const m of html.matchAll(/<([a-zA-Z][\w:-]*)([^>]*)>/g)) {
      const [tag, name, attrs] = m;
      if (/^(script|iframe|object|embed|svg|style|link|meta|form|input|base|body|math)$/i.test(name)) problems.push(`element ${tag}`);
      // attributes as a browser reads them: name="value" pairs (a quote inside a value is &quot;)
      const rest = attrs.replace(/\s([\w:-]+)="([^"]*)"/g, '').replace(/\s*\/?$/, '');
      if (rest.trim() !== '') problems.push(`unquoted attribute text ${tag}`);
      for (const a of attrs.matchAll(/\s([\w:-]+)="([^"]*)"/g)) {
        const value = a[2].replace(/&#(\d+);/g, (_x, d: string) => String.fromCharCode(Number(d))).replace(/&amp;/g, '&');
        if (/^on/i.test(a[1])) problems.push(`event handler ${tag}`);
        if (
          /^(href|src|action|formaction|data|background|xlink:href|content|poster|lowsrc|dynsrc)$/i.test(a[1]) &&
          /^\s*(javascript|vbscript|data):/i.test(value)
        )
          problems.push(`script URL ${tag}`);
        if (a[1] === 'style' && /(expression|url\s*\(|image\s*\(|behavior|binding)/i.test(value)) problems.push(`style ${tag}`);
        if ((a[1] === 'href' || a[1] === 'src') && !/^(\/index\.php|\/images\/|#|https?:\/\/)/.test(value))
          problems.push(`link target ${tag}`);
      }
    }
    return problems;
  };
  hostile.forEach((input, i) => {
    it(`#${i + 1} ${input.slice(0, 60).replace(/\n/g, '⏎')}`, async () => {
      const r = await parseText(input);
      assert.equal(r.error, undefined);
      assert.deepEqual(inert(r.parse.text), [], r.parse.text);
    });
  });

  it('checkCss replaces anything that can load or run with a comment', () => {
    assert.equal(checkCss('color: red'), 'color: red');
    assert.equal(checkCss('width: &#101;xpression(1)'), '/* insecure input */');
    // a comment becomes a space (as in 1.25): "ex pression" is no expression any more
    assert.equal(checkCss('width: ex/**/pression(1)'), 'width: ex pression(1)');
    assert.equal(checkCss('background: \\75 rl(x)'), '/* insecure input */');
  });

  it('removeHtmlTags escapes unknown tags and balances known ones', () => {
    assert.equal(removeHtmlTags('<foo>x</foo> <b>y'), '&lt;foo&gt;x&lt;/foo&gt; <b>y</b>');
    assert.equal(removeHtmlTags('</i>x'), '&lt;/i&gt;x');
  });

  it('escapeId gives the legacy ids of 1.25', () => {
    assert.equal(escapeId('Історія', true), '.D0.86.D1.81.D1.82.D0.BE.D1.80.D1.96.D1.8F');
    assert.equal(escapeId('a b:c', true), 'a_b:c');
  });
});

describe('action=parse', () => {
  it('page=: output keys in ApiParse order (fv1), links/templates/images/categories/sections', async () => {
    const r = (await s.get({ action: 'parse', page: 'Київ', format: 'json' })).json;
    const p = r.parse;
    assert.deepEqual(Object.keys(p), [
      'title',
      'pageid',
      'revid',
      'text',
      'langlinks',
      'categories',
      'links',
      'templates',
      'images',
      'externallinks',
      'sections',
      'displaytitle',
      'iwlinks',
      'properties',
    ]);
    assert.equal(p.title, 'Київ');
    assert.equal(typeof p.text['*'], 'string');
    assert.match(p.text['*'], /<!-- \nNewPP limit report\n/);
    assert.deepEqual(Object.keys(p.links[0]), ['ns', 'exists', '*']);
    assert.ok(p.links.some((l: { '*': string }) => l['*'] === 'Київська область'));
    assert.deepEqual(p.templates[0], { ns: 10, exists: '', '*': 'Шаблон:Місто' });
    assert.ok(p.images.includes('Прапор_України.png'));
    assert.deepEqual(p.sections[0], {
      toclevel: 1,
      level: '2',
      line: 'Історія',
      number: '1',
      index: '1',
      fromtitle: 'Київ',
      byteoffset: p.sections[0].byteoffset,
      anchor: '.D0.86.D1.81.D1.82.D0.BE.D1.80.D1.96.D1.8F',
    });
    assert.equal(typeof p.sections[0].byteoffset, 'number');
    assert.equal(p.displaytitle, 'Київ');
  });

  it('fv2: plain text string, booleans, content keys named', async () => {
    const p = (
      await s.get({
        action: 'parse',
        page: 'Київ',
        format: 'json',
        formatversion: '2',
        prop: 'text|links|categories',
        disablelimitreport: '1',
      })
    ).json.parse;
    assert.equal(typeof p.text, 'string');
    assert.doesNotMatch(p.text, /NewPP/);
    assert.deepEqual(Object.keys(p.links[0]), ['ns', 'title', 'exists']);
    assert.equal(p.links.find((l: { title: string }) => l.title === 'Київська область').exists, true);
    assert.deepEqual(Object.keys(p.categories[0]).slice(0, 2), ['sortkey', 'category']);
  });

  it('links to missing pages are red links and exists is absent (fv1)', async () => {
    const p = (await s.get({ action: 'parse', text: '[[Нема такої]] [[Київ]]', title: 'Тест', prop: 'links', format: 'json' })).json.parse;
    assert.deepEqual(p.links, [
      { ns: 0, exists: '', '*': 'Київ' },
      { ns: 0, '*': 'Нема такої' },
    ]);
  });

  it('prop=revisions&rvparse gives the rendered content (the same renderer, no limit report)', async () => {
    const r = (
      await s.get({
        action: 'query',
        prop: 'revisions',
        rvprop: 'content',
        rvparse: '1',
        titles: 'Київ',
        format: 'json',
        formatversion: '2',
      })
    ).json;
    const p = (await s.get({ action: 'parse', page: 'Київ', prop: 'text', disablelimitreport: '1', format: 'json', formatversion: '2' }))
      .json.parse;
    assert.equal(r.query.pages[0].revisions[0].content, p.text);
  });

  it('oldid= renders that revision as its page; an unknown one is missingrev', async () => {
    const q = (
      await s.get({
        action: 'query',
        prop: 'revisions',
        rvprop: 'ids|content',
        rvlimit: '2',
        rvdir: 'newer',
        titles: 'Київ',
        format: 'json',
        formatversion: '2',
      })
    ).json;
    const first = q.query.pages[0].revisions[0];
    const p = (
      await s.get({
        action: 'parse',
        oldid: String(first.revid),
        prop: 'text|revid|wikitext',
        disablelimitreport: '1',
        format: 'json',
        formatversion: '2',
      })
    ).json.parse;
    assert.equal(p.title, 'Київ');
    assert.equal(p.revid, first.revid);
    assert.equal(p.wikitext, first.content);
    const t = (
      await s.post({
        action: 'parse',
        title: 'Київ',
        text: first.content,
        prop: 'text',
        disablelimitreport: '1',
        format: 'json',
        formatversion: '2',
      })
    ).json.parse;
    assert.equal(p.text, t.text);
    assert.equal((await s.get({ action: 'parse', oldid: '99999999', format: 'json' })).json.error.code, 'missingrev');
  });

  it('categories: hidden ones flagged, missing ones flagged, tracking categories (hidden-category-category, broken-file-category)', async () => {
    const page = (await s.get({ action: 'parse', page: 'Petro Smith', prop: 'categories', format: 'json', formatversion: '2' })).json.parse;
    assert.ok(page.categories.some((c: { category: string; hidden?: boolean }) => c.category === 'Статті_без_джерел' && c.hidden === true));
    const cat = (
      await s.get({ action: 'parse', page: 'Категорія:Статті без джерел', prop: 'categories', format: 'json', formatversion: '2' })
    ).json.parse;
    assert.deepEqual(cat.categories, [
      { sortkey: '', category: 'Приховані_категорії', missing: true },
      { sortkey: '', category: 'Службові_категорії' },
    ]);
    const broken = (
      await s.post({
        action: 'parse',
        title: 'API',
        text: '[[Файл:Нема такого.png]]',
        prop: 'categories|images',
        format: 'json',
        formatversion: '2',
      })
    ).json.parse;
    assert.deepEqual(broken.images, ['Нема_такого.png']);
    assert.deepEqual(
      broken.categories.map((c: { category: string }) => c.category),
      ['Сторінки,_що_посилаються_на_неіснуючі_файли'],
    );
  });

  it("iwlinks: prefix, the other wiki's URL from the interwiki map, the prefixed title", async () => {
    const p = (await s.get({ action: 'parse', text: '[[wikipedia:Kyiv]]', title: 'Тест', prop: 'iwlinks', format: 'json' })).json.parse;
    assert.deepEqual(p.iwlinks, [{ prefix: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Kyiv', '*': 'wikipedia:Kyiv' }]);
  });

  it('section=N renders one section; a missing one is nosuchsection', async () => {
    const r = (
      await s.get({
        action: 'parse',
        page: 'Київ',
        section: '1',
        prop: 'text|sections',
        format: 'json',
        formatversion: '2',
        disablelimitreport: '1',
      })
    ).json;
    assert.match(r.parse.text, /^<h2><span class="mw-headline"/);
    const e = (await s.get({ action: 'parse', page: 'Київ', section: '99', format: 'json' })).json;
    assert.equal(e.error.code, 'nosuchsection');
  });

  it('sections are cut where the preprocessor numbers headings (Parser::extractSections); T-N in the transclusion view', async () => {
    const text =
      'вступ\n\n== A ==\na\n=== A1 ===\na1\n== B ==\n{{x|\n== in ==\n}}\nb\n<includeonly>\n== I ==\n</includeonly>\n== C ==\nc  \n';
    const get = async (section: string) => {
      const r = await parse2({ action: 'parse', title: 'Тест', text, section, prop: 'wikitext' });
      return r.error ? r.error.code : r.parse.wikitext;
    };
    assert.equal(await get('0'), 'вступ');
    assert.equal(await get('1'), '== A ==\na\n=== A1 ===\na1');
    assert.equal(await get('3'), '== B ==\n{{x|\n== in ==\n}}\nb\n<includeonly>\n== I ==\n</includeonly>');
    // 4 is the heading inside the template argument: counted, never a section of its own
    assert.equal(await get('4'), 'nosuchsection');
    assert.equal(await get('5'), '== C ==\nc');
    // the transclusion view sees the <includeonly> heading (5 there) and C (6)
    assert.equal(await get('T-5'), '== I ==\n</includeonly>');
    assert.equal(await get('T-6'), '== C ==\nc');
    assert.equal(await get('X-1'), 'invalidsection');
  });

  it('disableeditsection, disabletoc, redirects', async () => {
    const text = '==a==\n==b==\n==c==\n==d==';
    const plain = (await parseText(text, { disableeditsection: '1', disabletoc: '1' })).parse.text;
    assert.doesNotMatch(plain, /mw-editsection|id="toc"/);
    const r = (await s.get({ action: 'parse', page: 'Історія Києва', redirects: '1', prop: 'displaytitle', format: 'json' })).json.parse;
    assert.equal(r.title, 'Київ');
    assert.deepEqual(r.redirects, [{ from: 'Історія Києва', to: 'Київ' }]);
  });

  it('errors: missingtitle, nosuchpageid, invalidtitle, params, invalidparammix', async () => {
    const code = async (p: Record<string, string>) => (await s.get({ action: 'parse', format: 'json', ...p })).json.error?.code;
    assert.equal(await code({ page: 'Нема такої сторінки' }), 'missingtitle');
    assert.equal(await code({ pageid: '999999' }), 'nosuchpageid');
    assert.equal(await code({ page: 'A[b]' }), 'invalidtitle');
    assert.equal(await code({ page: 'Київ', text: 'x' }), 'params');
    assert.equal(await code({ page: 'Київ', pageid: '1' }), 'invalidparammix');
    assert.equal(await code({ title: 'Київ' }), 'params');
  });

  it('onlypst applies the pipe trick and trims; the original text only with prop=wikitext (ApiParse 1.25)', async () => {
    const r = (
      await s.get({ action: 'parse', text: '[[Дніпро (річка)|]]  \n', onlypst: '1', prop: 'wikitext', format: 'json', formatversion: '2' })
    ).json;
    assert.deepEqual(r.parse, { text: '[[Дніпро (річка)|Дніпро]]', wikitext: '[[Дніпро (річка)|]]  \n' });
    const bare = (await s.get({ action: 'parse', text: '[[Дніпро (річка)|]]', onlypst: '1', format: 'json', formatversion: '2' })).json;
    assert.deepEqual(bare.parse, { text: '[[Дніпро (річка)|Дніпро]]' });
  });

  it('an expansion that blows up stops at the limits with a warning, never hangs', async () => {
    // a template calling itself with a growing argument: loop detection and the node/size limits stop it
    const bomb = '{{#if:x|' + '{{#if:x|{{{1|a}}}{{{1|a}}}}}'.repeat(2000) + '}}';
    const r = (await s.post({ action: 'parse', text: bomb + '\n' + '{{'.repeat(5000), title: 'API', format: 'json', formatversion: '2' }))
      .json;
    assert.equal(r.error, undefined);
    assert.equal(typeof r.parse.text, 'string');
  });

  it('long pages of unclosed constructs are scanned once (no rescanning from every "[" or link)', async () => {
    // each of these was quadratic in an earlier version: unclosed "[http://…", "[[" runs, many links after «
    const r = (
      await s.post({
        action: 'parse',
        title: 'API',
        text: '[http://x.org/'.repeat(20000) + '\n' + '[['.repeat(50000) + '\n' + '«[[Київ]]» '.repeat(5000),
        prop: 'links|externallinks',
        format: 'json',
        formatversion: '2',
      })
    ).json;
    assert.equal(r.error, undefined);
    assert.deepEqual(r.parse.links, [{ ns: 0, title: 'Київ', exists: true }]);
    // no bracketed link closes; the URLs are free links (one, listed once)
    assert.deepEqual(r.parse.externallinks, ['http://x.org/']);
  });

  it('the limit report of 1.25: English comment, transclusion time report, limitreportdata as name/0/1, the preview table; disablepp drops it', async () => {
    const q = {
      action: 'parse',
      page: 'Київ',
      format: 'json',
      formatversion: '2',
      utf8: '1',
      prop: 'text|limitreportdata|limitreporthtml',
      uselang: 'en',
    };
    const raw = (await s.get(q)).text;
    const p = JSON.parse(raw).parse;
    const m =
      /\n<!-- \nNewPP limit report\n([^]*?)-->\n\n<!-- \nTransclusion expansion time report \(%,ms,calls,template\)\n([^]*?)\n-->\n$/.exec(
        p.text,
      );
    assert.ok(m, p.text.slice(-800));
    const lines = m[1].split('\n').filter(Boolean);
    assert.deepEqual(
      lines.map((l) => l.replace(/: .*/, '')),
      [
        'CPU time usage',
        'Real time usage',
        'Preprocessor visited node count',
        'Preprocessor generated node count',
        'Post\u2010expand include size',
        'Template argument size',
        'Highest expansion depth',
        'Expensive parser function count',
      ],
    );
    assert.match(lines[0], /^CPU time usage: \d+\.\d{3} seconds?$/);
    assert.match(lines[4], /^Post\u2010expand include size: \d+\/2097152 bytes$/);
    assert.match(lines[6], /^Highest expansion depth: \d+\/40$/);
    const rows = m[2].split('\n');
    assert.match(rows[0], /^100\.00% +\d+\.\d{3} +1 - -total$/);
    assert.ok(
      rows.some((r) => /^ *\d+\.\d\d% +\d+\.\d{3} +1 - Шаблон:Місто$/.test(r)),
      rows.join('\n'),
    );
    // ApiParse::formatLimitReportData: the name first, then the value's elements
    assert.match(raw, /"limitreportdata":\[\{"name":"limitreport-cputime","0":"\d+\.\d{3}"\},/);
    const depth = p.limitreportdata.find((d: { name: string }) => d.name === 'limitreport-expansiondepth');
    assert.deepEqual(Object.keys(depth), ['0', '1', 'name']);
    assert.equal(depth[1], 40);
    assert.ok(depth[0] >= 2, JSON.stringify(depth));
    assert.match(
      p.limitreporthtml,
      /^<div class="mw-limitReportExplanation"><p>Parser profiling data:\n<\/p><\/div><div class="preview-limit-report-wrapper"><table class="preview-limit-report wikitable"><tbody><tr><th>CPU time usage<\/th><td>\d+\.\d{3} seconds?<\/td><\/tr>/,
    );
    assert.match(p.limitreporthtml, /<tr><th>Post-expand include size<\/th><td>\d+\/2097152 bytes<\/td><\/tr>/);
    const off = (await s.get({ ...q, disablepp: '1' })).json.parse;
    assert.deepEqual([off.limitreportdata, off.limitreporthtml], [[], '']);
    assert.doesNotMatch(off.text, /NewPP|Transclusion expansion/);
  });

  it('{{#ifexist:}} counts as an expensive function once per title', async () => {
    const p = (
      await s.post({
        action: 'parse',
        title: 'API',
        text: '{{#ifexist:Київ|a}}{{#ifexist:Київ|b}}{{#ifexist:Нема|c}}',
        prop: 'limitreportdata',
        format: 'json',
        formatversion: '2',
      })
    ).json.parse;
    assert.deepEqual(
      p.limitreportdata.find((d: { name: string }) => d.name === 'limitreport-expensivefunctioncount'),
      { name: 'limitreport-expensivefunctioncount', 0: 2, 1: 100 },
    );
  });

  it('the parser cache answers a repeated page from the same render', async () => {
    const a = (await s.get({ action: 'parse', page: 'Львів', format: 'json', formatversion: '2', prop: 'text|limitreportdata' })).json
      .parse;
    const b = (await s.get({ action: 'parse', page: 'Львів', format: 'json', formatversion: '2', prop: 'text|limitreportdata', utf8: '1' }))
      .json.parse;
    // a second render would have measured its own times; the cached output repeats the first
    assert.deepEqual(b.limitreportdata, a.limitreportdata);
    assert.equal(b.text, a.text);
  });
});

describe('the article path and action=raw', () => {
  it('/index.php/Title serves a Ukrainian HTML page of the rendered article', async () => {
    const r = await fetch(`${s.url.replace('/api.php', '')}/index.php/${encodeURIComponent('Київ')}`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /text\/html/);
    const html = await r.text();
    assert.match(html, /<html lang="uk"/);
    assert.match(html, /<h1 id="firstHeading">Київ<\/h1>/);
    assert.match(
      html,
      /<a href="\/index\.php\/%D0%9A%D0%B8%D1%97%D0%B2%D1%81%D1%8C%D0%BA%D0%B0_%D0%BE%D0%B1%D0%BB%D0%B0%D1%81%D1%82%D1%8C" title="Київська область">/,
    );
    assert.match(html, /id="catlinks"/);
    assert.match(html, /action=parse&amp;page=/);
  });

  it('/index.php?title= and a missing page (404)', async () => {
    const base = s.url.replace('/api.php', '');
    const ok = await fetch(`${base}/index.php?title=${encodeURIComponent('Львів')}`);
    assert.equal(ok.status, 200);
    assert.match(await ok.text(), /<h1 id="firstHeading">Львів<\/h1>/);
    const missing = await fetch(`${base}/index.php/${encodeURIComponent('Нема такої')}`);
    assert.equal(missing.status, 404);
    assert.match(await missing.text(), /Такої сторінки не існує/);
  });

  it('a redirect is followed, with a note', async () => {
    const r = await fetch(`${s.url.replace('/api.php', '')}/index.php/${encodeURIComponent('Історія Києва')}`);
    const html = await r.text();
    assert.match(html, /<h1 id="firstHeading">Київ<\/h1>/);
    assert.match(html, /Перенаправлено з/);
  });

  it('action=raw returns the wikitext (text/x-wiki), 404 for a missing page', async () => {
    const base = s.url.replace('/api.php', '');
    const r = await fetch(`${base}/index.php?title=${encodeURIComponent('Київ')}&action=raw`);
    assert.equal(r.status, 200);
    assert.match(r.headers.get('content-type') ?? '', /^text\/x-wiki/);
    const text = await r.text();
    const api = (await s.get({ action: 'query', prop: 'revisions', rvprop: 'content', titles: 'Київ', format: 'json', formatversion: '2' }))
      .json;
    assert.equal(text, api.query.pages[0].revisions[0].content);
    const missing = await fetch(`${base}/index.php?title=${encodeURIComponent('Нема такої')}&action=raw`);
    assert.equal(missing.status, 404);
  });
});

const parse2 = async (params: Record<string, string>) =>
  (await s.post({ format: 'json', formatversion: '2', disablelimitreport: '1', ...params })).json;

describe('DISPLAYTITLE (CoreParserFunctions::displaytitle of 1.25, $wgRestrictDisplayTitle)', () => {
  it('an equivalent title applies: displaytitle and the displaytitle property carry its HTML', async () => {
    const r = await parse2({ action: 'parse', title: 'Тест', text: "{{DISPLAYTITLE:''тест''}}", prop: 'displaytitle|properties|text' });
    assert.equal(r.parse.displaytitle, '<i>тест</i>');
    assert.deepEqual(r.parse.properties, [{ name: 'displaytitle', value: '<i>тест</i>' }]);
    assert.equal(r.parse.text, '');
  });

  it('another title is refused: the page title stays and the page is tracked in restricted-displaytitle-ignored', async () => {
    const r = await parse2({ action: 'parse', title: 'Тест', text: '{{DISPLAYTITLE:Інше}}', prop: 'displaytitle|properties|categories' });
    assert.equal(r.parse.displaytitle, 'Тест');
    assert.deepEqual(r.parse.properties, []);
    assert.deepEqual(
      r.parse.categories.map((c: { category: string }) => c.category),
      ['Сторінки,_де_ігноруються_відображувані_назви'],
    );
  });

  it('a second different one replaces the first with the duplicate-displaytitle warning; noreplace keeps, noerror silences', async () => {
    const dup = await parse2({
      action: 'parse',
      title: 'Тест',
      text: '{{DISPLAYTITLE:тест}}{{DISPLAYTITLE:<b>Тест</b>}}',
      prop: 'displaytitle|text',
    });
    assert.equal(dup.parse.displaytitle, '<b>Тест</b>');
    // the titles go into the message escaped (wfEscapeWikiText), so they show as text
    assert.match(
      dup.parse.text,
      /^<p><span class="error"><strong>Увага:<\/strong> .*"&#60;b&#62;Тест&#60;\/b&#62;".*"тест"\.<\/span>\n<\/p>$/,
    );
    const keep = await parse2({
      action: 'parse',
      title: 'Тест',
      text: '{{DISPLAYTITLE:тест}}{{DISPLAYTITLE:ТЕСТ|noreplace}}',
      prop: 'displaytitle|text',
    });
    assert.deepEqual([keep.parse.displaytitle, keep.parse.text], ['тест', '']);
    const quiet = await parse2({
      action: 'parse',
      title: 'Тест',
      text: '{{DISPLAYTITLE:тест}}{{DISPLAYTITLE:Тест|noerror}}',
      prop: 'displaytitle|text',
    });
    assert.deepEqual([quiet.parse.displaytitle, quiet.parse.text], ['Тест', '']);
  });

  it('block tags are escaped, event handlers dropped, styles that hide text neutralised', async () => {
    const r = await parse2({
      action: 'parse',
      title: 'Тест',
      text: '{{DISPLAYTITLE:<span style="display:none" onmouseover="alert(1)">Тест</span>}}',
      prop: 'displaytitle',
    });
    // 1.25 validates the replaced style again (checkCss drops the comment: " "); 1.39 keeps
    // "/* attempt to bypass $wgRestrictDisplayTitle */" because it checks attributes before the callback
    assert.equal(r.parse.displaytitle, '<span style=" ">Тест</span>');
    const div = await parse2({ action: 'parse', title: 'Тест', text: '{{DISPLAYTITLE:<div>Тест</div>}}', prop: 'displaytitle|categories' });
    // escaped <div> makes it a different title ("<div>Тест</div>" is no title): refused
    assert.equal(div.parse.displaytitle, 'Тест');
    assert.equal(div.parse.categories.length, 1);
  });
});

describe('DISPLAYTITLE of a demo page (IPhone: {{DISPLAYTITLE:iPhone}})', () => {
  it('action=parse prop=displaytitle and the displaytitle property', async () => {
    const r = (await s.get({ action: 'parse', page: 'IPhone', prop: 'displaytitle|properties', formatversion: 2 })).json;
    assert.equal(r.parse.displaytitle, 'iPhone');
    assert.deepEqual(r.parse.properties, [{ name: 'displaytitle', value: 'iPhone' }]);
    // fv1 too; a page without one gives its prefixed title
    assert.equal((await s.get({ action: 'parse', page: 'IPhone', prop: 'displaytitle' })).json.parse.displaytitle, 'iPhone');
    assert.equal((await s.get({ action: 'parse', page: 'Linux', prop: 'displaytitle' })).json.parse.displaytitle, 'Linux');
  });

  it('prop=info inprop=displaytitle reads the page property the import stored', async () => {
    const r = (await s.get({ action: 'query', titles: 'IPhone|Linux', prop: 'info', inprop: 'displaytitle', formatversion: 2 })).json;
    assert.deepEqual(Object.fromEntries(r.query.pages.map((p: { title: string; displaytitle: string }) => [p.title, p.displaytitle])), {
      IPhone: 'iPhone',
      Linux: 'Linux',
    });
  });

  it("the article path shows it as the heading; headhtml's <title> does not", async () => {
    const html = await (await fetch(`${s.url.replace('/api.php', '')}/index.php/IPhone`)).text();
    assert.match(html, /<h1 id="firstHeading">iPhone<\/h1>/);
    // headhtml's <title> has no page title in 1.25's API (see prop=headhtml below)
    const head = (await s.get({ action: 'parse', page: 'IPhone', prop: 'headhtml', formatversion: 2 })).json.parse.headhtml;
    assert.match(head, /<title> — Демовікі<\/title>/);
  });
});

describe('page status indicators (CoreTagHooks::indicator, ParserOutput::setIndicator of 1.25)', () => {
  const text = [
    'Текст.',
    '<indicator name="zeta">[[Київ]] і {{PAGENAME}}</indicator>',
    "<indicator name=\"alpha\">''один''</indicator>",
    '<indicator name="zeta">друге</indicator>',
  ].join('\n');

  it('fv2: an object by name in the order set (a name set again keeps its place); the tags leave nothing in the text', async () => {
    const r = await parse2({ action: 'parse', title: 'Тест', text, prop: 'indicators|text|links' });
    assert.deepEqual(Object.entries(r.parse.indicators), [
      ['zeta', 'друге'],
      ['alpha', '<i>один</i>'],
    ]);
    assert.doesNotMatch(r.parse.text, /indicator|один|друге/);
    // the links of every indicator parsed count as the page's (ParserOutput is shared), the replaced one's too
    assert.deepEqual(r.parse.links, [{ ns: 0, title: 'Київ', exists: true }]);
  });

  it('fv1: a list of {name, *}; content is parsed with templates in the frame, one paragraph unwrapped, several kept', async () => {
    const one = (
      await s.post({
        action: 'parse',
        title: 'Тест',
        text: '<indicator name="x">[[Київ]] і {{PAGENAME}}</indicator>',
        prop: 'indicators',
        format: 'json',
      })
    ).json;
    assert.deepEqual(one.parse.indicators, [
      { name: 'x', '*': '<a href="/index.php/%D0%9A%D0%B8%D1%97%D0%B2" title="Київ">Київ</a> і Тест' },
    ]);
    const two = await parse2({ action: 'parse', title: 'Тест', text: '<indicator name="x">один\n\nдва</indicator>', prop: 'indicators' });
    assert.deepEqual(two.parse.indicators, { x: '<p>один\n</p><p>два\n</p>' });
    const none = await parse2({ action: 'parse', title: 'Тест', text: 'Нема.', prop: 'indicators' });
    assert.deepEqual(none.parse.indicators, {});
    assert.deepEqual(
      (await s.post({ action: 'parse', title: 'Тест', text: 'Нема.', prop: 'indicators', format: 'json' })).json.parse.indicators,
      [],
    );
  });

  it('an indicator inside a parser function: its content expanded in that frame', async () => {
    const r = await parse2({
      action: 'parse',
      title: 'Тест',
      text: '{{#if:1|<indicator name="i">{{uc:так}}</indicator>}}',
      prop: 'indicators',
    });
    assert.deepEqual(r.parse.indicators, { i: 'ТАК' });
  });

  it('without a name: the invalid-indicator-name error in place of the tag', async () => {
    for (const t of ['<indicator>x</indicator>', '<indicator name=" ">x</indicator>']) {
      const r = await parse2({ action: 'parse', title: 'Тест', text: t, prop: 'indicators|text' });
      assert.deepEqual(r.parse.indicators, {});
      assert.match(r.parse.text, /^<p><span class="error">.*<code>name<\/code>.*<\/span>\n<\/p>$/);
    }
  });

  it('the error text is the invalid-indicator-name message of the content language, looked up like any other', async () => {
    // the demo's uk catalog has no text (nor ru): the lookup falls back to en.json's
    const r = await parse2({ action: 'parse', title: 'Тест', text: '<indicator>x</indicator>', prop: 'text', uselang: 'de' });
    assert.equal(
      r.parse.text,
      '<p><span class="error">Error: Page status indicators\' <code>name</code> attribute must not be empty.</span>\n</p>',
    );
  });

  it('hostile content comes out sanitised', async () => {
    const r = await parse2({
      action: 'parse',
      title: 'Тест',
      text: '<indicator name="x"><script>alert(1)</script><span onclick="x()">a</span>[javascript:alert(1) b]</indicator>',
      prop: 'indicators',
    });
    assert.doesNotMatch(r.parse.indicators.x, /<script|onclick|href="javascript/);
  });

  it('the demo page IPhone: in the API in the order set, on the article page sorted by name before the heading', async () => {
    const r = (await s.get({ action: 'parse', page: 'IPhone', prop: 'indicators|text', formatversion: 2 })).json;
    assert.deepEqual(Object.keys(r.parse.indicators), ['logo', 'a-mark']);
    assert.equal(r.parse.indicators['a-mark'], '★');
    assert.match(r.parse.indicators.logo, /^<img alt="IPhone.png" src="\/images\/[^"]+IPhone.png" width="20" height="\d+" \/>$/);
    assert.doesNotMatch(r.parse.text, /★/);
    const html = await (await fetch(`${s.url.replace('/api.php', '')}/index.php/IPhone`)).text();
    assert.match(
      html,
      /<div class="mw-indicators">\n<div id="mw-indicator-a-mark" class="mw-indicator">★<\/div>\n<div id="mw-indicator-logo" class="mw-indicator"><img [^>]+><\/div>\n<\/div>\n<h1 id="firstHeading">iPhone<\/h1>/,
    );
  });
});

describe('prop=headhtml (OutputPage::headElement of 1.25, without ResourceLoader)', () => {
  it('doctype, html with the user language, head with charset, title and generator, the body with the skin classes', async () => {
    const r = (await s.get({ action: 'parse', page: 'Київ', prop: 'headhtml', formatversion: 2 })).json;
    assert.equal(
      r.parse.headhtml,
      '<!DOCTYPE html>\n<html lang="uk" dir="ltr" class="client-nojs">\n<head>\n<meta charset="UTF-8" />\n<title> — Демовікі</title>\n' +
        '<meta name="generator" content="MediaWiki 1.25.4" />\n</head>\n<body class="mediawiki ltr sitedir-ltr ns-0 ns-subject page-Київ skin-vector action-nosuchaction">\n',
    );
    assert.deepEqual(r.parse.headitems, []);
    const fv1 = (await s.get({ action: 'parse', title: 'Обговорення:Тест (1)', text: 'x', prop: 'headhtml' })).json;
    assert.match(
      fv1.parse.headhtml['*'],
      /<body class="mediawiki ltr sitedir-ltr ns-1 ns-talk page-Обговорення_Тест_1 skin-vector action-nosuchaction">/,
    );
  });

  it('<title> is the pagetitle message of the user language with an empty $1, whatever the page and its display title', async () => {
    // ApiParse 1.25: $context->setTitle(), $context->getOutput()->addParserOutputMetadata($p_result) (language
    // links, categories, indicators, modules, head items: no page title), then headElement($skin). headElement
    // sees getHTMLTitle() == '' and calls setHTMLTitle($this->msg('pagetitle', $this->getPageTitle())); the
    // page title was never set (mPagetitle = ''), and setHTMLTitle's Message::setContext() puts the message in
    // the request's language (uselang) before ->text(). So uk.json's "$1 — {{SITENAME}}" gives " — Демовікі",
    // en.json's "$1 - {{SITENAME}}" gives " - Демовікі"; Html::element escapes only & and <.
    const title = async (params: Record<string, string>) =>
      /<title>([^<]*)<\/title>/.exec((await parse2({ action: 'parse', prop: 'headhtml', ...params })).parse.headhtml)?.[1];
    assert.equal(await title({ page: 'IPhone' }), ' — Демовікі');
    assert.equal(await title({ title: 'Тест', text: '{{DISPLAYTITLE:тест}}' }), ' — Демовікі');
    assert.equal(await title({ page: 'IPhone', uselang: 'en' }), ' - Демовікі');
    assert.match(
      (await parse2({ action: 'parse', page: 'IPhone', prop: 'headhtml', uselang: 'en' })).parse.headhtml,
      /^<!DOCTYPE html>\n<html lang="en" /,
    );
    // ru has a catalog text of its own; a language without one falls back along its chain to English
    assert.equal(await title({ page: 'IPhone', uselang: 'ru' }), ' — Демовікі');
    assert.equal(await title({ page: 'IPhone', uselang: 'de' }), ' - Демовікі');
  });
});

describe('{{int:}} on pages (CoreParserFunctions::intFunction of 1.25: wfMessage()->inLanguage(user language)->plain(), then parsed)', () => {
  const html = async (text: string, extra: Record<string, string> = {}) =>
    (await parse2({ action: 'parse', title: 'Тест', text, prop: 'text', ...extra })).parse.text;

  it("MessageCache's whole lookup: the MediaWiki: override, the catalogs along the fallback chain, $N from the call", async () => {
    // MediaWiki:Demo-only-en overrides the en-only catalog message; demo-ru-fallback-2 is in ru and en only
    assert.equal(await html('{{int:demo-only-en}}'), '<p>Тепер є й українською (локально)\n</p>');
    assert.equal(await html('{{int:demo-ru-fallback-2|ікс}}'), '<p>Второе сообщение только на русском: ікс.\n</p>');
    assert.equal(await html('{{ВНУТР:demo-footer|2015}}'), '<p>Демовікі, 2015\n</p>');
  });

  it('the user language of the request (uselang): its catalog and its /code overrides', async () => {
    assert.equal(await html('{{int:demo-ru-fallback-2|x}}', { uselang: 'en' }), '<p>Second English-and-Russian-only message: x.\n</p>');
    assert.equal(await html('{{int:august}}', { uselang: 'ru' }), '<p>август (изменено локально)\n</p>');
    assert.equal(await html('{{int:august}}'), '<p>серпень (змінено локально)\n</p>');
  });

  it('the text is expanded ({{PLURAL}}, nested {{int:}}) and parsed as wikitext (links, markup)', async () => {
    assert.equal(await html('{{int:pagecategories|5}}'), '<p>Категорій сторінки\n</p>');
    const r = await parse2({ action: 'parse', title: 'Тест', text: '{{int:demo-back-to-main}}', prop: 'text|links' });
    assert.equal(
      r.parse.text,
      '<p>Повернутися на <a href="/index.php/%D0%93%D0%BE%D0%BB%D0%BE%D0%B2%D0%BD%D0%B0_%D1%81%D1%82%D0%BE%D1%80%D1%96%D0%BD%D0%BA%D0%B0" title="Головна сторінка">Головна сторінка</a>.\n</p>',
    );
    assert.deepEqual(r.parse.links, [{ ns: 0, title: 'Головна сторінка', exists: true }]);
    assert.equal(await html('{{int:demo-html}}'), '<p>Текст із <b>розміткою</b> &amp; «лапками»\n</p>');
  });

  it('a message nobody has: Message::plain\'s "<key>", which the sanitizer escapes; no template is recorded', async () => {
    const r = await parse2({ action: 'parse', title: 'Тест', text: '{{int:no-such-message}}', prop: 'text|templates' });
    assert.equal(r.parse.text, '<p>&lt;no-such-message&gt;\n</p>');
    assert.deepEqual(r.parse.templates, []);
  });

  it('expandtemplates reads the same lookup in uselang', async () => {
    const ex = async (extra: Record<string, string>) =>
      (await parse2({ action: 'expandtemplates', text: '{{int:demo-ru-fallback-2|x}}', prop: 'wikitext', ...extra })).expandtemplates
        .wikitext;
    assert.equal(await ex({}), 'Второе сообщение только на русском: x.');
    assert.equal(await ex({ uselang: 'en' }), 'Second English-and-Russian-only message: x.');
  });
});

describe('magic links RFC / PMID / ISBN (Parser::doMagicLinks of 1.25)', () => {
  // MediaWiki 1.39 turns magic links off by default ($wgEnableMagicLinks); 1.25 always makes them
  it('numbers become links; word boundaries, no newline inside, &nbsp; allowed', async () => {
    const r = await parse2({
      action: 'parse',
      title: 'Тест',
      text: 'RFC 1234, PMID&nbsp;42; ISBN 978-3-16-148410-0 і ISBN 0-306-40615-x. xRFC 5 RFC\n7 ISBN 12345',
      prop: 'text|externallinks',
    });
    assert.equal(
      r.parse.text,
      '<p><a class="external mw-magiclink-rfc" href="//tools.ietf.org/html/rfc1234">RFC 1234</a>, ' +
        '<a class="external mw-magiclink-pmid" href="//www.ncbi.nlm.nih.gov/pubmed/42?dopt=Abstract">PMID 42</a>; ' +
        '<a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:%D0%94%D0%B6%D0%B5%D1%80%D0%B5%D0%BB%D0%B0_%D0%BA%D0%BD%D0%B8%D0%B3/9783161484100" class="internal mw-magiclink-isbn">ISBN 978-3-16-148410-0</a> і ' +
        '<a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:%D0%94%D0%B6%D0%B5%D1%80%D0%B5%D0%BB%D0%B0_%D0%BA%D0%BD%D0%B8%D0%B3/030640615X" class="internal mw-magiclink-isbn">ISBN 0-306-40615-x</a>. ' +
        'xRFC 5 RFC\n7 ISBN 12345\n</p>',
    );
    // Linker::makeExternalLink: no rel=nofollow, and not an external link of the page
    assert.deepEqual(r.parse.externallinks, []);
  });

  it('not inside link texts or attributes', async () => {
    const r = await parse2({ action: 'parse', title: 'Тест', text: '[[Київ|RFC 9]] <span title="ISBN 1234567890">a</span>', prop: 'text' });
    assert.doesNotMatch(r.parse.text, /magiclink/);
  });
});

describe('pre-save transform (Parser::preSaveTransform / pstPass2 of 1.25)', () => {
  it('signatures of the API user, subst: only, markup protected, pipe tricks, reverse pipe trick from the title', async () => {
    const text =
      'П: ~~~~ / ~~~ / ~~~~~\n<nowiki>~~~~</nowiki><!-- ~~~ -->[[Дніпро (річка)|]] [[Київ, Україна|]] [[Файл:Х (у)|]] [[|Львів]] ' +
      '{{subst:PAGENAME}} {{PAGENAME}} {{subst:Немає}} {{subst:#if:x|так|ні}} {{{1|a}}} <includeonly>{{subst:PAGENAME}}</includeonly>\n\n  ';
    const r = await parse2({ action: 'parse', title: 'Тест (значення)', text, onlypst: '1' });
    const m =
      /^П: \[\[Спеціальна:Внесок\/([0-9.:A-F]+)\|\1\]\] (\d\d:\d\d, \d+ [а-яії]+ \d{4} \(UTC\)) \/ \[\[Спеціальна:Внесок\/\1\|\1\]\] \/ \2\n/.exec(
        r.parse.text,
      );
    assert.ok(m, r.parse.text);
    assert.equal(
      r.parse.text.slice(m[0].length),
      '<nowiki>~~~~</nowiki><!-- ~~~ -->[[Дніпро (річка)|Дніпро]] [[Київ, Україна|Київ]] [[Файл:Х (у)|Х]] [[Львів (значення)|Львів]] ' +
        'Тест (значення) {{PAGENAME}} {{subst:Немає}} так {{{1|a}}} <includeonly>{{subst:PAGENAME}}</includeonly>',
    );
  });

  it('a substituted template is expanded one level: its own calls stay, its defaults apply', async () => {
    const r = await parse2({ action: 'parse', title: 'API', text: '{{subst:Місто|назва=X}}', onlypst: '1' });
    assert.match(r.parse.text, /^\n\{\| class="infobox"[^]*! colspan="2" \| X \{\{Прапор\}\}\n/);
    assert.match(r.parse.text, /\[\[Населення::\]\] осіб/);
  });

  it("{{subst:msgnw:…}} substitutes the template's source as written; {{msgnw:…}} stays for the view to escape", async () => {
    const r = await parse2({ action: 'parse', title: 'API', text: '{{subst:msgnw:Прапор}} {{msgnw:Прапор}}', onlypst: '1' });
    const source = (await parse2({ action: 'query', titles: 'Шаблон:Прапор', prop: 'revisions', rvprop: 'content' })).query.pages[0]
      .revisions[0].content as string;
    assert.equal(r.parse.text, `${source} {{msgnw:Прапор}}`.trimEnd());
  });

  it('the pre-save transform reads what {{subst:#ifexist:}} checks in the same expansion rounds as a render', async () => {
    const r = await parse2({
      action: 'parse',
      title: 'API',
      text: '{{subst:#ifexist:Київ|так|ні}} {{subst:#ifexist:Немає такої|так|ні}}',
      onlypst: '1',
    });
    assert.equal(r.parse.text, 'так ні');
  });

  it('pst=1 renders the transformed text; prop=wikitext gives the original and psttext', async () => {
    const r = await parse2({ action: 'parse', title: 'API', text: 'a {{subst:PAGENAME}} b', pst: '1', prop: 'text|wikitext' });
    assert.deepEqual([r.parse.text, r.parse.wikitext, r.parse.psttext], ['<p>a API b\n</p>', 'a {{subst:PAGENAME}} b', 'a API b']);
  });

  it('outside the pre-save transform a plain subst: stays as written, safesubst: expands', async () => {
    const r = await parse2({ action: 'parse', title: 'API', text: '{{subst:PAGENAME}} {{safesubst:PAGENAME}}', prop: 'text' });
    assert.equal(r.parse.text, '<p>{{subst:PAGENAME}} API\n</p>');
  });
});

describe('sections as the preprocessor numbers them (Parser::formatHeadings of 1.25)', () => {
  it("a template's headings are T-n of that template, edited there; no byteoffset; generated headings have no index", async () => {
    const r = await parse2({
      action: 'parse',
      title: 'Тест',
      text: '== А ==\nї\n== Б ==\n{{:Львів}}\n{{#if:x|\n== Ц ==\n}}',
      prop: 'sections|text',
    });
    const pick = (x: Record<string, unknown>) => [x.line, x.index, x.fromtitle, x.byteoffset];
    assert.deepEqual(r.parse.sections.map(pick), [
      ['А', '1', 'Тест', 0],
      // "byteoffset" counts characters (mb_strlen), as 1.25 and 1.39 both do
      ['Б', '2', 'Тест', 10],
      ['Історія', 'T-1', 'Львів', null],
      ['Географія', 'T-2', 'Львів', null],
      ['Посилання', 'T-3', 'Львів', null],
      ['Ц', '', false, null],
    ]);
    // 1.25 gives a template's edit link no hint (Linker's default title: the template); 1.39 adds the hint
    assert.match(
      r.parse.text,
      /<span class="mw-headline" id=".D0.86.D1.81.D1.82.D0.BE.D1.80.D1.96.D1.8F">Історія<\/span><span class="mw-editsection"><span class="mw-editsection-bracket">\[<\/span><a href="\/index.php\?title=%D0%9B%D1%8C%D0%B2%D1%96%D0%B2&amp;action=edit&amp;section=T-1" title="Львів">ред.<\/a>/,
    );
    // no edit link and no tocsection class where no text wrote the heading
    assert.match(r.parse.text, /<span class="mw-headline" id=".D0.A6">Ц<\/span><\/h2>/);
    assert.match(r.parse.text, /<li class="toclevel-1"><a href="#.D0.86/);
    assert.match(r.parse.text, /<li class="toclevel-1 tocsection-2"><a href="#.D0.91"/);
  });

  it('fv1 omits a false fromtitle', async () => {
    const r = (await s.post({ action: 'parse', title: 'Тест', text: '{{#if:x|\n== Ц ==\n}}', prop: 'sections', format: 'json' })).json;
    assert.deepEqual(r.parse.sections, [
      { toclevel: 1, level: '2', line: 'Ц', number: '1', index: '', byteoffset: null, anchor: '.D0.A6' },
    ]);
  });
});

describe('parse trees (prop=parsetree, generatexml: Parser::preprocessToDom as 1.25 prints it)', () => {
  // checked against the oracle's expandtemplates prop=parsetree; where 1.39 (Preprocessor_Hash) differs
  // from a stock 1.25 (Preprocessor_DOM, libxml's serialiser) the expected text follows 1.25: '"' stays,
  // a heading inside an argument is <h> (1.39: <possible-h>), a named argument's "=" is bare (1.39: <equals>)
  const text =
    'a "q" <b>&amp; {{T|x|k = v|{{{1|d}}}}}\n== H == <!-- c -->\n<!-- eat -->\n<ref name="r">i</ref><br/><nowiki/> ' +
    '<includeonly>io</includeonly><noinclude>ni</noinclude>\n{{X|\n== N ==\n}}\n[[L|{{Y}}]] {{{{b}}}} <ref>unclosed';
  const xml =
    '<root>a "q" &lt;b&gt;&amp;amp; <template><title>T</title><part><name index="1"/><value>x</value></part><part><name>k </name>=<value> v</value></part>' +
    '<part><name index="2"/><value><tplarg><title>1</title><part><name index="1"/><value>d</value></part></tplarg></value></part></template>\n' +
    '<h level="2" i="1">== H == <comment>&lt;!-- c --&gt;</comment></h>\n<comment>&lt;!-- eat --&gt;\n</comment>' +
    '<ext><name>ref</name><attr> name="r"</attr><inner>i</inner><close>&lt;/ref&gt;</close></ext>&lt;br/&gt;<ext><name>nowiki</name><attr/></ext> ' +
    '<ignore>&lt;includeonly&gt;io&lt;/includeonly&gt;</ignore><ignore>&lt;noinclude&gt;</ignore>ni<ignore>&lt;/noinclude&gt;</ignore>\n' +
    '<template lineStart="1"><title>X</title><part><name index="1"/><value>\n<h level="2" i="2">== N ==</h>\n</value></part></template>\n' +
    '[[L|<template><title>Y</title></template>]] {<tplarg><title>b</title></tplarg>} <ext><name>ref</name><attr/><inner>unclosed</inner></ext></root>';

  it('action=parse prop=parsetree (fv2 string, fv1 {"*"}), of the text before the pre-save transform', async () => {
    const r = await parse2({ action: 'parse', title: 'Тест', text, prop: 'parsetree' });
    assert.deepEqual(r.parse, { title: 'Тест', pageid: 0, parsetree: xml });
    const v1 = (await s.post({ action: 'parse', title: 'Тест', text: '~~~ {{subst:x}}', pst: '1', prop: 'parsetree', format: 'json' }))
      .json;
    assert.deepEqual(v1.parse.parsetree, { '*': '<root>~~~ <template><title>subst:x</title></template></root>' });
  });

  it('generatexml is deprecated and gives the same tree', async () => {
    const r = (await s.post({ action: 'parse', title: 'Тест', text: 'a', prop: '', generatexml: '1', format: 'json' })).json;
    assert.deepEqual(r, {
      warnings: { parse: { '*': 'The generatexml parameter has been deprecated.' } },
      parse: { title: 'Тест', pageid: 0, parsetree: { '*': '<root>a</root>' } },
    });
  });

  it('expandtemplates: prop=parsetree alone expands nothing; generatexml puts the tree beside the module', async () => {
    const r = (
      await s.post({
        action: 'expandtemplates',
        title: 'Тест',
        text: '{{{{{a}}}}}\n==\n===\n\r',
        prop: 'parsetree',
        format: 'json',
        formatversion: '2',
      })
    ).json;
    assert.deepEqual(r, {
      expandtemplates: {
        parsetree: '<root><template><title><tplarg><title>a</title></tplarg></title></template>\n==\n<h level="1" i="1">===</h>\n\n</root>',
      },
    });
    const old = (await s.post({ action: 'expandtemplates', title: 'Тест', text: 'a', generatexml: '1', format: 'json' })).json;
    assert.deepEqual(Object.keys(old), ['warnings', 'parsetree', 'expandtemplates']);
    assert.deepEqual(old.parsetree, { '*': '<root>a</root>' });
  });
});

describe('uselang (the user language of ApiMain / RequestContext::getLanguage of 1.25)', () => {
  it('edit links, their hints, the TOC title and red-link titles follow uselang; the rest stays in the content language', async () => {
    const text = '== А ==\n[[Нема такої]]\n== Б ==\n== В ==\n== Г ==\n{{DISPLAYTITLE:Інше}}';
    const en = await parse2({ action: 'parse', title: 'Тест', text, prop: 'text|categories', uselang: 'EN' });
    assert.match(en.parse.text, /<div id="toctitle"><h2>Contents<\/h2><\/div>/);
    assert.match(en.parse.text, /title="Edit section: А">edit<\/a>/);
    assert.match(en.parse.text, /title="Нема такої \(page does not exist\)"/);
    // a tracking category is the wiki's, whoever reads the page
    assert.deepEqual(
      en.parse.categories.map((c: { category: string }) => c.category),
      ['Сторінки,_де_ігноруються_відображувані_назви'],
    );
    for (const uselang of ['user', 'content', 'qqq', 'a|b']) {
      const uk = await parse2({ action: 'parse', title: 'Тест', text, prop: 'text', uselang });
      assert.match(uk.parse.text, /<h2>Зміст<\/h2>.*title="Редагувати розділ: А">ред.<\/a>/s, uselang);
    }
  });

  it('the parser cache keeps one rendering per user language', async () => {
    const uk = await parse2({ action: 'parse', page: 'Київ', prop: 'text' });
    const en = await parse2({ action: 'parse', page: 'Київ', prop: 'text', uselang: 'en' });
    const again = await parse2({ action: 'parse', page: 'Київ', prop: 'text' });
    assert.match(uk.parse.text, />ред\.<\/a>/);
    assert.match(en.parse.text, />edit<\/a>/);
    assert.equal(again.parse.text, uk.parse.text);
  });
});
