/**
 * The diff body of MediaWiki 1.25 (src/wiki/diff/): each case of test/data/diff-cases.json holds two texts
 * and the table rows 1.25.4's own DairikiDiff.php / TableDiffFormatter.php wrote for them, byte for byte.
 * MediaWiki 1.39 (the reference wiki) writes another table (classes diff-side-added, data-marker, ids
 * mw-diff-left-l…): 1.25's source wins.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { localiseLineNumbers, tableDiffBody } from '../../src/wiki/diff/table.js';
import { diffSequences } from '../../src/wiki/diff/engine.js';

const here = dirname(fileURLToPath(import.meta.url));
const data = JSON.parse(readFileSync(join(here, '../../../test/data/diff-cases.json'), 'utf8')) as {
  cases: Array<{ name: string; old: string; new: string; html: string }>;
};

describe('tableDiffBody: the table rows MediaWiki 1.25 writes', () => {
  for (const c of data.cases) {
    it(c.name, () => {
      assert.equal(tableDiffBody(c.old, c.new), c.html);
    });
  }

  it('leaves the line numbers for localiseLineNumbers', () => {
    const body = tableDiffBody('a\nb', 'a\nc');
    assert.equal(
      localiseLineNumbers(body, (n) => `Рядок ${n}:`),
      body.replaceAll('<!--LINE 1-->', 'Рядок 1:'),
    );
    assert.ok(body.includes('<!--LINE 1-->'));
  });
});

describe('diffSequences: DiffEngine of 1.25', () => {
  it('groups edits into copy, change, delete and add operations', () => {
    assert.deepEqual(diffSequences(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'e', 'f']), [
      { type: 'copy', orig: ['a'], closing: ['a'] },
      { type: 'change', orig: ['b'], closing: ['x'] },
      { type: 'copy', orig: ['c'], closing: ['c'] },
      { type: 'change', orig: ['d'], closing: ['e', 'f'] },
    ]);
    assert.deepEqual(diffSequences([], ['a']), [{ type: 'add', orig: null, closing: ['a'] }]);
    assert.deepEqual(diffSequences(['a'], []), [{ type: 'delete', orig: ['a'], closing: null }]);
  });

  it('compares lines as PHP does (loose == for numeric strings)', () => {
    // compareSeq's diagonals use ==: "1.0" and "1" are the same line once the LCS search meets them
    assert.equal(diffSequences(['x', '1.0', 'y'], ['x', '1', 'y']).length, 3);
  });

  it('is bounded: a large diff of many repeated lines ends in time', () => {
    const from = Array.from({ length: 20000 }, (_, i) => (i % 3 === 0 ? 'a' : i % 3 === 1 ? 'b' : `x${i}`));
    const to = Array.from({ length: 20000 }, (_, i) => (i % 2 === 0 ? 'b' : i % 5 === 0 ? 'a' : `y${i}`));
    const started = Date.now();
    const edits = diffSequences(from, to);
    assert.ok(Date.now() - started < 10_000, `${Date.now() - started} ms`);
    const orig = edits.flatMap((e) => e.orig ?? []);
    const closing = edits.flatMap((e) => e.closing ?? []);
    assert.deepEqual(orig, from);
    assert.deepEqual(closing, to);
  });
});
