import type { Db } from './db.js';
import type { SiteInfoRow, SiteStatistics, SiteStore } from '../site-store.js';
import type { NamespaceInfo } from '../../wiki/namespaces.js';

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
    const si = JSON.parse(meta.get('siteinfo') ?? '{}') as Partial<SiteInfoRow>;
    this.info = {
      sitename: si.sitename ?? 'Wiki',
      dbname: si.dbname ?? 'wiki',
      base: si.base ?? '',
      generator: si.generator ?? '',
      case: si.case ?? 'first-letter',
      lang: si.lang ?? meta.get('lang') ?? 'uk',
      importTime: meta.get('import_time') ?? '19700101000000',
      importId: meta.get('import_id') ?? '',
    };
    this.ns = (
      db.raw.prepare('SELECT ns_id, ns_name, ns_canonical, ns_case FROM namespace ORDER BY ns_id').all() as Array<{
        ns_id: number;
        ns_name: string;
        ns_canonical: string | null;
        ns_case: string;
      }>
    ).map((r) => ({
      id: r.ns_id,
      name: r.ns_name,
      canonical: r.ns_canonical ?? undefined,
      case: r.ns_case === 'case-sensitive' ? 'case-sensitive' : 'first-letter',
      subpages: r.ns_id > 0 && (r.ns_id % 2 === 1 || [2, 4, 12, 102].includes(r.ns_id)) ? true : undefined,
      content: r.ns_id === 0 ? true : undefined,
    }));
    this.version = String(db.raw.prepare('SELECT sqlite_version()').pluck().get());
    const stored = meta.get('statistics');
    this.stats = stored ? (JSON.parse(stored) as SiteStatistics) : computeStatistics(db);
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
