/** `wikiquery serve --db FILE [--host H] [--port P] [--files DIR] [--debug] [--cache-mb N] [--parser-cache-mb N]` */
import { configureParserCache } from '../modules/page-renderer.js';
import { parseArgs } from 'node:util';
import { existsSync } from 'node:fs';
import { createServer } from '../http/server.js';
import { openStore, parseStoreLocation } from '../store/open.js';

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
      'parser-cache-mb': { type: 'string', default: '32' },
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
  const parserCacheMb = Number(values['parser-cache-mb']);
  if (!Number.isFinite(parserCacheMb) || parserCacheMb < 0) {
    console.error('wikiquery serve: --parser-cache-mb takes a number of megabytes (0 turns the parser cache off)');
    return 1;
  }
  await serve({ db: values.db, host: values.host!, port: Number(values.port), files: values.files, debug: values.debug, cacheMb, parserCacheMb });
  return 0;
}

export async function serve(o: { db: string; host: string; port: number; files?: string; debug?: boolean; cacheMb?: number; parserCacheMb?: number }): Promise<void> {
  // characters of rendered output held, ~2 bytes each
  if (o.parserCacheMb !== undefined) configureParserCache((o.parserCacheMb * 1024 * 1024) / 2);
  const store = await openStore(o.db, { debug: o.debug });
  const server = await createServer({ store, debug: o.debug, filesDir: o.files, cacheMb: o.cacheMb, logLevel: process.env.WIKIQUERY_LOG_LEVEL });
  const address = await server.app.listen({ host: o.host, port: o.port });
  server.app.log.info(`wikiquery serving ${o.db} at ${address}/api.php`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}
