/**
 * Semantic MediaWiki's annotations as the import extracts them (in-text, #set, #subobject, parser
 * function arguments), #ask query profiles, word keys with folding, and the top-k trie.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { TopKTrie } from '../../src/importer/semantic-hook.js';
import { extractAnnotations, findParserFunctions, mapParameters } from '../../src/semantic/annotations.js';
import { describeQuery, normalizedQueryString } from '../../src/semantic/query-profile.js';
import { fold, matchesFolded, wordKeys } from '../../src/semantic/fold.js';
import { TitleCodec } from '../../src/wiki/titles.js';

const codec = TitleCodec.forSite('Демовікі');

/** PHP's json_encode escaping of non-ASCII, written independently of src/php/json.ts */
const phpEscape = (s: string) =>
  s.replace(/\//g, '\\/').replace(/[^\x20-\x7e]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
const hex = (s: string) => crypto.createHash('md5').update(s).digest('hex');

describe('annotation extraction', () => {
  it('in-text annotations: value, label, two properties, := and SMW::off', () => {
    const a = extractAnnotations(
      '[[P::V]] [[P::W|label]] [[A::B::C]] [[Q:=x]] [[Файл:X.png|thumb]] [[Foo|Bar::Baz]] [[SMW::off]][[P::hidden]][[SMW::on]] [[P::]] [[:Категорія:X]]',
      codec,
    );
    assert.deepEqual(a.annotations, [
      { prop: 'P', value: 'V' },
      { prop: 'P', value: 'W' },
      { prop: 'A', value: 'C' },
      { prop: 'B', value: 'C' },
      { prop: 'Q', value: 'x' },
    ]);
  });
  it('#set with several values, bare values and +sep; parser functions before in-text annotations', () => {
    const a = extractAnnotations('[[P::late]] {{#set:P=a|b|Q=1,2|+sep=,|R=}} {{ #SET: S = x }}', codec);
    assert.deepEqual(a.annotations, [
      { prop: 'P', value: 'a' },
      { prop: 'P', value: 'b' },
      { prop: 'Q', value: '1' },
      { prop: 'Q', value: '2' },
      { prop: 'S ', value: 'x' },
      { prop: 'P', value: 'late' },
    ]);
  });
  it('#subobject: named, anonymous (md5 of the parameters), merged, @category', () => {
    const a = extractAnnotations(
      '{{#subobject:перша згадка|Рік=482}}{{#subobject:|Рік=1991|Подія=Столиця}}{{#subobject:перша згадка|Подія=x|@category=Події}}{{#subobject:|Рік=}}',
      codec,
    );
    const anon = '_' + hex(`{"${phpEscape('Рік')}":["1991"],"${phpEscape('Подія')}":["${phpEscape('Столиця')}"]}`);
    assert.deepEqual(
      a.subobjects.map((s) => [s.name, s.annotations]),
      [
        [
          'перша_згадка',
          [
            { prop: 'Рік', value: '482' },
            { prop: 'Подія', value: 'x' },
            { prop: '@category', key: '_INST', value: 'Події' },
          ],
        ],
        [
          anon,
          [
            { prop: 'Рік', value: '1991' },
            { prop: 'Подія', value: 'Столиця' },
          ],
        ],
      ],
    );
  });
  it('parser function arguments split outside [[…]] and {{…}}', () => {
    const [call] = findParserFunctions('x {{#ask:[[P::a|b]]|?Q|format=ul|x={{y|z}}}} y', ['ask']);
    assert.deepEqual(call.args, ['[[P::a|b]]', '?Q', 'format=ul', 'x={{y|z}}']);
    assert.deepEqual(mapParameters(['', 'A=1', '2', 'B=3']), {
      first: '',
      map: [
        ['A', ['1', '2']],
        ['B', ['3']],
      ],
    });
  });
  it('#ask: query subobject name, format, size, depth and normalised query string', () => {
    const q = describeQuery(['[[Розташоване в::київська_область]]', '?Населення', 'format=ul', 'limit=3'], codec)!;
    const json =
      `{"conditions":"[[${phpEscape('Розташоване в::київська_область')}]]","parameters":{"limit":3,"offset":0,"sortkeys":[],"mainlabel":"","querymode":1},` +
      `"printouts":["?${phpEscape('Населення')}"]}`;
    assert.equal(q.name, '_QUERY' + hex(json));
    assert.deepEqual([q.format, q.size, q.depth], ['ul', 2, 1]);
    const typeOf = (k: string) => (k === 'Населення' ? '_num' : '_wpg');
    assert.equal(normalizedQueryString(q.conditions, { codec, typeOf }), '[[Розташоване в::Київська область]]');
    assert.equal(
      normalizedQueryString('[[категорія:міста]] [[населення::>1 000]]', { codec, typeOf }),
      '[[Категорія:Міста]] [[Населення::>1000]]',
    );
    const sorted = describeQuery(['[[Категорія:Обласні центри]]', '?Розташоване в', 'sort=Населення', 'order=desc'], codec)!;
    assert.equal(sorted.format, 'table');
    assert.equal(
      sorted.name,
      '_QUERY' +
        hex(
          `{"conditions":"[[${phpEscape('Категорія:Обласні центри')}]]","parameters":{"limit":50,"offset":0,"sortkeys":{"${phpEscape('Населення')}":"DESC"},"mainlabel":"","querymode":1},"printouts":["?${phpEscape('Розташоване в')}"]}`,
        ),
    );
    assert.deepEqual([sorted.size, sorted.depth], [1, 0]);
    assert.equal(describeQuery(['[[A::+]] OR [[B.C::x||y]]'], codec)!.format, 'list');
    // SMWParamFormat's default counts the subject column: one print request left is a list
    assert.equal(describeQuery(['[[A::+]]', '?B', 'mainlabel=-'], codec)!.format, 'list');
    assert.equal(describeQuery(['[[A::+]]', '?B', 'format=nosuch'], codec)!.format, 'table');
    assert.deepEqual(
      ['rss', 'datatables', 'atom'].map((f) => describeQuery(['[[A::+]]', 'format=' + f], codec)!.format),
      ['feed', 'datatables', 'list'],
    );
  });
  it('word keys and folding', () => {
    assert.deepEqual(wordKeys('Київська_область'), ['київська область', 'область']);
    assert.equal(fold('КИЇВ’ʼ`'), "київ'''");
    assert.ok(matchesFolded("Кам'янець-Подільський", fold('КАМ’')));
    assert.ok(matchesFolded('Івано-Франківська область', fold('ОБЛ')));
    assert.ok(!matchesFolded('Київська_область', fold('їв')));
    assert.equal(wordKeys('x'.repeat(100))[0].length, 64);
  });
  it('the top-k trie reports every heavy node with its smallest ids', () => {
    const keys = ['a', 'ab', 'ab', 'abc', 'abd', 'b', 'ba', 'bb', 'bc'].map((k, i) => [k, 10 - i] as const);
    const got: Array<[string, number[]]> = [];
    const t = new TopKTrie(2, 2, (k, ids) => got.push([k, ids]));
    for (const [k, id] of keys) t.add(k, id);
    t.end();
    assert.deepEqual(got, [
      ['ab', [6, 7]],
      ['a', [6, 7]],
      ['b', [2, 3]],
    ]);
  });
});
