/**
 * `wikiquery serve --db FILE [--host H] [--port P] [--files DIR] [--debug] [--cache-mb N] [--interwiki FILE]
 *   [--max-concurrent N] [--max-connections N] [--max-result-size BYTES]`
 */
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { createServer } from '../http/server.js';
import { openStore, parseStoreLocation } from '../store/open.js';
import { InterwikiMap } from '../wiki/interwiki.js';

export async function runServeCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      db: { type: 'string' },
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '8080' },
      files: { type: 'string' },
      debug: { type: 'boolean', default: false },
      'cache-mb': { type: 'string', default: '64' },
      'max-concurrent': { type: 'string' },
      'max-connections': { type: 'string' },
      'max-result-size': { type: 'string' },
      interwiki: { type: 'string' },
    },
    strict: true,
  });
  if (!values.db) {
    console.error('wikiquery serve: --db FILE is required');
    return 1;
  }
  const where = parseStoreLocation(values.db);
  if (where.backend === 'sqlite' && !existsSync(where.path)) {
    console.error(`wikiquery serve: no database at ${values.db} (run wikiquery import first)`);
    return 1;
  }
  const cacheMb = Number(values['cache-mb']);
  if (!Number.isFinite(cacheMb) || cacheMb < 0) {
    console.error('wikiquery serve: --cache-mb takes a number of megabytes (0 turns the cache off)');
    return 1;
  }
  let interwiki: InterwikiMap | undefined;
  if (values.interwiki) {
    try {
      interwiki = InterwikiMap.fromFile(values.interwiki);
    } catch (e) {
      console.error(`wikiquery serve: --interwiki: ${e instanceof Error ? e.message : String(e)}`);
      return 1;
    }
  }
  const counts: Record<'max-concurrent' | 'max-connections' | 'max-result-size', number | undefined> = {
    'max-concurrent': undefined,
    'max-connections': undefined,
    'max-result-size': undefined,
  };
  for (const name of Object.keys(counts) as Array<keyof typeof counts>) {
    const v = values[name];
    if (v === undefined) continue;
    if (!/^\d+$/.test(v)) {
      console.error(`wikiquery serve: --${name} takes a whole number`);
      return 1;
    }
    counts[name] = Number(v);
  }
  await serve({
    db: values.db,
    host: values.host!,
    port: Number(values.port),
    files: values.files,
    debug: values.debug,
    cacheMb,
    interwiki,
    maxConcurrent: counts['max-concurrent'],
    maxConnections: counts['max-connections'],
    maxResultSize: counts['max-result-size'],
  });
  return 0;
}

export async function serve(o: {
  db: string;
  host: string;
  port: number;
  files?: string;
  debug?: boolean;
  cacheMb?: number;
  interwiki?: InterwikiMap;
  maxConcurrent?: number;
  maxConnections?: number;
  maxResultSize?: number;
}): Promise<void> {
  const store = await openStore(o.db, { debug: o.debug });
  const server = await createServer({
    store,
    debug: o.debug,
    filesDir: o.files,
    cacheMb: o.cacheMb,
    interwiki: o.interwiki,
    logLevel: process.env.WIKIQUERY_LOG_LEVEL,
    load: o.maxConcurrent === undefined ? undefined : { maxConcurrent: o.maxConcurrent },
    limits: o.maxConnections === undefined ? undefined : { maxConnections: o.maxConnections },
    maxResultSize: o.maxResultSize,
  });
  const address = await server.app.listen({ host: o.host, port: o.port });
  server.app.log.info(`wikiquery serving ${o.db} at ${address}/api.php`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
