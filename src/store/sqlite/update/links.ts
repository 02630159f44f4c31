/**
 * Links and categories on the live tables: a page's link rows and page_props as pass 2 writes them, cleared
 * before it is analysed again; category counts moved row by row and category rows kept as
 * recountCategories leaves them.
 */
import type Database from 'better-sqlite3';
import { urlIndexes } from '../../../wiki/external-urls.js';
import { NS_CATEGORY } from '../../../wiki/namespaces.js';
import type { CategoryLinkRow } from '../../import-writer.js';
import type { PageLinkRows } from '../../import-writer.js';
import type { UpdateWriter } from '../../update-writer.js';

type Kind = CategoryLinkRow['type'];

/** the link tables and the column of the page their rows are from */
const LINK_TABLES: ReadonlyArray<readonly [string, string]> = [
  ['pagelinks', 'pl_from'],
  ['imagelinks', 'il_from'],
  ['templatelinks', 'tl_from'],
  ['categorylinks', 'cl_from'],
  ['langlinks', 'll_from'],
  ['externallinks', 'el_from'],
  ['iwlinks', 'iwl_from'],
  ['page_props', 'pp_page'],
];

export function sqliteLinkUpdates(db: Database.Database): UpdateWriter['links'] {
  const p = (sql: string) => db.prepare(sql);
  const categoriesOf = p('SELECT cl_to AS category, cl_type AS type FROM categorylinks WHERE cl_from = ?');
  const clear = LINK_TABLES.map(([table, from]) => p(`DELETE FROM ${table} WHERE ${from} = ?`));
  const s = {
    insPl: p('INSERT OR IGNORE INTO pagelinks (pl_from, pl_namespace, pl_title, pl_from_namespace) VALUES (?, ?, ?, ?)'),
    insIl: p('INSERT OR IGNORE INTO imagelinks (il_from, il_to, il_from_namespace) VALUES (?, ?, ?)'),
    insTl: p('INSERT OR IGNORE INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES (?, ?, ?, ?)'),
    insCl: p(
      'INSERT OR IGNORE INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_timestamp, cl_type) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    insLl: p('INSERT OR IGNORE INTO langlinks (ll_from, ll_lang, ll_title) VALUES (?, ?, ?)'),
    insEl: p('INSERT INTO externallinks (el_from, el_to, el_index) VALUES (?, ?, ?)'),
    insIwl: p('INSERT OR IGNORE INTO iwlinks (iwl_from, iwl_prefix, iwl_title) VALUES (?, ?, ?)'),
    insPp: p('INSERT OR REPLACE INTO page_props (pp_page, pp_propname, pp_value) VALUES (?, ?, ?)'),
    hasPl: p('SELECT 1 FROM pagelinks INDEXED BY pl_from WHERE pl_from = ? LIMIT 1').pluck(),
    linksTo: p('SELECT 1 FROM pagelinks INDEXED BY pl_from WHERE pl_from = ? AND pl_namespace = ? AND pl_title = ?').pluck(),
  };
  const rows: PageLinkRows = {
    pageLink: (from, fromNs, to) => void s.insPl.run(from, to.ns, to.dbkey, fromNs),
    imageLink: (from, fromNs, file) => void s.insIl.run(from, file, fromNs),
    templateLink: (from, fromNs, to) => void s.insTl.run(from, to.ns, to.dbkey, fromNs),
    categoryLink: (r) => s.insCl.run(r.from, r.to, r.sortkey, r.sortkeyPrefix, r.timestamp, r.type).changes,
    langLink: (from, lang, title) => s.insLl.run(from, lang, title).changes,
    externalLinks: (from, urls) => {
      let n = 0;
      for (const url of urls) for (const index of urlIndexes(url)) n += s.insEl.run(from, url, index).changes;
      return n;
    },
    interwikiLinks: (from, links) => {
      let n = 0;
      for (const l of links) n += s.insIwl.run(from, l.prefix, l.title).changes;
      return n;
    },
    pageProp: (page, name, value) => s.insPp.run(page, name, value).changes,
  };
  return {
    clear: (page) => {
      const old = categoriesOf.all(page) as Array<{ category: string; type: Kind }>;
      for (const st of clear) st.run(page);
      return old;
    },
    rows,
    categoriesOf: (page) => categoriesOf.all(page) as Array<{ category: string; type: Kind }>,
    hasPageLinks: (page) => s.hasPl.get(page) !== undefined,
    linksTo: (from, to) => s.linksTo.get(from, to.ns, to.dbkey) !== undefined,
  };
}

export function sqliteCategoryUpdates(db: Database.Database): UpdateWriter['categories'] {
  const p = (sql: string) => db.prepare(sql);
  const s = {
    catCount: p(
      `INSERT INTO category (cat_title, cat_pages, cat_subcats, cat_files) VALUES (?, ?, ?, ?)
       ON CONFLICT (cat_title) DO UPDATE SET cat_pages = cat_pages + excluded.cat_pages, cat_subcats = cat_subcats + excluded.cat_subcats,
         cat_files = cat_files + excluded.cat_files`,
    ),
    catRow: p('SELECT cat_pages AS pages FROM category WHERE cat_title = ?'),
    catPage: p(
      `SELECT page_id AS id, EXISTS (SELECT 1 FROM page_props WHERE pp_page = page_id AND pp_propname = 'hiddencat') AS hidden
       FROM page WHERE page_namespace = ${NS_CATEGORY} AND page_title = ?`,
    ),
    catInsert: p('INSERT OR IGNORE INTO category (cat_title) VALUES (?)'),
    catHidden: p('UPDATE category SET cat_hidden = ? WHERE cat_title = ?'),
    catDelete: p('DELETE FROM category WHERE cat_title = ?'),
  };
  return {
    count: (category, type, delta) => void s.catCount.run(category, delta, type === 'subcat' ? delta : 0, type === 'file' ? delta : 0),
    settle: (category) => {
      const row = s.catRow.get(category) as { pages: number } | undefined;
      const page = s.catPage.get(category) as { id: number; hidden: number } | undefined;
      if (page === undefined && (row === undefined || row.pages <= 0)) {
        if (row !== undefined) s.catDelete.run(category);
        return;
      }
      if (row === undefined) s.catInsert.run(category);
      s.catHidden.run(page?.hidden ?? 0, category);
    },
  };
}
