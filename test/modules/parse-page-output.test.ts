/**
 * What action=parse reports around a page's text: the display title (DISPLAYTITLE), page status
 * indicators and prop=headhtml.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

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
    assert.equal(
      r.parse.indicators.logo,
      '<img alt="IPhone.png" src="/images/thumb/5/57/IPhone.png/20px-IPhone.png" width="20" height="40" ' +
        'srcset="/images/thumb/5/57/IPhone.png/30px-IPhone.png 1.5x, /images/5/57/IPhone.png 2x" />',
    );
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
