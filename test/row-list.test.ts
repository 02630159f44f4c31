/**
 * A RowList (a list module's items kept as their values) prints exactly as the list of the objects it
 * stands for, in every form the writer has: formatversion 1 and 2, ASCII-escaped or UTF-8, compact or
 * pretty (jsonfm), with members a row leaves out, fv1's false members and content member, nested
 * values, and the result-size accounting of the same values.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toJson, toJsonBytes } from '../src/api/format/json.js';
import { RowList, RowShape, withContent, bcArray } from '../src/api/result.js';
import { valueSize } from '../src/api/result-size.js';

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

  it('counts toward the result size as the values it holds', () => {
    const shape = new RowShape(keys, 'category');
    assert.equal(valueSize(rowList(shape, rows)), valueSize(asObjects(keys, 'category', rows)));
  });

  it('a content member that is not one of the keys is refused', () => {
    assert.throws(() => new RowShape(['a'], 'b'));
  });
});
