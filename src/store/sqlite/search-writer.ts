/**
 * Import side of full-text search: fills `search_index` (FTS5) and `search_title`, one page at a time
 * during pass 2 (the importer's analysis has folded the texts already), in page id order.
 *
 * Indexed per page that is not a redirect: its title (without namespace prefix), the titles of the
 * redirects to it (they find the page, as CirrusSearch's redirect field does; redirect pages are not
 * results of their own), and its text with markup stripped -- the source text, not the expanded one,
 * as MediaWiki's SearchUpdate indexes it.
 */
import type Database from 'better-sqlite3';
import { nsToken } from './search.js';
import type { SearchImportWriter, SearchIndexResult, SearchRow } from '../import-writer.js';

export class SearchIndexWriter implements SearchImportWriter {
  private ins: { index: Database.Statement; title: Database.Statement } | null = null;
  private pages = 0;
  private redirectTitles = 0;

  constructor(private readonly db: Database.Database) {}

  begin(): void {
    this.ins = {
      index: this.db.prepare('INSERT INTO search_index (rowid, ns, title, redirects, text) VALUES (?, ?, ?, ?, ?)'),
      title: this.db.prepare('INSERT INTO search_title (st_key, st_ns, st_page) VALUES (?, ?, ?)'),
    };
  }

  page(r: SearchRow): void {
    const ins = this.ins;
    if (ins === null) throw new Error('search.begin() was not called');
    ins.index.run(r.id, nsToken(r.ns), r.title, r.redirects.join(' '), r.text);
    ins.title.run(r.title, r.ns, r.id);
    for (const key of new Set(r.redirects)) if (key !== r.title) ins.title.run(key, r.ns, r.id);
    this.pages++;
    this.redirectTitles += r.redirects.length;
  }

  finish(): SearchIndexResult {
    this.ins = null;
    // one b-tree per column instead of many segments: fewer seeks per query
    this.db.exec("INSERT INTO search_index (search_index) VALUES ('optimize')");
    const size = this.sizeBytes();
    return { pages: this.pages, redirectTitles: this.redirectTitles, indexBytes: size.index, databaseBytes: size.database };
  }

  /** Bytes the search index (FTS5's shadow tables, the title table and its index) and the whole file take. */
  private sizeBytes(): { index: number; database: number } {
    const size = this.db.prepare('SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = ? AND aggregate = TRUE').pluck();
    const names = ['search_index_data', 'search_index_idx', 'search_index_docsize', 'search_index_config', 'search_title', 'search_title_key'];
    const index = names.reduce((n, name) => n + (size.get(name) as number), 0);
    const database = (this.db.pragma('page_count', { simple: true }) as number) * (this.db.pragma('page_size', { simple: true }) as number);
    return { index, database };
  }
}
