import type { PgDb } from './db.js';
import type { SiteStore } from '../site-store.js';
import { FixedSiteStore, META_SQL, NAMESPACES_SQL, siteFacts } from '../site-facts.js';

/**
 * The site facts of the served import, read once when the pool opens (they never change while it is
 * served). `check` sees the import's meta table before anything is built from it (the schema version).
 */
export async function loadPostgresSiteStore(db: PgDb, check: (meta: Map<string, string>) => void = () => {}): Promise<SiteStore> {
  const [meta, ns, version] = await Promise.all([
    db.all<{ key: string; value: string }>('SiteStore.load', META_SQL),
    db.all('SiteStore.load', NAMESPACES_SQL),
    db.value<string>('SiteStore.load', 'SHOW server_version'),
  ]);
  const metaMap = new Map(meta.map((r) => [r.key, r.value]));
  check(metaMap);
  const f = siteFacts(metaMap, ns);
  if (!f.stats) throw new Error('this import has no statistics (imported by an older wikiquery): import the dump again');
  return new FixedSiteStore(f.info, f.namespaces, f.stats, String(version), 'postgres');
}
