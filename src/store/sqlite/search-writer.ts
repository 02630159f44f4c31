/**
 * Import side of full-text search: fills `search_index` (FTS5) and `search_title` from the pages of the
 * database under construction, in page id order and in chunks, so memory is bounded by a chunk (and
 * FTS5's own pending-segment buffer), not by the wiki. Runs after pass 1 (page, page_text, redirect
 * and their indexes exist).
 *
 * Indexed per page that is not a redirect: its title (without namespace prefix), the titles of the
 * redirects to it (they find the page, as CirrusSearch's redirect field does; redirect pages are not
 * results of their own), and its text with markup stripped -- the source text, not the expanded one,
 * as MediaWiki's SearchUpdate indexes it.
 */
import type Database from 'better-sqlite3';
import { foldForSearch } from '../../wiki/search-text.js';
import { nsToken } from './search.js';

const CHUNK = 500;

import type { SearchIndexSource } from '../import-writer.js';

export interface SearchIndexCounts {
  pages: number;
  redirectTitles: number;
}

export class SearchIndexWriter {
  private readonly select: Database.Statement;
  private readonly redirectsTo: Database.Statement;
  private readonly insIndex: Database.Statement;
  private readonly insTitle: Database.Statement;

  constructor(private readonly db: Database.Database) {
    // `+` keeps the planner on the page id range: before ANALYZE it would take the (page_is_redirect, …)
    // index for the equality and sort every remaining page per chunk (quadratic on a big wiki)
    this.select = db.prepare(
      `SELECT p.page_id AS id, p.page_namespace AS ns, p.page_title AS dbkey, p.page_content_model AS model, t.old_text AS text
       FROM page p JOIN page_text t ON t.page_id = p.page_id
       WHERE p.page_id > ? AND +p.page_is_redirect = 0 ORDER BY p.page_id LIMIT ${CHUNK}`,
    );
    this.redirectsTo = db
      .prepare(
        `SELECT p.page_title FROM redirect r JOIN page p ON p.page_id = r.rd_from
         WHERE r.rd_namespace = ? AND r.rd_title = ? ORDER BY r.rd_from`,
      )
      .pluck();
    this.insIndex = db.prepare('INSERT INTO search_index (rowid, ns, title, redirects, text) VALUES (?, ?, ?, ?, ?)');
    this.insTitle = db.prepare('INSERT INTO search_title (st_key, st_ns, st_page) VALUES (?, ?, ?)');
  }

  /** Index every page; `checkAbort` throws to stop, `onProgress` gets the pages done. */
  async build(src: SearchIndexSource, opts: { checkAbort: () => void; onProgress?: (done: number) => void }): Promise<SearchIndexCounts> {
    const counts: SearchIndexCounts = { pages: 0, redirectTitles: 0 };
    let last = 0;
    for (;;) {
      const rows = this.select.all(last) as Array<{ id: number; ns: number; dbkey: string; model: string; text: string }>;
      if (rows.length === 0) break;
      this.db.transaction(() => {
        for (const r of rows) {
          const title = foldForSearch(src.titleText(r.dbkey));
          const redirects = (this.redirectsTo.all(r.ns, r.dbkey) as string[]).map((k) => foldForSearch(src.titleText(k)));
          this.insIndex.run(r.id, nsToken(r.ns), title, redirects.join(' '), foldForSearch(src.plainText(r.text, r.model)));
          this.insTitle.run(title, r.ns, r.id);
          for (const key of new Set(redirects)) if (key !== title) this.insTitle.run(key, r.ns, r.id);
          counts.redirectTitles += redirects.length;
        }
      })();
      counts.pages += rows.length;
      last = rows[rows.length - 1].id;
      opts.onProgress?.(counts.pages);
      await new Promise((r) => setImmediate(r));
      opts.checkAbort();
    }
    // one b-tree per column instead of many segments: fewer seeks per query
    this.db.exec("INSERT INTO search_index (search_index) VALUES ('optimize')");
    return counts;
  }

  /** Bytes the search index (FTS5's shadow tables, the title table and its index) and the whole file take. */
  sizeBytes(): { index: number; database: number } {
    const size = this.db.prepare('SELECT COALESCE(SUM(pgsize), 0) FROM dbstat WHERE name = ? AND aggregate = TRUE').pluck();
    const names = ['search_index_data', 'search_index_idx', 'search_index_docsize', 'search_index_config', 'search_title', 'search_title_key'];
    const index = names.reduce((n, name) => n + (size.get(name) as number), 0);
    const database = (this.db.pragma('page_count', { simple: true }) as number) * (this.db.pragma('page_size', { simple: true }) as number);
    return { index, database };
  }
}
