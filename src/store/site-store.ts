/** Facts about the imported wiki as a whole. */
import type { NamespaceInfo } from '../wiki/namespaces.js';

export interface SiteInfoRow {
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

export interface SiteStatistics {
  pages: number;
  articles: number;
  edits: number;
  images: number;
  users: number;
  activeusers: number;
  admins: number;
  jobs: number;
}

export interface SiteStore {
  siteInfo(): SiteInfoRow;
  namespaces(): NamespaceInfo[];
  statistics(): SiteStatistics;
  /** version of the database engine */
  dbVersion(): string;
}
