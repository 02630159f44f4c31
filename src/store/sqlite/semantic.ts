/** SemanticStore on SQLite: the shared statements (../semantic-sql-store.ts) in SQLite's dialect. */
import type { Db, Statement } from './db.js';
import { SqlSemanticStore } from '../semantic-sql-store.js';
import { SQLITE_SEMANTIC, SemanticStatements, sqliteQueryEngine } from './semantic-query.js';

export class SqliteSemanticStore extends SqlSemanticStore {
  constructor(db: Db) {
    const st = new SemanticStatements(db);
    let members: Statement<[string, number], { ns: number; dbkey: string }> | undefined;
    super(
      SQLITE_SEMANTIC,
      {
        all: async (name, sql, params) => st.all(name, sql, params),
        prepare: (name, sql, pluck) => {
          const stmt = db.prepare(name, sql, pluck);
          return (params) => stmt.all(...params);
        },
        hasTables: async () =>
          db.raw.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'smw_ac_node'").get() !== undefined,
        // a seek per category (in-process, no round trip): SQLite has no LATERAL to batch them with a
        // limit per category
        members: async (categories, limit) => {
          members ??= db.prepare(
            'SemanticStore.autocompleteCategory',
            'SELECT page_namespace AS ns, page_title AS dbkey FROM categorylinks JOIN page ON page_id = cl_from WHERE cl_to = ? ORDER BY cl_sortkey, cl_from LIMIT ?',
          );
          const out: Array<{ ns: number; dbkey: string }> = [];
          for (const cat of categories) {
            if (out.length >= limit) break;
            for (const r of members.all(cat, limit - out.length)) out.push(r);
          }
          return out;
        },
      },
      sqliteQueryEngine(db),
    );
  }
}
