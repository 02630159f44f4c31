#!/usr/bin/env node
/**
 * The `wikiquery` command: `import` loads a dump into a database file, `serve` answers api.php from it.
 * Exit codes: 0 success, 1 the command failed, 2 the command line is wrong.
 */
import { runServeCommand, SERVE_COMMAND } from './serve-command.js';
import { IMPORT_COMMAND, runImportCommand } from './import-command.js';
import { packageVersion } from './args.js';

const USAGE = `usage: wikiquery <command> [options]

commands:
  wikiquery ${IMPORT_COMMAND.synopsis}
  wikiquery ${SERVE_COMMAND.synopsis}

  wikiquery <command> --help   the command's options (each also settable as WIKIQUERY_<OPTION>)
  wikiquery --version`;

async function main(argv: string[]): Promise<number> {
  const [cmd, ...rest] = argv;
  switch (cmd) {
    case 'import':
      return runImportCommand(rest);
    case 'serve':
      return runServeCommand(rest);
    case '-V':
    case '--version':
    case 'version':
      console.log(`wikiquery ${packageVersion()}`);
      return 0;
    case '-h':
    case '--help':
    case 'help':
      console.log(USAGE);
      return 0;
    case undefined:
      console.error(USAGE);
      return 2;
    default:
      console.error(`wikiquery: unknown command '${cmd}'\n${USAGE}`);
      return 2;
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
