/**
 * `import --update` and the incremental path (src/importer/update.ts): the demo wiki imported as its dump
 * is, then changed-page dumps applied (test/data/update/changes.json: new pages, edits of several
 * revisions, a template edit with transcluding pages, category changes, moves with and without a redirect,
 * a deletion, SMW property changes, a MediaWiki: message edit, a file upload) must answer every read module
 * byte for byte as a fresh import of the final dump does. recentchanges and logevents are left out: a
 * fresh import rebuilds them from the dump (rebuildrecentchanges.php), an update keeps the upstream's.
 * On PostgreSQL (WIKIQUERY_TEST_DB=postgres) the same, through the local replica the import kept
 * (--staging), each batch copied into the served schema.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { fileURLToPath } from 'node:url';
import { importWiki } from '../../src/importer/import.js';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';
import { openUpdater, UpdateRefused } from '../../src/importer/update.js';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { DEMO_REQUESTS, apiPath, getAs, masked } from '../helpers/request-set.js';
import { changedPageRequests } from '../helpers/update-requests.js';
import { makeChangedDumps, type ChangedDumps, type Changes } from '../helpers/changed-dumps.js';
import { describeOrSkip } from '../helpers/skip.js';
import { freshPostgresDatabase, TEST_DB } from '../helpers/test-db.js';
import { connect } from '../../src/store/postgres/db.js';

const CHANGES: Changes = JSON.parse(
  fs.readFileSync(fileURLToPath(new URL('../../../test/data/update/changes.json', import.meta.url)), 'utf8'),
);
const CLI = fileURLToPath(new URL('../../src/cli/main.js', import.meta.url));

/** left out: answers a fresh import rebuilds from the dump and an update keeps as the upstream had them */
const UPSTREAM_OWN = new Set(['logevents', 'recentchanges']);

function importInto(db: string, dump: string, files: string, messages: string, staging?: string) {
  return importWiki({
    dump,
    db,
    staging,
    filesDir: files,
    messageDirs: [messages],
    lang: 'uk',
    hooks: importHooks(),
    inlineQueries: importInlineQueries(),
    workers: 1,
    progress: false,
    log: () => {},
  });
}

function cli(args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', timeout: 120_000 });
}

/** a database to import into: an SQLite file in `dir`, or a new PostgreSQL database with its local replica in `dir` */
async function target(dir: string, name: string): Promise<{ db: string; staging?: string; args: string[] }> {
  if (TEST_DB !== 'postgres') return { db: path.join(dir, `${name}.sqlite`), args: [] };
  const staging = path.join(dir, `${name}.replica.sqlite`);
  return { db: await freshPostgresDatabase(name), staging, args: ['--staging', staging] };
}

describeOrSkip('import --update: a changed wiki answers as a fresh import of its final dump', { skip: false, timeout: 600_000 }, () => {
  let dir: string;
  let dumps: ChangedDumps;
  let updated: DemoServer;
  let fresh: DemoServer;
  let updatedDb: { db: string; staging?: string; args: string[] };

  before(async () => {
    const demo = await demoDatabase();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-update-'));
    const src = path.join(demo.dir, 'demo');
    dumps = makeChangedDumps(path.join(src, 'dump.xml'), path.join(src, 'files'), CHANGES, dir);
    updatedDb = await target(dir, 'updated');
    const freshDb = await target(dir, 'fresh');
    await importInto(updatedDb.db, path.join(src, 'dump.xml'), path.join(src, 'files'), path.join(src, 'messages'), updatedDb.staging);
    await importInto(freshDb.db, dumps.final, dumps.files, path.join(src, 'messages'));
    // PostgreSQL: the server answers while the batches are copied in, and keeps no answer past one (an
    // SQLite file from import is served once the first update has switched it to WAL mode)
    const serve = () => startDemoServer({ db: updatedDb.db, filesDir: dumps.files });
    if (TEST_DB === 'postgres') {
      updated = await serve();
      await updated.get({ action: 'query', list: 'allpages', aplimit: 500 });
    }
    for (const dump of dumps.batches) {
      const r = cli(['import', dump, '--update', '--db', updatedDb.db, ...updatedDb.args, '--files', dumps.files, '--quiet']);
      assert.equal(r.status, 0, r.stderr);
      assert.match(r.stdout, /^Updated \d+ pages/);
    }
    if (TEST_DB !== 'postgres') updated = await serve();
    fresh = await startDemoServer({ db: freshDb.db, filesDir: dumps.files });
  });

  after(async () => {
    await updated?.close();
    await fresh?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('answers the demo request set and every request on the changed pages byte for byte', async () => {
    const requests = [...DEMO_REQUESTS.filter(([name]) => !UPSTREAM_OWN.has(name)), ...changedPageRequests(dumps.titles)];
    const differ: string[] = [];
    for (const [name, params] of requests) {
      const p = apiPath(params);
      const [a, b] = await Promise.all([getAs(updated.url.replace('/api.php', ''), p), getAs(fresh.url.replace('/api.php', ''), p)]);
      if (a.status !== b.status || masked(a.text) !== masked(b.text))
        differ.push(`${name}\n  updated: ${a.text.slice(0, 600)}\n  fresh:   ${b.text.slice(0, 600)}`);
    }
    assert.deepEqual(differ, [], `${differ.length} of ${requests.length} answers differ`);
  });

  it('keeps the upstream position and refuses malformed batches without writing', async () => {
    const u = await openUpdater(updatedDb.db, { log: () => {}, staging: updatedDb.staging });
    try {
      const before = u.position();
      assert.ok(before !== null && /^\d{14}$/.test(before.timestamp), 'a database made by import reports the newest change of its dump');
      await assert.rejects(u.apply([{ type: 'deletion', pageId: -1, ns: 0, title: 'X' }]), UpdateRefused);
      await assert.rejects(u.apply([{ type: 'bogus' } as never]), /unknown item type "bogus"/);
      const position = { api: 'http://127.0.0.1:1/api.php', timestamp: '20261201000000', rcid: 7, logid: 3 };
      await u.apply([{ type: 'position', position }]);
      assert.deepEqual(u.position(), position);
      assert.equal(u.refreshBacklog(), 0);
    } finally {
      u.close();
    }
  });
});

/** what a reader sees of the kill test's batches: pages, their category's count, the position's rcid, pages the search finds */
interface KillReader {
  snapshot(): Promise<{ pages: number; members: number; rcid: number }>;
  found(): Promise<number>;
  close(): Promise<void>;
}

const KILL_SNAPSHOT = `SELECT (SELECT COUNT(*) FROM page WHERE page_title LIKE 'Пакет\\_%' ESCAPE '\\') AS pages,
  (SELECT COALESCE((SELECT cat_pages FROM category WHERE cat_title = 'Пакети'), 0)) AS members,
  (SELECT value FROM meta WHERE key = 'upstream_position') AS position`;

function killReader(db: string): KillReader {
  const rcidOf = (r: { pages: number; members: number; position: string }) => ({
    pages: Number(r.pages),
    members: Number(r.members),
    rcid: (JSON.parse(r.position) as { rcid: number }).rcid,
  });
  if (TEST_DB === 'postgres') {
    const sql = connect(db, { max: 1 });
    const schema = async () => (await sql.unsafe('SELECT schema_name FROM wikiquery.served'))[0].schema_name as string;
    return {
      snapshot: async () => {
        const s = await schema();
        await sql.unsafe(`SET search_path TO "${s}"`);
        return rcidOf((await sql.unsafe(KILL_SNAPSHOT))[0] as never);
      },
      found: async () => Number((await sql.unsafe("SELECT COUNT(*) AS n FROM search_posting WHERE sp_term = 'пакета'"))[0].n),
      close: () => sql.end({ timeout: 5 }),
    };
  }
  const conn = new Database(db, { readonly: true });
  const snapshot = conn.prepare(KILL_SNAPSHOT);
  return {
    snapshot: async () => rcidOf(snapshot.get() as never),
    found: async () => {
      assert.equal(conn.prepare('PRAGMA integrity_check').pluck().get(), 'ok');
      return conn.prepare("SELECT COUNT(*) FROM search_index WHERE search_index MATCH 'пакета'").pluck().get() as number;
    },
    close: async () => void conn.close(),
  };
}

describeOrSkip('the updater killed mid-batch', { skip: false, timeout: 300_000 }, () => {
  const CHILD = fileURLToPath(new URL('../helpers/update-kill-child.js', import.meta.url));
  const PAGES = 40;

  it('leaves the database at the last batch it committed, every time, and a reader never sees half a batch', async () => {
    const demo = await demoDatabase();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-update-kill-'));
    try {
      let db = path.join(dir, 'wiki.sqlite');
      let staging: string | undefined;
      if (TEST_DB === 'postgres') {
        const t = await target(dir, 'killed');
        await importInto(
          t.db,
          path.join(demo.dir, 'demo', 'dump.xml'),
          path.join(demo.dir, 'demo', 'files'),
          path.join(demo.dir, 'demo', 'messages'),
          t.staging,
        );
        db = t.db;
        staging = t.staging;
      } else fs.copyFileSync(demo.db, db);
      let committed = 0;
      for (let round = 0; round < 5; round++) {
        const child = spawn(process.execPath, [CHILD, db, String(PAGES), ...(staging ? [staging] : [])], {
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d: Buffer) => (out += d.toString()));
        child.stderr.on('data', (d: Buffer) => (err += d.toString()));
        const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        // a batch in, then at a moment that falls anywhere in a later one; meanwhile a reader (as serve
        // reads the database) sees whole batches only: every page of a batch with its category count and position
        await new Promise<void>((resolve, reject) => {
          const wait = setInterval(() => {
            if (/applied \d+\n/.test(out)) {
              clearInterval(wait);
              resolve();
            } else if (child.exitCode !== null) {
              clearInterval(wait);
              reject(new Error(`the child stopped: ${err}`));
            }
          }, 5);
        });
        const reader = killReader(db);
        const until = Date.now() + 5 + Math.floor(Math.random() * (TEST_DB === 'postgres' ? 1500 : 150));
        let reads = 0;
        try {
          while (Date.now() < until) {
            const r = await reader.snapshot();
            assert.equal(r.pages, r.rcid * PAGES, 'the pages of the batches the position names');
            assert.equal(r.members, r.pages, 'the category counts of the same batches');
            reads++;
            await new Promise((r) => setTimeout(r, 1));
          }
        } finally {
          await reader.close();
        }
        assert.ok(reads > 0);
        child.kill('SIGKILL');
        await exited;
        const printed = Math.max(0, ...[...out.matchAll(/applied (\d+)/g)].map((m) => Number(m[1])));
        // reopened, the updater first copies what a kill between the replica's commit and PostgreSQL's left
        const u = await openUpdater(db, { log: () => {}, staging });
        const rcid = u.position()!.rcid;
        u.close();
        // the batch under way may have committed before its line was printed
        assert.ok(
          rcid === Math.max(printed, committed) || rcid === Math.max(printed, committed) + 1,
          `position ${rcid} after printing ${printed}`,
        );
        // what each committed batch wrote is there, whole; nothing of a later one
        const check = killReader(db);
        try {
          const r = await check.snapshot();
          assert.equal(r.rcid, rcid, "the served position is the updater's");
          assert.equal(r.pages, rcid * PAGES);
          assert.equal(r.members, rcid * PAGES);
          assert.equal(await check.found(), rcid * PAGES);
        } finally {
          await check.close();
        }
        assert.ok(rcid >= committed, 'a restarted updater resumes after the last batch it committed');
        committed = rcid;
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describeOrSkip(
  "follow's items: deletions, users, recent changes, files",
  { skip: TEST_DB === 'postgres' && 'SQLite first: PostgreSQL has no incremental writer yet', timeout: 120_000 },
  () => {
    let dir: string;
    let server: DemoServer;

    before(async () => {
      const demo = await demoDatabase();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-update-items-'));
      const db = path.join(dir, 'wiki.sqlite');
      fs.copyFileSync(demo.db, db);
      const files = path.join(dir, 'files');
      fs.cpSync(path.join(demo.dir, 'demo', 'files'), files, { recursive: true });
      fs.mkdirSync(path.join(files, 'f', 'f0'), { recursive: true });
      fs.copyFileSync(path.join(files, 'Tux.png'), path.join(files, 'f', 'f0', 'Пінгвін_2.png'));
      const u = await openUpdater(db, { filesDir: files, log: () => {} });
      try {
        const conn = new Database(db, { readonly: true });
        const pageId = conn.prepare("SELECT page_id FROM page WHERE page_namespace = 0 AND page_title = 'Одеса'").pluck().get() as number;
        conn.close();
        const s = await u.apply([
          { type: 'deletion', pageId, ns: 0, title: 'Одеса' },
          { type: 'user', user: { id: 77, name: 'Новий Бот', registration: '20261201000000', editCount: 3 } },
          {
            type: 'recentchange',
            change: {
              rcid: 9001,
              type: 'log',
              ns: 0,
              title: 'Одеса',
              pageId: 0,
              revId: 0,
              oldRevId: 0,
              timestamp: '20261201000100',
              user: 'Адміністратор',
              userId: 1,
              comment: 'вилучено',
              minor: false,
              bot: false,
              oldLen: 0,
              newLen: 0,
              logId: 900,
              logType: 'delete',
              logAction: 'delete',
            },
          },
          {
            type: 'file',
            file: {
              upload: {
                timestamp: '20261201000200',
                user: 'Новий Бот',
                userId: 77,
                comment: 'ще один пінгвін',
                filename: 'Пінгвін 2.png',
                size: 0,
                sha1base36: '',
              },
              path: 'f/f0/Пінгвін_2.png',
            },
          },
          { type: 'position', position: { api: 'http://127.0.0.1:1/api.php', timestamp: '20261201000200', rcid: 9001, logid: 900 } },
        ]);
        assert.equal(s.deleted, 1);
        assert.equal(s.files, 1);
        // a log entry whose recent change the upstream has not written yet: it comes with a later window
        await u.apply([
          {
            type: 'logitem',
            logitem: {
              id: 901,
              timestamp: '20261201000300',
              user: 'Адміністратор',
              userId: 1,
              comment: 'захищено',
              type: 'protect',
              action: 'protect',
              logtitle: 'Київ',
              params: '',
              deleted: 0,
            },
          },
          { type: 'position', position: { api: 'http://127.0.0.1:1/api.php', timestamp: '20261201000300', rcid: 9001, logid: 901 } },
        ]);
        await assert.rejects(
          u.apply([
            {
              type: 'file',
              file: {
                upload: { timestamp: '', user: '', userId: 0, comment: '', filename: 'X.png', size: 0, sha1base36: '' },
                path: '../x',
              },
            },
          ]),
          /a file needs a relative path below the files directory/,
        );
      } finally {
        u.close();
      }
      server = await startDemoServer({ db: path.join(dir, 'wiki.sqlite'), filesDir: files });
    });

    after(async () => {
      await server?.close();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    it('deletes the page with what it linked and counted', async () => {
      const r = await server.get({
        action: 'query',
        titles: 'Одеса',
        prop: 'revisions',
        list: 'search',
        srsearch: 'Одеса',
        srwhat: 'title',
      });
      assert.deepEqual(r.json.query.pages, { '-1': { ns: 0, title: 'Одеса', missing: '' } });
      assert.deepEqual(r.json.query.search, []);
    });

    it('keeps the users and the recent changes as the upstream reported them', async () => {
      const users = await server.get({
        action: 'query',
        list: 'allusers',
        aufrom: 'Новий',
        auto: 'Новий Бот',
        auprop: 'editcount|registration',
      });
      assert.deepEqual(users.json.query.allusers, [{ userid: 77, name: 'Новий Бот', editcount: 3, registration: '2026-12-01T00:00:00Z' }]);
      // the protection's entry is logged, its recent change not made up: the upstream's row comes later
      const log = await server.get({ action: 'query', list: 'logevents', leprop: 'ids|title|type', lelimit: 1 });
      const { logid, title, type, action } = log.json.query.logevents[0];
      assert.deepEqual({ logid, title, type, action }, { logid: 901, title: 'Київ', type: 'protect', action: 'protect' });
      const rc = await server.get({ action: 'query', list: 'recentchanges', rcprop: 'ids|title|loginfo', rclimit: 1 });
      assert.deepEqual(rc.json.query.recentchanges[0], {
        type: 'log',
        ns: 0,
        title: 'Одеса',
        pageid: 0,
        revid: 0,
        old_revid: 0,
        rcid: 9001,
        logid: 900,
        logtype: 'delete',
        logaction: 'delete',
        logparams: {},
      });
    });

    it('reads a fetched file from its bytes, with its duplicates', async () => {
      const r = await server.get({
        action: 'query',
        titles: 'Файл:Пінгвін 2.png',
        prop: 'imageinfo|duplicatefiles',
        iiprop: 'size|sha1|mime|user',
      });
      const page = Object.values(r.json.query.pages)[0] as any;
      assert.equal(page.imageinfo[0].user, 'Новий Бот');
      assert.equal(page.imageinfo[0].mime, 'image/png');
      assert.equal(page.imageinfo[0].size, fs.statSync(path.join(dir, 'files', 'Tux.png')).size);
      assert.ok(page.duplicatefiles.some((d: { name: string }) => d.name === 'Tux.png'));
    });
  },
);
