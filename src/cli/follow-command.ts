/**
 * `wikiquery follow API_URL --db FILE|URL [--files DIR] [--interval S] [--since TIMESTAMP]
 * [--reports-interval S] [--user NAME --password PASS] [--quiet]`
 *
 * Keeps a database current with a running MediaWiki through its api.php: an empty or absent database is
 * first filled from the API (imported as a dump would be), then each window of the upstream's changes is
 * applied as one transaction; one progress line per batch. Runs until SIGINT/SIGTERM (exit 0 after the
 * batch under way is applied or dropped whole). Exit 1 when the upstream's recent changes no longer reach
 * back to the database's position (the message says how to re-synchronise) or the first contact fails.
 */
import { importWiki } from '../importer/import.js';
import { openUpdater, type Updater } from '../importer/update.js';
import { openFollowStatusWriter, openStore } from '../store/open.js';
import type { FollowStatusWriter } from '../store/follow-status.js';
import { ChangeGapError } from '../follow/changes.js';
import { follow } from '../follow/follower.js';
import { batchLimit, dumpUpstream } from '../follow/initial-fill.js';
import { UpstreamClient, UpstreamError } from '../follow/upstream-client.js';
import { parseTimestamp } from '../wiki/timestamps.js';
import { formatHelp, parseCommand, UsageError, usageFailure, type CommandSpec } from './args.js';
import { importHooks, importInlineQueries } from './import-command.js';

export const FOLLOW_COMMAND: CommandSpec = {
  name: 'follow',
  synopsis:
    'follow API_URL --db FILE|URL [--staging FILE] [--files DIR] [--interval S] [--since TIMESTAMP] [--reports-interval S] [--user NAME --password PASS] [--quiet]',
  summary:
    'Follows a running MediaWiki (1.25 or newer) through its api.php: reads its recent changes and log, fetches the\n' +
    'changed pages with every revision, the uploaded files and new accounts, and applies each batch to the database in\n' +
    'one transaction, which a `wikiquery serve` on the same database answers from at once. An empty or absent database\n' +
    'is first filled from the API (every page with its history, the files, the log). Runs until SIGINT/SIGTERM.',
  options: {
    db: { type: 'string', value: 'FILE|URL', help: 'the database to keep current: an SQLite file or postgres://USER@HOST/DB' },
    staging: {
      type: 'string',
      value: 'FILE',
      help: 'PostgreSQL: the local SQLite replica of the database (kept by import --staging FILE, or made by the first fill): each batch is written to it, then copied into PostgreSQL in one transaction',
    },
    files: {
      type: 'string',
      value: 'DIR',
      help: "where uploaded files' bytes go (MediaWiki's hashed images/ layout); the directory serve's --files reads",
    },
    interval: { type: 'string', value: 'S', default: '5', help: 'seconds between polls once caught up' },
    since: {
      type: 'string',
      value: 'TIMESTAMP',
      help: 'where a database without a stored position starts reading changes (ISO 8601 or 14 digits; default: the newest change it holds)',
    },
    'reports-interval': {
      type: 'string',
      value: 'S',
      default: '60',
      help: 'seconds between recomputations of the query-page reports after changes',
    },
    user: { type: 'string', value: 'NAME', help: "a bot password's login name (User@appid) for wikis that are not world-readable" },
    password: {
      type: 'string',
      value: 'PASS',
      help: 'the bot password (better given as WIKIQUERY_PASSWORD: the process list shows options)',
    },
    quiet: { type: 'boolean', short: 'q', help: 'only warnings and errors' },
  },
  notes: ['Exit codes: 0 stopped by a signal, 1 the follower cannot go on (the message says why), 2 usage.'],
};

function seconds(name: string, v: unknown): number {
  const n = Number(v);
  if (typeof v !== 'string' || !/^\d+(\.\d+)?$/.test(v) || !(n > 0) || n > 86400)
    throw new UsageError(`--${name} ${String(v)}: seconds, more than 0`);
  return n;
}

async function storedDatabase(db: string): Promise<boolean> {
  try {
    const store = await openStore(db);
    store.close();
    return true;
  } catch {
    return false;
  }
}

export async function runFollowCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: Record<string, unknown>;
  let positionals: string[];
  let interval: number;
  let reportsInterval: number;
  let since: string | undefined;
  try {
    ({ values, positionals } = parseCommand(FOLLOW_COMMAND, argv, env));
    if (values.help) {
      process.stdout.write(formatHelp(FOLLOW_COMMAND) + '\n');
      return 0;
    }
    if (positionals.length !== 1) throw new UsageError('one upstream api.php URL (e.g. https://wiki.example.org/w/api.php)');
    if (!/^https?:\/\/[^/]+/.test(positionals[0])) throw new UsageError(`${positionals[0]}: not an http(s) URL of an api.php`);
    if (!values.db) throw new UsageError('--db FILE|URL is required');
    if ((values.user === undefined) !== (values.password === undefined)) throw new UsageError('--user and --password go together');
    interval = seconds('interval', values.interval);
    reportsInterval = seconds('reports-interval', values['reports-interval']);
    if (values.since !== undefined) {
      since = parseTimestamp(String(values.since)) ?? undefined;
      if (since === undefined) throw new UsageError(`--since ${String(values.since)}: not a timestamp`);
    }
  } catch (e) {
    return usageFailure(FOLLOW_COMMAND, e);
  }
  const db = values.db as string;
  const staging = values.staging as string | undefined;
  const filesDir = values.files as string | undefined;
  const quiet = values.quiet === true;
  const log = (line: string) => {
    if (!quiet || line.startsWith('warning:') || line.startsWith('error:')) process.stderr.write(line + '\n');
  };
  const progress = (line: string) => {
    if (!quiet) process.stdout.write(line + '\n');
  };
  const client = new UpstreamClient({
    api: positionals[0],
    user: values.user as string | undefined,
    password: values.password as string | undefined,
    log,
  });
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  let updater: Updater | undefined;
  let statusWriter: FollowStatusWriter | undefined;
  try {
    const limit = await batchLimit(client);
    let filledAt: Parameters<typeof follow>[0]['filledAt'];
    let filledWith: Parameters<typeof follow>[0]['filledWith'];
    if (!(await storedDatabase(db))) {
      log(`${db}: no wiki yet; filling it from ${client.api}`);
      const fill = await dumpUpstream(client, { filesDir, log });
      try {
        const summary = await importWiki({
          dump: fill.dump,
          db,
          filesDir,
          lang: fill.site.lang,
          hooks: importHooks(),
          inlineQueries: importInlineQueries(),
          staging,
          log,
        });
        progress(`filled: ${summary.pages} pages, ${summary.revisions} revisions, ${summary.files} files from ${client.api}`);
      } finally {
        fill.cleanup();
      }
      filledAt = fill.position;
      filledWith = fill.users;
    }
    if (controller.signal.aborted) return 0;
    // as the fill's import and `import --update`: the links of inline query results recorded
    const opened = await openUpdater(db, { log, filesDir, staging, inlineQueries: importInlineQueries() });
    updater = opened;
    const writer = openFollowStatusWriter(db);
    statusWriter = writer;
    await follow({
      client,
      filesDir,
      interval,
      since,
      limit,
      reportsInterval,
      updater: opened,
      newestStored: async () => null,
      filledAt,
      filledWith,
      report: (status) => writer.write(status),
      log: (line) => (line.startsWith('batch:') ? progress(line) : log(line)),
      signal: controller.signal,
    });
    return 0;
  } catch (e) {
    const known = e instanceof ChangeGapError || e instanceof UpstreamError;
    process.stderr.write(`wikiquery follow: ${known ? (e as Error).message : `${db}: ${(e as Error).message ?? String(e)}`}\n`);
    return 1;
  } finally {
    statusWriter?.close();
    updater?.close();
    process.off('SIGINT', stop);
    process.off('SIGTERM', stop);
  }
}
