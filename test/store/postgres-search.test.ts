/**
 * The PostgreSQL search store answers as SQLite's FTS5 does: the same hits in the same order and the
 * same totalhits for a wide spread of queries made from the demo wiki's own vocabulary (frequent, rare
 * and shared words, phrases taken from adjacent tokens of pages, prefixes, exclusions, OR, intitle:),
 * over each field choice, namespace sets and offsets; and the same documents, title-key matches and
 * title prefixes. Needs the PostgreSQL pass (WIKIQUERY_TEST_DB=postgres): SQLite alone has nothing to
 * compare with.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { demoDatabase } from '../helpers/demo-server.js';
import { TEST_DB } from '../helpers/test-db.js';
import { openStore } from '../../src/store/open.js';
import type { Store } from '../../src/store/store.js';
import type { FullTextSearch } from '../../src/store/search-store.js';
import { parseSearch } from '../../src/wiki/search-query.js';
import { describeOrSkip } from '../helpers/skip.js';

const skip =
  TEST_DB === 'postgres' ? false : 'compares the PostgreSQL store with SQLite: runs in the PostgreSQL pass (WIKIQUERY_TEST_DB=postgres)';

describeOrSkip('PostgreSQL full-text search answers as SQLite FTS5', { skip }, () => {
  let lite: Store;
  let pg: Store;
  let queries: string[] = [];
  let pageIds: number[] = [];
  let titleKeys: string[] = [];
  let titlePrefixes: Array<{ ns: number; prefix: string }> = [];

  before(async () => {
    const { db, served } = await demoDatabase();
    lite = await openStore(db);
    pg = await openStore(served);
    const conn = new Database(db, { readonly: true });
    try {
      conn.exec('CREATE VIRTUAL TABLE temp.v_row USING fts5vocab(main, search_index, row)');
      conn.exec('CREATE VIRTUAL TABLE temp.v_inst USING fts5vocab(main, search_index, instance)');
      const byDocs = conn
        .prepare("SELECT term FROM temp.v_row WHERE term NOT GLOB 'n[0-9]*' ORDER BY doc DESC, term")
        .pluck()
        .all() as string[];
      const n = byDocs.length;
      // frequent, middling and rare words, Cyrillic and Latin
      const words = [...byDocs.slice(0, 12), ...byDocs.filter((_w, i) => i % Math.max(1, Math.floor(n / 25)) === 0), ...byDocs.slice(-8)];
      const cyr = byDocs.filter((w) => /[а-яіїєґ]/.test(w)).slice(0, 15);
      // phrases: tokens adjacent in one column of some page
      const bigrams = conn
        .prepare(
          `SELECT a.term || ' ' || b.term FROM temp.v_inst a JOIN temp.v_inst b ON b.doc = a.doc AND b.col = a.col AND b."offset" = a."offset" + 1
           WHERE a.col IN ('title', 'text') AND a.doc % 7 = 0 AND a."offset" % 5 = 0 LIMIT 40`,
        )
        .pluck()
        .all() as string[];
      const trigrams = conn
        .prepare(
          `SELECT a.term || ' ' || b.term || ' ' || c.term FROM temp.v_inst a JOIN temp.v_inst b ON b.doc = a.doc AND b.col = a.col AND b."offset" = a."offset" + 1
             JOIN temp.v_inst c ON c.doc = a.doc AND c.col = a.col AND c."offset" = a."offset" + 2
           WHERE a.col = 'text' AND a.doc % 5 = 1 AND a."offset" % 9 = 0 LIMIT 15`,
        )
        .pluck()
        .all() as string[];
      const titles = conn.prepare('SELECT DISTINCT st_key FROM search_title ORDER BY st_key LIMIT 400').pluck().all() as string[];
      titleKeys = [...titles.filter((_t, i) => i % 9 === 0), 'немає такого', ''];
      const q = new Set<string>();
      for (const w of words) q.add(w);
      for (const w of cyr) {
        q.add(w);
        q.add(w.toUpperCase());
        if (w.length > 2) q.add(w.slice(0, 2) + '*');
        if (w.length > 4) q.add(w.slice(0, 4) + '*');
        q.add(`intitle:${w}`);
      }
      for (let i = 0; i + 1 < words.length; i += 2) {
        q.add(`${words[i]} ${words[i + 1]}`);
        q.add(`${words[i]} -${words[i + 1]}`);
        q.add(`${words[i]} OR ${words[i + 1]}`);
        q.add(`${words[i]} ${words[(i + 5) % words.length]} OR ${words[(i + 3) % words.length]} -${words[(i + 7) % words.length]}`);
      }
      for (let i = 0; i + 2 < cyr.length; i++) {
        q.add(`${cyr[i]} ${cyr[i + 1]}`);
        q.add(`${cyr[i]} !${cyr[i + 2]}`);
        q.add(`intitle:${cyr[i]} ${cyr[i + 1]}*`);
        q.add(`${cyr[i]} ${cyr[i]}`);
        q.add(`"${cyr[i]}" OR intitle:"${cyr[i + 1]}"`);
      }
      for (const b of bigrams) {
        q.add(`"${b}"`);
        q.add(`"${b.slice(0, Math.max(b.indexOf(' ') + 2, b.length - 2))}"*`);
        q.add(`intitle:"${b}"`);
        q.add(`${b}`);
        q.add(`"${b}" -${words[b.length % words.length]}`);
      }
      for (const t of trigrams) {
        q.add(`"${t}"`);
        q.add(`"${t.split(' ').reverse().join(' ')}"`);
        q.add(`${t.split(' ')[0]} "${t.split(' ').slice(1).join(' ')}"`);
      }
      for (const t of titles.filter((_t, i) => i % 17 === 0)) q.add(t);
      q.add('a*');
      q.add('1*');
      q.add('OR');
      q.add('-слово');
      q.add('"незакрита лапка');
      queries = [...q];
      pageIds = conn.prepare('SELECT page_id FROM page ORDER BY page_id').pluck().all() as number[];
      const tp = conn.prepare('SELECT page_namespace AS ns, page_title AS title FROM page WHERE page_id % 11 = 0').all() as Array<{
        ns: number;
        title: string;
      }>;
      titlePrefixes = [
        ...tp.map((r) => ({ ns: r.ns, prefix: r.title.slice(0, 2) })),
        { ns: 0, prefix: '' },
        { ns: 14, prefix: '' },
        { ns: 0, prefix: 'Ї' },
      ];
    } finally {
      conn.close();
    }
  });

  after(() => {
    lite?.close();
    pg?.close();
  });

  const NAMESPACES = [[0], [0, 1, 2, 3, 4, 6, 10, 12, 14], [4, 14], [-1, 0]];

  it('fullText: the same hits, order and totalhits', async () => {
    assert.ok(queries.length > 200, `only ${queries.length} queries`);
    let compared = 0;
    let nonEmpty = 0;
    for (const text of queries) {
      const query = parseSearch(text);
      if (!query) continue;
      for (const fields of ['all', 'title', 'text'] as const) {
        for (const namespaces of NAMESPACES) {
          for (const [offset, limit] of [
            [0, 500],
            [0, 3],
            [2, 5],
          ]) {
            const req: FullTextSearch = { query, namespaces, fields, offset, limit, countHits: true };
            const [a, b] = await Promise.all([lite.search.fullText(req), pg.search.fullText(req)]);
            assert.deepEqual(b, a, `${JSON.stringify(text)} fields=${fields} ns=${namespaces} offset=${offset} limit=${limit}`);
            compared++;
            if (a.hits.length) nonEmpty++;
          }
        }
      }
    }
    // the spread is real: most queries find something
    assert.ok(nonEmpty > compared / 3, `${nonEmpty} of ${compared} answers had hits`);
  });

  it('fullText without the count', async () => {
    const query = parseSearch(queries[0])!;
    const req: FullTextSearch = { query, namespaces: [0], fields: 'all', offset: 0, limit: 10, countHits: false };
    assert.deepEqual(await pg.search.fullText(req), await lite.search.fullText(req));
  });

  it('vocabulary: the same terms and page counts by prefix', async () => {
    const prefixes = [
      'па',
      'ки',
      'ri',
      'a',
      '',
      'ʼя',
      'я',
      'немаєтакого',
      ...queries.filter((q) => /^[а-яіїєґ]{3,}$/.test(q)).map((q) => q.slice(0, 3)),
    ];
    for (const limit of [1, 7, 2000])
      assert.deepEqual(await pg.search.vocabulary(prefixes, limit), await lite.search.vocabulary(prefixes, limit));
    assert.deepEqual(await pg.search.vocabulary([], 5), []);
    const some = await lite.search.vocabulary(['ки'], 50);
    assert.ok(some[0].length > 3 && some[0].every((t) => t.term.startsWith('ки') && t.docs > 0));
  });

  it('analysedTitlePrefix: the same pages by folded and lemma keys', async () => {
    const cases: Array<[number, string, string[]]> = [
      [0, 'ки', []],
      [0, 'київ', ['кий', 'київ']],
      [0, 'немає', ['немає']],
      [0, '', ['місто', 'міст']],
      [14, 'м', []],
      [0, 'zzz', []],
      ...titleKeys.filter((k) => k !== '').map((k): [number, string, string[]] => [0, k.slice(0, 3), [k.split(' ')[0]]]),
    ];
    for (const [ns, prefix, keys] of cases) {
      for (const [offset, limit] of [
        [0, 10],
        [2, 3],
        [0, 100],
      ]) {
        assert.deepEqual(
          await pg.search.analysedTitlePrefix(ns, prefix, keys, offset, limit),
          await lite.search.analysedTitlePrefix(ns, prefix, keys, offset, limit),
          `${ns}:${prefix} ${keys} ${offset} ${limit}`,
        );
      }
    }
  });

  it('documents, titleKeyMatches and titlePrefix', async () => {
    const ids = [...pageIds.filter((_id, i) => i % 3 === 0), 999999999, pageIds[0], pageIds[0]];
    assert.deepEqual(await pg.search.documents(ids), await lite.search.documents(ids));
    assert.deepEqual(await pg.search.documents([]), []);
    for (const key of titleKeys) {
      for (const ns of NAMESPACES) {
        assert.deepEqual(await pg.search.titleKeyMatches(key, ns, 5), await lite.search.titleKeyMatches(key, ns, 5), key);
      }
    }
    for (const { ns, prefix } of titlePrefixes) {
      for (const [offset, limit] of [
        [0, 10],
        [3, 4],
        [0, 500],
      ]) {
        assert.deepEqual(
          await pg.search.titlePrefix(ns, prefix, offset, limit),
          await lite.search.titlePrefix(ns, prefix, offset, limit),
          `${ns}:${prefix}`,
        );
      }
    }
  });
});
