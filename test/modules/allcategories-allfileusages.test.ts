/**
 * list=allcategories and list=allfileusages (also as generator) over HTTP on the demo wiki: the exact
 * JSON, byte order, parameters, every error code, limits above the demo wiki's size, and the store's
 * fileUsagePages.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  RAW_CONTINUE_WARNING as RAW_WARNING,
  startDemoServer,
  type DemoServer,
  demoServerForFile,
  assertApiError,
} from '../helpers/demo-server.js';
import { Db } from '../../src/store/sqlite/db.js';
import { SqliteLinkStore } from '../../src/store/sqlite/links.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { SCHEMA, SCHEMA_VERSION } from '../../src/store/sqlite/schema.js';

const s = demoServerForFile();

const WARNINGS = `"warnings":{"query":{"*":"${RAW_WARNING}"}}`;

/** GET with raw UTF-8 output (utf8=1) so that expected texts are readable. */
const get = (params: Record<string, string | number | boolean>) => s.get({ utf8: 1, ...params });

const assertError = (r: { json: any; headers: Headers }, code: string, info: string) => assertApiError(s, r, code, info);

describe('list=allcategories', () => {
  it('acprop=size: the first 10 in byte order, raw continuation with the warning', async () => {
    const r = await get({ action: 'query', list: 'allcategories', acprop: 'size' });
    assert.equal(
      r.text,
      `{${WARNINGS},"query-continue":{"allcategories":{"accontinue":"Демовікі"}},"query":{"allcategories":[` +
        '{"size":12,"pages":12,"files":0,"subcats":0,"*":"Rivers"},{"size":5,"pages":5,"files":0,"subcats":0,"*":"Історія"},' +
        '{"size":2,"pages":2,"files":0,"subcats":0,"*":"Вигадані місця"},{"size":8,"pages":8,"files":0,"subcats":0,"*":"Вигадані науковці"},' +
        '{"size":35,"pages":0,"files":35,"subcats":0,"*":"Власні роботи"},{"size":23,"pages":23,"files":0,"subcats":0,"*":"Властивості"},' +
        '{"size":3,"pages":0,"files":0,"subcats":3,"*":"Водойми"},{"size":4,"pages":0,"files":0,"subcats":4,"*":"Географія України"},' +
        '{"size":3,"pages":0,"files":3,"subcats":0,"*":"Герби"},{"size":2,"pages":2,"files":0,"subcats":0,"*":"Гори"}]}}',
    );
    for (const c of r.json.query.allcategories) assert.equal(c.size, c.pages + c.files + c.subcats);
  });
  it('the continuation resumes at the category named', async () => {
    const r = await get({ action: 'query', list: 'allcategories', accontinue: 'Демовікі', aclimit: 2, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"allcategories":{"accontinue":"Користувачі"}},"query":{"allcategories":[{"*":"Демовікі"},{"*":"Казкові персонажі"}]}}',
    );
  });
  it('new continuation: continue object and batchcomplete', async () => {
    const r = await get({ action: 'query', list: 'allcategories', acprefix: 'с', aclimit: 3, continue: '' });
    assert.equal(
      r.text,
      '{"batchcomplete":"","continue":{"accontinue":"Службові_категорії","continue":"-||"},"query":{"allcategories":[{"*":"Свята"},{"*":"Села"},{"*":"Слова"}]}}',
    );
  });
  it('without acprop only the names; acprop=hidden marks __HIDDENCAT__ categories', async () => {
    const r = await get({ action: 'query', list: 'allcategories', acfrom: 'Статті', aclimit: 2, acprop: 'hidden|size', rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"allcategories":{"accontinue":"Столиці_україни"}},"query":{"allcategories":[{"size":29,"pages":29,"files":0,"subcats":0,"hidden":"","*":"Статті без джерел"},{"size":1,"pages":1,"files":0,"subcats":0,"*":"Столиці"}]}}',
    );
    const v2 = await get({
      action: 'query',
      list: 'allcategories',
      acfrom: 'Статті',
      aclimit: 2,
      acprop: 'hidden',
      formatversion: 2,
      rawcontinue: 1,
    });
    assert.deepEqual(v2.json.query.allcategories, [
      { category: 'Статті без джерел', hidden: true },
      { category: 'Столиці', hidden: false },
    ]);
  });
  it('acfrom and acprefix are first-letter uppercased; categories without members are listed', async () => {
    const r = await get({ action: 'query', list: 'allcategories', acfrom: 'ф', acprop: 'size' });
    assert.equal(
      r.text,
      '{"query":{"allcategories":[{"size":6,"pages":0,"files":0,"subcats":6,"*":"Файли"},{"size":3,"pages":3,"files":0,"subcats":0,"*":"Форми"},' +
        '{"size":22,"pages":0,"files":22,"subcats":0,"*":"Фотографії"},{"size":3,"pages":0,"files":0,"subcats":3,"*":"Шаблони"},' +
        '{"size":5,"pages":5,"files":0,"subcats":0,"*":"Шаблони-картки"}]}}',
    );
    const p = await get({ action: 'query', list: 'allcategories', acprefix: 'порожня' });
    assert.equal(p.text, '{"query":{"allcategories":[{"*":"Порожня категорія"}]}}');
  });
  it('acto, acdir=descending (from/to swap roles), acmin/acmax on the member count', async () => {
    assert.deepEqual(
      (await get({ action: 'query', list: 'allcategories', acfrom: 'Ф', acto: 'Фотографії' })).json.query.allcategories.map(
        (c: any) => c['*'],
      ),
      ['Файли', 'Форми', 'Фотографії'],
    );
    assert.deepEqual(
      (await get({ action: 'query', list: 'allcategories', acfrom: 'Ш', acto: 'Ф', acdir: 'descending' })).json.query.allcategories.map(
        (c: any) => c['*'],
      ),
      ['Фотографії', 'Форми', 'Файли'],
    );
    assert.equal(
      (await get({ action: 'query', list: 'allcategories', acfrom: 'Ф', acto: 'Ш', acdir: 'descending' })).text,
      '{"query":{"allcategories":[]}}',
    );
    assert.deepEqual(
      (await get({ action: 'query', list: 'allcategories', acmin: 25, acprop: 'size' })).json.query.allcategories.map((c: any) => [
        c['*'],
        c.size,
      ]),
      [
        ['Власні роботи', 35],
        ['Міста', 71],
        ['Обласні центри', 25],
        ['Персонажі', 30],
        ['Річки', 25],
        ['Статті без джерел', 29],
        ['Українська кухня', 42],
      ],
    );
    assert.deepEqual(
      (await get({ action: 'query', list: 'allcategories', acmin: 20, acmax: 23, acdir: 'descending' })).json.query.allcategories.map(
        (c: any) => c['*'],
      ),
      ['Фотографії', 'Властивості'],
    );
  });
  it('byte order: Latin before Cyrillic, І/Ї/Є (U+04xx low) before А-Я', async () => {
    const all = (await get({ action: 'query', list: 'allcategories', aclimit: 'max' })).json.query.allcategories.map(
      (c: any) => c['*'] as string,
    );
    const sorted = [...all].sort((a, b) => Buffer.compare(Buffer.from(a.replace(/ /g, '_')), Buffer.from(b.replace(/ /g, '_'))));
    assert.deepEqual(all, sorted);
    assert.deepEqual(all.slice(0, 3), ['Rivers', 'Історія', 'Вигадані місця']);
    assert.equal(all.length, 56);
  });
  it('aclimit: over the maximum is clamped with the warning, max reports limits, below 1 is raised', async () => {
    const over = await get({ action: 'query', list: 'allcategories', aclimit: 5000, acprefix: 'Ш' });
    assert.equal(
      over.text,
      '{"warnings":{"allcategories":{"*":"aclimit may not be over 500 (set to 5000) for users"}},"query":{"allcategories":[{"*":"Шаблони"},{"*":"Шаблони-картки"}]}}',
    );
    const all = await get({ action: 'query', list: 'allcategories', aclimit: 5000 });
    assert.equal(all.json.query.allcategories.length, 56);
    const max = await get({ action: 'query', list: 'allcategories', aclimit: 'max', acprefix: 'Ш' });
    assert.equal(max.text, '{"limits":{"allcategories":500},"query":{"allcategories":[{"*":"Шаблони"},{"*":"Шаблони-картки"}]}}');
    const zero = await get({ action: 'query', list: 'allcategories', aclimit: 0, acprefix: 'Ш', rawcontinue: 1 });
    assert.equal(
      zero.text,
      '{"query-continue":{"allcategories":{"accontinue":"Шаблони-картки"}},"warnings":{"allcategories":{"*":"aclimit may not be less than 1 (set to 0)"}},"query":{"allcategories":[{"*":"Шаблони"}]}}',
    );
  });
  it('as a generator: the category pages (missing ones for categories without a page)', async () => {
    const r = await get({ action: 'query', generator: 'allcategories', gacprefix: 'Р', gaclimit: 3, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"allcategories":{"gaccontinue":"Річки_України"}},"query":{"pages":{"191":{"pageid":191,"ns":14,"title":"Категорія:Регіони України"},"405":{"pageid":405,"ns":14,"title":"Категорія:Річки"},"169":{"pageid":169,"ns":14,"title":"Категорія:Річки (стара назва)"}}}}',
    );
    const missing = await get({ action: 'query', generator: 'allcategories', gacfrom: 'Rivers', gaclimit: 1, rawcontinue: 1 });
    assert.equal(
      missing.text,
      '{"query-continue":{"allcategories":{"gaccontinue":"Історія"}},"query":{"pages":{"-1":{"ns":14,"title":"Категорія:Rivers","missing":""}}}}',
    );
  });
  it('errors', async () => {
    const bad = 'Invalid continue param. You should pass the original value returned by the previous query';
    assertError(await get({ action: 'query', list: 'allcategories', accontinue: 'a|b' }), 'acbadcontinue', bad);
    assertError(await get({ action: 'query', generator: 'allcategories', gaccontinue: 'a|b' }), 'gacbadcontinue', bad);
    // titlePartToKey → dieUsageMsg('invalidtitle') → dieUsage → prefixed like every module error
    assertError(await get({ action: 'query', list: 'allcategories', acfrom: 'Foo[bar]' }), 'acinvalidtitle', 'Bad title "Foo[bar]"');
    assertError(await get({ action: 'query', list: 'allcategories', acto: 'a|b' }), 'acinvalidtitle', 'Bad title "a|b"');
    assertError(await get({ action: 'query', generator: 'allcategories', gacprefix: 'x{' }), 'gacinvalidtitle', 'Bad title "x{"');
    assertError(
      await get({ action: 'query', list: 'allcategories', acdir: 'up' }),
      'acunknown_acdir',
      "Unrecognized value for parameter 'acdir': up",
    );
    const w = await get({ action: 'query', list: 'allcategories', acprop: 'size|bogus', acprefix: 'Шаблони-' });
    assert.equal(
      w.text,
      '{"warnings":{"allcategories":{"*":"Unrecognized value for parameter \'acprop\': bogus"}},"query":{"allcategories":[{"size":5,"pages":5,"files":0,"subcats":0,"*":"Шаблони-картки"}]}}',
    );
  });
});

describe('generator=allfileusages', () => {
  it('gaffrom: the using pages of 10 links, each once, in page id order', async () => {
    const r = await get({ action: 'query', generator: 'allfileusages', gaffrom: 'Прапор' });
    assert.equal(
      r.text,
      `{${WARNINGS},"query-continue":{"allfileusages":{"gafcontinue":"Прапор_Львова.png|1"}},"query":{"pages":{` +
        '"1":{"pageid":1,"ns":0,"title":"Головна сторінка"},"62":{"pageid":62,"ns":0,"title":"Керч"},"101":{"pageid":101,"ns":0,"title":"Яготин"},' +
        '"163":{"pageid":163,"ns":0,"title":"Донецьк"},"244":{"pageid":244,"ns":0,"title":"Рівне"},"283":{"pageid":283,"ns":0,"title":"Фастів"},' +
        '"346":{"pageid":346,"ns":0,"title":"Україна"},"357":{"pageid":357,"ns":0,"title":"Бровари"},"376":{"pageid":376,"ns":0,"title":"Галерея"},' +
        '"385":{"pageid":385,"ns":0,"title":"Сімферополь"}}}}',
    );
  });
  it('a page that uses several files of one batch appears once', async () => {
    const params = { action: 'query', generator: 'allfileusages', gaffrom: 'Ukraine_flag_copy.png', gaflimit: 10, rawcontinue: 1 };
    const links = (await get({ action: 'query', list: 'allfileusages', affrom: 'Ukraine_flag_copy.png', afprop: 'ids|title' })).json.query
      .allfileusages;
    const ids: number[] = links.map((l: any) => l.fromid as number);
    assert.equal(ids.length, 10);
    const unique = [...new Set(ids)].sort((a, b) => a - b);
    assert.ok(unique.length < 10, 'the batch has a page using several files');
    const r = await get(params);
    // in page id order, each once
    assert.deepEqual(
      [...r.text.matchAll(/"(\d+)":\{"pageid"/g)].map((m) => Number(m[1])),
      unique,
    );
  });
  it('continues at the link past the limit, in both directions (the store reads only the last target)', async () => {
    for (const dir of ['ascending', 'descending']) {
      const links = (await get({ action: 'query', list: 'allfileusages', afdir: dir, afprop: 'ids|title', aflimit: 'max' })).json.query
        .allfileusages as Array<{ fromid: number; title: string }>;
      assert.ok(links.length > 12, 'enough links to walk');
      let cont: string | undefined;
      for (let at = 0; at + 3 < links.length && at < 12; at += 3) {
        const r = await get({
          action: 'query',
          generator: 'allfileusages',
          gafdir: dir,
          gaflimit: 3,
          rawcontinue: 1,
          ...(cont === undefined ? {} : { gafcontinue: cont }),
        });
        const next = links[at + 3]!;
        cont = r.json['query-continue'].allfileusages.gafcontinue as string;
        assert.equal(cont, `${next.title.replace(/^Файл:/, '').replace(/ /g, '_')}|${next.fromid}`, `${dir} at ${at}`);
      }
    }
  });
  it('gaffrom is a title part; templates use files too', async () => {
    const r = await get({ action: 'query', generator: 'allfileusages', gaffrom: 'прапор_України.png', gaflimit: 3, continue: '' });
    // the file redirect Файл:Старий прапор.png links to its target (pagelinks), it does not use it
    assert.deepEqual(r.json.continue, { gafcontinue: 'Прапор_України.png|46', continue: 'gafcontinue||' });
    assert.equal(
      JSON.stringify(r.json.query.pages),
      '{"1":{"pageid":1,"ns":0,"title":"Головна сторінка"},"26":{"pageid":26,"ns":0,"title":"Суми"},"33":{"pageid":33,"ns":0,"title":"Умань"}}',
    );
    const t = await get({ action: 'query', generator: 'allfileusages', gafprefix: 'flag_of' });
    assert.equal(
      t.text,
      '{"query":{"pages":{"41":{"pageid":41,"ns":10,"title":"Шаблон:Прапор"},"376":{"pageid":376,"ns":0,"title":"Галерея"}}}}',
    );
  });
  it('gafunique yields the file pages, red links as missing pages', async () => {
    const r = await get({ action: 'query', generator: 'allfileusages', gafunique: 1, gaffrom: 'Н', gaflimit: 3, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"allfileusages":{"gafcontinue":"П\'ятниця.png"}},"query":{"pages":{"-1":{"ns":6,"title":"Файл:Неіснуюче фото Києва.jpg","missing":""},"-2":{"ns":6,"title":"Файл:Неіснуючий файл.png","missing":""},"205":{"pageid":205,"ns":6,"title":"Файл:Об’єкт.png"}}}}',
    );
  });
});

describe('list=allfileusages', () => {
  it('afprop=ids|title, red links included, order by file then page id', async () => {
    const r = await get({ action: 'query', list: 'allfileusages', afprop: 'ids|title', affrom: 'Ukraine', aflimit: 4, continue: '' });
    assert.equal(
      r.text,
      '{"batchcomplete":"","continue":{"afcontinue":"Ёлка.png|338","continue":"-||"},"query":{"allfileusages":[' +
        '{"fromid":376,"ns":6,"title":"Файл:Ukraine flag copy.png"},{"fromid":376,"ns":6,"title":"Файл:Ukraine map.gif"},' +
        '{"fromid":370,"ns":6,"title":"Файл:Zoo.png"},{"fromid":148,"ns":6,"title":"Файл:Ёлка.png"}]}}',
    );
  });
  it('default prop title; afunique; afto; afprefix; descending', async () => {
    const titles = async (p: Record<string, string | number>) =>
      (await get({ action: 'query', list: 'allfileusages', aflimit: 'max', ...p })).json.query.allfileusages;
    assert.deepEqual(await titles({ afprefix: 'Говерла' }), Array(3).fill({ ns: 6, title: 'Файл:Говерла.png' }));
    assert.deepEqual(await titles({ afprefix: 'Говерла', afunique: 1 }), [{ ns: 6, title: 'Файл:Говерла.png' }]);
    assert.deepEqual(
      (await titles({ affrom: 'Р', afto: 'Світязь.png', afunique: 1 })).map((t: any) => t.title),
      ['Файл:Рось.png', 'Файл:Сало.png', 'Файл:Світязь.png'],
    );
    assert.deepEqual(
      (await titles({ afprefix: 'Говерла', afprop: 'ids', afdir: 'descending' })).map((t: any) => t.fromid),
      [376, 270, 190],
    );
    // from/to keep their meaning when descending (MediaWiki does not swap them)
    assert.deepEqual(
      (await titles({ affrom: 'Р', afto: 'Світязь.png', afunique: 1, afdir: 'descending' })).map((t: any) => t.title),
      ['Файл:Світязь.png', 'Файл:Сало.png', 'Файл:Рось.png'],
    );
  });
  it('continue overrides from', async () => {
    const r = await get({ action: 'query', list: 'allfileusages', affrom: 'Я', afcontinue: 'Ґанок.png|0', afprop: 'ids' });
    assert.deepEqual(r.json.query.allfileusages, [{ fromid: 142 }]);
  });
  it('errors', async () => {
    const bad = 'Invalid continue param. You should pass the original value returned by the previous query';
    assertError(
      await get({ action: 'query', list: 'allfileusages', afunique: 1, afprop: 'ids|title' }),
      'afparams',
      'Cannot use afprop=ids with afunique',
    );
    assertError(
      await get({ action: 'query', generator: 'allfileusages', gafunique: 1, gafprop: 'ids' }),
      'gafparams',
      'Cannot use afprop=ids with afunique',
    );
    assertError(await get({ action: 'query', list: 'allfileusages', afcontinue: 'A' }), 'afbadcontinue', bad);
    assertError(await get({ action: 'query', list: 'allfileusages', afunique: 1, afcontinue: 'A|1' }), 'afbadcontinue', bad);
    assertError(await get({ action: 'query', generator: 'allfileusages', gafcontinue: 'A|1|2' }), 'gafbadcontinue', bad);
    assertError(await get({ action: 'query', list: 'allfileusages', afprefix: '<' }), 'afinvalidtitle', 'Bad title "<"');
    assertError(
      await get({ action: 'query', list: 'allfileusages', afdir: 'newer' }),
      'afunknown_afdir',
      "Unrecognized value for parameter 'afdir': newer",
    );
    const w = await get({ action: 'query', list: 'allfileusages', aflimit: 600, afprefix: 'Ґ' });
    assert.equal(
      w.text,
      '{"warnings":{"allfileusages":{"*":"aflimit may not be over 500 (set to 600) for users"}},"query":{"allfileusages":[{"ns":6,"title":"Файл:Ґанок.png"}]}}',
    );
  });
});

describe('limits above the demo wiki size', () => {
  let big: DemoServer;
  let dir: string;
  before(async () => {
    // a wiki of 600 categories and 600 links, built from the schema
    dir = mkdtempSync(join(tmpdir(), 'wikiquery-lists-'));
    const file = join(dir, 'big.sqlite');
    const db = new Database(file);
    db.exec(SCHEMA);
    db.prepare("INSERT INTO meta (key, value) VALUES ('schema_version', ?)").run(String(SCHEMA_VERSION));
    const cat = db.prepare('INSERT INTO category (cat_title, cat_pages) VALUES (?, ?)');
    const il = db.prepare('INSERT INTO imagelinks (il_from, il_to, il_from_namespace) VALUES (?, ?, 0)');
    db.transaction(() => {
      for (let i = 0; i < 600; i++) {
        cat.run(`К${String(i).padStart(3, '0')}`, i);
        il.run(i + 1, 'Файл.png');
      }
    })();
    db.close();
    big = await startDemoServer({ db: file });
  });
  after(async () => {
    await big?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  it('aclimit=5000 is clamped to 500 with the warning; continuation goes on from the 501st', async () => {
    const r = await big.get({ action: 'query', list: 'allcategories', aclimit: 5000, continue: '', utf8: 1 });
    assert.equal(r.json.warnings.allcategories['*'], 'aclimit may not be over 500 (set to 5000) for users');
    assert.equal(r.json.query.allcategories.length, 500);
    assert.deepEqual(r.json.continue, { accontinue: 'К500', continue: '-||' });
    // continue and batchcomplete are put on top after the warning was: they come first
    assert.deepEqual(Object.keys(r.json), ['batchcomplete', 'continue', 'warnings', 'query']);
    const max = await big.get({ action: 'query', list: 'allcategories', aclimit: 'max', acmin: 550, acprop: 'size', rawcontinue: 1 });
    assert.deepEqual(max.json.limits, { allcategories: 500 });
    assert.equal(max.json.query.allcategories.length, 50);
    assert.equal(max.json['query-continue'], undefined);
  });
  it('one file used by 600 pages: 500 links per batch, the generator yields 500 pages; unique gives the file once', async () => {
    const r = await big.get({ action: 'query', generator: 'allfileusages', gaflimit: 'max', continue: '' });
    assert.equal(Object.keys(r.json.query.pages).length, 500);
    assert.deepEqual(r.json.continue, { gafcontinue: 'Файл.png|501', continue: 'gafcontinue||' });
    const u = await big.get({ action: 'query', list: 'allfileusages', afunique: 1, utf8: 1 });
    assert.equal(u.text, '{"query":{"allfileusages":[{"ns":6,"title":"Файл:Файл.png"}]}}');
  });
});

describe('LinkStore.fileUsagePages', () => {
  it('each usage with its using page as the page table has it (redirect flag, a page id without a page), in fileUsages() order', async () => {
    // a copy of the demo wiki where some using pages are redirects and one usage's page is gone
    const tmp = mkdtempSync(join(tmpdir(), 'wikiquery-usagepages-'));
    const file = join(tmp, 'w.sqlite');
    const src = new Database(join(s.dir, 'demo.sqlite'), { readonly: true });
    await src.backup(file);
    src.close();
    const w = new Database(file);
    const users = w.prepare('SELECT DISTINCT il_from AS id FROM imagelinks ORDER BY il_from').all() as Array<{ id: number }>;
    assert.ok(users.length >= 3);
    w.prepare('UPDATE page SET page_is_redirect = 1 WHERE page_id IN (?, ?)').run(users[0]!.id, users[2]!.id);
    w.prepare('DELETE FROM page WHERE page_id = ?').run(users[1]!.id);
    w.close();
    const db = new Db(file);
    try {
      const links = new SqliteLinkStore(db);
      const pageOf = db.raw.prepare(
        'SELECT page_id AS pageid, page_namespace AS ns, page_title AS title, page_is_redirect AS r FROM page WHERE page_id = ?',
      );
      let redirects = 0;
      let missing = 0;
      for (const descending of [false, true]) {
        for (const limit of [500, 3]) {
          const o = { descending, limit };
          const usages = await links.fileUsages(o);
          const pages = await links.fileUsagePages(o);
          const full = await links.fileUsagePages(o, true);
          assert.deepEqual(
            pages.from,
            usages.map((u) => u.from),
          );
          assert.equal(pages.lastTarget, usages.at(-1)?.target);
          assert.deepEqual(full.from, pages.from);
          assert.equal(full.lastTarget, pages.lastTarget);
          for (const [i, p] of pages.page.entries()) {
            const row = pageOf.get(pages.from[i]) as { pageid: number; ns: number; title: string; r: number } | undefined;
            assert.deepEqual(
              p,
              row ? { pageid: row.pageid, ns: row.ns, title: row.title, isRedirect: row.r === 1 } : null,
              String(pages.from[i]),
            );
            const f = full.page[i];
            assert.deepEqual(f && { pageid: f.pageid, ns: f.ns, title: f.title, isRedirect: f.isRedirect }, p);
            if (row?.r === 1) redirects++;
            if (!row) missing++;
          }
        }
      }
      assert.ok(redirects > 0 && missing > 0, `${redirects} ${missing}`);
    } finally {
      db.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
