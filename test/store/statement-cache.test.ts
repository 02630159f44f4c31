/**
 * StatementCache: rows read as one JSON text (jsonRows) are the rows better-sqlite3 gives one by one, in
 * the statement's order, for awkward texts too; limits written into the text keep one statement per
 * limit, and the cache stays bounded when a client cycles through limits.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { Db } from '../../src/store/sqlite/db.js';
import { StatementCache, jsonRowsHead } from '../../src/store/sqlite/statement-cache.js';

function fixture(): { db: Db; cache: StatementCache } {
  const raw = new Database(':memory:');
  raw.exec('CREATE TABLE t (k TEXT PRIMARY KEY, n INTEGER, v TEXT)');
  const texts = ['Київ', "Кам'янець", 'a"b', 'back\\slash', '😀 astral', 'tab\there', 'nl\nline', '\u2028sep', 'ґ'.repeat(300), 'Z', ''];
  const ins = raw.prepare('INSERT INTO t VALUES (?, ?, ?)');
  texts.forEach((k, i) => ins.run(k, i % 3 === 0 ? -i * 1e12 : i, i % 2 ? null : k.toUpperCase()));
  return { db: new Db(raw), cache: new StatementCache(new Db(raw), 'test') };
}

const HEAD = jsonRowsHead(['k', 'n', 'v']);

describe('StatementCache', () => {
  it('jsonRows gives the rows and order of the plain statement, ascending and descending', () => {
    const { db, cache } = fixture();
    for (const dir of ['', ' DESC']) {
      for (const limit of [1, 4, 100]) {
        const rest = `FROM t WHERE k >= @from ORDER BY k${dir} LIMIT @limit`;
        const expected = db.raw
          .prepare(`SELECT k, n, v ${rest.replace('@limit', String(limit))}`)
          .raw()
          .all({ from: '' });
        assert.deepEqual(cache.jsonRows(HEAD, rest, { from: '', limit }), expected);
        assert.deepEqual(cache.rows(`SELECT k, n, v ${rest}`, { from: '', limit }), expected);
      }
    }
    assert.deepEqual(cache.jsonRows(HEAD, 'FROM t WHERE k = @k ORDER BY k LIMIT @limit', { k: 'none', limit: 3 }), []);
  });

  it('one statement per limit, the oldest texts dropped past the bound', () => {
    const { cache } = fixture();
    for (let limit = 0; limit < 700; limit++) {
      assert.equal(cache.rows('SELECT k FROM t ORDER BY k LIMIT @limit', { limit }).length, Math.min(limit, 11));
      assert.equal(cache.value<number>('SELECT count(*) FROM t WHERE n >= @min', { min: -limit }) !== undefined, true);
    }
    const inner = cache as unknown as { count: number; groups: Map<string, { entries: Map<number, unknown> }> };
    assert.ok(inner.count <= 512, String(inner.count));
    assert.equal(
      inner.count,
      [...inner.groups.values()].reduce((s, g) => s + g.entries.size, 0),
    );
    // a text without LIMIT @limit is one statement whatever the limit
    assert.equal(cache.rows('SELECT k FROM t ORDER BY k LIMIT 2', { limit: 5 }).length, 2);
    assert.throws(() => cache.rows('SELECT k FROM t WHERE k = @k', {}), /no value for @k/);
  });
});
