import type { Db, Statement } from './db.js';
import type { FileListOptions, FilePageRow, FileRow, FileStore, SameContentRow } from '../file-store.js';
import { StatementCache, jsonRowsSql, prefixEnd } from './statement-cache.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { FILE_COLUMNS, filePageFromArray } from '../row-columns.js';

/** the other files with file f's content: a seek of the covering img_sha1 index, in name order */
const DUPLICATES_OF_F = 'CROSS JOIN image d INDEXED BY img_sha1 ON d.img_sha1 = f.img_sha1 AND d.img_name <> f.img_name';

export class SqliteFileStore implements FileStore {
  private readonly existingStmt: Statement<[string]>;
  private readonly byNamesStmt: Statement<[string]>;
  private readonly sameContentStmt: Statement<[string]>;
  private readonly sameContentOneStmt: Statement<[string], [string, string, string]>;
  private readonly lists: StatementCache;
  private readonly pathStmt: Statement<[string]>;

  constructor(private readonly db: Db) {
    this.existingStmt = db.prepare('FileStore.existing', 'SELECT img_name FROM image WHERE img_name IN (SELECT value FROM json_each(?))', true);
    this.byNamesStmt = db.prepare('FileStore.byNames', `SELECT ${FILE_COLUMNS} FROM image WHERE img_name IN (SELECT value FROM json_each(?))`);
    // a primary-key seek per file, then index img_sha1 (img_sha1, img_name, …): a seek, already in name order,
    // covering the duplicates' columns
    // (CROSS JOIN fixes the loop order, so no sort is needed); the file itself is dropped on the index
    // entry, before its row is read. The rows as one JSON text (StatementCache.jsonRows), each naming its
    // file by its place in the batch.
    this.sameContentStmt = db.prepare(
      'FileStore.sameContent',
      jsonRowsSql(
        ['j.key', 'd.img_name', 'd.img_user_text', 'd.img_timestamp'],
        `FROM json_each(?) j CROSS JOIN image f ON f.img_name = j.value ${DUPLICATES_OF_F}`,
      ),
      true,
    );
    // titles=File:X (one file, most often without duplicates): the same seeks without the JSON batch
    // around them (json_each and the aggregate cost more than the seeks)
    this.sameContentOneStmt = db.prepare(
      'FileStore.sameContent',
      `SELECT d.img_name, d.img_user_text, d.img_timestamp FROM image f ${DUPLICATES_OF_F} WHERE f.img_name = ?`,
      'raw',
    );
    this.lists = new StatementCache(db, 'FileStore.list');
    this.pathStmt = db.prepare('FileStore.storedPath', 'SELECT img_path FROM image WHERE img_name = ?', true);
  }

  async storedPath(name: string): Promise<string | undefined> {
    return this.pathStmt.get(name) as string | undefined;
  }

  async existing(names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    return new Set(this.existingStmt.all(JSON.stringify(names)) as string[]);
  }

  async byNames(names: readonly string[]): Promise<Map<string, FileRow>> {
    const out = new Map<string, FileRow>();
    if (names.length === 0) return out;
    for (const r of this.byNamesStmt.all(JSON.stringify(names)) as FileRow[]) out.set(r.name, r);
    return out;
  }

  async sameContent(names: readonly string[]): Promise<Map<string, SameContentRow[]>> {
    const out = new Map<string, SameContentRow[]>();
    if (names.length === 0) return out;
    if (names.length === 1) {
      const rows = this.sameContentOneStmt.all(names[0]!);
      if (rows.length) out.set(names[0]!, rows.map((r) => ({ name: r[0], userText: r[1], timestamp: r[2] })));
      return out;
    }
    for (const r of JSON.parse(this.sameContentStmt.get(JSON.stringify(names)) as string) as [number, string, string, string][]) {
      const file = names[r[0]]!;
      let list = out.get(file);
      if (!list) out.set(file, (list = []));
      list.push({ name: r[1], userText: r[2], timestamp: r[3] });
    }
    return out;
  }

  /**
   * One range scan along the index of the sort order: the primary key for sort=name, img_timestamp
   * (img_user_timestamp with a user) for sort=timestamp. Size and MIME filters are checked row by row
   * along it (their columns are written `+col` so the planner never trades the ordered scan for a sort);
   * a SHA-1 narrows to the img_sha1 index, which is as selective as it gets.
   */
  async list(o: FileListOptions): Promise<FileRow[]> {
    const q = listValues(o);
    return q ? this.lists.all<FileRow>(this.listText(q.shape, 0), q.v) : [];
  }

  async listPages(o: FileListOptions, full = false): Promise<FilePageRow[]> {
    const q = listValues(o);
    if (!q) return [];
    const out: FilePageRow[] = [];
    if (full) {
      for (const r of this.lists.jsonRowsOf(this.listText(q.shape, 2), q.v)) out.push(filePageFromArray(r));
      return out;
    }
    // one JSON array per column (listText's kind 1): each is parsed without an array per row
    const cols = this.lists.row(this.listText(q.shape, 1), q.v) as [string, string, string | undefined];
    const names = JSON.parse(cols[0]) as string[];
    const pages = JSON.parse(cols[1]) as Array<number | null>;
    const times = cols[2] === undefined ? undefined : (JSON.parse(cols[2]) as string[]);
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const p = pages[i]!;
      out.push({
        name,
        timestamp: times === undefined ? undefined : times[i],
        page: p === null ? null : { pageid: Math.floor(p / 2), ns: NS_FILE, title: name, isRedirect: p % 2 === 1 },
      });
    }
    return out;
  }

  /** list()'s and listPages()' statements (kind 0: FileRow objects, 1: page rows, 2: whole page rows) by shape */
  private readonly listTexts = new Map<number, string>();

  private listText(shape: number, kind: 0 | 1 | 2): string {
    const key = shape * 3 + kind;
    let sql = this.listTexts.get(key);
    if (sql === undefined) {
      // kind 1 reads the pages in its own columns (pageListSql)
      const rest = listRest(shape, kind === 2);
      sql = kind === 0 ? `SELECT ${FILE_COLUMNS} ${rest}` : kind === 2 ? jsonRowsSql(PAGE_LIST_FULL, rest) : pageListSql(shape, rest);
      // bounded: the shapes are the combinations of a dozen filters and up to 50 MIME types
      if (this.listTexts.size >= 1024) this.listTexts.clear();
      this.listTexts.set(key, sql);
    }
    return sql;
  }
}

/** listPages(full)'s columns (PAGE_LIST_COLUMNS_FULL), in their order */
const PAGE_LIST_FULL = ['img_name', 'img_timestamp', 'page_id', 'page_is_redirect', 'page_len', 'page_latest', 'page_touched', 'page_rev_count', 'page_content_model'];

/**
 * listPages()' statement for PageRefs: the names, the pages (id and redirect flag as one number, id * 2 +
 * flag; null for none) and, for sort=timestamp only (its continuation), the upload times, each column
 * as one JSON array. An array per column costs less to print and to parse than an array per row, and a
 * generator by name never needs the times.
 */
function pageListSql(shape: number, rest: string): string {
  const byName = (shape & 2) !== 0;
  return (
    `SELECT json_group_array(c0), json_group_array(c1)${byName ? '' : ', json_group_array(c2)'} ` +
    `FROM (SELECT img_name AS c0, ${PAGE_OF_FILE} AS c1${byName ? '' : ', img_timestamp AS c2'} ${rest})`
  );
}

/**
 * The file's description page as page_id * 2 + page_is_redirect, from index page_redirect_namespace_title
 * (page_is_redirect, page_namespace, page_title) alone: a seek for it as an article, then (a redirect or no
 * page) as a redirect. page_name gives the id but the flag costs a seek of the page's row besides.
 */
const PAGE_OF_FILE = ['0', '1']
  .map((r) => `(SELECT page_id * 2 + ${r} FROM page INDEXED BY page_redirect_namespace_title WHERE page_is_redirect = ${r} AND page_namespace = ${NS_FILE} AND page_title = img_name)`)
  .reduce((a, b) => `coalesce(${a}, ${b})`);

/**
 * The bound values of list() and listPages() and which clauses their statement has (the shape's bits,
 * the number of MIME types above them), or null when it can match nothing.
 */
function listValues(o: FileListOptions): { shape: number; v: Record<string, unknown> } | null {
  const v: Record<string, unknown> = { limit: o.limit };
  let shape = (o.descending ? 1 : 0) | (o.sort === 'name' ? 2 : 0);
  if (o.sort === 'name') {
    if (o.continueName !== undefined) {
      shape |= 4;
      v.cont = o.continueName;
    }
    if (o.from !== undefined) {
      shape |= 8;
      v.from = o.from;
    }
    if (o.to !== undefined) {
      shape |= 16;
      v.to = o.to;
    }
    if (o.prefix !== undefined && o.prefix !== '') {
      shape |= 32;
      v.prefix = o.prefix;
      v.prefixEnd = prefixEnd(o.prefix);
    }
  } else {
    if (o.user !== undefined) {
      shape |= 4;
      v.user = o.user;
    }
    if (o.continueAt !== undefined) {
      shape |= 8;
      v.contTs = o.continueAt.timestamp;
      v.contName = o.continueAt.name;
    }
    if (o.start !== undefined) {
      shape |= 16;
      v.start = o.start;
    }
    if (o.end !== undefined) {
      shape |= 32;
      v.end = o.end;
    }
  }
  if (o.minSize !== undefined) {
    shape |= 64;
    v.minSize = o.minSize;
  }
  if (o.maxSize !== undefined) {
    shape |= 128;
    v.maxSize = o.maxSize;
  }
  if (o.sha1 !== undefined) {
    shape |= 256;
    v.sha1 = o.sha1;
  }
  if (o.mimes !== undefined) {
    if (o.mimes.length === 0) return null;
    shape |= 512 + 1024 * o.mimes.length;
    o.mimes.forEach(([major, minor], i) => {
      v['major' + i] = major;
      v['minor' + i] = minor;
    });
  }
  return { shape, v };
}

/** the statement of list() and listPages() from its FROM on, for one shape of listValues */
function listRest(shape: number, withPages: boolean): string {
  const where: string[] = [];
  const descending = (shape & 1) !== 0;
  const [ge, le] = descending ? ['<=', '>='] : ['>=', '<='];
  const dir = descending ? ' DESC' : '';
  let order: string;
  if (shape & 2) {
    if (shape & 4) where.push(`img_name ${ge} @cont`);
    if (shape & 8) where.push(`img_name ${ge} @from`);
    if (shape & 16) where.push(`img_name ${le} @to`);
    if (shape & 32) where.push('img_name >= @prefix AND img_name < @prefixEnd');
    order = `img_name${dir}`;
  } else {
    if (shape & 4) where.push('img_user_text = @user');
    if (shape & 8) where.push(`(img_timestamp, img_name) ${ge} (@contTs, @contName)`);
    if (shape & 16) where.push(`img_timestamp ${ge} @start`);
    if (shape & 32) where.push(`img_timestamp ${le} @end`);
    order = `img_timestamp${dir}, img_name${dir}`;
  }
  if (shape & 64) where.push('+img_size >= @minSize');
  if (shape & 128) where.push('+img_size <= @maxSize');
  if (shape & 256) where.push('img_sha1 = @sha1');
  if (shape & 512) {
    const mimes = Math.floor(shape / 1024);
    where.push('(' + Array.from({ length: mimes }, (_m, i) => `(+img_major_mime = @major${i} AND +img_minor_mime = @minor${i})`).join(' OR ') + ')');
  }
  // the description page: a primary-key seek per file listed, in the loop over the ordered scan
  const from = withPages ? `image LEFT JOIN page ON page_namespace = ${NS_FILE} AND page_title = img_name` : 'image';
  return `FROM ${from}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY ${order} LIMIT @limit`;
}
