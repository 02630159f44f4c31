import type { PgDb } from './db.js';
import type { SiteInfoRow, SiteStatistics, SiteStore } from '../site-store.js';
import type { NamespaceInfo } from '../../wiki/namespaces.js';
import { siteFacts } from '../site-facts.js';

export class PostgresSiteStore implements SiteStore {
  private constructor(
    private readonly info: SiteInfoRow,
    private readonly ns: NamespaceInfo[],
    private readonly stats: SiteStatistics,
    private readonly version: string,
  ) {}

  // Site facts never change while an import is served, so they are read once when the pool opens.
  /** `check` sees the import's meta table before anything is built from it (the schema version). */
  static async load(db: PgDb, check: (meta: Map<string, string>) => void = () => {}): Promise<PostgresSiteStore> {
    const [meta, ns, version] = await Promise.all([
      db.all<{ key: string; value: string }>('SiteStore.load', 'SELECT key, value FROM meta'),
      db.all('SiteStore.load', 'SELECT ns_id, ns_name, ns_canonical, ns_case FROM namespace ORDER BY ns_id'),
      db.value<string>('SiteStore.load', 'SHOW server_version'),
    ]);
    const metaMap = new Map(meta.map((r) => [r.key, r.value]));
    check(metaMap);
    const f = siteFacts(metaMap, ns);
    if (!f.stats) throw new Error('this import has no statistics (imported by an older wikiquery): import the dump again');
    return new PostgresSiteStore(f.info, f.namespaces, f.stats, String(version));
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

  readonly dbType = 'postgres';

  async dbVersion(): Promise<string> {
    return this.version;
  }
}
