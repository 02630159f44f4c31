import type { Db, Statement } from './db.js';
import { StatementCache, prefixEnd } from './statement-cache.js';
import type { PageRangeOptions, PageRow, PageStore, RedirectTarget, RevisionRow, TemplateText } from '../page-store.js';

const PAGE_COLUMNS = `page_id AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS isRedirect,
  page_len AS length, page_latest AS latestRevId, page_touched AS touched, page_rev_count AS revCount,
  page_content_model AS contentModel`;

function toPage(r: any): PageRow {
  r.isRedirect = r.isRedirect === 1;
  return r as PageRow;
}

export class SqlitePageStore implements PageStore {
  private readonly byId: Statement<[number]>;
  private readonly byName: Statement<[number, string]>;
  private readonly redirect: Statement<[number]>;
  private readonly revs: Statement<[number]>;
  private readonly text: Statement<[number]>;
  private readonly ranges: StatementCache;

  constructor(private readonly db: Db) {
    this.byId = db.prepare('PageStore.byIds', `SELECT ${PAGE_COLUMNS} FROM page WHERE page_id = ?`);
    this.byName = db.prepare('PageStore.byTitle', `SELECT ${PAGE_COLUMNS} FROM page WHERE page_namespace = ? AND page_title = ?`);
    this.redirect = db.prepare('PageStore.redirectTarget', 'SELECT rd_namespace AS ns, rd_title AS dbkey, rd_fragment AS fragment FROM redirect WHERE rd_from = ?');
    this.revs = db.prepare(
      'PageStore.revisions',
      `SELECT page_id, page_len, page_latest, first_rev_id, first_timestamp, first_user, first_user_id, first_len, first_sha1,
        first_comment, first_minor, latest_timestamp,
        latest_user, latest_user_id, latest_comment, latest_sha1, latest_minor, latest_parent_id FROM page WHERE page_id = ?`,
    );
    this.text = db.prepare('PageStore.latestText', 'SELECT old_text FROM page_text WHERE page_id = ?', true);
    this.ranges = new StatementCache(db, 'PageStore.range');
  }

  byIds(ids: readonly number[]): PageRow[] {
    const out: PageRow[] = [];
    for (const id of ids) {
      const r = this.byId.get(id);
      if (r) out.push(toPage(r));
    }
    return out;
  }

  byTitle(ns: number, dbkey: string): PageRow | undefined {
    const r = this.byName.get(ns, dbkey);
    return r ? toPage(r) : undefined;
  }

  redirectTarget(pageid: number): RedirectTarget | undefined {
    return this.redirect.get(pageid) as RedirectTarget | undefined;
  }

  async templateTexts(titles: ReadonlyArray<{ ns: number; dbkey: string }>): Promise<Array<TemplateText | null>> {
    return titles.map((t) => {
      let from = t;
      let row = this.byName.get(t.ns, t.dbkey) as { pageid: number; isRedirect: number } | undefined;
      if (row?.isRedirect) {
        const target = this.redirect.get(row.pageid) as RedirectTarget | undefined;
        if (target) {
          from = target;
          row = this.byName.get(target.ns, target.dbkey) as typeof row;
        }
      }
      const text = row ? (this.text.get(row.pageid) as string | undefined) : undefined;
      return text === undefined ? null : { text, ns: from.ns, dbkey: from.dbkey };
    });
  }

  revisions(pageid: number): { first: RevisionRow; latest: RevisionRow } | undefined {
    const r = this.revs.get(pageid);
    if (!r) return undefined;
    const latest: RevisionRow = {
      revid: r.page_latest,
      parentid: r.latest_parent_id,
      pageid,
      timestamp: r.latest_timestamp,
      user: r.latest_user,
      userid: r.latest_user_id,
      comment: r.latest_comment,
      minor: r.latest_minor === 1,
      size: r.page_len,
      sha1: r.latest_sha1,
    };
    // The import keeps the first revision's metadata but not its text.
    const first: RevisionRow =
      r.first_rev_id === r.page_latest
        ? latest
        : {
            revid: r.first_rev_id,
            parentid: 0,
            pageid,
            timestamp: r.first_timestamp,
            user: r.first_user,
            userid: r.first_user_id,
            comment: r.first_comment,
            minor: r.first_minor === 1,
            size: r.first_len ?? 0,
            sha1: r.first_sha1,
          };
    return { first, latest };
  }

  latestText(pageid: number): string | undefined {
    return this.text.get(pageid) as string | undefined;
  }

  range(opts: PageRangeOptions): PageRow[] {
    const where = ['page_namespace = @ns'];
    const cmp = opts.descending ? ['<=', '>='] : ['>=', '<='];
    if (opts.from !== undefined) where.push(`page_title ${cmp[0]} @from`);
    if (opts.to !== undefined) where.push(`page_title ${cmp[1]} @to`);
    // a prefix is a range on the binary title
    if (opts.prefix !== undefined && opts.prefix !== '') where.push('page_title >= @prefix AND page_title < @prefixEnd');
    if (opts.redirects !== 'all') where.push('page_is_redirect = @isRedirect');
    // size and langlink filters are checked row by row along the title index, as MediaWiki does
    if (opts.minSize !== undefined) where.push('page_len >= @minSize');
    if (opts.maxSize !== undefined) where.push('page_len <= @maxSize');
    if (opts.langLinks === 'withlanglinks') where.push('EXISTS (SELECT 1 FROM langlinks WHERE ll_from = page_id)');
    if (opts.langLinks === 'withoutlanglinks') where.push('NOT EXISTS (SELECT 1 FROM langlinks WHERE ll_from = page_id)');
    const sql = `SELECT ${PAGE_COLUMNS} FROM page WHERE ${where.join(' AND ')} ORDER BY page_title ${opts.descending ? 'DESC' : 'ASC'} LIMIT @limit`;
    const rows = this.ranges.all(sql, {
      ns: opts.ns,
      from: opts.from,
      to: opts.to,
      prefix: opts.prefix,
      prefixEnd: opts.prefix === undefined ? undefined : prefixEnd(opts.prefix),
      isRedirect: opts.redirects === 'redirects' ? 1 : 0,
      minSize: opts.minSize,
      maxSize: opts.maxSize,
      limit: opts.limit,
    });
    return rows.map(toPage);
  }
}
