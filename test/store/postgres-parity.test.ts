/**
 * One dump, two stores: the demo wiki imported into SQLite and into PostgreSQL (test/helpers/demo-server.ts
 * demoDatabase does both in the PostgreSQL pass) answers the demo wiki's request set with the same bytes --
 * status, content type, error code and body. Masked before comparing (test/helpers/request-set.ts masked()):
 * the parser's limit report timings (limitreport-cputime/-walltime of action=parse, per request) and
 * siteinfo's dbtype/dbversion (they name the engine). Nothing else: debuginfo, servedby and curtimestamp are
 * not asked for, and both servers are asked with one Host header (answers name it in URLs). Runs in the
 * PostgreSQL pass only.
 */
import { after, before, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { DEMO_REQUESTS, apiPath, getAs, masked } from '../helpers/request-set.js';
import { TEST_DB } from '../helpers/test-db.js';
import { describeOrSkip } from '../helpers/skip.js';

const skip =
  TEST_DB === 'postgres' ? false : 'compares SQLite with PostgreSQL: runs in the PostgreSQL pass of npm test (WIKIQUERY_TEST_DB=postgres)';

let sqlite: DemoServer;
let postgres: DemoServer;

describeOrSkip('SQLite and PostgreSQL answer the demo wiki alike', { skip }, () => {
  before(async () => {
    const { dir, db, served } = await demoDatabase();
    assert.match(served, /^postgres:/);
    const filesDir = join(dir, 'demo', 'files');
    // no response cache: every request goes down to the store
    sqlite = await startDemoServer({ db, filesDir, server: { cacheMb: 0 } });
    postgres = await startDemoServer({ db: served, filesDir, server: { cacheMb: 0 } });
  });
  after(async () => {
    await sqlite?.close();
    await postgres?.close();
  });

  for (const [name, params] of DEMO_REQUESTS) {
    it(name, async () => {
      const [a, b] = await Promise.all([getAs(sqlite.url, apiPath(params)), getAs(postgres.url, apiPath(params))]);
      assert.equal(b.status, a.status, `status: SQLite ${a.status}, PostgreSQL ${b.status}: ${b.text.slice(0, 300)}`);
      assert.equal(b.contentType, a.contentType);
      assert.equal(b.apiError, a.apiError, b.text.slice(0, 300));
      const [x, y] = [masked(a.text, { backend: true }), masked(b.text, { backend: true })];
      // the first differing stretch, not two whole bodies
      if (x !== y) {
        let i = 0;
        while (i < x.length && x[i] === y[i]) i++;
        assert.fail(
          `bodies differ at character ${i}:\n  SQLite:     …${x.slice(Math.max(0, i - 80), i + 120)}\n  PostgreSQL: …${y.slice(Math.max(0, i - 80), i + 120)}`,
        );
      }
      // what was masked is there: the engine each names
      if (name === 'siteinfo') {
        assert.equal(JSON.parse(a.text).query.general.dbtype, 'sqlite');
        assert.equal(JSON.parse(b.text).query.general.dbtype, 'postgres');
      }
    });
  }

  it('the article and file routes too', async () => {
    const info = await sqlite.get({ action: 'query', prop: 'imageinfo', titles: 'Файл:Tux.png', iiprop: 'url' });
    const fileUrl = new URL((Object.values(info.json.query.pages)[0] as { imageinfo: Array<{ url: string }> }).imageinfo[0].url);
    for (const path of [
      '/index.php/Київ',
      '/index.php?title=Київ&action=raw',
      '/index.php/Файл:Tux.png',
      '/index.php/Немає_такої',
      fileUrl.pathname,
    ]) {
      const [a, b] = await Promise.all([getAs(sqlite.url, encodeURI(path)), getAs(postgres.url, encodeURI(path))]);
      assert.equal(b.status, a.status, path);
      assert.equal(b.contentType, a.contentType, path);
      assert.ok(b.body.equals(a.body), `${path}: bodies differ`);
    }
  });
});
