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

const parse2 = async (params: Record<string, string>) =>
  (await s.post({ format: 'json', formatversion: '2', disablelimitreport: '1', ...params })).json;

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
  it('[[Медіа:X]] without text shows the link as written (Parser::replaceInternalLinks2 of 1.25: $text = $link)', async () => {
    const r = await s.get({
      action: 'parse',
      text: '[[Медіа:Прапор_України.png]]',
      contentmodel: 'wikitext',
      prop: 'text',
      disablelimitreport: 1,
      utf8: 1,
    });
    assert.equal(
      r.json.parse.text['*'],
      '<p><a href="/images/f/fb/%D0%9F%D1%80%D0%B0%D0%BF%D0%BE%D1%80_%D0%A3%D0%BA%D1%80%D0%B0%D1%97%D0%BD%D0%B8.png" class="internal" title="Прапор України.png">Медіа:Прапор_України.png</a>\n</p>',
    );
  });
  it('[[Файл:X|link=Y]] lists Y in links', async () => {
    const r = await s.get({
      action: 'parse',
      text: '[[Файл:Прапор_України.png|link=Київ]]',
      contentmodel: 'wikitext',
      prop: 'links',
      utf8: 1,
    });
    assert.deepEqual(r.json.parse.links, [{ ns: 0, exists: '', '*': 'Київ' }]);
  });
  it('gallery images keep their alt=; alt= and link= are not caption (Parser.php:5368-5412, TraditionalImageGallery.php:121-132 of 1.25)', async () => {
    const text =
      '<gallery>\nПрапор_України.png|alt=Синьо-жовтий прапор|Під|пис\nПрапор_України.png\nПрапор_України.png|link=Київ|Підпис\n</gallery>';
    const r = await s.get({ action: 'parse', text, contentmodel: 'wikitext', prop: 'text', disablelimitreport: 1, utf8: 1 });
    const html: string = r.json.parse.text['*'];
    assert.deepEqual(
      [...html.matchAll(/ title="([^"]*)"><img alt="([^"]*)"| class="image"><img alt="([^"]*)"/g)].map((m) =>
        m.slice(1).filter((x) => x !== undefined),
      ),
      [['Під|пис', 'Синьо-жовтий прапор'], ['Прапор України.png'], ['Підпис', 'Підпис']],
    );
    assert.deepEqual(
      html
        .split('<div class="gallerytext">\n')
        .slice(1)
        .map((box) => box.slice(0, box.indexOf('\t\t\t</div>')).replace(/\n$/, '')),
      ['<p>Під|пис\n</p>', '', '<p>Підпис\n</p>'],
    );
  });
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
