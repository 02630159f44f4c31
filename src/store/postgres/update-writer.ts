/**
 * The incremental writer of a PostgreSQL database (`follow`, `import --update`): the SQLite writer on the
 * local replica of the served schema, each batch copied into PostgreSQL once it has committed there
 * (replica.ts says how, and why the analysis runs on a local file).
 */
import { openSqliteUpdateWriter, type ChangeCapture } from '../sqlite/update/writer.js';
import type { UpdateWriter } from '../update-writer.js';
import { servedImport } from './catalog.js';
import { connect, quoteSchema } from './db.js';
import { PostgresReplica, ReplicaMismatch } from './replica.js';
import { type ChangeListener, listenForChanges } from './watch.js';

export async function openPostgresUpdateWriter(url: string, replicaFile: string): Promise<UpdateWriter> {
  const sql = connect(url, { max: 1 });
  let w: UpdateWriter | undefined;
  let echo: ChangeListener | undefined;
  try {
    const served = await servedImport(sql);
    if (served === null) throw new Error('no wiki has been imported into this database (run wikiquery import --db with it)');
    const tables = await sql.unsafe('SELECT table_name FROM information_schema.tables WHERE table_schema = $1', [served.schema]);
    echo = await listenForChanges(url, served.schema);
    const tableNames = new Set(tables.map((t) => t.table_name as string));
    const heard = echo;
    const replica = new PostgresReplica(sql, quoteSchema(served.schema), served.schema, tableNames, heard);
    const capture: ChangeCapture = {
      attach: (db) => replica.attach(db),
      searchRow: (page, columns, added) => replica.searchRow(page, columns, added),
      beforeBegin: () => replica.replay(),
      beforeCommit: () => replica.beforeCommit(),
      afterCommit: () => replica.replay(),
      close: () => {
        heard.close();
        void sql.end({ timeout: 5 });
      },
    };
    w = openSqliteUpdateWriter(replicaFile, capture);
    const of = replica.storedSchema();
    if (of !== served.schema)
      throw new ReplicaMismatch(
        `${replicaFile} is ${of === undefined ? 'no replica' : `a replica of ${of}`}; PostgreSQL serves ${served.schema}: make the replica with wikiquery import DUMP --db … --staging ${replicaFile}`,
      );
    // what a crash left between the replica's commit and PostgreSQL's
    await replica.replay();
    const stored = await replica.storedSequence();
    if (stored !== replica.sequence())
      throw new ReplicaMismatch(
        `${replicaFile} has taken ${replica.sequence()} batches, PostgreSQL ${stored}: it is not the replica the last update wrote; make it again with wikiquery import DUMP --db … --staging ${replicaFile}`,
      );
    replica.copiedAt(stored);
    return w;
  } catch (e) {
    if (w !== undefined) w.close();
    else {
      echo?.close();
      await sql.end({ timeout: 5 });
    }
    throw e;
  }
}
