/**
 * Which import a PostgreSQL database serves. Every import is loaded into a schema of its own
 * (`wq_<time>_<pid>`); the one row of `wikiquery.served` names the schema readers use. The importer
 * switches that row in one transaction once the new schema is complete, so a reader sees the old wiki
 * or the new one, never half of one; serving nodes poll the row and open a pool on the new schema.
 * The previous schema is kept until the next import (nodes still finishing requests on it), older
 * ones are dropped.
 */
import { quoteSchema, type Sql } from './db.js';

export interface ServedImport {
  schema: string;
  importId: string;
}

export async function ensureCatalog(sql: Sql): Promise<void> {
  await sql.unsafe(`CREATE SCHEMA IF NOT EXISTS wikiquery`);
  await sql.unsafe(`CREATE TABLE IF NOT EXISTS wikiquery.served (
    one boolean PRIMARY KEY DEFAULT true CHECK (one),
    schema_name text NOT NULL,
    import_id text NOT NULL,
    switched_at timestamptz NOT NULL DEFAULT now())`);
}

/** The served import, or null when nothing was imported into this database yet. */
export async function servedImport(sql: Sql): Promise<ServedImport | null> {
  let rows;
  try {
    rows = await sql.unsafe(`SELECT schema_name, import_id FROM wikiquery.served`);
  } catch (e) {
    // undefined_table: no import has created the catalog yet
    if ((e as { code?: string }).code === '42P01') return null;
    throw e;
  }
  return rows.length ? { schema: rows[0].schema_name as string, importId: rows[0].import_id as string } : null;
}

/** Point readers at `schema` (one transaction); then drop the import schemas older than the previous one. */
export async function switchServed(sql: Sql, next: ServedImport): Promise<ServedImport | null> {
  const previous = await sql.begin(async (tx) => {
    const before = await tx.unsafe(`SELECT schema_name, import_id FROM wikiquery.served FOR UPDATE`);
    await tx.unsafe(
      `INSERT INTO wikiquery.served (one, schema_name, import_id, switched_at) VALUES (true, $1, $2, now())
       ON CONFLICT (one) DO UPDATE SET schema_name = excluded.schema_name, import_id = excluded.import_id, switched_at = now()`,
      [next.schema, next.importId],
    );
    return before.length ? { schema: before[0].schema_name as string, importId: before[0].import_id as string } : null;
  });
  await dropImportSchemas(sql, [next.schema, ...(previous ? [previous.schema] : [])]);
  return previous;
}

/** Drop the import schemas (`wq_…`) not in `keep`: older imports and those of failed or killed imports. */
export async function dropImportSchemas(sql: Sql, keep: string[]): Promise<string[]> {
  const rows = await sql.unsafe(`SELECT nspname FROM pg_namespace WHERE nspname LIKE 'wq\\_%' ORDER BY nspname`);
  const dropped: string[] = [];
  for (const r of rows) {
    const name = r.nspname as string;
    if (keep.includes(name)) continue;
    await sql.unsafe(`DROP SCHEMA ${quoteSchema(name)} CASCADE`);
    dropped.push(name);
  }
  return dropped;
}
