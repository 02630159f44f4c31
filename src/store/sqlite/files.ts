import type { Db, Statement } from './db.js';
import type { FileListOptions, FileListRow, FileRow, FileStore, SameContentRow } from '../file-store.js';
import { StatementCache, prefixEnd } from './statement-cache.js';
import { NS_FILE } from '../../wiki/namespaces.js';

const FILE_COLUMNS = `img_name AS name, img_size AS size, img_width AS width, img_height AS height, img_bits AS bits,
  img_media_type AS mediaType, img_major_mime AS majorMime, img_minor_mime AS minorMime, img_sha1 AS sha1,
  img_user AS userId, img_user_text AS userText, img_timestamp AS timestamp, img_description AS description,
  img_metadata AS metadata`;

/** the description page's columns next to the file's (NULL when there is none) */
const DESCRIPTION_PAGE_COLUMNS = `page_id AS p_pageid, page_namespace AS p_ns, page_title AS p_title, page_is_redirect AS p_isRedirect,
  page_len AS p_length, page_latest AS p_latestRevId, page_touched AS p_touched, page_rev_count AS p_revCount,
  page_content_model AS p_contentModel`;

/**
 * A row of list() with DESCRIPTION_PAGE_COLUMNS: the file with its page. Written out field by field
 * (the file's in FILE_COLUMNS' order): a rest pattern over the row cost several µs per row.
 */
function withPage(r: any): FileListRow {
  return {
    name: r.name,
    size: r.size,
    width: r.width,
    height: r.height,
    bits: r.bits,
    mediaType: r.mediaType,
    majorMime: r.majorMime,
    minorMime: r.minorMime,
    sha1: r.sha1,
    userId: r.userId,
    userText: r.userText,
    timestamp: r.timestamp,
    description: r.description,
    metadata: r.metadata,
    page:
      r.p_pageid === null
        ? null
        : {
            pageid: r.p_pageid,
            ns: r.p_ns,
            title: r.p_title,
            isRedirect: r.p_isRedirect === 1,
            length: r.p_length,
            latestRevId: r.p_latestRevId,
            touched: r.p_touched,
            revCount: r.p_revCount,
            contentModel: r.p_contentModel,
          },
  };
}

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
    // (CROSS JOIN fixes the loop order, so no sort is needed)
    this.sameContentStmt = db.prepare(
      'FileStore.sameContent',
      `SELECT f.img_name AS file, d.img_name AS name, d.img_user_text AS userText, d.img_timestamp AS timestamp
       FROM json_each(?) j CROSS JOIN image f ON f.img_name = j.value CROSS JOIN image d INDEXED BY img_sha1 ON d.img_sha1 = f.img_sha1`,
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
    for (const r of this.sameContentStmt.all(JSON.stringify(names))) {
      let list = out.get(r.file);
      if (!list) out.set(r.file, (list = []));
      list.push({ name: r.name, userText: r.userText, timestamp: r.timestamp });
    }
    return out;
  }

  /**
   * One range scan along the index of the sort order: the primary key for sort=name, img_timestamp
   * (img_user_timestamp with a user) for sort=timestamp. Size and MIME filters are checked row by row
   * along it (their columns are written `+col` so the planner never trades the ordered scan for a sort);
   * a SHA-1 narrows to the img_sha1 index, which is as selective as it gets.
   */
  async list(o: FileListOptions): Promise<FileListRow[]> {
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
      if (o.mimes.length === 0) return [];
      where.push('(' + o.mimes.map((_m, i) => `(+img_major_mime = @major${i} AND +img_minor_mime = @minor${i})`).join(' OR ') + ')');
      o.mimes.forEach(([major, minor], i) => {
        v['major' + i] = major;
        v['minor' + i] = minor;
      });
    }
    // the description page: a primary-key seek per file listed, in the loop over the ordered scan
    const from = o.withPages ? `image LEFT JOIN page ON page_namespace = ${NS_FILE} AND page_title = img_name` : 'image';
    const sql = `SELECT ${FILE_COLUMNS}${o.withPages ? ', ' + DESCRIPTION_PAGE_COLUMNS : ''} FROM ${from}${where.length ? ' WHERE ' + where.join(' AND ') : ''} ORDER BY ${order} LIMIT @limit`;
    const rows = this.lists.all<FileRow>(sql, v);
    return o.withPages ? rows.map(withPage) : rows;
  }
}
