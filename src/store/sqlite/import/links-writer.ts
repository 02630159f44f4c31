/**
 * The import's writes of the link tables: pagelinks and imagelinks staged and moved over sorted at the
 * end, templatelinks and categorylinks queued, the per-page tables (langlinks, page_props, externallinks,
 * iwlinks) written as they come, the interwiki map, and the links a late pass supplements.
 */
import type Database from 'better-sqlite3';
import { withSortMemory } from './build-db.js';
import { RowBuffer } from './row-buffer.js';
import type { InterwikiMap } from '../../../wiki/interwiki.js';
import { urlIndexes } from '../../../wiki/external-urls.js';
import type { CategoryLinkRow, LateLinkCounts, LateLinks, LinkImportWriter, TitleRef } from '../../import-writer.js';

export class LinksWriter implements LinkImportWriter {
  private readonly insExternalLink: Database.Statement;
  private readonly insInterwikiLink: Database.Statement;
  private ins: Record<'ll' | 'pp', Database.Statement> | null = null;
  private staged: { pl: RowBuffer; il: RowBuffer; tl: RowBuffer; cl: RowBuffer } | null = null;
  private late: Record<keyof LateLinkCounts, RowBuffer> | null = null;

  constructor(private readonly db: Database.Database) {
    this.insExternalLink = db.prepare('INSERT INTO externallinks (el_from, el_to, el_index) VALUES (?, ?, ?)');
    this.insInterwikiLink = db.prepare('INSERT OR IGNORE INTO iwlinks (iwl_from, iwl_prefix, iwl_title) VALUES (?, ?, ?)');
  }

  /** The interwiki table: the map the links were read with. */
  interwikiMap(map: InterwikiMap): void {
    const ins = this.db.prepare(
      'INSERT OR REPLACE INTO interwiki (iw_prefix, iw_url, iw_api, iw_local, iw_trans, iw_wikiid, iw_language) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    for (const e of map.entries)
      ins.run(e.prefix, e.url, e.api ?? '', e.local ? 1 : 0, e.trans ? 1 : 0, e.wikiid ?? '', map.isLanguage(e.prefix) ? 1 : 0);
  }

  begin(): void {
    const db = this.db;
    // pagelinks and imagelinks are keyed by target: rows arriving in page order would land all over
    // their B-trees. They are staged in append-only tables and moved over sorted at the end.
    db.exec(`CREATE TABLE tmp_pagelinks (pl_from INTEGER, pl_namespace INTEGER, pl_title TEXT, pl_from_namespace INTEGER);
             CREATE TABLE tmp_imagelinks (il_from INTEGER, il_to TEXT, il_from_namespace INTEGER)`);
    // templatelinks and categorylinks are read by nothing before finish(): queued like the staged ones
    // (an OR IGNORE of a multi-row INSERT skips the same rows as row by row: they go in in order)
    this.staged = {
      pl: new RowBuffer(db, 'INSERT INTO tmp_pagelinks VALUES', 4),
      il: new RowBuffer(db, 'INSERT INTO tmp_imagelinks VALUES', 3),
      tl: new RowBuffer(db, 'INSERT OR IGNORE INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES', 4),
      cl: new RowBuffer(
        db,
        'INSERT OR IGNORE INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_timestamp, cl_type) VALUES',
        6,
      ),
    };
    this.ins = {
      ll: db.prepare('INSERT OR IGNORE INTO langlinks (ll_from, ll_lang, ll_title) VALUES (?, ?, ?)'),
      pp: db.prepare('INSERT OR REPLACE INTO page_props (pp_page, pp_propname, pp_value) VALUES (?, ?, ?)'),
    };
  }

  private get perPageStatements() {
    if (this.ins === null) throw new Error('links.begin() was not called');
    return this.ins;
  }

  pageLink(from: number, fromNs: number, to: TitleRef): void {
    this.staged!.pl.add(from, to.ns, to.dbkey, fromNs);
  }

  imageLink(from: number, fromNs: number, file: string): void {
    this.staged!.il.add(from, file, fromNs);
  }

  templateLink(from: number, fromNs: number, to: TitleRef): void {
    this.staged!.tl.add(from, to.ns, to.dbkey, fromNs);
  }

  categoryLink(r: CategoryLinkRow): undefined {
    this.staged!.cl.add(r.from, r.to, r.sortkey, r.sortkeyPrefix, r.timestamp, r.type);
  }

  langLink(from: number, lang: string, title: string): number {
    return this.perPageStatements.ll.run(from, lang, title).changes;
  }

  /** One row per index form of each URL (LinksUpdate::getExternalInsertions); returns the rows written. */
  externalLinks(from: number, urls: Iterable<string>): number {
    let n = 0;
    for (const url of urls) for (const index of urlIndexes(url)) n += this.insExternalLink.run(from, url, index).changes;
    return n;
  }

  interwikiLinks(from: number, links: Iterable<{ prefix: string; title: string }>): number {
    let n = 0;
    for (const l of links) n += this.insInterwikiLink.run(from, l.prefix, l.title).changes;
    return n;
  }

  pageProp(page: number, name: string, value: string): number {
    return this.perPageStatements.pp.run(page, name, value).changes;
  }

  supplement(from: number, fromNs: number, links: LateLinks): void {
    const db = this.db;
    const b = (this.late ??= {
      pagelinks: new RowBuffer(db, 'INSERT OR IGNORE INTO pagelinks (pl_from, pl_namespace, pl_title, pl_from_namespace) VALUES', 4),
      imagelinks: new RowBuffer(db, 'INSERT OR IGNORE INTO imagelinks (il_from, il_to, il_from_namespace) VALUES', 3),
      templatelinks: new RowBuffer(
        db,
        'INSERT OR IGNORE INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES',
        4,
      ),
      categorylinks: new RowBuffer(
        db,
        'INSERT OR IGNORE INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_sortkey_prefix, cl_timestamp, cl_type) VALUES',
        6,
      ),
    });
    const { pages, templates, categories } = links;
    for (let i = 0; i < pages.length; i += 2) b.pagelinks.add(from, pages[i], pages[i + 1], fromNs);
    for (const f of links.files) b.imagelinks.add(from, f, fromNs);
    for (let i = 0; i < templates.length; i += 2) b.templatelinks.add(from, templates[i], templates[i + 1], fromNs);
    for (let i = 0; i < categories.length; i += 3)
      b.categorylinks.add(from, categories[i], categories[i + 1], categories[i + 2], links.timestamp, links.categoryType);
  }

  flushSupplement(): LateLinkCounts {
    const out: LateLinkCounts = { pagelinks: 0, imagelinks: 0, templatelinks: 0, categorylinks: 0 };
    if (this.late === null) return out;
    for (const k of Object.keys(out) as Array<keyof LateLinkCounts>) {
      const b = this.late[k];
      b.flush();
      out[k] = b.changes;
      b.changes = 0;
    }
    return out;
  }

  finish(): { pagelinks: number; imagelinks: number; templatelinks: number; categorylinks: number } {
    const db = this.db;
    const staged = this.staged;
    if (staged === null) throw new Error('links.begin() was not called');
    for (const b of [staged.pl, staged.il, staged.tl, staged.cl]) b.flush();
    this.staged = null;
    // one row per (page, target) already: the importer hands each target of a page once
    const { pagelinks, imagelinks } = withSortMemory(db, () => ({
      pagelinks: db.prepare('INSERT INTO pagelinks SELECT * FROM tmp_pagelinks ORDER BY pl_namespace, pl_title, pl_from').run().changes,
      imagelinks: db.prepare('INSERT INTO imagelinks SELECT * FROM tmp_imagelinks ORDER BY il_to, il_from').run().changes,
    }));
    db.exec('DROP TABLE tmp_pagelinks; DROP TABLE tmp_imagelinks');
    this.ins = null;
    return { pagelinks, imagelinks, templatelinks: staged.tl.changes, categorylinks: staged.cl.changes };
  }
}
