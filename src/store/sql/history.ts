/**
 * The history statements that read the same in SQLite and PostgreSQL, shared by the two history stores
 * (what differs goes through sql-dialect.ts); what only one engine can say (index hints, lateral joins)
 * stays in its store.
 */
import type { RecentChangeOptions, RecentChangeRecord } from '../history-store.js';
import type { SqlDialect } from './dialect.js';

/** `(a, b) op (x, y)`: a row comparison, op one of > >= < <= */
export function rowCmp(cols: string[], op: string, params: string[]): string {
  return `(${cols.join(', ')}) ${op} (${params.join(', ')})`;
}

/**
 * list=recentchanges: the window holds 90 days of changes; the filters are checked along the timestamp
 * index, as MediaWiki does.
 */
export function recentChangesStatement(o: RecentChangeOptions, d: SqlDialect): { sql: string; values: Record<string, unknown> } {
  const [lo, hi] = o.descending ? ['<=', '>='] : ['>=', '<='];
  const dir = o.descending ? 'DESC' : 'ASC';
  const values: Record<string, unknown> = {
    start: o.start,
    end: o.end,
    fromTs: o.from?.timestamp,
    fromId: o.from?.rcid,
    user: o.user,
    excludeUser: o.excludeUser,
    limit: o.limit,
  };
  const where: string[] = [];
  if (o.start !== undefined) where.push(`rc_timestamp ${lo} @start`);
  if (o.end !== undefined) where.push(`rc_timestamp ${hi} @end`);
  if (o.from) where.push(rowCmp(['rc_timestamp', 'rc_id'], lo, ['@fromTs', '@fromId']));
  if (o.namespaces) where.push(d.amongNumbers('rc_namespace', o.namespaces.map((n) => Number(n)), 'namespaces', values));
  if (o.types) where.push(d.amongNumbers('rc_type', o.types.map((n) => Number(n)), 'types', values));
  if (o.user !== undefined) where.push('rc_user_text = @user');
  if (o.excludeUser !== undefined) where.push('rc_user_text != @excludeUser');
  if (o.minor !== undefined) where.push(`rc_minor ${o.minor ? '!=' : '='} 0`);
  if (o.bot !== undefined) where.push(`rc_bot ${o.bot ? '!=' : '='} 0`);
  if (o.anon !== undefined) where.push(`rc_user ${o.anon ? '=' : '!='} 0`);
  if (o.redirect !== undefined) where.push(`COALESCE(page_is_redirect, 0) = ${o.redirect ? 1 : 0}`);
  if (o.topOnly) where.push('page_latest = rc_this_oldid');
  const sql = `SELECT rc_id AS rcid, rc_timestamp AS timestamp, rc_type AS type, rc_namespace AS ns, rc_title AS title,
        rc_cur_id AS pageid, rc_this_oldid AS revid, rc_last_oldid AS "oldRevid", rc_user AS userid, rc_user_text AS "user",
        rc_comment AS comment, rc_minor AS minor, rc_bot AS bot, rc_old_len AS "oldLen", rc_new_len AS "newLen",
        rc_deleted AS deleted, rc_logid AS logid, rc_log_type AS "logType", rc_log_action AS "logAction", rc_params AS params,
        COALESCE(page_is_redirect, 0) AS "isRedirect", rev_sha1 AS sha1
      FROM recentchanges LEFT JOIN page ON page_namespace = rc_namespace AND page_title = rc_title LEFT JOIN revision ON rev_id = rc_this_oldid AND rc_this_oldid != 0
      ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY rc_timestamp ${dir}, rc_id ${dir} LIMIT @limit`;
  return { sql, values };
}

/** a row of recentChangesStatement, its 0/1 flags as booleans (in place) */
export function toRecentChange(r: any): RecentChangeRecord {
  r.minor = r.minor !== 0;
  r.bot = r.bot !== 0;
  r.isRedirect = r.isRedirect === 1;
  return r as RecentChangeRecord;
}
