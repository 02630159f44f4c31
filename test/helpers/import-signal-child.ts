/**
 * Test helper, run as its own process: imports a dump as `wikiquery import` does and, the moment the
 * import logs a line matching PATTERN, sends itself SIGNAL — a signal that arrives while the import is in
 * the phase after that line. Exit code: 0 when the import completed, 128 + signal number when it stopped
 * on the signal, 1 on any other failure.
 *
 *   node import-signal-child.js DUMP DB FILES_DIR MESSAGES_DIR PATTERN SIGNAL [no-inline-queries]
 *
 * no-inline-queries: without the links of inline query results (the hooks then finish while the
 * reports' thread runs)
 */
import { importWiki, ImportInterrupted } from '../../src/importer/import.js';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';

const [dump, db, filesDir, messagesDir, pattern, signal, mode] = process.argv.slice(2);
const re = new RegExp(pattern ?? '$^');
let sent = false;
// `node --test dist/test/` runs every file below it, this one too: without arguments it has nothing to do
if (signal === undefined) process.exit(0);
try {
  await importWiki({
    dump,
    db,
    filesDir,
    messageDirs: [messagesDir],
    lang: 'uk',
    hooks: importHooks(),
    inlineQueries: mode === 'no-inline-queries' ? undefined : importInlineQueries(),
    progress: false,
    log: (line) => {
      process.stderr.write(line + '\n');
      if (!sent && re.test(line)) {
        sent = true;
        process.kill(process.pid, signal as NodeJS.Signals);
      }
    },
  });
  process.exitCode = 0;
} catch (e) {
  if (e instanceof ImportInterrupted) process.exitCode = e.signal === 'SIGINT' ? 130 : 143;
  else {
    process.stderr.write(String((e as Error).stack ?? e) + '\n');
    process.exitCode = 1;
  }
}
