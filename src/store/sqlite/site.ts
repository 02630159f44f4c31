import type { Db } from './db.js';
import type { SiteStatistics, SiteStore } from '../site-store.js';
import { FixedSiteStore, META_SQL, NAMESPACES_SQL, siteFacts, type NamespaceTableRow } from '../site-facts.js';

/** The site facts of the served database, read once (the database is read-only while served). */
export function readSqliteSiteStore(db: Db): SiteStore {
  const meta = new Map<string, string>(
    (db.raw.prepare(META_SQL).all() as Array<{ key: string; value: string }>).map((r) => [r.key, r.value]),
  );
  const f = siteFacts(meta, db.raw.prepare(NAMESPACES_SQL).all() as NamespaceTableRow[]);
  const version = String(db.raw.prepare('SELECT sqlite_version()').pluck().get());
  return new FixedSiteStore(f.info, f.namespaces, f.stats ?? computeStatistics(db), version, 'sqlite');
}

/** Fallback for databases whose importer did not store statistics: counted once at start-up. */
function computeStatistics(db: Db): SiteStatistics {
  const one = (sql: string) => Number(db.raw.prepare(sql).pluck().get() ?? 0);
  return {
    pages: one('SELECT count(*) FROM page'),
    articles: one('SELECT count(*) FROM page WHERE page_namespace = 0 AND page_is_redirect = 0'),
    edits: one('SELECT coalesce(sum(page_rev_count), 0) FROM page'),
    images: one('SELECT count(*) FROM image'),
    users: 0,
    activeusers: 0,
    admins: 0,
    jobs: 0,
  };
}
