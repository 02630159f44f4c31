/**
 * Wiki knowledge for one imported wiki: its site facts and the title codec built from its namespaces.
 * Built once when the server opens a database.
 */
import { TitleCodec } from './titles.js';
import { InterwikiMap, type InterwikiEntry } from './interwiki.js';
import { DEFAULT_ALIASES, type NamespaceInfo } from './namespaces.js';

/** The facts of an imported wiki that titles and output depend on. */
export interface SiteInfo {
  sitename: string;
  dbname: string;
  /** URL of the main page as the dump's <siteinfo><base> gives it */
  base: string;
  /** generator string of the dump (the exporting MediaWiki) */
  generator: string;
  case: string;
  lang: string;
  /** when the import ran, TS_MW */
  importTime: string;
  /** unique per import run ('' for databases imported before it was recorded): tells a re-import from the file it replaced */
  importId: string;
}

/** Where the site facts come from (the store's site area, in practice). */
export interface SiteFactsSource {
  siteInfo(): Promise<SiteInfo>;
  namespaces(): Promise<NamespaceInfo[]>;
}

/** The interwiki map an import stored: the one its links were read with (the store's relations area). */
export interface StoredInterwikiSource {
  interwikiMap(): Promise<InterwikiEntry[]>;
}

/** The MediaWiki version whose API we speak: clients read it from siteinfo's generator. */
export const MEDIAWIKI_VERSION = '1.25.4';
export const WIKIQUERY_VERSION = '0.1.0';

export class Wiki {
  readonly codec: TitleCodec;
  /** the interwiki map (MediaWiki's default list unless the operator gives one) */
  interwiki: InterwikiMap = InterwikiMap.defaults();
  /**
   * The map is not the one the import read the links with (serve --interwiki): pages rendered at import
   * (--render) show the import's language and interwiki links, so they are not served.
   */
  interwikiReplaced = false;

  static async load(site: SiteFactsSource): Promise<Wiki> {
    const [info, namespaces] = await Promise.all([site.siteInfo(), site.namespaces()]);
    return new Wiki(info, namespaces);
  }

  /**
   * The Wiki a database is served with, and rendered with at import (--render): its site facts, and the
   * operator's interwiki map when given (serve --interwiki), else the map the import read the links with
   * when the database has one, else MediaWiki's default list.
   */
  static async forServing(site: SiteFactsSource, stored: StoredInterwikiSource, operatorMap?: InterwikiMap): Promise<Wiki> {
    const wiki = await Wiki.load(site);
    if (operatorMap) {
      wiki.interwiki = operatorMap;
      wiki.interwikiReplaced = true;
    } else {
      const imported = await stored.interwikiMap();
      if (imported.length) wiki.interwiki = new InterwikiMap(imported);
    }
    return wiki;
  }

  constructor(
    readonly info: SiteInfo,
    ns: NamespaceInfo[],
  ) {
    this.codec = ns.length ? new TitleCodec({ namespaces: ns, aliases: DEFAULT_ALIASES }) : TitleCodec.forSite(this.info.sitename);
  }

  /** The namespace ids a 'namespace' parameter accepts, as strings (MWNamespace::getValidNamespaces: ids ≥ 0). */
  get namespaceIds(): readonly string[] {
    return (this.nsIds ??= [...this.codec.namespaces.keys()]
      .filter((id) => id >= 0)
      .sort((a, b) => a - b)
      .map(String));
  }

  private nsIds?: string[];

  get lang(): string {
    return this.info.lang;
  }

  /** Title text with the localized namespace prefix and spaces. */
  titleText(ns: number, dbkey: string): string {
    return this.codec.prefixedText(ns, dbkey);
  }

  /**
   * The namespace prefix whose DB key form, before a DB key, reads as titleText once underscores are
   * shown as spaces (a RowShape's spaced member); undefined when there is none (TitleCodec.keyPrefix).
   */
  keyPrefix(ns: number): string | undefined {
    return this.codec.keyPrefix(ns);
  }
}
