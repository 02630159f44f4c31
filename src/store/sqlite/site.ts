import type { Db } from './db.js';
import type { SiteInfoRow, SiteStatistics, SiteStore } from '../site-store.js';
import type { NamespaceInfo } from '../../wiki/namespaces.js';
import { siteFacts, type NamespaceTableRow } from '../site-facts.js';

export class SqliteSiteStore implements SiteStore {
  private readonly info: SiteInfoRow;
  private readonly ns: NamespaceInfo[];
  private readonly stats: SiteStatistics;
  private readonly version: string;

  // Site facts never change while serving (the database is read-only), so they are read once.
  constructor(db: Db) {
    const meta = new Map<string, string>(
      (db.raw.prepare('SELECT key, value FROM meta').all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]),
    );
    const f = siteFacts(meta, db.raw.prepare('SELECT ns_id, ns_name, ns_canonical, ns_case FROM namespace ORDER BY ns_id').all() as NamespaceTableRow[]);
    this.info = f.info;
    this.ns = f.namespaces;
    this.version = String(db.raw.prepare('SELECT sqlite_version()').pluck().get());
    this.stats = f.stats ?? computeStatistics(db);
  }

  async siteInfo(): Promise<SiteInfoRow> {
    return this.info;
  }

  async namespaces(): Promise<NamespaceInfo[]> {
    return this.ns;
  }

  async statistics(): Promise<SiteStatistics> {
    return this.stats;
  }

  readonly dbType = 'sqlite';

  async dbVersion(): Promise<string> {
    return this.version;
  }
}

/** Fallback for databases whose importer did not store statistics: counted once at start-up. */
function computeStatistics(db: Db): SiteStatistics {
  const one = (sql: string) => Number(db.raw.prepare(sql).pluck().get() ?? 0);
  return {
    pages: one('SELECT count(*) FROM page'),
    articles: one("SELECT count(*) FROM page WHERE page_namespace = 0 AND page_is_redirect = 0"),
    edits: one('SELECT coalesce(sum(page_rev_count), 0) FROM page'),
    images: one('SELECT count(*) FROM image'),
    users: 0,
    activeusers: 0,
    admins: 0,
    jobs: 0,
  };
}
