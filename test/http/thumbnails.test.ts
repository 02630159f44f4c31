/**
 * Serving thumbnails at imageinfo's thumburl (/images/thumb/a/ab/Name.png/200px-Name.png), made on the
 * first request with sharp and kept in the thumbnail folder, with thumb.php's answers for what it will not
 * make: the sizes the bytes have, a cache hit that reads no source, a decompression bomb refused before
 * it is decoded (in the API's thumberror too), a file whose bytes are broken, and the cap on renders
 * running at once.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { dumpXml, page } from '../helpers/dump-pages.js';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { importWiki } from '../../src/importer/import.js';
import { TEST_DB, freshPostgresDatabase } from '../helpers/test-db.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const DATA = path.join(ROOT, 'test', 'data', 'thumbs');

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-thumbs-test-'));
process.once('exit', () => fs.rmSync(tmp, { recursive: true, force: true }));

async function fetchThumb(thumburl: string): Promise<{ status: number; headers: Headers; body: Buffer }> {
  const r = await fetch(thumburl, { signal: AbortSignal.timeout(20_000) });
  return { status: r.status, headers: r.headers, body: Buffer.from(await r.arrayBuffer()) };
}

async function thumbOf(s: DemoServer, title: string, params: Record<string, string | number>): Promise<any> {
  const r = await s.get({ action: 'query', prop: 'imageinfo', iiprop: 'url', titles: title, formatversion: 2, ...params });
  return r.json.query.pages[0].imageinfo[0];
}

describe('thumbnails of the demo wiki', () => {
  let s: DemoServer;
  let files: string;
  const thumbs = path.join(tmp, 'demo-thumbs');
  before(async () => {
    // a copy of the files: one test moves a file away
    const demo = await startDemoServer();
    files = path.join(tmp, 'demo-files');
    fs.cpSync(path.join(demo.dir, 'demo', 'files'), files, { recursive: true });
    await demo.close();
    s = await startDemoServer({ filesDir: files, server: { thumbsDir: thumbs } });
  });
  after(async () => {
    await s?.close();
  });

  it('the thumbnail has the size of the bytes normaliseParams gives, in the format of its name', async () => {
    const big = await thumbOf(s, 'Файл:Велика картинка.png', { iiurlwidth: 100 });
    const png = await fetchThumb(big.thumburl);
    assert.equal(png.status, 200);
    assert.equal(png.headers.get('content-type'), 'image/png');
    assert.equal(png.headers.get('content-length'), String(png.body.length));
    const meta = await sharp(png.body).metadata();
    assert.deepEqual([meta.format, meta.width, meta.height], ['png', 100, 63]);

    const gif = await thumbOf(s, 'Файл:Ukraine map.gif', { iiurlwidth: 50 });
    const gifBytes = await fetchThumb(gif.thumburl);
    assert.equal(gifBytes.headers.get('content-type'), 'image/gif');
    const gifMeta = await sharp(gifBytes.body).metadata();
    assert.deepEqual([gifMeta.format, gifMeta.width, gifMeta.height], ['gif', 50, 35]);

    // an SVG is rasterised at the size asked for, at most $wgSVGMaxSize on its smaller side
    const star = await thumbOf(s, 'Файл:Зірка.svg', { iiurlwidth: 300 });
    const starMeta = await sharp((await fetchThumb(star.thumburl)).body).metadata();
    assert.deepEqual([starMeta.format, starMeta.width, starMeta.height], ['png', 300, 285]);
    const huge = await thumbOf(s, 'Файл:Зірка.svg', { iiurlwidth: 5000 });
    assert.deepEqual([huge.thumbwidth, huge.thumbheight], [5000, 4750]);
    const hugeMeta = await sharp((await fetchThumb(huge.thumburl)).body).metadata();
    assert.deepEqual([hugeMeta.width, hugeMeta.height], [2156, 2048]);
  });

  it("action=parse points at the thumbnail imageinfo reports, and srcset's are served too", async () => {
    const r = await s.post({
      action: 'parse',
      title: 'API',
      text: '[[Файл:Велика картинка.png|100px]]',
      prop: 'text',
      disablelimitreport: '1',
      format: 'json',
      formatversion: '2',
    });
    const img = /<img [^>]*src="([^"]+)" width="(\d+)" height="(\d+)" srcset="([^"]+)"/.exec(r.json.parse.text);
    assert.ok(img, r.json.parse.text);
    const info = await thumbOf(s, 'Файл:Велика картинка.png', { iiurlwidth: 100 });
    assert.equal(new URL(s.url).origin + img[1], info.thumburl);
    assert.deepEqual([Number(img[2]), Number(img[3])], [info.thumbwidth, info.thumbheight]);
    // 1.5x is a thumbnail of 150px; 2x (200px) is still smaller than the 320px file
    const candidates = img[4].split(', ').map((c) => c.split(' '));
    assert.deepEqual(
      candidates.map((c) => c[1]),
      ['1.5x', '2x'],
    );
    for (const [url, density] of candidates) {
      const bytes = await fetchThumb(new URL(s.url).origin + url);
      assert.equal(bytes.status, 200);
      assert.equal((await sharp(bytes.body).metadata()).width, density === '2x' ? 200 : 150);
    }
  });

  it('a cached thumbnail is served from the thumbnail folder without reading the file again', async () => {
    const t = await thumbOf(s, 'Файл:Tux.png', { iiurlwidth: 20 });
    const first = await fetchThumb(t.thumburl);
    assert.equal(first.status, 200);
    const kept = fs.readdirSync(thumbs, { recursive: true }).filter((f) => String(f).endsWith('20x20.png'));
    assert.equal(kept.length, 1);
    fs.renameSync(path.join(files, 'Tux.png'), path.join(files, 'Tux.png.away'));
    try {
      const again = await fetchThumb(t.thumburl);
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      const etag = again.headers.get('etag')!;
      const revalidated = await fetch(t.thumburl, { headers: { 'if-none-match': etag } });
      assert.equal(revalidated.status, 304);
      // not made yet, and the source is gone: thumb.php's 404
      const other = await fetchThumb(t.thumburl.replace(/20px-Tux\.png$/, '21px-Tux.png'));
      assert.equal(other.status, 404);
    } finally {
      fs.renameSync(path.join(files, 'Tux.png.away'), path.join(files, 'Tux.png'));
    }
  });

  it("names and sizes the file's handler does not make are refused as thumb.php refuses them", async () => {
    const base = `${new URL(s.url).origin}/images/thumb/a/af/Tux.png`;
    const status = async (name: string) => (await fetchThumb(`${base}/${name}`)).status;
    assert.equal(await status('48px-Tux.png'), 400); // not smaller than the file
    assert.equal(await status('abc-Tux.png'), 400);
    assert.equal(await status('20px-Other.png'), 400);
    assert.equal(await status('020px-Tux.png'), 404); // a name it would write otherwise
    const wrongHash = await fetchThumb(`${new URL(s.url).origin}/images/thumb/0/00/Tux.png/20px-Tux.png`);
    assert.equal(wrongHash.status, 404);
    const page = await fetchThumb(`${base}/500px-Tux.png`);
    assert.equal(page.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(
      page.body.toString(),
      /<h1>Error generating thumbnail<\/h1>\n<p>\nError creating thumbnail: Image was not scaled, is the requested width bigger than the source\?\n<\/p>/,
    );
  });

  it('renders beyond the cap wait in the queue, and past it get 503 with Retry-After', async () => {
    const capped = await startDemoServer({
      filesDir: files,
      server: { thumbsDir: path.join(tmp, 'capped'), thumbLimits: { concurrency: 1, queue: 0 } },
    });
    try {
      const t = await thumbOf(capped, 'Файл:Велика картинка.png', { iiurlwidth: 100 });
      const urls = Array.from({ length: 12 }, (_, i) => t.thumburl.replace('/100px-', `/${100 + i}px-`));
      const answers = await Promise.all(urls.map(fetchThumb));
      const codes = answers.map((a) => a.status);
      assert.ok(codes.includes(200), codes.join());
      assert.ok(codes.includes(503), codes.join());
      for (const a of answers) if (a.status === 503) assert.equal(a.headers.get('retry-after'), '5');
      // one at a time, every one is made
      for (const u of urls) assert.equal((await fetchThumb(u)).status, 200);
    } finally {
      await capped.close();
    }
  });
});

describe('a decompression bomb and a broken file', () => {
  let s: DemoServer;
  before(async () => {
    const dir = path.join(tmp, 'bomb');
    fs.mkdirSync(dir);
    fs.writeFileSync(
      path.join(dir, 'dump.xml'),
      dumpXml([page('Файл:Bomb.png', 6, 'a bomb'), page('Файл:Broken.png', 6, 'broken'), page('Сторінка', 0, '[[Файл:Bomb.png|100px]]')]),
    );
    const db = TEST_DB === 'postgres' ? await freshPostgresDatabase('thumbs') : path.join(dir, 'wiki.sqlite');
    await importWiki({
      dump: path.join(dir, 'dump.xml'),
      db,
      filesDir: path.join(DATA, 'files'),
      messageDirs: [path.join(DATA, 'messages')],
      lang: 'uk',
      progress: false,
      log: () => {},
    });
    s = await startDemoServer({ db, filesDir: path.join(DATA, 'files'), server: { thumbsDir: path.join(dir, 'thumbs') } });
  });
  after(async () => {
    await s?.close();
  });

  it("a bitmap above $wgMaxImageArea gets 1.25's thumberror, in the user's language, and no thumbnail", async () => {
    const r = await s.get({
      action: 'query',
      prop: 'imageinfo',
      iiprop: 'url|size',
      titles: 'Файл:Bomb.png',
      iiurlwidth: 100,
      formatversion: 2,
    });
    const i = r.json.query.pages[0].imageinfo[0];
    assert.deepEqual([i.width, i.height], [4000, 3200]);
    assert.equal(i.thumberror, 'Помилка створення мініатюри: Файл з розмірами більше, ніж 12,5 MP');
    assert.equal(i.thumburl, undefined);
    const en = await s.get({
      action: 'query',
      prop: 'imageinfo',
      iiprop: 'url',
      titles: 'Файл:Bomb.png',
      iiurlwidth: 100,
      uselang: 'en',
      formatversion: 2,
    });
    assert.equal(en.json.query.pages[0].imageinfo[0].thumberror, 'Error creating thumbnail: File with dimensions greater than 12.5 MP');
  });

  it('its thumbnail URL is refused with 500 before anything is decoded', async () => {
    const url = `${new URL(s.url).origin}/images/thumb/3/3b/Bomb.png/100px-Bomb.png`;
    const started = Date.now();
    const r = await fetchThumb(url);
    assert.equal(r.status, 500);
    assert.match(r.body.toString(), /Error creating thumbnail: File with dimensions greater than 12.5 MP/);
    assert.ok(Date.now() - started < 2000);
  });

  it('action=parse shows the MediaTransformError box instead of a picture', async () => {
    const r = await s.get({ action: 'parse', page: 'Сторінка', prop: 'text', formatversion: 2, disablelimitreport: 1 });
    assert.match(
      r.json.parse.text,
      /<div class="MediaTransformError" style="width: 120px; height: 120px; display:inline-block;">Помилка створення мініатюри: Файл з розмірами більше, ніж 12,5 MP<\/div>/,
    );
  });

  it('a file whose bytes cannot be decoded is a 500 page, and the server goes on serving', async () => {
    const t = await thumbOf(s, 'Файл:Broken.png', { iiurlwidth: 100 });
    assert.deepEqual([t.thumbwidth, t.thumbheight], [100, 67]);
    const r = await fetchThumb(t.thumburl);
    assert.equal(r.status, 500);
    assert.match(r.body.toString(), /<title>Error generating thumbnail<\/title>/);
    const again = await s.get({ action: 'query', meta: 'siteinfo' });
    assert.equal(again.status, 200);
  });
});
