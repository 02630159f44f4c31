/**
 * The PostgreSQL store's categories, categoryLinks, files, messages and reports areas against the SQLite
 * store's, method by method, on the demo wiki imported into both: the same arguments must give the same
 * answers (values, JavaScript types, row order, duplicates, Map/Set iteration order). The arguments are
 * drawn from the demo's own rows (every category, file, report, message key; continuation points in the
 * middle of real listings) plus titles that do not exist, Unicode bounds on both sides of the BMP, empty
 * batches and repeated ones. Only the PostgreSQL pass can run it (it needs the cluster `npm test` starts).
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { demoDatabase } from '../helpers/demo-server.js';
import { TEST_DB } from '../helpers/test-db.js';
import { openStore } from '../../src/store/open.js';
import { connect } from '../../src/store/postgres/db.js';
import { servedImport } from '../../src/store/postgres/catalog.js';
import type { Store } from '../../src/store/store.js';
import type { CategoryListOptions } from '../../src/store/category-store.js';
import type { FileListOptions } from '../../src/store/file-store.js';
import type { MemberType } from '../../src/store/category-link-store.js';
import { describeOrSkip } from '../helpers/skip.js';

const skip =
  TEST_DB === 'postgres'
    ? false
    : 'compares the PostgreSQL store with the SQLite one: runs in the PostgreSQL pass (WIKIQUERY_TEST_DB=postgres)';

/** Maps and Sets as arrays, so that deepStrictEqual also compares their iteration order. */
function plain(v: unknown): unknown {
  if (v instanceof Map) return ['Map', [...v].map(([k, x]) => [k, plain(x)])];
  if (v instanceof Set) return ['Set', [...v]];
  if (Array.isArray(v)) return v.map(plain);
  return v;
}

describeOrSkip('PostgreSQL store: categories, categoryLinks, files, messages, reports = SQLite', { skip }, () => {
  let lite: Store;
  let pg: Store;
  let raw: Database.Database;
  let served = '';
  let calls = 0;

  /** one method on both stores with the same arguments: the same answer */
  async function same<T>(label: string, call: (s: Store) => Promise<T>, sortUnordered = false): Promise<T> {
    const [a, b] = await Promise.all([call(lite), call(pg)]);
    let x = plain(a);
    let y = plain(b);
    if (sortUnordered) {
      x = [...(x as string[])].sort();
      y = [...(y as string[])].sort();
    }
    assert.deepStrictEqual(y, x, label);
    calls++;
    return a;
  }

  const col = <T>(sql: string, ...params: unknown[]) =>
    raw
      .prepare(sql)
      .pluck()
      .all(...params) as T[];
  // bounds around real values and across the byte order's surprises: ASCII < Cyrillic < U+FFFD < astral;
  // NUL, which a request can carry and PostgreSQL's text cannot hold (storable in src/store/postgres/db.ts)
  const oddBounds = [
    '',
    ' ',
    'A',
    'Z',
    'a',
    'zzz',
    'Ґ',
    'Д',
    'Мʼ',
    'Р',
    'Ї',
    'я',
    '\uFFFD',
    '\u{1F600}',
    '\u{10FFFF}',
    '\0',
    'Р\0',
    'Міста\0x',
    'Б\0\0',
  ];

  before(async () => {
    const d = await demoDatabase();
    lite = await openStore(d.db);
    pg = await openStore(d.served);
    raw = new Database(d.db, { readonly: true });
    served = d.served;
  });
  after(() => {
    lite?.close();
    pg?.close();
    raw?.close();
  });

  it('categories.byTitles and categories.list', async () => {
    const titles = col<string>('SELECT cat_title FROM category ORDER BY cat_title');
    assert.ok(titles.length > 20);
    const hiddenCount = (await same('byTitles all', (s) => s.categories.byTitles([...titles].reverse()))).filter((r) => r.hidden).length;
    assert.ok(hiddenCount > 0, 'the demo has a hidden category');
    await same('byTitles none', (s) => s.categories.byTitles([]));
    await same('byTitles missing and repeated', (s) =>
      s.categories.byTitles(['Немає_такої', titles[3], titles[3], 'rivers', titles[0], ...oddBounds, titles[1] + '\0']),
    );
    for (const t of titles) await same(`byTitles ${t}`, (s) => s.categories.byTitles([t]));

    const bounds = [...oddBounds, ...titles.filter((_t, i) => i % 7 === 3), titles[0], titles[titles.length - 1]];
    const prefixes = ['', 'Р', 'Річ', 'Мʼ', 'Укр', 'Ї', 'R', 'x', '\0', 'Р\0'];
    for (const descending of [false, true]) {
      for (const hidden of [false, true]) {
        for (const limit of [1, 3, 500]) {
          const base: CategoryListOptions = { descending, hidden, limit };
          await same('list', (s) => s.categories.list(base));
          for (const b of bounds) {
            await same(`list from ${b}`, (s) => s.categories.list({ ...base, from: b }));
            await same(`list to ${b}`, (s) => s.categories.list({ ...base, to: b }));
            await same(`list cont ${b}`, (s) => s.categories.list({ ...base, continueFrom: b, from: titles[2] }));
          }
          for (const prefix of prefixes) await same(`list prefix ${prefix}`, (s) => s.categories.list({ ...base, prefix }));
          for (const [min, max] of [
            [0, undefined],
            [5, undefined],
            [undefined, 3],
            [2, 10],
            [10, 2],
            [29, 29],
          ] as const)
            await same(`list min ${min} max ${max}`, (s) => s.categories.list({ ...base, min, max, from: titles[1] }));
        }
      }
    }
  });

  it('categoryLinks: members by sort key and by timestamp, categories of pages', async () => {
    const cats = col<string>('SELECT cl_to FROM categorylinks GROUP BY cl_to ORDER BY count(*) DESC, cl_to LIMIT 12');
    cats.push('Немає_такої', 'Міста\0');
    for (const cat of cats) {
      for (const descending of [false, true]) {
        for (const type of ['page', 'subcat', 'file'] as MemberType[]) {
          const all = await same(`bySortkey ${cat} ${type}`, (s) =>
            s.categoryLinks.membersBySortkey(cat, type, undefined, descending, 5000),
          );
          for (const limit of [1, 2, 7])
            await same('bySortkey limit', (s) => s.categoryLinks.membersBySortkey(cat, type, undefined, descending, limit));
          for (const r of all.filter((_r, i) => i % 5 === 1)) {
            await same('bySortkey from', (s) =>
              s.categoryLinks.membersBySortkey(cat, type, { sortkey: r.sortkey, pageid: r.pageid }, descending, 4),
            );
            await same('bySortkey from NUL', (s) =>
              s.categoryLinks.membersBySortkey(cat, type, { sortkey: r.sortkey + '\0', pageid: r.pageid }, descending, 4),
            );
            await same('bySortkey from next id', (s) =>
              s.categoryLinks.membersBySortkey(cat, type, { sortkey: r.sortkey, pageid: r.pageid + 1 }, descending, 4),
            );
          }
          for (const b of oddBounds)
            await same(`bySortkey from ${b}`, (s) => s.categoryLinks.membersBySortkey(cat, type, { sortkey: b, pageid: 0 }, descending, 3));
        }
        const all = await same(`byTimestamp ${cat}`, (s) =>
          s.categoryLinks.membersByTimestamp(cat, undefined, undefined, descending, 5000),
        );
        for (const limit of [1, 3])
          await same('byTimestamp limit', (s) => s.categoryLinks.membersByTimestamp(cat, undefined, undefined, descending, limit));
        for (const r of all.filter((_r, i) => i % 4 === 1)) {
          await same('byTimestamp from', (s) =>
            s.categoryLinks.membersByTimestamp(cat, { timestamp: r.timestamp, pageid: r.pageid }, undefined, descending, 5),
          );
          for (const e of all.filter((_e, i) => i % 9 === 2))
            await same('byTimestamp from/end', (s) =>
              s.categoryLinks.membersByTimestamp(cat, { timestamp: r.timestamp, pageid: r.pageid }, e.timestamp, descending, 50),
            );
          await same('byTimestamp end', (s) => s.categoryLinks.membersByTimestamp(cat, undefined, r.timestamp, descending, 50));
          await same('byTimestamp NUL', (s) =>
            s.categoryLinks.membersByTimestamp(
              cat,
              { timestamp: r.timestamp + '\0', pageid: r.pageid },
              r.timestamp.slice(0, 4) + '\0',
              descending,
              50,
            ),
          );
        }
      }
    }

    const pageids = col<number>('SELECT DISTINCT cl_from FROM categorylinks ORDER BY cl_from');
    const batches = [
      pageids,
      pageids.slice(0, 7),
      [...pageids.slice(20, 40)].reverse(),
      [pageids[5], pageids[5], 999999, pageids[1]],
      [999999],
    ];
    const allCats = col<string>('SELECT DISTINCT cl_to FROM categorylinks ORDER BY cl_to');
    const onlies = [undefined, [], allCats.slice(0, 4), ['Статті_без_джерел', 'Міста', 'Немає_такої', 'Міста\0'], ['\0'], allCats];
    for (const ids of batches) {
      for (const descending of [false, true]) {
        for (const only of onlies) {
          for (const hidden of [undefined, true, false]) {
            for (const limit of [1, 4, 5000]) {
              const rows = await same('categoriesOf', (s) =>
                s.categoryLinks.categoriesOf({ pageids: ids, only, hidden, descending, limit }),
              );
              if (limit !== 5000) continue;
              for (const r of rows.filter((_r, i) => i % 11 === 3)) {
                await same('categoriesOf from', (s) =>
                  s.categoryLinks.categoriesOf({ pageids: ids, only, hidden, descending, limit: 6, start: { pageid: r.from, to: r.to } }),
                );
                await same('categoriesOf from NUL', (s) =>
                  s.categoryLinks.categoriesOf({
                    pageids: ids,
                    only,
                    hidden,
                    descending,
                    limit: 6,
                    start: { pageid: r.from, to: r.to + '\0' },
                  }),
                );
                await same('categoriesOf from (page, "")', (s) =>
                  s.categoryLinks.categoriesOf({ pageids: ids, only, hidden, descending, limit: 6, start: { pageid: r.from, to: '' } }),
                );
              }
            }
          }
        }
      }
    }
    await same('categoriesOf none', (s) => s.categoryLinks.categoriesOf({ pageids: [], descending: false, limit: 10 }));
  });

  it('files: existing, byNames, sameContent, storedPath, list', async () => {
    const names = col<string>('SELECT img_name FROM image ORDER BY img_name');
    assert.ok(names.length > 20);
    const batches = [
      names,
      [...names].reverse(),
      names.filter((_n, i) => i % 3 === 0),
      ['Немає.png', names[4], names[4], 'blank.png', names[0], names[2] + '\0'],
      ['Немає.png'],
      ['\0'],
      [],
    ];
    for (const b of batches) {
      await same('existing', (s) => s.files.existing(b));
      await same('byNames', (s) => s.files.byNames(b));
      await same('sameContent', (s) => s.files.sameContent(b));
    }
    for (const n of [...names, 'Немає.png', names[0] + '\0']) {
      await same(`storedPath ${n}`, (s) => s.files.storedPath(n));
      await same(`byNames ${n}`, (s) => s.files.byNames([n]));
      await same(`sameContent ${n}`, (s) => s.files.sameContent([n]));
    }

    const users = [...col<string>('SELECT DISTINCT img_user_text FROM image ORDER BY 1'), 'Нікого', 'Тарас\0'];
    const sha1s = [...col<string>('SELECT img_sha1 FROM image GROUP BY img_sha1 ORDER BY count(*) DESC, img_sha1 LIMIT 4'), 'x', '\0'];
    const stamps = col<string>('SELECT img_timestamp FROM image ORDER BY img_timestamp').filter((_t, i) => i % 6 === 2);
    const mimes: Array<Array<[string, string]> | undefined> = [
      undefined,
      [],
      [['image', 'png']],
      [
        ['image', 'gif'],
        ['image', 'svg+xml'],
        ['text', 'plain'],
      ],
      [['image', 'jpeg']],
      [
        ['image', 'png\0'],
        ['image\0', 'gif'],
      ],
      [
        ['image', 'png\0'],
        ['image', 'gif'],
      ],
    ];
    const sizes: Array<[number | undefined, number | undefined]> = [
      [undefined, undefined],
      [200, undefined],
      [undefined, 150],
      [120, 400],
      [500, 100],
    ];
    for (const descending of [false, true]) {
      for (const limit of [1, 4, 500]) {
        for (const mime of mimes) {
          for (const [minSize, maxSize] of sizes) {
            const base: FileListOptions = { sort: 'name', descending, limit, mimes: mime, minSize, maxSize };
            await same('list name', (s) => s.files.list(base));
            await same('list name with pages', (s) => s.files.listPages(base));
            await same('list name with pages and duplicates', (s) => s.files.listPages(base, false, true));
            await same('list name with whole pages and duplicates', (s) => s.files.listPages(base, true, true));
            await same('list ts with pages and duplicates', (s) => s.files.listPages({ ...base, sort: 'timestamp' }, false, true));
            for (const b of [...oddBounds, ...names.filter((_n, i) => i % 9 === 4)]) {
              await same(`list name from ${b}`, (s) => s.files.list({ ...base, from: b }));
              await same(`list name to ${b}`, (s) => s.files.list({ ...base, to: b }));
              await same(`list name cont ${b}`, (s) => s.files.list({ ...base, continueName: b }));
            }
            for (const prefix of ['', 'П', 'Пр', 'Прапор_', 'T', 'Ґ', 'zz'])
              await same(`list prefix ${prefix}`, (s) => s.files.list({ ...base, prefix }));
            for (const sha1 of sha1s) await same('list name sha1', (s) => s.files.list({ ...base, sha1 }));

            const ts: FileListOptions = { sort: 'timestamp', descending, limit, mimes: mime, minSize, maxSize };
            await same('list ts', (s) => s.files.list(ts));
            for (const user of [undefined, ...users]) {
              const all = await same(`list ts user ${user}`, (s) => s.files.list({ ...ts, user, limit: 500 }));
              for (const r of all.filter((_r, i) => i % 5 === 1)) {
                await same('list ts cont', (s) => s.files.list({ ...ts, user, continueAt: { timestamp: r.timestamp, name: r.name } }));
                await same('list ts cont NUL', (s) =>
                  s.files.list({ ...ts, user, continueAt: { timestamp: r.timestamp, name: r.name + '\0' } }),
                );
                await same('list ts cont NUL ts', (s) =>
                  s.files.list({ ...ts, user, continueAt: { timestamp: r.timestamp + '\0', name: r.name } }),
                );
                await same('list ts cont end', (s) =>
                  s.files.list({ ...ts, user, continueAt: { timestamp: r.timestamp, name: r.name }, end: stamps[1] }),
                );
              }
            }
            for (const start of [undefined, ...stamps, '2015', '', '2015\0'])
              for (const end of [undefined, stamps[0], stamps[3], '2013', '2013\0'])
                await same(`list ts ${start}..${end}`, (s) => s.files.list({ ...ts, start, end }));
            for (const sha1 of sha1s) await same('list ts sha1', (s) => s.files.list({ ...ts, sha1 }));
          }
        }
      }
    }
  });

  it('messages: texts and keys', async () => {
    const catalogKeys = col<string>('SELECT DISTINCT msg_key FROM message ORDER BY 1');
    const overrideKeys = col<string>('SELECT DISTINCT mo_key FROM message_override ORDER BY 1');
    const langs = col<string>('SELECT DISTINCT msg_lang FROM message UNION SELECT mo_lang FROM message_override ORDER BY 1');
    const keys = [...catalogKeys, ...overrideKeys, 'no-such-message', 'Mainpage', ''];
    const langSets = [langs, [...langs].reverse(), ['uk'], ['ru', 'en'], ['de', 'uk', 'uk'], ['uk\0', 'ru'], []];
    for (const ls of langSets) {
      await same('texts all', (s) => s.messages.texts(ls, keys));
      await same('texts some', (s) =>
        s.messages.texts(
          ls,
          [...keys].reverse().filter((_k, i) => i % 4 === 0),
        ),
      );
      await same('texts one', (s) => s.messages.texts(ls, [overrideKeys[0]]));
      await same('texts none', (s) => s.messages.texts(ls, []));
    }
    // allmessages passes amfrom/amto/amprefix and message names through unchanged: NUL included
    await same('texts NUL', (s) => s.messages.texts(['uk'], ['a\0b', 'mainpage']));
    const points = [...oddBounds, 'a\0b', '\0', ...catalogKeys.filter((_k, i) => i % 13 === 5), 'demo-', 'mainpage'];
    for (const ls of langSets) {
      for (const olang of [null, 'uk', 'ru', 'xx', 'uk\0']) {
        await same('keys', (s) => s.messages.keys(ls, olang, {}), true);
        for (const p of points) {
          await same(`keys min ${p}`, (s) => s.messages.keys(ls, olang, { min: p }), true);
          await same(`keys below ${p}`, (s) => s.messages.keys(ls, olang, { below: p }), true);
          await same(`keys max ${p}`, (s) => s.messages.keys(ls, olang, { max: p }), true);
          await same(`keys prefix ${p}`, (s) => s.messages.keys(ls, olang, { min: p, below: p + '\u{10FFFF}', max: 'p' }), true);
        }
        // keys with their texts, in no particular order: compared as sorted lists
        const flat = async (s: Store, range: { min?: string; below?: string; max?: string }) => {
          const r = await s.messages.rangeTexts(ls, olang, range, ls.slice(0, 1), ['ru', 'en', 'uk\0']);
          return [...r.keys.map((k) => 'key ' + k), ...r.texts.map((t) => JSON.stringify(t))];
        };
        await same('rangeTexts', (s) => flat(s, {}), true);
        for (const p of points.filter((_p, i) => i % 3 === 0))
          await same(`rangeTexts prefix ${p}`, (s) => flat(s, { min: p, below: p + '\u{10FFFF}' }), true);
      }
    }
  });

  it('reports: rows and computedAt', async () => {
    const types = [...col<string>('SELECT qci_type FROM querycache_info ORDER BY 1'), 'Nosuchreport', '', 'Mostlinked\0'];
    assert.ok(types.length > 20);
    // the two imports of the demo ran at different moments: each store answers its own import's time
    const sql = connect(served, { max: 1 });
    let pgTimes: Map<string, string>;
    try {
      const schema = (await servedImport(sql))!.schema;
      pgTimes = new Map(
        (await sql.unsafe(`SELECT qci_type, qci_timestamp FROM "${schema}".querycache_info`)).map((r) => [
          r.qci_type as string,
          r.qci_timestamp as string,
        ]),
      );
    } finally {
      await sql.end({ timeout: 5 });
    }
    const liteTimes = new Map(raw.prepare('SELECT qci_type, qci_timestamp FROM querycache_info').raw().all() as Array<[string, string]>);
    assert.deepStrictEqual([...pgTimes.keys()].sort(), [...liteTimes.keys()].sort());
    for (const type of types) {
      assert.equal(await lite.reports.computedAt(type), liteTimes.get(type), type);
      assert.equal(await pg.reports.computedAt(type), pgTimes.get(type), type);
      for (const [offset, limit] of [
        [0, 500],
        [0, 1],
        [3, 10],
        [50, 50],
        [200, 10],
        [10000, 10],
      ])
        await same(`rows ${type} ${offset}+${limit}`, (s) => s.reports.rows(type, offset, limit));
    }
    assert.ok(
      (await lite.reports.rows('Mostlinked', 0, 500)).some((r) => r.extra !== null),
      'a report with extra columns',
    );
  });

  it('made many comparisons', () => {
    assert.ok(calls > 5000, `${calls} comparisons`);
  });
});
