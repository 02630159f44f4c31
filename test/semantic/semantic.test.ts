/**
 * Semantic MediaWiki data and Semantic Forms autocompletion:
 *  - PHP number/JSON formatting on its own (value parsing is in values.test.ts, annotation extraction,
 *    query profiles, word keys and the top-k trie in annotation-extraction.test.ts);
 *  - over HTTP on the demo wiki (imported with the semantic hook): the exact JSON of browsebysubject for
 *    the page with every data type, a page without semantic data, redirects, subobjects, the errors;
 *    sfautocomplete's sources, matching, folding, order and errors; categories and files that come from
 *    templates in allcategories and allfileusages;
 *  - over HTTP on a small generated wiki: the 1000-value cap, both paths of the prefix index against a
 *    brute-force answer, circular redirects, long substrings, baseprop/basevalue.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { xmlHeader, xmlPage, XML_FOOTER, type DumpPage } from '../../src/demo/dump-xml.js';
import { importWiki } from '../../src/importer/import.js';
import { semanticImportHook } from '../../src/importer/semantic-hook.js';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { openStore } from '../../src/store/open.js';
import { printerOptions, render } from '../../src/api/format/printer.js';
import Database from 'better-sqlite3';
import { phpFloatToString } from '../../src/php/numbers.js';
import { phpJsonEncode, PhpMap } from '../../src/php/json.js';
import { fold, matchesFolded } from '../../src/semantic/fold.js';
import { compareBytes } from '../../src/wiki/collation.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-semantic-'));
process.once('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

/** PHP's json_encode escaping of non-ASCII, written independently of src/php/json.ts */
const phpEscape = (s: string) =>
  s.replace(/\//g, '\\/').replace(/[^\x20-\x7e]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
const hex = (s: string) => crypto.createHash('md5').update(s).digest('hex');

// ---------------------------------------------------------------------------------------------------
describe('PHP formatting', () => {
  it('strval(float) with precision 14', () => {
    const cases: Array<[number, string]> = [
      [1, '1'],
      [1.5, '1.5'],
      [-3, '-3'],
      [0.1, '0.1'],
      [0, '0'],
      [12345, '12345'],
      [2884000, '2884000'],
      [1e14, '1.0E+14'],
      [123456789012345, '1.2345678901234E+14'],
      [99999999999999, '99999999999999'],
      [1e-5, '1.0E-5'],
      [0.0001, '0.0001'],
      [1 / 3, '0.33333333333333'],
      [50.45, '50.45'],
      [-0.5, '-0.5'],
      [1.5e-7, '1.5E-7'],
      [2.5e20, '2.5E+20'],
      [0.1 + 0.2, '0.3'],
      [1234.5678, '1234.5678'],
    ];
    for (const [n, s] of cases) assert.equal(phpFloatToString(n), s, String(n));
  });
  it('json_encode escapes slashes and non-ASCII, lists vs maps', () => {
    assert.equal(phpJsonEncode(new PhpMap([['a/b', ['Рік', 'x"y']]])), '{"a\\/b":["\\u0420\\u0456\\u043a","x\\"y"]}');
    assert.equal(phpJsonEncode(new PhpMap([])), '[]');
    assert.equal(
      phpJsonEncode(
        new PhpMap([
          ['0', 'a'],
          ['1', 'b'],
        ]),
      ),
      '["a","b"]',
    );
    assert.equal(phpJsonEncode('😀'), '"\\ud83d\\ude00"');
  });
});

// ---------------------------------------------------------------------------------------------------
let demo: DemoServer;
let demoDb: string;
let small: DemoServer;
let smallDb: string;
const SMALL_VALUES = 1300;

before(async () => {
  const db = (demoDb = (await demoDatabase()).db);
  demo = await startDemoServer({ db });
  small = await startDemoServer({ db: (smallDb = await smallWiki()) });
});
after(async () => {
  await demo?.close();
  await small?.close();
});

/** Text values with characters that JSON escapes, and one outside the BMP */
const QUOTES = [
  'Цитата "в лапках"',
  'Цитата зі шляхом C:\\temp\\файл',
  'Цитата 😀 з емодзі',
  "Цитата з апострофом ' і </script>",
  'Цитата / з косою',
];

/** A wiki of SMALL_VALUES pages with one Page value and one Text value each, plus redirects. */
async function smallWiki(): Promise<string> {
  const pages: DumpPage[] = [];
  let id = 1;
  const add = (ns: number, title: string, text: string, redirect?: string) =>
    pages.push({
      title,
      ns,
      id: id++,
      redirect,
      revisions: [{ id: 1000 + id, timestamp: '2015-06-01T12:30:45Z', contributor: { name: 'Адмін', id: 1 }, text }],
    });
  add(102, 'Місце', '[[Має тип::Сторінка]]');
  add(102, 'Примітка', '[[Has type::Text]]');
  add(102, 'Тип', '[[Has type::String]]');
  add(102, 'Номер', '[[Has type::Number]]');
  for (let i = 0; i < SMALL_VALUES; i++) {
    const n = String(i).padStart(4, '0');
    const region = i % 3 === 0 ? `Область ${n}` : i % 3 === 1 ? `область_${n} південна` : `Район ${n} Область`;
    add(
      0,
      `Сторінка ${n}`,
      `[[Місце::${region}]] [[Примітка::Примітка номер ${n} про обʼєкт]] [[Тип::${i % 2 ? 'парний' : 'непарний'}]] [[Номер::${i}]]`,
    );
  }
  add(102, 'Цитата', '[[Has type::Text]]');
  QUOTES.forEach((q, i) => add(0, `Цитати ${i}`, `[[Цитата::${q}]]`));
  add(0, 'Коло А', '#REDIRECT [[Коло Б]]', 'Коло Б');
  add(0, 'Коло Б', '#REDIRECT [[Коло А]]', 'Коло А');
  add(0, 'Сам себе', '#REDIRECT [[Сам себе]]', 'Сам себе');
  add(0, 'Старе місце', '#REDIRECT [[Нове місце]]', 'Нове місце');
  add(0, 'Нове місце', 'Текст.');
  add(0, 'Посилання', '[[Місце::старе місце]]');
  for (let n = 0; n < 60; n++) add(0, `Довгий ${n}`, `[[Примітка::Спільний початок примітки: ${'дуже '.repeat(12)}довгий, номер ${n}]]`);
  add(0, 'Довга', `[[Примітка::${'Дуже довга примітка, що має більше тридцяти двох символів '.repeat(2)}кінець]]`);
  const dir = path.join(tmp, 'small');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'dump.xml'), xmlHeader() + pages.map(xmlPage).join('') + XML_FOOTER);
  const db = path.join(tmp, 'small.sqlite');
  await importWiki({ dump: path.join(dir, 'dump.xml'), db, lang: 'uk', hooks: [semanticImportHook({ heavyRows: 50 })], log: () => {} });
  return db;
}

const SERIALIZER = 'SMW\\Serializers\\SemanticDataSerializer';
const di = (type: number, item: string) => ({ type, item });
const prop = (property: string, ...dataitem: Array<{ type: number; item: string }>) => ({ property, dataitem });

describe('action=browsebysubject', () => {
  const page = 'Демонстраційна_сторінка';
  const query = `${page}#0##_QUERY${hex(
    `{"conditions":"[[${phpEscape('Розташоване в::Київська область')}]]","parameters":{"limit":3,"offset":0,"sortkeys":[],"mainlabel":"","querymode":1},"printouts":["?${phpEscape('Населення')}"]}`,
  )}`;
  const anon = `${page}#0##_${hex(`{"${phpEscape('Рік')}":["2014"],"${phpEscape('Подія')}":["${phpEscape('Створено демонстраційну сторінку')}"]}`)}`;
  const skey = prop('_SKEY', di(2, 'Демонстраційна сторінка'));
  const expected = {
    query: {
      subject: `${page}#0#`,
      data: [
        prop('_ASK', di(9, query)),
        prop('_ERRP', di(9, 'Населення#102#')),
        prop('_INST', di(9, 'Демовікі#14#')),
        prop('_MDAT', di(6, '1/2012/9/20/11/19/20')),
        skey,
        prop('_SOBJ', di(9, anon), di(9, `${page}#0##подія-друга`)),
        prop('Активне', di(4, 'f')),
        prop('Вегетаріанська', di(4, 't')),
        prop('Дата_заснування', di(6, '1/1991/8/24')),
        prop('Електронна_пошта', di(5, 'mailto:demo@example.org')),
        prop('Код', di(2, 'DEMO-001')),
        prop('Контактний_телефон', di(5, 'tel:+380-32-765-4321')),
        prop('Координати', di(7, '50.45,30.52')),
        prop('Має_столицю', di(9, 'Київ#0#')),
        prop('Місце', di(7, '49.84,24.03')),
        prop('Населення', di(1, '12345')),
        prop('Опис', di(2, "Сторінка, що показує всі типи даних разом, з апострофами (Кам'янець-Подільський, Мʼясо) та кількома словами.")),
        prop('Офіційний_сайт', di(5, 'https://demo.example.org/path?x=1#frag')),
        prop('Публічна_пошта', di(5, 'mailto:public@example.net')),
        prop('Регіон', di(9, 'Київська_область#0#')),
        prop('Розташоване_в', di(9, 'Автономна_Республіка_Крим#0#'), di(9, 'Київ#0#'), di(9, 'Київська_область#0#')),
        prop('Сторінка_в_мережі', di(5, 'http://example.net/demo')),
        prop('Телефон', di(5, 'tel:+380-44-123-4567')),
      ],
      sobj: [
        {
          subject: query,
          data: [
            prop('_ASKDE', di(1, '1')),
            prop('_ASKFO', di(2, 'ul')),
            prop('_ASKSI', di(1, '2')),
            prop('_ASKST', di(2, '[[Розташоване в::Київська область]]')),
            skey,
          ],
        },
        { subject: anon, data: [skey, prop('Подія', di(2, 'Створено демонстраційну сторінку')), prop('Рік', di(1, '2014'))] },
        { subject: `${page}#0##подія-друга`, data: [skey, prop('Подія', di(2, 'Додано запит і підобʼєкт')), prop('Рік', di(1, '2015'))] },
      ],
      serializer: SERIALIZER,
      version: 0.1,
    },
  };

  it('gives the exact JSON of the page with every data type, a category, subobjects and a query', async () => {
    const r = await demo.get({ action: 'browsebysubject', subject: page, utf8: 1 });
    assert.equal(r.status, 200);
    assert.equal(r.text, JSON.stringify(expected));
    assert.match(r.headers.get('cache-control') ?? '', /^private/);
    // the default (fv1 without utf8) escapes non-ASCII, same data
    const escaped = await demo.get({ action: 'browsebysubject', subject: 'Демонстраційна сторінка' });
    assert.match(escaped.text, /^\{"query":\{"subject":"\\u0414\\u0435/);
    assert.deepEqual(escaped.json, expected);
  });

  it("the store reads a subject with its page's subobjects in one call: the same data as asked one by one", async () => {
    const store = await openStore(demoDb);
    try {
      const file = new Database(demoDb, { readonly: true });
      const keys = file
        .prepare('SELECT ss_namespace AS ns, ss_title AS dbkey, ss_subobject AS subobject FROM smw_subject ORDER BY ss_id DESC')
        .all() as Array<{ ns: number; dbkey: string; subobject: string }>;
      file.close();
      keys.push({ ns: 0, dbkey: 'Немає_такої', subobject: '' });
      const [plain, withSubs] = [await store.semantic.subjectData(keys), await store.semantic.subjectData(keys, { subobjects: true })];
      let seen = 0;
      for (const [i, k] of keys.entries()) {
        assert.deepEqual(withSubs[i] && { sortkey: withSubs[i]!.sortkey, properties: withSubs[i]!.properties }, plain[i]);
        if (!withSubs[i]) continue;
        const names = [...withSubs[i]!.subobjects!.keys()];
        assert.ok(!names.includes(k.subobject) && !names.includes(''));
        const own = await store.semantic.subjectData(names.map((subobject) => ({ ns: k.ns, dbkey: k.dbkey, subobject })));
        assert.deepEqual([...withSubs[i]!.subobjects!.values()], own);
        seen += names.length;
      }
      assert.ok(seen >= 3, `${seen} subobjects`);
    } finally {
      await store.close();
    }
  });

  it('a subobject on its own; an unknown subobject has no data', async () => {
    const r = await demo.get({ action: 'browsebysubject', subject: page, subobject: 'подія-друга', utf8: 1 });
    assert.equal(
      r.text,
      JSON.stringify({
        query: { subject: `${page}#0##подія-друга`, data: expected.query.sobj[2].data, serializer: SERIALIZER, version: 0.1 },
      }),
    );
    const none = await demo.get({ action: 'browsebysubject', subject: page, subobject: 'немає', utf8: 1 });
    assert.equal(none.text, JSON.stringify({ query: { subject: `${page}#0##немає`, data: [], serializer: SERIALIZER, version: 0.1 } }));
  });

  it('data: [] for a page that does not exist; only the sort key for a page outside the semantic namespaces', async () => {
    const r = await demo.get({ action: 'browsebysubject', subject: 'Сторінка, якої зовсім немає', utf8: 1 });
    assert.equal(
      r.text,
      '{"query":{"subject":"Сторінка,_якої_зовсім_немає#0#","data":[],"serializer":"SMW\\\\Serializers\\\\SemanticDataSerializer","version":0.1}}',
    );
    // SMW 2.2 makes an ID for every saved page (SQLStore3Writers::doFlatDataUpdate), and getSemanticData
    // of an ID adds its sort key (SMW_SQLStore3_Readers.php:96-97): a talk page and a template have only that
    for (const [subject, id, sortkey] of [
      ['Обговорення форми:Місто', 'Місто#107#', 'Місто'],
      ['Шаблон:Місто', 'Місто#10#', 'Місто'],
    ]) {
      const page = await demo.get({ action: 'browsebysubject', subject, utf8: 1 });
      assert.equal(
        page.text,
        `{"query":{"subject":"${id}","data":[{"property":"_SKEY","dataitem":[{"type":2,"item":"${sortkey}"}]}],"serializer":"SMW\\\\Serializers\\\\SemanticDataSerializer","version":0.1}}`,
      );
    }
  });

  it('follows redirects (a double redirect too, and a template redirect)', async () => {
    const direct = await demo.get({ action: 'browsebysubject', subject: 'Київ' });
    assert.equal(direct.json.query.subject, 'Київ#0#');
    for (const subject of ['Kyiv', 'Столиця_України', 'Місто Київ#Історія']) {
      const r = await demo.get({ action: 'browsebysubject', subject });
      assert.equal(r.text, direct.text, subject);
    }
    const town = await demo.get({ action: 'browsebysubject', subject: 'Шаблон:Town' });
    assert.equal(town.json.query.subject, 'Місто#10#');
    // a value that names a redirect is stored as the redirect's target, as SMW does
    const linked = await small.get({ action: 'browsebysubject', subject: 'Посилання', utf8: 1 });
    assert.deepEqual(linked.json.query.data.find((p: { property: string }) => p.property === 'Місце').dataitem, [di(9, 'Нове_місце#0#')]);
  });

  it('page values, categories, template-set values and _ERRP of a form-created page', async () => {
    const r = await demo.get({ action: 'browsebysubject', subject: 'Київ', utf8: 1 });
    const data = Object.fromEntries(r.json.query.data.map((p: { property: string; dataitem: unknown }) => [p.property, p.dataitem]));
    assert.deepEqual(data.Розташоване_в, [di(9, 'Київська_область#0#')]);
    assert.deepEqual(data.Код, [di(2, 'МС-001')]);
    assert.deepEqual(data.Дата_заснування, [di(6, '2/482')]);
    assert.ok(data._INST.some((x: { item: string }) => x.item === 'Міста#14#'));
    assert.equal(r.json.query.sobj.length, 2);
    const prop102 = await demo.get({ action: 'browsebysubject', subject: 'Property:Розташоване_в', utf8: 1 });
    assert.deepEqual(prop102.json.query.data.find((p: { property: string }) => p.property === '_TYPE').dataitem, [
      di(5, 'http://semantic-mediawiki.org/swivt/1.0#_wpg'),
    ]);
    const cat = await demo.get({ action: 'browsebysubject', subject: 'Категорія:Міста', utf8: 1 });
    assert.ok(cat.json.query.data.every((p: { property: string }) => p.property !== '_INST'));
  });

  it('errors: missing or empty subject, invalid title, circular redirect, unresolvable target', async () => {
    const missing = await demo.get({ action: 'browsebysubject' });
    assert.equal(missing.json.error.code, 'nosubject');
    assert.equal(missing.json.error.info, 'The subject parameter must be set');
    assert.equal(missing.headers.get('mediawiki-api-error'), 'nosubject');
    assert.equal((await demo.get({ action: 'browsebysubject', subject: '' })).json.error.code, 'nosubject');
    const bad = await demo.get({ action: 'browsebysubject', subject: '[[' });
    assert.equal(bad.text, `{"error":{"code":"invalidtitle","info":"Bad title \\"[[\\"","*":"See ${demo.url} for API usage"}}`);
    assert.equal(bad.headers.get('mediawiki-api-error'), 'invalidtitle');
    const circle = await small.get({ action: 'browsebysubject', subject: 'Коло А', utf8: 1 });
    assert.deepEqual(circle.json.error, {
      code: 'redirect-target-unresolvable',
      info: 'Circular redirect for Коло_А detected.',
      '*': `See ${small.url} for API usage`,
    });
    const self = await small.get({ action: 'browsebysubject', subject: 'Сам себе', utf8: 1 });
    assert.equal(self.json.error.info, 'Circular redirect for Сам_себе detected.');
    // a special page that can be no redirect target (MediaWiki makes no redirect to it either)
    for (const subject of ['Спеціальна:Userlogout', 'Special:MyPage']) {
      const r = await small.get({ action: 'browsebysubject', subject, utf8: 1 });
      assert.deepEqual(r.json.error, {
        code: 'redirect-target-unresolvable',
        info: 'Redirect target is unresolvable',
        '*': `See ${small.url} for API usage`,
      });
    }
  });
});

// ---------------------------------------------------------------------------------------------------
describe('action=sfautocomplete', () => {
  const titles = (r: { json: any }) => (r.json.sfautocomplete as Array<{ title: string }>).map((x) => x.title);
  const ac = (server: DemoServer, params: Record<string, string>) => server.get({ action: 'sfautocomplete', ...params });

  it('property source: prefix and word matches, any case, in byte order', async () => {
    for (const substr of ['київ', 'Київ', 'КИЇВ', 'кИЇв']) {
      const r = await ac(demo, { property: 'Розташоване_в', substr });
      assert.equal(
        r.text,
        '{"sfautocomplete":[{"title":"\\u041a\\u0438\\u0457\\u0432"},{"title":"\\u041a\\u0438\\u0457\\u0432\\u0441\\u044c\\u043a\\u0430 \\u043e\\u0431\\u043b\\u0430\\u0441\\u0442\\u044c"}]}',
      );
    }
    const words = titles(await ac(demo, { property: 'Розташоване_в', substr: 'ОБЛАСТЬ' }));
    assert.ok(words.length > 10);
    assert.deepEqual(words, [...words].sort(compareBytes));
    assert.ok(words.every((w) => / область$/.test(w)));
    assert.deepEqual(titles(await ac(demo, { property: 'Розташоване в', substr: 'крим' })), ['Автономна Республіка Крим']);
    // a word inside a word does not match
    assert.deepEqual(titles(await ac(demo, { property: 'Розташоване_в', substr: 'иїв' })), []);
    // several words, space or underscore
    assert.deepEqual(titles(await ac(demo, { property: 'Розташоване_в', substr: 'київська_об' })), ['Київська область']);
    assert.deepEqual(titles(await ac(demo, { property: 'Розташоване_в', substr: 'КИЇВСЬКА ОБ' })), ['Київська область']);
  });

  it("і/І, ї/Ї, є/Є, ґ/Ґ and the apostrophes ' ’ ʼ fold together", async () => {
    assert.deepEqual(titles(await ac(demo, { property: 'Розташоване_в', substr: 'ІВАНО' })), ['Івано-Франківська область']);
    for (const substr of ["м'ясо", 'м’ясо', 'мʼясо', 'МʼЯСО']) {
      assert.equal(titles(await ac(demo, { property: 'Опис', substr })).length, 1, substr);
    }
    for (const substr of ["п'ят", 'П’ЯТ', 'пʼят'])
      assert.deepEqual(titles(await ac(demo, { namespace: 'Main', substr })), ["П'ятниця"], substr);
    assert.deepEqual(titles(await ac(demo, { namespace: 'main', substr: "об'є" })), ['Об’єкт']);
    assert.deepEqual(titles(await ac(demo, { namespace: 'Main', substr: 'ґан' })), ['Ґанок']);
    assert.deepEqual(titles(await ac(demo, { namespace: 'Main', substr: 'єно' })), ['Єнот']);
  });

  it('text values; other types have none; the property name is not normalised', async () => {
    assert.deepEqual(titles(await ac(demo, { property: 'Код', substr: 'demo' })), ['DEMO-001']);
    assert.deepEqual(titles(await ac(demo, { property: 'Населення', substr: '1' })), []);
    assert.deepEqual(titles(await ac(demo, { property: 'Офіційний_сайт', substr: 'http' })), []);
    assert.deepEqual(titles(await ac(demo, { property: 'розташоване_в', substr: 'київ' })), []);
    assert.deepEqual(titles(await ac(demo, { property: 'Немає такої', substr: 'київ' })), []);
  });

  it('category source: pages of the category tree (three levels), prefixed titles, sorted', async () => {
    const cities = titles(await ac(demo, { category: 'Міста', substr: 'ль' }));
    assert.ok(cities.includes('Львів'));
    assert.deepEqual(cities, [...cities].sort(compareBytes));
    const files = titles(await ac(demo, { category: 'Україна', substr: 'прапор' }));
    assert.ok(files.every((t) => /(^|[ :])[Пп]рапор/i.test(t)));
  });

  it('namespace source: exact local or English name, Main = 0; error without a code', async () => {
    assert.deepEqual(titles(await ac(demo, { namespace: 'Шаблон', substr: 'міс' })), ['Місто']);
    assert.deepEqual(titles(await ac(demo, { namespace: 'Template', substr: 'міс' })), ['Місто']);
    const bad = await ac(demo, { namespace: 'шаблон', substr: 'м' });
    assert.equal(
      bad.text,
      `{"error":{"code":"","info":"Could not find namespace: \\u0448\\u0430\\u0431\\u043b\\u043e\\u043d","*":"See ${demo.url} for API usage"}}`,
    );
    assert.equal(bad.headers.get('mediawiki-api-error'), '');
  });

  it("concept source: the concept's members matching the text, sorted (SFUtils::getAllPagesForConcept)", async () => {
    // [[Категорія:Міста]] [[Населення::>1000000]]: Київ, Одеса, Харків
    assert.deepEqual(titles(await ac(demo, { concept: 'Міста-мільйонники', substr: 'к' })), ['Київ']);
    assert.deepEqual(titles(await ac(demo, { concept: 'Міста-мільйонники', substr: 'ХАР' })), ['Харків']);
    assert.deepEqual(titles(await ac(demo, { concept: 'Міста-мільйонники', substr: 'л' })), []);
    // a page with two {{#concept:}} keeps the first: [[Категорія:Супи]]
    assert.deepEqual(titles(await ac(demo, { concept: 'Дві концепції', substr: 'к' })), ['Капусняк', 'Куліш']);
    // SMW cannot evaluate a circular concept: SF gets no members
    assert.equal((await ac(demo, { concept: 'Циклічна', substr: 'к' })).text, '{"sfautocomplete":[]}');
  });

  it('param_substr before anything else; empty answers; concept and external_url errors', async () => {
    const cases: Array<Record<string, string>> = [
      {},
      { property: 'Розташоване_в' },
      { category: 'Міста', substr: '' },
      { namespace: 'Foo' },
    ];
    for (const params of cases) {
      const r = await ac(demo, params);
      assert.equal(
        r.text,
        `{"error":{"code":"param_substr","info":"The substring must be specified","*":"See ${demo.url} for API usage"}}`,
      );
      assert.equal(r.headers.get('mediawiki-api-error'), 'param_substr');
    }
    assert.equal((await ac(demo, { substr: 'x' })).text, '{"sfautocomplete":[]}');
    assert.equal((await ac(demo, { substr: 'x', cargo_table: 't', cargo_field: 'f' })).text, '{"sfautocomplete":[]}');
    assert.equal((await ac(demo, { concept: 'Немає', substr: 'x' })).json.error.info, 'Could not find concept: Немає');
    assert.equal(
      (await ac(demo, { external_url: 'x', substr: 'x' })).json.error.info,
      'No external URLs are specified for autocompletion on this wiki',
    );
    const r = await ac(demo, { property: 'Розташоване_в', substr: 'обл', limit: '3' });
    assert.equal(r.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
    assert.ok(titles(r).length > 3); // limit is parsed but not used
  });

  it('baseprop/basevalue: values of the property on the subjects with the base value', async () => {
    assert.deepEqual(titles(await ac(demo, { property: 'Регіон', baseprop: 'Код', basevalue: 'МС-001' })), ['Київська область']);
    assert.deepEqual(titles(await ac(small, { property: 'Місце', baseprop: 'Примітка', basevalue: 'Примітка номер 0004 про обʼєкт' })), [
      'Область 0004 південна',
    ]);
    assert.deepEqual(titles(await ac(small, { property: 'Примітка', baseprop: 'Місце', basevalue: 'Район 0005 Область' })), [
      'Примітка номер 0005 про обʼєкт',
    ]);
    // without a property SF 3.3 has no data and dies with it (SF_AutocompleteAPI.php: dieUsage( $data ))
    const none = await ac(demo, { baseprop: 'Код', basevalue: 'МС-001' });
    assert.equal(none.text, `{"error":{"code":"","info":"","*":"See ${demo.url} for API usage"}}`);
    assert.equal(none.headers.get('mediawiki-api-error'), '');
  });

  it('values with quotes, backslashes and astral characters come back whole, in byte order', async () => {
    const expected = [...QUOTES].sort(compareBytes);
    assert.deepEqual(titles(await ac(small, { property: 'Цитата', substr: 'ЦИТАТА' })), expected);
    assert.deepEqual(titles(await ac(small, { property: 'Цитата', substr: 'c:' })), [QUOTES[1]]);
    const r = await ac(small, { property: 'Цитата', substr: '"в' });
    assert.equal(
      r.text,
      '{"sfautocomplete":[{"title":"\\u0426\\u0438\\u0442\\u0430\\u0442\\u0430 \\"\\u0432 \\u043b\\u0430\\u043f\\u043a\\u0430\\u0445\\""}]}',
    );
  });

  it('at most 1000 values, the first in byte order; both index paths agree with a full scan', async () => {
    // the stored page values (DB keys: first letter uppercased, underscores)
    const stored: string[] = ['Нове_місце'];
    for (let i = 0; i < SMALL_VALUES; i++) {
      const n = String(i).padStart(4, '0');
      stored.push(i % 3 === 0 ? `Область_${n}` : i % 3 === 1 ? `Область_${n}_південна` : `Район_${n}_Область`);
    }
    const expect = (substr: string) => {
      const f = fold(substr);
      return [...new Set(stored.filter((v) => matchesFolded(v, f)))]
        .sort(compareBytes)
        .slice(0, 1000)
        .map((v) => v.replace(/_/g, ' '));
    };
    for (const substr of ['о', 'об', 'ОБЛАСТЬ', 'область 0', 'область 00', 'область 0012', 'район', 'р', 'півд', '1', '01', 'x']) {
      const got = titles(await ac(small, { property: 'Місце', substr }));
      assert.deepEqual(got, expect(substr), substr);
    }
    assert.equal(titles(await ac(small, { property: 'Місце', substr: 'о' })).length, 1000);
    // text values
    const notes = titles(await ac(small, { property: 'Примітка', substr: 'ПРИМІТКА' }));
    assert.equal(notes.length, 1000);
    assert.deepEqual(notes, [...notes].sort(compareBytes));
    assert.equal(titles(await ac(small, { property: 'Примітка', substr: 'про об’єкт' })).length, 1000);
    assert.deepEqual(titles(await ac(small, { property: 'Тип', substr: 'П' })), ['парний']);
    // a substring longer than the stored word keys
    // substrings longer than the stored word keys (64 characters): the values are checked
    const long = 'дуже довга примітка, що має більше тридцяти двох символів дуже довга';
    assert.equal(titles(await ac(small, { property: 'Примітка', substr: long })).length, 1);
    assert.equal(titles(await ac(small, { property: 'Примітка', substr: long + ' ні' })).length, 0);
    // … also under a precomputed prefix (60 values share their first 100 characters)
    const shared = `Спільний початок примітки: ${'дуже '.repeat(12)}довгий, номер `;
    const numbered = [1, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19].map((n) => shared + n).sort(compareBytes);
    assert.deepEqual(titles(await ac(small, { property: 'Примітка', substr: shared.toUpperCase() + '1' })), numbered);
    // the namespace source over many pages
    assert.equal(titles(await ac(small, { namespace: 'Main', substr: 'сторінка' })).length, 1000);
  });

  it("precomputed answers (printed at import) are the plain answers' bytes in every output form", async () => {
    const store = await openStore(smallDb);
    try {
      const cases: Array<[Record<string, string>, () => Promise<string[]>]> = [
        [{ property: 'Місце', substr: 'о' }, () => store.semantic.autocompleteProperty('Місце', fold('о'), 1000)],
        [{ property: 'Примітка', substr: 'ПРИМІТКА' }, () => store.semantic.autocompleteProperty('Примітка', fold('ПРИМІТКА'), 1000)],
        [{ namespace: 'Main', substr: 'сторінка' }, () => store.semantic.autocompleteNamespace(0, fold('сторінка'), 1000)],
        [{ property: 'Цитата', substr: 'ЦИТАТА' }, () => store.semantic.autocompleteProperty('Цитата', fold('ЦИТАТА'), 1000)],
      ];
      const forms: Array<Record<string, string>> = [
        {},
        { utf8: '1' },
        { formatversion: '2' },
        { formatversion: '2', ascii: '1' },
        { formatversion: '2', utf8: '1' },
        { callback: 'cb' },
        { utf8: '1', callback: 'cb' },
      ];
      for (const [params, plain] of cases) {
        const values = await plain();
        assert.ok(values.length > 0);
        for (const form of forms) {
          const printer = printerOptions('json', form);
          const expected = String(render(new Map([['sfautocomplete', values.map((title) => ({ title }))]]), printer, small.url, '').body);
          assert.equal((await ac(small, { ...params, ...form })).text, expected, JSON.stringify({ ...params, ...form }));
        }
        // pretty-printed (jsonfm): the same list
        const html = (await ac(small, { ...params, format: 'jsonfm' })).text;
        const pretty = String(
          render(new Map([['sfautocomplete', values.map((title) => ({ title }))]]), printerOptions('jsonfm', {}), small.url, '').body,
        );
        const pre = (t: string) => t.slice(t.indexOf('<pre'), t.indexOf('</pre>'));
        assert.equal(pre(html), pre(pretty));
      }
    } finally {
      await store.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------------
describe('categories and files that templates add', () => {
  it('allcategories counts pages that get a category from a template', async () => {
    const r = await demo.get({ action: 'query', list: 'allcategories', acprop: 'size', acfrom: 'Свята', aclimit: 1, utf8: 1 });
    // [[Категорія:Свята]] is only in {{Свято}}, used by six pages
    assert.deepEqual(r.json.query.allcategories[0], { size: 6, pages: 6, files: 0, subcats: 0, '*': 'Свята' });
  });
  it('generator=allfileusages lists pages that embed a file through a template', async () => {
    const pages: string[] = [];
    let cont: Record<string, string> = { continue: '' };
    for (let i = 0; i < 20; i++) {
      const r = await demo.get({
        action: 'query',
        generator: 'allfileusages',
        gaffrom: 'Прапор_України.png',
        gafto: 'Прапор_України.png',
        gaflimit: 500,
        utf8: 1,
        ...cont,
      });
      pages.push(...Object.values(r.json.query?.pages ?? {}).map((p: any) => p.title as string));
      if (!r.json.continue) break;
      cont = r.json.continue;
    }
    // {{Прапор}} (inside {{Місто}}) embeds the flag; Одеса has no [[Файл:Прапор України.png]] of its own
    assert.ok(pages.includes('Одеса'));
    assert.ok(pages.length >= 60);
  });
});

describe('import: types declared by Property: pages', () => {
  it('types values written before the property page, declared through a template; improper values and queries settled at the end', async () => {
    const pages: DumpPage[] = [];
    let id = 1;
    const add = (ns: number, title: string, text: string) =>
      pages.push({
        title,
        ns,
        id: id++,
        revisions: [{ id: 5000 + id, timestamp: '2015-06-01T12:30:45Z', contributor: { name: 'Адмін', id: 1 }, text }],
      });
    // the values come first in page id order: their type is known only from the later Property: page
    add(0, 'Перша', '[[Висота::12,5]] [[Висота::12,5]] [[Висота::не число]] {{#ask:[[Висота::>10]]|?Висота}}');
    add(10, 'Числовий тип', '[[Has type::{{{1}}}]]');
    add(102, 'Висота', '{{Числовий тип|Number}}');
    const dir = path.join(tmp, 'typed');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'dump.xml'), xmlHeader() + pages.map(xmlPage).join('') + XML_FOOTER);
    for (const workers of [0, 1]) {
      const db = path.join(tmp, `typed-${workers}.sqlite`);
      await importWiki({ dump: path.join(dir, 'dump.xml'), db, lang: 'uk', hooks: [semanticImportHook()], workers, log: () => {} });
      const d = new Database(db, { readonly: true });
      try {
        const rows = d
          .prepare(
            `SELECT p.sp_key AS key, p.sp_type AS ptype, v.sv_seq AS seq, v.sv_type AS type, v.sv_item AS item, v.sv_num AS num
             FROM smw_value v JOIN smw_subject s ON s.ss_id = v.sv_subject JOIN smw_property p ON p.sp_id = v.sv_property
             WHERE s.ss_title = 'Перша' AND p.sp_key IN ('Висота', '_ERRP', '_ASKST') ORDER BY s.ss_subobject, v.sv_seq`,
          )
          .all() as Array<{ key: string; ptype: string; seq: number; type: number; item: string; num: number | null }>;
        // the duplicate value is kept once; the improper one becomes _ERRP; the query comes last (its own subject)
        assert.deepEqual(
          rows.map((r) => [r.key, r.type, r.num]),
          [
            ['Висота', 1, 12.5],
            ['_ERRP', 9, null],
            ['_ASKST', 2, null],
          ],
        );
        assert.equal(rows[0].ptype, '_num');
        assert.equal(rows.find((r) => r.key === '_ERRP')!.item, 'Висота#102#');
        assert.match(rows.find((r) => r.key === '_ASKST')!.item, /Висота/);
        // _ERRP is numbered after every property used in pass 2
        const ids = d.prepare('SELECT sp_key AS key, sp_id AS id FROM smw_property ORDER BY sp_id').all() as Array<{
          key: string;
          id: number;
        }>;
        assert.equal(ids[ids.length - 1].key, '_ERRP');
        assert.equal(d.prepare('SELECT count(*) FROM smw_value WHERE sv_property < 0').pluck().get() as number, 0);
      } finally {
        d.close();
      }
    }
  });
});
