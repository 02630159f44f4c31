/**
 * Test helper, run as its own process: applies batches to DB through the updater, forever, and prints
 * `applied N` after batch N has committed, resuming after the batch its position says was the last (as a
 * restarted follower does). Batch N creates PAGES pages titled `Пакет N/k` (ids and
 * revision ids of their own) and stores the position rcid N, so that a reader can tell which batches are in.
 *
 *   node update-kill-child.js DB PAGES [STAGING]
 */
import { openUpdater } from '../../src/importer/update.js';
import type { UpdateItem } from '../../src/importer/update-items.js';
import type { DumpRevision } from '../../src/importer/dump-reader.js';

const [db, pagesArg, staging] = process.argv.slice(2);
// `node --test dist/test/` runs every file below it, this one too: without arguments it has nothing to do
if (db === undefined) process.exit(0);
const pages = Number(pagesArg);
const updater = await openUpdater(db, { log: () => {}, staging });
for (let n = (updater.position()?.rcid ?? 0) + 1; ; n++) {
  const batch: UpdateItem[] = [];
  for (let k = 0; k < pages; k++) {
    const id = 1_000_000 + n * pages + k;
    const title = `Пакет ${n}/${k}`;
    const text = `Сторінка пакета ${n}: [[Київ]] {{Заглушка}} [[Категорія:Пакети]] ${'слово '.repeat(200)}`;
    const revision: DumpRevision = {
      id,
      parentId: 0,
      timestamp: `2027010100${String(Math.floor(n / 60) % 60).padStart(2, '0')}${String(n % 60).padStart(2, '0')}`,
      user: 'Бот',
      userId: 0,
      comment: 'пакет',
      minor: false,
      deleted: 0,
      sha1: '',
      text,
      bytes: Buffer.byteLength(text),
    };
    batch.push({ type: 'revision', page: { id, ns: 0, title }, revision });
    batch.push({ type: 'page', page: { id, line: 0, ns: 0, title, revisionCount: 1, first: revision, latest: revision, uploads: [] } });
  }
  batch.push({ type: 'position', position: { api: 'http://127.0.0.1:1/api.php', timestamp: '20270101000000', rcid: n, logid: 0 } });
  await updater.apply(batch);
  process.stdout.write(`applied ${n}\n`);
}
