/**
 * `wikiquery import DUMP --db FILE [--files DIR] [--messages DIR]... [--interwiki FILE] [--lang uk] [--quiet]`
 *
 * Prints a progress bar when stdout is a terminal, and always a one-line summary at the end. Errors
 * are one line on stderr (a malformed dump: `dump.xml:LINE:COLUMN: what`) with exit code 1; an
 * interrupted import exits 130 (SIGINT) or 143 (SIGTERM). In every failure FILE is left unchanged.
 */
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { importWiki, ImportInterrupted, ImportSetupError, type ImportOptions, type ImportSummary } from '../importer/import.js';
import { evaluateInlineQueries } from '../modules/smw/inline-query.js';
import { DumpError } from '../importer/dump-reader.js';
import { UpdateRefused } from '../importer/update.js';
import { updateFromDump } from '../importer/update/from-dump.js';
import { DumpSourceError } from '../importer/dump-source.js';
import type { PageAnalysisHook, PageRenderer } from '../importer/hooks.js';
import { RENDERER_VERSION, renderForStorage } from '../modules/page-renderer.js';
import { Wiki } from '../wiki/wiki.js';
import { semanticImportHook } from '../importer/semantic-hook.js';
import { formatHelp, parseCommand, UsageError, usageFailure, type CommandSpec } from './args.js';

const MAX_IMPORT_WORKERS = 32;

export const IMPORT_COMMAND: CommandSpec = {
  name: 'import',
  synopsis:
    'import DUMP --db FILE|URL [--update] [--staging FILE] [--files DIR] [--messages DIR]... [--interwiki FILE] [--lang CODE] [--no-search-index] [--render] [--workers N] [--timings] [--quiet]',
  summary:
    'Loads a MediaWiki XML export dump (plain, .gz or .bz2, recognised by content; - reads standard input) into a\n' +
    'new SQLite database and then replaces FILE atomically: a running `wikiquery serve` switches to it without\n' +
    'dropping a request. A failed or interrupted import leaves FILE as it was.',
  options: {
    db: {
      type: 'string',
      value: 'FILE|URL',
      help: 'where to import: an SQLite file to create or replace, or a PostgreSQL database (postgres://USER@HOST/DB) to publish a new import into (built in a local staging file, then copied; readers switch when it is complete)',
    },
    update: {
      type: 'boolean',
      help: 'apply a dump of changed pages (Special:Export of some pages, full history or current only) to the existing database FILE in place, batch by batch; pages the dump does not mention stay',
    },
    staging: {
      type: 'string',
      value: 'FILE',
      help: 'PostgreSQL: the local SQLite replica of the database, kept at FILE by an import (the staging file it was built in) and written by --update (and follow) before each batch is copied into PostgreSQL',
    },
    files: { type: 'string', value: 'DIR', help: "the uploaded files: MediaWiki's images/ directory (or a files-manifest.jsonl)" },
    messages: {
      type: 'string',
      multiple: true,
      value: 'DIR',
      help: "interface messages: MediaWiki's languages/i18n and each extension's i18n directory",
    },
    interwiki: {
      type: 'string',
      value: 'FILE',
      help: "the interwiki map the links are read with (JSON as src/wiki/data/interwiki.json; default: MediaWiki's list plus Wikipedia language prefixes)",
    },
    lang: { type: 'string', value: 'CODE', help: "content language (default: the dump's xml:lang, else uk)" },
    quiet: { type: 'boolean', short: 'q', help: 'only warnings and the summary' },
    workers: {
      type: 'string',
      value: 'N',
      help: 'threads analysing pages (expansion, links, search text) while the main thread writes (default: the cores but one, at least 1; 0: none)',
    },
    'no-search-index': {
      type: 'boolean',
      help: 'leave the full-text search index empty (list=search finds nothing; prefix search still works)',
    },
    render: {
      type: 'boolean',
      help: 'render every content page into the parser cache table: action=parse and the article path serve them without rendering',
    },
    timings: { type: 'boolean', help: 'print the wall and CPU seconds of each step of the import (stderr), also with --quiet' },
  },
  notes: ['Exit codes: 0 done, 1 the import failed (FILE unchanged), 2 usage, 130/143 interrupted.'],
};

/**
 * The analysis hooks every CLI import runs. Register extension importers here, e.g. the Semantic
 * MediaWiki property store: `return [semanticImportHook()];`
 */
export function importHooks(): PageAnalysisHook[] {
  return [semanticImportHook()];
}

/**
 * Inline queries at import: the evaluator that answers {{#ask:}}/{{#show:}} when a page is rendered,
 * over the wiki being imported, so that the links of their results are recorded (importWiki's
 * `inlineQueries`).
 */
export function importInlineQueries(): NonNullable<ImportOptions['inlineQueries']> {
  return async (reader) => {
    const wiki = await Wiki.load(reader.site);
    return (calls, page) => evaluateInlineQueries(reader, wiki, calls, page);
  };
}

/** --render: the serving renderer (action=parse, the article path), over the import's own database */
export function importRenderer(): PageRenderer {
  return {
    version: RENDERER_VERSION,
    async open(store) {
      // as serving sets it up: the links read with the map the import stored
      const wiki = await Wiki.forServing(store.site, store.relations);
      return (p) => renderForStorage(store, wiki, { ns: p.ns, dbkey: p.dbkey }, p.text);
    },
  };
}

export function formatSummary(s: ImportSummary): string {
  const rate = Math.round(s.pagesPerSecond);
  return (
    `Imported ${s.pages} pages, ${s.files} files, ${s.messages} messages, ${s.links} links in ${s.seconds.toFixed(1)} s ` +
    `(${rate} pages/s), peak RSS ${Math.round(s.peakRssMB)} MB, search index ${(s.searchIndexBytes / 1048576).toFixed(1)} MB` +
    (s.rendered ? `, ${s.rendered} pages rendered in ${s.renderSeconds.toFixed(1)} s` : '') +
    `; import id ${s.importId}`
  );
}

export async function runImportCommand(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseCommand(IMPORT_COMMAND, argv, env));
    if (values.help) {
      process.stdout.write(formatHelp(IMPORT_COMMAND) + '\n');
      return 0;
    }
    if (positionals.length === 0) throw new UsageError('no dump given (a file, or - for standard input)');
    if (positionals.length > 1) throw new UsageError(`one dump at a time (got ${positionals.join(', ')})`);
    if (!values.db) throw new UsageError('--db FILE is required');
    // each thread holds its own template cache and database connection: more than a machine's cores only costs memory
    if (values.workers !== undefined && (!/^\d{1,3}$/.test(values.workers as string) || Number(values.workers) > MAX_IMPORT_WORKERS)) {
      throw new UsageError(`--workers ${String(values.workers)}: a number of threads from 0 to ${MAX_IMPORT_WORKERS}`);
    }
    if (values.lang !== undefined && !/^[a-z]{2,3}(-[a-z0-9]+)*$/.test(values.lang as string))
      throw new UsageError(`--lang ${String(values.lang)}: not a language code`);
  } catch (e) {
    return usageFailure(IMPORT_COMMAND, e);
  }
  const db = values.db as string;
  const quiet = values.quiet === true;
  if (values.update) return runUpdate(positionals[0], db, values, quiet);
  try {
    const summary = await importWiki({
      dump: positionals[0],
      db,
      filesDir: values.files as string | undefined,
      messageDirs: values.messages as string[] | undefined,
      interwikiFile: values.interwiki as string | undefined,
      lang: values.lang as string | undefined,
      hooks: importHooks(),
      inlineQueries: importInlineQueries(),
      searchIndex: !values['no-search-index'],
      workers: values.workers === undefined ? undefined : Number(values.workers),
      render: values.render ? importRenderer() : undefined,
      timings: values.timings ? (lines) => process.stderr.write(lines.join('\n') + '\n') : undefined,
      staging: values.staging as string | undefined,
      progress: !quiet && process.stdout.isTTY === true,
      log: (line) => {
        if (!quiet || line.startsWith('warning:')) process.stderr.write(line + '\n');
      },
    });
    process.stdout.write(formatSummary(summary) + '\n');
    return 0;
  } catch (e) {
    if (e instanceof ImportInterrupted) {
      process.stderr.write(`wikiquery import: ${e.message}; ${db} left unchanged\n`);
      return e.signal === 'SIGINT' ? 130 : 143;
    }
    // one line, no stack: dump and setup errors already name the file (a dump error its line:column)
    const known = e instanceof DumpError || e instanceof DumpSourceError || e instanceof ImportSetupError;
    const msg = known ? (e as Error).message : `${db}: import failed: ${(e as Error).message ?? String(e)}`;
    process.stderr.write(`wikiquery import: ${msg}\n`);
    return 1;
  }
}

/** `import --update`: the dump's pages applied to the database in place (src/importer/update.ts) */
async function runUpdate(dump: string, db: string, values: Record<string, unknown>, quiet: boolean): Promise<number> {
  try {
    const s = await updateFromDump({
      dump,
      db,
      filesDir: values.files as string | undefined,
      interwikiFile: values.interwiki as string | undefined,
      inlineQueries: importInlineQueries(),
      staging: values.staging as string | undefined,
      log: (line) => {
        if (!quiet || line.startsWith('warning:')) process.stderr.write(line + '\n');
      },
    });
    process.stdout.write(
      `Updated ${s.pages} pages (${s.deleted} deleted), ${s.revisions} revisions, ${s.logItems} log items, ${s.files} files in ` +
        `${s.batches} batches; ${s.refreshed} pages refreshed in ${s.refreshSeconds.toFixed(1)} s; ${s.seconds.toFixed(1)} s (${Math.round(s.pagesPerSecond)} pages/s)\n`,
    );
    return 0;
  } catch (e) {
    const known = e instanceof DumpError || e instanceof DumpSourceError || e instanceof UpdateRefused;
    const msg = known ? (e as Error).message : `${db}: update failed: ${(e as Error).message ?? String(e)}`;
    process.stderr.write(`wikiquery import --update: ${msg}; the batches applied before stay, the one under way was rolled back\n`);
    return 1;
  }
}

// Runnable on its own too: node dist/src/cli/import-command.js DUMP.xml --db FILE …
function isMain(): boolean {
  try {
    return process.argv[1] !== undefined && fs.realpathSync(process.argv[1]) === fileURLToPath(import.meta.url);
  } catch {
    return false;
  }
}

if (isMain()) {
  runImportCommand(process.argv.slice(2)).then((code) => {
    process.exitCode = code;
  });
}
