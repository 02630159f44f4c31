/**
 * The search index on the live tables: a page's row removed (the contentless FTS5 table is given the row's
 * old folded texts again) and added, with its title keys, lemma keys, vocabulary counts and top-k postings.
 */
import type Database from 'better-sqlite3';
import { nsToken } from '../search.js';
import { PostingsUpdate, rowPostings } from '../search-postings.js';
import { BitmapUpdate } from '../search-bitmaps.js';
import type { SearchRow } from '../../import-writer.js';
import type { UpdateWriter } from '../../update-writer.js';
import type { ChangeCapture } from './capture.js';

/** `capture`: told each row written and removed (a replica's copy of the index is made from them) */
export function sqliteSearchUpdates(
  db: Database.Database,
  capture?: ChangeCapture,
): UpdateWriter['search'] & { /** before the batch commits */ settle(): void /** the batch rolled back */; forget(): void } {
  const p = (sql: string) => db.prepare(sql);
  const s = {
    ftsDelete: p(
      `INSERT INTO search_index (search_index, rowid, ns, title, redirects, text, ltitle, lredirects, ltext)
       VALUES ('delete', ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    ftsInsert: p('INSERT INTO search_index (rowid, ns, title, redirects, text, ltitle, lredirects, ltext) VALUES (?, ?, ?, ?, ?, ?, ?, ?)'),
    stDelete: p('DELETE FROM search_title WHERE st_key = ? AND st_ns = ? AND st_page = ?'),
    stInsert: p('INSERT INTO search_title (st_key, st_ns, st_page) VALUES (?, ?, ?)'),
    stlDelete: p('DELETE FROM search_title_lemma WHERE stl_key = ? AND stl_page = ?'),
    stlInsert: p('INSERT INTO search_title_lemma (stl_key, stl_page) VALUES (?, ?)'),
    vocabAdd: p('INSERT INTO search_vocab (sv_term, sv_docs) VALUES (?, 1) ON CONFLICT (sv_term) DO UPDATE SET sv_docs = sv_docs + 1'),
    vocabTake: p('UPDATE search_vocab SET sv_docs = sv_docs - 1 WHERE sv_term = ?'),
    vocabDrop: p('DELETE FROM search_vocab WHERE sv_term = ? AND sv_docs <= 0'),
  };
  // an index the import left empty (--no-search-index) stays so: a contentless row cannot be removed
  // unless it was written
  const indexed = db.prepare('SELECT EXISTS (SELECT 1 FROM search_title) OR NOT EXISTS (SELECT 1 FROM page)').pluck().get() === 1;
  const postings = new PostingsUpdate(db);
  const bitmaps = new BitmapUpdate(db);
  return {
    settle: () => postings.settle(),
    forget: () => postings.forget(),
    enabled: indexed,
    remove: (r: SearchRow) => {
      const columns = ftsColumns(r);
      s.ftsDelete.run(r.id, ...columns);
      for (const key of titleKeys(r)) s.stDelete.run(key, r.ns, r.id);
      for (const key of r.lemmaKeys) s.stlDelete.run(key, r.id);
      for (const term of vocabularyOf(r)) {
        s.vocabTake.run(term);
        s.vocabDrop.run(term);
      }
      const old = rowPostings(r, nsToken(r.ns));
      postings.remove(old);
      bitmaps.page(old, false);
      capture?.searchRow(r.id, columns, false);
    },
    add: (r: SearchRow) => {
      for (const key of titleKeys(r)) s.stInsert.run(key, r.ns, r.id);
      for (const key of r.lemmaKeys) s.stlInsert.run(key, r.id);
      for (const term of vocabularyOf(r)) s.vocabAdd.run(term);
      const added = rowPostings(r, nsToken(r.ns));
      postings.add(added);
      bitmaps.page(added, true);
      const columns = ftsColumns(r);
      s.ftsInsert.run(r.id, ...columns);
      capture?.searchRow(r.id, columns, true);
    },
  };
}

/** an index row's values of search_index's columns (ns, title, redirects, text, and their lemmas) */
function ftsColumns(r: SearchRow): [string, string, string, string, string, string, string] {
  return [nsToken(r.ns), r.title, r.redirects.join(' '), r.text, r.titleLemmas, r.redirectLemmas, r.textLemmas];
}

/** the search_title keys of an index row: its title and the titles of the redirects to it */
function titleKeys(r: SearchRow): string[] {
  const keys = [r.title];
  for (const key of new Set(r.redirects)) if (key !== r.title) keys.push(key);
  return keys;
}

/**
 * The terms of an index row as search_vocab counts them: each column's distinct tokens (title, redirects,
 * text), a term once per column that holds it -- fts5vocab's per-column document counts, summed.
 */
function vocabularyOf(r: SearchRow): string[] {
  const out: string[] = [];
  for (const column of [r.title, r.redirects.join(' '), r.text]) {
    if (column === '') continue;
    for (const token of new Set(column.split(' '))) out.push(token);
  }
  return out;
}
