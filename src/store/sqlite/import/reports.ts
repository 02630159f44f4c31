/**
 * Query-page reports (MediaWiki's querycache), computed at the end of the import with set-based SQL
 * over the finished tables: one INSERT … SELECT per report, rows numbered in final result order
 * (qc_seq), so that list=querypage serves a report with a range scan of (qc_type, qc_seq).
 *
 * Definitions, value columns and sort orders are those of the QueryPage subclasses of MediaWiki 1.25
 * (includes/specials/Special*.php) with $wgContentNamespaces = [0]:
 *
 *   report                   rows                                              value           order
 *   Ancientpages             content pages, no redirects                      latest rev time  value asc
 *   BrokenRedirects          redirects (target ns >= 0) to missing pages       title            target ns, target title, rd_from
 *   Deadendpages             content pages, no redirects, no outgoing links    title            title
 *   DoubleRedirects          redirects to redirects                            title            target ns, target title
 *   ListDuplicatedFiles      files sharing a SHA-1 (first name of each group)  group size       value desc
 *   Listredirects            redirect pages, any namespace                     title            ns, title
 *   Lonelypages              content pages, no redirects, not linked/transcl.  title            title
 *   Longpages / Shortpages   content pages, no redirects                       page_len         value desc / asc
 *   MediaStatistics          (media type, MIME) groups as fake Media: titles   1                media type, count, major, minor (desc)
 *   Mostcategories           content pages in more than one category           categories       value desc
 *   Mostimages               files used more than once                         uses             value desc
 *   Mostinterwikis           content pages with more than one language link    langlinks        value desc
 *   Mostlinkedcategories     categories with members                           cat_pages        value desc
 *   Mostlinkedtemplates      transcluded pages (any namespace)                 transclusions    value desc
 *   Mostlinked               link targets linked more than once                links            value desc
 *   Mostrevisions/Fewestrev. content pages (redirects too) with > 1 revision   revisions        value desc / asc
 *   Uncategorized*           pages of ns 14 / 0 / 6 / 10, no redirects, no categories   title    title
 *   Unusedcategories         category pages without members                    title            title
 *   Unusedimages             files nobody embeds                               upload time      value asc
 *   Wantedcategories/-files/-pages/-templates  missing targets with their link counts  count  value desc
 *   Unusedtemplates          templates nobody transcludes                      title            title
 *   Withoutinterwiki         content pages, no redirects, no language links    title            ns, title
 *   (Unwatchedpages: nothing to compute; anonymous users may not see it.)
 *
 * Values are stored as the strings MediaWiki's database returned (counts as decimal text, titles as
 * DB keys, times as 14 digits). Extra columns of a report's query (BrokenRedirects, DoubleRedirects,
 * Listredirects, Mostlinked, Mostrevisions, Fewestrevisions, Unusedimages) go to qc_extra as a JSON
 * object of strings in column order: ApiQueryQueryPage prints them as databaseResult.
 *
 * Tie-breaker: where MediaWiki orders by the value alone (rows in database order), ties are broken by
 * namespace, then title, ascending (byte order) -- the order MediaWiki itself adopted for the Wanted*
 * reports in 1.29. Ancientpages, Unusedimages, the Most*, Fewestrevisions and Wanted* reports are
 * affected. Where the index MediaWiki reads fixes the order of ties, that order is kept: Shortpages by
 * page id ascending, Longpages by page id descending, ListDuplicatedFiles by SHA-1; DoubleRedirects ties
 * (several redirects to one redirect) go by the redirect's page id, as the redirect index returns them.
 *
 * Cap: none by default. With $wgMiserMode off (the reference wiki) MediaWiki runs every report live,
 * so clients can page through all rows with qpoffset; a 1000-row querycache ($wgQueryCacheLimit) would
 * end the lists early. `opts.maxRows` caps every report for wikis where the size matters (ORDER BY …
 * LIMIT then uses SQLite's top-N sorter). Memory stays bounded either way: SQLite sorts and groups
 * through its pager and temp files, no rows pass through JavaScript.
 */
import type Database from 'better-sqlite3';
import { dateToMw } from '../../../wiki/timestamps.js';
import type { ReportOptions } from '../../import-writer.js';
import { SCHEMA } from '../schema.js';

/** the tables the reports fill */
export const REPORT_TABLES: readonly string[] = ['querycache', 'querycache_info'];

/** the schema's two report tables (the side file of reports-worker.ts holds only these) */
export const REPORT_TABLES_SQL = (SCHEMA.replace(/--[^\n]*/g, '').match(/CREATE TABLE querycache(?:_info)? \([^;]*;/g) ?? []).join('\n');

/** $wgContentNamespaces */
const CONTENT_NS = '(0)';

interface ReportQuery {
  name: string;
  /**
   * A SELECT with the columns value (TEXT), ns, title, extra (JSON text or NULL) and whatever the
   * order needs, without ORDER BY.
   */
  select: string;
  /** ORDER BY terms over the select's columns; must be a total order */
  order: string;
}

/** MySQL's ENUM order of image.img_media_type / img_major_mime (ORDER BY on an ENUM uses its index). */
const MEDIA_TYPE_INDEX = enumIndex('img_media_type', [
  'UNKNOWN',
  'BITMAP',
  'DRAWING',
  'AUDIO',
  'VIDEO',
  'MULTIMEDIA',
  'OFFICE',
  'TEXT',
  'EXECUTABLE',
  'ARCHIVE',
]);
const MAJOR_MIME_INDEX = enumIndex('img_major_mime', [
  'unknown',
  'application',
  'audio',
  'image',
  'text',
  'video',
  'message',
  'model',
  'multipart',
  'chemical',
]);

function enumIndex(column: string, values: string[]): string {
  return `CASE ${column} ${values.map((v, i) => `WHEN '${v}' THEN ${i + 1}`).join(' ')} ELSE 0 END`;
}

/**
 * The page table, read in page id order (NOT INDEXED) by the reports that take most of its rows and
 * sort them themselves. The planner would pick an index on (page_is_redirect, page_namespace, …) and
 * then seek every row in the table in that index's order, i.e. all over it: at 1,000,000 pages
 * Ancientpages read so took 5.3 CPU s instead of 1.8, Mostrevisions 3.8 instead of 0.3.
 */
const ALL_PAGES = 'page NOT INDEXED';

/**
 * Pages of some namespaces, no redirects, without something: the shape of many reports. The content
 * namespace, most of a wiki, is read in page id order when the test seeks by page id: the seeks then
 * walk the other table's B-tree in order instead of jumping around it in title order (at 1,000,000
 * pages, Uncategorizedpages 1.3 → 0.4 CPU s). The rows are sorted for the report either way.
 */
function pagesWithout(name: string, nsList: string, notExists: string): ReportQuery {
  const byId = nsList === CONTENT_NS && /= page_id$/.test(notExists);
  return {
    name,
    select: `SELECT page_title AS value, page_namespace AS ns, page_title AS title, NULL AS extra
      FROM page${byId ? ' NOT INDEXED' : ''} WHERE page_namespace IN ${nsList} AND page_is_redirect = 0 AND NOT EXISTS (${notExists})`,
    order: 'ns, title',
  };
}

/**
 * Content pages (no redirects) by length: Longpages and Shortpages differ only in the order. MediaWiki
 * reads the page_len index, whose ties are in primary key order: page id ascending for Shortpages, and
 * descending for Longpages, which scans the index backwards. The page table is read in page id order
 * (ALL_PAGES): see there.
 */
function byLength(name: string, order: string): ReportQuery {
  return {
    name,
    select: `SELECT CAST(page_len AS TEXT) AS value, page_namespace AS ns, page_title AS title, NULL AS extra, page_len AS k1, page_id AS k2
      FROM ${ALL_PAGES} WHERE page_namespace IN ${CONTENT_NS} AND page_is_redirect = 0`,
    order,
  };
}

/** Content pages (redirects too) with more than one revision: Mostrevisions and Fewestrevisions (ALL_PAGES). */
function byRevisions(name: string, order: string): ReportQuery {
  return {
    name,
    select: `SELECT CAST(page_rev_count AS TEXT) AS value, page_namespace AS ns, page_title AS title,
        json_object('redirect', CAST(page_is_redirect AS TEXT)) AS extra, page_rev_count AS k1
      FROM ${ALL_PAGES} WHERE page_namespace IN ${CONTENT_NS} AND page_rev_count > 1`,
    order,
  };
}

/**
 * Content pages with more than one row in a link table (keyed by its `from` column), most first. The
 * groups come in page id order and each seeks its page (CROSS JOIN keeps that order: without statistics,
 * which the reports run before, the planner indexed the groups and walked the page titles instead).
 */
function mostRowsPerPage(name: string, table: string, fromColumn: string): ReportQuery {
  return {
    name,
    select: `SELECT CAST(g.c AS TEXT) AS value, p.page_namespace AS ns, p.page_title AS title, NULL AS extra, g.c AS k1
      FROM (SELECT ${fromColumn}, COUNT(*) AS c FROM ${table} GROUP BY ${fromColumn} HAVING COUNT(*) > 1) g
      CROSS JOIN page p ON p.page_id = g.${fromColumn} WHERE p.page_namespace IN ${CONTENT_NS}`,
    order: 'k1 DESC, ns, title',
  };
}

export const REPORT_QUERIES: ReportQuery[] = [
  {
    name: 'Ancientpages',
    select: `SELECT latest_timestamp AS value, page_namespace AS ns, page_title AS title, NULL AS extra
      FROM ${ALL_PAGES} WHERE page_namespace IN ${CONTENT_NS} AND page_is_redirect = 0`,
    order: 'value, ns, title',
  },
  {
    name: 'BrokenRedirects',
    select: `SELECT p1.page_title AS value, p1.page_namespace AS ns, p1.page_title AS title,
        json_object('rd_namespace', CAST(rd.rd_namespace AS TEXT), 'rd_title', rd.rd_title) AS extra,
        rd.rd_namespace AS k1, rd.rd_title AS k2, rd.rd_from AS k3
      FROM redirect rd JOIN page p1 ON p1.page_id = rd.rd_from
      WHERE rd.rd_namespace >= 0
        AND NOT EXISTS (SELECT 1 FROM page p2 WHERE p2.page_namespace = rd.rd_namespace AND p2.page_title = rd.rd_title)`,
    order: 'k1, k2, k3',
  },
  pagesWithout('Deadendpages', CONTENT_NS, 'SELECT 1 FROM pagelinks WHERE pl_from = page_id'),
  {
    name: 'DoubleRedirects',
    select: `SELECT pa.page_title AS value, pa.page_namespace AS ns, pa.page_title AS title,
        json_object('nsb', CAST(pb.page_namespace AS TEXT), 'tb', pb.page_title,
                    'nsc', CAST(rb.rd_namespace AS TEXT), 'tc', rb.rd_title, 'iwc', '') AS extra,
        ra.rd_namespace AS k1, ra.rd_title AS k2, ra.rd_from AS k3
      FROM redirect ra JOIN page pa ON pa.page_id = ra.rd_from
      JOIN page pb ON pb.page_namespace = ra.rd_namespace AND pb.page_title = ra.rd_title
      JOIN redirect rb ON rb.rd_from = pb.page_id`,
    order: 'k1, k2, k3',
  },
  {
    name: 'ListDuplicatedFiles',
    // GROUP BY img_sha1 reads the img_sha1 index: equal counts stay in SHA-1 order
    select: `SELECT CAST(COUNT(*) AS TEXT) AS value, 6 AS ns, MIN(img_name) AS title, NULL AS extra, COUNT(*) AS k1, img_sha1 AS k2
      FROM image GROUP BY img_sha1 HAVING COUNT(*) > 1`,
    order: 'k1 DESC, k2',
  },
  {
    name: 'Listredirects',
    select: `SELECT p1.page_title AS value, p1.page_namespace AS ns, p1.page_title AS title,
        json_object('rd_namespace', CAST(rd.rd_namespace AS TEXT), 'rd_title', rd.rd_title, 'rd_fragment', rd.rd_fragment,
                    'rd_interwiki', CASE WHEN rd.rd_from IS NULL THEN NULL ELSE '' END, 'redirid', CAST(p2.page_id AS TEXT)) AS extra
      FROM page p1 LEFT JOIN redirect rd ON rd.rd_from = p1.page_id
      LEFT JOIN page p2 ON p2.page_namespace = rd.rd_namespace AND p2.page_title = rd.rd_title
      WHERE p1.page_is_redirect = 1`,
    order: 'ns, title',
  },
  pagesWithout(
    'Lonelypages',
    CONTENT_NS,
    `SELECT 1 FROM pagelinks WHERE pl_namespace = page_namespace AND pl_title = page_title
     UNION ALL SELECT 1 FROM templatelinks WHERE tl_namespace = page_namespace AND tl_title = page_title`,
  ),
  byLength('Longpages', 'k1 DESC, k2 DESC'),
  {
    name: 'MediaStatistics',
    select: `SELECT '1' AS value, -2 AS ns,
        img_media_type || ';' || img_major_mime || '/' || img_minor_mime || ';' || COUNT(*) || ';' || SUM(img_size) AS title,
        NULL AS extra, ${MEDIA_TYPE_INDEX} AS k1, COUNT(*) AS k2, ${MAJOR_MIME_INDEX} AS k3, img_minor_mime AS k4
      FROM image GROUP BY img_media_type, img_major_mime, img_minor_mime`,
    order: 'k1 DESC, k2 DESC, k3 DESC, k4 DESC, title',
  },
  mostRowsPerPage('Mostcategories', 'categorylinks', 'cl_from'),
  {
    name: 'Mostimages',
    select: `SELECT CAST(COUNT(*) AS TEXT) AS value, 6 AS ns, il_to AS title, NULL AS extra, COUNT(*) AS k1
      FROM imagelinks GROUP BY il_to HAVING COUNT(*) > 1`,
    order: 'k1 DESC, ns, title',
  },
  mostRowsPerPage('Mostinterwikis', 'langlinks', 'll_from'),
  {
    name: 'Mostlinkedcategories',
    select: `SELECT CAST(cat_pages AS TEXT) AS value, 14 AS ns, cat_title AS title, NULL AS extra, cat_pages AS k1
      FROM category WHERE cat_pages > 0`,
    order: 'k1 DESC, ns, title',
  },
  {
    name: 'Mostlinkedtemplates',
    select: `SELECT CAST(COUNT(*) AS TEXT) AS value, tl_namespace AS ns, tl_title AS title, NULL AS extra, COUNT(*) AS k1
      FROM templatelinks GROUP BY tl_namespace, tl_title`,
    order: 'k1 DESC, ns, title',
  },
  {
    name: 'Mostlinked',
    select: `SELECT CAST(g.c AS TEXT) AS value, g.ns AS ns, g.title AS title,
        json_object('page_namespace', CAST(p.page_namespace AS TEXT)) AS extra, g.c AS k1
      FROM (SELECT pl_namespace AS ns, pl_title AS title, COUNT(*) AS c FROM pagelinks GROUP BY pl_namespace, pl_title HAVING COUNT(*) > 1) g
      LEFT JOIN page p ON p.page_namespace = g.ns AND p.page_title = g.title`,
    order: 'k1 DESC, ns, title',
  },
  byRevisions('Mostrevisions', 'k1 DESC, ns, title'),
  byRevisions('Fewestrevisions', 'k1, ns, title'),
  byLength('Shortpages', 'k1, k2'),
  pagesWithout('Uncategorizedcategories', '(14)', 'SELECT 1 FROM categorylinks WHERE cl_from = page_id'),
  pagesWithout('Uncategorizedpages', CONTENT_NS, 'SELECT 1 FROM categorylinks WHERE cl_from = page_id'),
  pagesWithout('Uncategorizedimages', '(6)', 'SELECT 1 FROM categorylinks WHERE cl_from = page_id'),
  pagesWithout('Uncategorizedtemplates', '(10)', 'SELECT 1 FROM categorylinks WHERE cl_from = page_id'),
  pagesWithout('Unusedcategories', '(14)', 'SELECT 1 FROM categorylinks WHERE cl_to = page_title'),
  {
    name: 'Unusedimages',
    select: `SELECT img_timestamp AS value, 6 AS ns, img_name AS title,
        json_object('img_user', CAST(img_user AS TEXT), 'img_user_text', img_user_text, 'img_description', img_description) AS extra
      FROM image WHERE NOT EXISTS (SELECT 1 FROM imagelinks WHERE il_to = img_name)`,
    order: 'value, ns, title',
  },
  {
    name: 'Wantedcategories',
    select: `SELECT CAST(g.c AS TEXT) AS value, 14 AS ns, g.cl_to AS title, NULL AS extra, g.c AS k1
      FROM (SELECT cl_to, COUNT(*) AS c FROM categorylinks GROUP BY cl_to) g
      WHERE NOT EXISTS (SELECT 1 FROM page WHERE page_namespace = 14 AND page_title = g.cl_to)`,
    order: 'k1 DESC, ns, title',
  },
  {
    // a file is wanted when no file of that name exists and its description page (if any) is not a
    // redirect to an existing file
    name: 'Wantedfiles',
    select: `SELECT CAST(g.c AS TEXT) AS value, 6 AS ns, g.il_to AS title, NULL AS extra, g.c AS k1
      FROM (SELECT il_to, COUNT(*) AS c FROM imagelinks GROUP BY il_to) g
      WHERE NOT EXISTS (SELECT 1 FROM image WHERE img_name = g.il_to)
        AND NOT EXISTS (SELECT 1 FROM page p JOIN redirect r ON r.rd_from = p.page_id AND r.rd_namespace = 6
                        JOIN image i2 ON i2.img_name = r.rd_title
                        WHERE p.page_namespace = 6 AND p.page_title = g.il_to)`,
    order: 'k1 DESC, ns, title',
  },
  {
    // links from user (talk) targets are not wanted; links from MediaWiki: pages do not count; a target
    // linked only from redirects is not listed ($wgWantedPagesThreshold = 1). Grouping first finds each
    // missing target once; only links to missing targets are joined with their source page.
    name: 'Wantedpages',
    select: `SELECT CAST(COUNT(*) AS TEXT) AS value, t.ns AS ns, t.title AS title, NULL AS extra, COUNT(*) AS k1
      FROM (SELECT pl_namespace AS ns, pl_title AS title FROM pagelinks WHERE pl_namespace NOT IN (2, 3)
            GROUP BY pl_namespace, pl_title) t
      JOIN pagelinks l ON l.pl_namespace = t.ns AND l.pl_title = t.title
      JOIN page p2 ON p2.page_id = l.pl_from
      WHERE NOT EXISTS (SELECT 1 FROM page p1 WHERE p1.page_namespace = t.ns AND p1.page_title = t.title)
        AND p2.page_namespace <> 8
      GROUP BY t.ns, t.title
      HAVING COUNT(*) > SUM(p2.page_is_redirect)`,
    order: 'k1 DESC, ns, title',
  },
  {
    name: 'Wantedtemplates',
    select: `SELECT CAST(g.c AS TEXT) AS value, g.ns AS ns, g.title AS title, NULL AS extra, g.c AS k1
      FROM (SELECT tl_namespace AS ns, tl_title AS title, COUNT(*) AS c FROM templatelinks GROUP BY tl_namespace, tl_title) g
      WHERE NOT EXISTS (SELECT 1 FROM page WHERE page_namespace = g.ns AND page_title = g.title)`,
    order: 'k1 DESC, ns, title',
  },
  pagesWithout('Unusedtemplates', '(10)', 'SELECT 1 FROM templatelinks WHERE tl_namespace = page_namespace AND tl_title = page_title'),
  pagesWithout('Withoutinterwiki', CONTENT_NS, 'SELECT 1 FROM langlinks WHERE ll_from = page_id'),
];

/**
 * The tables the reports read (every FROM and JOIN of REPORT_QUERIES): complete before the reports start
 * on their thread, and left as they are (rows and indexes) until the import has joined it.
 */
export const REPORT_SOURCE_TABLES: readonly string[] = [
  ...new Set(REPORT_QUERIES.flatMap((q) => [...q.select.matchAll(/\b(?:FROM|JOIN)\s+(\w+)/g)].map((m) => m[1]))),
];

/**
 * Compute every report into querycache (replacing earlier rows of the same report) and record the
 * time in querycache_info. Runs on the finished link tables, before ANALYZE.
 */
export function buildReports(db: Database.Database, opts: ReportOptions = {}): void {
  const cap = opts.maxRows ?? null;
  if (cap !== null && (!Number.isInteger(cap) || cap < 0))
    throw new Error(`buildReports: maxRows must be a non-negative integer, got ${cap}`);
  const now = dateToMw(new Date());
  const clear = db.prepare('DELETE FROM querycache WHERE qc_type = ?');
  const info = db.prepare('INSERT OR REPLACE INTO querycache_info (qci_type, qci_timestamp) VALUES (?, ?)');
  for (const q of REPORT_QUERIES) {
    const t0 = process.hrtime.bigint();
    const inner = cap === null ? q.select : `${q.select} ORDER BY ${q.order} LIMIT ${cap}`;
    const insert = db.prepare(
      `INSERT INTO querycache (qc_type, qc_seq, qc_value, qc_namespace, qc_title, qc_extra)
       SELECT ?, ROW_NUMBER() OVER (ORDER BY ${q.order}) - 1, value, ns, title, extra FROM (${inner})`,
    );
    const rows = db.transaction(() => {
      clear.run(q.name);
      const n = insert.run(q.name).changes;
      info.run(q.name, now);
      return n;
    })();
    opts.onReport?.(q.name, rows, Number(process.hrtime.bigint() - t0) / 1e9);
  }
}
