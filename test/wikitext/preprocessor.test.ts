/**
 * The preprocessor on a small in-memory wiki (helpers/mini-wiki.ts): the form → template → property
 * pattern, inclusion control and comments, templates and parameters.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { expandWikitext } from '../../src/wikitext/preprocessor/index.js';
import { TemplateTreeCache } from '../../src/wikitext/preprocessor/tree.js';
import { expand, makeCtx, x } from '../helpers/mini-wiki.js';

// ---------------------------------------------------------------------------------------------------
// The form → template → property pattern
// ---------------------------------------------------------------------------------------------------

const MISTO =
  '{| class="infobox"\n|-\n! Населення\n| {{{населення|}}}\n|}\n' +
  '[[Населення::{{{населення|}}}]] [[Область::{{{область|невідомо}}}]]' +
  '{{#set:Код={{{код|}}}|Назва={{PAGENAME}}}}' +
  '[[Категорія:Міста]]{{#if:{{{область|}}}|[[Категорія:Міста області {{{область}}}]]}}' +
  '<noinclude>[[Категорія:Шаблони]]\nВикористання: <nowiki>{{Місто|населення=}}</nowiki></noinclude>';

describe('form-style template Шаблон:Місто', () => {
  const pages = { 'Шаблон:Місто': MISTO };

  test("a page calling it gets the properties, #set and the category, not the template's own category", () => {
    const r = expand('{{Місто\n| населення = 2 884 000\n| код = 80000\n| область = Київська\n}}\nТекст.', pages);
    assert.equal(
      r.text,
      '\n{| class="infobox"\n|-\n! Населення\n| 2 884 000\n|}\n' +
        '[[Населення::2 884 000]] [[Область::Київська]]{{#set:Код=80000|Назва=Київ}}' +
        '[[Категорія:Міста]][[Категорія:Міста області Київська]]\nТекст.',
    );
    assert.deepEqual(r.templates, [{ ns: 10, dbkey: 'Місто' }]);
    assert.equal(r.limitHit, undefined);
  });

  test('missing parameters fall back to their defaults', () => {
    const r = expand('{{Місто}}', pages, 'Біла Церква');
    assert.match(r.text, /\[\[Населення::\]\] \[\[Область::невідомо\]\]\{\{#set:Код=\|Назва=Біла Церква\}\}\[\[Категорія:Міста\]\]$/);
  });

  test('the template page itself keeps its <noinclude> part and shows empty defaults', () => {
    const r = expand(MISTO, pages, 'Місто', 10);
    assert.ok(r.text.includes('[[Категорія:Шаблони]]'));
    assert.ok(r.text.includes('<nowiki>{{Місто|населення=}}</nowiki>'), 'nowiki content is not expanded');
    assert.ok(r.text.includes('[[Населення::]]'));
    assert.ok(r.text.includes('{{#set:Код=|Назва=Місто}}'));
    assert.deepEqual(r.templates, []);
  });

  test('nested: a page template wrapping the form template, parameters passed through', () => {
    const r = expand('{{Картка міста|населення=100|код=07}}', {
      ...pages,
      'Шаблон:Картка міста': '<div>{{Місто|населення={{{населення}}}|код={{{код|}}}|область={{{область|}}}}}</div>',
    });
    assert.ok(r.text.startsWith('<div>\n{| class="infobox"'), r.text);
    assert.ok(r.text.includes('[[Населення::100]] [[Область::]]{{#set:Код=07|Назва=Київ}}[[Категорія:Міста]]</div>'), r.text);
    assert.deepEqual(r.templates, [
      { ns: 10, dbkey: 'Картка_міста' },
      { ns: 10, dbkey: 'Місто' },
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
// noinclude / includeonly / onlyinclude, comments, extension tags
// ---------------------------------------------------------------------------------------------------

describe('inclusion control and comments', () => {
  test('includeonly is dropped on the page itself and kept when transcluded', () => {
    const tpl = 'A<includeonly>B</includeonly><noinclude>C</noinclude>D';
    assert.equal(x(tpl), 'ACD');
    assert.equal(x('{{T}}', { 'Шаблон:T': tpl }), 'ABD');
  });

  test('onlyinclude: only its content is transcluded, the page itself shows everything', () => {
    const tpl = 'head<onlyinclude>[[Категорія:X]]</onlyinclude>middle<onlyinclude>!</onlyinclude>tail';
    assert.equal(x('{{T}}', { 'Шаблон:T': tpl }), '[[Категорія:X]]!');
    assert.equal(x(tpl), 'head[[Категорія:X]]middle!tail');
  });

  test('unclosed noinclude runs to the end of the template', () => {
    assert.equal(x('{{T}}', { 'Шаблон:T': 'a<noinclude>b' }), 'a');
  });

  test('tag names are case-insensitive and may carry attributes', () => {
    assert.equal(x('{{T}}', { 'Шаблон:T': 'a<NOINCLUDE foo="1">b</NOINCLUDE>c<IncludeOnly>d</IncludeOnly>' }), 'acd');
  });

  test('comments are removed; a comment alone on its line takes the line with it', () => {
    assert.equal(x('a<!-- c -->b'), 'ab');
    assert.equal(x('a\n  <!-- c --> <!-- d -->  \nb'), 'a\nb');
    assert.equal(x('a <!-- c --> b'), 'a  b');
    assert.equal(x('a<!-- unclosed'), 'a');
    assert.equal(x('{{T|x<!-- c -->}}', { 'Шаблон:T': '[{{{1}}}]' }), '[x]');
  });

  test('nowiki and pre content stays unexpanded, tags kept verbatim', () => {
    assert.equal(x('<nowiki>{{T}} [[a]]</nowiki>{{T}}', { 'Шаблон:T': 't' }), '<nowiki>{{T}} [[a]]</nowiki>t');
    assert.equal(x('<pre>{{T}}</pre><nowiki/>{{T}}', { 'Шаблон:T': 't' }), '<pre>{{T}}</pre><nowiki/>t');
    assert.equal(x('<NoWiki>{{T}}</nowiki >', { 'Шаблон:T': 't' }), '<NoWiki>{{T}}</nowiki >');
  });

  test('other extension tags keep their content unexpanded', () => {
    assert.equal(
      x('<gallery>\nФайл:A.jpg|{{T}}\n</gallery><ref name="a">{{T}}</ref>', { 'Шаблон:T': 't' }),
      '<gallery>\nФайл:A.jpg|{{T}}\n</gallery><ref name="a">{{T}}</ref>',
    );
  });

  test('an unclosed extension tag runs to the end (MediaWiki 1.25)', () => {
    assert.equal(x('a<ref>{{T}} b', { 'Шаблон:T': 't' }), 'a<ref>{{T}} b');
  });

  test('unknown tags are plain text', () => {
    assert.equal(x('<span title="{{T}}">{{T}}</span>', { 'Шаблон:T': 't' }), '<span title="t">t</span>');
  });

  test('comments inside extension tags are kept', () => {
    assert.equal(x('<nowiki><!-- c --></nowiki>'), '<nowiki><!-- c --></nowiki>');
  });
});

// ---------------------------------------------------------------------------------------------------
// Templates and parameters
// ---------------------------------------------------------------------------------------------------

describe('templates and parameters', () => {
  const pages = {
    'Шаблон:Args': '[{{{1}}}|{{{2|d2}}}|{{{name|dn}}}]',
    'Шаблон:Echo': '{{{1}}}',
    'Шаблон:Named': '<{{{a}}}>',
  };

  test('positional arguments are not trimmed, named ones are', () => {
    assert.equal(x('{{Args| a | b |name= n }}', pages), '[ a | b |n]');
  });

  test('undefined parameters without default stay literal; defaults apply', () => {
    assert.equal(x('{{Args}}', pages), '[{{{1}}}|d2|dn]');
    assert.equal(x('{{{1}}} {{{x|y}}} {{{ a }}}'), '{{{1}}} y {{{ a }}}');
  });

  test('an empty argument is defined (no default used)', () => {
    assert.equal(x('{{Args||}}', pages), '[||dn]');
  });

  test('defaults may contain templates and other parameters', () => {
    assert.equal(x('{{T|b=B}}', { 'Шаблон:T': '{{{a|{{{b|none}}}-{{Echo|e}}}}}', ...pages }), 'B-e');
    assert.equal(x('{{T}}', { 'Шаблон:T': '{{{a|{{{b|none}}}}}}' }), 'none');
  });

  test('the default is the whole first part, "=" included', () => {
    assert.equal(x('{{{a|b=c|d}}}'), 'b=c');
  });

  test('named "1=" overrides a positional argument and the reverse; later wins', () => {
    assert.equal(x('{{Echo|a|1=b}}', pages), 'b');
    assert.equal(x('{{Echo|1=b|a}}', pages), 'a');
    assert.equal(x('{{Named|a=1|a=2}}', pages), '<2>');
  });

  test('"=" inside a positional value needs {{=}} or a named 1=', () => {
    assert.equal(x('{{Echo|a=b}}', pages), '{{{1}}}');
    assert.equal(x('{{Echo|a{{=}}b}}', pages), 'a=b');
    assert.equal(x('{{Echo|1=a=b}}', pages), 'a=b');
  });

  test('names of named arguments are expanded', () => {
    assert.equal(x('{{Named|{{Echo|a}}=v}}', pages), '<v>');
  });

  test('pipes inside [[links]] and nested templates do not split arguments', () => {
    assert.equal(x('{{Echo|[[Ціль|текст]]}}', pages), '[[Ціль|текст]]');
    assert.equal(x('{{Echo|{{Args|1|2}}}}', pages), '[1|2|dn]');
    assert.equal(x('{{Echo|[[a=b]]}}', pages), '[[a=b]]');
  });

  test('a heading line inside an argument is not split at "=" or "|"', () => {
    assert.equal(x('{{Echo|\n== A | B ==\n}}', pages), '\n== A | B ==\n');
  });

  test('"{{{{…}}}}" combinations resolve like MediaWiki', () => {
    assert.equal(x('{{{{{1|Echo}}}|z}}', pages), 'z');
    assert.equal(x('{{{{Echo|q}}}}', pages), '{q}');
  });

  test('stray braces are literal', () => {
    assert.equal(x('a { b } {{ c'), 'a { b } {{ c');
    assert.equal(x('}} ]] [[x'), '}} ]] [[x');
  });

  test('template names are trimmed and passed to getTemplate as written', () => {
    const ctx = makeCtx({ pages: { 'Шаблон:Echo': '{{{1}}}', Головна: 'main', 'Користувач:X/y': 'user' } });
    const r = expandWikitext('{{ Echo |1}}{{Шаблон:Echo|2}}{{Template:Echo|3}}{{:Головна}}{{Користувач:X/y}}', ctx);
    assert.equal(r.text, '123mainuser');
    assert.deepEqual(ctx.calls, ['Echo', 'Шаблон:Echo', 'Template:Echo', ':Головна', 'Користувач:X/y']);
    assert.deepEqual(r.templates, [
      { ns: 10, dbkey: 'Echo' },
      { ns: 0, dbkey: 'Головна' },
      { ns: 2, dbkey: 'X/y' },
    ]);
  });

  test('outside the pre-save transform subst: stays as written and safesubst: transcludes (braceSubstitution of 1.25)', () => {
    assert.equal(x('{{subst:Echo|a}}{{safesubst:Echo|b}}{{SUBST:Echo|c}}', pages), '{{subst:Echo|a}}b{{SUBST:Echo|c}}');
  });

  test('the pre-save transform (OT_WIKI) expands only subst:/safesubst:, one level, and holds comments and tags apart', () => {
    const held: string[] = [];
    const r = expand(
      '{{subst:T|x}} {{Echo|a}} {{{1|d}}} <!-- c --><ref>{{subst:Echo|r}}</ref> {{subst:Немає|y}}<includeonly>{{subst:Echo|i}}</includeonly>',
      { ...pages, 'Шаблон:T': '{{{1}}}-{{{2|def}}}-{{Echo|{{{1}}}}}<!-- t --><noinclude>n</noinclude>' },
      'Київ',
      0,
      {
        outputType: 'wiki',
        stripItem: (raw) => `<${held.push(raw) - 1}>`,
      },
    );
    assert.equal(r.text, 'x-def-{{Echo|x}}<0> {{Echo|a}} {{{1|d}}} <1><2> {{subst:Немає|y}}<includeonly>{{subst:Echo|i}}</includeonly>');
    assert.deepEqual(held, ['<!-- t -->', '<!-- c -->', '<ref>{{subst:Echo|r}}</ref>']);
  });

  test('the pre-save transform: {{subst:msgnw:…}} puts the source in as written, {{msgnw:…}} stays (braceSubstitution with RECOVER_ORIG)', () => {
    const held: string[] = [];
    const r = expand(
      '{{subst:msgnw:T}} {{msgnw:T}} {{subst:msgnw:Немає}} x {{subst:msgnw:L}}',
      { ...pages, 'Шаблон:T': '{{{1}}}<!-- t --><noinclude>n</noinclude>', 'Шаблон:L': '* a' },
      'Київ',
      0,
      {
        outputType: 'wiki',
        stripItem: (raw) => `<${held.push(raw) - 1}>`,
      },
    );
    assert.equal(r.text, '{{{1}}}<!-- t --><noinclude>n</noinclude> {{msgnw:T}} {{subst:msgnw:Немає}} x \n* a');
    assert.deepEqual(held, []);
  });

  test('headings carry markers naming the text and the heading number there (headingMarkers)', () => {
    const r = expand('== A ==\n{{T}}\n{{Echo|\n== B ==\n}}\n=== C === <!-- x -->\n', { ...pages, 'Шаблон:T': 'x\n== T1 ==' }, 'Київ', 0, {
      headingMarkers: true,
    });
    assert.equal(r.text, '==\x7fUNIQ-h-0-QINU\x7f A ==\nx\n==\x7fUNIQ-h-1-QINU\x7f T1 ==\n\n== B ==\n\n===\x7fUNIQ-h-2-QINU\x7f C === \n');
    // "== B ==" inside the argument is counted (2) but stays text; "C" is the page's third
    assert.deepEqual(r.headings, [
      { title: null, index: 1, start: 0 },
      { title: { ns: 10, dbkey: 'T' }, index: 1, start: null },
      { title: null, index: 3, start: 33 },
    ]);
  });

  test('a missing template becomes a red link and is reported', () => {
    const r = expand('{{Немає|x}} {{Шаблон:Теж немає}}');
    assert.equal(r.text, '[[:Шаблон:Немає]] [[:Шаблон:Теж немає]]');
    assert.deepEqual(r.templates, [
      { ns: 10, dbkey: 'Немає' },
      { ns: 10, dbkey: 'Теж_немає' },
    ]);
  });

  test('without resolveTarget the built-in resolver names missing templates', () => {
    const ctx = makeCtx({ pages: {} }, 'Київ', 0, { resolveTarget: undefined });
    const r = expandWikitext('{{немає такого}}{{Template:Інший}}{{:Стаття}}', ctx);
    assert.equal(r.text, '[[:Шаблон:Немає такого]][[:Шаблон:Інший]][[:Стаття]]');
    assert.deepEqual(r.templates, [
      { ns: 10, dbkey: 'Немає_такого' },
      { ns: 10, dbkey: 'Інший' },
      { ns: 0, dbkey: 'Стаття' },
    ]);
  });

  test('an invalid title is left as written', () => {
    assert.equal(x('{{a[b]|c}} {{}} {{ | x}}'), '{{a[b]|c}} {{}} {{ | x}}');
  });

  test('redirected templates are followed; both titles are reported', () => {
    const r = expandWikitext(
      '{{Старий|a}}',
      makeCtx({ pages: { 'Шаблон:Новий': 'new:{{{1}}}' }, redirects: { 'Шаблон:Старий': 'Шаблон:Новий' } }),
    );
    assert.equal(r.text, 'new:a');
    assert.deepEqual(r.templates, [
      { ns: 10, dbkey: 'Старий' },
      { ns: 10, dbkey: 'Новий' },
    ]);
  });

  test('templates are reported once each, in first-use order, nested ones included', () => {
    const r = expand('{{B}}{{A}}{{B}}', { 'Шаблон:A': '{{C}}', 'Шаблон:B': 'b{{C}}', 'Шаблон:C': 'c' });
    assert.equal(r.text, 'bccbc');
    assert.deepEqual(
      r.templates.map((t) => t.dbkey),
      ['B', 'C', 'A'],
    );
  });

  test('{{!}} and {{=}}', () => {
    assert.equal(x('{{!}}{{=}}'), '|=');
    assert.equal(x('{{Echo|a{{!}}b}}', pages), 'a|b');
    assert.equal(x('{|\n{{!}} cell\n|}'), '{|\n| cell\n|}');
  });

  test('block-level output of a mid-line call starts on a new line', () => {
    assert.equal(x('a {{Echo|* item}}', pages), 'a \n* item');
    assert.equal(x('a\n{{Echo|* item}}', pages), 'a\n* item');
    assert.equal(x('x{{#if:1|# one}}'), 'x\n# one');
    assert.equal(x('x{{Echo|{{{!}}}}}', pages), 'x{{{!}}}'); // not "{|"
  });

  test('argument-less calls are expanded once per caller and cached', () => {
    let n = 0;
    const ctx = makeCtx({ pages: { 'Шаблон:T': 'same' } });
    const get = ctx.getTemplate.bind(ctx);
    ctx.getTemplate = (t) => {
      n++;
      return get(t);
    };
    assert.equal(expandWikitext('{{T}}{{T}}{{T}}', ctx).text, 'samesamesame');
    assert.equal(n, 1);
  });

  test('a shared tree cache gives the same results across pages', () => {
    const cache = new TemplateTreeCache();
    const pages = { 'Шаблон:Місто': MISTO };
    const a = expand('{{Місто|населення=1}}', pages, 'Київ', 0, { treeCache: cache });
    const b = expand('{{Місто|населення=2}}', pages, 'Львів', 0, { treeCache: cache });
    assert.equal(a.text, expand('{{Місто|населення=1}}', pages, 'Київ').text);
    assert.ok(b.text.includes('[[Населення::2]]') && b.text.includes('Назва=Львів'));
    // the page view of the same text is parsed differently and never taken from the cache
    assert.ok(expand(MISTO, pages, 'Місто', 10, { treeCache: cache }).text.includes('[[Категорія:Шаблони]]'));
  });

  test('template loops are detected and not expanded further', () => {
    const r = expand('{{Петля}}', { 'Шаблон:Петля': 'a{{Петля2|x}}', 'Шаблон:Петля2': 'b{{Петля}}' });
    assert.equal(r.text, 'ab<span class="error">Template loop detected: [[Шаблон:Петля]]</span>');
    assert.deepEqual(
      r.templates.map((t) => t.dbkey),
      ['Петля', 'Петля2'],
    );
  });

  test('a self-calling template with growing parameters stops at the loop', () => {
    const r = expand('{{X|a}}', { 'Шаблон:X': '{{X|{{{1}}}{{{1}}}}}' });
    assert.equal(r.text, '<span class="error">Template loop detected: [[Шаблон:X]]</span>');
  });

  test('a page may transclude itself once', () => {
    assert.equal(x('[{{:Київ}}]', { Київ: 'k{{:Київ}}' }), '[k<span class="error">Template loop detected: [[Київ]]</span>]');
  });

  test('relative subpage transclusion where the namespace has subpages', () => {
    assert.equal(x('{{/Дані}}', { 'Користувач:Іван/Дані': 'data' }, 'Іван', 2), 'data');
    assert.equal(x('{{../Інше}}', { 'Користувач:Іван/Інше': 'other' }, 'Іван/Чернетка', 2), 'other');
    assert.equal(x('{{/Дані}}', { 'Шаблон:/Дані': 'template' }, 'Київ', 0), 'template');
  });

  test('msgnw: gives the template source, escaped', () => {
    assert.equal(x('{{msgnw:Echo}}', pages), '&#123;&#123;&#123;1&#125;&#125;&#125;');
  });
});
