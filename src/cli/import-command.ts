/**
 * `wikiquery import DUMP.xml --db FILE [--files DIR] [--messages DIR]... [--lang uk] [--quiet]`
 *
 * Prints a progress bar when stdout is a terminal, and always a one-line summary at the end. Errors
 * are one line on stderr (a malformed dump: `dump.xml:LINE:COLUMN: what`) with exit code 1; an
 * interrupted import exits 130 (SIGINT) or 143 (SIGTERM). In every failure FILE is left unchanged.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { importWiki, ImportInterrupted, type ImportSummary } from '../importer/import.js';
import { DumpError } from '../importer/dump-reader.js';
import type { PageAnalysisHook } from '../importer/hooks.js';
import { semanticImportHook } from '../importer/semantic-hook.js';

const USAGE = 'usage: wikiquery import DUMP.xml --db FILE [--files DIR] [--messages DIR]... [--lang uk] [--quiet]';

/**
 * The analysis hooks every CLI import runs. Register extension importers here, e.g. the Semantic
 * MediaWiki property store: `return [semanticImportHook()];`
 */
export function importHooks(): PageAnalysisHook[] {
  return [semanticImportHook()];
}

export function formatSummary(s: ImportSummary): string {
  const rate = Math.round(s.pagesPerSecond);
  return (
    `Imported ${s.pages} pages, ${s.revisions} revisions, ${s.logItems} log items, ${s.files} files, ${s.links} links ` +
    `in ${s.seconds.toFixed(1)} s (${rate} pages/s, ${Math.round(s.seconds > 0 ? s.revisions / s.seconds : s.revisions)} revisions/s), ` +
    `peak RSS ${Math.round(s.peakRssMB)} MB`
  );
}

export async function runImportCommand(argv: string[]): Promise<number> {
  let values: { db?: string; files?: string; messages?: string[]; lang?: string; quiet?: boolean; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        db: { type: 'string' },
        files: { type: 'string' },
        messages: { type: 'string', multiple: true },
        lang: { type: 'string' },
        quiet: { type: 'boolean', short: 'q' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    process.stderr.write(`wikiquery import: ${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  if (positionals.length !== 1 || !values.db) {
    process.stderr.write(`wikiquery import: ${positionals.length === 0 ? 'no dump given' : positionals.length > 1 ? 'one dump at a time' : '--db FILE is required'}\n${USAGE}\n`);
    return 2;
  }
  if (values.lang !== undefined && !/^[a-z]{2,3}(-[a-z0-9]+)*$/.test(values.lang)) {
    process.stderr.write(`wikiquery import: --lang ${values.lang}: not a language code\n`);
    return 2;
  }
  const quiet = values.quiet ?? false;
  try {
    const summary = await importWiki({
      dump: positionals[0],
      db: values.db,
      filesDir: values.files,
      messageDirs: values.messages,
      lang: values.lang,
      hooks: importHooks(),
      progress: !quiet && process.stdout.isTTY === true,
      log: (line) => {
        if (!quiet || line.startsWith('warning:')) process.stderr.write(line + '\n');
      },
    });
    process.stdout.write(formatSummary(summary) + '\n');
    return 0;
  } catch (e) {
    if (e instanceof ImportInterrupted) {
      process.stderr.write(`wikiquery import: ${e.message}; ${values.db} left unchanged\n`);
      return e.signal === 'SIGINT' ? 130 : 143;
    }
    // one line, no stack: a dump error already says file:line:column
    const msg = e instanceof DumpError ? e.message : `${values.db}: import failed: ${(e as Error).message ?? String(e)}`;
    process.stderr.write(`wikiquery import: ${msg}\n`);
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
