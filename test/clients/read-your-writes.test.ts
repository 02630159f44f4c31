/**
 * Read-your-writes against a real follower (issue 34): `wikiquery follow` (a child process) keeps a database
 * current from the reference MediaWiki of .ci/run (test/helpers/upstream-wiki.ts; skipped without it), and
 * `wikiquery serve --upstream` (child processes) answers on that database. A bot logs in with a bot password
 * through wikiquery, writes, and reads its write back on the very next request. The follower is paused
 * (SIGSTOP) before each write, so the writer's read can only show the write by waiting for it: the read is
 * seen pending while the follower stands still, an anonymous read at that same moment answers at once with
 * the old state, and once the follower goes on (SIGCONT) the writer's read answers with its write. A server
 * with a short --upstream-wait answers the writer in time, with the lag warning and the old text.
 * mwn runs in this process, mwclient (Debian's python3-mwclient) and pywikibot 7.7.3 (a source tree named by
 * WIKIQUERY_TEST_PYWIKIBOT) as child processes: their logged-in queries all carry meta=userinfo, which is
 * the upstream's, so they are forwarded whole.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { describeOrSkip } from '../helpers/skip.js';
import { makeBotPassword, UpstreamEditor, upstreamWikiEnv, type UpstreamWikiEnv } from '../helpers/upstream-wiki.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const { Mwn } = require('mwn') as { Mwn: any };

const here = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(here, '../../..');
const CLI = path.join(here, '../../src/cli/main.js');
const PYTHON = '/usr/bin/python3';
const env = upstreamWikiEnv();
const pywikibot = process.env.WIKIQUERY_TEST_PYWIKIBOT;
const mwclientAvailable = spawnSync(PYTHON, ['-c', 'import mwclient'], { stdio: 'ignore' }).status === 0;
const pywikibotAvailable =
  pywikibot !== undefined &&
  spawnSync(PYTHON, ['-c', 'import pywikibot'], {
    cwd: os.tmpdir(),
    stdio: 'ignore',
    env: Object.assign({}, process.env, { PYTHONPATH: pywikibot, PYWIKIBOT_NO_USER_CONFIG: '2' }),
  }).status === 0;

const skip =
  typeof env === 'string' ? env : process.env.WIKIQUERY_TEST_DB === 'postgres' ? 'following into PostgreSQL is not implemented yet' : false;

/** how long the writer's read is watched while the follower stands still */
const PAUSE_MS = 1500;

/** A 1×1 PNG with a byte of its own, so that each upload has bytes of its own. */
function png(variant: number): Buffer {
  const b = Buffer.from(
    '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d4944415478da63f8cfc0f01f0005000201a3a8b2a90000000049454e44ae426082',
    'hex',
  );
  b[b.length - 20] ^= variant & 0xff;
  return b;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A child process whose output is kept, and the lines it printed. */
class Child {
  output = '';
  readonly exited: Promise<number | null>;

  constructor(readonly process: ChildProcess) {
    process.stdout?.on('data', (d: Buffer) => (this.output += d.toString('utf8')));
    process.stderr?.on('data', (d: Buffer) => (this.output += d.toString('utf8')));
    this.exited = new Promise((resolve) => process.on('exit', (code) => resolve(code)));
  }

  async waitFor(pattern: RegExp, ms: number): Promise<RegExpMatchArray> {
    const end = Date.now() + ms;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match !== null) return match;
      if (Date.now() > end || this.process.exitCode !== null) throw new Error(`${pattern}: not in time; the child said:\n${this.output}`);
      await sleep(100);
    }
  }

  /** stop it by its PID, woken first if it was paused */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    this.process.kill('SIGCONT');
    this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 10_000);
    await this.exited;
    clearTimeout(timer);
  }
}

/** A promise whose settling can be looked at. */
function watched<T>(promise: Promise<T>): { promise: Promise<T>; settled: () => boolean } {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  // looked at later; a rejection is reported when awaited
  tracked.catch(() => {});
  return { promise: tracked, settled: () => settled };
}

describeOrSkip('read-your-writes against a real follower', { skip, timeout: 600_000 }, () => {
  const wiki = env as UpstreamWikiEnv;
  const run = randomBytes(3).toString('hex');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-ryw-'));
  const db = path.join(tmp, 'followed.sqlite');
  const filesDir = path.join(tmp, 'files');
  fs.mkdirSync(filesDir);
  const children: Child[] = [];
  let bot: { user: string; password: string };
  let editor: UpstreamEditor;
  let follower: Child;
  /** serve --upstream-wait 60: the writer's reads wait for the follower */
  let patient: string;
  /** serve --upstream-wait 1: the writer's reads wait one second, then answer with the lag warning */
  let impatient: string;

  const serve = async (waitSeconds: number): Promise<string> => {
    const child = new Child(
      spawn(
        process.execPath,
        [CLI, 'serve', '--db', db, '--files', filesDir, '--port', '0', '--upstream', wiki.api, '--upstream-wait', String(waitSeconds)],
        { stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    children.push(child);
    return (await child.waitFor(/serving (http:\/\/\S+\/api\.php)/, 60_000))[1]!;
  };

  /** until an anonymous read through wikiquery shows the page's text (the follower has applied it) */
  const shows = async (title: string, text: string): Promise<void> => {
    const end = Date.now() + 60_000;
    while (contentOf(await anonymous(patient, revisionQuery(title))) !== text) {
      if (Date.now() > end) throw new Error(`the follower did not apply ${title}: ${follower.output}`);
      await sleep(200);
    }
  };

  const pause = () => follower.process.kill('SIGSTOP');
  const resume = () => follower.process.kill('SIGCONT');

  /** an anonymous client's read through wikiquery (no cookie) */
  const anonymous = async (server: string, params: Record<string, string>): Promise<any> => {
    const query = new URLSearchParams(Object.assign({ format: 'json', formatversion: '2' }, params));
    return (await fetch(`${server}?${query}`, { signal: AbortSignal.timeout(20_000) })).json();
  };

  const revisionQuery = (title: string) => ({ action: 'query', prop: 'revisions', rvprop: 'content', titles: title });
  const contentOf = (answer: any): string | undefined => answer.query.pages[0].revisions?.[0]?.content;

  /**
   * A write made while the follower stands still, then the writer's read: still pending after PAUSE_MS,
   * while an anonymous read (`check`) answers at once; then the follower goes on and the writer's read
   * answers. The follower goes on whatever fails.
   */
  const writeThenRead = async (
    write: () => Promise<unknown>,
    read: () => Promise<any>,
    check: () => Promise<void>,
  ): Promise<{ written: any; value: any; ms: number }> => {
    pause();
    let mine: ReturnType<typeof watched<any>>;
    let written: unknown;
    let started: number;
    try {
      written = await write();
      started = performance.now();
      mine = watched(read());
      await sleep(PAUSE_MS);
      assert.equal(mine.settled(), false, "the writer's read waits for the follower");
      await check();
      assert.equal(mine.settled(), false, "the writer's read still waits while the follower stands still");
    } finally {
      resume();
    }
    const value = await mine.promise;
    return { written, value, ms: performance.now() - started };
  };

  before(async () => {
    bot = makeBotPassword(wiki);
    editor = await UpstreamEditor.login(wiki.api, bot.user, bot.password);
    follower = new Child(
      spawn(
        process.execPath,
        [CLI, 'follow', wiki.api, '--db', db, '--files', filesDir, '--interval', '1', '--reports-interval', '60', '--user', bot.user],
        { env: Object.assign({}, process.env, { WIKIQUERY_PASSWORD: bot.password }), stdio: ['ignore', 'pipe', 'pipe'] },
      ),
    );
    children.push(follower);
    await follower.waitFor(/filled: /, 240_000);
    patient = await serve(60);
    impatient = await serve(1);
  });

  after(async () => {
    for (const child of children) await child.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('mwn: an edit reads back on the very next request, which waits for the follower; an anonymous read does not', async () => {
    const title = `RYW ${run} mwn`;
    await editor.edit(title, 'стара версія', 'old');
    await shows(title, 'стара версія');
    const client = await Mwn.init({ apiUrl: patient, username: bot.user, password: bot.password, silent: true });
    const { written, value, ms } = await writeThenRead(
      () => client.save(title, 'нова версія', 'mwn through wikiquery'),
      () => client.request(revisionQuery(title)),
      async () => {
        const t0 = performance.now();
        const other = await anonymous(patient, revisionQuery(title));
        assert.equal(contentOf(other), 'стара версія', 'another client sees the state the follower has applied');
        assert.equal(other.warnings, undefined);
        assert.ok(performance.now() - t0 < PAUSE_MS, 'another client does not wait');
      },
    );
    assert.equal(written.result, 'Success');
    assert.equal(contentOf(value), 'нова версія');
    assert.equal(value.warnings, undefined);
    assert.ok(ms >= PAUSE_MS, `the read took ${ms} ms`);
  });

  it('mwn: a move, a deletion and an upload read back too', async () => {
    const from = `RYW ${run} move`;
    const gone = `RYW ${run} delete`;
    const file = `RYW-${run}.png`;
    await editor.edit(from, 'переміщувана', 'new');
    await editor.edit(gone, 'вилучувана', 'new');
    await shows(from, 'переміщувана');
    await shows(gone, 'вилучувана');
    const client = await Mwn.init({ apiUrl: patient, username: bot.user, password: bot.password, silent: true });

    const moved = await writeThenRead(
      () => client.move(from, `${from} moved`, 'mwn moves', { noredirect: true }),
      () => client.request({ action: 'query', titles: `${from}|${from} moved` }),
      async () => {
        const other = await anonymous(patient, { action: 'query', titles: `${from} moved` });
        assert.equal(other.query.pages[0].missing, true, 'another client: not moved yet');
      },
    );
    const pages = new Map<string, any>(moved.value.query.pages.map((p: any) => [p.title, p]));
    assert.equal(pages.get(from).missing, true, 'the old title is gone (no redirect)');
    assert.ok(pages.get(`${from} moved`).pageid > 0, 'the new title is there');

    const deleted = await writeThenRead(
      () => client.delete(gone, 'mwn deletes'),
      () => client.request({ action: 'query', titles: gone }),
      async () => {
        const other = await anonymous(patient, { action: 'query', titles: gone });
        assert.ok(other.query.pages[0].pageid > 0, 'another client: not deleted yet');
      },
    );
    assert.equal(deleted.value.query.pages[0].missing, true);

    const bytes = png(7);
    const local = path.join(tmp, file);
    fs.writeFileSync(local, bytes);
    const info = { action: 'query', prop: 'imageinfo', iiprop: 'sha1|size', titles: `File:${file}` };
    const read = await writeThenRead(
      () => client.upload(local, file, 'опис файлу', { ignorewarnings: true }),
      () => client.request(info),
      async () => {
        const other = await anonymous(patient, info);
        assert.equal(other.query.pages[0].imageinfo, undefined, 'another client: not uploaded yet');
      },
    );
    assert.equal(read.written.result, 'Success');
    assert.deepEqual(read.value.query.pages[0].imageinfo, [
      { size: bytes.length, width: 1, height: 1, sha1: createHash('sha1').update(bytes).digest('hex') },
    ]);
  });

  it('past --upstream-wait, the writer is answered with the lag warning', async () => {
    const title = `RYW ${run} late`;
    await editor.edit(title, 'стара версія', 'old');
    await shows(title, 'стара версія');
    const client = await Mwn.init({ apiUrl: impatient, username: bot.user, password: bot.password, silent: true });
    pause();
    try {
      await client.save(title, 'нова версія', 'mwn through wikiquery');
      const t0 = performance.now();
      const late = await client.request(revisionQuery(title));
      const ms = performance.now() - t0;
      assert.equal(contentOf(late), 'стара версія');
      assert.match(JSON.stringify(late.warnings), /Waited 1 s for this wiki to apply your last change/);
      assert.ok(ms >= 1000, `answered after ${ms} ms`);
    } finally {
      resume();
    }
    await shows(title, 'нова версія');
    const caught = await client.request(revisionQuery(title));
    assert.equal(contentOf(caught), 'нова версія');
    assert.equal(caught.warnings, undefined);
  });

  /**
   * A client script (mwclient, pywikibot) run while the follower stands still. Both add meta=userinfo to
   * every query once logged in, and a logged-in client's userinfo is the upstream's: their read-back is
   * forwarded, and shows the edit although wikiquery's own database does not have it yet.
   */
  const scriptSession = async (script: string, title: string, extraEnv: Record<string, string>) => {
    await editor.edit(title, 'стара версія', 'old');
    await shows(title, 'стара версія');
    const cwd = fs.mkdtempSync(path.join(tmp, 'client-'));
    pause();
    try {
      const child = new Child(
        spawn(PYTHON, [path.join(ROOT, 'test', 'clients', script), patient, bot.user, bot.password, title, 'нова версія'], {
          cwd,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: Object.assign({}, process.env, extraEnv),
        }),
      );
      children.push(child);
      const code = await child.exited;
      assert.equal(code, 0, child.output);
      assert.equal(contentOf(await anonymous(patient, revisionQuery(title))), 'стара версія', 'the follower has not applied the edit');
      const lines = child.output.trim().split('\n');
      return JSON.parse(lines[lines.length - 1]!);
    } finally {
      resume();
    }
  };

  it('mwclient: logs in, edits, and reads its edit back (from the upstream: its queries carry userinfo)', {
    skip: mwclientAvailable ? false : 'python3-mwclient is not installed',
  }, async () => {
    const out = await scriptSession('mwclient_session.py', `RYW ${run} mwclient`, {});
    assert.equal(out.logged_in, true);
    assert.equal(out.edit, 'Success');
    assert.equal(out.read_back, 'нова версія');
  });

  it('pywikibot 7.7.3: logs in, edits, and reads its edit back (from the upstream: its queries carry userinfo)', {
    skip: pywikibotAvailable
      ? false
      : 'set WIKIQUERY_TEST_PYWIKIBOT to a pywikibot 7.7.3 source tree (with python3-requests and python3-mwparserfromhell)',
  }, async () => {
    const out = await scriptSession('pywikibot_session.py', `RYW ${run} pywikibot`, { PYTHONPATH: pywikibot! });
    assert.equal(out.logged_in, true);
    assert.equal(out.read_back, 'нова версія');
  });
});
