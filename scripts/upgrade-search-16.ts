/**
 * `node dist/scripts/upgrade-search-16.js FILE`
 *
 * Brings a SQLite database imported with schema 15 to schema 16 in place, without importing its dump again
 * (hours at a million pages): the top-k postings' directories are made again from their blocks with the
 * bounds of schema 16 (per column set, the best row of each block under the index's mean row length), and
 * the page bitmaps of the frequent terms and of the namespaces are made. One transaction: an interrupted
 * upgrade leaves the file as it was. The blocks, page counts and FTS5's index are not touched.
 */
import Database from 'better-sqlite3';
import { buildBitmaps } from '../src/store/sqlite/search-bitmaps.js';
import { rewriteDirectories } from '../src/store/sqlite/search-postings.js';
import { SCHEMA_VERSION } from '../src/store/sqlite/schema.js';

const file = process.argv[2];
if (file === undefined) {
  console.error('usage: node dist/scripts/upgrade-search-16.js FILE');
  process.exit(2);
}
const db = new Database(file);
const version = Number(db.prepare("SELECT value FROM meta WHERE key = 'schema_version'").pluck().get());
if (version !== 15 || SCHEMA_VERSION !== 16) {
  console.error(`${file}: schema ${version}; this upgrades 15 to 16 (this wikiquery reads ${SCHEMA_VERSION})`);
  process.exit(1);
}
const started = process.hrtime.bigint();
db.transaction(() => {
  db.exec(
    'CREATE TABLE search_bitmap (sbm_key TEXT NOT NULL, sbm_chunk INTEGER NOT NULL, sbm_data BLOB NOT NULL, PRIMARY KEY (sbm_key, sbm_chunk)) WITHOUT ROWID',
  );
  const terms = rewriteDirectories(db);
  const frequent = buildBitmaps(db);
  db.prepare("UPDATE meta SET value = '16' WHERE key = 'schema_version'").run();
  console.log(`${terms} directories made again, ${frequent} frequent terms' bitmaps`);
})();
db.close();
console.log(`upgraded ${file} to schema 16 in ${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s`);
