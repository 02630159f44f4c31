/**
 * Pages and moves on the live tables: pass 1's page, text and redirect rows through the import's own
 * PagesWriter statements, the page as stored before a change, and its history columns settled after one.
 */
import type Database from 'better-sqlite3';
import { PagesWriter } from '../import/pages-writer.js';
import type { TitleRef, Uploader } from '../../import-writer.js';
import type { StoredPage, UpdateWriter } from '../../update-writer.js';

export interface PageUpdates {
  pages: UpdateWriter['pages'];
  page(id: number): StoredPage | undefined;
  settlePageHistory(id: number): void;
  uploads: UpdateWriter['uploads'];
  /** the upload facts of the batch under way forgotten (a batch begins or ends) */
  forgetUploads(): void;
}

export function sqlitePageUpdates(db: Database.Database): PageUpdates {
  // the import's statements: they only insert and delete by key (the BuildDb is for its index builds only)
  const pw = new PagesWriter(db, null);
  const page = db.prepare(
    `SELECT page_id AS id, page_namespace AS ns, page_title AS dbkey, page_is_redirect AS r, page_content_model AS model,
       page_rev_count AS revs, page_latest AS latest, latest_timestamp AS ts FROM page WHERE page_id = ?`,
  );
  const revCount = db.prepare('SELECT COUNT(*) FROM revision WHERE rev_page = ?').pluck();
  const firstRev = db.prepare(
    `SELECT rev_id AS id, rev_timestamp AS ts, rev_user_text AS user, rev_user AS userId, rev_len AS len, rev_sha1 AS sha1,
       rev_comment AS comment, rev_minor_edit AS minor FROM revision INDEXED BY rev_page_timestamp WHERE rev_page = ?
     ORDER BY rev_timestamp, rev_id LIMIT 1`,
  );
  const setHistory = db.prepare(
    `UPDATE page SET page_rev_count = ?, first_rev_id = ?, first_timestamp = ?, first_user = ?, first_user_id = ?, first_len = ?,
       first_sha1 = ?, first_comment = ?, first_minor = ? WHERE page_id = ?`,
  );
  /** upload facts of the batch under way (a file page's <upload>, read by the file items after it) */
  const uploadFacts = new Map<string, Uploader>();
  return {
    pages: {
      insert: (row) => pw.insert(row),
      remove: (id) => pw.remove(id),
      insertText: (id, text) => pw.insertText(id, text),
      insertRedirect: (id, t) => pw.insertRedirect(id, t),
      latestOf: (id) => pw.latestOf(id),
      byTitle: (t) => pw.byTitle(t),
      redirectOf: (id: number) => pw.redirectOf(id),
      redirectTarget: (t: TitleRef) => pw.redirectTarget(t),
      textOf: (id) => pw.textOf(id),
      chunkWithText: (after: number, limit: number) => pw.chunkWithText(after, limit),
      withText: (ids) => pw.withText(ids),
    },
    page: (id) => {
      const r = page.get(id) as
        | { id: number; ns: number; dbkey: string; r: number; model: string; revs: number; latest: number; ts: string }
        | undefined;
      return (
        r && {
          id: r.id,
          ns: r.ns,
          dbkey: r.dbkey,
          isRedirect: r.r === 1,
          model: r.model,
          revisionCount: r.revs,
          latestRevId: r.latest,
          latestTimestamp: r.ts,
        }
      );
    },
    settlePageHistory: (id) => {
      const count = revCount.get(id) as number;
      const first = firstRev.get(id) as
        | { id: number; ts: string; user: string; userId: number; len: number | null; sha1: string; comment: string; minor: number }
        | undefined;
      if (first === undefined) return; // a dump without the page's revisions: its row stays as the dump said
      setHistory.run(count, first.id, first.ts, first.user, first.userId, first.len, first.sha1, first.comment, first.minor, id);
    },
    uploads: {
      record: (name, u) => {
        uploadFacts.set(name, u);
      },
      get: (name) => uploadFacts.get(name),
    },
    forgetUploads: () => uploadFacts.clear(),
  };
}
