/**
 * The import's planner statistics gathered in parts (BuildDb.analyze: the tables that are final, while
 * another thread is still at work; finish(): the others) are those of one ANALYZE at the end, row for
 * row: a table with indexes still to build, or one written afterwards, is left for the end.
 */
import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BuildDb } from '../../src/store/sqlite/import/build-db.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wq-analyze-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

/** rows in two rounds; `between` runs after the first (redirect and iwlinks indexed, langlinks not) */
function build(file: string, between: (b: BuildDb) => void): string[] {
  const b = new BuildDb(file);
  const rd = b.db.prepare('INSERT INTO redirect (rd_from, rd_namespace, rd_title) VALUES (?, ?, ?)');
  const ll = b.db.prepare('INSERT INTO langlinks (ll_from, ll_lang, ll_title) VALUES (?, ?, ?)');
  const iw = b.db.prepare('INSERT INTO iwlinks (iwl_from, iwl_prefix, iwl_title) VALUES (?, ?, ?)');
  b.db.transaction(() => {
    for (let i = 1; i <= 3000; i++) rd.run(i, i % 7, `Ціль_${i % 500}`);
    for (let i = 1; i <= 2000; i++) ll.run(i, ['en', 'de', 'pl'][i % 3], `Title ${i % 300}`);
    for (let i = 1; i <= 100; i++) iw.run(i, 'wikt', `Слово_${i}`);
  })();
  b.createIndexes(['redirect', 'iwlinks']);
  between(b);
  // langlinks: more rows and its index only now; iwlinks (indexed already): more rows
  b.db.transaction(() => {
    for (let i = 2001; i <= 2600; i++) ll.run(i, 'fr', `Titre ${i % 50}`);
    for (let i = 101; i <= 900; i++) iw.run(i, 'wikt', `Слово_${i % 90}`);
  })();
  b.finish();
  const db = new Database(file, { readonly: true });
  try {
    return (db.prepare('SELECT tbl, idx, stat FROM sqlite_stat1').raw().all() as string[][]).map((r) => r.join('|')).sort();
  } finally {
    db.close();
  }
}

describe('import: planner statistics in parts', () => {
  it('gives the sqlite_stat1 rows of one ANALYZE at the end', () => {
    const whole = build(path.join(dir, 'whole.sqlite'), () => {});
    let early: string[] = [];
    const parts = build(path.join(dir, 'parts.sqlite'), (b) => {
      // iwlinks is still to be written (the caller says so); langlinks has an index to come
      b.analyze(new Set(['iwlinks']));
      early = (b.db.prepare('SELECT DISTINCT tbl FROM sqlite_stat1').pluck().all() as string[]).sort();
    });
    assert.ok(early.includes('redirect'), `redirect analysed early: ${early.join(', ')}`);
    assert.ok(!early.includes('langlinks') && !early.includes('iwlinks'), `only final tables analysed early: ${early.join(', ')}`);
    assert.ok(whole.some((r) => r.startsWith('langlinks|ll_lang|')) && whole.some((r) => r.startsWith('iwlinks|')), whole.join('\n'));
    assert.deepEqual(parts, whole);
  });
});
