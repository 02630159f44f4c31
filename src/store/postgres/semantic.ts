/** SemanticStore on PostgreSQL: the shared statements (../semantic-sql-store.ts) in PostgreSQL's dialect. */
import type { PgDb } from './db.js';
import { SqlSemanticStore } from '../semantic-sql-store.js';
import { POSTGRES_SEMANTIC, postgresQueryEngine } from './semantic-query.js';

export class PostgresSemanticStore extends SqlSemanticStore {
  constructor(db: PgDb) {
    super(
      POSTGRES_SEMANTIC,
      {
        all: (name, sql, params) => db.all(name, sql, params),
        hasTables: async () => (await db.value<boolean>('SemanticStore.open', "SELECT to_regclass('smw_ac_node') IS NOT NULL")) === true,
        // the members of all the categories in one statement: a bounded index range per category (at
        // most `limit` rows each), the categories in the order given
        members: (categories, limit) =>
          db.all(
            'SemanticStore.autocompleteCategory',
            `SELECT m.ns AS ns, m.dbkey AS dbkey FROM unnest($1::text[]) WITH ORDINALITY AS j(cat, key)
           CROSS JOIN LATERAL (SELECT page_namespace AS ns, page_title AS dbkey, cl_sortkey, cl_from FROM categorylinks JOIN page ON page_id = cl_from
             WHERE cl_to = j.cat ORDER BY cl_sortkey, cl_from LIMIT $2::bigint) m
           ORDER BY j.key, m.cl_sortkey, m.cl_from LIMIT $2::bigint`,
            [categories, limit],
          ),
      },
      postgresQueryEngine(db),
    );
  }
}
