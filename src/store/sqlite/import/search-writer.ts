/**
 * Import side of full-text search: fills `search_index` (FTS5), `search_title` and `search_title_lemma`, one page at a time
 * during pass 2 (the importer's analysis has folded the texts already), in page id order.
 *
 * Indexed per page that is not a redirect: its title (without namespace prefix), the titles of the
 * redirects to it (they find the page, as CirrusSearch's redirect field does; redirect pages are not
 * results of their own), and its text with markup stripped -- the source text, not the expanded one,
 * as MediaWiki's SearchUpdate indexes it.
 */
import type Database from 'better-sqlite3';
import { nsToken } from '../search.js';
import { RowBuffer } from './row-buffer.js';
import { PostingsImport, rowPostings } from '../search-postings.js';
import { buildBitmaps } from '../search-bitmaps.js';
import type { SearchImportWriter, SearchIndexResult, SearchRow } from '../../import-writer.js';

export class SearchIndexWriter implements SearchImportWriter {
  private ins: { index: Database.Statement; title: RowBuffer; lemma: RowBuffer } | null = null;
  /** the pages of the batch under way, written when it commits (beforeCommit) */
  private queued: SearchRow[] = [];
  private pages = 0;
  private redirectTitles = 0;
  private readonly postings: PostingsImport;

  constructor(private readonly db: Database.Database) {
    this.postings = new PostingsImport(db);
  }

  begin(): void {
    this.ins = {
      index: this.db.prepare(
        'INSERT INTO search_index (rowid, ns, title, redirects, text, ltitle, lredirects, ltext) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      // read by nothing before finish(): queued, many rows a statement
      title: new RowBuffer(this.db, 'INSERT INTO search_title (st_key, st_ns, st_page) VALUES', 3),
      lemma: new RowBuffer(this.db, 'INSERT INTO search_title_lemma (stl_key, stl_page) VALUES', 2),
    };
    this.postings.begin();
  }

  /**
   * Queued until the batch commits. FTS5 writes the terms it holds in memory out as a new segment
   * whenever a statement of the transaction opens a statement journal (its xSavepoint): every multi-row
   * INSERT of the other tables after a page's row did, a tiny segment and merge work every few pages
   * (most of what those INSERTs seemed to cost). The batch's rows written last, just before the commit,
   * make one segment a batch.
   */
  page(r: SearchRow): void {
    if (this.ins === null) throw new Error('search.begin() was not called');
    this.queued.push(r);
    this.pages++;
    this.redirectTitles += r.redirects.length;
  }

  /** the queued pages, written now: the end of a chunk of pages inside a longer batch */
  flush(): void {
    this.beforeCommit();
  }

  /** the queued pages, written: the batch is about to commit */
  beforeCommit(): void {
    const ins = this.ins;
    if (ins === null || this.queued.length === 0) return;
    const rows = this.queued;
    this.queued = [];
    // the title rows first: their multi-row INSERTs come before the first FTS5 row of the transaction
    for (const r of rows) {
      ins.title.add(r.title, r.ns, r.id);
      for (const key of new Set(r.redirects)) if (key !== r.title) ins.title.add(key, r.ns, r.id);
      for (const key of r.lemmaKeys) ins.lemma.add(key, r.id);
      this.postings.page(rowPostings(r, nsToken(r.ns)));
    }
    this.postings.flush();
    for (const r of rows) {
      ins.index.run(r.id, nsToken(r.ns), r.title, r.redirects.join(' '), r.text, r.titleLemmas, r.redirectLemmas, r.textLemmas);
    }
  }

  /** the batch was rolled back: its pages are not written */
  discardQueued(): void {
    this.queued = [];
    this.postings.discard();
  }

  finish(): SearchIndexResult {
    this.beforeCommit();
    this.ins?.title.flush();
    this.ins?.lemma.flush();
    this.ins = null;
    this.postings.finish();
    buildBitmaps(this.db);
    // one b-tree per column instead of many segments: fewer seeks per query
    this.db.exec("INSERT INTO search_index (search_index) VALUES ('optimize')");
    // the vocabulary of the columns a reader's words are in (not ns, not the lemmas), in term order
    this.db.exec('CREATE VIRTUAL TABLE temp.wq_search_vocab USING fts5vocab(main, search_index, col)');
    this.db.exec(
      `INSERT INTO search_vocab (sv_term, sv_docs) SELECT term, sum(doc) FROM temp.wq_search_vocab
       WHERE col IN ('title', 'redirects', 'text') GROUP BY term ORDER BY term`,
    );
    this.db.exec('DROP TABLE temp.wq_search_vocab');
    const size = this.sizeBytes();
    return { pages: this.pages, redirectTitles: this.redirectTitles, indexBytes: size.index, databaseBytes: size.database };
  }

  /** Bytes the search index (FTS5's shadow tables, the title table and its index) and the whole file take. */
  private sizeBytes(): { index: number; database: number } {
    const size = this.db.prepare('SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = ? AND aggregate = TRUE').pluck();
    const names = [
      'search_index_data',
      'search_index_idx',
      'search_index_docsize',
      'search_index_config',
      'search_title',
      'search_title_key',
      'search_title_lemma',
      'search_title_lemma_key',
      'search_vocab',
      'search_block',
      'search_term',
      'sqlite_autoindex_search_term_1',
      'search_df',
      'search_bitmap',
    ];
    const index = names.reduce((n, name) => n + (size.get(name) as number), 0);
    const database = (this.db.pragma('page_count', { simple: true }) as number) * (this.db.pragma('page_size', { simple: true }) as number);
    return { index, database };
  }
}
