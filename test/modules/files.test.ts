/**
 * prop=imageinfo, prop=images, prop=fileusage, list=imageusage (and their generators) over HTTP on the
 * demo wiki: exact JSON where 1.25 fixes it, continuation joined at limits 1-3 against the one-shot
 * answer, parameter errors; the bytes served at imageinfo's url (headers, ETag/304, 404s, no way out of
 * the files directory); the query plans of the store methods behind them.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoDatabase, startDemoServer, type DemoServer, assertApiError } from '../helpers/demo-server.js';
import { importWiki } from '../../src/importer/import.js';
import { createServer } from '../../src/http/server.js';
import { openStore } from '../../src/store/open.js';
import { nameFromUrl } from '../../src/http/files.js';
import { fileUrlPath } from '../../src/wiki/files.js';
import { Db } from '../../src/store/sqlite/db.js';
import { queryLog, type QueryLogEntry } from '../../src/store/query-log.js';
import { SqliteLinkStore } from '../../src/store/sqlite/links.js';
import { SqliteFileStore } from '../../src/store/sqlite/files.js';

let s: DemoServer;
let origin: string;
before(async () => {
  s = await startDemoServer();
  origin = new URL(s.url).origin;
});
after(async () => {
  await s?.close();
  await closeMini?.();
});

const get = (params: Record<string, string | number | boolean>) => s.get({ utf8: 1, ...params });
const sha1 = (b: Buffer | Uint8Array) => createHash('sha1').update(b).digest('hex');

const assertError = (r: { json: any; headers: Headers }, code: string, info: string) => assertApiError(s, r, code, info);

/** All batches of a query with `continue=`, each answer handed to `take`; returns the number of requests. */
async function walk(params: Record<string, string | number>, take: (json: any) => void): Promise<number> {
  let cont: Record<string, string> = { continue: '' };
  for (let n = 1; n < 500; n++) {
    const r = await get({ ...params, ...cont });
    assert.equal(r.json.error, undefined, JSON.stringify(r.json.error));
    take(r.json);
    if (!r.json.continue) return n;
    cont = r.json.continue;
  }
  throw new Error('no end of continuation');
}

describe('prop=imageinfo', () => {
  it('file pages, a file without a description page and a title without a file (default iiprop=timestamp|user)', async () => {
    const r = await get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Tux.png|Image:Upload_only_photo.png|Файл:Немає.png|Київ' });
    assert.equal(
      r.text,
      '{"query":{"normalized":[{"from":"Image:Upload_only_photo.png","to":"Файл:Upload only photo.png"}],"pages":{' +
        '"-1":{"ns":6,"title":"Файл:Upload only photo.png","missing":"","imagerepository":"local","imageinfo":[{"timestamp":"2015-06-01T00:00:00Z","user":"Ivan Petrenko","anon":""}]},' +
        '"-2":{"ns":6,"title":"Файл:Немає.png","missing":"","imagerepository":""},' +
        '"336":{"pageid":336,"ns":0,"title":"Київ"},' +
        '"40":{"pageid":40,"ns":6,"title":"Файл:Tux.png","imagerepository":"local","imageinfo":[{"timestamp":"2010-03-23T10:00:39Z","user":"Тарас"}]}}}}',
    );
  });

  it('every iiprop mwclient, nodemw and mwn ask for, in 1.25 key order', async () => {
    const r = await get({
      action: 'query',
      prop: 'imageinfo',
      titles: 'Файл:Linux logo.png',
      iiprop: 'timestamp|user|userid|comment|parsedcomment|canonicaltitle|url|size|sha1|mime|mediatype|metadata|archivename|bitdepth',
    });
    const info = r.json.query.pages['171'].imageinfo[0];
    assert.deepEqual(Object.keys(info), [
      'timestamp',
      'user',
      'userid',
      'size',
      'width',
      'height',
      'parsedcomment',
      'comment',
      'canonicaltitle',
      'url',
      'descriptionurl',
      'sha1',
      'metadata',
      'mime',
      'mediatype',
      'bitdepth',
    ]);
    assert.equal(info.url, `${origin}${fileUrlPath('Linux_logo.png')}`);
    assert.equal(info.descriptionurl, `${origin}/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:Linux_logo.png`);
    assert.deepEqual(
      [info.size, info.width, info.height, info.mime, info.mediatype, info.bitdepth, info.canonicaltitle],
      [128, 48, 48, 'image/png', 'BITMAP', 8, 'Файл:Linux logo.png'],
    );
    const bytes = Buffer.from(await (await fetch(info.url)).arrayBuffer());
    assert.equal(sha1(bytes), info.sha1);
    assert.equal(bytes.length, info.size);
  });

  it('fv2 and dimensions', async () => {
    const r = await get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Зірка.svg', iiprop: 'dimensions|mime', formatversion: 2 });
    assert.deepEqual(r.json.query.pages, [
      {
        pageid: 158,
        ns: 6,
        title: 'Файл:Зірка.svg',
        imagerepository: 'local',
        imageinfo: [{ size: 261, width: 100, height: 95, mime: 'image/svg+xml' }],
      },
    ]);
  });

  it('iistart/iiend bound the (only, current) version; iicontinue is checked', async () => {
    const one = async (params: Record<string, string>) =>
      (await get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Tux.png', ...params })).json.query.pages['40'];
    assert.deepEqual(await one({ iistart: '2011-01-01T00:00:00Z', iiend: '2010-01-01T00:00:00Z' }), {
      pageid: 40,
      ns: 6,
      title: 'Файл:Tux.png',
      imagerepository: 'local',
      imageinfo: [{ timestamp: '2010-03-23T10:00:39Z', user: 'Тарас' }],
    });
    assert.deepEqual(await one({ iistart: '2009-01-01T00:00:00Z' }), {
      pageid: 40,
      ns: 6,
      title: 'Файл:Tux.png',
      imagerepository: 'local',
    });
    assert.deepEqual(await one({ iiend: '2011-01-01T00:00:00Z' }), { pageid: 40, ns: 6, title: 'Файл:Tux.png', imagerepository: 'local' });
    // files before the continuation title are left out; the title itself uses the continuation timestamp
    const r = await get({
      action: 'query',
      prop: 'imageinfo',
      titles: 'Файл:Tux.png|Файл:Linux logo.png',
      iicontinue: 'Tux.png|20100323100039',
    });
    assert.deepEqual(r.json.query.pages['171'], { pageid: 171, ns: 6, title: 'Файл:Linux logo.png' });
    assert.equal(r.json.query.pages['40'].imageinfo.length, 1);
    assertError(
      await get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Tux.png', iicontinue: 'Tux.png' }),
      'iibadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
  });

  it("extmetadata: 1.25's upload time (ISO 8601) and name, both hidden; iiextmetadatafilter keeps the keys named", async () => {
    // FormatMetadata::getExtendedMetadataFromFile and getExtendedMetadataFromHook (FormatMetadata.php:1655-1712):
    // neither field is among the default metadata-fields, so both carry `hidden`; no value is translated
    const info = async (params: Record<string, string>) =>
      (await get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Tux.png', iiprop: 'extmetadata', ...params })).json.query.pages['40']
        .imageinfo;
    const both = {
      DateTime: { value: '2010-03-23T10:00:39Z', source: 'mediawiki-metadata', hidden: '' },
      ObjectName: { value: 'Tux', source: 'mediawiki-metadata', hidden: '' },
    };
    assert.deepEqual(await info({}), [{ extmetadata: both }]);
    assert.deepEqual(await info({ iiextmetadatalanguage: 'en', iiextmetadatamultilang: '1' }), [{ extmetadata: both }]);
    assert.deepEqual(await info({ iiextmetadatafilter: 'ObjectName|Artist' }), [{ extmetadata: { ObjectName: both.ObjectName } }]);
  });

  it('a description page that redirects to another file shows that file', async () => {
    const r = await get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Старий прапор.png', iiprop: 'url|sha1' });
    const page = r.json.query.pages['11'];
    assert.equal(page.imagerepository, 'local');
    assert.equal(page.imageinfo[0].url, `${origin}${fileUrlPath('Прапор_України.png')}`);
  });

  it('generator=allimages&prop=imageinfo covers every file once', async () => {
    const one = (await get({ action: 'query', list: 'allimages', ailimit: 'max', aiprop: 'sha1' })).json.query.allimages;
    const seen: string[] = [];
    await walk({ action: 'query', generator: 'allimages', gailimit: 7, prop: 'imageinfo', iiprop: 'sha1' }, (j) => {
      for (const p of Object.values(j.query.pages) as any[]) {
        assert.equal(p.imagerepository, 'local');
        seen.push(`${p.title.slice(5).replace(/ /g, '_')}:${p.imageinfo[0].sha1}`);
      }
    });
    assert.deepEqual(seen.sort(), one.map((i: any) => `${i.name}:${i.sha1}`).sort());
  });
});

describe('prop=images', () => {
  it('lists the files of a page, red links included, in name order; continuation <page id>|<file>', async () => {
    const r = await get({ action: 'query', prop: 'images', titles: 'Київ', imlimit: 3, continue: '' });
    assert.equal(
      r.text,
      '{"continue":{"imcontinue":"336|Дніпро_з_висоти.png","continue":"||"},"query":{"pages":{"336":{"pageid":336,"ns":0,"title":"Київ","images":[' +
        '{"ns":6,"title":"Файл:Kyiv coat of arms.png"},{"ns":6,"title":"Файл:Small icon.png"},{"ns":6,"title":"Файл:Герб Києва.png"}]}}}}',
    );
  });

  it('joins across continuation over many pages (limits 1-3, both directions)', async () => {
    const pages = 'Київ|Львів|Головна сторінка|Суми|Файл:Старий прапор.png|Немає такої';
    const oneShot = (await get({ action: 'query', prop: 'images', titles: pages, imlimit: 'max' })).json.query.pages;
    const expected = (Object.values(oneShot) as any[]).flatMap((p) => (p.images ?? []).map((i: any) => `${p.pageid}:${i.title}`));
    assert.ok(expected.length > 10);
    for (const dir of ['ascending', 'descending']) {
      for (const limit of [1, 2, 3]) {
        const got: string[] = [];
        const conts: number[] = [];
        const n = await walk({ action: 'query', prop: 'images', titles: pages, imlimit: limit, imdir: dir }, (j) => {
          for (const p of Object.values(j.query.pages) as any[]) for (const i of p.images ?? []) got.push(`${p.pageid}:${i.title}`);
          if (j.continue) conts.push(Number(j.continue.imcontinue.split('|')[0]));
        });
        assert.ok(n >= expected.length / limit);
        assert.deepEqual([...got].sort(), [...expected].sort(), `limit ${limit} ${dir}`);
        // the pages are walked in id order (descending for imdir=descending)
        assert.deepEqual(
          conts,
          [...conts].sort((a, b) => (dir === 'ascending' ? a - b : b - a)),
        );
      }
    }
  });

  it('imimages filters (and warns about values that are not files); generator=images yields the file pages', async () => {
    const r = await get({ action: 'query', prop: 'images', titles: 'Київ', imimages: 'File:Small icon.png|Київ|Файл:Немає.png' });
    assert.deepEqual(r.json.query.pages['336'].images, [{ ns: 6, title: 'Файл:Small icon.png' }]);
    assert.equal(r.json.warnings.images['*'], '"Київ" is not a file');
    const all = await get({ action: 'query', prop: 'images', titles: 'Київ', imimages: 'Київ', imlimit: 'max' });
    assert.ok(all.json.query.pages['336'].images.length > 5, 'no file left: no filter (addWhereFld skips an empty list)');
    const g = await get({ action: 'query', generator: 'images', titles: 'Київ', gimlimit: 'max' });
    const titles = (Object.values(g.json.query.pages) as any[]).map((p) => p.title).sort();
    assert.deepEqual(titles, all.json.query.pages['336'].images.map((i: any) => i.title).sort());
    assert.ok(
      (Object.values(g.json.query.pages) as any[]).some((p) => p.missing === ''),
      'red links come out as missing pages',
    );
  });

  it('bad continuation', async () => {
    assertError(
      await get({ action: 'query', prop: 'images', titles: 'Київ', imcontinue: '336' }),
      'imbadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
  });
});

describe('prop=fileusage', () => {
  it('default props pageid|title|redirect; continuation is the page id for one file', async () => {
    const r = await get({ action: 'query', prop: 'fileusage', titles: 'Файл:Прапор України.png', fulimit: 3, continue: '' });
    assert.equal(
      r.text,
      '{"continue":{"fucontinue":"46","continue":"||"},"query":{"pages":{"147":{"pageid":147,"ns":6,"title":"Файл:Прапор України.png","fileusage":[' +
        '{"pageid":1,"ns":0,"title":"Головна сторінка"},{"pageid":26,"ns":0,"title":"Суми"},{"pageid":33,"ns":0,"title":"Умань"}]}}}}',
    );
  });

  it('joins across continuation with several files and namespaces (continuation fields as the order needs them)', async () => {
    const titles = 'Файл:Прапор України.png|Файл:Герб Києва.png|Файл:Неіснуюче фото Києва.jpg|Файл:Small icon.png|Київ';
    for (const ns of [undefined, '0', '0|6|10']) {
      const extra: Record<string, string> = ns === undefined ? {} : { funamespace: ns };
      const oneShot = (await get({ action: 'query', prop: 'fileusage', titles, fulimit: 'max', ...extra })).json.query.pages;
      const expected = (Object.values(oneShot) as any[]).flatMap((p) => (p.fileusage ?? []).map((u: any) => `${p.title}>${u.pageid}`));
      assert.ok(expected.length > 5, String(ns));
      for (const limit of [1, 2, 3]) {
        const got: string[] = [];
        const conts: string[] = [];
        await walk({ action: 'query', prop: 'fileusage', titles, fulimit: limit, ...extra }, (j) => {
          for (const p of Object.values(j.query.pages) as any[]) for (const u of p.fileusage ?? []) got.push(`${p.title}>${u.pageid}`);
          if (j.continue?.fucontinue) conts.push(j.continue.fucontinue);
        });
        assert.deepEqual(got.sort(), [...expected].sort(), `ns ${ns} limit ${limit}`);
        const fields = ns === '0|6|10' ? 3 : 2;
        for (const c of conts) assert.equal(c.split('|').length, fields, c);
      }
    }
  });

  it('fushow, fuprop, namespaces; errors', async () => {
    const q = (extra: Record<string, string>) =>
      get({ action: 'query', prop: 'fileusage', titles: 'Файл:Прапор України.png', fulimit: 'max', ...extra });
    // the demo's file redirect (Файл:Старий прапор.png) links to the file but does not use it (the oracle agrees):
    // no redirect uses this file
    assert.equal((await q({ fushow: 'redirect' })).json.query.pages['147'].fileusage, undefined);
    const others = (await q({ fushow: '!redirect', fuprop: 'title' })).json.query.pages['147'].fileusage;
    assert.ok(others.length > 10 && others.every((u: any) => Object.keys(u).join() === 'ns,title' && u.title !== 'Файл:Старий прапор.png'));
    const ns0 = (await q({ funamespace: '0|10' })).json.query.pages['147'].fileusage;
    assert.ok(ns0.length >= 1 && ns0.every((u: any) => u.ns === 0));
    const fv2 = await get({ action: 'query', prop: 'fileusage', titles: 'Файл:Прапор України.png', fulimit: 2, formatversion: 2 });
    assert.deepEqual(fv2.json.query.pages[0].fileusage[0], { pageid: 1, ns: 0, title: 'Головна сторінка', redirect: false });
    assertError(await q({ fushow: 'redirect|!redirect' }), 'fushow', 'Incorrect parameter - mutually exclusive values may not be supplied');
    assertError(
      await q({ fucontinue: 'x' }),
      'fubadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
    assertError(
      await q({ fucontinue: '1|2' }),
      'fubadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
  });

  it('generator=fileusage yields the using pages', async () => {
    const list = (await get({ action: 'query', prop: 'fileusage', titles: 'Файл:Прапор України.png', fulimit: 'max' })).json.query.pages[
      '147'
    ].fileusage;
    const g = await get({ action: 'query', generator: 'fileusage', titles: 'Файл:Прапор України.png', gfulimit: 'max' });
    assert.deepEqual(
      (Object.values(g.json.query.pages) as any[]).map((p) => p.pageid).sort((a, b) => a - b),
      list.map((u: any) => u.pageid).sort((a: number, b: number) => a - b),
    );
  });
});

describe('list=imageusage', () => {
  it('pages using a file in page id order; continuation <namespace>|<page id>', async () => {
    const r = await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iulimit: 3, continue: '' });
    assert.equal(
      r.text,
      '{"batchcomplete":"","continue":{"iucontinue":"0|46","continue":"-||"},"query":{"imageusage":[' +
        '{"pageid":1,"ns":0,"title":"Головна сторінка"},{"pageid":26,"ns":0,"title":"Суми"},{"pageid":33,"ns":0,"title":"Умань"}]}}',
    );
  });

  it('joins across continuation (limits 1-3, both directions, one or several namespaces)', async () => {
    for (const ns of [undefined, '0', '0|6']) {
      const extra: Record<string, string> = ns === undefined ? {} : { iunamespace: ns };
      const expected = (
        await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iulimit: 'max', ...extra })
      ).json.query.imageusage.map((u: any) => u.pageid);
      for (const dir of ['ascending', 'descending']) {
        for (const limit of [1, 2, 3]) {
          const got: number[] = [];
          await walk(
            { action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iulimit: limit, iudir: dir, ...extra },
            (j) => got.push(...j.query.imageusage.map((u: any) => u.pageid)),
          );
          assert.deepEqual(
            [...got].sort((a, b) => a - b),
            [...expected].sort((a: number, b: number) => a - b),
            `ns ${ns} ${dir} ${limit}`,
          );
          if (ns !== '0|6')
            assert.deepEqual(
              got,
              [...got].sort((a, b) => (dir === 'ascending' ? a - b : b - a)),
            );
        }
      }
    }
  });

  it('iuredirect follows only redirects that use the file; filterredir', async () => {
    // Файл:Старий прапор.png redirects to the file: a page link, not a use (WikitextContent::fillParserOutput;
    // the oracle agrees), so iuredirect finds no redirect here (the mini wiki below has one that uses it)
    const r = await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iulimit: 'max', iuredirect: 1 });
    assert.deepEqual(r.json.limits, { imageusage: 250 });
    const plain = await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iulimit: 'max' });
    assert.deepEqual(r.json.query.imageusage, plain.json.query.imageusage);
    const onlyRedirects = (
      await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iufilterredir: 'redirects' })
    ).json.query.imageusage;
    assert.deepEqual(onlyRedirects, []);
    const warn = await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:Прапор України.png', iulimit: 300, iuredirect: 1 });
    assert.equal(warn.json.warnings.imageusage['*'], 'iulimit may not be over 250 (set to 300) for users');
  });

  it('iupageid, generator, errors', async () => {
    const byId = await get({ action: 'query', list: 'imageusage', iupageid: 147, iulimit: 'max' });
    const byTitle = await get({ action: 'query', list: 'imageusage', iutitle: 'File:Прапор_України.png', iulimit: 'max' });
    assert.deepEqual(byId.json.query, byTitle.json.query);
    const g = await get({ action: 'query', generator: 'imageusage', giutitle: 'Файл:Прапор України.png', giulimit: 'max', prop: 'info' });
    assert.deepEqual(
      (Object.values(g.json.query.pages) as any[]).map((p) => p.pageid).sort((a, b) => a - b),
      byTitle.json.query.imageusage.map((u: any) => u.pageid).sort((a: number, b: number) => a - b),
    );
    assert.ok((Object.values(g.json.query.pages) as any[]).every((p) => /^\d{4}-/.test(p.touched)));
    assertError(
      await get({ action: 'query', list: 'imageusage' }),
      'iumissingparam',
      'One of the parameters iutitle, iupageid is required',
    );
    assertError(
      await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:A.png', iupageid: 1 }),
      'iuinvalidparammix',
      'The parameters iutitle, iupageid can not be used together',
    );
    assertError(
      await get({ action: 'query', list: 'imageusage', iutitle: 'Київ' }),
      'iubad_image_title',
      'The title for imageusage query must be a file',
    );
    assertError(await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:[x]' }), 'iuinvalidtitle', 'Bad title "Файл:[x]"');
    assertError(await get({ action: 'query', list: 'imageusage', iupageid: 999999 }), 'iunosuchpageid', 'There is no page with ID 999999');
    assertError(
      await get({ action: 'query', list: 'imageusage', iutitle: 'Файл:A.png', iucontinue: '0|07' }),
      'iubadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
    assertError(
      await get({ action: 'query', generator: 'imageusage', giutitle: 'Київ' }),
      'giubad_image_title',
      'The title for imageusage query must be a file',
    );
  });
});

describe("the files at imageinfo's url", () => {
  it('serves the bytes with Content-Type, Content-Length, ETag and Last-Modified; 304 on If-None-Match; HEAD', async () => {
    const { dir } = await demoDatabase();
    for (const [name, mime] of [
      ['Linux_logo.png', 'image/png'],
      ['Зірка.svg', 'image/svg+xml'],
      ['Документ.pdf', 'application/pdf'],
      ['Мапа_України.gif', 'image/gif'],
    ]) {
      const url = origin + fileUrlPath(name);
      const res = await fetch(url);
      const bytes = Buffer.from(await res.arrayBuffer());
      const disk = readFileSync(join(dir, 'demo', 'files', name));
      assert.equal(res.status, 200, name);
      assert.equal(res.headers.get('content-type'), mime);
      assert.equal(res.headers.get('content-length'), String(disk.length));
      assert.equal(res.headers.get('etag'), `"${sha1(disk)}"`);
      assert.ok(res.headers.get('last-modified'));
      assert.deepEqual(bytes, disk);
      for (const tag of [`"${sha1(disk)}"`, `W/"${sha1(disk)}"`, `"x", "${sha1(disk)}"`, '*']) {
        const again = await fetch(url, { headers: { 'If-None-Match': tag } });
        assert.equal(again.status, 304, tag);
        assert.equal((await again.arrayBuffer()).byteLength, 0);
        assert.equal(again.headers.get('etag'), `"${sha1(disk)}"`);
      }
      assert.equal((await fetch(url, { headers: { 'If-None-Match': '"other"' } })).status, 200);
      const head = await fetch(url, { method: 'HEAD' });
      assert.equal(head.status, 200);
      assert.equal(head.headers.get('content-length'), String(disk.length));
    }
  });

  it('404 for unknown names, wrong hash directories, other shapes and attempts to leave the files directory', async () => {
    const paths = [
      fileUrlPath('Немає_такого.png'),
      '/images/0/05/Linux_logo.png', // the right name in the wrong hash directory
      '/images/Linux_logo.png',
      '/images/0/04/x/Linux_logo.png',
      '/images/0/04/',
      '/images/0/04/..%2F..%2F..%2Fdemo.sqlite',
      '/images/0/04/%2e%2e',
      '/images/../../../etc/passwd',
    ];
    for (const p of paths) {
      const res = await fetch(origin + p);
      assert.equal(res.status, 404, p);
      await res.arrayBuffer();
    }
    // a broken percent-encoding is refused by the router before any lookup
    assert.equal((await fetch(origin + '/images/%E0%A4%A/x')).status, 400);
    assert.equal(nameFromUrl('/images/0/04/Linux_logo.png?x=1'), 'Linux_logo.png');
    assert.equal(nameFromUrl('/images/0/04/Linux_logo.png/'), null);
  });

  it('404 for files described by a manifest without bytes, and for every file without --files', async () => {
    const w = await miniWiki();
    const info = await (
      await fetch(`${w.base}/api.php?action=query&format=json&prop=imageinfo&iiprop=url|size&titles=File:Synthetic.png|File:A.png`)
    ).json();
    const pages = Object.values(info.query.pages) as any[];
    const synth = pages.find((p) => p.title.endsWith('Synthetic.png'));
    const real = pages.find((p) => p.title.endsWith(':A.png'));
    assert.equal(synth.imageinfo[0].size, 1234);
    assert.equal((await fetch(synth.imageinfo[0].url)).status, 404);
    assert.equal((await fetch(real.imageinfo[0].url)).status, 200);
    const withoutFiles = await createServer({ store: await openStore(w.db), logLevel: 'silent' });
    try {
      const base2 = await withoutFiles.app.listen({ host: '127.0.0.1', port: 0 });
      assert.equal((await fetch(base2 + fileUrlPath('A.png'))).status, 404);
    } finally {
      await withoutFiles.close();
    }
  });
});

describe('list=imageusage&iuredirect on a wiki with a used file redirect', () => {
  it('lists the users of the redirect under it, each level with its own limit and continuation', async () => {
    const w = await miniWiki();
    const api = async (params: Record<string, string>) =>
      (await fetch(`${w.base}/api.php?${new URLSearchParams({ format: 'json', action: 'query', ...params })}`)).json();
    const all = await api({ list: 'imageusage', iutitle: 'Файл:A.png', iuredirect: '1', iulimit: 'max' });
    assert.deepEqual(all.query.imageusage, [
      {
        pageid: 1,
        ns: 6,
        title: 'Файл:B.png',
        redirect: '',
        redirlinks: [
          { pageid: 4, ns: 0, title: 'Користує B' },
          { pageid: 5, ns: 0, title: 'Ще B' },
        ],
      },
      { pageid: 3, ns: 0, title: 'Користує A' },
    ]);
    // without iuredirect the redirect is one more user
    const plain = await api({ list: 'imageusage', iutitle: 'Файл:A.png' });
    assert.deepEqual(
      plain.query.imageusage.map((u: any) => u.pageid),
      [1, 3],
    );
    // limit 1: the second level continues with the first level's start kept
    const first = await api({ list: 'imageusage', iutitle: 'Файл:A.png', iuredirect: '1', iulimit: '1', continue: '' });
    assert.deepEqual(first.continue, { iucontinue: '6|1|6|B.png|0|5', continue: '-||' });
    assert.deepEqual(first.query.imageusage, [
      { pageid: 1, ns: 6, title: 'Файл:B.png', redirect: '', redirlinks: [{ pageid: 4, ns: 0, title: 'Користує B' }] },
    ]);
    const second = await api({ list: 'imageusage', iutitle: 'Файл:A.png', iuredirect: '1', iulimit: '1', ...first.continue });
    assert.deepEqual(second.query.imageusage, [
      { pageid: 1, ns: 6, title: 'Файл:B.png', redirect: '', redirlinks: [{ pageid: 5, ns: 0, title: 'Ще B' }] },
    ]);
    assert.deepEqual(second.continue, { iucontinue: '0|3', continue: '-||' });
    const gen = await api({ generator: 'imageusage', giutitle: 'Файл:A.png', giuredirect: '1' });
    assert.deepEqual(Object.keys(gen.query.pages).sort(), ['1', '3', '4', '5']);
  });
});

let mini: Promise<{ base: string; db: string }> | null = null;
let closeMini: (() => Promise<void>) | null = null;

/**
 * A small wiki of its own: File:A.png (bytes on disk), File:B.png redirecting to it, pages using each,
 * and a manifest entry Synthetic.png without bytes. Imported and served once.
 */
function miniWiki(): Promise<{ base: string; db: string }> {
  mini ??= (async () => {
    const { dir } = await demoDatabase();
    const tmp = mkdtempSync(join(tmpdir(), 'wikiquery-files-'));
    process.once('exit', () => rmSync(tmp, { recursive: true, force: true }));
    const files = join(tmp, 'files');
    mkdirSync(files);
    copyFileSync(join(dir, 'demo', 'files', 'Linux_logo.png'), join(files, 'A.png'));
    const synthetic = {
      name: 'Synthetic.png',
      size: 1234,
      sha1: 'a'.repeat(40),
      width: 10,
      height: 10,
      mime: 'image/png',
      user: 'X',
      timestamp: '2015-01-01T00:00:00Z',
    };
    writeFileSync(join(files, 'files-manifest.jsonl'), JSON.stringify(synthetic) + '\n');
    const pages: Array<[string, number, string]> = [
      // a redirect's target is a page link (WikitextContent::fillParserOutput); the text after it is parsed
      // as any page's: this redirect also shows the file, so it is one of its users
      ['Файл:B.png', 6, '#REDIRECT [[Файл:A.png]]\n[[Файл:A.png|thumb]]'],
      ['Файл:A.png', 6, 'Опис.'],
      ['Користує A', 0, '[[Файл:A.png|thumb]]'],
      ['Користує B', 0, '[[Файл:B.png]]'],
      ['Ще B', 0, '[[Файл:B.png|left]]'],
    ];
    const esc = (t: string) => t.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
    const xml =
      '<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="uk">\n<siteinfo><sitename>Міні</sitename><dbname>mini</dbname>' +
      '<base>http://localhost/index.php/Головна</base><generator>MediaWiki 1.25.4</generator><case>first-letter</case><namespaces>' +
      '<namespace key="0" case="first-letter" /><namespace key="6" case="first-letter">Файл</namespace><namespace key="14" case="first-letter">Категорія</namespace>' +
      '</namespaces></siteinfo>\n' +
      pages
        .map(
          ([title, ns, text], i) =>
            `<page><title>${esc(title)}</title><ns>${ns}</ns><id>${i + 1}</id><revision><id>${i + 100}</id><timestamp>2015-01-01T00:00:00Z</timestamp>` +
            `<contributor><username>Адмін</username><id>1</id></contributor><model>wikitext</model><format>text/x-wiki</format>` +
            `<text xml:space="preserve">${esc(text)}</text></revision></page>\n`,
        )
        .join('') +
      '</mediawiki>\n';
    writeFileSync(join(tmp, 'dump.xml'), xml);
    const db = join(tmp, 'w.sqlite');
    await importWiki({ dump: join(tmp, 'dump.xml'), db, filesDir: files, messageDirs: [], lang: 'uk', progress: false, log: () => {} });
    const server = await createServer({ store: await openStore(db), filesDir: files, logLevel: 'silent' });
    closeMini = () => server.close();
    return { base: await server.app.listen({ host: '127.0.0.1', port: 0 }), db };
  })();
  return mini;
}

describe('store query plans (imageinfo, images, fileusage, imageusage)', () => {
  it('each statement is an index seek or a range scan that stops at its LIMIT, sorting at most a batch of pages', async () => {
    const { db: file } = await demoDatabase();
    const db = new Db(file, { debug: true });
    try {
      const links = new SqliteLinkStore(db);
      const files = new SqliteFileStore(db);
      const log: QueryLogEntry[] = [];
      await queryLog.run(log, async () => {
        await files.storedPath('Tux.png');
        for (const descending of [false, true]) {
          await links.imagesOf({ pageids: [1, 2], descending, limit: 3 });
          await links.imagesOf({ pageids: [1], start: { pageid: 1, name: 'A' }, only: ['A', 'B'], descending, limit: 3 });
          await links.fileUsers({ target: 'A', descending, limit: 3 });
          await links.fileUsers({ target: 'A', fromId: 3, redirect: true, descending, limit: 3 });
          await links.fileUsers({ target: 'A', namespace: 0, fromId: 3, redirect: false, descending, limit: 3 });
        }
      });
      const seen = new Set<string>();
      for (const { sql } of log) {
        if (seen.has(sql)) continue;
        seen.add(sql);
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]))];
        const args = names.length
          ? [Object.fromEntries(names.map((n) => [n, n === 'limit' ? 3 : 'x']))]
          : (sql.match(/\?/g) ?? []).map(() => 'x');
        const plan = (db.raw.prepare('EXPLAIN QUERY PLAN ' + sql).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
        for (const step of plan) {
          // a batch of pages is read through json_each (a scan of the batch, a seek per page), and its rows
          // -- bounded by the batch, not the wiki -- may be sorted
          const batch =
            /json_each/.test(sql) &&
            (/^SCAN j VIRTUAL TABLE/.test(step) || step === 'USE TEMP B-TREE FOR ORDER BY' || /^LIST SUBQUERY|^SCAN json_each/.test(step));
          if (!batch) assert.match(step, /^SEARCH /, `${step}\n  in ${sql}`);
        }
        if (/il_from_namespace = /.test(sql))
          assert.ok(
            plan.some((p) => p.includes('il_to_from_namespace')),
            plan.join(' / '),
          );
      }
      assert.ok(seen.size >= 8);
    } finally {
      db.close();
    }
  });
});
