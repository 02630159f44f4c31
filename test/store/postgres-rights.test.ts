/**
 * A PostgreSQL --db the role cannot use is found before any work, and said with what to grant: an import
 * whose role may not create the import's schema, a server whose role may not read the served import, a
 * database that does not exist. Over the real commands, in the PostgreSQL pass.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { TEST_DB, freshPostgresDatabase } from '../helpers/test-db.js';
import { connect } from '../../src/store/postgres/db.js';
import { describeOrSkip } from '../helpers/skip.js';

const CLI = path.resolve(import.meta.dirname, '../../src/cli/main.js');
const SMALL = path.resolve(import.meta.dirname, '../../../test/fixtures/small-dump.xml');
const skip = TEST_DB === 'postgres' ? false : 'needs a PostgreSQL server: runs in the PostgreSQL pass (WIKIQUERY_TEST_DB=postgres)';

function run(args: string[]) {
  const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The URL with another role (the cluster trusts its socket). */
function as(url: string, role: string): string {
  const u = new URL(url);
  u.username = role;
  return u.toString();
}

describeOrSkip('PostgreSQL rights, checked before the work', { skip }, () => {
  const role = `wq_reader_${process.pid}`;
  let owner: string;
  before(async () => {
    owner = await freshPostgresDatabase('rights');
    const sql = connect(owner, { max: 1 });
    try {
      await sql.unsafe(`DROP ROLE IF EXISTS ${role}`);
      await sql.unsafe(`CREATE ROLE ${role} LOGIN`);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });
  after(async () => {
    const sql = connect(process.env.WIKIQUERY_TEST_PG!, { max: 1 });
    try {
      await sql.unsafe(`DROP DATABASE IF EXISTS "${new URL(owner).pathname.slice(1)}"`);
      await sql.unsafe(`DROP ROLE IF EXISTS ${role}`);
    } finally {
      await sql.end({ timeout: 5 });
    }
  });

  it('import: a role without CREATE on the database is refused before the dump is read, saying what to grant', () => {
    const db = new URL(owner).pathname.slice(1);
    const r = run(['import', SMALL, '--db', as(owner, role)]);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^wikiquery import: --db postgres://${role}@.*: the role ${role} may not create schemas in the database ${db}, which each import is loaded into: GRANT CREATE ON DATABASE ${db} TO ${role}\\n$`,
      ),
    );
    assert.equal(r.stdout, '');
  });

  it('serve: a role that may not read the served import is refused, saying what to grant', async () => {
    const imported = run(['import', SMALL, '--db', owner, '--quiet']);
    assert.equal(imported.status, 0, imported.stderr);
    const catalog = run(['serve', '--db', as(owner, role), '--port', '0']);
    assert.equal(catalog.status, 1, catalog.stderr);
    assert.match(
      catalog.stderr,
      new RegExp(
        `^wikiquery serve: --db .*: the role ${role} may not read which import is served \\(the table wikiquery\\.served\\): serve as the importing role, or GRANT USAGE ON SCHEMA wikiquery and SELECT ON wikiquery\\.served TO ${role}\\n$`,
      ),
    );
    const sql = connect(owner, { max: 1 });
    try {
      await sql.unsafe(`GRANT USAGE ON SCHEMA wikiquery TO ${role}`);
      await sql.unsafe(`GRANT SELECT ON wikiquery.served TO ${role}`);
    } finally {
      await sql.end({ timeout: 5 });
    }
    const r = run(['serve', '--db', as(owner, role), '--port', '0']);
    assert.equal(r.status, 1, r.stderr);
    assert.match(
      r.stderr,
      new RegExp(
        `^wikiquery serve: --db .*: the role ${role} may not read the served import \\(schema wq_\\w+\\): .*GRANT USAGE ON SCHEMA wq_\\w+ and SELECT ON ALL TABLES IN SCHEMA wq_\\w+ TO ${role}\\n$`,
      ),
    );
  });

  it('a database that does not exist: said so, with the command that creates it', () => {
    const missing = new URL(owner);
    missing.pathname = '/wq_no_such_database';
    for (const command of ['import', 'serve']) {
      const r = run(
        command === 'import' ? ['import', SMALL, '--db', missing.toString()] : ['serve', '--db', missing.toString(), '--port', '0'],
      );
      assert.equal(r.status, 1, r.stderr);
      assert.match(
        r.stderr,
        new RegExp(
          `^wikiquery ${command}: --db .*: the database wq_no_such_database does not exist: create it \\(createdb -O postgres wq_no_such_database\\)\\n$`,
        ),
      );
    }
  });
});
