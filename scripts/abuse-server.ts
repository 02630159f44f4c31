/**
 * Shared by the abuse scripts (fuzz, soak, kill-imports): the demo wiki generated and imported into a
 * temporary directory, and `wikiquery serve` started on it as a separate process (so that a crash is
 * seen as a crash, and its memory is its own).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateDemo } from '../src/demo/build.js';

export const ROOT = path.resolve(fileURLToPath(import.meta.url), '../../..');
export const CLI = path.join(ROOT, 'dist/src/cli/main.js');

export interface DemoWiki {
  dir: string;
  dump: string;
  files: string;
  messages: string;
  db: string;
  cleanup(): void;
}

/** Generate the demo wiki and import it with `wikiquery import`. */
export function importDemo(): DemoWiki {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-abuse-'));
  generateDemo(path.join(dir, 'demo'));
  const w: DemoWiki = {
    dir,
    dump: path.join(dir, 'demo', 'dump.xml'),
    files: path.join(dir, 'demo', 'files'),
    messages: path.join(dir, 'demo', 'messages'),
    db: path.join(dir, 'demo.sqlite'),
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
  const r = spawnSync(process.execPath, [CLI, 'import', w.dump, '--db', w.db, '--files', w.files, '--messages', w.messages, '--quiet'], {
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`import failed: ${r.stderr}`);
  return w;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  child: ChildProcess;
  url: string;
  /** the server's stderr so far (crash reports) */
  stderr(): string;
  stop(): Promise<void>;
}

/** `wikiquery serve` on the demo database, cache off unless given. */
export async function startServer(w: DemoWiki, extraArgs: string[] = [], port?: number): Promise<RunningServer> {
  const p = port ?? (await freePort());
  const child = spawn(
    process.execPath,
    [CLI, 'serve', '--db', w.db, '--files', w.files, '--port', String(p), '--cache-mb', '0', '--workers', '1', ...extraArgs],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  const url = `http://127.0.0.1:${p}/api.php`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${err}`);
    try {
      const r = await fetch(`${url}?action=query&meta=siteinfo&format=json`, { signal: AbortSignal.timeout(1000) });
      if (r.ok) break;
    } catch {
      /* not up yet */
    }
    if (i > 200) throw new Error('server did not start');
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    child,
    url,
    stderr: () => err,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Resident set size of a process in MiB (Linux /proc), or NaN. */
export function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
