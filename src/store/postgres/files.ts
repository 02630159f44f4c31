import type { PgDb } from './db.js';
import {
  sameContentRows,
  type FileListOptions,
  type FilePageRow,
  type FileRow,
  type FileStore,
  type SameContentRow,
} from '../file-store.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { FILE_COLUMNS, PAGE_LIST_COLUMNS, PAGE_LIST_COLUMNS_BY_NAME, PAGE_LIST_COLUMNS_FULL, filePage } from '../sql/row-columns.js';
import { titleBounds, whereBound } from '../sql/prefix-range.js';

export class PostgresFileStore implements FileStore {
  constructor(private readonly db: PgDb) {}

  async storedPath(name: string): Promise<string | undefined> {
    return this.db.value<string>('FileStore.storedPath', 'SELECT img_path FROM image WHERE img_name = $1', [name]);
  }

  // Primary-key seeks; rows in name order, the order SQLite's `IN (json_each)` walks its sorted list in,
  // so that the Set and Map iterate alike on both stores.
  async existing(names: readonly string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows = await this.db.all<{ img_name: string }>(
      'FileStore.existing',
      'SELECT img_name FROM image WHERE img_name = ANY($1::text[]) ORDER BY img_name',
      [names],
    );
    return new Set(rows.map((r) => r.img_name));
  }

  async byNames(names: readonly string[]): Promise<Map<string, FileRow>> {
    const out = new Map<string, FileRow>();
    if (names.length === 0) return out;
    const rows = await this.db.all<FileRow>(
      'FileStore.byNames',
      `SELECT ${FILE_COLUMNS} FROM image WHERE img_name = ANY($1::text[]) ORDER BY img_name`,
      [names],
    );
    for (const r of rows) out.set(r.name, r);
    return out;
  }

  /**
   * A primary-key seek per file of the batch for the duplicates the import wrote into its row (img_dups),
   * rows in batch order as on SQLite, whose loop follows the JSON array.
   */
  async sameContent(names: readonly string[]): Promise<Map<string, SameContentRow[]>> {
    const out = new Map<string, SameContentRow[]>();
    if (names.length === 0) return out;
    const rows = await this.db.all<{ file: string; dups: string }>(
      'FileStore.sameContent',
      `SELECT f.img_name AS file, f.img_dups AS dups FROM unnest($1::text[]) WITH ORDINALITY AS t(name, i) JOIN image f ON f.img_name = t.name
       WHERE f.img_dups IS NOT NULL ORDER BY t.i`,
      [names],
    );
    for (const r of rows) out.set(r.file, sameContentRows(r.dups)!);
    return out;
  }

  /**
   * One range scan along the index of the sort order: the primary key for sort=name, img_timestamp
   * (img_user_timestamp with a user) for sort=timestamp; size and MIME filters are checked row by row
   * along it; a SHA-1 narrows to the img_sha1 index.
   */
  async list(o: FileListOptions): Promise<FileRow[]> {
    const q = listQuery(o, FILE_COLUMNS, false);
    return q ? await this.db.named<FileRow>('FileStore.list', q.sql, q.v) : [];
  }

  async listPages(o: FileListOptions, full = false, duplicates = false): Promise<FilePageRow[]> {
    const columns = full ? PAGE_LIST_COLUMNS_FULL : o.sort === 'name' ? PAGE_LIST_COLUMNS_BY_NAME : PAGE_LIST_COLUMNS;
    const q = listQuery(o, duplicates ? `${columns}, img_dups AS dups` : columns, true);
    if (!q) return [];
    const rows = await this.db.named('FileStore.list', q.sql, q.v);
    const out: FilePageRow[] = [];
    for (const r of rows) {
      const row = filePage(r);
      if (duplicates) row.duplicates = sameContentRows(r.dups);
      out.push(row);
    }
    return out;
  }
}

/** the statement of list() and listPages(), or null when it can match nothing */
function listQuery(o: FileListOptions, columns: string, withPages: boolean): { sql: string; v: Record<string, unknown> } | null {
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
    titleBounds('img_name', o, where, v, ge, le);
    order = `img_name${dir}`;
  } else {
    whereBound(where, v, 'img_user_text = @user', 'user', o.user);
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
  whereBound(where, v, 'img_size >= @minSize', 'minSize', o.minSize);
  whereBound(where, v, 'img_size <= @maxSize', 'maxSize', o.maxSize);
  whereBound(where, v, 'img_sha1 = @sha1', 'sha1', o.sha1);
  if (o.mimes !== undefined) {
    if (o.mimes.length === 0) return null;
    // the MIME pairs as two arrays: one statement text whatever their number
    where.push(
      'EXISTS (SELECT 1 FROM unnest(@majors::text[], @minors::text[]) AS m(major, minor) WHERE m.major = img_major_mime AND m.minor = img_minor_mime)',
    );
    v.majors = o.mimes.map((m) => m[0]);
    v.minors = o.mimes.map((m) => m[1]);
  }
  // the description page: a primary-key seek per file listed, so the generator's page set needs no second round trip
  const from = withPages ? `image LEFT JOIN page ON page_namespace = ${NS_FILE} AND page_title = img_name` : 'image';
  return { sql: `SELECT ${columns} FROM ${from}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY ${order} LIMIT @limit`, v };
}
