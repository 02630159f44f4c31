/**
 * SMW 2.2's concepts on the demo wiki (the Concept: pages of scripts/generate-demo.ts); the queries using
 * them are in test/data/ask-queries.json (run on both stores there).
 *
 *  - browsebysubject shows a concept's _CONC value as SMW serializes a DIConcept read back from its store:
 *    PHP's serialize() of the object (protected members "\0*\0name", numbers as the strings the database
 *    returns, the documentation XML-encoded, the cache members null);
 *  - a concept's definition is pruned to $smwgQConceptMaxSize/$smwgQConceptMaxDepth, not to the inline limits.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';
import { defineConcept } from '../../src/semantic/concept.js';
import { parseConditions } from '../../src/semantic/query/parser.js';
import { TitleCodec } from '../../src/wiki/titles.js';

const s = demoServerForFile();

/** the serialization written out by hand (byte lengths counted in UTF-8) */
function serialized(
  query: string,
  queryBytes: number,
  docu: string,
  docuBytes: number,
  features: string,
  size: string,
  depth: string,
): string {
  return (
    'O:14:"SMW\\DIConcept":8:{' +
    `s:12:"\0*\0m_concept";s:${queryBytes}:"${query}";` +
    `s:9:"\0*\0m_docu";s:${docuBytes}:"${docu}";` +
    `s:13:"\0*\0m_features";s:${features.length}:"${features}";` +
    `s:9:"\0*\0m_size";s:1:"${size}";` +
    `s:10:"\0*\0m_depth";s:1:"${depth}";` +
    's:14:"\0*\0cacheStatus";N;s:12:"\0*\0cacheDate";N;s:13:"\0*\0cacheCount";N;}'
  );
}

async function conceptItem(subject: string): Promise<{ type: number; item: string }[] | undefined> {
  const r = await s.get({ action: 'browsebysubject', subject, utf8: 1 });
  assert.equal(r.status, 200);
  return r.json.query.data.find((p: { property: string }) => p.property === '_CONC')?.dataitem;
}

describe('concepts: the _CONC value', () => {
  it('is the DIConcept serialization', async () => {
    // [[Категорія:Міста]] (1) [[Населення::>1000000]] (2): size 3, depth 1, conjunction|category|property = 19;
    // the query: 23 Cyrillic letters (46 bytes) + 20 ASCII = 66 bytes; the documentation: 28 letters + 7 = 63
    assert.deepEqual(await conceptItem('Concept:Міста-мільйонники'), [
      {
        type: 10,
        item: serialized('[[Категорія:Міста]] [[Населення::>1000000]]', 66, 'Міста, де живе понад мільйон людей.', 63, '19', '3', '1'),
      },
    ]);
  });

  it('keeps the query as SMW normalises it and encodes the documentation', async () => {
    // classes in a disjunction merge into one ClassDescription of two categories: size 1, category|disjunction = 34
    assert.deepEqual(await conceptItem('Concept:Страви й напої'), [
      { type: 10, item: serialized('[[Категорія:Супи||Напої]]', 43, '', 0, '34', '1', '0') },
    ]);
    const tributaries = await conceptItem('Concept:Довгі притоки Дніпра');
    const docu = 'Притоки Дніпра, довші за 700 км (&lt;q&gt; та &lt;b&gt;розмітка&lt;/b&gt; в описі).';
    assert.deepEqual(tributaries, [
      { type: 10, item: serialized('[[Впадає в::Dnieper]] [[Довжина::>700]]', 53, docu, Buffer.byteLength(docu), '17', '4', '1') },
    ]);
  });

  it('is stored for the first #concept of a Concept: page only', async () => {
    assert.deepEqual(await conceptItem('Concept:Дві концепції'), [
      { type: 10, item: serialized('[[Категорія:Супи]]', 31, '', 0, '2', '1', '0') },
    ]);
    assert.equal(await conceptItem('Concept:Без означення'), undefined);
  });

  it('is absent from pages without #concept', async () => {
    assert.equal(await conceptItem('Київ'), undefined);
  });
});

describe('concepts: in inline queries', () => {
  it('{{#ask:[[Concept:…]]}} on a page links the pages of the concept (recorded at import)', async () => {
    const r = await s.get({ action: 'query', prop: 'links', titles: 'Concept:Великі обласні центри', utf8: 1 });
    const page = Object.values(r.json.query.pages)[0] as { links?: { ns: number; title: string }[] };
    assert.deepEqual(page.links, [
      { ns: 0, title: 'Київ' },
      { ns: 0, title: 'Одеса' },
      { ns: 0, title: 'Харків' },
    ]);
  });

  it('the #concept call neither categorizes nor links its page', async () => {
    const r = await s.get({ action: 'query', prop: 'categories|links', titles: 'Concept:Міста-мільйонники', utf8: 1 });
    const page = Object.values(r.json.query.pages)[0] as { categories?: unknown[]; links?: { ns: number; title: string }[] };
    assert.equal(page.categories, undefined);
    assert.deepEqual(page.links, [{ ns: 108, title: 'Concept:Великі обласні центри' }]);
  });
});

describe('concepts: {{#concept:}} rendered', () => {
  const parse = async (p: Record<string, string>) =>
    (await s.get({ action: 'parse', prop: 'text', disablepp: 1, utf8: 1, ...p })).json.parse.text['*'] as string;
  const warning = (m: string) =>
    `<span class="smw-highlighter" data-type="4" data-state="inline" data-title="Помилка"><span class="smwtticon warning"></span><div class="smwttcontent">${m}</div></span>`;
  const enc = (s: string) => encodeURIComponent(s).replace(/%2F/g, '/').replace(/%3A/g, ':');

  it('is the description box: heading, RDF link, documentation, the query with its [ as references', async () => {
    const rdf = 'Спеціальна:ExportRDF/Concept:Міста-мільйонники';
    assert.equal(
      (await parse({ page: 'Concept:Міста-мільйонники' })).split('\n')[0],
      '<div class="smwfact"><span class="smwfactboxhead">Опис концепції «Міста-мільйонники».</span>' +
        `<span class="smwrdflink"><span class="rdflink"><a href="/index.php/${enc(rdf)}" title="${rdf}">вивід RDF</a></span></span><br />` +
        '<p class="concept-documenation">Міста, де живе понад мільйон людей.</p>' +
        '<pre>&#x005B;&#x005B;Категорія:Міста]] &#x005B;&#x005B;Населення::&gt;1000000]]</pre><br /></div>',
    );
    // Html::element escapes & and < of the documentation; the parse that follows escapes the > left in text
    assert.match(
      await parse({ title: 'Concept:Нова', text: '{{#concept:[[Категорія:Міста]]|a & b <i>"x"</i>}}' }),
      /<p class="concept-documenation">a &amp; b &lt;i&gt;"x"&lt;\/i&gt;<\/p>/,
    );
  });

  it("errors: outside the Concept namespace, a page's second #concept, the query's own", async () => {
    assert.equal(
      await parse({ title: 'Київ', text: '{{#concept:[[Категорія:Міста]]}}' }),
      warning('Концепції можна означувати лише у просторі назв «Концепція:».') + '\n',
    );
    const two = await parse({ page: 'Concept:Дві концепції' });
    assert.ok(
      two.endsWith(
        '<pre>&#x005B;&#x005B;Категорія:Супи]]</pre><br /></div>\n' +
          warning('Кожна сторінка концепції може мати лише одне означення концепції.') +
          '\n',
      ),
      two,
    );
    assert.equal(await parse({ title: 'Concept:Нова', text: '{{#concept:[[Населення::abc]]}}' }), warning('«abc» не є числом') + '\n');
  });
});

describe('concepts: the definition', () => {
  const codec = TitleCodec.forSite('Демовікі');
  const ctx = { codec, typeOf: (k: string) => (k === 'Населення' ? '_num' : '_wpg') };
  const conditions = (n: number) => Array.from({ length: n }, (_, i) => `[[Населення::!${i}]]`).join(' ');

  it('is pruned to $smwgQConceptMaxSize (20), not $smwgQMaxSize (12)', () => {
    const seven = defineConcept(conditions(7), undefined, ctx);
    assert.deepEqual([seven.value.size, seven.value.depth, seven.errors], [14, 1, []]);
    assert.ok(parseConditions(conditions(7), ctx).errors[0].startsWith('Наступні умови запиту'));
    const eleven = defineConcept(conditions(11), 'д', ctx);
    assert.equal(eleven.value.size, 20);
    assert.deepEqual(eleven.errors, [
      'Наступні умови запиту не можуть бути опрацьовані в зв’язку з обмеженнями цього вікі в розмірі та/або глибині запиту: &#x005B;&#x005B;Населення::!10]].',
    ]);
    assert.equal(eleven.value.docu, 'д');
  });

  it('is pruned to $smwgQConceptMaxDepth (8)', () => {
    const chain = (n: number) => '[[' + Array.from({ length: n }, (_, i) => `P${i}`).join('.') + '::X]]';
    assert.deepEqual([defineConcept(chain(8), undefined, ctx).value.depth, defineConcept(chain(8), undefined, ctx).errors], [8, []]);
    assert.equal(defineConcept(chain(9), undefined, ctx).errors.length, 1);
  });
});
