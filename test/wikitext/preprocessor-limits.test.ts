/**
 * The preprocessor's limits: hostile input ends with limitHit set.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ExpandResult } from '../../src/wikitext/preprocessor/context.js';
import { expand, x } from '../helpers/mini-wiki.js';

// ---------------------------------------------------------------------------------------------------
// Limits
// ---------------------------------------------------------------------------------------------------

// Hostile input must end with limitHit set; how fast it ends is measured by benchmarks, not asserted
// here (a hang would show as the runner's timeout).
function timed(fn: () => ExpandResult): { r: ExpandResult; ms: number } {
  const t0 = performance.now();
  const r = fn();
  return { r, ms: performance.now() - t0 };
}

describe('limits', () => {
  test('exponential bomb {{A}} → {{B}}{{B}} finishes quickly with limitHit', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 30; k++) pages[`Шаблон:A${k}`] = `{{A${k + 1}}}{{A${k + 1}}}`;
    pages['Шаблон:A30'] = 'xxxxxxxxxxxxxxxxxxxx';
    const { r } = timed(() => expand('before {{A0}} after', pages));
    assert.equal(r.limitHit, 'size');
    assert.ok(r.text.startsWith('before ') && r.text.endsWith(' after'));
    assert.ok(r.text.length < 5 * 1024 * 1024);
  });

  test('exponential bomb with arguments (no caching possible) finishes quickly with limitHit', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 30; k++) pages[`Шаблон:B${k}`] = `{{B${k + 1}|{{{1}}}}}{{B${k + 1}|{{{1}}}}}`;
    pages['Шаблон:B30'] = '';
    const { r } = timed(() => expand('{{B0|x}}', pages));
    assert.ok(r.limitHit !== undefined);
  });

  test('wide bomb: ten calls per level', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 8; k++) pages[`Шаблон:W${k}`] = `{{W${k + 1}|{{{1}}}}}`.repeat(10);
    pages['Шаблон:W8'] = '{{#if:{{{1}}}|}}';
    const { r } = timed(() => expand('{{W0|a}}', pages));
    assert.equal(r.limitHit, 'nodes');
  });

  test('doubling parameters through a chain of templates hit the size limit', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 35; k++) pages[`Шаблон:G${k}`] = `{{G${k + 1}|{{{1}}}{{{1}}}}}`;
    pages['Шаблон:G35'] = '{{{1}}}';
    const { r } = timed(() => expand('{{G0|abcdefgh}}', pages, 'X', 0, { limits: { maxDepth: 100 } }));
    assert.equal(r.limitHit, 'size');
  });

  test('nesting deeper than maxDepth is left unexpanded', () => {
    const pages: Record<string, string> = {};
    for (let k = 0; k < 60; k++) pages[`Шаблон:D${k}`] = `<${k}>{{D${k + 1}}}`;
    pages['Шаблон:D60'] = 'bottom';
    const r = expand('{{D0}}', pages);
    assert.equal(r.limitHit, 'depth');
    assert.ok(r.text.startsWith('<0><1><2>'));
    assert.ok(!r.text.includes('bottom'));
    assert.match(r.text, /\{\{D\d+\}\}$/);
    // a generous limit lets it through
    const ok = expand('{{D0}}', pages, 'X', 0, { limits: { maxDepth: 200 } });
    assert.equal(ok.limitHit, undefined);
    assert.ok(ok.text.endsWith('<59>bottom'));
  });

  test('maxExpandedBytes and maxNodes are honoured', () => {
    const big = expand('{{T}}{{T}}{{T}}', { 'Шаблон:T': 'x'.repeat(100) }, 'X', 0, { limits: { maxExpandedBytes: 250 } });
    assert.equal(big.limitHit, 'size');
    assert.equal(big.text, 'x'.repeat(200) + '{{T}}');
    const nodes = expand('{{#if:1|a}}'.repeat(100), {}, 'X', 0, { limits: { maxNodes: 50 } });
    assert.equal(nodes.limitHit, 'nodes');
    assert.ok(nodes.text.startsWith('aaaa') && nodes.text.endsWith('{{#if:1|a}}'));
  });

  test('#arraymap over a huge list stops at the node budget', () => {
    const formula = '[[P::x]] ' + 'lorem {{!}} '.repeat(60);
    const { r } = timed(() => expand(`{{#arraymap:${'a,'.repeat(200000)}|,|x|${formula}}}`));
    assert.equal(r.limitHit, 'nodes');
    assert.ok(r.text.length <= 2 * 1024 * 1024); // what was mapped before the budget ran out
  });

  test('an enormous #expr is evaluated in linear time', () => {
    const { r } = timed(() => expand(`{{#expr: ${'1+'.repeat(200000)}1 }}`));
    assert.equal(r.text, '200001');
  });

  test('pathological brace runs and unclosed constructs do not blow up', () => {
    for (const text of [
      '{'.repeat(300000) + '}'.repeat(300000),
      '{{a|'.repeat(100000) + '[[b'.repeat(50000),
      '{{#if:x|'.repeat(50000) + 'y' + '}}'.repeat(50000),
      '<nowiki'.repeat(100000),
    ]) {
      const { r } = timed(() => expand(text));
      assert.equal(typeof r.text, 'string');
    }
    // unclosed constructs are plain text, byte for byte
    const unclosed = '{{a|b'.repeat(1000) + '[[c|d';
    assert.equal(x(unclosed), unclosed);
  });

  test('a 2 MB page expands well under a second', () => {
    const pages = { 'Шаблон:Населення': '<span>{{{1}}}</span>[[Населення::{{{1}}}]]', 'Шаблон:Cite': '[{{{url}}} {{{title|link}}}]' };
    const para =
      "'''Київ''' — столиця [[Україна|України]], місто з населенням {{Населення|2 884 000}} осіб.<ref>{{cite|url=http://example.org|title=Джерело}}</ref>\n" +
      '== Історія ==\n<!-- коментар -->\n{{#if:{{{x|}}}|a|b}} {{PAGENAME}} [[Категорія:Міста]] Звичайний текст абзацу, досить довгий, щоб бути схожим на статтю.\n\n';
    const text = para.repeat(Math.ceil((2 * 1024 * 1024) / Buffer.byteLength(para)));
    expand(text.slice(0, 20000), pages); // warm up the JIT
    const { r } = timed(() => expand(text, pages));
    assert.equal(r.limitHit, undefined);
    assert.ok(r.text.includes('[[Населення::2 884 000]]'));
  });
});
