/**
 * A person with a browser: headless Chromium (Debian's `chromium`) opens a page at its article path,
 * follows a link of the rendered text to another page, and finds that page's rendered text there.
 * Chromium is driven over the DevTools protocol on a pipe (--remote-debugging-pipe: JSON messages ending
 * in NUL on file descriptors 3 and 4), so no extra package is needed.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { describeOrSkip } from '../helpers/skip.js';

const CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find(
  (p) => spawnSync(p, ['--version'], { stdio: 'ignore' }).status === 0,
);

class Browser {
  private nextId = 1;
  private buffer = '';
  private readonly pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
  ) {
    const out = child.stdio[4] as Readable;
    out.setEncoding('utf8');
    out.on('data', (chunk: string) => {
      this.buffer += chunk;
      let end: number;
      while ((end = this.buffer.indexOf('\0')) >= 0) {
        const msg = JSON.parse(this.buffer.slice(0, end));
        this.buffer = this.buffer.slice(end + 1);
        const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
        if (p) {
          this.pending.delete(msg.id);
          if (msg.error) p.reject(new Error(JSON.stringify(msg.error)));
          else p.resolve(msg.result);
        }
      }
    });
  }

  static launch(path: string): Browser {
    const dir = mkdtempSync(join(tmpdir(), 'wikiquery-chromium-'));
    const child = spawn(
      path,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--no-first-run',
        '--remote-debugging-pipe',
        `--user-data-dir=${dir}`,
        'about:blank',
      ],
      {
        stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'],
      },
    );
    return new Browser(child, dir);
  }

  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      (this.child.stdio[3] as Writable).write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  }

  async close(): Promise<void> {
    await this.send('Browser.close').catch(() => undefined);
    await new Promise((r) => (this.child.exitCode !== null ? r(undefined) : this.child.once('exit', r)));
    rmSync(this.dir, { recursive: true, force: true });
  }
}

/** evaluate an expression in the page until it gives a truthy value (the page loads and navigates meanwhile) */
async function waitFor(b: Browser, session: string, expr: string, what: string): Promise<any> {
  for (let i = 0; i < 200; i++) {
    const r = await b.send('Runtime.evaluate', { expression: expr, returnByValue: true }, session).catch(() => null);
    const v = r?.result?.value;
    if (v) return v;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describeOrSkip(
  'a browser on the article path',
  { skip: CHROMIUM ? false : 'chromium is not installed (apt-get install chromium): browser test skipped' },
  () => {
    let s: DemoServer;
    let b: Browser;
    before(async () => {
      s = await startDemoServer();
      b = Browser.launch(CHROMIUM!);
    });
    after(async () => {
      await b?.close();
      await s?.close();
    });

    it('opens Київ, follows the link to Київська область and finds its rendered text', async () => {
      const origin = new URL(s.url).origin;
      const { targetId } = await b.send('Target.createTarget', { url: `${origin}/index.php/${encodeURIComponent('Київ')}` });
      const { sessionId } = await b.send('Target.attachToTarget', { targetId, flatten: true });
      const h1 = await waitFor(
        b,
        sessionId,
        `document.readyState === 'complete' && document.querySelector('#firstHeading')?.textContent`,
        'the first page',
      );
      assert.equal(h1, 'Київ');
      const target = 'Київська область';
      const clicked = await waitFor(
        b,
        sessionId,
        `(() => { const a = [...document.querySelectorAll('#mw-content-text a')].find((x) => x.getAttribute('title') === ${JSON.stringify(target)}); if (!a) return false; a.click(); return a.getAttribute('href'); })()`,
        'the link',
      );
      assert.match(clicked, /^\/index\.php\//);
      const h1b = await waitFor(
        b,
        sessionId,
        `document.readyState === 'complete' && document.querySelector('#firstHeading')?.textContent === ${JSON.stringify(target)} && document.querySelector('#firstHeading').textContent`,
        'the second page',
      );
      assert.equal(h1b, target);
      const shown: string = await waitFor(b, sessionId, `document.querySelector('#mw-content-text')?.innerText`, 'the content');
      // the text the API renders for that page, as the browser shows it
      const parsed = (
        await s.get({ action: 'parse', page: target, prop: 'text', disablelimitreport: '1', format: 'json', formatversion: '2' })
      ).json.parse.text as string;
      const firstSentence = parsed
        .replace(/<[^>]*>/g, '')
        .replace(/&#160;/g, ' ')
        .replace(/&amp;/g, '&')
        .replace(/\s+/g, ' ')
        .trim()
        .slice(0, 40);
      assert.ok(firstSentence.length > 10);
      assert.ok(shown.replace(/\s+/g, ' ').includes(firstSentence), `${firstSentence} in ${shown.slice(0, 200)}`);
    });
  },
);
