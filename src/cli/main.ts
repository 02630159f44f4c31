#!/usr/bin/env node
/**
 * The `wikiquery` command: `import` loads a dump into a database file, `serve` answers api.php from it.
 */
import { runServeCommand } from './serve-command.js';

const USAGE = `usage:
  wikiquery import DUMP.xml --db FILE [--files DIR] [--messages DIR]... [--lang uk]
  wikiquery serve --db FILE [--host 127.0.0.1] [--port 8080] [--files DIR] [--debug] [--cache-mb 64] [--parser-cache-mb 32]`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'import': {
      const { runImportCommand } = await import('./import-command.js');
      return runImportCommand(rest);
    }
    case 'serve':
      return runServeCommand(rest);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      console.log(USAGE);
      return cmd === undefined ? 1 : 0;
    default:
      console.error(`wikiquery: unknown command '${cmd}'\n${USAGE}`);
      return 1;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`wikiquery: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
