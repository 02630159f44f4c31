/**
 * meta=filerepoinfo: the local repository as FileRepo::getInfo describes 1.25's default $wgLocalFileRepo
 * (Setup.php). The reference MediaWiki (1.39) answers the same keys in the same order, without 1.25's
 * scriptExtension (gone with $wgScriptExtension) and with the favicon and canUpload that 1.39 added.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

describe('meta=filerepoinfo', () => {
  it('every property by default, formatversion 1 and 2', async () => {
    const v1 = await s.get({ action: 'query', meta: 'filerepoinfo' });
    assert.equal(
      v1.text,
      '{"query":{"repos":[{"name":"local","displayname":"\\u0414\\u0435\\u043c\\u043e\\u0432\\u0456\\u043a\\u0456",' +
        '"rootUrl":"/images","local":"","url":"/images","thumbUrl":"/images/thumb","initialCapital":"","scriptDirUrl":"","scriptExtension":".php"}]}}',
    );
    const v2 = await s.get({ action: 'query', meta: 'filerepoinfo', formatversion: 2 });
    assert.deepEqual(v2.json.query.repos, [
      {
        name: 'local',
        displayname: 'Демовікі',
        rootUrl: '/images',
        local: true,
        url: '/images',
        thumbUrl: '/images/thumb',
        initialCapital: true,
        scriptDirUrl: '',
        scriptExtension: '.php',
      },
    ]);
  });

  it("friprop picks keys and keeps getInfo's order; unknown values warn", async () => {
    const r = await s.get({ action: 'query', meta: 'filerepoinfo', friprop: 'thumbUrl|name|apiurl', formatversion: 2 });
    assert.deepEqual(r.json.query.repos, [{ name: 'local', thumbUrl: '/images/thumb' }]);
    assert.deepEqual(r.json.warnings, { filerepoinfo: { warnings: "Unrecognized value for parameter 'friprop': apiurl" } });
  });

  it('the thumbnail URL it names is where imageinfo puts thumbnails', async () => {
    const [repo, ii] = await Promise.all([
      s.get({ action: 'query', meta: 'filerepoinfo', friprop: 'thumbUrl', formatversion: 2 }),
      s.get({ action: 'query', prop: 'imageinfo', iiprop: 'url', titles: 'Файл:Велика картинка.png', iiurlwidth: 50, formatversion: 2 }),
    ]);
    assert.ok(new URL(ii.json.query.pages[0].imageinfo[0].thumburl).pathname.startsWith(repo.json.query.repos[0].thumbUrl + '/'));
  });
});
