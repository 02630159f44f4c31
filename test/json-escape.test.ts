/**
 * The JSON writer's non-ASCII escaping (PHP json_encode's default, formatversion 1): checked against a
 * plain per-unit replacement, for short and long texts (beyond the writer's scratch buffer), astral
 * characters and lone surrogates.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toJson } from '../src/api/format/json.js';

const reference = (v: unknown) => JSON.stringify(v).replace(/[\u0080-\uffff]/g, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'));
const opts = { formatversion: 1 as const, ascii: true, pretty: false };

describe('JSON: non-ASCII as \\uXXXX', () => {
  it('every kind of UTF-16 unit, at the start, the end and between ASCII', () => {
    const texts = ['', 'ascii only', 'Київ', 'aКb', '\u0080\u07ff\u0800\uffff', '😀', 'x\ud800y', '\udfff', "Кам'янець — обʼєкт’", 'Z'.repeat(10) + 'ї'];
    for (const t of texts) assert.equal(toJson({ t }, opts), reference({ t }), t);
    assert.equal(toJson(['😀'], opts), '["\\ud83d\\ude00"]');
  });

  it('long ASCII heads (copied natively) followed by escapes, and long texts that start escaped', () => {
    const head = 'plain ascii head, long enough to be copied natively: 0123456789abcdefghij';
    const texts = [head, head + 'Київ', head + '"q"\\', head + '\n', 'Київ' + head, '"' + head, head.slice(0, 64), head.slice(0, 65) + 'ї', 'ї'.repeat(70)];
    for (const t of texts) assert.equal(toJson({ t }, opts), reference({ t }), t);
  });

  it('answers larger than the scratch space, one after another (no bytes of the previous answer left)', () => {
    const big = Array.from({ length: 30000 }, (_, i) => ({ title: `Значення ${i} ${'ґ'.repeat(i % 40)}` }));
    const small = [{ title: 'ab' }, { title: 'в' }];
    for (const v of [big, small, big.slice(0, 5000), small]) assert.equal(toJson({ sfautocomplete: v }, opts), reference({ sfautocomplete: v }));
  });
});
