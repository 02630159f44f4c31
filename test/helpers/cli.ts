/**
 * `wikiquery` as an operator runs it, as a child process: the command, a scratch folder per test file,
 * a one-shot run and a server started until its ready line.
 */
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

export const CLI = path.resolve(import.meta.dirname, '../../src/cli/main.js');
export const FIXTURES = path.resolve(import.meta.dirname, '../../../test/fixtures');
export const SMALL = path.join(FIXTURES, 'small-dump.xml');

/** A folder made before the file's tests and removed after them. */
export function scratchDirectory(prefix: string): { readonly path: string } {
  let made = '';
  before(() => {
    made = mkdtempSync(path.join(tmpdir(), prefix));
  });
  after(() => rmSync(made, { recursive: true, force: true }));
  return {
    get path() {
      return made;
    },
  };
}

export function run(args: string[], opts: { input?: Buffer | string; env?: Record<string, string> } = {}) {
  const r = spawnSync(process.execPath, [CLI, ...args], {
    encoding: 'utf8',
    input: opts.input,
    env: { ...process.env, ...opts.env },
    timeout: 120_000,
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface Served {
  child: ChildProcess;
  url: string;
  origin: string;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `wikiquery serve …` until its ready line; the URL is read from that line. */
export async function startServe(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const line = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes('\n')) resolve(out.split('\n')[0]);
    });
    void exited.then((code) => reject(new Error(`serve exited (${code}) before it was ready: ${err}`)));
  });
  const m = /^wikiquery: (.+), (\d+) pages, serving (http:\/\/[^ ]+\/api\.php)$/.exec(line);
  assert.ok(m, `ready line: ${line}`);
  return { child, url: m[3], origin: new URL(m[3]).origin, stderr: () => err, exited };
}
