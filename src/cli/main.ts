#!/usr/bin/env node
/**
 * The `wikiquery` command: `import` loads a dump into a database file, `serve` answers api.php from it,
 * `follow` keeps it current with a running MediaWiki.
 * Exit codes: 0 success, 1 the command failed, 2 the command line is wrong.
 */
import { runServeCommand, SERVE_COMMAND } from './serve-command.js';
import { IMPORT_COMMAND, runImportCommand } from './import-command.js';
import { FOLLOW_COMMAND, runFollowCommand } from './follow-command.js';
import { packageVersion } from './args.js';

const USAGE = `usage: wikiquery <command> [options]

commands:
  wikiquery ${IMPORT_COMMAND.synopsis}
  wikiquery ${SERVE_COMMAND.synopsis}
  wikiquery ${FOLLOW_COMMAND.synopsis}

  wikiquery <command> --help   the command's options (each also settable as WIKIQUERY_<OPTION>)
  wikiquery --version`;

function printVersion(): number {
  console.log(`wikiquery ${packageVersion()}`);
  return 0;
}

function printUsage(): number {
  console.log(USAGE);
  return 0;
}

/** each command word (and its spellings) and what it runs, resolving to the exit code */
const COMMANDS = new Map<string, (args: string[]) => number | Promise<number>>([
  ['import', runImportCommand],
  ['serve', runServeCommand],
  ['follow', runFollowCommand],
  ['-V', printVersion],
  ['--version', printVersion],
  ['version', printVersion],
  ['-h', printUsage],
  ['--help', printUsage],
  ['help', printUsage],
]);

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined) {
    console.error(USAGE);
    return 2;
  }
  const run = COMMANDS.get(command);
  if (run === undefined) {
    console.error(`wikiquery: unknown command '${command}'\n${USAGE}`);
    return 2;
  }
  return run(rest);
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
