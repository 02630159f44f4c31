/**
 * The parser cache on disk: `import --render` renders every content page (main namespace, no redirect)
 * into the parser_cache table with the options of a page view; serving reads an entry on a miss of the
 * memory cache (one seek by page, revision, options key) when it was made by the same renderer version,
 * and renders otherwise. On the store the test pass serves from (SQLite file, or a PostgreSQL database that
 * publish.ts copied the staging file's table into).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { TEST_DB, freshPostgresDatabase } from '../helpers/test-db.js';
import { importWiki, type ImportSummary } from '../../src/importer/import.js';
import { importHooks, importRenderer } from '../../src/cli/import-command.js';
import { openStore } from '../../src/store/open.js';
import { connect } from '../../src/store/postgres/db.js';
import { RENDERER_VERSION } from '../../src/modules/page-renderer.js';
import type { Store } from '../../src/store/store.js';

let dir: string;
let location: string;
let summary: ImportSummary;
let store: Store;
let plain: DemoServer;

/** a copy of the rendered import to tamper with: a file copy, or the same PostgreSQL import */
async function tamper(edit: { output?: (json: any) => void; version?: number }, pageid: number): Promise<string> {
  const row = await store.parserCache.get(pageid, (await store.pages.byIds([pageid]))[0].latestRevId, '1|1', RENDERER_VERSION);
  assert.ok(row);
  const json = JSON.parse(row);
  edit.output?.(json);
  const version = edit.version ?? RENDERER_VERSION;
  if (TEST_DB === 'postgres') {
    const sql = connect(location, { max: 1 });
    try {
      const [{ schema_name: schema }] = await sql.unsafe('SELECT schema_name FROM wikiquery.served');
      await sql.unsafe(`UPDATE "${schema}".parser_cache SET pc_output = $1, pc_version = $2 WHERE pc_page = $3`, [
        JSON.stringify(json),
        version,
        pageid,
      ]);
    } finally {
      await sql.end({ timeout: 5 });
    }
    return location;
  }
  const copy = join(dir, `tampered-${pageid}-${version}.sqlite`);
  copyFileSync(location, copy);
  const db = new Database(copy);
  try {
    db.prepare('UPDATE parser_cache SET pc_output = ?, pc_version = ? WHERE pc_page = ?').run(JSON.stringify(json), version, pageid);
  } finally {
    db.close();
  }
  return copy;
}

before(async () => {
  const demo = await demoDatabase();
  dir = demo.dir;
  location = TEST_DB === 'postgres' ? await freshPostgresDatabase('rendered') : join(dir, 'rendered.sqlite');
  summary = await importWiki({
    dump: join(dir, 'demo', 'dump.xml'),
    db: location,
    filesDir: join(dir, 'demo', 'files'),
    messageDirs: [join(dir, 'demo', 'messages')],
    lang: 'uk',
    hooks: importHooks(),
    render: importRenderer(),
    progress: false,
    log: () => {},
  });
  store = await openStore(location);
  // the same dump imported without --render: what rendering at request time gives
  plain = await startDemoServer();
});

after(async () => {
  store?.close();
  await plain?.close();
});

describe('import --render fills the parser cache table', () => {
  it('one entry per content page that is no redirect, with the default options key', async () => {
    const nonRedirects = (
      await plain.get({ action: 'query', list: 'allpages', apnamespace: 0, apfilterredir: 'nonredirects', aplimit: 500, formatversion: 2 })
    ).json.query.allpages;
    assert.ok(nonRedirects.length > 100);
    assert.equal(summary.rendered, nonRedirects.length);
    for (const p of nonRedirects.slice(0, 20)) {
      const [row] = await store.pages.byIds([p.pageid]);
      assert.notEqual(await store.parserCache.get(p.pageid, row.latestRevId, '1|1', RENDERER_VERSION), null, p.title);
    }
  });

  it('nothing for redirects, other namespaces, other revisions, other options or another renderer version', async () => {
    const [kyiv, redirect, template] = await Promise.all(
      ['Київ', 'Kyiv', 'Шаблон:Заглушка'].map(
        async (t) => (await plain.get({ action: 'query', titles: t, prop: 'info', formatversion: 2 })).json.query.pages[0],
      ),
    );
    assert.equal(redirect.redirect, true);
    assert.equal(await store.parserCache.get(redirect.pageid, redirect.lastrevid, '1|1', RENDERER_VERSION), null);
    assert.equal(await store.parserCache.get(template.pageid, template.lastrevid, '1|1', RENDERER_VERSION), null);
    assert.notEqual(await store.parserCache.get(kyiv.pageid, kyiv.lastrevid, '1|1', RENDERER_VERSION), null);
    assert.equal(await store.parserCache.get(kyiv.pageid, kyiv.lastrevid - 1, '1|1', RENDERER_VERSION), null);
    assert.equal(await store.parserCache.get(kyiv.pageid, kyiv.lastrevid, '0|1', RENDERER_VERSION), null);
    assert.equal(await store.parserCache.get(kyiv.pageid, kyiv.lastrevid, '1|1', RENDERER_VERSION + 1), null);
  });

  it('the stored output is what rendering at request time gives (every content page, all of action=parse)', async () => {
    const served = await startDemoServer({ db: location, filesDir: join(dir, 'demo', 'files') });
    try {
      const pages = (
        await plain.get({
          action: 'query',
          list: 'allpages',
          apnamespace: 0,
          apfilterredir: 'nonredirects',
          aplimit: 500,
          formatversion: 2,
        })
      ).json.query.allpages;
      const prop =
        'text|langlinks|categories|categorieshtml|links|templates|images|externallinks|sections|revid|displaytitle|iwlinks|properties|modules|indicators|headhtml';
      for (const p of pages) {
        const q = { action: 'parse', pageid: p.pageid, prop, disablelimitreport: 1, formatversion: 2 };
        const [a, b] = await Promise.all([plain.get(q), served.get(q)]);
        assert.deepEqual(b.json, a.json, p.title);
      }
    } finally {
      await served.close();
    }
  });
});

describe('serving reads the table', () => {
  it('action=parse, rvparse and the article path take the stored output on a memory-cache miss', async () => {
    const [iphone] = await store.pages.byTitles([{ ns: 0, dbkey: 'IPhone' }]);
    const db = await tamper({ output: (o) => (o.html = '<p>з таблиці</p>') }, iphone.pageid);
    const s = await startDemoServer({ db, filesDir: join(dir, 'demo', 'files') });
    try {
      assert.equal(
        (await s.get({ action: 'parse', page: 'IPhone', prop: 'text', disablelimitreport: 1, formatversion: 2 })).json.parse.text,
        '<p>з таблиці</p>',
      );
      const rv = await s.get({ action: 'query', titles: 'IPhone', prop: 'revisions', rvprop: 'content', rvparse: 1, formatversion: 2 });
      assert.equal(rv.json.query.pages[0].revisions[0].content, '<p>з таблиці</p>');
      const article = await fetch(s.url.replace('/api.php', '/index.php/IPhone'));
      assert.match(await article.text(), /<p>з таблиці<\/p>/);
      // other options are rendered: the table holds the default ones only
      assert.notEqual(
        (await s.get({ action: 'parse', page: 'IPhone', prop: 'text', disableeditsection: 1, disablelimitreport: 1, formatversion: 2 }))
          .json.parse.text,
        '<p>з таблиці</p>',
      );
    } finally {
      await s.close();
    }
  });

  it('an entry of another renderer version is ignored: the page is rendered', async () => {
    const [kyiv] = await store.pages.byTitles([{ ns: 0, dbkey: 'Київ' }]);
    const db = await tamper({ output: (o) => (o.html = '<p>застаріле</p>'), version: RENDERER_VERSION + 1 }, kyiv.pageid);
    const s = await startDemoServer({ db, filesDir: join(dir, 'demo', 'files') });
    try {
      const q = { action: 'parse', page: 'Київ', prop: 'text', disablelimitreport: 1, formatversion: 2 };
      const [a, b] = await Promise.all([plain.get(q), s.get(q)]);
      assert.doesNotMatch(b.json.parse.text, /застаріле/);
      assert.equal(b.json.parse.text, a.json.parse.text);
    } finally {
      await s.close();
    }
  });
});
