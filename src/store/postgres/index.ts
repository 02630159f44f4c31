/**
 * Opens the import a PostgreSQL database serves (catalog.ts) for reading and assembles the Store. With
 * a replica, the served schema is read from the primary and the reads go to the replica once it has that
 * schema (a lagging replica keeps the caller on the import it served before: opening fails, the server
 * keeps its current generation and tries again at the next poll).
 */
import type { Store } from '../store.js';
import { PgDb, connect } from './db.js';
import { servedImport } from './catalog.js';
import { listenForChanges } from './watch.js';
import { loadPostgresSiteStore } from './site.js';
import { PostgresPageStore } from './pages.js';
import { PostgresRelationStore } from './relations.js';
import { PostgresLinkStore } from './links.js';
import { PostgresHistoryStore } from './history.js';
import { PostgresCategoryStore } from './categories.js';
import { SqlCategoryLinkStore } from '../sql/category-links.js';
import { PostgresFileStore } from './files.js';
import { PostgresMessageStore } from './messages.js';
import { PostgresReportStore } from './reports.js';
import { PostgresSemanticStore } from './semantic.js';
import { PostgresSearchStore } from './search.js';
import { PostgresParserCacheStore } from './parser-cache.js';
import { SCHEMA_VERSION } from '../sqlite/schema.js';

export interface PostgresOpenOptions {
  debug?: boolean;
  /** a streaming replica of the same database: reads go there */
  replica?: string;
  /** connections per pool (per serving process) */
  max?: number;
}

export async function openPostgresStore(url: string, opts: PostgresOpenOptions = {}): Promise<Store> {
  const served = await readServed(url);
  const readUrl = opts.replica ?? url;
  if (opts.replica) {
    const r = connect(opts.replica, { max: 1 });
    try {
      // the pointer, not the schema: the schema exists on the replica from the import's first statements,
      // complete only once the switch (the import's last transaction) has been replayed there too
      if ((await servedImport(r))?.schema !== served.schema) throw new Error(`the replica has not received import ${served.importId} yet`);
    } finally {
      await r.end({ timeout: 5 });
    }
  }
  const db = new PgDb(readUrl, served.schema, { debug: opts.debug, max: opts.max });
  // the batches `follow` and `import --update` write into the schema are announced on the primary; a hot
  // standby given as --db cannot LISTEN (PostgreSQL refuses it during recovery): it is served as before, its
  // re-imports watched, its batches not seen until it is reopened
  const changes = await listenForChanges(url, served.schema).catch(() => null);
  try {
    const site = await loadPostgresSiteStore(db, (meta) => {
      const version = meta.get('schema_version');
      if (Number(version) !== SCHEMA_VERSION)
        throw new Error(
          `import ${served.importId}: schema version ${String(version)}, this wikiquery reads ${SCHEMA_VERSION}: import the dump again`,
        );
    });
    return {
      site,
      pages: new PostgresPageStore(db),
      relations: new PostgresRelationStore(db),
      links: new PostgresLinkStore(db),
      history: new PostgresHistoryStore(db),
      categories: new PostgresCategoryStore(db),
      categoryLinks: new SqlCategoryLinkStore(db),
      files: new PostgresFileStore(db),
      messages: new PostgresMessageStore(db),
      reports: new PostgresReportStore(db),
      semantic: new PostgresSemanticStore(db),
      search: new PostgresSearchStore(db),
      parserCache: new PostgresParserCacheStore(db),
      sizeBytes: async () =>
        Number(
          (await db.value(
            'Store.sizeBytes',
            `SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
             WHERE n.nspname = $1 AND c.relkind IN ('r', 'm')`,
            [db.schema],
          )) ?? 0,
        ),
      // a re-import replaces the served schema whole (watched apart); batches change it in place
      changeCounter: changes === null ? () => null : () => changes.count,
      liveMeta: (key) => db.value<string>('Store.liveMeta', 'SELECT value FROM meta WHERE key = $1', [key]),
      close: () => {
        changes?.close();
        void db.close();
      },
    };
  } catch (e) {
    changes?.close();
    await db.close();
    throw e;
  }
}

async function readServed(url: string) {
  const sql = connect(url, { max: 1 });
  try {
    const served = await servedImport(sql);
    if (!served) throw new Error('no wiki has been imported into this database (run wikiquery import --db with it)');
    return served;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
