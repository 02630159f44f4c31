/**
 * The history statements that read the same in SQLite and PostgreSQL, shared by the two history stores
 * (what differs goes through sql-dialect.ts); what only one engine can say (index hints, lateral joins)
 * stays in its store.
 */
import type {
  ContributionOptions,
  ContributionRecord,
  LogOptions,
  LogRecord,
  PageHistoryOptions,
  RecentChangeOptions,
  RecentChangeRecord,
  UserRangeOptions,
} from '../history-store.js';
import type { SqlDialect, SqlStatement } from './dialect.js';
import { prefixEnd } from './prefix-range.js';
import { REV_COLUMNS, USER_COLUMNS } from './row-columns.js';

/** `(a, b) op (x, y)`: a row comparison, op one of > >= < <= */
export function rowCmp(cols: string[], op: string, params: string[]): string {
  return `(${cols.join(', ')}) ${op} (${params.join(', ')})`;
}

/** a list's columns: [expression, the record's member] */
export type RecordColumns = ReadonlyArray<readonly [string, string]>;

export function selectList(columns: RecordColumns): string {
  return columns.map(([expr, key]) => `${expr} AS "${key}"`).join(', ');
}

/** rows read as objects keyed by the members of `columns`, as one array per column */
export function valuesByColumn(columns: RecordColumns, rows: readonly Record<string, unknown>[]): unknown[][] {
  const out: unknown[][] = new Array(columns.length);
  for (let j = 0; j < columns.length; j++) {
    const key = columns[j]![1];
    const values: unknown[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) values[i] = rows[i]![key];
    out[j] = values;
  }
  return out;
}

/** recentChangesStatement's columns (SQLite reads them column by column: rest is what follows the list) */
export const RECENT_CHANGE_COLUMNS: RecordColumns = [
  ['rc_id', 'rcid'],
  ['rc_timestamp', 'timestamp'],
  ['rc_type', 'type'],
  ['rc_namespace', 'ns'],
  ['rc_title', 'title'],
  ['rc_cur_id', 'pageid'],
  ['rc_this_oldid', 'revid'],
  ['rc_last_oldid', 'oldRevid'],
  ['rc_user', 'userid'],
  ['rc_user_text', 'user'],
  ['rc_comment', 'comment'],
  ['rc_minor', 'minor'],
  ['rc_bot', 'bot'],
  ['rc_old_len', 'oldLen'],
  ['rc_new_len', 'newLen'],
  ['rc_deleted', 'deleted'],
  ['rc_logid', 'logid'],
  ['rc_log_type', 'logType'],
  ['rc_log_action', 'logAction'],
  ['rc_params', 'params'],
  ['COALESCE(page_is_redirect, 0)', 'isRedirect'],
  ['rev_sha1', 'sha1'],
];
const RECENT_CHANGE_SELECT = selectList(RECENT_CHANGE_COLUMNS);

/**
 * a contribution's columns (SQLite reads them column by column: no object per row from the driver, no
 * string per value); contributionRecords names them. Not the SHA-1 or the content model and format, which
 * no contributions reader shows (left empty).
 */
const CONTRIBUTION_COLUMNS: RecordColumns = [
  ['rev_id', 'revid'],
  ['rev_parent_id', 'parentid'],
  ['rev_page', 'pageid'],
  ['rev_namespace', 'ns'],
  ['rev_timestamp', 'timestamp'],
  ['rev_user_text', 'user'],
  ['rev_user', 'userid'],
  ['rev_comment', 'comment'],
  ['rev_minor_edit', 'minor'],
  ['rev_len', 'size'],
  ['rev_deleted', 'deleted'],
  ['page_title', 'title'],
  ['page_latest = rev_id', 'top'],
];
/** with the parent's size (ContributionOptions.parentSizes) */
const CONTRIBUTION_COLUMNS_SIZES: RecordColumns = CONTRIBUTION_COLUMNS.concat([
  ['(SELECT p.rev_len FROM revision p WHERE p.rev_id = revision.rev_parent_id)', 'parentSize'],
]);

/** the columns a contributions statement reads: the parent's size only when it is asked for (a seek per row) */
export function contributionColumns(o: ContributionOptions): RecordColumns {
  return o.parentSizes ? CONTRIBUTION_COLUMNS_SIZES : CONTRIBUTION_COLUMNS;
}

/** The contributions of a statement over contributionColumns, its values one array per column. */
export function contributionRecords(columns: unknown[][]): ContributionRecord[] {
  const [revid, parentid, pageid, ns, timestamp, user, userid, comment, minor, size, deleted, title, top, parentSize] = columns as [
    number[],
    number[],
    number[],
    number[],
    string[],
    string[],
    number[],
    string[],
    number[],
    Array<number | null>,
    number[],
    string[],
    Array<number | boolean>,
    Array<number | null> | undefined,
  ];
  const out: ContributionRecord[] = new Array(revid.length);
  for (let i = 0; i < revid.length; i++) {
    const bits = deleted[i]!;
    out[i] = {
      revid: revid[i]!,
      parentid: parentid[i]!,
      pageid: pageid[i]!,
      ns: ns[i]!,
      timestamp: timestamp[i]!,
      user: user[i]!,
      userid: userid[i]!,
      comment: comment[i]!,
      minor: minor[i] === 1,
      size: size[i]!,
      sha1: '',
      contentModel: '',
      contentFormat: '',
      textHidden: (bits & 1) !== 0,
      commentHidden: (bits & 2) !== 0,
      userHidden: (bits & 4) !== 0,
      title: title[i]!,
      // SQLite's comparison gives 1, PostgreSQL's true
      top: top[i] === 1 || top[i] === true,
      parentSize: parentSize === undefined ? null : parentSize[i]!,
    };
  }
  return out;
}

/** the part of RecentChangeOptions.read each column belongs to (none: always read), as a bit */
const RC_USER = 1;
const RC_COMMENT = 2;
const RC_LOG = 4;
const RC_REDIRECT = 8;
const RC_SHA1 = 16;
const RC_PART: Record<string, number> = {
  userid: RC_USER,
  user: RC_USER,
  comment: RC_COMMENT,
  logid: RC_LOG,
  logType: RC_LOG,
  logAction: RC_LOG,
  params: RC_LOG,
  isRedirect: RC_REDIRECT,
  sha1: RC_SHA1,
};
const rcColumnsByParts: Array<RecordColumns | undefined> = [];

/**
 * The columns of the parts `o.read` asks for: an unread part costs no column (the joins of the redirect
 * flag and the SHA-1 are dropped with them, unless a filter names the page). Made once per combination.
 */
export function recentChangeColumns(o: RecentChangeOptions): RecordColumns {
  const r = o.read;
  const parts =
    r === undefined
      ? 31
      : (r.user ? RC_USER : 0) |
        (r.comment ? RC_COMMENT : 0) |
        (r.log ? RC_LOG : 0) |
        (r.redirect ? RC_REDIRECT : 0) |
        (r.sha1 ? RC_SHA1 : 0);
  let columns = rcColumnsByParts[parts];
  if (columns === undefined) {
    columns = RECENT_CHANGE_COLUMNS.filter((c) => ((RC_PART[c[1]] ?? 0) & parts) === (RC_PART[c[1]] ?? 0));
    rcColumnsByParts[parts] = columns;
  }
  return columns;
}

/** the values of the column of `columns` named `key` (values: one array per column), undefined when it was not read */
function columnOf(columns: RecordColumns, values: unknown[][], key: string): unknown[] | undefined {
  for (let j = 0; j < columns.length; j++) if (columns[j]![1] === key) return values[j];
  return undefined;
}

/** The recent changes of a statement read column by column (recentChangeColumns), unread members empty. */
export function recentChangeRecords(columns: RecordColumns, values: unknown[][]): RecentChangeRecord[] {
  const rcid = columnOf(columns, values, 'rcid') as number[];
  const timestamp = columnOf(columns, values, 'timestamp') as string[];
  const type = columnOf(columns, values, 'type') as number[];
  const ns = columnOf(columns, values, 'ns') as number[];
  const title = columnOf(columns, values, 'title') as string[];
  const pageid = columnOf(columns, values, 'pageid') as number[];
  const revid = columnOf(columns, values, 'revid') as number[];
  const oldRevid = columnOf(columns, values, 'oldRevid') as number[];
  const userid = columnOf(columns, values, 'userid') as number[] | undefined;
  const user = columnOf(columns, values, 'user') as string[] | undefined;
  const comment = columnOf(columns, values, 'comment') as string[] | undefined;
  const minor = columnOf(columns, values, 'minor') as number[];
  const bot = columnOf(columns, values, 'bot') as number[];
  const oldLen = columnOf(columns, values, 'oldLen') as Array<number | null>;
  const newLen = columnOf(columns, values, 'newLen') as Array<number | null>;
  const deleted = columnOf(columns, values, 'deleted') as number[];
  const logid = columnOf(columns, values, 'logid') as number[] | undefined;
  const logType = columnOf(columns, values, 'logType') as Array<string | null> | undefined;
  const logAction = columnOf(columns, values, 'logAction') as Array<string | null> | undefined;
  const params = columnOf(columns, values, 'params') as Array<string | null> | undefined;
  const isRedirect = columnOf(columns, values, 'isRedirect') as number[] | undefined;
  const sha1 = columnOf(columns, values, 'sha1') as Array<string | null> | undefined;
  const n = rcid.length;
  const out: RecentChangeRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = {
      rcid: rcid[i]!,
      timestamp: timestamp[i]!,
      type: type[i]!,
      ns: ns[i]!,
      title: title[i]!,
      pageid: pageid[i]!,
      revid: revid[i]!,
      oldRevid: oldRevid[i]!,
      userid: userid === undefined ? 0 : userid[i]!,
      user: user === undefined ? '' : user[i]!,
      comment: comment === undefined ? '' : comment[i]!,
      minor: minor[i] !== 0,
      bot: bot[i] !== 0,
      oldLen: oldLen[i]!,
      newLen: newLen[i]!,
      deleted: deleted[i]!,
      logid: logid === undefined ? 0 : logid[i]!,
      logType: logType === undefined ? null : logType[i]!,
      logAction: logAction === undefined ? null : logAction[i]!,
      params: params === undefined ? null : params[i]!,
      isRedirect: isRedirect === undefined ? false : isRedirect[i] === 1,
      sha1: sha1 === undefined ? null : sha1[i]!,
    };
  }
  return out;
}

/**
 * list=recentchanges: the window holds 90 days of changes; the filters are checked along the timestamp
 * index, as MediaWiki does.
 */
export function recentChangesStatement(o: RecentChangeOptions, d: SqlDialect): SqlStatement & { rest: string } {
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
  if (o.namespaces) where.push(d.amongNumbers('rc_namespace', o.namespaces.map(Number), 'namespaces', values));
  if (o.types) where.push(d.amongNumbers('rc_type', o.types.map(Number), 'types', values));
  if (o.user !== undefined) where.push('rc_user_text = @user');
  if (o.excludeUser !== undefined) where.push('rc_user_text != @excludeUser');
  if (o.minor !== undefined) where.push(`rc_minor ${o.minor ? '!=' : '='} 0`);
  if (o.bot !== undefined) where.push(`rc_bot ${o.bot ? '!=' : '='} 0`);
  if (o.anon !== undefined) where.push(`rc_user ${o.anon ? '=' : '!='} 0`);
  if (o.redirect !== undefined) where.push(`COALESCE(page_is_redirect, 0) = ${o.redirect ? 1 : 0}`);
  if (o.topOnly) where.push('page_latest = rc_this_oldid');
  const rest = `FROM recentchanges LEFT JOIN page ON page_namespace = rc_namespace AND page_title = rc_title LEFT JOIN revision ON rev_id = rc_this_oldid AND rc_this_oldid != 0
      ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY rc_timestamp ${dir}, rc_id ${dir} LIMIT @limit`;
  const sql = `SELECT ${RECENT_CHANGE_SELECT} ${rest}`;
  return { sql, rest, values };
}

/** a row of recentChangesStatement, its 0/1 flags as booleans (in place) */
export function toRecentChange(r: any): RecentChangeRecord {
  r.minor = r.minor !== 0;
  r.bot = r.bot !== 0;
  r.isRedirect = r.isRedirect === 1;
  return r as RecentChangeRecord;
}

/** prop=revisions over one page: a range of the (page, timestamp, id) or (page, id) index */
export function pageHistoryStatement(o: PageHistoryOptions): SqlStatement {
  const newer = o.dir === 'newer';
  const [lo, hi] = newer ? ['>=', '<='] : ['<=', '>='];
  const where = ['rev_page = @page'];
  if (o.startId !== undefined) where.push(`rev_id ${lo} @startId`);
  if (o.endId !== undefined) where.push(`rev_id ${hi} @endId`);
  if (o.start !== undefined) where.push(`rev_timestamp ${lo} @start`);
  if (o.end !== undefined) where.push(`rev_timestamp ${hi} @end`);
  if (o.user !== undefined) where.push('rev_user_text = @user');
  if (o.excludeUser !== undefined) where.push('rev_user_text != @excludeUser');
  const d = newer ? 'ASC' : 'DESC';
  const order = o.orderBy === 'id' ? `rev_id ${d}` : `rev_timestamp ${d}, rev_id ${d}`;
  const sql = `SELECT ${REV_COLUMNS} FROM revision WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @limit`;
  const values = {
    page: o.pageid,
    startId: o.startId,
    endId: o.endId,
    start: o.start,
    end: o.end,
    user: o.user,
    excludeUser: o.excludeUser,
    limit: o.limit,
  };
  return { sql, values };
}

/** list=allusers: a range of the user names */
export function userRangeStatement(o: UserRangeOptions, d: SqlDialect): SqlStatement {
  const [lo, hi] = o.descending ? ['<=', '>='] : ['>=', '<='];
  const where: string[] = [];
  if (o.from !== undefined) where.push(`user_name ${lo} @from`);
  if (o.to !== undefined) where.push(`user_name ${hi} @to`);
  if (o.prefix !== undefined) where.push('user_name >= @prefix AND user_name < @prefixEnd');
  if (o.withEditsOnly) where.push('user_editcount > 0');
  const sql = `SELECT ${USER_COLUMNS} FROM ${d.userName} ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
      ORDER BY user_name ${o.descending ? 'DESC' : 'ASC'} LIMIT @limit`;
  const values = {
    from: o.from,
    to: o.to,
    prefix: o.prefix,
    prefixEnd: o.prefix === undefined ? undefined : prefixEnd(o.prefix),
    limit: o.limit,
  };
  return { sql, values };
}

/**
 * How an engine keeps list=logevents by a title prefix alone on a time-ordered index (1.25 orders by time
 * whatever the filters) rather than reading a title range and sorting it.
 */
export interface LogPrefixScan {
  /** what follows `FROM logging` (SQLite names the index) */
  fromHint(o: LogOptions): string;
  /** the prefix condition (PostgreSQL writes it so that no index can take it) */
  condition: string;
}

/** logEventsStatement's columns */
export const LOG_EVENT_COLUMNS: RecordColumns = [
  ['log_id', 'logid'],
  ['log_type', 'type'],
  ['log_action', 'action'],
  ['log_timestamp', 'timestamp'],
  ['log_user_text', 'user'],
  ['log_user', 'userid'],
  ['log_namespace', 'ns'],
  ['log_title', 'title'],
  ['log_page', 'logpage'],
  ['COALESCE(page_id, 0)', 'pageid'],
  ['log_comment', 'comment'],
  ['log_params', 'params'],
  ['log_deleted', 'deleted'],
];
const LOG_EVENT_SELECT = selectList(LOG_EVENT_COLUMNS);

/** The log entries of a statement read column by column (LOG_EVENT_COLUMNS, in that order). */
export function logEventRecords(values: unknown[][]): LogRecord[] {
  const [logid, type, action, timestamp, user, userid, ns, title, logpage, pageid, comment, params, deleted] = values as [
    number[],
    string[],
    string[],
    string[],
    string[],
    number[],
    number[],
    string[],
    number[],
    number[],
    string[],
    string[],
    number[],
  ];
  const n = logid.length;
  const out: LogRecord[] = new Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = {
      logid: logid[i]!,
      type: type[i]!,
      action: action[i]!,
      timestamp: timestamp[i]!,
      user: user[i]!,
      userid: userid[i]!,
      ns: ns[i]!,
      title: title[i]!,
      logpage: logpage[i]!,
      pageid: pageid[i]!,
      comment: comment[i]!,
      params: params[i]!,
      deleted: deleted[i]!,
    };
  }
  return out;
}

/** list=logevents: along the time-ordered index that the filters pick */
export function logEventsStatement(o: LogOptions, prefixScan: LogPrefixScan): SqlStatement & { rest: string } {
  const [lo, hi] = o.descending ? ['<=', '>='] : ['>=', '<='];
  const dir = o.descending ? 'DESC' : 'ASC';
  const prefixOnly = o.prefix !== undefined && o.title === undefined;
  const where: string[] = [];
  if (o.type !== undefined) where.push('log_type = @type');
  if (o.action !== undefined) where.push('log_action = @action');
  if (o.user !== undefined) where.push('log_user_text = @user');
  if (o.title !== undefined) where.push('log_namespace = @ns AND log_title = @title');
  if (o.namespace !== undefined) where.push('log_namespace = @ns');
  if (o.prefix !== undefined)
    where.push(prefixOnly ? prefixScan.condition : 'log_namespace = @ns AND log_title >= @prefix AND log_title < @prefixEnd');
  if (o.start !== undefined) where.push(`log_timestamp ${lo} @start`);
  if (o.end !== undefined) where.push(`log_timestamp ${hi} @end`);
  if (o.from) where.push(rowCmp(['log_timestamp', 'log_id'], lo, ['@fromTs', '@fromId']));
  const order = `log_timestamp ${dir}, log_id ${dir}`;
  const rest = `FROM logging${prefixOnly ? prefixScan.fromHint(o) : ''} LEFT JOIN page ON page_namespace = log_namespace AND page_title = log_title
      ${where.length ? 'WHERE ' + where.join(' AND ') : ''} ORDER BY ${order} LIMIT @limit`;
  const sql = `SELECT ${LOG_EVENT_SELECT} ${rest}`;
  const values = {
    type: o.type,
    action: o.action,
    user: o.user,
    ns: o.title?.ns ?? o.prefix?.ns ?? o.namespace,
    title: o.title?.dbkey,
    prefix: o.prefix?.dbkey,
    prefixEnd: o.prefix === undefined ? undefined : prefixEnd(o.prefix.dbkey),
    start: o.start,
    end: o.end,
    fromTs: o.from?.timestamp,
    fromId: o.from?.logid,
    limit: o.limit,
  };
  return { sql, rest, values };
}

/** MediaWiki's $wgRCMaxAge default: 90 days. */
export const RC_MAX_AGE_SECONDS = 90 * 86400;

/** TS_MW of RC_MAX_AGE_SECONDS before `newest` (TS_MW): recent changes at or before it are dropped */
export function recentChangesCutoff(newest: string): string {
  const t = Date.UTC(
    +newest.slice(0, 4),
    +newest.slice(4, 6) - 1,
    +newest.slice(6, 8),
    +newest.slice(8, 10),
    +newest.slice(10, 12),
    +newest.slice(12, 14),
  );
  return new Date(t - RC_MAX_AGE_SECONDS * 1000).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}

/** rc_type of a recent change the upstream's list=recentchanges names (RC_EDIT, RC_NEW, RC_LOG, RC_EXTERNAL, RC_CATEGORIZE) */
export function recentChangeType(type: string): number {
  return type === 'edit' ? 0 : type === 'new' ? 1 : type === 'log' ? 3 : type === 'external' ? 5 : 6;
}

/**
 * rebuildrecentchanges.php's recent-change rows of the revisions `where` picks (on `r`, with its ORDER BY):
 * each one's previous revision of its page found by a seek (`hinted`: of rev_page_timestamp, named to the
 * planner where a small batch would otherwise scan).
 */
export function revisionRecentChangesSql(where: string, d: SqlDialect, hinted: boolean): string {
  return `INSERT INTO recentchanges (rc_timestamp, rc_type, rc_namespace, rc_title, rc_cur_id, rc_this_oldid, rc_last_oldid,
       rc_user, rc_user_text, rc_comment, rc_minor, rc_bot, rc_old_len, rc_new_len, rc_deleted, rc_logid)
     SELECT r.rev_timestamp, CASE WHEN prev.rev_id IS NULL THEN 1 ELSE 0 END, page_namespace, page_title, page_id, r.rev_id,
       COALESCE(prev.rev_id, 0), r.rev_user, r.rev_user_text, r.rev_comment, r.rev_minor_edit, 0, prev.rev_len, r.rev_len,
       r.rev_deleted, 0
     FROM revision r JOIN page ON page_id = r.rev_page
     LEFT JOIN revision prev ON prev.rev_id = (SELECT q.rev_id FROM revision q${hinted ? d.indexedBy('rev_page_timestamp') : ''} WHERE q.rev_page = r.rev_page
       AND (q.rev_timestamp < r.rev_timestamp OR (q.rev_timestamp = r.rev_timestamp AND q.rev_id < r.rev_id))
       ORDER BY q.rev_timestamp DESC, q.rev_id DESC LIMIT 1)
     WHERE ${where}`;
}

/** rebuildrecentchanges.php's recent-change rows of the log entries `where` picks (registered performers only) */
export function logRecentChangesSql(where: string, d: SqlDialect): string {
  return `INSERT INTO recentchanges (rc_timestamp, rc_type, rc_namespace, rc_title, rc_cur_id, rc_this_oldid, rc_last_oldid,
       rc_user, rc_user_text, rc_comment, rc_minor, rc_bot, rc_old_len, rc_new_len, rc_deleted, rc_logid, rc_log_type,
       rc_log_action, rc_params)
     SELECT log_timestamp, 3, log_namespace, log_title, COALESCE(page_id, 0), 0, 0, log_user, user_name, log_comment, 0, 0,
       NULL, NULL, log_deleted, log_id, log_type, log_action, log_params
     FROM logging JOIN ${d.userName} ON user_id = log_user
     LEFT JOIN page ON page_namespace = log_namespace AND page_title = log_title
     WHERE ${where}`;
}
