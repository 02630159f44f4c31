/**
 * Command-line options of the `wikiquery` commands: one table per command gives each option's type,
 * default and help; `parseCommand` reads the command line with Node's `util.parseArgs`, then fills what
 * the command line did not give from the environment (`--cache-mb` ← `WIKIQUERY_CACHE_MB`), then from the
 * defaults. A systemd unit or a container sets the environment; a person types options. Mistakes become a
 * `UsageError` with one short line the CLI prints before the usage line (exit code 2).
 */
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  multiple?: boolean;
  default?: string | boolean;
  /** placeholder in the help text (`FILE`, `N`) */
  value?: string;
  help: string;
}

export interface CommandSpec {
  name: string;
  /** the synopsis after `wikiquery` */
  synopsis: string;
  summary: string;
  options: Record<string, OptionSpec>;
  /** help lines after the option list */
  notes?: string[];
}

export type OptionValues = Record<string, string | boolean | string[] | undefined>;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/**
 * A command's answer to a mistake on its command line: a UsageError's line and the usage line on stderr,
 * exit code 2; anything else is not a usage mistake and is thrown on.
 */
export function usageFailure(spec: CommandSpec, e: unknown): number {
  if (!(e instanceof UsageError)) throw e;
  process.stderr.write(
    `wikiquery ${spec.name}: ${e.message}\nusage: wikiquery ${spec.synopsis}\n(wikiquery ${spec.name} --help for more)\n`,
  );
  return 2;
}

/** `--cache-mb` → `WIKIQUERY_CACHE_MB` */
export function envName(option: string): string {
  return 'WIKIQUERY_' + option.toUpperCase().replace(/-/g, '_');
}

const TRUE = new Set(['1', 'true', 'yes', 'on']);
const FALSE = new Set(['0', 'false', 'no', 'off', '']);

export function parseCommand(
  spec: CommandSpec,
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
): { values: OptionValues; positionals: string[] } {
  const options: Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }> = {
    help: { type: 'boolean', short: 'h' },
  };
  for (const [name, o] of Object.entries(spec.options)) {
    options[name] = { type: o.type, ...(o.short ? { short: o.short } : {}), ...(o.multiple ? { multiple: true } : {}) };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    // parseArgs explains in a long sentence with advice for programs; operators need the option's name
    const err = e as Error & { code?: string };
    const m = /'([^']+)'/.exec(err.message);
    if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && m) throw new UsageError(`unknown option ${m[1]}`);
    if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && m) {
      const name = m[1].replace(/^-\w, /, '').split(' ')[0];
      throw new UsageError(options[name.replace(/^--/, '')]?.type === 'boolean' ? `${name} takes no value` : `${name} needs a value`);
    }
    throw new UsageError(err.message);
  }
  const values: OptionValues = { ...(parsed.values as OptionValues) };
  if (values.help) return { values, positionals: parsed.positionals };
  for (const [name, o] of Object.entries(spec.options)) {
    if (values[name] !== undefined) continue;
    const fromEnv = env[envName(name)];
    if (fromEnv !== undefined) {
      if (o.type === 'boolean') {
        const v = fromEnv.trim().toLowerCase();
        if (!TRUE.has(v) && !FALSE.has(v)) throw new UsageError(`${envName(name)}=${fromEnv}: expected 1 or 0 (true or false)`);
        values[name] = TRUE.has(v);
      } else if (o.multiple) {
        // several values in one variable: separated by spaces (paths with spaces: give them as options)
        values[name] = fromEnv.split(/\s+/).filter(Boolean);
      } else {
        values[name] = fromEnv;
      }
      continue;
    }
    if (o.default !== undefined) values[name] = o.default;
  }
  return { values, positionals: parsed.positionals };
}

export function formatHelp(spec: CommandSpec): string {
  const rows = Object.entries(spec.options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : '    '}--${name}${o.type === 'string' ? ` ${o.value ?? 'VALUE'}` : ''}`;
    const extra: string[] = [];
    if (o.multiple) extra.push('repeatable');
    if (o.default !== undefined && o.default !== false) extra.push(`default ${String(o.default)}`);
    extra.push(`env ${envName(name)}`);
    return [flag, `${o.help} (${extra.join('; ')})`];
  });
  rows.push(['-h, --help', 'this help']);
  const width = Math.max(...rows.map((r) => r[0].length)) + 2;
  return [
    `usage: wikiquery ${spec.synopsis}`,
    '',
    spec.summary,
    '',
    'options:',
    ...rows.map(([f, h]) => `  ${f.padEnd(width)}${h}`),
    ...(spec.notes ? ['', ...spec.notes] : []),
  ].join('\n');
}

/** A TCP port number from an option value (0: any free port). */
export function parsePort(value: string, what = '--port'): number {
  if (!/^\d{1,5}$/.test(value.trim()) || Number(value) > 65535) throw new UsageError(`${what} ${value}: not a port number (0-65535)`);
  return Number(value);
}

/** A non-negative number from an option value. */
export function parseNumber(value: string, what: string, unit: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) throw new UsageError(`${what} ${value}: expected a number of ${unit}`);
  return n;
}

let version: string | undefined;
/** The version in package.json (dist/src/cli → the package root). */
export function packageVersion(): string {
  if (version === undefined) {
    for (const rel of ['../../../package.json', '../../package.json']) {
      try {
        version = (JSON.parse(readFileSync(fileURLToPath(new URL(rel, import.meta.url)), 'utf8')) as { version: string }).version;
        break;
      } catch {
        // not at this depth
      }
    }
  }
  return version ?? 'unknown';
}
