/**
 * Serving a database that is changed in place (a follower or `import --update` writing to an SQLite file
 * in WAL mode): each commit is seen by the next request without a restart, the response cache never
 * gives an answer from before it, and the follower's status written into meta is reported by /health and
 * /metrics and answers `maxlag` as 1.25's ApiMain::checkMaxLag does. On PostgreSQL the writes go into the
 * served schema and are announced as the follower's copied batches are (src/store/postgres/replica.ts).
 */
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import Database from 'better-sqlite3';
import { openFollowStatusWriter } from '../../src/store/open.js';
import { connect } from '../../src/store/postgres/db.js';
import { CHANGE_CHANNEL, listenForChanges } from '../../src/store/postgres/watch.js';
import { importWiki } from '../../src/importer/import.js';
import { freshPostgresDatabase } from '../helpers/test-db.js';
import type { FollowStatusRecord } from '../../src/store/follow-status.js';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { describeOrSkip } from '../helpers/skip.js';

const postgres = process.env.WIKIQUERY_TEST_DB === 'postgres';

function status(o: Partial<FollowStatusRecord>): FollowStatusRecord {
  return Object.assign(
    {
      upstream: 'https://wiki.example.org/w/api.php',
      position: { timestamp: '20261207120000', rcid: 42, logid: 7 },
      lagSeconds: 0,
      checkedAt: new Date().toISOString(),
      heartbeatSeconds: 60,
      changesApplied: 120,
      batchesApplied: 3,
      errors: 1,
      backlog: 5,
      reportsPending: true,
      lastError: '',
    },
    o,
  );
}

/** Another process's writes to the served tables, each committed at once (positional `?` parameters). */
interface Writer {
  run(sql: string, ...params: unknown[]): Promise<void>;
  get<T>(sql: string, ...params: unknown[]): Promise<T>;
  close(): Promise<void>;
}

function sqliteWriter(db: string): Writer {
  const conn = new Database(db);
  conn.pragma('journal_mode = WAL');
  conn.pragma('busy_timeout = 5000');
  return {
    run: async (sql, ...params) => void conn.prepare(sql).run(...params),
    get: async <T>(sql: string, ...params: unknown[]) => conn.prepare(sql).get(...params) as T,
    close: async () => void conn.close(),
  };
}

/** into the served schema, each write announced on the channel the follower announces its batches on */
async function postgresWriter(url: string): Promise<Writer> {
  const sql = connect(url, { max: 1 });
  const schema = (await sql.unsafe('SELECT schema_name FROM wikiquery.served'))[0].schema_name as string;
  const numbered = (text: string) => {
    let n = 0;
    return text.replace(/\?/g, () => `$${++n}`);
  };
  await sql.unsafe(`SET search_path TO "${schema}"`);
  const echo = await listenForChanges(url, schema);
  return {
    run: async (text, ...params) => {
      const heard = echo.count;
      await sql.begin(async (tx) => {
        await tx.unsafe(numbered(text), params as never[]);
        await tx.unsafe('SELECT pg_notify($1, $2)', [CHANGE_CHANNEL, schema]);
      });
      // as the follower does (replica.ts): its notice back, every serving node has been sent it
      await echo.past(heard, 2000);
    },
    get: async <T>(text: string, ...params: unknown[]) => (await sql.unsafe(numbered(text), params as never[]))[0] as T,
    close: async () => {
      echo.close();
      await sql.end({ timeout: 5 });
    },
  };
}

describeOrSkip('a database changed while it is served', { skip: false }, () => {
  let dir: string;
  let db: string;
  let server: DemoServer;
  let writer: Writer;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-live-'));
    const demo = await demoDatabase();
    if (postgres) {
      // a database of its own: the demo's is shared with the other test files
      db = await freshPostgresDatabase('live');
      const src = path.join(demo.dir, 'demo');
      await importWiki({
        dump: path.join(src, 'dump.xml'),
        db,
        filesDir: path.join(src, 'files'),
        messageDirs: [path.join(src, 'messages')],
        lang: 'uk',
        workers: 1,
        log: () => {},
      });
      writer = await postgresWriter(db);
    } else {
      db = path.join(dir, 'live.sqlite');
      fs.copyFileSync(demo.db, db);
      writer = sqliteWriter(db);
    }
    server = await startDemoServer({ db });
  });
  after(async () => {
    await server?.close();
    await writer?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /**
   * A write, as the follower makes one. On PostgreSQL each serving node hears of it on a listening
   * connection of its own, a moment after the writer's notice has come back: the request waits until the
   * node has heard, as a client of a real deployment does not (docs/operations.md says so).
   */
  async function heard(write: () => Promise<void>): Promise<void> {
    const store = server.server.store;
    const counted = store.changeCounter();
    await write();
    for (const until = Date.now() + 5000; postgres && server.server.store === store && store.changeCounter() === counted; ) {
      assert.ok(Date.now() < until, 'the serving node heard of the change within 5 s');
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  /** an UPDATE of the served database, heard by the server */
  async function change(text: string, ...params: unknown[]): Promise<void> {
    await heard(() => writer.run(text, ...params));
  }

  it('answers from each commit on, never from the cache of before it', async () => {
    const params = { action: 'query', list: 'allpages', aplimit: 500, continue: '' };
    const titles = async () => ((await server.get(params)).json.query.allpages as Array<{ title: string }>).map((p) => p.title);
    const before = await titles();
    assert.deepEqual(await titles(), before, 'the second answer is the cached first');
    const row = await writer.get<{ page_id: number; page_title: string }>(
      'SELECT page_id, page_title FROM page WHERE page_namespace = 0 ORDER BY page_title LIMIT 1',
    );
    await change("UPDATE page SET page_title = 'Live_change_title' WHERE page_id = ?", row.page_id);
    const after1 = await titles();
    assert.ok(after1.includes('Live change title'), 'the renamed page is listed at once');
    assert.ok(!after1.includes(row.page_title.replace(/_/g, ' ')));
    await change('UPDATE page SET page_title = ? WHERE page_id = ?', row.page_title, row.page_id);
    assert.deepEqual(await titles(), before);
  });

  it('reopens the database on a change: facts read at opening are read again', async () => {
    const sitename = async () => (await server.get({ action: 'query', meta: 'siteinfo' })).json.query.general.sitename as string;
    const generation = server.server.generation;
    const old = await sitename();
    const siteinfo = JSON.parse((await writer.get<{ value: string }>("SELECT value FROM meta WHERE key = 'siteinfo'")).value);
    await change(
      "UPDATE meta SET value = ? WHERE key = 'siteinfo'",
      JSON.stringify(Object.assign({}, siteinfo, { sitename: 'Жива вікі' })),
    );
    assert.equal(await sitename(), 'Жива вікі');
    assert.ok(server.server.generation > generation);
    await change("UPDATE meta SET value = ? WHERE key = 'siteinfo'", JSON.stringify(siteinfo));
    assert.equal(await sitename(), old);
  });

  it("reports the follower's status in /health and /metrics, and answers maxlag from its lag", async () => {
    const follower = openFollowStatusWriter(db);
    try {
      await heard(() => follower.write(status({ lagSeconds: 7 })));
      const ok = await server.get({ action: 'query', meta: 'siteinfo', maxlag: 10 });
      assert.equal(ok.json.error, undefined);
      const lagged = await server.get({ action: 'query', meta: 'siteinfo', maxlag: 5 });
      assert.deepEqual(lagged.json.error.code, 'maxlag');
      assert.equal(lagged.json.error.info, 'Waiting for a database server: 7 seconds lagged');
      assert.equal(lagged.headers.get('mediawiki-api-error'), 'maxlag');
      assert.equal(lagged.headers.get('retry-after'), '5');
      assert.equal(lagged.headers.get('x-database-lag'), '7');

      const base = server.url.replace(/\/api\.php$/, '');
      const health = await (await fetch(`${base}/health`)).json();
      assert.deepEqual(health.follow, {
        upstream: 'https://wiki.example.org/w/api.php',
        position: { timestamp: '20261207120000', rcid: 42, logid: 7 },
        lag: 7,
        checked: health.follow.checked,
        changesApplied: 120,
        batchesApplied: 3,
        errors: 1,
        lastError: '',
        backlog: 5,
        reportsPending: true,
      });
      const metrics = await (await fetch(`${base}/metrics`)).text();
      assert.match(metrics, /^wikiquery_follow_lag_seconds 7$/m);
      assert.match(metrics, /^wikiquery_follow_info\{upstream="https:\/\/wiki\.example\.org\/w\/api\.php"\} 1$/m);
      assert.match(metrics, /^wikiquery_follow_changes_applied 120$/m);
      assert.match(metrics, /^wikiquery_follow_backlog_pages 5$/m);

      // a follower that stopped writing: its lag grows with the status's age
      await heard(() => follower.write(status({ lagSeconds: 2, checkedAt: new Date(Date.now() - 1000_000).toISOString() })));
      const stale = await (await fetch(`${base}/health`)).json();
      assert.ok(stale.follow.lag >= 1002 && stale.follow.lag < 1010, String(stale.follow.lag));
    } finally {
      follower.close();
    }
  });
});
