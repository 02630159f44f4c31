/**
 * Parser functions in the preprocessor: ParserFunctions, Semantic MediaWiki's and Semantic Forms'
 * functions, and the core parser functions.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { PreprocessContext } from '../../src/wikitext/preprocessor/context.js';
import { expand, x } from '../helpers/mini-wiki.js';

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
