/**
 * A PostgreSQL --db checked before any work starts: an import would otherwise build its whole staging file
 * (hours on a large wiki) and only then find the server down, and a raw `connect ENOENT …` says nothing of
 * what to do. The connection errors, and the server's refusals, are said in words with what to check.
 */
import { servedImport } from './catalog.js';
import { connect, connectionOptions } from './db.js';

/** whether an import made the catalog (read from pg_catalog: the role may lack the rights to look into it) */
const CATALOG_TABLE = `SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'wikiquery' AND c.relname = 'served'`;

/** seconds to wait for the server before calling it unreachable */
const CONNECT_TIMEOUT_S = 10;

interface Where {
  /** the socket directory, or the host and port */
  socketDir?: string;
  host: string;
  port: string;
  user: string;
  database: string;
}

function whereOf(url: string): Where {
  const c = connectionOptions(url);
  const u = new URL(c.url);
  return {
    socketDir: typeof c.options.host === 'string' ? c.options.host : undefined,
    host: u.hostname || 'localhost',
    port: u.port || '5432',
    user: decodeURIComponent(u.username) || process.env.PGUSER || process.env.USER || 'postgres',
    database: decodeURIComponent(u.pathname.slice(1)) || decodeURIComponent(u.username) || 'postgres',
  };
}

/** What went wrong reaching or using the database, and what to check (the caller names the location). */
export function describePostgresError(url: string, e: unknown): string {
  const err = e as { code?: string; message?: string; address?: string };
  let w: Where;
  try {
    w = whereOf(url);
  } catch {
    return 'not a valid postgres:// URL';
  }
  switch (err.code) {
    case 'ENOENT':
    case 'ECONNREFUSED':
      if (w.socketDir !== undefined || err.address?.includes('.s.PGSQL.'))
        return `no PostgreSQL server at the socket ${err.address ?? w.socketDir}: is the server running (pg_lsclusters; systemctl start postgresql)? Is ?host= the directory of its socket (Debian's: /var/run/postgresql)?`;
      return `nothing listens at ${w.host}:${w.port}: is the PostgreSQL server running (pg_lsclusters; systemctl start postgresql), and listening on that address and port (listen_addresses, port in postgresql.conf)?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host ${w.host} is not known (a typing error? for a local server's Unix socket use postgres://USER@/DB?host=/var/run/postgresql)`;
    case 'CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `no answer from ${w.host}:${w.port} within ${CONNECT_TIMEOUT_S} s: is the address right, and does a firewall let the connection through?`;
    case '28P01':
    case '28000':
      return `PostgreSQL refused the role ${w.user} (${err.message}): does the role exist (createuser ${w.user}), is the password in the URL right, and does pg_hba.conf let it connect this way?`;
    case '3D000':
      return `the database ${w.database} does not exist: create it (createdb -O ${w.user} ${w.database})`;
    case '42501':
      return `the role ${w.user} lacks a right (${err.message}): grant it, e.g. GRANT CREATE ON DATABASE ${w.database} TO ${w.user}`;
    case '57P03':
      return `the server is starting up or shutting down; try again in a moment`;
    default:
      return `${err.message ?? String(e)}`;
  }
}

/** `check` over one short-lived connection: what it finds, or why the server could not be asked */
async function withProbe(url: string, check: (sql: ReturnType<typeof connect>) => Promise<string | null>): Promise<string | null> {
  let sql;
  try {
    sql = connect(url, { max: 1, connect_timeout: CONNECT_TIMEOUT_S });
  } catch (e) {
    return describePostgresError(url, e);
  }
  try {
    return await check(sql);
  } catch (e) {
    return describePostgresError(url, e);
  } finally {
    await sql.end({ timeout: 5 }).catch(() => {});
  }
}

/**
 * Why an import cannot publish into the database (null: it can), found before the dump is read: the server
 * answers, the role can create the import's schema, and -- when an earlier import made the catalog --
 * switch the served import.
 */
export function postgresImportProblem(url: string): Promise<string | null> {
  return withProbe(url, async (sql) => {
    const [rights] = await sql.unsafe(
      `SELECT current_user AS role, current_database() AS db, has_database_privilege(current_database(), 'CREATE') AS create_schema,
         EXISTS (${CATALOG_TABLE}) AS has_catalog`,
    );
    if (!rights.create_schema)
      return `the role ${rights.role} may not create schemas in the database ${rights.db}, which each import is loaded into: GRANT CREATE ON DATABASE ${rights.db} TO ${rights.role}`;
    if (rights.has_catalog) {
      const [served] = await sql.unsafe(
        `SELECT has_schema_privilege('wikiquery', 'USAGE') AND has_table_privilege('wikiquery.served', 'SELECT, INSERT, UPDATE') AS switch`,
      );
      if (!served.switch)
        return `the role ${rights.role} may not switch the served import (the table wikiquery.served of an earlier import): import as the role that made it, or GRANT USAGE ON SCHEMA wikiquery and SELECT, INSERT, UPDATE ON wikiquery.served TO ${rights.role}`;
    }
    return null;
  });
}

/** Why a server cannot serve the database (null: it can): it answers, and names an import the role may read. */
export function postgresServeProblem(url: string): Promise<string | null> {
  return withProbe(url, async (sql) => {
    const [catalog] = await sql.unsafe(
      `SELECT current_user AS role, EXISTS (${CATALOG_TABLE}) AS present,
         EXISTS (${CATALOG_TABLE}) AND has_schema_privilege('wikiquery', 'USAGE') AND has_table_privilege('wikiquery.served', 'SELECT') AS readable`,
    );
    if (!catalog.present) return 'no wiki has been imported into this database (run wikiquery import --db with it)';
    if (!catalog.readable)
      return `the role ${catalog.role} may not read which import is served (the table wikiquery.served): serve as the importing role, or GRANT USAGE ON SCHEMA wikiquery and SELECT ON wikiquery.served TO ${catalog.role}`;
    const served = await servedImport(sql);
    if (served === null) return 'no wiki has been imported into this database (run wikiquery import --db with it)';
    const [rights] = await sql.unsafe(
      `SELECT current_user AS role, has_schema_privilege($1, 'USAGE') AND has_table_privilege(format('%I.page', $1::text), 'SELECT') AS read`,
      [served.schema],
    );
    if (!rights.read)
      return `the role ${rights.role} may not read the served import (schema ${served.schema}): serve as the importing role, or GRANT USAGE ON SCHEMA ${served.schema} and SELECT ON ALL TABLES IN SCHEMA ${served.schema} TO ${rights.role}`;
    return null;
  });
}
