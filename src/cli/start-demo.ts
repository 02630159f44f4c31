/**
 * `npm start`: the newcomer's path. Generates the bundled demo wiki and imports it into data/demo.sqlite
 * the first time, then serves it at http://127.0.0.1:8080/api.php (HOST/PORT override).
 */
import { existsSync } from 'node:fs';
import { isCurrentDatabase } from '../store/sqlite/db.js';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDemo } from '../demo/build.js';
import { runImportCommand } from './import-command.js';
import { runServeCommand } from './serve-command.js';

const root = resolve(fileURLToPath(import.meta.url), '../../../..');
const dataDir = join(root, 'data');
const db = join(dataDir, 'demo.sqlite');
const src = join(dataDir, 'demo');

async function main(): Promise<void> {
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
    ]);
    if (code !== 0) process.exit(code);
  }
  // as `wikiquery serve`: one worker per core (cluster workers run this script again and find the database ready)
  const code = await runServeCommand([
    '--db',
    db,
    '--host',
    process.env.HOST ?? '127.0.0.1',
    '--port',
    process.env.PORT ?? '8080',
    '--files',
    join(src, 'files'),
  ]);
  if (code !== 0) process.exitCode = code;
}

main().catch((e: unknown) => {
  console.error(`wikiquery: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
