#!/usr/bin/env node
/**
 * The `wikiquery` command: `import` loads a dump into a database file, `serve` answers api.php from it,
 * `follow` keeps it current with a running MediaWiki.
 * Exit codes: 0 success, 1 the command failed, 2 the command line is wrong.
 */
import { packageVersion } from './args.js';

/** The three commands' modules, loaded when their command is run: each pulls in most of the program. */
const serveCommand = () => import('./serve-command.js');
const importCommand = () => import('./import-command.js');
const followCommand = () => import('./follow-command.js');

async function usage(): Promise<string> {
  const [{ IMPORT_COMMAND }, { SERVE_COMMAND }, { FOLLOW_COMMAND }] = await Promise.all([importCommand(), serveCommand(), followCommand()]);
  return `usage: wikiquery <command> [options]

commands:
  wikiquery ${IMPORT_COMMAND.synopsis}
  wikiquery ${SERVE_COMMAND.synopsis}
  wikiquery ${FOLLOW_COMMAND.synopsis}

  wikiquery <command> --help   the command's options (each also settable as WIKIQUERY_<OPTION>)
  wikiquery --version`;
}

function printVersion(): number {
  console.log(`wikiquery ${packageVersion()}`);
  return 0;
}

async function printUsage(): Promise<number> {
  console.log(await usage());
  return 0;
}

/** each command word (and its spellings) and what it runs, resolving to the exit code */
const COMMANDS = new Map<string, (args: string[]) => number | Promise<number>>([
  ['import', async (args) => (await importCommand()).runImportCommand(args)],
  ['serve', async (args) => (await serveCommand()).runServeCommand(args)],
  ['follow', async (args) => (await followCommand()).runFollowCommand(args)],
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
    console.error(await usage());
    return 2;
  }
  const run = COMMANDS.get(command);
  if (run === undefined) {
    console.error(`wikiquery: unknown command '${command}'\n${await usage()}`);
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
