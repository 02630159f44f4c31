import type { Db, Statement } from './db.js';
import {
  sameContentOf,
  sameContentRows,
  type FileListOptions,
  type FilePageRow,
  type FileRow,
  type FileStore,
  type SameContentRow,
} from '../file-store.js';
import { StatementCache, jsonRowsSql } from './statement-cache.js';
import { boundBit, titleBoundsBits, titleBoundsWhere } from '../sql/prefix-range.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { FILE_COLUMNS, PAGE_COLUMN_LIST, filePageFromArray } from '../sql/row-columns.js';

export class SqliteFileStore implements FileStore {
  private readonly existingStmt: Statement<[string]>;
  private readonly byNamesStmt: Statement<[string]>;
  private readonly sameContentStmt: Statement<[string]>;
  private readonly sameContentOneStmt: Statement<[string]>;
  private readonly lists: StatementCache;
  private readonly pathStmt: Statement<[string]>;

  constructor(readonly db: Db) {
    this.existingStmt = db.prepare(
      'FileStore.existing',
      'SELECT img_name FROM image WHERE img_name IN (SELECT value FROM json_each(?))',
      true,
    );
    this.byNamesStmt = db.prepare(
      'FileStore.byNames',
      `SELECT ${FILE_COLUMNS} FROM image WHERE img_name IN (SELECT value FROM json_each(?))`,
    );
    // a primary-key seek per file for the duplicates the import wrote into its row (img_dups): one JSON
    // text [i, dups, j, dups, …], i the file's place in the batch, for the files that have any (CROSS JOIN
    // keeps the batch's order)
    this.sameContentStmt = db.prepare(
      'FileStore.sameContent',
      `SELECT '[' || group_concat(j.key || ',' || f.img_dups, ',') || ']' FROM json_each(?) j CROSS JOIN image f ON f.img_name = j.value WHERE f.img_dups IS NOT NULL`,
      true,
    );
    // titles=File:X (one file, most often without duplicates): the seek without the JSON batch around it
    this.sameContentOneStmt = db.prepare('FileStore.sameContent', 'SELECT img_dups FROM image WHERE img_name = ?', true);
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
      const dups = sameContentRows((this.sameContentOneStmt.get(names[0]!) as string | null | undefined) ?? null);
      if (dups !== null) out.set(names[0]!, dups);
      return out;
    }
    const json = this.sameContentStmt.get(JSON.stringify(names)) as string | null;
    if (json === null) return out;
    const parts = JSON.parse(json) as Array<number | [string, string, string][]>;
    for (let i = 0; i < parts.length; i += 2)
      out.set(names[parts[i] as number]!, sameContentOf(parts[i + 1] as [string, string, string][])!);
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

  async listPages(o: FileListOptions, full = false, duplicates = false): Promise<FilePageRow[]> {
    const q = listValues(o);
    if (!q) return [];
    const out: FilePageRow[] = [];
    if (full) {
      for (const r of this.lists.jsonRowsOf(this.listText(q.shape, 2, duplicates), q.v)) {
        const row = filePageFromArray(r);
        if (duplicates) row.duplicates = sameContentRows(r[PAGE_LIST_FULL.length] as string | null);
        out.push(row);
      }
      return out;
    }
    // one JSON array per column (listText's kind 1): each is parsed without an array per row
    const cols = this.lists.row(this.listText(q.shape, 1, duplicates), q.v) as string[];
    const byName = (q.shape & 2) !== 0;
    const names = JSON.parse(cols[0]!) as string[];
    const pages = JSON.parse(cols[1]!) as Array<number | null>;
    const times = byName ? undefined : (JSON.parse(cols[2]!) as string[]);
    const dups = duplicates ? (JSON.parse(cols[byName ? 2 : 3] ?? '[]') as Array<[string, string, string][] | null>) : undefined;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const p = pages[i]!;
      const row: FilePageRow = {
        name,
        timestamp: times === undefined ? undefined : times[i],
        page: p === null ? null : { pageid: Math.floor(p / 2), ns: NS_FILE, title: name, isRedirect: p % 2 === 1 },
      };
      if (dups !== undefined) row.duplicates = sameContentOf(dups[i]!);
      out.push(row);
    }
    return out;
  }

  /**
   * list()'s and listPages()' statements (kind 0: FileRow objects, 1: page rows, 2: whole page rows; with
   * the duplicates or not) by shape
   */
  private readonly listTexts = new Map<number, string>();

  private listText(shape: number, kind: 0 | 1 | 2, duplicates = false): string {
    const key = (shape * 3 + kind) * 2 + (duplicates ? 1 : 0);
    let sql = this.listTexts.get(key);
    if (sql === undefined) {
      // kind 1 reads the pages in its own columns (pageListSql)
      const rest = listRest(shape, kind === 2);
      sql =
        kind === 0
          ? `SELECT ${FILE_COLUMNS} ${rest}`
          : kind === 2
            ? jsonRowsSql(duplicates ? [...PAGE_LIST_FULL, 'img_dups'] : PAGE_LIST_FULL, rest)
            : pageListSql(shape, rest, duplicates);
      // bounded: the shapes are the combinations of a dozen filters and up to 50 MIME types
      if (this.listTexts.size >= 1024) this.listTexts.clear();
      this.listTexts.set(key, sql);
    }
    return sql;
  }
}

/**
 * listPages(full)'s columns (PAGE_LIST_COLUMNS_FULL), in their order: the file's name and timestamp, then
 * the description page's columns but its namespace and title (the file's)
 */
const PAGE_LIST_FULL = ['img_name', 'img_timestamp', 'page_id'].concat(PAGE_COLUMN_LIST.slice(3));

/**
 * listPages()' statement for PageRefs: the names, the description pages (img_page: id * 2 + redirect flag;
 * null for none), for sort=timestamp only (its continuation) the upload times and, when asked, the
 * duplicates (img_dups, null for none), each column as one JSON array. An array per column costs less to
 * print and to parse than an array per row, and a generator by name never needs the times.
 * The columns the import wrote into the file's row take no seek of the page table; by time, index
 * img_timestamp covers them but img_dups, read by a primary-key seek for the files that have duplicates.
 */
function pageListSql(shape: number, rest: string, duplicates: boolean): string {
  const byName = (shape & 2) !== 0;
  // img_dups is JSON already: joined as it is (json_group_array would quote it)
  const dups = byName
    ? 'img_dups'
    : 'CASE WHEN img_dup_count > 0 THEN (SELECT d.img_dups FROM image d WHERE d.img_name = image.img_name) END';
  return (
    `SELECT json_group_array(c0), json_group_array(c1)${byName ? '' : ', json_group_array(c2)'}` +
    `${duplicates ? ", '[' || group_concat(coalesce(c3, 'null'), ',') || ']'" : ''} ` +
    `FROM (SELECT img_name AS c0, img_page AS c1${byName ? '' : ', img_timestamp AS c2'}${duplicates ? `, ${dups} AS c3` : ''} ${rest})`
  );
}

/**
 * The bound values of list() and listPages() and which clauses their statement has (the shape's bits,
 * the number of MIME types above them), or null when it can match nothing.
 */
function listValues(o: FileListOptions): { shape: number; v: Record<string, unknown> } | null {
  const v: Record<string, unknown> = { limit: o.limit };
  let shape = (o.descending ? 1 : 0) | (o.sort === 'name' ? 2 : 0);
  if (o.sort === 'name') {
    shape |= boundBit(v, 'cont', o.continueName, 4) | titleBoundsBits(o, v, 8);
  } else {
    shape |= boundBit(v, 'user', o.user, 4);
    if (o.continueAt !== undefined) {
      shape |= 8;
      v.contTs = o.continueAt.timestamp;
      v.contName = o.continueAt.name;
    }
    shape |= boundBit(v, 'start', o.start, 16) | boundBit(v, 'end', o.end, 32);
  }
  shape |= boundBit(v, 'minSize', o.minSize, 64) | boundBit(v, 'maxSize', o.maxSize, 128) | boundBit(v, 'sha1', o.sha1, 256);
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
    titleBoundsWhere('img_name', shape, 8, where, ge, le);
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
    where.push(
      '(' + Array.from({ length: mimes }, (_m, i) => `(+img_major_mime = @major${i} AND +img_minor_mime = @minor${i})`).join(' OR ') + ')',
    );
  }
  // the description page: a primary-key seek per file listed, in the loop over the ordered scan
  const from = withPages ? `image LEFT JOIN page ON page_namespace = ${NS_FILE} AND page_title = img_name` : 'image';
  return `FROM ${from}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY ${order} LIMIT @limit`;
}
