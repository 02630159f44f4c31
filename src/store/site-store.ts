/** Facts about the imported wiki as a whole. */
import type { NamespaceInfo } from '../wiki/namespaces.js';
import type { SiteInfo } from '../wiki/wiki.js';

/** The wiki's site facts as stored (the shape src/wiki/ works with). */
export type SiteInfoRow = SiteInfo;

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
  siteInfo(): Promise<SiteInfoRow>;
  namespaces(): Promise<NamespaceInfo[]>;
  statistics(): Promise<SiteStatistics>;
  /** version of the database engine */
  dbVersion(): Promise<string>;
  /** the engine, as MediaWiki's siteinfo names it ($wgDBtype) */
  readonly dbType: 'sqlite' | 'postgres';
}
