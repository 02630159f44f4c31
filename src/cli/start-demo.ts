/**
 * `npm start`: the newcomer's path. Generates the bundled demo wiki and imports it into data/demo.sqlite
 * the first time, then serves it as `wikiquery serve` does, at http://127.0.0.1:8080/api.php by default.
 * Every serve option is taken as serve takes it: after `npm start --` (`npm start -- --port 8090`) or from
 * its environment variable (WIKIQUERY_PORT, WIKIQUERY_HOST, …). WIKIQUERY_DEMO_DATA moves the demo's folder.
 */
import { existsSync } from 'node:fs';
import { isCurrentDatabase } from '../store/sqlite/db.js';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDemo } from '../demo/build.js';
import { runImportCommand } from './import-command.js';
import { runServeCommand } from './serve-command.js';

const root = resolve(fileURLToPath(import.meta.url), '../../../..');
const dataDir = process.env.WIKIQUERY_DEMO_DATA ?? join(root, 'data');
const db = join(dataDir, 'demo.sqlite');
const src = join(dataDir, 'demo');

async function main(argv: string[]): Promise<number> {
  // the demo is what npm start serves: another database is `wikiquery serve --db`'s
  const own = argv.find((arg) => /^--(db|files)(=|$)/.test(arg));
  if (own !== undefined) {
    process.stderr.write(
      `npm start: ${own.split('=')[0]}: npm start serves the demo wiki; serve your own with wikiquery serve --db FILE\n`,
    );
    return 2;
  }
  // first start, or a database imported by a wikiquery with another schema: import the demo (again)
  if (!isCurrentDatabase(db)) {
    if (!existsSync(join(src, 'dump.xml'))) generateDemo(src);
    const code = await runImportCommand([
      join(src, 'dump.xml'),
      '--db',
      db,
      '--files',
      join(src, 'files'),
      '--messages',
      join(src, 'messages'),
      '--lang',
      'uk',
      '--quiet',
    ]);
    if (code !== 0) return code;
  }
  // as `wikiquery serve`: one worker per core (cluster workers run this script again and find the database ready)
  return runServeCommand(['--db', db, '--files', join(src, 'files'), ...argv]);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`wikiquery: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
