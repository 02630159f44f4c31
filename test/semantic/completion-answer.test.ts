/**
 * Precomputed autocompletion answers (src/semantic/completion-answer.ts) printed through the JSON writer
 * (a PrintedJson node): byte for byte what the writer prints for the plain list, in every form —
 * copied when the form is the node's, printed from its value otherwise.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { toJson, toJsonBytes } from '../../src/api/format/json.js';
import { PrintedJson } from '../../src/api/result.js';
import { completionAnswerValues, escapeNonAscii, printCompletionAnswer } from '../../src/semantic/completion-answer.js';

const TRICKY = [
  '',
  'ascii / slash',
  'Київ',
  'Цитата "в лапках"',
  'back\\slash\\',
  '\\"',
  'ctl \u0000\u0001\b\t\n\f\r\u001f\u007f',
  'sep \u2028 \u2029',
  '😀 astral',
  'lone \ud800 x \udfff',
  "Кам'янець — обʼєкт’",
  '<cross-domain-policy>',
  '\u0080\u07ff\u0800\uffff',
];

describe('completion answers printed at import', () => {
  it("escapeNonAscii of JSON.stringify is the writer's ASCII escaping", () => {
    // (the writer's cross-domain-policy rewrite runs on the whole answer, a PrintedJson's included: below)
    for (const t of TRICKY.filter((t) => !t.includes('<')))
      assert.equal(
        escapeNonAscii(JSON.stringify({ t })),
        toJson({ t }, { formatversion: 1, ascii: true, pretty: false }),
        JSON.stringify(t),
      );
  });

  it('UTF-8 answers of every size decode to the same text (small ones by V8, large ones through UTF-16)', () => {
    for (const n of [1, 3, 10, 100, 1000]) {
      const values = Array.from({ length: n }, (_, i) => `Значення ${i} 😀 ${'ґ'.repeat(i % 40)} ${i % 7 === 0 ? '\u2028' : ''}`);
      const tree = { sfautocomplete: values.map((title) => ({ title })) };
      const reference = JSON.stringify(tree).replace(/[\u2028\u2029]/g, (c) => '\\u' + c.charCodeAt(0).toString(16));
      for (const formatversion of [1, 2] as const) {
        assert.equal(toJson(tree, { formatversion, ascii: false, pretty: false }), reference, `${n} values`);
        assert.equal(toJsonBytes(tree, { formatversion, ascii: false, pretty: false }).toString('utf8'), reference, `${n} values, bytes`);
      }
    }
  });

  it('both forms print as the plain list in every output form, and read back as the values', () => {
    const lists = [TRICKY, [], Array.from({ length: 1000 }, (_, i) => `Значення ${i} ${'ґ'.repeat(i % 40)}`)];
    for (const values of lists) {
      const printed = printCompletionAnswer(values);
      assert.deepEqual(completionAnswerValues(printed.ascii), values);
      assert.deepEqual(completionAnswerValues(printed.utf8), values);
      const plain = values.map((title) => ({ title }));
      for (const formatversion of [1, 2] as const) {
        for (const ascii of [true, false]) {
          for (const pretty of [false, true]) {
            const opts = { formatversion, ascii, pretty };
            const expected = toJson(new Map([['sfautocomplete', plain]]), opts);
            for (const node of [new PrintedJson('ascii', printed.ascii), new PrintedJson('utf8', printed.utf8)]) {
              assert.equal(toJson(new Map([['sfautocomplete', node]]), opts), expected, `${node.form} as ${JSON.stringify(opts)}`);
              assert.equal(
                toJsonBytes(new Map([['sfautocomplete', node]]), opts).toString('utf8'),
                expected,
                `${node.form} as ${JSON.stringify(opts)}, bytes`,
              );
            }
          }
        }
      }
    }
  });
});
