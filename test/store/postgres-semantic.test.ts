/**
 * The semantic store on PostgreSQL answers as on SQLite, call for call, on the demo wiki imported into
 * both: every query of test/data/ask-queries.json (and patterns whose characters are LIKE's or GLOB's
 * own), with the engine's probes and with its sort-order walk; the printouts of each answer; the data
 * of every subject; autocompletion of every property, namespace and category source; the dependent
 * form. Runs in the PostgreSQL pass only (WIKIQUERY_TEST_DB=postgres).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
import { demoDatabase } from '../helpers/demo-server.js';
import { TEST_DB } from '../helpers/test-db.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import type { AskPrintoutSpec, AskRequest } from '../../src/store/semantic-store.js';
import { Db } from '../../src/store/sqlite/db.js';
import { PgDb } from '../../src/store/postgres/db.js';
import { sqliteQueryEngine } from '../../src/store/sqlite/semantic-query.js';
import { POSTGRES_SEMANTIC, likePattern, postgresQueryEngine } from '../../src/store/postgres/semantic-query.js';
import { SQLITE_SEMANTIC } from '../../src/store/sqlite/semantic-query.js';
import { Params } from '../../src/store/semantic-query.js';
import { connect } from '../../src/store/postgres/db.js';
import { servedImport } from '../../src/store/postgres/catalog.js';
import { Wiki } from '../../src/wiki/wiki.js';
import { parseConditions } from '../../src/semantic/query/parser.js';
import { queryOptions, componentsFromParams, splitAskQuery } from '../../src/semantic/query/parameters.js';
import { fold } from '../../src/semantic/fold.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { xmlHeader, xmlPage, XML_FOOTER, type DumpPage } from '../../src/demo/dump-xml.js';
import { importWiki } from '../../src/importer/import.js';
import { semanticImportHook } from '../../src/importer/semantic-hook.js';
import { completionAnswerValues } from '../../src/semantic/completion-answer.js';
import { freshPostgresDatabase } from '../helpers/test-db.js';
import { describeOrSkip } from '../helpers/skip.js';

const skip = TEST_DB !== 'postgres' ? 'the PostgreSQL pass only (WIKIQUERY_TEST_DB=postgres): compares the two stores' : false;

const CASES: Array<{ query: string; results?: string[] }> = JSON.parse(
  readFileSync(fileURLToPath(new URL('../../../test/data/ask-queries.json', import.meta.url)), 'utf8'),
);

/** Queries whose patterns hold LIKE's and GLOB's special characters, cases, ranges, extreme numbers. */
const MORE_QUERIES = [
  '[[Опис::~*%*]]',
  '[[Опис::~*_*]]',
  '[[Опис::~*\\*]]',
  '[[Опис::~*[а]*]]',
  '[[Опис::~*]]',
  '[[Опис::~?*]]',
  '[[Опис::!~*а*]]',
  '[[Опис::~смак*]]',
  '[[Опис::~Смак*]]',
  '[[Прізвисько::~*?]]',
  '[[Код::~*-*]]',
  '[[Офіційний сайт::~*kyiv*]]',
  '[[~К*]]',
  '[[!~К*]]',
  '[[~к*]]',
  '[[~*%]]',
  '[[~*_*]]',
  '[[Розташоване в::~*ька*]]',
  '[[Категорія:Міста]] [[Населення::<100000]]|sort=Населення|order=desc',
  '[[Категорія:Міста]]|sort=Населення,Дата заснування|order=asc,desc|limit=50',
  '[[Категорія:Річки]]|sort=Впадає в|order=desc|limit=50',
  '[[Категорія:Люди]]|sort=Дата народження|limit=50|offset=3',
  '[[Населення::+]]|sort=Населення|limit=500',
  '[[Розташоване в::+]]|sort=Розташоване в|order=desc|limit=500',
  '[[Подія::+]]|sort=Подія|limit=500',
  '[[Має столицю::+]]|sort=Має столицю|limit=500',
  '[[Вегетаріанська::+]]|sort=Вегетаріанська,|order=desc,asc|limit=500',
  '[[Рік::>1900]] OR [[Дата заснування::<1500]]|limit=500',
  '[[-Розташоване в::+]]|limit=500',
  '[[Друг::+]]|limit=500|offset=2',
  '[[Населення::>1e400]]',
  '[[Населення::<-1e400]]',
  '[[Населення::>NaN]]',
  '[[Рік::>Infinity]]',
  '[[Довжина::≥0.5]]',
  '[[Опис::<ґ]]|limit=500',
  '[[Опис::>Z]]|limit=500',
  '[[Код::≤UA-5]]|limit=500',
  '[[Опис::a\u0000b]]',
  '[[Опис::~*\u0000*]]',
  '[[~\u0000*]]',
  '[[Розташоване в::Київ\u0000]]',
  '[[Опис::<Смак\u0000]]|limit=500',
  '[[Опис::≥Смак\u0000x]]|limit=500',
  '[[Опис::!Смак\u0000]]|limit=500',
  '[[Опис::~С\u0000*]]|limit=500',
  '[[Категорія:Супи\u0000]]',
  '[[Має столицю::Київ\u0000]] OR [[Розташоване в::Київ]]',
  '[[Код::>UA\u0000]]|?Код\u0000|limit=500',
  '[[Дата заснування::>1000]]|sort=Дата заснування|order=desc|limit=500',
];

let sqlite: Store;
let pg: Store;
let sqliteDb: Db;
let pgDb: PgDb;
let file: Database.Database;
let wiki: Wiki;
let types: Map<string, string>;

before(async () => {
  if (skip) return;
  const { db, served } = await demoDatabase();
  sqlite = await openStore(db);
  pg = await openStore(served);
  sqliteDb = new Db(db);
  const c = connect(served, { max: 1 });
  const schema = (await servedImport(c))!.schema;
  await c.end({ timeout: 5 });
  pgDb = new PgDb(served, schema, { max: 2 });
  file = new Database(db, { readonly: true });
  wiki = await Wiki.load(sqlite.site);
  const keys = (file.prepare('SELECT sp_key FROM smw_property').pluck().all() as string[]).filter((k) => !k.startsWith('_'));
  types = await sqlite.semantic.propertyTypes(keys);
});

after(async () => {
  if (skip) return;
  sqlite?.close();
  pg?.close();
  sqliteDb?.close();
  await pgDb?.close();
  file?.close();
});

function request(q: string): AskRequest | null {
  const parts = componentsFromParams(splitAskQuery(q));
  const parsed = parseConditions(parts.queryString, { codec: wiki.codec, typeOf: (k) => types.get(k) ?? '_wpg' });
  if (parsed.errors?.length) return null;
  const o = queryOptions(parts.parameters);
  const sortTypes = Object.fromEntries(o.sort.filter(([k]) => k !== '').map(([k]) => [k, types.get(k) ?? '_wpg']));
  return { description: parsed.description, sort: o.sort, sortTypes, limit: o.limit, offset: o.offset };
}

describeOrSkip("the semantic store on PostgreSQL gives SQLite's answers", { skip }, () => {
  it('LIKE patterns keep every character but * and ? literal', () => {
    assert.equal(likePattern('a*b?c%d_e\\f[g]'), 'a%b_c\\%d\\_e\\\\f[g]');
  });

  it("the dialects' patterns match the same strings (GLOB on SQLite, LIKE on PostgreSQL)", async () => {
    const strings = [
      '',
      'a',
      'A',
      'abc',
      'ABC',
      'a%c',
      'a_c',
      'a\\c',
      'a[b]c',
      'a*c',
      'a?c',
      'Київ',
      'київ',
      'КИЇВ',
      'Кï',
      'ґ',
      'ab\nc',
      '€x',
      '𝄞',
      'a b',
    ];
    const patterns = [
      '*',
      '?',
      'a*',
      'A*',
      '*c',
      'a?c',
      'a%c',
      'a_c',
      'a\\c',
      'a[b]c',
      'a[*',
      '*]*',
      'К*',
      'к*',
      'Ки?в',
      '?',
      '??',
      '*%*',
      '*_*',
      '*\\*',
      'ab*c',
      'a*b*c',
      '*?*',
      '',
    ];
    for (const negate of [false, true]) {
      for (const text of strings) {
        for (const pattern of patterns) {
          const ps = new Params(SQLITE_SEMANTIC);
          const sq = `SELECT ${SQLITE_SEMANTIC.matches(ps.add(text, 'text'), negate, (v) => ps.add(v, 'text'), pattern)} AS m`;
          const expected = (sqliteDb.raw.prepare(sq).get(...ps.values) as { m: number }).m === 1;
          const pp = new Params(POSTGRES_SEMANTIC);
          const pq = `SELECT ${POSTGRES_SEMANTIC.matches(pp.add(text, 'text'), negate, (v) => pp.add(v, 'text'), pattern)} AS m`;
          assert.equal(
            (await pgDb.one<{ m: boolean }>('test', pq, pp.values))!.m,
            expected,
            `${JSON.stringify(text)} ${negate ? '!~' : '~'} ${JSON.stringify(pattern)}`,
          );
        }
      }
    }
  });

  it('NULLs sort where SQLite sorts them, numbers as doubles', async () => {
    for (const order of ['ASC', 'DESC'] as const) {
      const rows = (sql: string) => sql.replace('@', SQLITE_SEMANTIC.orderTerm('x', order));
      const values = `(VALUES (1.5), (NULL), (-2), (1e300), (0.1), (3))`;
      const a = (
        sqliteDb.raw.prepare(rows(`SELECT x FROM (SELECT column1 AS x FROM ${values}) ORDER BY @`)).all() as Array<{ x: number | null }>
      ).map((r) => r.x);
      const b = (
        await pgDb.all<{ x: number | null }>('test', `SELECT x FROM ${values} AS t(x) ORDER BY ${POSTGRES_SEMANTIC.orderTerm('x', order)}`)
      ).map((r) => r.x);
      assert.deepEqual(b, a, order);
      assert.equal(order === 'ASC' ? a[0] : a[a.length - 1], null);
    }
  });

  it('ask: every query of the table and the pattern queries, with probes and with the sort-order walk', async () => {
    const queries = [...CASES.filter((c) => c.results).map((c) => c.query), ...MORE_QUERIES];
    const walkSqlite = sqliteQueryEngine(sqliteDb, 1);
    const walkPg = postgresQueryEngine(pgDb, 1);
    let nonEmpty = 0;
    for (const q of queries) {
      const req = request(q);
      if (!req) continue;
      if (req.sort.some(([, o]) => o === 'RANDOM')) continue;
      const expected = await sqlite.semantic.askQuery(req);
      assert.deepEqual(await pg.semantic.askQuery(req), expected, q);
      assert.deepEqual(await walkPg.ask(req), expected, `${q} (walk)`);
      assert.deepEqual(await walkSqlite.ask(req), expected, `${q} (SQLite walk)`);
      if (expected.subjects.length > 0) nonEmpty++;
    }
    assert.ok(nonEmpty >= 60, `${nonEmpty} queries with subjects`);
  });

  it('printouts of every property (and its inverse) and the categories, for every answer of the table', async () => {
    const props = file.prepare("SELECT sp_key FROM smw_property WHERE sp_key NOT LIKE '\\_%' ESCAPE '\\'").pluck().all() as string[];
    const specs: AskPrintoutSpec[] = [
      { kind: 'cats' },
      { kind: 'prop', key: '_MDAT', inverse: false },
      { kind: 'prop', key: 'Немає', inverse: false },
      { kind: 'prop', key: 'Опис\0', inverse: true },
    ];
    for (const key of props) specs.push({ kind: 'prop', key, inverse: false }, { kind: 'prop', key, inverse: true });
    const all = file.prepare('SELECT ss_id FROM smw_subject ORDER BY ss_id DESC').pluck().all() as number[];
    const a = await sqlite.semantic.askPrintouts([...all, 999999], specs);
    assert.deepEqual(await pg.semantic.askPrintouts([...all, 999999], specs), a);
    assert.ok(a.flat(2).length > 500);
    assert.deepEqual(await pg.semantic.askPrintouts([], specs), await sqlite.semantic.askPrintouts([], specs));
  });

  it('subject data of every subject, and of subjects SMW does not know, in the order asked', async () => {
    const subjects = file
      .prepare('SELECT ss_namespace AS ns, ss_title AS dbkey, ss_subobject AS subobject FROM smw_subject ORDER BY ss_sortkey DESC')
      .all() as Array<{ ns: number; dbkey: string; subobject: string }>;
    subjects.splice(
      7,
      0,
      { ns: 0, dbkey: 'Немає_такої', subobject: '' },
      { ns: 0, dbkey: subjects[0].dbkey, subobject: 'немає' },
      { ns: 0, dbkey: 'Київ\0', subobject: '' },
      { ns: 0, dbkey: 'Київ', subobject: '\0' },
    );
    const expected = await sqlite.semantic.subjectData(subjects);
    assert.deepEqual(await pg.semantic.subjectData(subjects), expected);
    assert.ok(expected.filter((x) => x && x.properties.length > 0).length > 100);
    assert.deepEqual(await pg.semantic.subjectData([]), []);
    // with the pages' subobjects (browsebysubject's form)
    const withSubs = await sqlite.semantic.subjectData(subjects, { subobjects: true });
    assert.deepEqual(await pg.semantic.subjectData(subjects, { subobjects: true }), withSubs);
    assert.ok(withSubs.filter((x) => x?.subobjects && x.subobjects.size > 0).length > 5);
  });

  it('autocompletion: properties, namespaces, categories and the dependent form', async () => {
    const props = file.prepare('SELECT sp_key FROM smw_property').pluck().all() as string[];
    const substrings = [
      'а',
      'к',
      'ки',
      'київ',
      'Київ',
      'по',
      'ри',
      '1',
      'h',
      'http',
      'a'.repeat(80),
      'р'.repeat(70),
      '%',
      '_',
      'є',
      'ї',
      'к\0',
      'р'.repeat(70) + '\0',
    ];
    let found = 0;
    for (const p of [...props, 'Немає']) {
      for (const s of substrings) {
        const e = await sqlite.semantic.autocompleteProperty(p, fold(s), 1000);
        assert.deepEqual(await pg.semantic.autocompleteProperty(p, fold(s), 1000), e, `${p} ${s}`);
        assert.deepEqual(await pg.semantic.autocompleteProperty(p, fold(s), 3), e.slice(0, 3), `${p} ${s} (3)`);
        found += e.length;
      }
    }
    for (const ns of [0, 2, 4, 6, 10, 14, 102, 999]) {
      for (const s of substrings) {
        const e = await sqlite.semantic.autocompleteNamespace(ns, fold(s), 1000);
        assert.deepEqual(await pg.semantic.autocompleteNamespace(ns, fold(s), 1000), e, `${ns} ${s}`);
        found += e.length;
      }
    }
    const cats = file.prepare('SELECT DISTINCT cl_to FROM categorylinks').pluck().all() as string[];
    for (const c of [...cats, 'Немає', 'Супи\0']) {
      for (const [levels, s] of [
        [3, ''],
        [1, ''],
        [3, 'к'],
        [2, 'ри'],
      ] as const) {
        const e = await sqlite.semantic.autocompleteCategory(c.replace(/_/g, ' '), levels, fold(s));
        assert.deepEqual(await pg.semantic.autocompleteCategory(c.replace(/_/g, ' '), levels, fold(s)), e, `${c} ${levels} ${s}`);
        found += e.length;
      }
    }
    const pairs = file
      .prepare(
        `SELECT DISTINCT b.sp_key AS base, v.sv_key AS value FROM smw_value v JOIN smw_property b ON b.sp_id = v.sv_property
         WHERE v.sv_key IS NOT NULL ORDER BY 1, 2 LIMIT 60`,
      )
      .all() as Array<{ base: string; value: string }>;
    pairs.push({ base: pairs[0].base, value: pairs[0].value + '\0' });
    for (const { base, value } of pairs) {
      for (const p of [...props, 'Опис\0']) {
        const e = await sqlite.semantic.autocompleteDependent(p, base, value.replace(/_/g, ' '), 1000);
        assert.deepEqual(await pg.semantic.autocompleteDependent(p, base, value.replace(/_/g, ' '), 1000), e, `${p} ${base}=${value}`);
        found += e.length;
      }
    }
    assert.ok(found > 1000, `${found} values`);
  });

  it('autocompletion through precomputed prefixes (heavyRows 8): the lists, their limits and the long-query path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wikiquery-pg-ac-'));
    const stores: Store[] = [];
    try {
      const pages: DumpPage[] = [];
      const add = (ns: number, title: string, text: string) =>
        pages.push({
          title,
          ns,
          id: pages.length + 1,
          revisions: [{ id: 1000 + pages.length, timestamp: '2015-06-01T12:30:45Z', contributor: { name: 'Адмін', id: 1 }, text }],
        });
      add(102, 'Місце', '[[Has type::Page]]');
      add(102, 'Примітка', '[[Has type::Text]]');
      for (let i = 0; i < 90; i++) {
        const n = String(i).padStart(3, '0');
        const place = i % 3 === 0 ? `Область ${n}` : i % 3 === 1 ? `область_${n} південна` : `Район ${n} Обʼєкт`;
        const note = i % 2 ? `Спільний початок примітки: ${'дуже '.repeat(12)}довгий, номер ${n}` : `Примітка ${n} про обʼєкт_${i % 7}`;
        add(0, `Сторінка ${n}`, `[[Місце::${place}]] [[Примітка::${note}]]`);
      }
      writeFileSync(join(dir, 'dump.xml'), xmlHeader() + pages.map(xmlPage).join('') + XML_FOOTER);
      const sqliteFile = join(dir, 'ac.sqlite');
      const pgUrl = await freshPostgresDatabase('ac');
      for (const db of [sqliteFile, pgUrl]) {
        await importWiki({ dump: join(dir, 'dump.xml'), db, lang: 'uk', hooks: [semanticImportHook({ heavyRows: 8 })], log: () => {} });
        stores.push(await openStore(db));
      }
      const [a, b] = stores as [Store, Store];
      const f = new Database(sqliteFile, { readonly: true });
      const nodes = f.prepare('SELECT count(*) FROM smw_ac_node').pluck().get() as number;
      f.close();
      assert.ok(nodes > 10, `${nodes} precomputed prefixes`);
      const long = 'спільний початок примітки: ' + 'дуже '.repeat(12);
      const substrings = [
        'о',
        'об',
        'обʼ',
        "об'єкт",
        'область',
        'область 0',
        'область_01',
        'р',
        'с',
        'сп',
        'дуже',
        long,
        long + 'довгий, номер 01',
        long + 'x',
        'п',
        'примітка 0',
        'номер 0',
        'є',
        'щось',
      ];
      let found = 0;
      let printedSeen = 0;
      for (const p of ['Місце', 'Примітка']) {
        for (const s of substrings) {
          const e = await a.semantic.autocompleteProperty(p, fold(s), 1000);
          assert.deepEqual(await b.semantic.autocompleteProperty(p, fold(s), 1000), e, `${p} ${s}`);
          assert.deepEqual(await b.semantic.autocompleteProperty(p, fold(s), 3), e.slice(0, 3), `${p} ${s} (3)`);
          assert.deepEqual(await a.semantic.autocompleteProperty(p, fold(s), 3), e.slice(0, 3), `${p} ${s} (3, SQLite)`);
          // printed at import (heavy prefixes): the same bytes from both, the plain answer's values
          for (const form of ['ascii', 'utf8'] as const) {
            const printed = await a.semantic.autocompleteProperty(p, fold(s), 1000, form);
            assert.deepEqual(await b.semantic.autocompleteProperty(p, fold(s), 1000, form), printed, `${p} ${s} ${form}`);
            if (Array.isArray(printed)) assert.deepEqual(printed, e);
            else {
              assert.equal(printed.form, form);
              assert.deepEqual(completionAnswerValues(printed.json), e);
              printedSeen++;
            }
          }
          found += e.length;
        }
      }
      for (const s of substrings) {
        const e = await a.semantic.autocompleteNamespace(0, fold(s), 1000);
        assert.deepEqual(await b.semantic.autocompleteNamespace(0, fold(s), 1000), e, `ns 0 ${s}`);
        found += e.length;
      }
      assert.ok(found > 300, `${found} values`);
      assert.ok(printedSeen > 10, `${printedSeen} printed answers`);
      // values as shown (underscores as spaces, in texts too), in the stored form's byte order
      const o = await a.semantic.autocompleteProperty('Місце', fold('о'), 1000);
      assert.deepEqual(o.slice(0, 3), ['Область 000', 'Область 001 південна', 'Область 003']);
      const notes = await a.semantic.autocompleteProperty('Примітка', fold('п'), 1000);
      assert.ok(notes.includes('Примітка 000 про обʼєкт 0') && notes.every((v) => !v.includes('_')));
      assert.equal((await a.semantic.autocompleteProperty('Примітка', fold(long + 'довгий, номер 01'), 1000)).length, 5);
    } finally {
      for (const s of stores) s.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('property types, known and unknown', async () => {
    const keys = [...(file.prepare('SELECT sp_key FROM smw_property').pluck().all() as string[]), 'Немає', '', 'Опис\0'];
    assert.deepEqual([...(await pg.semantic.propertyTypes(keys))].sort(), [...(await sqlite.semantic.propertyTypes(keys))].sort());
    assert.equal((await pg.semantic.propertyTypes(keys)).size, keys.length - 3);
  });
});

describe('texts with U+0000 (decided without sending them to PostgreSQL)', () => {
  it("follow SQLite's rules: byte-wise comparison, GLOB up to the NUL", () => {
    const db = new Database(':memory:');
    try {
      const stored = ['', 'a', 'ab', 'a b', 'b', 'Київ', 'Київа', 'Киї', 'z'];
      const values = ['a\0', 'a\0b', '\0', 'Київ\0x', 'b\0a'];
      const rule: Record<string, (s: string, before: string) => boolean> = {
        '=': () => false,
        '!=': () => true,
        '<': (s, b) => Buffer.compare(Buffer.from(s), Buffer.from(b)) <= 0,
        '<=': (s, b) => Buffer.compare(Buffer.from(s), Buffer.from(b)) <= 0,
        '>': (s, b) => Buffer.compare(Buffer.from(s), Buffer.from(b)) > 0,
        '>=': (s, b) => Buffer.compare(Buffer.from(s), Buffer.from(b)) > 0,
      };
      for (const s of stored) {
        for (const v of values) {
          const before = v.slice(0, v.indexOf('\0'));
          for (const [op, f] of Object.entries(rule))
            assert.equal(db.prepare(`SELECT ? ${op} ?`).pluck().get(s, v) === 1, f(s, before), `${s} ${op} ${JSON.stringify(v)}`);
          const glob = (p: string) => db.prepare('SELECT ? GLOB ?').pluck().get(s, p) === 1;
          assert.equal(glob(v + '*'), glob(before), `${s} GLOB ${JSON.stringify(v)}*`);
          assert.equal(glob(v), glob(before), `${s} GLOB ${JSON.stringify(v)}`);
        }
      }
    } finally {
      db.close();
    }
  });
});
