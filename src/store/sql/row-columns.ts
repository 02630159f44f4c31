/**
 * The column lists and row mappers of the page, image, revision, user and category member rows, shared by
 * the SQLite and PostgreSQL stores (both read the same schema). camelCase aliases are quoted: PostgreSQL
 * folds unquoted names to lower case, SQLite takes the quoted name as it is. Booleans are stored as 0/1.
 */
import type { CategoryMemberRow } from '../category-link-store.js';
import type { FilePageRow } from '../file-store.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import type { RevisionRecord } from '../history-store.js';
import type { PageRef, PageRow } from '../page-store.js';

export const PAGE_COLUMNS = `page_id AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS "isRedirect",
  page_len AS length, page_latest AS "latestRevId", page_touched AS touched, page_rev_count AS "revCount",
  page_content_model AS "contentModel"`;

export function toPage(r: any): PageRow {
  r.isRedirect = r.isRedirect === 1;
  return r as PageRow;
}

/** PAGE_COLUMNS without their names, in their order (statements that name their columns themselves) */
export const PAGE_COLUMN_LIST = [
  'page_id',
  'page_namespace',
  'page_title',
  'page_is_redirect',
  'page_len',
  'page_latest',
  'page_touched',
  'page_rev_count',
  'page_content_model',
];
/** PAGE_REF_COLUMNS without their names */
export const PAGE_REF_COLUMN_LIST = PAGE_COLUMN_LIST.slice(0, 4);

/** PageRef's columns: what a generator's page rows need to read */
export const PAGE_REF_COLUMNS = `page_id AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS "isRedirect"`;

/** a row of PAGE_REF_COLUMNS (or PAGE_COLUMNS: a PageRow) from column `at` of an array of columns */
export function pageRefFromArray(a: any[], at: number): PageRef {
  if (a.length - at > 4) return pageFromArray(at === 0 ? a : a.slice(at));
  return { pageid: a[at], ns: a[at + 1], title: a[at + 2], isRedirect: a[at + 3] === 1 };
}

/** a PageRow from its columns (the redirect flag as stored, 0/1) */
function fullPage(
  pageid: number,
  ns: number,
  title: string,
  isRedirect: number,
  length: number,
  latestRevId: number,
  touched: string,
  revCount: number,
  contentModel: string,
): PageRow {
  return { pageid, ns, title, isRedirect: isRedirect === 1, length, latestRevId, touched, revCount, contentModel };
}

/**
 * A row of PAGE_COLUMNS read as an array of its columns (better-sqlite3's raw mode): building the object
 * here costs about half of what better-sqlite3 spends on an object row.
 */
export function pageFromArray(a: any[]): PageRow {
  return {
    pageid: a[0],
    ns: a[1],
    title: a[2],
    isRedirect: a[3] === 1,
    length: a[4],
    latestRevId: a[5],
    touched: a[6],
    revCount: a[7],
    contentModel: a[8],
  };
}

export const FILE_COLUMNS = `img_name AS name, img_size AS size, img_width AS width, img_height AS height, img_bits AS bits,
  img_media_type AS "mediaType", img_major_mime AS "majorMime", img_minor_mime AS "minorMime", img_sha1 AS sha1,
  img_user AS "userId", img_user_text AS "userText", img_timestamp AS timestamp, img_description AS description,
  img_metadata AS metadata`;

/**
 * listPages(): the file's name and upload time with its description page (NULL columns when there is
 * none). The page's namespace and title are the file's (the join's condition), so they are not read.
 */
export const PAGE_LIST_COLUMNS = `img_name AS name, img_timestamp AS timestamp, page_id AS pageid, page_is_redirect AS "isRedirect"`;
/** PAGE_LIST_COLUMNS without the upload time: a list by name never needs it (FilePageRow.timestamp) */
export const PAGE_LIST_COLUMNS_BY_NAME = `img_name AS name, page_id AS pageid, page_is_redirect AS "isRedirect"`;
/** PAGE_LIST_COLUMNS with the rest of PageRow */
export const PAGE_LIST_COLUMNS_FULL = `${PAGE_LIST_COLUMNS}, page_len AS length, page_latest AS "latestRevId", page_touched AS touched,
  page_rev_count AS "revCount", page_content_model AS "contentModel"`;

/** a row of PAGE_LIST_COLUMNS */
export function filePage(r: any): FilePageRow {
  return {
    name: r.name,
    timestamp: r.timestamp,
    page:
      r.pageid === null
        ? null
        : r.contentModel === undefined
          ? { pageid: r.pageid, ns: NS_FILE, title: r.name, isRedirect: r.isRedirect === 1 }
          : fullPage(r.pageid, NS_FILE, r.name, r.isRedirect, r.length, r.latestRevId, r.touched, r.revCount, r.contentModel),
  };
}

/** a row of PAGE_LIST_COLUMNS as an array of its columns */
export function filePageFromArray(a: any[]): FilePageRow {
  const name = a[0] as string;
  return {
    name,
    timestamp: a[1],
    page:
      a[2] === null
        ? null
        : a.length === 4
          ? { pageid: a[2], ns: NS_FILE, title: name, isRedirect: a[3] === 1 }
          : fullPage(a[2], NS_FILE, name, a[3], a[4], a[5], a[6], a[7], a[8]),
  };
}

export const REV_COLUMNS = `rev_id AS revid, rev_parent_id AS parentid, rev_page AS pageid, rev_namespace AS ns, rev_timestamp AS timestamp,
  rev_user_text AS "user", rev_user AS userid, rev_comment AS comment, rev_minor_edit AS minor, rev_len AS size, rev_sha1 AS sha1,
  rev_content_model AS "contentModel", rev_content_format AS "contentFormat", rev_deleted AS "textHidden"`;

/** rev_deleted's bits (1 text, 2 comment, 4 user) become the three flags */
export function toRev<T extends RevisionRecord>(r: any): T {
  r.minor = r.minor === 1;
  const bits = r.textHidden as number;
  r.textHidden = (bits & 1) !== 0;
  r.commentHidden = (bits & 2) !== 0;
  r.userHidden = (bits & 4) !== 0;
  return r as T;
}

export const USER_COLUMNS = 'user_id AS userid, user_name AS name, user_editcount AS editcount, user_registration AS registration';

export const MEMBER_COLUMNS = `cl_from AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS "isRedirect",
  cl_sortkey AS sortkey, cl_sortkey_prefix AS "sortkeyPrefix", cl_type AS type, cl_timestamp AS timestamp`;

export function toMember(r: any): CategoryMemberRow {
  r.isRedirect = r.isRedirect === 1;
  return r as CategoryMemberRow;
}
