/**
 * History on the live tables: revisions and log entries through the import's own HistoryWriter; what a
 * full import derives from them set-based at its end (users, page contributors, recent changes) kept here
 * row by row, each write an index seek or a bounded range scan.
 */
import type Database from 'better-sqlite3';
import { HistoryWriter } from '../import/history-writer.js';
import { logRecentChangesSql, recentChangesCutoff, recentChangeType, revisionRecentChangesSql } from '../../sql/history.js';
import { SQLITE_DIALECT } from '../../sql/dialect.js';
import type { LogInput, RevisionInput } from '../../import-writer.js';
import type { RecentChangeRow, UpdateWriter } from '../../update-writer.js';

const RC_INDEXES_SQL = `CREATE INDEX IF NOT EXISTS rc_namespace_title ON recentchanges (rc_namespace, rc_title);
CREATE INDEX IF NOT EXISTS rc_cur_id ON recentchanges (rc_cur_id);`;

export function sqliteHistoryUpdates(db: Database.Database): UpdateWriter['history'] {
  const hw = new HistoryWriter(db);
  // a deletion removes the page's rows by title and by page id, as MediaWiki's rc_namespace_title and
  // rc_cur_id indexes serve it: made by the first update of an imported file
  db.exec(RC_INDEXES_SQL);
  const p = (sql: string) => db.prepare(sql);
  const s = {
    hasRev: p('SELECT 1 FROM revision WHERE rev_id = ?').pluck(),
    revsOf: p('SELECT rev_id AS id, rev_user AS user FROM revision INDEXED BY rev_page_id WHERE rev_page = ?'),
    delRev: p('DELETE FROM revision WHERE rev_id = ?'),
    delRevText: p('DELETE FROM revision_text WHERE rt_rev_id = ?'),
    userEdits: p('UPDATE user SET user_editcount = user_editcount + ? WHERE user_id = ?'),
    revision: p('SELECT rev_user AS userId, rev_user_text AS user, rev_timestamp AS ts FROM revision WHERE rev_id = ?'),
    upsertUser: p(
      `INSERT INTO user (user_id, user_name, user_editcount, user_registration) VALUES (?, ?, 1, ?)
       ON CONFLICT (user_id) DO UPDATE SET user_editcount = user_editcount + 1, user_name = excluded.user_name,
         user_registration = MIN(COALESCE(user_registration, excluded.user_registration), excluded.user_registration)`,
    ),
    userName: p('SELECT user_name FROM user WHERE user_id = ?').pluck(),
    putUser: p(
      `INSERT INTO user (user_id, user_name, user_editcount, user_registration) VALUES (?, ?, ?, ?)
       ON CONFLICT (user_id) DO UPDATE SET user_name = excluded.user_name, user_editcount = excluded.user_editcount,
         user_registration = COALESCE(excluded.user_registration, user_registration)`,
    ),
    contributor: p('INSERT OR IGNORE INTO page_contributor (pc_page, pc_user, pc_user_text) VALUES (?, ?, ?)'),
    delContributors: p('DELETE FROM page_contributor WHERE pc_page = ?'),
    anonCount: p('SELECT COUNT(DISTINCT rev_user_text) FROM revision INDEXED BY rev_page_id WHERE rev_page = ? AND rev_user = 0').pluck(),
    setAnon: p('INSERT OR REPLACE INTO page_anon_contributors (pac_page, pac_count) VALUES (?, ?)'),
    delAnon: p('DELETE FROM page_anon_contributors WHERE pac_page = ?'),
    rcOfRev: p(revisionRecentChangesSql('r.rev_id = ?', SQLITE_DIALECT, true)),
    rcOfLog: p(logRecentChangesSql('log_id = ?', SQLITE_DIALECT)),
    logPage: p(
      'UPDATE logging SET log_page = COALESCE((SELECT page_id FROM page WHERE page_namespace = ? AND page_title = ?), 0) WHERE log_id = ?',
    ),
    logPageOf: p('UPDATE logging SET log_page = ? WHERE log_id = ?'),
    rcSince: p('SELECT rc_id, rc_timestamp, rc_this_oldid, rc_logid FROM recentchanges WHERE rc_timestamp >= ?').raw(),
    logSince: p('SELECT log_id, log_timestamp FROM logging WHERE log_timestamp >= ?').raw(),
    delRcOfTitle: p(
      `DELETE FROM recentchanges INDEXED BY rc_namespace_title WHERE rc_namespace = ? AND rc_title = ? AND rc_type <> ${recentChangeType('log')}`,
    ),
    delRcOfPage: p(`DELETE FROM recentchanges INDEXED BY rc_cur_id WHERE rc_cur_id = ? AND rc_type <> ${recentChangeType('log')}`),
    rc: p(
      `INSERT OR REPLACE INTO recentchanges (rc_id, rc_timestamp, rc_type, rc_namespace, rc_title, rc_cur_id, rc_this_oldid, rc_last_oldid,
         rc_user, rc_user_text, rc_comment, rc_minor, rc_bot, rc_old_len, rc_new_len, rc_deleted, rc_logid, rc_log_type,
         rc_log_action, rc_params)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, NULL)`,
    ),
    newestRc: p('SELECT MAX(rc_timestamp) FROM recentchanges').pluck(),
    trimRc: p('DELETE FROM recentchanges WHERE rc_timestamp <= ?'),
  };
  return {
    hasRevision: (id) => s.hasRev.get(id) !== undefined,
    writeRevision: (r: RevisionInput) => {
      const before = hw.revisions;
      hw.writeRevision(r);
      return hw.revisions > before;
    },
    writeLog: (l: LogInput) => {
      const before = hw.logItems;
      hw.writeLog(l);
      if (hw.logItems === before) return false;
      if (l.page !== undefined) s.logPageOf.run(l.page, l.id);
      else s.logPage.run(l.ns, l.dbkey, l.id);
      return true;
    },
    removeRevisionsOf: (page) => {
      const edits = new Map<number, number>();
      for (const r of s.revsOf.all(page) as Array<{ id: number; user: number }>) {
        s.delRev.run(r.id);
        s.delRevText.run(r.id);
        if (r.user > 0) edits.set(r.user, (edits.get(r.user) ?? 0) + 1);
      }
      for (const [user, n] of edits) s.userEdits.run(-n, user);
      s.delContributors.run(page);
      s.delAnon.run(page);
    },
    storedSince: (timestamp) => ({
      changes: s.rcSince.all(timestamp) as Array<[number, string, number, number]>,
      logs: s.logSince.all(timestamp) as Array<[number, string]>,
    }),
    removeRecentChangesOf: (page) => {
      s.delRcOfTitle.run(page.ns, page.dbkey);
      s.delRcOfPage.run(page.id);
    },
    creditRevisions: (page, revIds) => {
      for (const id of revIds) {
        const r = s.revision.get(id) as { userId: number; user: string; ts: string } | undefined;
        if (r === undefined || r.userId <= 0) continue;
        s.upsertUser.run(r.userId, r.user, r.ts);
        s.contributor.run(page, r.userId, s.userName.get(r.userId) as string);
      }
      const anon = s.anonCount.get(page) as number;
      if (anon > 0) s.setAnon.run(page, anon);
      else s.delAnon.run(page);
    },
    recentChangesOfRevisions: (revIds) => {
      for (const id of revIds) s.rcOfRev.run(id);
    },
    recentChangeOfLog: (logId) => {
      s.rcOfLog.run(logId);
    },
    recentChange: (r: RecentChangeRow) => {
      s.rc.run(
        r.rcid,
        r.timestamp,
        recentChangeType(r.type),
        r.ns,
        r.dbkey,
        r.pageId,
        r.revId,
        r.oldRevId,
        r.userId,
        r.user,
        r.comment,
        r.minor ? 1 : 0,
        r.bot ? 1 : 0,
        r.oldLen,
        r.newLen,
        r.logId,
        r.logType,
        r.logAction,
      );
    },
    trimRecentChanges: () => {
      const newest = s.newestRc.get() as string | null;
      if (newest !== null) s.trimRc.run(recentChangesCutoff(newest));
    },
    user: (u) => {
      s.putUser.run(u.id, u.name, u.editCount, u.registration === '' ? null : u.registration);
    },
  };
}
