import type { Db, Statement } from './db.js';
import { StatementCache, jsonColumnsSql } from './statement-cache.js';
import { prefixEnd } from '../sql/prefix-range.js';
import { compareBytes } from '../../wiki/collation.js';
import type {
  ContributionOptions,
  ContributionRecord,
  ContributorRecord,
  HistoryStore,
  LogOptions,
  LogRecord,
  PageHistoryOptions,
  RecentChangeOptions,
  RecentChangeRecord,
  RevisionRecord,
  UserRangeOptions,
  UserRecord,
} from '../history-store.js';
import { REV_COLUMNS, USER_COLUMNS, toRev } from '../sql/row-columns.js';
import { decodeRevisionText } from '../revision-text.js';
import {
  type LogPrefixScan,
  logEventsStatement,
  pageHistoryStatement,
  LOG_EVENT_COLUMNS,
  type RecordColumns,
  contributionColumns,
  contributionRecords,
  logEventRecords,
  recentChangeColumns,
  recentChangeRecords,
  recentChangesStatement,
  rowCmp,
  userRangeStatement,
} from '../sql/history.js';
import { SQLITE_DIALECT } from '../sql/dialect.js';

/** a title prefix alone: the time-ordered index that the other filters pick, named */
const SQLITE_LOG_PREFIX_SCAN: LogPrefixScan = {
  fromHint: (o) =>
    ` INDEXED BY ${o.action !== undefined ? 'log_type_action' : o.type !== undefined ? 'log_type_time' : o.user !== undefined ? 'log_user_text_time' : 'log_times'}`,
  condition: 'log_namespace = @ns AND log_title >= @prefix AND log_title < @prefixEnd',
};

/** the texts of the statements read column by column, by their column table and what follows its list: made once per variant */
const columnTexts = new Map<RecordColumns, Map<string, string>>();
function columnsSql(columns: RecordColumns, rest: string): string {
  let texts = columnTexts.get(columns);
  if (texts === undefined) {
    texts = new Map();
    columnTexts.set(columns, texts);
  }
  let sql = texts.get(rest);
  if (sql === undefined) {
    sql = jsonColumnsSql(
      columns.map((c) => c[0]),
      rest,
    );
    // bounded as the statement cache is: a client cycling through filters does not grow it
    if (texts.size >= 512) texts.clear();
    texts.set(rest, sql);
  }
  return sql;
}

export class SqliteHistoryStore implements HistoryStore {
  private readonly revById: Statement<[number]>;
  private readonly latest: Statement<[number]>;
  private readonly text: Statement<[number]>;
  private readonly anon: Statement<[number]>;
  private readonly userByName: Statement<[string]>;
  private readonly cache: StatementCache;

  constructor(db: Db) {
    this.revById = db.prepare('HistoryStore.revisionsByIds', `SELECT ${REV_COLUMNS} FROM revision WHERE rev_id = ?`);
    this.latest = db.prepare(
      'HistoryStore.latestRevisions',
      `SELECT ${REV_COLUMNS} FROM page JOIN revision ON rev_id = page_latest WHERE page_id = ?`,
    );
    this.text = db.prepare('HistoryStore.texts', 'SELECT rt_data, rt_deflated FROM revision_text WHERE rt_rev_id = ?', 'raw');
    this.anon = db.prepare('HistoryStore.anonContributors', 'SELECT pac_count FROM page_anon_contributors WHERE pac_page = ?', true);
    this.userByName = db.prepare('HistoryStore.usersByName', `SELECT ${USER_COLUMNS} FROM user WHERE user_name = ?`);
    this.cache = new StatementCache(db, 'HistoryStore');
  }

  async revisionsByIds(ids: readonly number[]): Promise<RevisionRecord[]> {
    return revisionsInIdOrder(this.revById, ids);
  }

  async latestRevisions(pageids: readonly number[]): Promise<RevisionRecord[]> {
    return revisionsInIdOrder(this.latest, pageids);
  }

  async pageHistory(o: PageHistoryOptions): Promise<RevisionRecord[]> {
    const { sql, values } = pageHistoryStatement(o);
    return this.cache.all(sql, values).map((r) => toRev(r));
  }

  async texts(revids: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    for (const id of new Set(revids)) {
      const row = this.text.get(id) as [Buffer, number] | undefined;
      if (row) out.set(id, decodeRevisionText(row[0], row[1]));
    }
    return out;
  }

  async contributors(
    pageids: readonly number[],
    from: { pageid: number; userid: number } | undefined,
    limit: number,
  ): Promise<ContributorRecord[]> {
    const out: ContributorRecord[] = [];
    const sorted = [...new Set(pageids)].sort((a, b) => a - b).filter((id) => !from || id >= from.pageid);
    for (const page of sorted) {
      if (out.length >= limit) break;
      const minUser = from && page === from.pageid ? from.userid : 0;
      const rows = this.cache.all<ContributorRecord>(
        `SELECT pc_page AS pageid, pc_user AS userid, pc_user_text AS name FROM page_contributor
         WHERE pc_page = @page AND pc_user >= @minUser ORDER BY pc_user LIMIT @limit`,
        { page, minUser, limit: limit - out.length },
      );
      out.push(...rows);
    }
    return out;
  }

  async anonContributors(pageids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (const id of new Set(pageids)) {
      const n = this.anon.get(id) as number | undefined;
      if (n !== undefined) out.set(id, n);
    }
    return out;
  }

  async usersByName(names: readonly string[]): Promise<UserRecord[]> {
    const out: UserRecord[] = [];
    for (const n of new Set(names)) {
      const r = this.userByName.get(n);
      if (r) out.push(r as UserRecord);
    }
    return out;
  }

  async userRange(o: UserRangeOptions): Promise<UserRecord[]> {
    const { sql, values } = userRangeStatement(o, SQLITE_DIALECT);
    return this.cache.all<UserRecord>(sql, values);
  }

  /**
   * One statement per user and namespace, each along the (user, namespace, timestamp) index with at most
   * `limit` rows, merged here: the work is bounded by users × namespaces × limit, whatever the history.
   */
  async contributions(o: ContributionOptions): Promise<ContributionRecord[]> {
    const multi = o.prefix !== undefined || (o.users?.length ?? 0) > 1;
    const nss: Array<number | undefined> = o.namespaces ? [...new Set(o.namespaces)] : [undefined];
    const sign = o.descending ? -1 : 1;
    const key = (r: ContributionRecord): [string, string, number] => [multi ? r.user : '', r.timestamp, r.revid];
    const cmp = (a: ContributionRecord, b: ContributionRecord) => {
      const [x, y] = [key(a), key(b)];
      return sign * (compareBytes(x[0], y[0]) || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || x[2] - y[2]);
    };
    // one range (one user or prefix, one or every namespace) comes in order already
    const merged = (lists: ContributionRecord[][], limit: number) =>
      lists.length === 1 ? (lists[0]!.length > limit ? lists[0]!.slice(0, limit) : lists[0]!) : lists.flat().sort(cmp).slice(0, limit);
    if (o.prefix !== undefined)
      return merged(
        nss.map((ns) => this.contributionRange(o, { prefix: o.prefix, ns, from: o.from, limit: o.limit })),
        o.limit,
      );
    const users = [...new Set(o.users ?? [])].sort(compareBytes);
    if (o.descending) users.reverse();
    const out: ContributionRecord[] = [];
    for (const user of users) {
      if (o.from?.user !== undefined && sign * compareBytes(user, o.from.user) < 0) continue;
      const from =
        o.from && (o.from.user === undefined || o.from.user === user) ? { timestamp: o.from.timestamp, revid: o.from.revid } : undefined;
      const need = o.limit - out.length;
      out.push(
        ...merged(
          nss.map((ns) => this.contributionRange(o, { user, ns, from, limit: need })),
          need,
        ),
      );
      if (out.length >= o.limit) break;
    }
    return out;
  }

  private contributionRange(
    o: ContributionOptions,
    r: { user?: string; prefix?: string; ns: number | undefined; from: ContributionOptions['from']; limit: number },
  ): ContributionRecord[] {
    const [lo, hi] = o.descending ? ['<=', '>='] : ['>=', '<='];
    const d = o.descending ? 'DESC' : 'ASC';
    const where: string[] = [];
    let order: string;
    if (r.user !== undefined) {
      where.push('rev_user_text = @user');
      order = `rev_timestamp ${d}, rev_id ${d}`;
      if (r.from) where.push(rowCmp(['rev_timestamp', 'rev_id'], lo, ['@fromTs', '@fromId']));
    } else {
      where.push('rev_user_text >= @prefix AND rev_user_text < @prefixEnd');
      order = `rev_user_text ${d}, rev_timestamp ${d}, rev_id ${d}`;
      if (r.from) where.push(rowCmp(['rev_user_text', 'rev_timestamp', 'rev_id'], lo, ['@fromUser', '@fromTs', '@fromId']));
    }
    if (r.ns !== undefined) where.push('rev_namespace = @ns');
    if (o.start !== undefined) where.push(`rev_timestamp ${lo} @start`);
    if (o.end !== undefined) where.push(`rev_timestamp ${hi} @end`);
    if (o.minor !== undefined) where.push(`rev_minor_edit = ${o.minor ? 1 : 0}`);
    if (o.isNew !== undefined) where.push(`rev_parent_id ${o.isNew ? '=' : '!='} 0`);
    if (o.top !== undefined)
      where.push(`${o.top ? '' : 'NOT '}EXISTS (SELECT 1 FROM page t WHERE t.page_id = rev_page AND t.page_latest = rev_id)`);
    // one user in one namespace: the (user, namespace, timestamp) index gives exactly the rows, in order
    const index = r.user !== undefined && r.ns !== undefined ? ' INDEXED BY rev_user_text_ns_timestamp' : '';
    const sql = columnsSql(
      contributionColumns(o),
      `FROM revision${index} JOIN page ON page_id = rev_page WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @limit`,
    );
    const columns = this.cache.jsonRowsOf(sql, {
      user: r.user,
      prefix: r.prefix,
      prefixEnd: r.prefix === undefined ? undefined : prefixEnd(r.prefix),
      fromUser: r.from?.user,
      fromTs: r.from?.timestamp,
      fromId: r.from?.revid,
      ns: r.ns,
      start: o.start,
      end: o.end,
      limit: r.limit,
    });
    return contributionRecords(columns);
  }

  async logEvents(o: LogOptions): Promise<LogRecord[]> {
    const { rest, values } = logEventsStatement(o, SQLITE_LOG_PREFIX_SCAN);
    return logEventRecords(this.cache.jsonRowsOf(columnsSql(LOG_EVENT_COLUMNS, rest), values));
  }

  async recentChanges(o: RecentChangeOptions): Promise<RecentChangeRecord[]> {
    const { rest, values } = recentChangesStatement(o, SQLITE_DIALECT);
    const columns = recentChangeColumns(o);
    return recentChangeRecords(columns, this.cache.jsonRowsOf(columnsSql(columns, rest), values));
  }
}

/** the revisions `stmt` finds by each id of `ids` (one seek each), once per id, in id order */
function revisionsInIdOrder(stmt: Statement<[number]>, ids: readonly number[]): RevisionRecord[] {
  const out: RevisionRecord[] = [];
  for (const id of [...new Set(ids)].sort((a, b) => a - b)) {
    const r = stmt.get(id);
    if (r) out.push(toRev(r));
  }
  return out;
}
