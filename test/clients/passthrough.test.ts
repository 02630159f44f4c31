/**
 * Issue 34's clients, each configured with wikiquery (`serve --upstream`) as its only API URL, against the
 * reference MediaWiki of .ci/run (test/helpers/upstream-wiki.ts; skipped without it): log in with a bot
 * password, edit a page, read the edit back on the very next request. pywikibot 7.7.3 runs from a source
 * tree named by WIKIQUERY_TEST_PYWIKIBOT (skipped without it: it is not a dependency), mwclient from
 * Debian's python3-mwclient, mwn in this process.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, it } from 'node:test';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { describeOrSkip } from '../helpers/skip.js';
import { makeBotPassword, upstreamWikiEnv, type UpstreamWikiEnv } from '../helpers/upstream-wiki.js';

const require = createRequire(import.meta.url);
/* eslint-disable @typescript-eslint/no-explicit-any */
const { Mwn } = require('mwn') as { Mwn: any };

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const PYTHON = '/usr/bin/python3';
const env = upstreamWikiEnv();
const pywikibot = process.env.WIKIQUERY_TEST_PYWIKIBOT;
const mwclientAvailable = spawnSync(PYTHON, ['-c', 'import mwclient'], { stdio: 'ignore' }).status === 0;
const pywikibotAvailable =
  pywikibot !== undefined &&
  spawnSync(PYTHON, ['-c', 'import pywikibot'], {
    // importing pywikibot writes its cookie jar into the working directory
    cwd: tmpdir(),
    stdio: 'ignore',
    env: Object.assign({}, process.env, { PYTHONPATH: pywikibot, PYWIKIBOT_NO_USER_CONFIG: '2' }),
  }).status === 0;

let s: DemoServer;
let bot: { user: string; password: string };
const run = randomBytes(3).toString('hex');

/** Run a client script; its stdout's last line is one JSON object. */
function runScript(script: string, args: string[], extraEnv: Record<string, string> = {}): Promise<any> {
  // a client's cookie jar and caches (pywikibot.lwp, apicache) go into its working directory: a fresh one
  const cwd = mkdtempSync(join(tmpdir(), 'wq-client-'));
  return new Promise((res, rej) => {
    const child = spawn(PYTHON, [join(ROOT, 'test', 'clients', script), ...args], {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: Object.assign({}, process.env, extraEnv),
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => stdout.push(b));
    child.stderr.on('data', (b: Buffer) => stderr.push(b));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      rmSync(cwd, { recursive: true, force: true });
      const err = Buffer.concat(stderr).toString('utf8');
      if (code !== 0) return rej(new Error(`${script} ended with ${signal ?? code}:\n${err}`));
      const lines = Buffer.concat(stdout).toString('utf8').trim().split('\n');
      try {
        res(JSON.parse(lines[lines.length - 1]!));
      } catch (e) {
        rej(new Error(`${script} printed no JSON (${String(e)}):\n${err}`));
      }
    });
  });
}

/** the page's current text as the upstream itself gives it */
async function upstreamText(api: string, title: string): Promise<string> {
  const url = `${api}?action=query&prop=revisions&rvprop=content&titles=${encodeURIComponent(title)}&format=json&formatversion=2`;
  const answer = (await (await fetch(url)).json()) as any;
  return answer.query.pages[0].revisions[0].content;
}

describeOrSkip('a bot session through serve --upstream', { skip: typeof env === 'string' ? env : false, timeout: 300_000 }, () => {
  const wiki = env as UpstreamWikiEnv;
  before(async () => {
    bot = makeBotPassword(wiki);
    s = await startDemoServer({ server: { upstream: { apiUrl: wiki.api, waitMs: 5000 } } });
  });
  after(async () => {
    await s?.close();
  });

  it('pywikibot 7.7.3 logs in, reads, edits and reads its edit back', {
    skip: pywikibotAvailable
      ? false
      : 'set WIKIQUERY_TEST_PYWIKIBOT to a pywikibot 7.7.3 source tree (with python3-requests and python3-mwparserfromhell)',
  }, async () => {
    const title = `Проба pywikibot ${run}`;
    const text = `Текст від pywikibot ${run}`;
    const out = await runScript('pywikibot_session.py', [s.url, bot.user, bot.password, title, text], { PYTHONPATH: pywikibot! });
    assert.equal(out.user, 'Admin');
    assert.equal(out.logged_in, true);
    assert.equal(out.main_exists, true);
    assert.equal(out.read_back, text);
    assert.equal(await upstreamText(wiki.api, title), text);
  });

  it('mwclient logs in, edits and reads its edit back', {
    skip: mwclientAvailable ? false : 'python3-mwclient is not installed',
  }, async () => {
    const title = `Проба mwclient ${run}`;
    const text = `Текст від mwclient ${run}`;
    const out = await runScript('mwclient_session.py', [s.url, bot.user, bot.password, title, text]);
    assert.equal(out.logged_in, true);
    assert.equal(out.edit, 'Success');
    assert.equal(out.read_back, text);
    assert.equal(await upstreamText(wiki.api, title), text);
  });

  it('mwn logs in and edits through wikiquery, and is given the position to wait for', async () => {
    const title = `Проба mwn ${run}`;
    const text = `Текст від mwn ${run}`;
    const client = await Mwn.init({ apiUrl: s.url, username: bot.user, password: bot.password, silent: true });
    const saved = await client.save(title, text, 'mwn through wikiquery');
    assert.equal(saved.result, 'Success');
    assert.equal(await upstreamText(wiki.api, title), text);
    const cookies = await client.cookieJar.getCookies(s.url);
    const marker = cookies.find((c: any) => c.key === 'wikiquery_rcid');
    assert.ok(marker !== undefined && Number(marker.value) > 0, 'the write names the upstream position');
  });
});
