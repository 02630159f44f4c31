/**
 * Derived tables, computed by SQL over the finished link tables (set-based: nothing here grows with
 * the wiki in JS memory).
 *
 * `category`: one row per category that has members or a description page, as recountCategories.php
 * leaves it: cat_pages counts every member (pages, subcategories and files), cat_subcats and cat_files
 * the two kinds, cat_hidden whether the category page carries __HIDDENCAT__.
 */
import type Database from 'better-sqlite3';
import { NS_CATEGORY } from '../wiki/namespaces.js';
import type { SiteStatistics } from '../store/site-store.js';

export function buildCategoryTable(db: Database.Database): number {
  db.transaction(() => {
    // cl_to order (the cl_to_sortkey index) gives cat_id in name order, like a fresh recount
    db.exec(`
      INSERT INTO category (cat_title, cat_pages, cat_subcats, cat_files)
      SELECT cl_to, COUNT(*), SUM(cl_type = 'subcat'), SUM(cl_type = 'file')
      FROM categorylinks GROUP BY cl_to ORDER BY cl_to`);
    db.prepare('INSERT OR IGNORE INTO category (cat_title) SELECT page_title FROM page WHERE page_namespace = ? ORDER BY page_title').run(NS_CATEGORY);
    db.prepare(
      `UPDATE category SET cat_hidden = 1 WHERE cat_title IN (
         SELECT p.page_title FROM page_props pp JOIN page p ON p.page_id = pp.pp_page
         WHERE pp.pp_propname = 'hiddencat' AND p.page_namespace = ?)`,
    ).run(NS_CATEGORY);
  })();
  return db.prepare('SELECT COUNT(*) FROM category').pluck().get() as number;
}

/**
 * Site statistics as initSiteStats.php computes them ($wgArticleCountMethod = 'link': a content page
 * that is no redirect and links somewhere), stored as JSON in meta('statistics') in the shape of
 * SiteStatistics (src/store/site-store.ts). A dump has no user table, groups or job queue: those are 0.
 */
export function siteStatistics(db: Database.Database): SiteStatistics {
  const one = (sql: string) => db.prepare(sql).pluck().get() as number;
  return {
    pages: one('SELECT COUNT(*) FROM page'),
    articles: one(
      'SELECT COUNT(*) FROM page WHERE page_namespace = 0 AND page_is_redirect = 0 AND EXISTS (SELECT 1 FROM pagelinks WHERE pl_from = page_id)',
    ),
    edits: one('SELECT COALESCE(SUM(page_rev_count), 0) FROM page'),
    images: one('SELECT COUNT(*) FROM image'),
    users: 0,
    activeusers: 0,
    admins: 0,
    jobs: 0,
  };
}
