import type { Db, Statement } from './db.js';
import type { FileListOptions, FilePageRow, FileRow, FileStore, SameContentRow } from '../file-store.js';
import { StatementCache, jsonRowsHead, jsonRowsSql, prefixEnd } from './statement-cache.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { FILE_COLUMNS, filePageFromArray } from '../row-columns.js';

export class SqliteFileStore implements FileStore {
  private readonly existingStmt: Statement<[string]>;
  private readonly byNamesStmt: Statement<[string]>;
  private readonly sameContentStmt: Statement<[string]>;
  private readonly lists: StatementCache;
  private readonly pathStmt: Statement<[string]>;

  constructor(private readonly db: Db) {
    this.existingStmt = db.prepare('FileStore.existing', 'SELECT img_name FROM image WHERE img_name IN (SELECT value FROM json_each(?))', true);
    this.byNamesStmt = db.prepare('FileStore.byNames', `SELECT ${FILE_COLUMNS} FROM image WHERE img_name IN (SELECT value FROM json_each(?))`);
    // a primary-key seek per file, then index img_sha1 (img_sha1, img_name): a seek, already in name order
    // (CROSS JOIN fixes the loop order, so no sort is needed); the file itself is dropped on the index
    // entry, before its row is read. The rows as one JSON text (StatementCache.jsonRows), each naming its
    // file by its place in the batch.
    this.sameContentStmt = db.prepare(
      'FileStore.sameContent',
      jsonRowsSql(
        ['j.key', 'd.img_name', 'd.img_user_text', 'd.img_timestamp'],
        'FROM json_each(?) j CROSS JOIN image f ON f.img_name = j.value CROSS JOIN image d INDEXED BY img_sha1 ON d.img_sha1 = f.img_sha1 AND d.img_name <> f.img_name',
      ),
      true,
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
    const q = listQuery(o, false);
    return q ? this.lists.all<FileRow>(`SELECT ${FILE_COLUMNS} ${q.rest}`, q.v) : [];
  }

  async listPages(o: FileListOptions, full = false): Promise<FilePageRow[]> {
    const q = listQuery(o, true);
    if (!q) return [];
    const out: FilePageRow[] = [];
    for (const r of this.lists.jsonRows(full ? PAGE_LIST_FULL : PAGE_LIST, q.rest, q.v)) out.push(filePageFromArray(r));
    return out;
  }
}

/** listPages()' columns (PAGE_LIST_COLUMNS, PAGE_LIST_COLUMNS_FULL), in their order */
const PAGE_LIST_COLUMNS = ['img_name', 'img_timestamp', 'page_id', 'page_is_redirect'];
const PAGE_LIST = jsonRowsHead(PAGE_LIST_COLUMNS);
const PAGE_LIST_FULL = jsonRowsHead([...PAGE_LIST_COLUMNS, 'page_len', 'page_latest', 'page_touched', 'page_rev_count', 'page_content_model']);

/** the statement of list() and listPages() from its FROM on, or null when it can match nothing */
function listQuery(o: FileListOptions, withPages: boolean): { rest: string; v: Record<string, unknown> } | null {
  const where: string[] = [];
  const v: Record<string, unknown> = { limit: o.limit };
  const [ge, le] = o.descending ? ['<=', '>='] : ['>=', '<='];
  const dir = o.descending ? ' DESC' : '';
  let order: string;
  if (o.sort === 'name') {
    if (o.continueName !== undefined) {
      where.push(`img_name ${ge} @cont`);
      v.cont = o.continueName;
    }
    if (o.from !== undefined) {
      where.push(`img_name ${ge} @from`);
      v.from = o.from;
    }
    if (o.to !== undefined) {
      where.push(`img_name ${le} @to`);
      v.to = o.to;
    }
    if (o.prefix !== undefined && o.prefix !== '') {
      where.push('img_name >= @prefix AND img_name < @prefixEnd');
      v.prefix = o.prefix;
      v.prefixEnd = prefixEnd(o.prefix);
    }
    order = `img_name${dir}`;
  } else {
    if (o.user !== undefined) {
      where.push('img_user_text = @user');
      v.user = o.user;
    }
    if (o.continueAt !== undefined) {
      where.push(`(img_timestamp, img_name) ${ge} (@contTs, @contName)`);
      v.contTs = o.continueAt.timestamp;
      v.contName = o.continueAt.name;
    }
    if (o.start !== undefined) {
      where.push(`img_timestamp ${ge} @start`);
      v.start = o.start;
    }
    if (o.end !== undefined) {
      where.push(`img_timestamp ${le} @end`);
      v.end = o.end;
    }
    order = `img_timestamp${dir}, img_name${dir}`;
  }
  if (o.minSize !== undefined) {
    where.push('+img_size >= @minSize');
    v.minSize = o.minSize;
  }
  if (o.maxSize !== undefined) {
    where.push('+img_size <= @maxSize');
    v.maxSize = o.maxSize;
  }
  if (o.sha1 !== undefined) {
    where.push('img_sha1 = @sha1');
    v.sha1 = o.sha1;
  }
  if (o.mimes !== undefined) {
    if (o.mimes.length === 0) return null;
    where.push('(' + o.mimes.map((_m, i) => `(+img_major_mime = @major${i} AND +img_minor_mime = @minor${i})`).join(' OR ') + ')');
    o.mimes.forEach(([major, minor], i) => {
      v['major' + i] = major;
      v['minor' + i] = minor;
    });
  }
  // the description page: a primary-key seek per file listed, in the loop over the ordered scan
  const from = withPages ? `image LEFT JOIN page ON page_namespace = ${NS_FILE} AND page_title = img_name` : 'image';
  return { rest: `FROM ${from}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY ${order} LIMIT @limit`, v };
}
