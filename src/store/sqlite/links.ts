import type { Db } from './db.js';
import type { FileUsageOptions, FileUsagePages, FileUsageRow, ImagesOfOptions } from '../link-store.js';
import { PAGE_COLUMN_LIST, PAGE_REF_COLUMN_LIST, pageRefFromArray } from '../sql/row-columns.js';
import type { PageRef } from '../page-store.js';
import { type StatementCache, jsonRowsSql } from './statement-cache.js';
import { titleBounds, titleBoundsBits, titleBoundsWhere } from '../sql/prefix-range.js';
import { SqlLinkStore } from '../sql/links.js';
import { SqlitePort } from './port.js';

/**
 * the columns of fileUsages, fileUsagePages (the using page's PageRef but its id), and with `full`; the
 * pages' rows leave out the target (il_to, the first column), read only as the last row's
 */
const USAGE_COLUMNS = [
  ['il_to', 'il_from'],
  ['il_to', 'il_from', ...PAGE_REF_COLUMN_LIST.slice(1)],
  ['il_to', 'il_from', ...PAGE_COLUMN_LIST],
];

export class SqliteLinkStore extends SqlLinkStore {
  private readonly usages: StatementCache;
  private readonly targets: StatementCache;
  private readonly images: StatementCache;

  constructor(readonly db: Db) {
    const port = new SqlitePort(db);
    super(port);
    this.usages = port.cache('LinkStore.fileUsages');
    this.targets = port.cache('LinkStore.fileUsageTargets');
    this.images = port.cache('LinkStore.imagesOf');
  }

  /** fileUsages' and fileUsagePages' statements (jsonRowsSql), by shape */
  private readonly usageTexts: string[] = [];

  /** A range scan of the imagelinks primary key (il_to, il_from). */
  async fileUsages(o: FileUsageOptions & { continueAt?: { target: string; from: number } }): Promise<FileUsageRow[]> {
    const out: FileUsageRow[] = [];
    for (const r of this.usage(o, 0) as unknown[][]) out.push({ target: r[0] as string, from: r[1] as number });
    return out;
  }

  /**
   * fileUsages' range scan with a primary-key seek of the using page per row (its id is il_from: not read
   * again, but for whole rows)
   */
  async fileUsagePages(o: FileUsageOptions & { continueAt?: { target: string; from: number } }, full = false): Promise<FileUsagePages> {
    // the columns of the rows (jsonColumnsSql), then the last row's target
    const cols = this.usage(o, full ? 2 : 1) as unknown[][];
    const from = cols[0] as number[];
    const page: Array<PageRef | null> = [];
    const out: FileUsagePages = { from, page, lastTarget: (cols[cols.length - 1] as unknown as string | null) ?? undefined };
    if (full) {
      const row: unknown[] = [];
      for (let i = 0; i < from.length; i++) {
        if (cols[1]![i] === null) {
          page.push(null);
          continue;
        }
        for (let c = 0; c < PAGE_COLUMN_LIST.length; c++) row[c] = cols[c + 1]![i];
        page.push(pageRefFromArray(row, 0));
      }
      return out;
    }
    const [, ns, title, redirect] = cols as [number[], Array<number | null>, string[], number[]];
    for (let i = 0; i < from.length; i++)
      page.push(ns[i] === null ? null : { pageid: from[i]!, ns: ns[i]!, title: title[i]!, isRedirect: redirect[i] === 1 });
    return out;
  }

  /** the rows of fileUsages (kind 0), or fileUsagePages' (1: PageRef, 2: PageRow) and the last row's target */
  private usage(o: FileUsageOptions & { continueAt?: { target: string; from: number } }, kind: 0 | 1 | 2): unknown[] {
    const v: Record<string, unknown> = { limit: o.limit };
    // which clauses the statement has: its text is made once per combination
    let shape = kind | (o.descending ? 4 : 0);
    if (o.continueAt !== undefined) {
      shape |= 8;
      v.contTo = o.continueAt.target;
      v.contFrom = o.continueAt.from;
    }
    shape |= titleBoundsBits(o, v, 16);
    const sql = (this.usageTexts[shape] ??= usageSql(shape));
    return this.usages.jsonRowsOf(sql, v);
  }

  /**
   * Distinct targets by skipping through the primary key: one seek per target (`il_to > previous`),
   * so a file used a million times costs no more than one used once.
   */
  async fileUsageTargets(o: FileUsageOptions & { continueAt?: string }): Promise<string[]> {
    const where: string[] = [];
    const v: Record<string, unknown> = {};
    if (o.continueAt !== undefined) {
      where.push(`il_to ${o.descending ? '<=' : '>='} @cont`);
      v.cont = o.continueAt;
    }
    titleBounds('il_to', o, where, v);
    const dir = o.descending ? ' DESC' : '';
    const base = `SELECT il_to FROM imagelinks`;
    const first = `${base}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY il_to${dir} LIMIT 1`;
    const next = `${base} WHERE ${[...where, `il_to ${o.descending ? '<' : '>'} @after`].join(' AND ')} ORDER BY il_to${dir} LIMIT 1`;
    return this.targets.walk(first, next, v, o.limit);
  }

  /** A range scan of the il_from index (il_from, il_to) per page of the batch; the sort is over the batch's rows. */
  async imagesOf(o: ImagesOfOptions): Promise<Array<{ pageid: number; name: string }>> {
    if (o.pageids.length === 0 || (o.only && o.only.length === 0)) return [];
    const dir = o.descending ? ' DESC' : '';
    const v: Record<string, unknown> = { ids: JSON.stringify(o.pageids), limit: o.limit };
    const where: string[] = [];
    if (o.start !== undefined) {
      where.push(`(il_from, il_to) ${o.descending ? '<=' : '>='} (@startPage, @startName)`);
      v.startPage = o.start.pageid;
      v.startName = o.start.name;
    }
    if (o.only !== undefined) {
      where.push('il_to IN (SELECT value FROM json_each(@only))');
      v.only = JSON.stringify(o.only);
    }
    const sql = `SELECT il_from AS pageid, il_to AS name FROM json_each(@ids) j CROSS JOIN imagelinks ON il_from = j.value${where.map((w) => ' AND ' + w).join('')}
      ORDER BY il_from${dir}, il_to${dir} LIMIT @limit`;
    return this.images.all<{ pageid: number; name: string }>(sql, v);
  }
}

/** the statement of LinkStore.usage for one shape (its bits) */
function usageSql(shape: number): string {
  const kind = shape & 3;
  const descending = (shape & 4) !== 0;
  const where: string[] = [];
  if (shape & 8) where.push(`(il_to, il_from) ${descending ? '<=' : '>='} (@contTo, @contFrom)`);
  titleBoundsWhere('il_to', shape, 16, where);
  const dir = descending ? ' DESC' : '';
  const join = kind === 0 ? '' : ' LEFT JOIN page ON page_id = il_from';
  const rest = `FROM imagelinks${join}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY il_to${dir}, il_from${dir} LIMIT @limit`;
  if (kind === 0) return jsonRowsSql(USAGE_COLUMNS[0]!, rest);
  // the rows are in il_to order, so the last row's target is the largest (the smallest descending): an
  // aggregate beside the rows' columns, no string per row
  const columns = USAGE_COLUMNS[kind]!;
  const inner = columns.map((c, i) => `${c} AS c${i}`).join(', ');
  const rowColumns = columns
    .slice(1)
    .map((_c, i) => `json_group_array(c${i + 1})`)
    .join(', ');
  // one JSON text holding both (a second column cost more than the array around them), column by
  // column as jsonColumnsSql's
  return `SELECT json_array(${rowColumns}, ${descending ? 'min' : 'max'}(c0)) FROM (SELECT ${inner} ${rest})`;
}
