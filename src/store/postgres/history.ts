import type { PgDb } from './db.js';
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
  contributionColumns,
  contributionRecords,
  logEventsStatement,
  pageHistoryStatement,
  recentChangesStatement,
  rowCmp,
  selectList,
  toRecentChange,
  userRangeStatement,
  valuesByColumn,
} from '../sql/history.js';
import { POSTGRES_DIALECT } from '../sql/dialect.js';

/** a title prefix alone: written so that no index on the title can take it (no index hints here) */
const POSTGRES_LOG_PREFIX_SCAN: LogPrefixScan = {
  fromHint: () => '',
  condition: "log_namespace + 0 = @ns AND log_title || '' >= @prefix AND log_title || '' < @prefixEnd",
};

export class PostgresHistoryStore implements HistoryStore {
  constructor(private readonly db: PgDb) {}

  async revisionsByIds(ids: readonly number[]): Promise<RevisionRecord[]> {
    if (ids.length === 0) return [];
    const rows = await this.db.all(
      'HistoryStore.revisionsByIds',
      `SELECT ${REV_COLUMNS} FROM revision WHERE rev_id = ANY($1::bigint[]) ORDER BY rev_id`,
      [ids],
    );
    return rows.map((r) => toRev(r));
  }

  async latestRevisions(pageids: readonly number[]): Promise<RevisionRecord[]> {
    if (pageids.length === 0) return [];
    const rows = await this.db.all(
      'HistoryStore.latestRevisions',
      `SELECT ${REV_COLUMNS} FROM page JOIN revision ON rev_id = page_latest WHERE page_id = ANY($1::bigint[]) ORDER BY page_id`,
      [pageids],
    );
    return rows.map((r) => toRev(r));
  }

  async pageHistory(o: PageHistoryOptions): Promise<RevisionRecord[]> {
    const { sql, values } = pageHistoryStatement(o);
    return (await this.db.named('HistoryStore.pageHistory', sql, values)).map((r) => toRev(r));
  }

  async texts(revids: readonly number[]): Promise<Map<number, string>> {
    const out = new Map<number, string>();
    if (revids.length === 0) return out;
    const rows = await this.db.all<{ id: number; data: Buffer; deflated: number }>(
      'HistoryStore.texts',
      'SELECT rt_rev_id AS id, rt_data AS data, rt_deflated AS deflated FROM revision_text WHERE rt_rev_id = ANY($1::bigint[])',
      [revids],
    );
    const data = new Map(rows.map((r) => [r.id, r]));
    // in the order asked for, as the SQLite store fills the map
    for (const id of new Set(revids)) {
      const d = data.get(id);
      if (d) out.set(id, decodeRevisionText(d.data, d.deflated));
    }
    return out;
  }

  /**
   * Per page (ascending) a range of the (page, user) key from the continuation, each read only as far as
   * the limit; pages come in order (the ordinality), so the outer sort orders one page's rows at a time.
   */
  async contributors(
    pageids: readonly number[],
    from: { pageid: number; userid: number } | undefined,
    limit: number,
  ): Promise<ContributorRecord[]> {
    const sorted = [...new Set(pageids)].sort((a, b) => a - b).filter((id) => !from || id >= from.pageid);
    if (sorted.length === 0 || limit <= 0) return [];
    const minUsers = sorted.map((page) => (from && page === from.pageid ? from.userid : 0));
    return this.db.all<ContributorRecord>(
      'HistoryStore.contributors',
      `SELECT x.* FROM unnest($1::bigint[], $2::bigint[]) WITH ORDINALITY AS p(page, minuser, ord) CROSS JOIN LATERAL (
         SELECT pc_page AS pageid, pc_user AS userid, pc_user_text AS name FROM page_contributor
         WHERE pc_page = p.page AND pc_user >= p.minuser ORDER BY pc_user LIMIT $3) x
       ORDER BY p.ord, x.userid LIMIT $3`,
      [sorted, minUsers, limit],
    );
  }

  async anonContributors(pageids: readonly number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    if (pageids.length === 0) return out;
    const rows = await this.db.all<{ page: number; n: number }>(
      'HistoryStore.anonContributors',
      'SELECT pac_page AS page, pac_count AS n FROM page_anon_contributors WHERE pac_page = ANY($1::bigint[])',
      [pageids],
    );
    const counts = new Map(rows.map((r) => [r.page, r.n]));
    for (const id of new Set(pageids)) {
      const n = counts.get(id);
      if (n !== undefined) out.set(id, n);
    }
    return out;
  }

  async usersByName(names: readonly string[]): Promise<UserRecord[]> {
    const unique = [...new Set(names)];
    if (unique.length === 0) return [];
    // `user` is a reserved word in PostgreSQL: the table keeps SQLite's name, quoted
    return this.db.all<UserRecord>(
      'HistoryStore.usersByName',
      `SELECT ${USER_COLUMNS} FROM unnest($1::text[]) WITH ORDINALITY AS n(name, ord) JOIN "user" ON user_name = n.name ORDER BY n.ord`,
      [unique],
    );
  }

  async userRange(o: UserRangeOptions): Promise<UserRecord[]> {
    const { sql, values } = userRangeStatement(o, POSTGRES_DIALECT);
    return this.db.named<UserRecord>('HistoryStore.userRange', sql, values);
  }

  /**
   * One statement: per user (or the prefix) and namespace a range of the (user, namespace, timestamp) or
   * (user, timestamp) index with at most `limit` rows (a lateral each), merged here: the work is bounded
   * by users × namespaces × limit, whatever the history. The continuation point applies to the user it
   * names (every user when it names none); users before it in the listing's order are skipped.
   */
  async contributions(o: ContributionOptions): Promise<ContributionRecord[]> {
    if (o.limit <= 0) return [];
    const multi = o.prefix !== undefined || (o.users?.length ?? 0) > 1;
    const nss = o.namespaces ? [...new Set(o.namespaces)] : undefined;
    if (nss && nss.length === 0) return [];
    const sign = o.descending ? -1 : 1;
    const key = (r: ContributionRecord): [string, string, number] => [multi ? r.user : '', r.timestamp, r.revid];
    const cmp = (a: ContributionRecord, b: ContributionRecord) => {
      const [x, y] = [key(a), key(b)];
      return sign * (compareBytes(x[0], y[0]) || (x[1] < y[1] ? -1 : x[1] > y[1] ? 1 : 0) || x[2] - y[2]);
    };
    let groups: Array<{ users?: string[]; from: ContributionOptions['from'] }>;
    if (o.prefix !== undefined) groups = [{ from: o.from }];
    else {
      const users = [...new Set(o.users ?? [])].filter((u) => !(o.from?.user !== undefined && sign * compareBytes(u, o.from.user) < 0));
      if (o.from === undefined) groups = [{ users, from: undefined }];
      else if (o.from.user === undefined) groups = [{ users, from: o.from }];
      else {
        const at = o.from.user;
        groups = [
          { users: users.filter((u) => u === at), from: o.from },
          { users: users.filter((u) => u !== at), from: undefined },
        ];
      }
      groups = groups.filter((g) => g.users!.length > 0);
      if (groups.length === 0) return [];
    }
    const v: Record<string, unknown> = { limit: o.limit, nss, start: o.start, end: o.end };
    const parts = groups.map((g, i) => this.contributionRange(o, g, i, v));
    const sql = parts.length === 1 ? parts[0] : parts.map((p) => `(${p})`).join(' UNION ALL ');
    const columns = contributionColumns(o);
    const rows = contributionRecords(valuesByColumn(columns, await this.db.named('HistoryStore.contributions', sql, v)));
    return rows.sort(cmp).slice(0, o.limit);
  }

  /** The SELECT of one group of ranges: users (or the prefix) × namespaces, each a lateral range. */
  private contributionRange(
    o: ContributionOptions,
    g: { users?: string[]; from: ContributionOptions['from'] },
    i: number,
    v: Record<string, unknown>,
  ): string {
    const [lo, hi] = o.descending ? ['<=', '>='] : ['>=', '<='];
    const d = o.descending ? 'DESC' : 'ASC';
    const where: string[] = [];
    const sources: string[] = [];
    let order: string;
    if (g.users !== undefined) {
      sources.push(`unnest(@users${i}::text[]) AS u${i}(name)`);
      v['users' + i] = g.users;
      where.push(`rev_user_text = u${i}.name`);
      order = `rev_timestamp ${d}, rev_id ${d}`;
      if (g.from) where.push(rowCmp(['rev_timestamp', 'rev_id'], lo, ['@fromTs', '@fromId']));
    } else {
      where.push('rev_user_text >= @prefix AND rev_user_text < @prefixEnd');
      v.prefix = o.prefix;
      v.prefixEnd = prefixEnd(o.prefix!);
      order = `rev_user_text ${d}, rev_timestamp ${d}, rev_id ${d}`;
      if (g.from) where.push(rowCmp(['rev_user_text', 'rev_timestamp', 'rev_id'], lo, ['@fromUser', '@fromTs', '@fromId']));
    }
    // a prefix listing continued without a user compares with NULL and lists nothing, as SQLite does
    if (g.from) Object.assign(v, { fromUser: g.from.user ?? null, fromTs: g.from.timestamp, fromId: g.from.revid });
    if (o.namespaces) {
      sources.push(`unnest(@nss::bigint[]) AS n${i}(ns)`);
      where.push(`rev_namespace = n${i}.ns`);
    }
    if (o.start !== undefined) where.push(`rev_timestamp ${lo} @start`);
    if (o.end !== undefined) where.push(`rev_timestamp ${hi} @end`);
    if (o.minor !== undefined) where.push(`rev_minor_edit = ${o.minor ? 1 : 0}`);
    if (o.isNew !== undefined) where.push(`rev_parent_id ${o.isNew ? '=' : '!='} 0`);
    if (o.top !== undefined)
      where.push(`${o.top ? '' : 'NOT '}EXISTS (SELECT 1 FROM page t WHERE t.page_id = rev_page AND t.page_latest = rev_id)`);
    const range = `SELECT ${selectList(contributionColumns(o))} FROM revision JOIN page ON page_id = rev_page
      WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT @limit`;
    if (sources.length === 0) return range;
    return `SELECT x.* FROM ${sources.join(' CROSS JOIN ')} CROSS JOIN LATERAL (${range}) x`;
  }

  async logEvents(o: LogOptions): Promise<LogRecord[]> {
    const { sql, values } = logEventsStatement(o, POSTGRES_LOG_PREFIX_SCAN);
    return this.db.named<LogRecord>('HistoryStore.logEvents', sql, values);
  }

  async recentChanges(o: RecentChangeOptions): Promise<RecentChangeRecord[]> {
    const { sql, values } = recentChangesStatement(o, POSTGRES_DIALECT);
    return (await this.db.named('HistoryStore.recentChanges', sql, values)).map(toRecentChange);
  }
}
