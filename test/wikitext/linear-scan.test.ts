/**
 * Every wikitext scan of the importer is linear in the nesting of brackets (issue 15.5): pages of 1 MB and
 * 10 MB made of one pathological construct each -- nested or unclosed `[[ ]]`, `[ ]`, `{{ }}`, `{{{ }}}`,
 * `<!-- -->`, unclosed tags, SMW annotations and parser functions -- go through the preprocessor, the
 * link extraction and the semantic annotation parser, and give the right links. These are not timed:
 * a quadratic scan of 10 MB takes hours, so the suite would not finish; a linear one takes a second.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { PreprocessContext } from '../../src/wikitext/preprocessor/context.js';
import { expandWikitext } from '../../src/wikitext/preprocessor/index.js';
import { extractLinks, type PageLinks } from '../../src/wikitext/links.js';
import { extractAnnotations, type PageAnnotations } from '../../src/semantic/annotations.js';
import { TitleCodec } from '../../src/wiki/titles.js';

const codec = TitleCodec.forSite('Вікі');
const ctx: PreprocessContext = {
  title: { ns: 0, dbkey: 'Сторінка', nsText: '' },
  getTemplate: () => null,
  pageExists: () => false,
  resolveTarget: (t, ns) => {
    const x = codec.parse(t, ns);
    return x && { ns: x.ns, dbkey: x.dbkey, nsText: codec.nsName(x.ns) ?? '' };
  },
};

interface Case {
  name: string;
  /** the page of about `bytes` characters */
  make: (bytes: number) => string;
  check: (links: PageLinks, ann: PageAnnotations) => void;
}

const repeat = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));
const nested = (open: string, inner: string, close: string, bytes: number) => {
  const n = Math.max(1, Math.floor(bytes / (open.length + close.length)));
  return open.repeat(n) + inner + close.repeat(n);
};
const pages = (l: PageLinks) => [...l.pages.keys()].sort();
const none = (l: PageLinks, a: PageAnnotations) => {
  assert.deepEqual(pages(l), []);
  assert.deepEqual([...l.files], []);
  assert.deepEqual(a.annotations, []);
};

const CASES: Case[] = [
  // the innermost "[[Ціль]]" is a link; the brackets around it are text
  { name: 'nested [[ ]]', make: (b) => nested('[[', 'Ціль', ']]', b), check: (l) => assert.deepEqual(pages(l), ['0|Ціль']) },
  { name: 'unclosed [[', make: (b) => repeat('[[Ціль|', b), check: none },
  // an image whose caption never closes is no image; the links of the caption still are links
  {
    name: 'unclosed image caption with links',
    make: (b) => repeat('[[Файл:A.png|[[Ціль]] ', b),
    check: (l) => {
      assert.deepEqual(pages(l), ['0|Ціль']);
      assert.deepEqual([...l.files], []);
    },
  },
  { name: 'nested images', make: (b) => nested('[[Файл:A.png|x', '', ']]', b), check: (l) => assert.deepEqual([...l.files], ['A.png']) },
  { name: 'nested [ ]', make: (b) => nested('[', 'http://example.org/ x', ']', b), check: none },
  { name: 'nested {{ }}', make: (b) => nested('{{', 'Немає', '}}', b), check: none },
  { name: 'unclosed {{', make: (b) => repeat('{{Немає|', b), check: none },
  { name: 'nested {{{ }}}', make: (b) => nested('{{{', '1', '}}}', b), check: none },
  { name: 'unclosed {{{', make: (b) => repeat('{{{', b), check: none },
  { name: 'unclosed <!--', make: (b) => repeat('<!--[[Ціль]]', b), check: none },
  { name: 'many comments', make: (b) => repeat('<!-- x -->[[Ціль]]', b), check: (l) => assert.deepEqual(pages(l), ['0|Ціль']) },
  { name: 'unclosed <nowiki>', make: (b) => repeat('<nowiki>[[Ціль]]', b), check: (l) => assert.deepEqual(pages(l), ['0|Ціль']) },
  {
    name: 'unclosed <pre with attributes',
    make: (b) => repeat('<pre a [[Ціль]] ', b),
    check: (l) => assert.deepEqual(pages(l), ['0|Ціль']),
  },
  {
    name: 'unclosed <gallery>',
    make: (b) => repeat('<gallery>\nA.png|[[Ціль]]\n', b),
    check: (l) => assert.deepEqual(pages(l), ['0|Ціль']),
  },
  { name: 'unclosed <ref>', make: (b) => repeat('<ref>[[Ціль]]', b), check: (l) => assert.deepEqual(pages(l), ['0|Ціль']) },
  // SMW's pattern starts at the first '[[': the property is everything up to '::', brackets included
  {
    name: 'nested SMW annotations',
    make: (b) => nested('[[', 'Має::Значення', ']]', b),
    check: (_l, a) => {
      assert.equal(a.annotations.length, 1);
      assert.ok(/^\[+Має$/.test(a.annotations[0].prop));
      assert.equal(a.annotations[0].value, 'Значення');
    },
  },
  { name: 'unclosed SMW annotations', make: (b) => repeat('[[Має::', b), check: none },
  { name: 'unclosed {{#set:', make: (b) => repeat('{{#set:Має=1|', b), check: none },
  { name: 'nested {{#set:', make: (b) => nested('{{#set:Має=1|', '', '}}', b), check: (_l, a) => assert.ok(a.annotations.length > 0) },
];

function run(text: string): { links: PageLinks; ann: PageAnnotations } {
  const exp = expandWikitext(text, ctx);
  return { links: extractLinks(exp.text, { codec, ns: 0, dbkey: 'Сторінка' }), ann: extractAnnotations(exp.text, codec) };
}

describe('wikitext scans are linear in bracket nesting', () => {
  for (const c of CASES) {
    it(`${c.name}: 1 MB`, () => {
      const { links, ann } = run(c.make(1_000_000));
      c.check(links, ann);
    });
  }
  // the six kinds of the issue at 10 MB
  for (const name of ['nested [[ ]]', 'nested [ ]', 'nested {{ }}', 'nested {{{ }}}', 'unclosed <!--', 'unclosed <pre with attributes']) {
    const c = CASES.find((x) => x.name === name)!;
    it(`${c.name}: 10 MB`, () => {
      const { links, ann } = run(c.make(10_000_000));
      c.check(links, ann);
    });
  }
});
