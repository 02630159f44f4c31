/**
 * Wikitext features as action=parse renders them: {{int:}}, magic links, the pre-save transform, sections,
 * parse trees and the user language.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

const parse2 = async (params: Record<string, string>) =>
  (await s.post({ format: 'json', formatversion: '2', disablelimitreport: '1', ...params })).json;

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

describe('"$" in a title or heading (PHP str_replace/strtr put it in verbatim, not as a replacement pattern)', () => {
  it("a red link's title and a section's edit hint keep $& and $$ (as the reference MediaWiki renders them)", async () => {
    const r = await parse2({ action: 'parse', title: 'Тест', text: '[[Ціна $& і $$ 5]]\n== Ціна $& ==\nx', prop: 'text' });
    assert.equal(
      r.parse.text,
      '<p><a href="/index.php?title=%D0%A6%D1%96%D0%BD%D0%B0_$%26_%D1%96_$$_5&amp;action=edit&amp;redlink=1" class="new" title="Ціна $&amp; і $$ 5 (такої сторінки не існує)">Ціна $&amp; і $$ 5</a>\n</p>\n' +
        // 1.25's heading: the legacy id on the headline (1.39 adds the HTML5 id beside it)
        '<h2><span class="mw-headline" id=".D0.A6.D1.96.D0.BD.D0.B0_.24.26">Ціна $&amp;</span><span class="mw-editsection"><span class="mw-editsection-bracket">[</span><a href="/index.php?title=%D0%A2%D0%B5%D1%81%D1%82&amp;action=edit&amp;section=1" title="Редагувати розділ: Ціна $&amp;">ред.</a><span class="mw-editsection-bracket">]</span></span></h2>\n<p>x\n</p>',
    );
  });
});
