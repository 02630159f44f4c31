/**
 * Issue 15, defect 6: /images/ followed symlinks out of the files directory. A file swapped after the
 * import for a symlink of the same size to a file outside the directory (or a directory entry that was a
 * symlink all along) served the outside file's bytes. Real paths are resolved and anything outside the
 * files directory is a 404; a symlink that stays inside it is still served.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';

let s: DemoServer;
let files: string;
let outside: string;
before(async () => {
  const { dir } = await demoDatabase();
  // a copy of the demo's files directory that the test may change
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-symlink-'));
  files = path.join(tmp, 'files');
  fs.cpSync(path.join(dir, 'demo', 'files'), files, { recursive: true });
  outside = path.join(tmp, 'secret');
  fs.mkdirSync(outside);
  process.once('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));
  s = await startDemoServer({ filesDir: files });
});
after(async () => {
  await s?.close();
});

async function urlOf(name: string): Promise<string> {
  const r = await s.get({ action: 'query', titles: `Файл:${name}`, prop: 'imageinfo', iiprop: 'url' });
  const page = Object.values(r.json.query.pages)[0] as any;
  return new URL(page.imageinfo[0].url).pathname;
}

describe('files are served from inside the files directory only', () => {
  it('a file replaced by a same-size symlink to an outside file is not served', async () => {
    const url = await urlOf('Tux.png');
    const base = new URL(s.url).origin;
    const ok = await fetch(base + url);
    assert.equal(ok.status, 200);
    const original = Buffer.from(await ok.arrayBuffer());
    const secret = path.join(outside, 'passwords.txt');
    fs.writeFileSync(secret, Buffer.alloc(original.length, 'S'));
    fs.renameSync(path.join(files, 'Tux.png'), path.join(files, 'Tux.png.orig'));
    fs.symlinkSync(secret, path.join(files, 'Tux.png'));
    try {
      const r = await fetch(base + url);
      const body = Buffer.from(await r.arrayBuffer());
      assert.equal(r.status, 404, `served ${body.subarray(0, 20).toString()}`);
      assert.ok(!body.includes('SSSS'));
      const head = await fetch(base + url, { method: 'HEAD' });
      assert.equal(head.status, 404);
    } finally {
      fs.unlinkSync(path.join(files, 'Tux.png'));
      fs.renameSync(path.join(files, 'Tux.png.orig'), path.join(files, 'Tux.png'));
    }
  });

  it('a symlinked directory that leads outside is not followed; a symlink that stays inside is', async () => {
    const url = await urlOf('Blank.png');
    const base = new URL(s.url).origin;
    const original = Buffer.from(await (await fetch(base + url)).arrayBuffer());
    // inside: Blank.png → a copy in a subdirectory of the files directory
    fs.mkdirSync(path.join(files, 'sub'), { recursive: true });
    fs.writeFileSync(path.join(files, 'sub', 'blank-copy.png'), original);
    fs.renameSync(path.join(files, 'Blank.png'), path.join(files, 'Blank.png.orig'));
    fs.symlinkSync(path.join(files, 'sub', 'blank-copy.png'), path.join(files, 'Blank.png'));
    try {
      const r = await fetch(base + url);
      assert.equal(r.status, 200);
      assert.deepEqual(Buffer.from(await r.arrayBuffer()), original);
      // outside through a relative link with ..
      fs.unlinkSync(path.join(files, 'Blank.png'));
      fs.writeFileSync(path.join(outside, 'blank.png'), Buffer.alloc(original.length, 'S'));
      fs.symlinkSync('../secret/blank.png', path.join(files, 'Blank.png'));
      const out = await fetch(base + url);
      assert.equal(out.status, 404);
    } finally {
      fs.rmSync(path.join(files, 'Blank.png'), { force: true });
      fs.renameSync(path.join(files, 'Blank.png.orig'), path.join(files, 'Blank.png'));
    }
  });
});
