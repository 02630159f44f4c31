/**
 * Import-time writes of the link tables added for the page relations (externallinks, iwlinks, interwiki):
 * the importer hands rows here and never writes SQL itself.
 */
import type Database from 'better-sqlite3';
import type { InterwikiMap } from '../../wiki/interwiki.js';
import { urlIndexes } from '../../wiki/external-urls.js';

export class LinksWriter {
  private readonly insEl: Database.Statement;
  private readonly insIwl: Database.Statement;

  constructor(private readonly db: Database.Database) {
    this.insEl = db.prepare('INSERT INTO externallinks (el_from, el_to, el_index) VALUES (?, ?, ?)');
    this.insIwl = db.prepare('INSERT OR IGNORE INTO iwlinks (iwl_from, iwl_prefix, iwl_title) VALUES (?, ?, ?)');
  }

  /** The interwiki table: the map the links were read with. */
  writeInterwikiMap(map: InterwikiMap): void {
    const ins = this.db.prepare('INSERT OR REPLACE INTO interwiki (iw_prefix, iw_url, iw_api, iw_local, iw_trans, iw_wikiid, iw_language) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const e of map.entries) ins.run(e.prefix, e.url, e.api ?? '', e.local ? 1 : 0, e.trans ? 1 : 0, e.wikiid ?? '', map.isLanguage(e.prefix) ? 1 : 0);
  }

  /** One row per index form of each URL (LinksUpdate::getExternalInsertions); returns the rows written. */
  externalLinks(from: number, urls: Iterable<string>): number {
    let n = 0;
    for (const url of urls) for (const index of urlIndexes(url)) n += this.insEl.run(from, url, index).changes;
    return n;
  }

  interwikiLinks(from: number, links: Iterable<{ prefix: string; title: string }>): number {
    let n = 0;
    for (const l of links) n += this.insIwl.run(from, l.prefix, l.title).changes;
    return n;
  }
}
