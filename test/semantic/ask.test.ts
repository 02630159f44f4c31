/**
 * Semantic MediaWiki 2.2's action=ask and action=askargs on the demo wiki.
 *
 *  - test/data/ask-queries.json: queries with the subjects they give (in order), `query-continue-offset`
 *    and printouts (page values as their full text), or SMW's error texts. The expectations were read off
 *    the demo's pages (scripts/generate-demo.ts: the city/river/dish/person templates' annotations, the
 *    category tree, DEFAULTSORT of the people, the subobjects of the event pages).
 *  - the exact JSON of an answer (printrequests, results, serializer, version, meta with its hash);
 *  - askargs giving ask's answer; continuation through query-continue-offset; bounds of limit/offset.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { demoDatabase, demoServerForFile } from '../helpers/demo-server.js';
import { Db } from '../../src/store/sqlite/db.js';
import { sqliteQueryEngine } from '../../src/store/sqlite/semantic-query.js';
import { Wiki } from '../../src/wiki/wiki.js';
import { openStore } from '../../src/store/open.js';
import { parseConditions } from '../../src/semantic/query/parser.js';
import { queryOptions, componentsFromParams, splitAskQuery } from '../../src/semantic/query/parameters.js';

interface Case {
  /** why the answer is what it is, where that is not obvious */
  note?: string;
  query: string;
  results?: string[];
  continue?: number;
  printouts?: Record<string, Record<string, unknown[]>>;
  errors?: string[];
}

const CASES: Case[] = JSON.parse(readFileSync(fileURLToPath(new URL('../../../test/data/ask-queries.json', import.meta.url)), 'utf8'));

const s = demoServerForFile();

function plain(v: unknown): unknown {
  return v !== null && typeof v === 'object' && 'fulltext' in v ? (v as { fulltext: string }).fulltext : v;
}

/** PHP's json_encode (escaped slashes and non-ASCII) with MediaWiki's JSON_HEX_TAG|JSON_HEX_AMP. */
function formatJson(v: unknown): string {
  return JSON.stringify(v)
    .replace(/[\u007f-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
    .replace(/\//g, '\\/')
    .replace(/</g, '\\u003C')
    .replace(/>/g, '\\u003E')
    .replace(/&/g, '\\u0026');
}

describe('action=ask: the query table', () => {
  it('has at least 60 queries and covers the error cases', () => {
    assert.ok(CASES.filter((c) => c.results).length >= 60);
    assert.ok(CASES.filter((c) => c.errors).length >= 8);
  });
  for (const c of CASES) {
    it(c.query, async () => {
      const r = await s.get({ action: 'ask', query: c.query, utf8: 1 });
      assert.equal(r.status, 200);
      if (c.errors) {
        assert.deepEqual(r.json, { error: { query: c.errors } });
        return;
      }
      const results = r.json.query.results;
      assert.deepEqual(Array.isArray(results) ? [] : Object.keys(results), c.results);
      if (Array.isArray(results)) assert.deepEqual(results, []);
      assert.equal(r.json['query-continue-offset'], c.continue);
      assert.equal(r.json.query.meta.count, c.results!.length);
      if (c.printouts) {
        for (const [title, expected] of Object.entries(c.printouts)) {
          const got = results[title].printouts;
          const norm = Array.isArray(got)
            ? {}
            : Object.fromEntries(Object.entries(got).map(([l, vs]) => [l, (vs as unknown[]).map(plain)]));
          assert.deepEqual(norm, expected, title);
        }
      }
    });
  }
});

describe('action=ask: the answer', () => {
  it('is SMW 2.2 QueryResultSerializer output, booleans as formatversion=1 writes them', async () => {
    const r = await s.get({
      action: 'ask',
      query:
        '[[Розташоване в::Київська область]][[Населення::>200000]]|?Населення|?Розташоване в=Область|?Категорія:Столиці|mainlabel=Місто',
      utf8: 1,
    });
    const url = (t: string) => `${s.url.replace(/\/api\.php$/, '')}/index.php/${encodeURIComponent(t).replace(/%20/g, '_')}`;
    const region = { fulltext: 'Київська область', fullurl: url('Київська_область'), namespace: 0, exists: '' };
    const expected = {
      query: {
        printrequests: [
          { label: 'Місто', typeid: '_wpg', mode: 2 },
          { label: 'Населення', typeid: '_num', mode: 1, format: '' },
          { label: 'Область', typeid: '_wpg', mode: 1, format: '' },
          { label: 'Столиці', typeid: '_wpg', mode: 3, format: 'x' },
        ],
        results: {
          'Біла Церква': {
            printouts: { Населення: [210000], Область: [region], Столиці: ['f'] },
            fulltext: 'Біла Церква',
            fullurl: url('Біла_Церква'),
            namespace: 0,
            exists: '',
          },
          Київ: {
            printouts: { Населення: [2884000], Область: [region], Столиці: ['t'] },
            fulltext: 'Київ',
            fullurl: url('Київ'),
            namespace: 0,
            exists: '',
          },
        },
        serializer: 'SMW\\Serializers\\QueryResultSerializer',
        version: 0.5,
        meta: { hash: r.json.query.meta.hash, count: 2, offset: 0 },
      },
    };
    assert.deepEqual(r.json, expected);
    // the hash: md5 of FormatJson::encode of the serialization as PHP held it (real booleans, false kept)
    const php = {
      printrequests: [{ label: 'Місто', typeid: '_wpg', mode: 2, format: false }, ...expected.query.printrequests.slice(1)],
      results: Object.fromEntries(
        Object.entries(expected.query.results).map(([k, v]) => [
          k,
          { ...v, exists: true, printouts: { ...v.printouts, Область: [{ ...region, exists: true }] } },
        ]),
      ),
      serializer: expected.query.serializer,
      version: 0.5,
    };
    assert.equal(r.json.query.meta.hash, createHash('md5').update(formatJson(php)).digest('hex'));
  });

  it('keys a subobject by "Page# name" (Title::getFullText of the fragment) with its #fragment URL', async () => {
    const r = await s.get({ action: 'ask', query: '[[Рік::1991]][[Подія::~*референдум*]]', utf8: 1 });
    const e = r.json.query.results['1991 рік#референдум'];
    assert.equal(e.fulltext, '1991 рік#референдум');
    assert.ok(
      e.fullurl.endsWith('/index.php/1991_%D1%80%D1%96%D0%BA#.D1.80.D0.B5.D1.84.D0.B5.D1.80.D0.B5.D0.BD.D0.B4.D1.83.D0.BC'),
      e.fullurl,
    );
  });

  it('gives an empty results list (not an object) and no continuation when nothing matches', async () => {
    const r = await s.get({ action: 'ask', query: '[[Населення::>999999999]]' });
    assert.deepEqual(r.json.query.results, []);
    assert.equal(r.json['query-continue-offset'], undefined);
    assert.deepEqual(r.json.query.meta.count, 0);
  });

  it('joins limit=1, 2, 3 pages through query-continue-offset into the one-shot answer', async () => {
    for (const q of ['[[Категорія:Міста]]|?Населення', '[[Впадає в::+]]|sort=Довжина|order=desc|?Довжина', '[[Подія::+]]|?Рік|sort=Рік']) {
      const all = (await s.get({ action: 'ask', query: `${q}|limit=500`, utf8: 1 })).json;
      assert.equal(all['query-continue-offset'], undefined);
      const expected = Object.entries(all.query.results);
      for (const limit of [1, 2, 3]) {
        const got: Array<[string, unknown]> = [];
        let offset = 0;
        for (let guard = 0; guard < 500; guard++) {
          const page = (await s.get({ action: 'ask', query: `${q}|limit=${limit}|offset=${offset}`, utf8: 1 })).json;
          assert.equal(page.query.meta.offset, offset);
          got.push(...(Array.isArray(page.query.results) ? [] : Object.entries(page.query.results)));
          if (page['query-continue-offset'] === undefined) break;
          assert.equal(page['query-continue-offset'], offset + page.query.meta.count);
          offset = page['query-continue-offset'];
        }
        assert.deepEqual(got, expected, `${q} limit=${limit}`);
      }
    }
  });
});

describe('action=ask: bounded work on hostile input', () => {
  it('answers a query nested thousands of levels deep with SMW\'s "too large" error', async () => {
    for (const q of [
      '<q>'.repeat(3000) + '[[Київ]]' + '</q>'.repeat(3000),
      '[[Впадає в::' + '<q>[[Впадає в::'.repeat(2000) + 'x' + ']]</q>'.repeat(2000) + ']]',
    ]) {
      const r = await s.post({ action: 'ask', format: 'json', query: q });
      assert.equal(r.status, 200);
      assert.ok(
        r.json.error.query.some((e: string) => e.startsWith('Наступні умови запиту не можуть бути опрацьовані')),
        JSON.stringify(r.json).slice(0, 300),
      );
    }
  });

  it('drops a disjunction larger than $smwgQMaxSize whole (a pruned disjunct makes it "true"), as SMW does', async () => {
    const r = await s.post({ action: 'ask', format: 'json', query: '[[Київ]] OR '.repeat(2000) + '[[Львів]]' });
    assert.equal(r.status, 200);
    assert.deepEqual(r.json.error.query.length, 1, JSON.stringify(r.json).slice(0, 300));
    assert.ok(
      r.json.error.query[0].startsWith(
        'Наступні умови запиту не можуть бути опрацьовані в зв’язку з обмеженнями цього вікі в розмірі та/або глибині запиту:  <q>&#x005B;&#x005B;:Київ]] OR &#x005B;&#x005B;:Київ]] OR ',
      ),
    );
    assert.ok(r.json.error.query[0].endsWith(' OR &#x005B;&#x005B;:Львів]]</q> .'));
  });
});

describe('action=askargs', () => {
  it("a predefined property's printout has SMW's type: Modification date is _dat (SMW 2.2's _MDAT)", async () => {
    const a = await s.get({
      action: 'askargs',
      conditions: 'Категорія:Міста',
      printouts: 'Modification date',
      parameters: 'limit=1',
      utf8: 1,
    });
    assert.deepEqual(a.json.query.printrequests, [
      { label: '', typeid: '_wpg', mode: 2 },
      { label: 'Modification date', typeid: '_dat', mode: 1 },
    ]);
  });
  it('builds the query of ask from conditions, printouts and parameters', async () => {
    const a = await s.get({
      action: 'askargs',
      conditions: 'Категорія:Міста|Населення::>1000000',
      printouts: 'Населення|Розташоване в',
      parameters: 'sort=Населення|order=desc|limit=2',
      utf8: 1,
    });
    const b = await s.get({
      action: 'ask',
      query: '[[Категорія:Міста]] [[Населення::>1000000]]|?Населення|?Розташоване в|sort=Населення|order=desc|limit=2',
      utf8: 1,
    });
    assert.deepEqual(a.json.query.results, b.json.query.results);
    assert.deepEqual(Object.keys(a.json.query.results), ['Київ', 'Харків']);
    assert.equal(a.json['query-continue-offset'], 2);
    assert.equal(b.json['query-continue-offset'], 2);
    // askargs' printouts carry no output format (false, left out in formatversion=1); ask's have ''
    assert.deepEqual(a.json.query.printrequests[1], { label: 'Населення', typeid: '_num', mode: 1 });
    assert.deepEqual(b.json.query.printrequests[1], { label: 'Населення', typeid: '_num', mode: 1, format: '' });
  });

  it('labels a printout with the name as given and ignores parameters without "="', async () => {
    const r = await s.get({ action: 'askargs', conditions: 'Категорія:Супи', printouts: 'опис', parameters: 'limit=1|junk', utf8: 1 });
    assert.deepEqual(r.json.query.printrequests, [
      { label: '', typeid: '_wpg', mode: 2 },
      { label: 'опис', typeid: '_txt', mode: 1 },
    ]);
    assert.deepEqual(r.json.query.results.Борщ.printouts, { опис: ['Смак залежить від регіону й господині.'] });
    assert.equal(r.json['query-continue-offset'], 1);
  });

  it('needs conditions', async () => {
    const r = await s.get({ action: 'askargs' });
    assert.equal(r.json.error.code, 'noconditions');
  });
});

describe('the query engine', () => {
  it('gives the same answers when every condition is "large" (sort-order walk, probe cap 1) as with its probes', async () => {
    const { db: file } = await demoDatabase();
    const store = await openStore(file);
    const wiki = await Wiki.load(store.site);
    const db = new Db(file);
    const walking = sqliteQueryEngine(db, 1);
    const probing = sqliteQueryEngine(db);
    try {
      const queries = CASES.filter((c) => c.results).map((c) => c.query);
      assert.ok(queries.length >= 60);
      for (const q of queries) {
        const parts = componentsFromParams(splitAskQuery(q));
        const types = await store.semantic.propertyTypes([
          'Населення',
          'Довжина',
          'Розташоване_в',
          'Впадає_в',
          'Опис',
          'Код',
          'Рік',
          'Дата_заснування',
          'Прізвисько',
        ]);
        const parsed = parseConditions(parts.queryString, { codec: wiki.codec, typeOf: (k) => types.get(k) ?? '_wpg' });
        const o = queryOptions(parts.parameters);
        const sortTypes = Object.fromEntries(o.sort.filter(([k]) => k !== '').map(([k]) => [k, types.get(k) ?? '_wpg']));
        const req = { description: parsed.description, sort: o.sort, sortTypes, limit: o.limit, offset: o.offset };
        assert.deepEqual(await walking.ask(req), await probing.ask(req), q);
      }
    } finally {
      db.close();
      store.close();
    }
  });
});
