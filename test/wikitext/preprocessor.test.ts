import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { PreprocessContext, ExpandResult } from '../../src/wikitext/preprocessor/context.js';
import { expandWikitext } from '../../src/wikitext/preprocessor/index.js';
import { TemplateTreeCache } from '../../src/wikitext/preprocessor/tree.js';

// ---------------------------------------------------------------------------------------------------
// A small in-memory wiki
// ---------------------------------------------------------------------------------------------------

const NS: Record<string, number> = {
  '': 0,
  користувач: 2,
  шаблон: 10,
  template: 10,
  категорія: 14,
  category: 14,
  файл: 6,
  довідка: 12,
};
const NS_NAME: Record<number, string> = { 0: '', 2: 'Користувач', 6: 'Файл', 10: 'Шаблон', 12: 'Довідка', 14: 'Категорія' };

function resolve(target: string, defaultNs: number): { ns: number; dbkey: string } | null {
  let t = target.replace(/_/g, ' ').trim();
  let ns = defaultNs;
  if (t.startsWith(':')) {
    ns = 0;
    t = t.slice(1).trim();
  }
  const m = /^([^:]+):(.*)$/.exec(t);
  if (m && NS[m[1].toLowerCase()] !== undefined) {
    ns = NS[m[1].toLowerCase()];
    t = m[2].trim();
  }
  if (t === '' || /[[\]{}|<>#]/.test(t)) return null;
  return { ns, dbkey: (t[0].toUpperCase() + t.slice(1)).replace(/ /g, '_') };
}

const keyOf = (t: { ns: number; dbkey: string }): string => `${t.ns}:${t.dbkey}`;

interface Wiki {
  /** 'Шаблон:Місто' / 'Головна' → text */
  pages: Record<string, string>;
  /** redirects: 'Шаблон:Старий' → 'Шаблон:Новий' */
  redirects?: Record<string, string>;
}

function makeCtx(wiki: Wiki, title = 'Київ', ns = 0, extra: Partial<PreprocessContext> = {}): PreprocessContext & { calls: string[] } {
  const byKey = new Map<string, string>();
  for (const [name, text] of Object.entries(wiki.pages)) byKey.set(keyOf(resolve(name, 0)!), text);
  const redirects = new Map<string, { ns: number; dbkey: string }>();
  for (const [from, to] of Object.entries(wiki.redirects ?? {})) redirects.set(keyOf(resolve(from, 0)!), resolve(to, 0)!);
  const calls: string[] = [];
  return {
    calls,
    title: { ns, dbkey: title.replace(/ /g, '_'), nsText: NS_NAME[ns] ?? '' },
    getTemplate(target) {
      calls.push(target);
      let t = resolve(target, 10);
      if (!t) return null;
      const r = redirects.get(keyOf(t));
      if (r) t = r;
      const text = byKey.get(keyOf(t));
      return text === undefined ? null : { text, ns: t.ns, dbkey: t.dbkey };
    },
    pageExists(target) {
      const t = resolve(target, 0);
      return t !== null && (byKey.has(keyOf(t)) || redirects.has(keyOf(t)));
    },
    resolveTarget: resolve,
    ...extra,
  };
}

function expand(
  text: string,
  pages: Record<string, string> = {},
  title = 'Київ',
  ns = 0,
  extra: Partial<PreprocessContext> = {},
): ExpandResult {
  return expandWikitext(text, makeCtx({ pages }, title, ns, extra));
}

const x = (text: string, pages: Record<string, string> = {}, title?: string, ns?: number): string => expand(text, pages, title, ns).text;

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

// ---------------------------------------------------------------------------------------------------
// Parser functions
// ---------------------------------------------------------------------------------------------------

describe('ParserFunctions', () => {
  test('#if', () => {
    assert.equal(x('{{#if: x | yes | no }}'), 'yes');
    assert.equal(x('{{#if:   | yes | no }}'), 'no');
    assert.equal(x('{{#if: | yes }}'), '');
    assert.equal(x('{{#if: {{{1|}}} | yes | no }}'), 'no');
    assert.equal(x('{{#IF: x | a=b }}'), 'a=b');
    assert.equal(x('{{#if: x | [[a|b]] }}'), '[[a|b]]');
  });

  test('only the taken branch is expanded', () => {
    const r = expand('{{#if: x | {{A}} | {{B}} }}', { 'Шаблон:A': 'a', 'Шаблон:B': 'b' });
    assert.equal(r.text, 'a');
    assert.deepEqual(
      r.templates.map((t) => t.dbkey),
      ['A'],
    );
  });

  test('#ifeq compares numbers numerically', () => {
    assert.equal(x('{{#ifeq: 01 | 1 | eq | ne }}'), 'eq');
    assert.equal(x('{{#ifeq: 1e3 | 1000.0 | eq | ne }}'), 'eq');
    assert.equal(x('{{#ifeq: a | A | eq | ne }}'), 'ne');
    assert.equal(x('{{#ifeq: &amp; | & | eq | ne }}'), 'eq');
    assert.equal(x('{{#ifeq: x | x | eq }}'), 'eq');
    assert.equal(x('{{#ifeq: x | y | eq }}'), '');
  });

  test('#switch: match, fall-through, #default, last unnamed default', () => {
    const sw = (v: string): string => x(`{{#switch: ${v} | a = A | b | c = BC | 1 = one | #default = D }}`);
    assert.equal(sw('a'), 'A');
    assert.equal(sw('b'), 'BC');
    assert.equal(sw('c'), 'BC');
    assert.equal(sw('1.0'), 'one');
    assert.equal(sw('z'), 'D');
    assert.equal(x('{{#switch: z | a = A | fallback }}'), 'fallback');
    assert.equal(x('{{#switch: z | a = A }}'), '');
    assert.equal(x('{{#switch: z | #default = D | z = Z }}'), 'Z');
    assert.equal(x('{{#switch: q | #default | x = X }}'), 'X');
    assert.equal(x('{{#switch: | = empty | x }}'), 'empty');
  });

  test('#ifexist checks through the context and records a link', () => {
    const r = expand('{{#ifexist: Головна | так | ні }} {{#ifexist: Нема | так | ні }} {{#ifexist: | так | ні }}', { Головна: '.' });
    assert.equal(r.text, 'так ні ні');
    assert.deepEqual(r.links, [
      { ns: 0, dbkey: 'Головна' },
      { ns: 0, dbkey: 'Нема' },
    ]);
  });

  test('#expr precedence and associativity', () => {
    assert.equal(x('{{#expr: 1 + 2 * 3 }}'), '7');
    assert.equal(x('{{#expr: (1 + 2) * 3 }}'), '9');
    assert.equal(x('{{#expr: 2 ^ 3 ^ 2 }}'), '64'); // left-associative, as in MediaWiki
    assert.equal(x('{{#expr: -2 ^ 2 }}'), '4'); // unary minus binds tighter than ^
    assert.equal(x('{{#expr: 2 * 3 ^ 2 }}'), '18');
    assert.equal(x('{{#expr: 10 - 4 - 3 }}'), '3');
    assert.equal(x('{{#expr: 12 / 4 / 3 }}'), '1');
    assert.equal(x('{{#expr: 1 + 2 = 3 }}'), '1');
    assert.equal(x('{{#expr: 1 < 2 and 3 > 4 }}'), '0');
    assert.equal(x('{{#expr: 1 < 2 and 3 > 4 or 1 }}'), '1');
    assert.equal(x('{{#expr: not 0 and 1 }}'), '1');
    assert.equal(x('{{#expr: 2 + 3 round 0 * 2 }}'), '5'); // round binds looser than + and *
    assert.equal(x('{{#expr: 3 <> 4 }}{{#expr: 3 != 3 }}{{#expr: 3 <= 3 }}{{#expr: 4 >= 5 }}'), '1010');
  });

  test('#expr operators, functions and constants', () => {
    assert.equal(x('{{#expr: 7 mod 3 }}'), '1');
    assert.equal(x('{{#expr: -7 mod 3 }}'), '-1');
    assert.equal(x('{{#expr: 7.9 mod 3 }}'), '1');
    assert.equal(x('{{#expr: 7 div 2 }}'), '3.5');
    assert.equal(x('{{#expr: 1/3 }}'), '0.33333333333333');
    assert.equal(
      x('{{#expr: 2.5 round 0 }}{{#expr: -2.5 round 0 }}{{#expr: 1234.5678 round -2 }}{{#expr: 3.14159 round 2 }}'),
      '3-312003.14',
    );
    assert.equal(x('{{#expr: floor 2.7 }} {{#expr: ceil 2.1 }} {{#expr: abs -5 }} {{#expr: trunc -2.7 }}'), '2 3 5 -2');
    assert.equal(x('{{#expr: 2e3 }} {{#expr: e }} {{#expr: pi }}'), '2000 2.718281828459 3.1415926535898');
    assert.equal(x('{{#expr: 1e20 }} {{#expr: 0.00001 }} {{#expr: 0.0001 }} {{#expr: 100000000000000 }}'), '1.0E+20 1.0E-5 0.0001 1.0E+14');
    assert.equal(x('{{#expr: sqrt 16 }} {{#expr: ln 1 }} {{#expr: exp 0 }}'), '4 0 1');
    assert.equal(x('{{#expr: +5 - -3 }}'), '8');
    assert.equal(x('{{#expr: 5 &lt; 6 }}{{#expr: 10 − 4 }}'), '16');
    assert.equal(x('{{#expr: }}'), '');
    assert.equal(x('{{#expr: 2^1024 }}'), 'INF');
  });

  test('#expr errors', () => {
    const err = (m: string): string => `<strong class="error">${m}</strong>`;
    assert.equal(x('{{#expr: 1/0 }}'), err('Division by zero.'));
    assert.equal(x('{{#expr: 1 mod 0 }}'), err('Division by zero.'));
    assert.equal(x('{{#expr: foo }}'), err('Expression error: Unrecognized word &quot;foo&quot;.'));
    assert.equal(x('{{#expr: 1 + }}'), err('Expression error: Missing operand for +.'));
    assert.equal(x('{{#expr: (1 }}'), err('Expression error: Unclosed bracket.'));
    assert.equal(x('{{#expr: 1) }}'), err('Expression error: Unexpected closing bracket.'));
    assert.equal(x('{{#expr: 1 2 }}'), err('Expression error: Unexpected number.'));
    assert.equal(x('{{#expr: * 2 }}'), err('Expression error: Unexpected * operator.'));
    assert.equal(x('{{#expr: 2 ~ 3 }}'), err('Expression error: Unrecognized punctuation character &quot;~&quot;.'));
    assert.equal(x('{{#expr: asin 2 }}'), err('Invalid argument for asin: &lt; -1 or &gt; 1.'));
    assert.equal(x('{{#expr: ln 0 }}'), err('Invalid argument for ln: &lt;= 0.'));
    assert.equal(x(`{{#expr: ${'('.repeat(150)}1${')'.repeat(150)} }}`), err('Expression error: Stack exhausted.'));
  });

  test('#ifexpr and #iferror', () => {
    assert.equal(x('{{#ifexpr: 2 > 1 | yes | no }}'), 'yes');
    assert.equal(x('{{#ifexpr: 0 | yes | no }}'), 'no');
    assert.equal(x('{{#ifexpr: | yes | no }}'), 'no');
    assert.equal(x('{{#ifexpr: 1/0 | yes | no }}'), '<strong class="error">Division by zero.</strong>');
    assert.equal(x('{{#iferror: {{#expr: 1/0 }} | bad | good }}'), 'bad');
    assert.equal(x('{{#iferror: {{#expr: 1+1 }} | bad | good }}'), 'good');
    assert.equal(x('{{#iferror: {{#expr: 1+1 }} | bad }}'), '2');
    assert.equal(x('{{#iferror: <span class="x error">e</span> | bad }}'), 'bad');
  });

  test('#titleparts', () => {
    assert.equal(x('{{#titleparts: Довідка:A/b/c/d | 2 }}'), 'Довідка:A/b');
    assert.equal(x('{{#titleparts: Довідка:A/b/c/d | 2 | 2 }}'), 'b/c');
    assert.equal(x('{{#titleparts: A/b/c/d | -1 }}'), 'A/b/c');
    assert.equal(x('{{#titleparts: A/b/c/d | | -1 }}'), 'd');
  });
});

describe('Semantic MediaWiki / Semantic Forms functions', () => {
  const pages = { 'Шаблон:S': '{{#set:Населення={{{n}}}|Мер={{{мер|}}}}}{{#subobject:|Рік={{{рік}}}}}' };

  test('SMW functions stay as they are, with their arguments expanded', () => {
    assert.equal(x('{{S|n=5|рік=2001}}', pages), '{{#set:Населення=5|Мер=}}{{#subobject:|Рік=2001}}');
    assert.equal(
      x('{{#ask: [[Категорія:{{PAGENAME}}]] |?Населення |format=table }}{{#show: {{PAGENAME}} |?Код}}'),
      '{{#ask: [[Категорія:Київ]] |?Населення |format=table }}{{#show: Київ |?Код}}',
    );
    assert.equal(x('{{#declare:Населення=n}}{{#foo:a|b={{!}}}}'), '{{#declare:Населення=n}}{{#foo:a|b=|}}');
    assert.equal(x('{{#time: Y | 2001-01-01 }}'), '{{#time: Y | 2001-01-01 }}');
  });

  test('with an inline-query source, #ask/#show get their expanded, trimmed arguments and print its answer', () => {
    const seen: string[] = [];
    const inlineQuery: PreprocessContext['inlineQuery'] = (fn, args) => {
      seen.push(fn + ':' + args.join('|'));
      return args[0] === '[[Unknown]]' ? undefined : { text: `<${fn} ${args.length}>`, expand: false };
    };
    const r = expand(
      '{{#ask: [[Категорія:{{PAGENAME}}]] |?Населення | format = ul }} {{#show: {{PAGENAME}} |?Код}} {{#ask:[[Unknown]]}}',
      {},
      'Київ',
      0,
      { inlineQuery },
    );
    assert.deepEqual(seen, ['ask:[[Категорія:Київ]]|?Населення|format = ul', 'show:Київ|?Код', 'ask:[[Unknown]]']);
    // noparse output is not expanded again; an unknown answer leaves the call as written
    assert.equal(r.text, '<ask 3> <show 2> {{#ask:[[Unknown]]}}');
  });

  test("a template printer's output is expanded, nested at most two deep (ResultPrinter::$maxRecursionDepth)", () => {
    // each row template runs a template query of its own (one template inside itself is a template loop)
    const pages = {
      'Шаблон:Row1': '[1:{{#ask:q|template=Row2}}]',
      'Шаблон:Row2': '[2:{{#ask:q|template=Row3}}]',
      'Шаблон:Row3': '[3:{{#ask:q|template=Row1}}]',
    };
    const inlineQuery: PreprocessContext['inlineQuery'] = (_fn, args) => ({
      text: `{{${args[1].slice('template='.length)}|1=a}}`,
      expand: true,
    });
    assert.equal(expand('{{#ask:q|template=Row1}}', pages, 'Київ', 0, { inlineQuery }).text, '[1:[2:]]');
    // template output is expanded like any text: {{{1}}} of the caller's frame does not leak in
    assert.equal(
      expand('{{#ask:x}}', { 'Шаблон:E': '<{{{1|}}}>' }, 'Київ', 0, { inlineQuery: () => ({ text: '{{E|b}}{{{1|-}}}', expand: true }) })
        .text,
      '<b>-',
    );
  });

  test('unknown functions never count as templates', () => {
    assert.deepEqual(expand('{{#set:A=1}}{{#unknown}}').templates, []);
  });

  test('#arraymap maps delimited values through a formula', () => {
    assert.equal(x('{{#arraymap: Київ, Львів ,, Одеса | , | x | [[Місто::x]] }}'), '[[Місто::Київ]], [[Місто::Львів]], [[Місто::Одеса]]');
    assert.equal(x('{{#arraymap:a;b|;|@|<@>|\\n}}'), '<a>\n<b>');
    // the new delimiter is trimmed; a conjunction differing from it gets one space on each side
    assert.equal(x('{{#arraymap:a,b,c|,|v|[[P::v]]|; |and}}'), '[[P::a]];[[P::b]] and [[P::c]]');
    // the formula may contain templates; the variable is replaced before they are expanded
    assert.equal(x('{{#arraymap:a,b|,|x|{{Echo|x}}}}', { 'Шаблон:Echo': '({{{1}}})' }), '(a), (b)');
    // inside a template, the values usually come from a parameter
    assert.equal(x('{{T|теги=один, два}}', { 'Шаблон:T': '{{#arraymap:{{{теги|}}}|,|x|[[Тег::x]]|}}' }), '[[Тег::один]][[Тег::два]]');
  });

  test('#arraymaptemplate calls a template per value', () => {
    assert.equal(x('{{#arraymaptemplate: a, b | Echo }}', { 'Шаблон:Echo': '<{{{1}}}>' }), '<a>, <b>');
  });
});

describe('core parser functions', () => {
  test('case functions are Unicode-aware', () => {
    assert.equal(
      x('{{lc: ЇЖАК Ґанок }}|{{uc: їжак ґанок }}|{{lcfirst: Їжак }}|{{ucfirst: їжак }}|{{LC:ABC}}'),
      'їжак ґанок|ЇЖАК ҐАНОК|їжак|Їжак|abc',
    );
  });

  test('urlencode and anchorencode', () => {
    assert.equal(x('{{urlencode: a b&c/д }}'), 'a+b%26c%2F%D0%B4');
    assert.equal(x('{{urlencode: a b/д | PATH }}'), 'a%20b%2F%D0%B4');
    assert.equal(x('{{urlencode: a b/д | WIKI }}'), 'a_b/%D0%B4');
    assert.equal(
      x('{{anchorencode: Історія [[міста|Києва]] }}'),
      '.D0.86.D1.81.D1.82.D0.BE.D1.80.D1.96.D1.8F_.D0.9A.D0.B8.D1.94.D0.B2.D0.B0',
    );
    assert.equal(x('{{anchorencode: a: b }}'), 'a:_b');
  });

  test('padleft and padright', () => {
    assert.equal(
      x('{{padleft: 7 | 3 }}|{{padleft: 7 | 5 | ab }}|{{padright: ї | 3 | ґ }}|{{padleft: xyz | 2 }}|{{padleft: 7 | 3 | }}'),
      '007|abab7|їґґ|xyz|7',
    );
  });

  test('{{int:}}: the message hook gets the key and the trimmed arguments; its text is expanded in a frame of the call', () => {
    const asked: string[] = [];
    const interfaceMessage = (key: string, args: string[]) => {
      asked.push(`${key}(${args.join(',')})`);
      return key === 'm' ? `[${args[0] ?? '$1'}|{{{1}}}|{{uc:x}}|{{{k|-}}}]` : `<${key}>`;
    };
    const r = expand('{{int:m| a |k= b }} {{ВНУТР:none}} {{int:}}', {}, 'Київ', 0, { interfaceMessage });
    // named arguments are trimmed in the frame; {{int:}} without a key is no function call (found => false)
    assert.equal(r.text, '[a| a |X|b] <none> [[:Шаблон:Int:]]');
    assert.deepEqual(asked, ['m(a,k= b)', 'none()']);
    // never a transclusion of a MediaWiki: page
    assert.deepEqual(r.templates, [{ ns: 10, dbkey: 'Int:' }]);
    // without the hook no message exists: Message::plain's "<key>"
    assert.equal(x('{{int:m|a}}', { 'MediaWiki:M': 'page' }), '<m>');
  });

  test('#tag builds an extension tag', () => {
    assert.equal(x('{{#tag: ref | текст {{!}} | name = "a" }}'), '<ref name="a"> текст | </ref>'); // content is not trimmed
    assert.equal(x('{{#tag: nowiki }}'), '<nowiki/>');
    assert.equal(x('{{#tag: bogus | x }}'), '<span class="error">Unknown extension tag "bogus"</span>');
  });

  test('#language, ns, formatnum, plural', () => {
    assert.equal(x('{{#language: uk }} {{#language: en }}'), 'українська English');
    assert.equal(x('{{ns:10}}|{{ns:Template}}|{{ns:14}}|{{ns:0}}'), 'Шаблон|Шаблон|Категорія|');
    assert.equal(
      x('{{formatnum: 1234567.5 }}|{{formatnum: 1234 }}|{{formatnum: 1\u00a0234\u00a0567,5 | R }}'),
      '1\u00a0234\u00a0567,5|1234|1234567.5',
    );
    // Language::parseFormattedNumber maps the separators of the table only: plain spaces stay, "r" is no rawsuffix
    assert.equal(x('{{formatnum: 1 234,5 | R }}|{{formatnum:1234567|r}}|{{formatnum:1234.5|NOSEP}}'), '1 234.5|1\u00a0234\u00a0567|1234.5');
    const pl = (n: number): string => x(`{{PLURAL: ${n} | місто | міста | міст }}`);
    assert.deepEqual([1, 2, 5, 11, 21, 22, 25, 102, 112].map(pl), [
      'місто',
      'міста',
      'міст',
      'міст',
      'місто',
      'міста',
      'міст',
      'міста',
      'міст',
    ]);
  });
});

// ---------------------------------------------------------------------------------------------------
// Magic words
// ---------------------------------------------------------------------------------------------------

describe('magic words', () => {
  test('page name variables render with spaces', () => {
    const r = (w: string, title: string, ns = 0): string => x(`{{${w}}}`, {}, title, ns);
    assert.equal(r('PAGENAME', 'Біла Церква'), 'Біла Церква');
    assert.equal(r('PAGENAMEE', 'Біла Церква'), '%D0%91%D1%96%D0%BB%D0%B0_%D0%A6%D0%B5%D1%80%D0%BA%D0%B2%D0%B0');
    assert.equal(r('FULLPAGENAME', 'Місто', 10), 'Шаблон:Місто');
    assert.equal(r('FULLPAGENAMEE', 'A b', 10), '%D0%A8%D0%B0%D0%B1%D0%BB%D0%BE%D0%BD:A_b');
    assert.equal(r('NAMESPACE', 'Місто', 10), 'Шаблон');
    assert.equal(r('NAMESPACE', 'Київ'), '');
    assert.equal(r('NAMESPACENUMBER', 'Місто', 10), '10');
    assert.equal(r('TALKPAGENAME', 'Місто', 10), 'Обговорення шаблону:Місто');
    assert.equal(r('НАЗВА_СТОРІНКИ', 'Львів'), 'Львів');
  });

  test('subpage variables depend on the namespace', () => {
    const r = (w: string, title: string, ns: number): string => x(`{{${w}}}`, {}, title, ns);
    assert.equal(r('BASEPAGENAME', 'Іван/Чернетка/Новий', 2), 'Іван/Чернетка');
    assert.equal(r('SUBPAGENAME', 'Іван/Чернетка/Новий', 2), 'Новий');
    assert.equal(r('ROOTPAGENAME', 'Іван/Чернетка/Новий', 2), 'Іван');
    // the main namespace has no subpages
    assert.equal(r('BASEPAGENAME', 'AC/DC', 0), 'AC/DC');
    assert.equal(r('SUBPAGENAME', 'AC/DC', 0), 'AC/DC');
  });

  test('names are escaped as MediaWiki does (entities)', () => {
    assert.equal(x('{{PAGENAME}}', {}, "Кам'янець-Подільський"), 'Кам&#39;янець-Подільський');
    assert.equal(x('{{PAGENAME}}', {}, 'A=B & "C"'), 'A&#61;B &#38; &#34;C&#34;');
  });

  test('the optional :title argument', () => {
    assert.equal(
      x('{{PAGENAME: шаблон:foo bar }}|{{NAMESPACE:Категорія:X}}|{{FULLPAGENAME:Template:x_y}}|{{PAGENAME:}}'),
      'Foo bar|Категорія|Шаблон:X y|',
    );
    assert.equal(x('{{BASEPAGENAME:Користувач:A/B/C}}|{{SUBPAGENAME:Користувач:A/B/C}}'), 'A/B|C');
  });

  test('page names inside templates are those of the page being rendered', () => {
    assert.equal(x('{{T}}', { 'Шаблон:T': '{{PAGENAME}}/{{NAMESPACE}}' }, 'Одеса'), 'Одеса/');
  });

  test('SITENAME comes from the context, else stays as written', () => {
    assert.equal(expand('{{SITENAME}}', {}, 'X', 0, { siteName: 'Вікі' }).text, 'Вікі');
    assert.equal(x('{{SITENAME}}'), '{{SITENAME}}');
  });

  test('variables are case-sensitive; other cases are template calls', () => {
    const r = expand('{{pagename}}');
    assert.equal(r.text, '[[:Шаблон:Pagename]]');
  });

  test('time variables use ctx.now', () => {
    const now = new Date(Date.UTC(2015, 4, 7, 9, 5, 3));
    const r = expand(
      '{{CURRENTYEAR}}-{{CURRENTMONTH}}-{{CURRENTDAY2}} {{CURRENTTIME}} {{CURRENTMONTHNAMEGEN}} {{CURRENTTIMESTAMP}}',
      {},
      'X',
      0,
      { now },
    );
    assert.equal(r.text, '2015-05-07 09:05 травня 20150507090503');
  });

  test('variables MediaWiki knows but that need the live wiki stay as written', () => {
    const r = expand('{{NUMBEROFARTICLES}} {{fullurl:Київ}}');
    assert.equal(r.text, '{{NUMBEROFARTICLES}} {{fullurl:Київ}}');
    assert.deepEqual(r.templates, []);
  });

  test('DEFAULTSORT family: recorded, removed from the text, the last one wins', () => {
    const r = expand('a{{DEFAULTSORT:Перший}}b{{DEFAULTSORTKEY:Другий}}c');
    assert.equal(r.text, 'abc');
    assert.equal(r.defaultSort, 'Другий');
    assert.equal(expand('{{DEFAULTCATEGORYSORT: Київ, місто }}').defaultSort, 'Київ, місто');
    assert.equal(expand('{{СОРТУВАННЯ_ЗА_ЗАМОВЧУВАННЯМ:Ключ}}').defaultSort, 'Ключ');
    assert.equal(expand('{{DEFAULTSORT:А}}{{DEFAULTSORT:Б|noreplace}}').defaultSort, 'А');
    assert.equal(expand('text').defaultSort, undefined);
    assert.equal(expand('{{T}}', { 'Шаблон:T': '{{DEFAULTSORT:{{PAGENAME}}, місто}}' }, 'Київ').defaultSort, 'Київ, місто');
  });
});

// ---------------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------------

// Hostile input must end with limitHit set; how fast it ends is measured by benchmarks, not asserted
// here (a hang would show as the runner's timeout).
function timed(fn: () => ExpandResult): { r: ExpandResult; ms: number } {
  const t0 = performance.now();
  const r = fn();
  return { r, ms: performance.now() - t0 };
}

describe('limits', () => {
  test('exponential bomb {{A}} → {{B}}{{B}} finishes quickly with limitHit', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 30; k++) pages[`Шаблон:A${k}`] = `{{A${k + 1}}}{{A${k + 1}}}`;
    pages['Шаблон:A30'] = 'xxxxxxxxxxxxxxxxxxxx';
    const { r } = timed(() => expand('before {{A0}} after', pages));
    assert.equal(r.limitHit, 'size');
    assert.ok(r.text.startsWith('before ') && r.text.endsWith(' after'));
    assert.ok(r.text.length < 5 * 1024 * 1024);
  });

  test('exponential bomb with arguments (no caching possible) finishes quickly with limitHit', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 30; k++) pages[`Шаблон:B${k}`] = `{{B${k + 1}|{{{1}}}}}{{B${k + 1}|{{{1}}}}}`;
    pages['Шаблон:B30'] = '';
    const { r } = timed(() => expand('{{B0|x}}', pages));
    assert.ok(r.limitHit !== undefined);
  });

  test('wide bomb: ten calls per level', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 8; k++) pages[`Шаблон:W${k}`] = `{{W${k + 1}|{{{1}}}}}`.repeat(10);
    pages['Шаблон:W8'] = '{{#if:{{{1}}}|}}';
    const { r } = timed(() => expand('{{W0|a}}', pages));
    assert.equal(r.limitHit, 'nodes');
  });

  test('doubling parameters through a chain of templates hit the size limit', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 35; k++) pages[`Шаблон:G${k}`] = `{{G${k + 1}|{{{1}}}{{{1}}}}}`;
    pages['Шаблон:G35'] = '{{{1}}}';
    const { r } = timed(() => expand('{{G0|abcdefgh}}', pages, 'X', 0, { limits: { maxDepth: 100 } }));
    assert.equal(r.limitHit, 'size');
  });

  test('nesting deeper than maxDepth is left unexpanded', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 60; k++) pages[`Шаблон:D${k}`] = `<${k}>{{D${k + 1}}}`;
    pages['Шаблон:D60'] = 'bottom';
    const r = expand('{{D0}}', pages);
    assert.equal(r.limitHit, 'depth');
    assert.ok(r.text.startsWith('<0><1><2>'));
    assert.ok(!r.text.includes('bottom'));
    assert.match(r.text, /\{\{D\d+\}\}$/);
    // a generous limit lets it through
    const ok = expand('{{D0}}', pages, 'X', 0, { limits: { maxDepth: 200 } });
    assert.equal(ok.limitHit, undefined);
    assert.ok(ok.text.endsWith('<59>bottom'));
  });

  test('maxExpandedBytes and maxNodes are honoured', () => {
    const big = expand('{{T}}{{T}}{{T}}', { 'Шаблон:T': 'x'.repeat(100) }, 'X', 0, { limits: { maxExpandedBytes: 250 } });
    assert.equal(big.limitHit, 'size');
    assert.equal(big.text, 'x'.repeat(200) + '{{T}}');
    const nodes = expand('{{#if:1|a}}'.repeat(100), {}, 'X', 0, { limits: { maxNodes: 50 } });
    assert.equal(nodes.limitHit, 'nodes');
    assert.ok(nodes.text.startsWith('aaaa') && nodes.text.endsWith('{{#if:1|a}}'));
  });

  test('#arraymap over a huge list stops at the node budget', () => {
    const formula = '[[P::x]] ' + 'lorem {{!}} '.repeat(60);
    const { r } = timed(() => expand(`{{#arraymap:${'a,'.repeat(200000)}|,|x|${formula}}}`));
    assert.equal(r.limitHit, 'nodes');
    assert.ok(r.text.length <= 2 * 1024 * 1024); // what was mapped before the budget ran out
  });

  test('an enormous #expr is evaluated in linear time', () => {
    const { r } = timed(() => expand(`{{#expr: ${'1+'.repeat(200000)}1 }}`));
    assert.equal(r.text, '200001');
  });

  test('pathological brace runs and unclosed constructs do not blow up', () => {
    for (const text of [
      '{'.repeat(300000) + '}'.repeat(300000),
      '{{a|'.repeat(100000) + '[[b'.repeat(50000),
      '{{#if:x|'.repeat(50000) + 'y' + '}}'.repeat(50000),
      '<nowiki'.repeat(100000),
    ]) {
      const { r } = timed(() => expand(text));
      assert.equal(typeof r.text, 'string');
    }
    // unclosed constructs are plain text, byte for byte
    const unclosed = '{{a|b'.repeat(1000) + '[[c|d';
    assert.equal(x(unclosed), unclosed);
  });

  test('a 2 MB page expands well under a second', () => {
    const pages = { 'Шаблон:Населення': '<span>{{{1}}}</span>[[Населення::{{{1}}}]]', 'Шаблон:Cite': '[{{{url}}} {{{title|link}}}]' };
    const para =
      "'''Київ''' — столиця [[Україна|України]], місто з населенням {{Населення|2 884 000}} осіб.<ref>{{cite|url=http://example.org|title=Джерело}}</ref>\n" +
      '== Історія ==\n<!-- коментар -->\n{{#if:{{{x|}}}|a|b}} {{PAGENAME}} [[Категорія:Міста]] Звичайний текст абзацу, досить довгий, щоб бути схожим на статтю.\n\n';
    const text = para.repeat(Math.ceil((2 * 1024 * 1024) / Buffer.byteLength(para)));
    expand(text.slice(0, 20000), pages); // warm up the JIT
    const { r } = timed(() => expand(text, pages));
    assert.equal(r.limitHit, undefined);
    assert.ok(r.text.includes('[[Населення::2 884 000]]'));
  });
});
