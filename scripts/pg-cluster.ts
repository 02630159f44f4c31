/**
 * A throwaway PostgreSQL cluster for tests and benchmarks: `initdb` + `pg_ctl` in a directory of the
 * checkout, listening only on a Unix socket in that directory (nothing system-wide, no TCP port taken).
 * Run as root (CI), the server runs as the `postgres` user that Debian's package creates.
 *
 *   node dist/scripts/pg-cluster.js start [DIR] [--port N]   prints the cluster's postgres:// URL
 *   node dist/scripts/pg-cluster.js stop [DIR]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import os from 'node:os';

export const DEFAULT_DIR = '.pg-test';

/** The directory holding PostgreSQL's server programs (initdb, pg_ctl, pg_basebackup), or null. */
export function postgresBinDir(): string | null {
  const candidates: string[] = [];
  if (process.env.PG_BIN) candidates.push(process.env.PG_BIN);
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) candidates.push(dir);
  const debian = '/usr/lib/postgresql';
  if (fs.existsSync(debian)) {
    for (const v of fs.readdirSync(debian).sort((a, b) => Number(b) - Number(a))) candidates.push(path.join(debian, v, 'bin'));
  }
  // initdb on PATH is often a symlink (Debian's /usr/bin wrappers, a hand-made /usr/local/bin link): the
  // directory it points into is the one holding the other server programs (pg_basebackup of the same version)
  for (const dir of candidates)
    if (dir && fs.existsSync(path.join(dir, 'initdb')) && fs.existsSync(path.join(dir, 'pg_ctl')))
      return path.dirname(fs.realpathSync(path.join(dir, 'initdb')));
  return null;
}

export interface Cluster {
  dir: string;
  socketDir: string;
  port: number;
  /** the maintenance database's URL (user postgres, trust authentication on the socket) */
  url: string;
  bin: string;
}

const asRoot = () => process.getuid?.() === 0;

/** Run a server program, as `postgres` when we are root (PostgreSQL refuses to run as root). */
export function runPg(bin: string, program: string, args: string[], opts: { quiet?: boolean } = {}): string {
  const exe = path.join(bin, program);
  const [cmd, argv] = asRoot() ? ['runuser', ['-u', 'postgres', '--', exe, ...args]] : [exe, args];
  return execFileSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'pipe', opts.quiet ? 'pipe' : 'inherit'], cwd: os.tmpdir() });
}

function ownForServer(p: string): void {
  if (asRoot()) execFileSync('chown', ['-R', 'postgres:postgres', p]);
}

export function urlFor(socketDir: string, port: number, database = 'postgres'): string {
  return `postgres://postgres@localhost:${port}/${database}?host=${encodeURIComponent(socketDir)}`;
}

/** The socket directory: in the cluster's directory unless that path is too long for a Unix socket. */
function socketDirFor(dir: string, port: number): string {
  const inside = path.join(dir, 'sock');
  if (Buffer.byteLength(`${inside}/.s.PGSQL.${port}`) < 100) return inside;
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wq-pg-sock-'));
}

/**
 * Create (once) and start a cluster in `dir`. `extraConf` lines go to postgresql.conf (a replica's
 * settings, say). Fast but not durable: fsync is off, it is thrown away.
 */
export function startCluster(
  dir: string,
  opts: { port?: number; initFrom?: (dataDir: string) => void; extraConf?: string[] } = {},
): Cluster {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL server programs (initdb, pg_ctl) not found: install Debian's postgresql package");
  dir = path.resolve(dir);
  const port = opts.port ?? 54000 + (process.pid % 1000);
  const data = path.join(dir, 'data');
  fs.mkdirSync(dir, { recursive: true });
  if (asRoot()) {
    // the server user must reach the directory
    for (let p = dir; p !== path.dirname(p); p = path.dirname(p)) {
      const mode = fs.statSync(p).mode;
      if ((mode & 0o001) === 0) fs.chmodSync(p, mode | 0o001);
    }
  }
  const socketDir = socketDirFor(dir, port);
  fs.mkdirSync(socketDir, { recursive: true });
  // stopCluster removes a socket directory made outside the cluster's own
  fs.writeFileSync(path.join(dir, 'socket-dir'), socketDir);
  if (!fs.existsSync(path.join(data, 'PG_VERSION'))) {
    if (opts.initFrom) {
      fs.mkdirSync(data, { recursive: true, mode: 0o700 });
      ownForServer(dir);
      opts.initFrom(data);
    } else {
      ownForServer(dir);
      runPg(bin, 'initdb', ['-D', data, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'], { quiet: true });
    }
  }
  const conf = [
    `port = ${port}`,
    "listen_addresses = ''",
    `unix_socket_directories = '${socketDir}'`,
    'fsync = off',
    'synchronous_commit = off',
    'full_page_writes = off',
    'wal_level = replica',
    'max_wal_senders = 4',
    'shared_buffers = 128MB',
    'max_connections = 200',
    ...(opts.extraConf ?? []),
  ];
  // settings of ours replace their earlier values; any other line stays (pg_basebackup -R writes a
  // replica's primary_conninfo here)
  const autoConf = path.join(data, 'postgresql.auto.conf');
  const key = (line: string) => /^\s*([A-Za-z_.]+)\s*=/.exec(line)?.[1]?.toLowerCase();
  const ours = new Set(conf.map(key));
  const kept = fs.existsSync(autoConf)
    ? fs
        .readFileSync(autoConf, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== '' && !ours.has(key(l)))
    : [];
  fs.writeFileSync(autoConf, [...kept, ...conf].join('\n') + '\n');
  const hba = path.join(data, 'pg_hba.conf');
  if (!fs.readFileSync(hba, 'utf8').includes('local replication all trust')) fs.appendFileSync(hba, '\nlocal replication all trust\n');
  ownForServer(dir);
  ownForServer(socketDir);
  runPg(bin, 'pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '60', 'start'], { quiet: true });
  return { dir, socketDir, port, url: urlFor(socketDir, port), bin };
}

export function stopCluster(dir: string): void {
  const bin = postgresBinDir();
  const data = path.join(path.resolve(dir), 'data');
  if (!bin || !fs.existsSync(path.join(data, 'postmaster.pid'))) return;
  spawnSync(
    asRoot() ? 'runuser' : path.join(bin, 'pg_ctl'),
    [...(asRoot() ? ['-u', 'postgres', '--', path.join(bin, 'pg_ctl')] : []), '-D', data, '-m', 'fast', '-w', 'stop'],
    {
      stdio: 'ignore',
      cwd: os.tmpdir(),
    },
  );
  const record = path.join(path.resolve(dir), 'socket-dir');
  const socketDir = fs.existsSync(record) ? fs.readFileSync(record, 'utf8') : '';
  if (path.basename(socketDir).startsWith('wq-pg-sock-') && path.dirname(socketDir) === os.tmpdir())
    fs.rmSync(socketDir, { recursive: true, force: true });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [cmd, dirArg] = process.argv.slice(2).filter((a) => !a.startsWith('--'));
  const portIdx = process.argv.indexOf('--port');
  const dir = dirArg ?? DEFAULT_DIR;
  if (cmd === 'start') {
    const c = startCluster(dir, { port: portIdx > 0 ? Number(process.argv[portIdx + 1]) : undefined });
    process.stdout.write(c.url + '\n');
  } else if (cmd === 'stop') {
    stopCluster(dir);
  } else {
    process.stderr.write('usage: pg-cluster.js start|stop [DIR] [--port N]\n');
    process.exit(2);
  }
}
