/**
 * Wiki knowledge for one imported wiki: its site facts and the title codec built from its namespaces.
 * Built once when the server opens a database.
 */
import { TitleCodec } from './titles.js';
import { DEFAULT_ALIASES } from './namespaces.js';
import { InterwikiMap } from './interwiki.js';
import type { SiteStore, SiteInfoRow } from '../store/site-store.js';

/** The MediaWiki version whose API we speak: clients read it from siteinfo's generator. */
export const MEDIAWIKI_VERSION = '1.25.4';
export const WIKIQUERY_VERSION = '0.1.0';

export class Wiki {
  readonly codec: TitleCodec;
  readonly info: SiteInfoRow;
  /** the interwiki map (MediaWiki's default list unless the operator gives one) */
  interwiki: InterwikiMap = InterwikiMap.defaults();

  constructor(site: SiteStore) {
    this.info = site.siteInfo();
    const ns = site.namespaces();
    this.codec = ns.length
      ? new TitleCodec({ namespaces: ns, aliases: DEFAULT_ALIASES })
      : TitleCodec.forSite(this.info.sitename);
  }

  get lang(): string {
    return this.info.lang;
  }

  /** Title text with the localized namespace prefix and spaces. */
  titleText(ns: number, dbkey: string): string {
    return this.codec.prefixedText(ns, dbkey);
  }
}
