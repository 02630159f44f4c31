/**
 * Which store the test run serves from: SQLite (the default) or, with WIKIQUERY_TEST_DB=postgres, the
 * throwaway PostgreSQL cluster `npm test` starts for its second pass (WIKIQUERY_TEST_PG: the cluster's
 * maintenance URL). Each test process gets databases of its own.
 */
import { connect } from '../../src/store/postgres/db.js';

export const TEST_DB: 'sqlite' | 'postgres' = process.env.WIKIQUERY_TEST_DB === 'postgres' ? 'postgres' : 'sqlite';

let made = 0;

/** A new, empty database on the test cluster; its postgres:// URL. */
export async function freshPostgresDatabase(label = 'wiki'): Promise<string> {
  const admin = process.env.WIKIQUERY_TEST_PG;
  if (!admin) throw new Error('WIKIQUERY_TEST_DB=postgres needs WIKIQUERY_TEST_PG (npm test starts a cluster and sets it)');
  const name = `wq_${label.replace(/\W/g, '_').toLowerCase()}_${process.pid}_${++made}`;
  const sql = connect(admin, { max: 1 });
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS "${name}"`);
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.end({ timeout: 5 });
  }
  const u = new URL(admin);
  u.pathname = '/' + name;
  return u.toString();
}
