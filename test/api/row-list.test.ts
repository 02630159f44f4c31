/**
 * A RowList (a list module's items kept as their values) prints exactly as the list of the objects it
 * stands for, in every form the writer has: formatversion 1 and 2, ASCII-escaped or UTF-8, compact or
 * pretty (jsonfm), with members a row leaves out, fv1's false members and content member, nested
 * values, and the result-size accounting of the same values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toJson, toJsonBytes } from '../../src/api/format/json.js';
import { KeyedRowList, RowList, RowShape, withContent, bcArray } from '../../src/api/result.js';
import { valueSize } from '../../src/api/result-size.js';
import { TitleCodec } from '../../src/wiki/titles.js';

const FORMS = [
  { formatversion: 1 as const, ascii: true, pretty: false },
  { formatversion: 1 as const, ascii: false, pretty: false },
  { formatversion: 2 as const, ascii: false, pretty: false },
  { formatversion: 2 as const, ascii: true, pretty: false },
  { formatversion: 1 as const, ascii: true, pretty: true },
  { formatversion: 2 as const, ascii: false, pretty: true },
];

/** the same items as objects, built the way modules built them before RowList */
function asObjects(keys: readonly string[], content: string | undefined, rows: unknown[][]): unknown[] {
  return rows.map((r) => {
    const o: Record<string, unknown> = {};
    if (content !== undefined) withContent(o, content, r[keys.indexOf(content)] as string);
    keys.forEach((k, i) => {
      if (k !== content && r[i] !== undefined) o[k] = r[i];
    });
    return o;
  });
}

function rowList(shape: RowShape, rows: unknown[][]): RowList {
  const list = new RowList(shape);
  for (const r of rows) list.values.push(...r);
  return list;
}

describe('RowList', () => {
  const keys = ['category', 'size', 'pages', 'hidden', 'extra', 'ratio'];
  const rows: unknown[][] = [
    ['Громада Євбогувка', 68, 67, false, undefined, 0.5],
    ['Київ "лапки" \\ і\nрядок', 0, -3, true, { a: 'б', n: null }, 1e21],
    ['😀 \u2028 <cross-domain-policy>', undefined, 2147483648, undefined, [1, 'x', false], -0],
    [undefined, 5, undefined, false, bcArray(), Number.NaN],
  ];

  it('prints as the objects it stands for, with and without a content member, in every form', () => {
    for (const content of [undefined, 'category']) {
      const shape = new RowShape(keys, content);
      for (const opts of FORMS) {
        for (const n of [0, 1, rows.length]) {
          const tree = new Map<string, unknown>([['query', { list: rowList(shape, rows.slice(0, n)), after: 1 }]]);
          const ref = new Map<string, unknown>([['query', { list: asObjects(keys, content, rows.slice(0, n)), after: 1 }]]);
          const label = `${JSON.stringify(opts)} content=${content} rows=${n}`;
          assert.equal(toJson(tree, opts), toJson(ref, opts), label);
          assert.deepEqual(toJsonBytes(tree, opts), toJsonBytes(ref, opts), label);
        }
      }
    }
  });

  it('a shape is printed in several forms one after another (the keys kept per form)', () => {
    const shape = new RowShape(['title', 'ns'], 'title');
    for (let round = 0; round < 2; round++) {
      for (const opts of FORMS) {
        assert.equal(toJson([rowList(shape, [['Файл:А', 6]])], opts), toJson([asObjects(['title', 'ns'], 'title', [['Файл:А', 6]])], opts));
      }
    }
  });

  it('spaced members (DB keys) print as their text, underscores as spaces, in every form', () => {
    const long = 'Довга_назва_категорії_'.repeat(5) + 'ASCII_head_that_is_long_enough_to_be_copied_natively_in_one_call';
    const keysRows: unknown[][] = [
      ['Громада_Євбогувка', 68, 'Файл:Фото_Є.jpg', false],
      ['A_"b"_\\_c\n_d', 1, long, true],
      ['____', 2, 'ascii_only_' + 'x'.repeat(80), undefined],
      [undefined, 3, 7, false],
    ];
    const shape = new RowShape(['title', 'n', 'file', 'flag'], 'title', ['title', 'file']);
    const text = (v: unknown) => (typeof v === 'string' ? v.replace(/_/g, ' ') : v);
    const textRows = keysRows.map((r) => [text(r[0]), r[1], text(r[2]), r[3]]);
    for (const opts of FORMS) {
      const tree = { list: rowList(shape, keysRows), again: rowList(shape, keysRows.slice(1, 2)) };
      const ref = { list: asObjects(shape.keys, 'title', textRows), again: asObjects(shape.keys, 'title', textRows.slice(1, 2)) };
      assert.equal(toJson(tree, opts), toJson(ref, opts), JSON.stringify(opts));
      assert.deepEqual(toJsonBytes(tree, opts), toJsonBytes(ref, opts), JSON.stringify(opts));
    }
    assert.equal(valueSize(rowList(shape, keysRows)), valueSize(asObjects(shape.keys, 'title', textRows)));
  });

  it("a value repeated down a member (copied from the row before) prints as each row's own, spaced or not", () => {
    const shape = new RowShape(['user', 'title', 'comment'], undefined, ['title']);
    // spaced where the outer shape is not, and the other way round
    const other = new RowShape(['title', 'user'], undefined, ['title']);
    const user = 'Адміністратор';
    const text = (v: unknown) => (typeof v === 'string' ? v.replace(/_/g, ' ') : v);
    const nestedRows = [
      ['Київ_"А"', user],
      ['a_b', 'c_d'],
    ];
    // row 2 repeats what the list inside row 1 wrote last, under the other member's form
    const rowsOf = (inner: unknown): unknown[][] =>
      [0, 1, 2, 3].map((i) => [i === 2 ? 'a_b' : user, i === 2 ? 'c_d' : 'Київ_"А"', i === 1 ? inner : 'оновлення 😀']);
    for (const opts of FORMS) {
      const tree = {
        a: rowList(shape, rowsOf(rowList(other, nestedRows))),
        b: rowList(other, [
          ['x_y', user],
          ['x_y', user],
        ]),
      };
      const ref = {
        a: asObjects(
          shape.keys,
          undefined,
          rowsOf(
            asObjects(
              other.keys,
              undefined,
              nestedRows.map((r) => [text(r[0]), r[1]]),
            ),
          ).map((r) => [r[0], text(r[1]), r[2]]),
        ),
        b: asObjects(other.keys, undefined, [
          ['x y', user],
          ['x y', user],
        ]),
      };
      assert.equal(toJson(tree, opts), toJson(ref, opts), JSON.stringify(opts));
      assert.deepEqual(toJsonBytes(tree, opts), toJsonBytes(ref, opts), JSON.stringify(opts));
    }
  });

  it('counts toward the result size as the values it holds', () => {
    const shape = new RowShape(keys, 'category');
    assert.equal(valueSize(rowList(shape, rows)), valueSize(asObjects(keys, 'category', rows)));
  });

  it('a content member or a spaced member that is not one of the keys is refused', () => {
    assert.throws(() => new RowShape(['a'], 'b'));
    assert.throws(() => new RowShape(['a'], undefined, ['b']));
  });
});

describe('KeyedRowList', () => {
  const shape = new RowShape(['pageid', 'ns', 'title'], undefined, ['title']);
  const pages: Array<[number, number, string]> = [
    [23971, 0, 'Толець_Лудове'],
    [5, 14, 'Категорія:Громада_Євбогувка'],
    [107334, 6, 'Файл:A_"b"_\\_😀'],
    [1000000, 0, 'Z'],
  ];
  function keyed(rows: Array<[number, number, string]>): KeyedRowList {
    const list = new KeyedRowList(shape);
    for (const r of rows) {
      list.keys.push(r[0]);
      list.values.push(...r);
    }
    return list;
  }
  /** query.pages as PageSet wrote it before: a BCarray map of the objects by page id as a string */
  function asMap(rows: Array<[number, number, string]>): Map<string, unknown> {
    const m = bcArray();
    for (const [pageid, ns, title] of rows) m.set(String(pageid), { pageid, ns, title: title.replace(/_/g, ' ') });
    return m;
  }

  it('prints as query.pages: fv1 an object in the order added, fv2 a list in page id order, in every form', () => {
    const orders = [pages, [...pages].sort((a, b) => a[0] - b[0]), [...pages].reverse(), pages.slice(0, 1), []];
    for (const rows of orders) {
      for (const opts of FORMS) {
        const tree = new Map<string, unknown>([['query', { pages: keyed(rows), after: 1 }]]);
        const ref = new Map<string, unknown>([['query', { pages: asMap(rows), after: 1 }]]);
        const label = `${JSON.stringify(opts)} ${rows.map((r) => r[0]).join(',')}`;
        assert.equal(toJson(tree, opts), toJson(ref, opts), label);
        assert.deepEqual(toJsonBytes(tree, opts), toJsonBytes(ref, opts), label);
      }
    }
    assert.equal(valueSize(keyed(pages)), valueSize(asMap(pages)));
  });
});

describe('TitleCodec.keyPrefix', () => {
  it('a prefix and a DB key, underscores shown as spaces, read as prefixedText; none for a name with an underscore', () => {
    const codec = TitleCodec.forSite('Вікі', [
      { id: 100, name: 'Мій простір', canonical: 'My space', case: 'first-letter' },
      { id: 102, name: 'Дивна_назва', canonical: 'Odd', case: 'first-letter' },
    ]);
    for (const ns of [...codec.namespaces.keys(), 999]) {
      const p = codec.keyPrefix(ns);
      if (ns === 102) {
        assert.equal(p, undefined);
        continue;
      }
      for (const key of ['Київ', 'Головна_сторінка', 'a_b_c.jpg'])
        assert.equal((p! + key).replace(/_/g, ' '), codec.prefixedText(ns, key), `${ns} ${key}`);
    }
    assert.equal(codec.keyPrefix(0), '');
    assert.equal(codec.keyPrefix(100), 'Мій_простір:');
  });
});
