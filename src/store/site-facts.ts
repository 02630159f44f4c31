/**
 * The site facts of an import as both stores keep them (the `meta` and `namespace` tables), turned into
 * what the site store answers: one reading for every backend.
 */
import type { SiteInfoRow, SiteStatistics, SiteStore } from './site-store.js';
import type { NamespaceInfo } from '../wiki/namespaces.js';

export interface NamespaceTableRow {
  ns_id: number;
  ns_name: string;
  ns_canonical: string | null;
  ns_case: string;
}

export function siteFacts(
  meta: Map<string, string>,
  namespaces: NamespaceTableRow[],
): { info: SiteInfoRow; namespaces: NamespaceInfo[]; stats: SiteStatistics | null } {
  const si = JSON.parse(meta.get('siteinfo') ?? '{}') as Partial<SiteInfoRow>;
  const stored = meta.get('statistics');
  return {
    info: {
      sitename: si.sitename ?? 'Wiki',
      dbname: si.dbname ?? 'wiki',
      base: si.base ?? '',
      generator: si.generator ?? '',
      case: si.case ?? 'first-letter',
      lang: si.lang ?? meta.get('lang') ?? 'uk',
      importTime: meta.get('import_time') ?? '19700101000000',
      importId: meta.get('import_id') ?? '',
    },
    namespaces: namespaces.map((r) => ({
      id: r.ns_id,
      name: r.ns_name,
      canonical: r.ns_canonical ?? undefined,
      case: r.ns_case === 'case-sensitive' ? 'case-sensitive' : 'first-letter',
      subpages: r.ns_id > 0 && (r.ns_id % 2 === 1 || [2, 4, 12, 102].includes(r.ns_id)) ? true : undefined,
      content: r.ns_id === 0 ? true : undefined,
    })),
    stats: stored ? (JSON.parse(stored) as SiteStatistics) : null,
  };
}

/** the site facts' statements (the same text on both engines) */
export const META_SQL = 'SELECT key, value FROM meta';
export const NAMESPACES_SQL = 'SELECT ns_id, ns_name, ns_canonical, ns_case FROM namespace ORDER BY ns_id';

/** A SiteStore over facts read once: they never change while an import is served. */
export class FixedSiteStore implements SiteStore {
  constructor(
    private readonly info: SiteInfoRow,
    private readonly ns: NamespaceInfo[],
    private readonly stats: SiteStatistics,
    private readonly version: string,
    readonly dbType: 'sqlite' | 'postgres',
  ) {}

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
