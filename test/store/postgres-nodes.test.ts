/**
 * Several stateless nodes over PostgreSQL, as real `wikiquery serve` processes (--workers 1): two on one
 * database, one on a streaming replica of it (pg_basebackup -R from the test cluster, a second cluster of
 * its own), one reading from the replica with `--db primary --db-replica replica`. They answer the demo
 * wiki's request set identically (the parser's limit-report timings masked); a re-import
 * (`wikiquery import --db postgres://…`) while a driver sends requests to every node switches them all to
 * the new wiki with no failed request. Replay on the replica is paused across the import: the primary's
 * nodes switch at once, the replica's two keep serving the previous import until replay resumes. Last, the
 * replica is stopped: the --db-replica node's reads fail with it while the primary's nodes answer (its
 * reads go to the replica). Runs in the PostgreSQL pass only.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { generateDemo } from '../../src/demo/build.js';
import { postgresBinDir, runPg, startCluster, stopCluster, urlFor, type Cluster } from '../../scripts/pg-cluster.js';
import { connect } from '../../src/store/postgres/db.js';
import { DEMO_REQUESTS, apiPath, getAs, masked } from '../helpers/request-set.js';
import { TEST_DB, freshPostgresDatabase } from '../helpers/test-db.js';
import { describeOrSkip } from '../helpers/skip.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const CLI = path.join(ROOT, 'dist/src/cli/main.js');
const skip =
  TEST_DB === 'postgres' ? false : 'runs serving nodes over PostgreSQL: the PostgreSQL pass of npm test (WIKIQUERY_TEST_DB=postgres) only';

// the page the second import adds
const NEW_PAGE = 'Сторінка після переімпорту';

interface Node {
  name: string;
  child: ChildProcess;
  base: string;
  stderr: string[];
}

let dir: string;
let primaryUrl: string;
let replicaUrl: string;
let replica: Cluster | undefined;
const nodes: Node[] = [];

function runImport(dump: string): void {
  const r = spawnSync(
    process.execPath,
    [
      CLI,
      'import',
      dump,
      '--db',
      primaryUrl,
      '--files',
      path.join(dir, 'demo', 'files'),
      '--messages',
      path.join(dir, 'demo', 'messages'),
      '--quiet',
    ],
    {
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.equal(r.status, 0, `wikiquery import: ${r.stderr}`);
}

/** A `wikiquery serve` child on a free port; resolves once it prints its address. */
function startNode(name: string, args: string[]): Promise<Node> {
  const child = spawn(
    process.execPath,
    [CLI, 'serve', ...args, '--port', '0', '--workers', '1', '--watch-interval', '0.2', '--cache-mb', '0', '--log-level', 'warn'],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const stderr: string[] = [];
  child.stderr!.setEncoding('utf8').on('data', (d: string) => stderr.push(d));
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${name} did not start: ${stderr.join('')}`));
    }, 20_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /serving (http:\/\/\S+)\/api\.php/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ name, child, base: m[1], stderr });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited (${code}): ${stderr.join('')}`));
    });
  });
}

/** An api.php request, with the one Host header of every node (answers name the host in URLs). */
const api = (node: Node, params: Record<string, string>) => getAs(node.base, apiPath(params));

async function servedImport(node: Node): Promise<string> {
  const r = await getAs(node.base, '/health');
  assert.equal(r.status, 200, `${node.name} /health: ${r.text}`);
  return (JSON.parse(r.text) as { import: { id: string } }).import.id;
}

async function hasNewPage(node: Node): Promise<boolean> {
  const r = await api(node, { action: 'query', prop: 'info', titles: NEW_PAGE });
  return JSON.parse(r.text).query.pages['-1'] === undefined;
}

async function until(what: string, test: () => Promise<boolean>, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describeOrSkip('serving nodes over PostgreSQL', { skip, timeout: 120_000 }, () => {
  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'wikiquery-pg-nodes-'));
    generateDemo(path.join(dir, 'demo'));
    primaryUrl = await freshPostgresDatabase('nodes');
    runImport(path.join(dir, 'demo', 'dump.xml'));

    // the replica: a base backup of the test cluster, streaming from it, in a directory and on a port of its own
    const primary = new URL(primaryUrl);
    const socketDir = primary.searchParams.get('host')!;
    const port = Number(primary.port);
    replica = startCluster(path.join(dir, 'replica'), {
      port: Number(process.env.WIKIQUERY_TEST_PG_REPLICA_PORT ?? port + 1),
      initFrom: (data) => {
        runPg(
          postgresBinDir()!,
          'pg_basebackup',
          ['-D', data, '-R', '-X', 'stream', '-c', 'fast', '-h', socketDir, '-p', String(port), '-U', 'postgres'],
          { quiet: true },
        );
      },
    });
    replicaUrl = urlFor(replica.socketDir, replica.port, primary.pathname.slice(1));

    nodes.push(await startNode('primary A', ['--db', primaryUrl]));
    nodes.push(await startNode('primary B', ['--db', primaryUrl]));
    nodes.push(await startNode('replica C', ['--db', replicaUrl]));
    nodes.push(await startNode('primary D, reads on the replica', ['--db', primaryUrl, '--db-replica', replicaUrl]));
  });

  after(async () => {
    await Promise.all(
      nodes.map(
        (n) =>
          new Promise<void>((resolve) => {
            if (n.child.exitCode !== null) return resolve();
            n.child.once('exit', () => resolve());
            n.child.kill('SIGTERM');
          }),
      ),
    );
    if (replica) stopCluster(replica.dir);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('every node answers the request set with the same bytes', async () => {
    for (const [name, params] of DEMO_REQUESTS) {
      const answers = await Promise.all(nodes.map((n) => api(n, params)));
      for (let i = 1; i < nodes.length; i++) {
        assert.equal(answers[i].status, answers[0].status, `${name}: ${nodes[i].name}`);
        assert.equal(masked(answers[i].text), masked(answers[0].text), `${name}: ${nodes[i].name} differs from ${nodes[0].name}`);
      }
    }
    const ids = await Promise.all(nodes.map(servedImport));
    assert.equal(new Set(ids).size, 1, ids.join(', '));
  });

  it('a re-import switches every node, with no failed request while a driver sends requests across the switch', async () => {
    const before = await servedImport(nodes[0]);
    for (const n of nodes) assert.equal(await hasNewPage(n), false, n.name);

    // the second dump: the demo wiki and one page more
    const dump = readFileSync(path.join(dir, 'demo', 'dump.xml'), 'utf8');
    const at = dump.indexOf('  <logitem>') >= 0 ? dump.indexOf('  <logitem>') : dump.lastIndexOf('</mediawiki>');
    const page = `  <page>\n    <title>${NEW_PAGE}</title>\n    <ns>0</ns>\n    <id>90001</id>\n    <revision>\n      <id>90001</id>\n      <timestamp>2016-11-01T10:00:00Z</timestamp>\n      <contributor>\n        <username>Тарас</username>\n        <id>3</id>\n      </contributor>\n      <model>wikitext</model>\n      <format>text/x-wiki</format>\n      <text xml:space="preserve">Нова сторінка, [[Київ]].</text>\n    </revision>\n  </page>\n`;
    const second = path.join(dir, 'second.xml');
    writeFileSync(second, dump.slice(0, at) + page + dump.slice(at));

    // the driver: four loops, each sending the request set round the nodes until told to stop
    const failures: string[] = [];
    let sent = 0;
    let stop = false;
    const requests = DEMO_REQUESTS.filter(([, p]) => p.format === undefined && p.action !== 'nosuchaction' && p.action !== 'help');
    const loop = async (k: number) => {
      for (let i = k; !stop; i++) {
        const node = nodes[i % nodes.length];
        const [name, params] = requests[i % requests.length];
        try {
          const r = await api(node, params);
          sent++;
          let json: { error?: { code: string } } | undefined;
          try {
            json = JSON.parse(r.text);
          } catch {
            /* reported below */
          }
          if (r.status !== 200 || json === undefined || json.error !== undefined)
            failures.push(`${node.name}, ${name}: ${r.status} ${r.text.slice(0, 200)}`);
        } catch (e) {
          failures.push(`${node.name}, ${name}: ${(e as Error).message}`);
        }
      }
    };
    const driver = Promise.all([0, 1, 2, 3].map(loop));

    const admin = connect(replicaUrl, { max: 1 });
    try {
      await admin.unsafe('SELECT pg_wal_replay_pause()');
      try {
        runImport(second);
        await until('the primary nodes serve the new import', async () =>
          (await Promise.all(nodes.slice(0, 2).map(servedImport))).every((id) => id !== before),
        );
        for (const n of nodes.slice(0, 2)) assert.equal(await hasNewPage(n), true, n.name);
        // replay paused: the replica has not got the new schema; both replica readers keep the previous import
        await new Promise((r) => setTimeout(r, 1000));
        for (const n of nodes.slice(2)) {
          assert.equal(await servedImport(n), before, `${n.name} waits for the replica`);
          assert.equal(await hasNewPage(n), false, n.name);
        }
      } finally {
        await admin.unsafe('SELECT pg_wal_replay_resume()');
      }
      await until('every node serves the new import', async () =>
        (await Promise.all(nodes.map(servedImport))).every((id) => id !== before),
      );
      for (const n of nodes) assert.equal(await hasNewPage(n), true, n.name);
      // a moment more of driving on the new import
      const after = sent;
      await until('the driver goes on', async () => sent > after + 40);
    } finally {
      stop = true;
      await driver;
      await admin.end({ timeout: 5 });
    }
    assert.deepEqual(failures, []);
    assert.ok(sent > 100, `${sent} requests sent across the switch`);
    const ids = await Promise.all(nodes.map(servedImport));
    assert.equal(new Set(ids).size, 1, ids.join(', '));
  });

  it('the nodes answer the request set alike on the new import', async () => {
    for (const [name, params] of DEMO_REQUESTS) {
      const answers = await Promise.all(nodes.map((n) => api(n, params)));
      for (let i = 1; i < nodes.length; i++)
        assert.equal(masked(answers[i].text), masked(answers[0].text), `${name}: ${nodes[i].name} differs from ${nodes[0].name}`);
    }
  });

  it('the --db-replica node reads from the replica: it stops answering when the replica stops', async () => {
    const read = { action: 'query', prop: 'info', titles: 'Київ|Львів' };
    const ok = (r: { status: number; text: string }) => r.status === 200 && JSON.parse(r.text).error === undefined;
    assert.ok(ok(await api(nodes[3], read)));
    stopCluster(replica!.dir);
    const [a, d] = [await api(nodes[0], read), await api(nodes[3], read)];
    assert.ok(ok(a), `${nodes[0].name}: ${a.text.slice(0, 200)}`);
    assert.ok(!ok(d), `${nodes[3].name} still answers without its replica: ${d.text.slice(0, 200)}`);
  });
});
