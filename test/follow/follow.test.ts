/**
 * `follow` against a real MediaWiki (the reference wiki of ../shared/reference/mediawiki-oracle/, which
 * .ci/run installs and starts on a port of its own): the tests change it through its API with a bot
 * password -- new pages, edits, a template edit, moves with and without a redirect, a deletion and an
 * undeletion, an upload and a re-upload, a message edit, a new account -- and check what the follower
 * reads into batches, what the fill from the API imports, and what a server on the followed database
 * answers. Each run uses titles of its own, so runs on one wiki do not meet.
 * Skipped (with the reason) without the wiki: see test/helpers/upstream-wiki.ts.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildBatch } from '../../src/follow/batch.js';
import { readWindow, newestPosition, checkReach, ChangeGapError } from '../../src/follow/changes.js';
import { dumpUpstream, batchLimit } from '../../src/follow/initial-fill.js';
import { UpstreamClient } from '../../src/follow/upstream-client.js';
import { importWiki } from '../../src/importer/import.js';
import type { UpdateItem } from '../../src/importer/update-items.js';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';
import { describeOrSkip } from '../helpers/skip.js';
import { maintenance, makeBotPassword, UpstreamEditor, upstreamWikiEnv } from '../helpers/upstream-wiki.js';

const env = upstreamWikiEnv();
const here = path.dirname(fileURLToPath(import.meta.url));
const CLI = path.join(here, '../../src/cli/main.js');

/** A 1×1 PNG; `variant` changes a byte of its pixel data so that each upload has bytes of its own. */
function png(variant: number): Buffer {
  const b = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3a8b2a90000000049454e44ae426082',
    'hex',
  );
  b[b.length - 20] ^= variant & 0xff;
  return b;
}

function origin(server: DemoServer): string {
  return new URL(server.url).origin;
}

function sha1(b: Buffer): string {
  return createHash('sha1').update(b).digest('hex');
}

const skip =
  typeof env === 'string' ? env : process.env.WIKIQUERY_TEST_DB === 'postgres' ? 'following into PostgreSQL is not implemented yet' : false;

describeOrSkip('follow: a real MediaWiki', { skip, timeout: 300_000 }, () => {
  const wiki = env as Exclude<typeof env, string>;
  const run = randomBytes(3).toString('hex');
  let editor: UpstreamEditor;
  let client: UpstreamClient;
  let bot: { user: string; password: string };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-follow-'));

  before(async () => {
    bot = makeBotPassword(wiki);
    editor = await UpstreamEditor.login(wiki.api, bot.user, bot.password);
    client = new UpstreamClient({ api: wiki.api, user: bot.user, password: bot.password, attempts: 2, backoffMs: 100 });
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  it('reads every kind of change into one batch, in the order the updater applies it', async () => {
    const start = await newestPosition(client);
    const A = `Follow ${run} A`;
    const B = `Follow ${run} B`;
    const T = `Шаблон:Follow ${run}`;
    await editor.edit(T, 'шаблон 1', 'new template');
    await editor.edit(A, `Перша версія {{Follow ${run}}} [[${B}]]`, 'new page');
    await editor.edit(A, `Друга версія {{Follow ${run}}} [[${B}]] [[Категорія:Follow ${run}]]`, 'edit', true);
    await editor.edit(T, 'шаблон 2', 'template edit');
    await editor.move(A, `${A} moved`);
    await editor.edit(B, 'Сторінка B', 'new page');
    await editor.move(B, `${B} moved`, true);
    await editor.edit(`Follow ${run} gone`, 'to delete', 'new page');
    await editor.delete(`Follow ${run} gone`);
    await editor.edit(`Follow ${run} back`, 'to delete and restore', 'new page');
    await editor.delete(`Follow ${run} back`);
    await editor.undelete(`Follow ${run} back`);
    await editor.upload(`Follow-${run}.png`, png(1), 'upload', 'опис файлу');
    await editor.upload(`Follow-${run}.png`, png(2), 're-upload');
    await editor.edit(`MediaWiki:Follow-${run}`, 'повідомлення', 'message');
    await editor.createAccount(`Follow${run}`);

    const window = await readWindow(client, start, 500);
    assert.equal(window.complete, true);
    const filesDir = path.join(tmp, 'batch-files');
    const items = await buildBatch(window, { client, limit: await batchLimit(client), filesDir });
    const ours = (title: string) => title.includes(run);

    // every change row is there, in the upstream's order, and the position is the last item
    const rows = items.filter((i) => i.type === 'recentchange').map((i) => (i as Extract<UpdateItem, { type: 'recentchange' }>).change);
    assert.deepEqual(
      rows.map((c) => c.rcid),
      window.changes.map((c) => c.rcid),
    );
    const last = items[items.length - 1];
    assert.deepEqual(last, { type: 'position', position: window.end });
    assert.equal(window.end.rcid, window.changes[window.changes.length - 1].rcid);

    // a page's revisions come before the page, oldest first; the page carries its newest revision
    const pages = items.filter((i): i is Extract<UpdateItem, { type: 'page' }> => i.type === 'page' && ours(i.page.title));
    const byTitle = new Map(pages.map((p) => [p.page.title, p.page]));
    const moved = byTitle.get(`${A} moved`);
    assert.ok(moved, 'the moved page is written under its new title');
    const movedRevs = items
      .filter((i) => i.type === 'revision' && i.page.id === moved.id)
      .map((i) => (i as Extract<UpdateItem, { type: 'revision' }>).revision);
    assert.equal(movedRevs.length, 3, 'two edits and the move null revision');
    assert.deepEqual(
      movedRevs.map((r) => r.id),
      [...movedRevs.map((r) => r.id)].sort((a, b) => a - b),
    );
    assert.equal(moved.latest.id, movedRevs[2].id);
    assert.match(moved.latest.text ?? '', /^Друга версія/);
    assert.equal(movedRevs[1].minor, true);
    assert.ok(byTitle.get(A)?.latest.text?.startsWith('#'), 'the redirect left behind is a page of its own');
    assert.ok(byTitle.has(`${B} moved`) && !byTitle.has(B), 'no redirect after a move without one');
    assert.equal(byTitle.get(T)?.latest.text, 'шаблон 2');
    assert.equal(byTitle.get(`MediaWiki:Follow-${run}`)?.latest.text, 'повідомлення');

    // deleted stays deleted; deleted and restored comes back after its deletion
    const deletions = items.filter((i): i is Extract<UpdateItem, { type: 'deletion' }> => i.type === 'deletion' && ours(i.title));
    assert.deepEqual(
      deletions.map((d) => d.title),
      [`Follow ${run} gone`],
      'a page undeleted since is not removed',
    );
    assert.ok(!byTitle.has(`Follow ${run} gone`));
    const backLog = items.findIndex(
      (i) =>
        i.type === 'logitem' && i.logitem.type === 'delete' && i.logitem.action === 'delete' && i.logitem.logtitle === `Follow ${run} back`,
    );
    const backPage = items.findIndex((i) => i.type === 'page' && i.page.title === `Follow ${run} back`);
    assert.ok(backLog >= 0 && backPage > backLog, 'the restored page is written after the entry of its deletion');

    // the file: its page with both versions, its bytes fetched and checked
    const filePage = pages.find((p) => p.page.ns === 6);
    assert.ok(filePage);
    assert.equal(filePage.page.uploads.length, 2);
    const file = items.find(
      (i): i is Extract<UpdateItem, { type: 'file' }> => i.type === 'file' && i.file.upload.filename === `Follow-${run}.png`,
    );
    assert.ok(file);
    assert.equal(sha1(fs.readFileSync(path.join(filesDir, file.file.path))), sha1(png(2)));
    assert.equal(file.file.upload.comment, 're-upload');

    // the account, and the log entries (a move's target in 1.25's stored form)
    const user = items.find((i): i is Extract<UpdateItem, { type: 'user' }> => i.type === 'user' && i.user.name === `Follow${run}`);
    assert.ok(user && user.user.id > 0);
    const moveLog = items.find(
      (i): i is Extract<UpdateItem, { type: 'logitem' }> => i.type === 'logitem' && i.logitem.type === 'move' && i.logitem.logtitle === B,
    );
    assert.ok(moveLog);
    assert.match(moveLog.logitem.params, /s:10:"5::noredir";s:1:"1"/);
  });

  it('reports a position the upstream no longer reaches back to, with how to re-synchronise', async () => {
    await assert.rejects(checkReach(client, { api: wiki.api, timestamp: '20000101000000', rcid: 0, logid: 0 }), (e: Error) => {
      assert.ok(e instanceof ChangeGapError);
      assert.match(e.message, /RCMaxAge.*Re-synchronise/s);
      return true;
    });
    await checkReach(client, await newestPosition(client));
  });

  it('fills a database from the API: the pages, their histories and the files, as the upstream has them', async () => {
    const filesDir = path.join(tmp, 'fill-files');
    const fill = await dumpUpstream(client, { filesDir, log: () => {} });
    const db = path.join(tmp, 'fill.sqlite');
    try {
      await importWiki({ dump: fill.dump, db, filesDir, lang: fill.site.lang, log: () => {}, workers: 0 });
    } finally {
      fill.cleanup();
    }
    const server = await startDemoServer({ db, filesDir });
    try {
      const params = { action: 'query', list: 'allpages', apprefix: `Follow ${run}`, aplimit: 'max', continue: '' };
      const ours = await server.get(params);
      const theirs = await (await fetch(`${wiki.api}?format=json&${new URLSearchParams(params)}`)).json();
      assert.deepEqual(ours.json.query.allpages, theirs.query.allpages);
      const history = {
        action: 'query',
        prop: 'revisions',
        titles: `Follow ${run} A moved`,
        rvprop: 'ids|timestamp|user|comment|size|sha1',
        rvlimit: 'max',
        continue: '',
      };
      const ourHistory = await server.get(history);
      const theirHistory = await (await fetch(`${wiki.api}?format=json&${new URLSearchParams(history)}`)).json();
      const revs = (j: any) => (Object.values(j.query.pages)[0] as any).revisions;
      assert.deepEqual(revs(ourHistory.json), revs(theirHistory));
      const image = await server.get({ action: 'query', prop: 'imageinfo', titles: `Файл:Follow-${run}.png`, iiprop: 'sha1|size' });
      assert.equal((Object.values(image.json.query.pages)[0] as any).imageinfo[0].sha1, sha1(png(2)));
    } finally {
      await server.close();
    }
  });

  it('follows: a server on the followed database answers each change, and at the end as a fresh import of the upstream', async () => {
    const db = path.join(tmp, 'followed.sqlite');
    const filesDir = path.join(tmp, 'followed-files');
    let output = '';
    const child: ChildProcess = spawn(
      process.execPath,
      [CLI, 'follow', wiki.api, '--db', db, '--files', filesDir, '--interval', '1', '--reports-interval', '1', '--user', bot.user],
      { env: Object.assign({}, process.env, { WIKIQUERY_PASSWORD: bot.password }), stdio: ['ignore', 'pipe', 'pipe'] },
    );
    child.stdout?.on('data', (d) => (output += d));
    child.stderr?.on('data', (d) => (output += d));
    const servers: DemoServer[] = [];
    try {
      const until = async (what: string, check: () => Promise<boolean>, ms = 60_000) => {
        const end = Date.now() + ms;
        while (!(await check())) {
          if (Date.now() > end || child.exitCode !== null) throw new Error(`${what}: not in time; the follower said: ${output}`);
          await new Promise((r) => setTimeout(r, 200));
        }
      };
      await until('the fill', async () => /filled: /.test(output));
      const server = await startDemoServer({ db, filesDir });
      servers.push(server);
      const text = async (title: string) => {
        const a = await server.get({ action: 'query', prop: 'revisions', rvprop: 'content', titles: title, formatversion: 2 });
        return a.json.query.pages[0].revisions?.[0]?.content as string | undefined;
      };

      // one change at a time, each seen by the server
      const followedFrom = await newestPosition(client);
      const C = `Follow ${run} C`;
      await editor.edit(C, `Нова сторінка [[Категорія:Follow ${run}]]`, 'new page');
      await until('a new page', async () => (await text(C)) === `Нова сторінка [[Категорія:Follow ${run}]]`);
      await editor.edit(C, 'Змінена сторінка', 'edit');
      await until('an edit', async () => (await text(C)) === 'Змінена сторінка');
      await editor.delete(C);
      await until('a deletion', async () => (await text(C)) === undefined);

      // then many mixed changes at once
      const T = `Шаблон:Follow ${run} live`;
      await editor.edit(T, `[[Категорія:Follow ${run} live]]`, 'template');
      for (let i = 0; i < 12; i++)
        await editor.edit(`Follow ${run} P${i}`, `Сторінка ${i} {{Follow ${run} live}} [[Follow ${run} P${(i + 1) % 12}]]`, `p${i}`);
      for (let i = 0; i < 12; i += 2)
        await editor.edit(`Follow ${run} P${i}`, `Сторінка ${i}, друга версія {{Follow ${run} live}}`, `p${i} again`, true);
      await editor.edit(T, `[[Категорія:Follow ${run} live 2]] шаблон`, 'template edit');
      await editor.move(`Follow ${run} P1`, `Follow ${run} P1 moved`);
      await editor.move(`Follow ${run} P3`, `Follow ${run} P3 moved`, true);
      await editor.delete(`Follow ${run} P5`);
      await editor.delete(`Follow ${run} P7`);
      await editor.undelete(`Follow ${run} P7`);
      await editor.upload(`Follow-${run}-live.png`, png(3), 'upload', `опис [[Категорія:Follow ${run} live]]`);
      await editor.upload(`Follow-${run}-live.png`, png(4), 're-upload');
      await editor.edit(`Follow ${run} P2`, `[[Файл:Follow-${run}-live.png]] {{Follow ${run} live}}`, 'uses the file');
      await editor.edit(`MediaWiki:Follow-${run}-live`, 'повідомлення', 'message');
      await editor.edit(`MediaWiki:Follow-${run}-live`, 'змінене повідомлення', 'message edit');
      await editor.createAccount(`Follow${run}live`);
      for (let i = 0; i < 12; i++) await editor.edit(`Follow ${run} Q${i % 4}`, `Версія ${i} [[Follow ${run} P${i}]]`, `q${i}`);

      const newest = await newestPosition(client);
      await until('catching up', async () => {
        const health = await (await fetch(server.url.replace(/api\.php$/, 'health'))).json();
        return health.follow?.position?.rcid === newest.rcid && health.follow?.position?.logid === newest.logid;
      });
      assert.match(output, /^batch: \d+ changes/m);

      // the upstream's own export of its final state, imported afresh: every read module answers alike
      const dump = path.join(tmp, 'upstream-final.xml');
      fs.writeFileSync(dump, maintenance(wiki, 'dumpBackup.php', '--full', '--uploads', '--quiet'));
      const fresh = path.join(tmp, 'fresh.sqlite');
      await importWiki({
        dump,
        db: fresh,
        filesDir: path.join(wiki.data, 'images'),
        lang: 'uk',
        hooks: importHooks(),
        inlineQueries: importInlineQueries(),
        log: () => {},
        workers: 0,
      });
      const reference = await startDemoServer({ db: fresh, filesDir: path.join(wiki.data, 'images') });
      servers.push(reference);
      const titles = (
        await reference.get({ action: 'query', list: 'allpages', apprefix: `Follow ${run}`, aplimit: 'max', formatversion: 2 })
      ).json.query.allpages.map((p: { title: string }) => p.title);
      assert.ok(titles.length >= 16, titles.join(', '));
      const pages = [...titles, T, `Файл:Follow-${run}-live.png`, `MediaWiki:Follow-${run}-live`].join('|');
      const requests: Array<Record<string, string>> = [
        {
          action: 'query',
          titles: pages,
          prop: 'info|revisions|categories|templates|links|images|pageprops',
          rvprop: 'ids|timestamp|user|userid|comment|size|sha1|content|flags',
        },
        {
          action: 'query',
          titles: pages,
          prop: 'linkshere|transcludedin|redirects|fileusage|categoryinfo',
          lhlimit: 'max',
          tilimit: 'max',
        },
        { action: 'query', list: 'allpages', apprefix: `Follow ${run}`, aplimit: 'max' },
        {
          action: 'query',
          list: 'categorymembers',
          cmtitle: `Категорія:Follow ${run} live 2`,
          cmprop: 'ids|title|sortkey|type',
          cmlimit: 'max',
        },
        { action: 'query', list: 'categorymembers', cmtitle: `Категорія:Follow ${run} live`, cmlimit: 'max' },
        { action: 'query', list: 'allcategories', acprefix: `Follow ${run}`, acprop: 'size' },
        { action: 'query', list: 'embeddedin', eititle: T, eilimit: 'max' },
        { action: 'query', list: 'backlinks', bltitle: `Follow ${run} P2`, bllimit: 'max' },
        { action: 'query', list: 'allredirects', arprefix: `Follow ${run}`, arprop: 'ids|title' },
        { action: 'query', list: 'allimages', aiprefix: `Follow-${run}`, aiprop: 'timestamp|user|comment|size|sha1|mime' },
        {
          action: 'query',
          prop: 'imageinfo',
          titles: `Файл:Follow-${run}-live.png`,
          iiprop: 'timestamp|user|comment|size|sha1|mime|url',
          iilimit: 'max',
        },
        { action: 'query', meta: 'allmessages', ammessages: `follow-${run}-live`, amprop: 'default' },
        { action: 'query', list: 'search', srsearch: 'друга версія', srlimit: 'max' },
        { action: 'query', prop: 'revisions', titles: `Follow ${run} Q1`, rvlimit: 'max', rvprop: 'ids|timestamp|user|comment|size' },
        { action: 'parse', page: `Follow ${run} P2`, prop: 'text|links|templates|images|categories', disablepp: '1' },
        { action: 'query', meta: 'siteinfo', siprop: 'statistics' },
      ];
      for (const request of requests) {
        const params = Object.assign({ format: 'json' }, request.action === 'query' ? { continue: '' } : {}, request);
        const [ours, theirs] = await Promise.all([server.get(params), reference.get(params)]);
        // the two servers' own addresses (file URLs) aside
        assert.equal(
          ours.text.replaceAll(origin(server), 'SERVER'),
          theirs.text.replaceAll(origin(reference), 'SERVER'),
          `${JSON.stringify(request)} answered differently on the followed database`,
        );
      }

      // what a dump cannot carry, against the upstream itself: accounts without edits, the changes followed
      const rcParams = {
        action: 'query',
        list: 'recentchanges',
        rcdir: 'newer',
        rcstart: `${followedFrom.timestamp.slice(0, 4)}-${followedFrom.timestamp.slice(4, 6)}-${followedFrom.timestamp.slice(6, 8)}T${followedFrom.timestamp.slice(8, 10)}:${followedFrom.timestamp.slice(10, 12)}:${followedFrom.timestamp.slice(12, 14)}Z`,
        rcprop: 'title|ids|timestamp|sizes|flags|user|comment',
        rclimit: 'max',
      };
      const upstreamRequests: Array<[Record<string, string>, string]> = [
        [{ action: 'query', list: 'allusers', auprefix: `Follow${run}`, auprop: 'editcount|registration' }, 'allusers'],
        [rcParams, 'recentchanges'],
      ];
      for (const [request, list] of upstreamRequests) {
        const params = Object.assign({ format: 'json', formatversion: '2' }, request);
        const followed = (rows: Array<{ rcid?: number; type?: string; pageid?: number }>) =>
          rows.filter((r) => r.rcid === undefined || r.rcid > followedFrom.rcid);
        // MediaWiki drops a deleted page's edit rows from its recent changes; the updater keeps them (the
        // incremental writer's deletion does not remove them yet): those rows aside
        const deletedPages = new Set<number>(
          (
            await server.get({
              action: 'query',
              list: 'recentchanges',
              rctype: 'log',
              rcprop: 'ids|loginfo',
              rclimit: 'max',
              formatversion: 2,
            })
          ).json.query.recentchanges
            .filter((r: { logtype?: string; logaction?: string }) => r.logtype === 'delete' && r.logaction === 'delete')
            .map((r: { pageid: number }) => r.pageid),
        );
        const ours = followed((await server.get(params)).json.query[list]).filter(
          (r: { type?: string; pageid?: number }) => list !== 'recentchanges' || r.type === 'log' || !deletedPages.has(r.pageid ?? 0),
        );
        const theirs = followed((await (await fetch(`${wiki.api}?${new URLSearchParams(params)}`)).json()).query[list]);
        assert.ok(ours.length > 0);
        assert.deepEqual(ours, theirs, `${JSON.stringify(request)}: not as the upstream answers`);
      }
    } finally {
      for (const s of servers) await s.close();
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
    assert.equal(child.exitCode, 0, output);
  });
});
