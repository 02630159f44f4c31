/**
 * The JSON writer's non-ASCII escaping (PHP json_encode's default, formatversion 1): checked against a
 * plain per-unit replacement, for short and long texts (beyond the writer's scratch buffer), astral
 * characters and lone surrogates.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toJson } from '../../src/api/format/json.js';

const reference = (v: unknown) =>
  JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
const opts = { formatversion: 1 as const, ascii: true, pretty: false };

describe('JSON: non-ASCII as \\uXXXX', () => {
  it('every kind of UTF-16 unit, at the start, the end and between ASCII', () => {
    const texts = [
      '',
      'ascii only',
      'Київ',
      'aКb',
      '\u0080\u07ff\u0800\uffff',
      '😀',
      'x\ud800y',
      '\udfff',
      "Кам'янець — обʼєкт’",
      'Z'.repeat(10) + 'ї',
    ];
    for (const t of texts) assert.equal(toJson({ t }, opts), reference({ t }), t);
    assert.equal(toJson(['😀'], opts), '["\\ud83d\\ude00"]');
  });

  it('long ASCII heads (copied natively) followed by escapes, and long texts that start escaped', () => {
    const head = 'plain ascii head, long enough to be copied natively: 0123456789abcdefghij';
    const texts = [
      head,
      head + 'Київ',
      head + '"q"\\',
      head + '\n',
      'Київ' + head,
      '"' + head,
      head.slice(0, 64),
      head.slice(0, 65) + 'ї',
      'ї'.repeat(70),
    ];
    for (const t of texts) assert.equal(toJson({ t }, opts), reference({ t }), t);
  });

  it('answers larger than the scratch space, one after another (no bytes of the previous answer left)', () => {
    const big = Array.from({ length: 30000 }, (_, i) => ({ title: `Значення ${i} ${'ґ'.repeat(i % 40)}` }));
    const small = [{ title: 'ab' }, { title: 'в' }];
    for (const v of [big, small, big.slice(0, 5000), small])
      assert.equal(toJson({ sfautocomplete: v }, opts), reference({ sfautocomplete: v }));
  });
});

describe('JSON: keys and numbers written without a string of their own', () => {
  // utf8 form: JSON.stringify's escaping, U+2028/U+2029 escaped after it (FormatJson)
  const utf8 = (v: unknown, indent?: number) =>
    JSON.stringify(v, null, indent).replace(/[\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16));
  const forms = [
    { opts, ref: (v: unknown) => reference(v) },
    { opts: { formatversion: 2 as const, ascii: false, pretty: false }, ref: (v: unknown) => utf8(v) },
    { opts: { formatversion: 2 as const, ascii: false, pretty: true }, ref: (v: unknown) => utf8(v, 4) },
  ];

  it('keys: plain, quoted, escaped, control characters, DEL, non-ASCII, astral, U+2028, long, empty', () => {
    const keys = [
      'a',
      'pageid',
      '*',
      '',
      'with space',
      'q"uote',
      'back\\slash',
      'tab\there',
      'nl\n',
      '\u0001',
      'del\u007f',
      'Назва',
      'aї',
      '😀',
      'x\u2028y',
      'k'.repeat(24),
      'k'.repeat(25),
      'k'.repeat(24) + '"',
      'sl/ash',
    ];
    for (const k of keys) {
      const v = { [k]: 1, next: 'x', [k + 'б']: [k] };
      assert.equal(toJson(v, forms[0]!.opts), reference(v), JSON.stringify(k));
      assert.equal(toJson(v, forms[1]!.opts), utf8(v), JSON.stringify(k));
      assert.equal(toJson(v, forms[2]!.opts), utf8(v, 4), JSON.stringify(k));
    }
    // the same keys in a list of objects (a key met again right after itself, and after others)
    const list = keys.map((k) => ({ [k]: k, z: 0 }));
    assert.equal(toJson({ list }, opts), reference({ list }));
    assert.equal(toJson({ list }, forms[2]!.opts), utf8({ list }, 4));
  });

  it('numbers: digits as String() prints them (0, -0, 9, 10, 2^31-1, 2^31, negatives, fractions, exponents)', () => {
    const nums = [
      0, -0, 1, 9, 10, 11, 99, 100, 101, 1000000, 2147483647, 2147483648, 4294967296, 9007199254740991, -1, -2147483648, 0.5, 1.25, -0.001,
      1e21, 1e-7, 123456789012,
    ];
    for (const n of nums) {
      assert.equal(toJson({ n }, opts), `{"n":${String(n)}}`, String(n));
      assert.equal(toJson([n, n], forms[1]!.opts), `[${String(n)},${String(n)}]`, String(n));
    }
    // what PHP cannot print: 0
    assert.equal(toJson({ a: NaN, b: Infinity, c: -Infinity }, opts), '{"a":0,"b":0,"c":0}');
  });
});

describe('JSON: long texts met again (their bytes reused)', () => {
  it('the same text, texts of one length differing in one unit, more texts than are kept, the longest kept and beyond', () => {
    const base = 'Formatting of continuation data will be changing soon: "rawcontinue" \\ — Київ ';
    const texts: string[] = [];
    for (let i = 0; i < 7; i++) texts.push(base + String.fromCharCode(97 + i)); // same length, last unit differs
    texts.push('x'.repeat(2048), 'x'.repeat(2047) + 'ї', 'y'.repeat(2049), 'ї'.repeat(65), '\n'.repeat(70), base.repeat(3) + '😀');
    for (let round = 0; round < 3; round++) {
      for (const t of [...texts, ...texts.slice().reverse()]) {
        assert.equal(toJson({ warnings: t }, opts), reference({ warnings: t }), t.slice(-8));
        assert.equal(toJson([t, t, t.slice(0, -1) + 'Z'], opts), reference([t, t, t.slice(0, -1) + 'Z']), t.slice(-8));
      }
    }
    // a text built again (another string object with the same units) prints the same
    const again = (s: string) => s.split('').join('');
    for (const t of texts) assert.equal(toJson({ t: again(t) }, opts), reference({ t }));
  });
});
