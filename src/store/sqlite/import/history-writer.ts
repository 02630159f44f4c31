/**
 * The import's writes of history: every revision (metadata, and its text: revision-text.ts), log entries, and
 * after the dump pass the tables derived from them (users, page contributors, recent changes).
 * The importer calls this; the SQL stays here, next to the schema.
 */
import type Database from 'better-sqlite3';
import { isDeflatedLength, revisionTextColumns } from '../../revision-text.js';

import type { RevisionInput, LogInput, HistoryImportWriter } from '../../import-writer.js';
import { logRecentChangesSql, recentChangesCutoff, revisionRecentChangesSql } from '../../sql/history.js';
import { SQLITE_DIALECT } from '../../sql/dialect.js';

export class HistoryWriter implements HistoryImportWriter {
  private readonly insRev: Database.Statement;
  private readonly insText: Database.Statement;
  private readonly insLog: Database.Statement;
  revisions = 0;
  logItems = 0;

  constructor(private readonly db: Database.Database) {
    // a revision id seen twice (concatenated dumps) keeps its first copy
    this.insRev = db.prepare(
      `INSERT OR IGNORE INTO revision (rev_id, rev_page, rev_namespace, rev_parent_id, rev_timestamp, rev_user, rev_user_text,
         rev_comment, rev_minor_edit, rev_deleted, rev_len, rev_sha1, rev_content_model, rev_content_format)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    // a text kept as it is is bound as a string: SQLite makes its UTF-8 bytes the blob (no Buffer per text)
    this.insText = db.prepare('INSERT OR IGNORE INTO revision_text (rt_rev_id, rt_data, rt_deflated) VALUES (?, CAST(? AS BLOB), ?)');
    this.insLog = db.prepare(
      `INSERT OR IGNORE INTO logging (log_id, log_type, log_action, log_timestamp, log_user, log_user_text, log_namespace,
         log_title, log_comment, log_params, log_deleted) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  writeRevision(r: RevisionInput): void {
    const hasText = r.text !== null || r.encodedText !== undefined;
    const res = this.insRev.run(
      r.id,
      r.page,
      r.ns,
      r.parentId,
      r.timestamp,
      r.userId,
      r.user,
      r.comment,
      r.minor ? 1 : 0,
      r.deleted | (hasText ? 0 : 1),
      r.len,
      r.sha1,
      r.model,
      r.format,
    );
    if (res.changes === 0) return;
    this.revisions++;
    if (!hasText) return;
    if (r.encodedText !== undefined) {
      // encodeRevisionText's form follows from the text's UTF-8 length, which len is then
      this.insText.run(r.id, r.encodedText, isDeflatedLength(r.len!) ? 1 : 0);
      return;
    }
    this.insText.run(r.id, ...revisionTextColumns(r.text!));
  }

  writeLog(l: LogInput): void {
    if (this.insLog.run(l.id, l.type, l.action, l.timestamp, l.userId, l.user, l.ns, l.dbkey, l.comment, l.params, l.deleted).changes > 0) {
      this.logItems++;
    }
  }

  /**
   * After the page pass (page table final, revision indexes built): drop revisions of pages the import
   * skipped, then derive users, page contributors, log pages and recent changes. Import-time passes over
   * whole tables are fine; the server only ever seeks in what they produce.
   */
  finish(): { users: number; recentChanges: number } {
    const db = this.db;
    const dropped = db.prepare('DELETE FROM revision WHERE rev_page NOT IN (SELECT page_id FROM page)').run().changes;
    // a text row is written only with its revision's row: texts without one are those just dropped (and
    // when none was, the scan of every text, the biggest table of the file, is spared)
    if (dropped > 0) db.exec('DELETE FROM revision_text WHERE rt_rev_id NOT IN (SELECT rev_id FROM revision)');
    // Users: one grouping pass per source into scratch tables, then joins (no per-user scan of a table
    // without an index on its user id). A user keeps the name of their newest edit (the bare column of a
    // MAX() aggregate is taken from the row of the maximum).
    db.exec(`CREATE TEMP TABLE tmp_rev_user AS SELECT rev_user AS id, rev_user_text AS name, MAX(rev_timestamp) AS last,
      COUNT(*) AS edits FROM revision WHERE rev_user > 0 GROUP BY rev_user`);
    db.exec(
      `CREATE TEMP TABLE tmp_rev_first AS SELECT rev_user AS id, MIN(rev_timestamp) AS first FROM revision WHERE rev_user > 0 GROUP BY rev_user`,
    );
    db.exec(`CREATE TEMP TABLE tmp_log_user AS SELECT log_user AS id, log_user_text AS name, MAX(log_timestamp) AS last FROM logging
      WHERE log_user > 0 AND log_user_text != '' GROUP BY log_user`);
    db.exec(
      `CREATE TEMP TABLE tmp_log_first AS SELECT log_user AS id, MIN(log_timestamp) AS first FROM logging WHERE log_user > 0 GROUP BY log_user`,
    );
    // an account creation in the log (newusers/*, titled with the user page) is the registration itself
    db.exec(`CREATE TEMP TABLE tmp_created (title TEXT PRIMARY KEY, ts TEXT NOT NULL)`);
    db.exec(
      `INSERT INTO tmp_created SELECT log_title, MIN(log_timestamp) FROM logging WHERE log_type = 'newusers' AND log_namespace = 2 GROUP BY log_title`,
    );
    for (const t of ['tmp_rev_user', 'tmp_rev_first', 'tmp_log_user', 'tmp_log_first']) db.exec(`CREATE UNIQUE INDEX ${t}_id ON ${t} (id)`);
    db.exec(`INSERT INTO user (user_id, user_name, user_editcount) SELECT id, name, edits FROM tmp_rev_user`);
    db.exec(`INSERT OR IGNORE INTO user (user_id, user_name, user_editcount) SELECT id, name, 0 FROM tmp_log_user`);
    db.exec(`UPDATE user SET user_registration = (SELECT MIN(ts) FROM (
        SELECT first AS ts FROM tmp_rev_first WHERE id = user_id
        UNION ALL SELECT first FROM tmp_log_first WHERE id = user_id
        UNION ALL SELECT ts FROM tmp_created WHERE title = REPLACE(user_name, ' ', '_')))`);
    // two accounts under one name (a rename between dumps): the one with the lower id keeps it
    db.exec('DELETE FROM user WHERE user_id NOT IN (SELECT MIN(user_id) FROM user GROUP BY user_name)');
    for (const t of ['tmp_rev_user', 'tmp_rev_first', 'tmp_log_user', 'tmp_log_first', 'tmp_created']) db.exec(`DROP TABLE ${t}`);
    db.exec(`INSERT INTO page_contributor (pc_page, pc_user, pc_user_text)
      SELECT rev_page, rev_user, user_name FROM revision JOIN user ON user_id = rev_user WHERE rev_user > 0 GROUP BY rev_page, rev_user`);
    db.exec(`INSERT INTO page_anon_contributors (pac_page, pac_count)
      SELECT rev_page, COUNT(DISTINCT rev_user_text) FROM revision WHERE rev_user = 0 GROUP BY rev_page`);
    db.exec(
      `UPDATE logging SET log_page = COALESCE((SELECT page_id FROM page WHERE page_namespace = log_namespace AND page_title = log_title), 0)`,
    );
    const newest = db.prepare('SELECT MAX(rev_timestamp) FROM revision').pluck().get() as string | null;
    let recentChanges = 0;
    if (newest !== null) {
      const cutoff = recentChangesCutoff(newest);
      // rebuildrecentchanges.php: revisions newest first, then log entries of registered users newest first
      db.prepare(revisionRecentChangesSql('r.rev_timestamp > ? ORDER BY r.rev_timestamp DESC, r.rev_id DESC', SQLITE_DIALECT, false)).run(
        cutoff,
      );
      db.prepare(logRecentChangesSql('log_timestamp > ? ORDER BY log_timestamp DESC, log_id DESC', SQLITE_DIALECT)).run(cutoff);
      recentChanges = db.prepare('SELECT COUNT(*) FROM recentchanges').pluck().get() as number;
    }
    const users = db.prepare('SELECT COUNT(*) FROM user').pluck().get() as number;
    return { users, recentChanges };
  }
}
