/**
 * prop=duplicatefiles and list=allimages (also as generator, with duplicatefiles) over HTTP on the demo
 * wiki: the exact JSON, byte order, parameters, every error code, limit warnings, file URLs, and the
 * query plans of the file, category and link store methods behind these lists.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { RAW_CONTINUE_WARNING as RAW_WARNING, demoServerForFile, assertApiError } from '../helpers/demo-server.js';
import { Db } from '../../src/store/sqlite/db.js';
import { queryLog, type QueryLogEntry } from '../../src/store/query-log.js';
import { SqliteFileStore } from '../../src/store/sqlite/files.js';
import { deriveFileColumns } from '../../src/store/sqlite/import/files-writer.js';
import { SqliteCategoryStore } from '../../src/store/sqlite/categories.js';
import { SqliteLinkStore } from '../../src/store/sqlite/links.js';
import { fileUrlPath, hashPath, sha1Base36ToHex, sha1HexToBase36, wfUrlencode } from '../../src/wiki/files.js';
import { rawUrlEncode } from '../../src/php/url.js';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';

const s = demoServerForFile();

const WARNINGS = `"warnings":{"query":{"*":"${RAW_WARNING}"}}`;
const server = () => new URL(s.url).origin;

/** GET with raw UTF-8 output (utf8=1) so that expected texts are readable. */
const get = (params: Record<string, string | number | boolean>) => s.get({ utf8: 1, ...params });

const assertError = (r: { json: any; headers: Headers }, code: string, info: string) => assertApiError(s, r, code, info);

describe('prop=duplicatefiles&titles=', () => {
  it('normalizes the title and lists the duplicates of an existing file', async () => {
    const r = await get({ action: 'query', prop: 'duplicatefiles', titles: 'File:Linux_logo.png' });
    assert.equal(
      r.text,
      '{"query":{"normalized":[{"from":"File:Linux_logo.png","to":"Файл:Linux logo.png"}],"pages":{"171":{"pageid":171,"ns":6,"title":"Файл:Linux logo.png","duplicatefiles":[{"name":"Tux.png","user":"Тарас","timestamp":"2010-03-23T10:00:39Z"},{"name":"Пінгвін.png","user":"Марʼяна","timestamp":"2012-04-26T21:54:57Z"}]}}}}',
    );
  });
  it('escapes non-ASCII without utf8, as formatversion 1 does', async () => {
    const r = await s.get({ action: 'query', prop: 'duplicatefiles', titles: 'File:Linux_logo.png' });
    assert.match(r.text, /"to":"\\u0424\\u0430\\u0439\\u043b:Linux logo.png"/);
  });
  it('an unknown file sits under -1 with ns 6 and missing', async () => {
    const r = await get({ action: 'query', prop: 'duplicatefiles', titles: 'Файл:Відсутній файл.png' });
    assert.equal(r.text, '{"query":{"pages":{"-1":{"ns":6,"title":"Файл:Відсутній файл.png","missing":""}}}}');
  });
  it('a file without a description page still gets its duplicates (under its negative key)', async () => {
    const r = await get({ action: 'query', prop: 'duplicatefiles', titles: 'Image:ukraine flag copy.png|Файл:Немає.png|Файл:Зірка.svg' });
    assert.equal(
      r.text,
      '{"query":{"normalized":[{"from":"Image:ukraine flag copy.png","to":"Файл:Ukraine flag copy.png"}],"pages":{' +
        '"-1":{"ns":6,"title":"Файл:Ukraine flag copy.png","missing":"","duplicatefiles":[{"name":"Flag_of_Ukraine.png","user":"Ivan Petrenko","timestamp":"2011-09-11T11:35:56Z"},{"name":"Прапор_України.png","user":"Олена Коваль","timestamp":"2011-12-22T05:11:28Z"}]},' +
        '"-2":{"ns":6,"title":"Файл:Немає.png","missing":""},' +
        '"158":{"pageid":158,"ns":6,"title":"Файл:Зірка.svg","duplicatefiles":[{"name":"Star.svg","user":"Ivan Petrenko","timestamp":"2011-09-03T14:42:21Z"}]}}}}',
    );
  });
  it('a file without duplicates, a description page without a file, and other namespaces get no member', async () => {
    const r = await get({ action: 'query', prop: 'duplicatefiles', titles: 'Файл:Zoo.png|Файл:Втрачене фото.jpg|Київ' });
    for (const p of Object.values(r.json.query.pages) as any[]) assert.equal(p.duplicatefiles, undefined, p.title);
  });
  it('dflimit counts duplicates across all files; dfcontinue resumes inside a file', async () => {
    const titles = 'Файл:Linux logo.png|Файл:Tux.png';
    const r = await get({ action: 'query', prop: 'duplicatefiles', titles, dflimit: 3, rawcontinue: 1 });
    assert.deepEqual(r.json['query-continue'], { duplicatefiles: { dfcontinue: 'Tux.png|Пінгвін.png' } });
    const pages = r.json.query.pages;
    assert.deepEqual(
      pages['171'].duplicatefiles.map((d: any) => d.name),
      ['Tux.png', 'Пінгвін.png'],
    );
    assert.deepEqual(
      pages['40'].duplicatefiles.map((d: any) => d.name),
      ['Linux_logo.png'],
    );
    const r2 = await get({
      action: 'query',
      prop: 'duplicatefiles',
      titles,
      dflimit: 3,
      continue: '||',
      dfcontinue: 'Tux.png|Пінгвін.png',
    });
    assert.equal(
      r2.text,
      '{"batchcomplete":"","query":{"pages":{"171":{"pageid":171,"ns":6,"title":"Файл:Linux logo.png"},"40":{"pageid":40,"ns":6,"title":"Файл:Tux.png","duplicatefiles":[{"name":"Пінгвін.png","user":"Марʼяна","timestamp":"2012-04-26T21:54:57Z"}]}}}}',
    );
  });
  it('new continuation of a prop on titles=: "||" and no batchcomplete (prop modules are always the generated modules)', async () => {
    const titles = 'Файл:Linux logo.png|Файл:Tux.png';
    const r = await get({ action: 'query', prop: 'duplicatefiles', titles, dflimit: 3, continue: '' });
    assert.deepEqual(Object.keys(r.json), ['continue', 'query']);
    assert.deepEqual(r.json.continue, { dfcontinue: 'Tux.png|Пінгвін.png', continue: '||' });
  });
  it('dfdir=descending reverses files and duplicates', async () => {
    const r = await get({
      action: 'query',
      prop: 'duplicatefiles',
      titles: 'Файл:Linux logo.png|Файл:Tux.png',
      dfdir: 'descending',
      dflimit: 2,
      rawcontinue: 1,
    });
    assert.deepEqual(r.json['query-continue'], { duplicatefiles: { dfcontinue: 'Linux_logo.png|Пінгвін.png' } });
    assert.deepEqual(
      r.json.query.pages['40'].duplicatefiles.map((d: any) => d.name),
      ['Пінгвін.png', 'Linux_logo.png'],
    );
    const r2 = await get({
      action: 'query',
      prop: 'duplicatefiles',
      titles: 'Файл:Linux logo.png|Файл:Tux.png',
      dfdir: 'descending',
      dflimit: 2,
      dfcontinue: 'Linux_logo.png|Пінгвін.png',
    });
    assert.deepEqual(
      r2.json.query.pages['171'].duplicatefiles.map((d: any) => d.name),
      ['Пінгвін.png', 'Tux.png'],
    );
    assert.equal(r2.json.query.pages['40'].duplicatefiles, undefined);
    assert.equal(r2.json['query-continue'], undefined);
  });
  it('dflocalonly changes nothing (there is only the local repository); formatversion 2 shows shared:false', async () => {
    const a = await get({ action: 'query', prop: 'duplicatefiles', titles: 'Файл:Tux.png', dflocalonly: 1 });
    const b = await get({ action: 'query', prop: 'duplicatefiles', titles: 'Файл:Tux.png' });
    assert.equal(a.text, b.text);
    const v2 = await get({ action: 'query', prop: 'duplicatefiles', titles: 'Файл:Tux.png', formatversion: 2 });
    assert.deepEqual(v2.json.query.pages[0].duplicatefiles[0], {
      name: 'Linux_logo.png',
      user: 'Ivan Petrenko',
      timestamp: '2012-04-12T02:52:00Z',
      shared: false,
    });
  });
  it('as a generator it yields the duplicates', async () => {
    const r = await get({ action: 'query', generator: 'duplicatefiles', titles: 'Файл:Прапор України.png' });
    assert.equal(
      r.text,
      '{"query":{"pages":{"-1":{"ns":6,"title":"Файл:Ukraine flag copy.png","missing":""},"133":{"pageid":133,"ns":6,"title":"Файл:Flag of Ukraine.png"}}}}',
    );
    const c = await get({ action: 'query', generator: 'duplicatefiles', titles: 'Файл:Прапор України.png', gdflimit: 1, continue: '' });
    assert.deepEqual(c.json.continue, { gdfcontinue: 'Прапор_України.png|Ukraine_flag_copy.png', continue: 'gdfcontinue||' });
    assert.deepEqual(Object.keys(c.json.query.pages), ['133']);
  });
  it('bad dfcontinue', async () => {
    for (const v of ['abc', 'a|b|c']) {
      assertError(
        await get({ action: 'query', prop: 'duplicatefiles', titles: 'Файл:Tux.png', dfcontinue: v }),
        'dfbadcontinue',
        'Invalid continue param. You should pass the original value returned by the previous query',
      );
    }
    assertError(
      await get({ action: 'query', generator: 'duplicatefiles', titles: 'Файл:Tux.png', gdfcontinue: 'x' }),
      'gdfbadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
  });
});

describe('generator=allimages&prop=duplicatefiles', () => {
  it('the first 10 files in name order; only files with duplicates carry duplicatefiles', async () => {
    const r = await get({ action: 'query', generator: 'allimages', prop: 'duplicatefiles' });
    assert.equal(
      r.text,
      `{${WARNINGS},"query-continue":{"allimages":{"gaicontinue":"Tux.png"}},"query":{"pages":{` +
        '"291":{"pageid":291,"ns":6,"title":"Файл:2014 рік.png"},' +
        '"373":{"pageid":373,"ns":6,"title":"Файл:Blank.png","duplicatefiles":[{"name":"Порожнє_зображення.png","user":"Адміністратор","timestamp":"2010-03-19T16:24:23Z"}]},' +
        '"87":{"pageid":87,"ns":6,"title":"Файл:Borscht.png","duplicatefiles":[{"name":"Борщ.png","user":"Марʼяна","timestamp":"2012-06-21T03:21:37Z"}]},' +
        '"195":{"pageid":195,"ns":6,"title":"Файл:Dnipro aerial.png","duplicatefiles":[{"name":"Дніпро_з_висоти.png","user":"Олена Коваль","timestamp":"2011-02-28T15:49:28Z"}]},' +
        '"133":{"pageid":133,"ns":6,"title":"Файл:Flag of Ukraine.png","duplicatefiles":[{"name":"Ukraine_flag_copy.png","user":"ДемоБот","timestamp":"2015-06-01T00:00:00Z"},{"name":"Прапор_України.png","user":"Олена Коваль","timestamp":"2011-12-22T05:11:28Z"}]},' +
        '"202":{"pageid":202,"ns":6,"title":"Файл:IPhone.png"},' +
        '"372":{"pageid":372,"ns":6,"title":"Файл:Kyiv coat of arms.png","duplicatefiles":[{"name":"Герб_Києва.png","user":"Олена Коваль","timestamp":"2009-10-15T22:27:33Z"}]},' +
        '"171":{"pageid":171,"ns":6,"title":"Файл:Linux logo.png","duplicatefiles":[{"name":"Tux.png","user":"Тарас","timestamp":"2010-03-23T10:00:39Z"},{"name":"Пінгвін.png","user":"Марʼяна","timestamp":"2012-04-26T21:54:57Z"}]},' +
        '"241":{"pageid":241,"ns":6,"title":"Файл:Small icon.png"},' +
        '"132":{"pageid":132,"ns":6,"title":"Файл:Star.svg","duplicatefiles":[{"name":"Зірка.svg","user":"Тарас","timestamp":"2012-01-29T10:53:31Z"}]}}}}',
    );
  });
  it('a batch whose files have no duplicates shows none, as in the spec', async () => {
    const r = await get({ action: 'query', generator: 'allimages', prop: 'duplicatefiles', gaifrom: 'Ёлка', gailimit: 3, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"allimages":{"gaicontinue":"Бандура.png"}},"query":{"pages":{"215":{"pageid":215,"ns":6,"title":"Файл:Ёлка.png"},"27":{"pageid":27,"ns":6,"title":"Файл:Єнот.png"},"54":{"pageid":54,"ns":6,"title":"Файл:Їжак.png"}}}}',
    );
  });
  it('prop and generator continuation meet (facts §10): raw form', async () => {
    const r = await get({ action: 'query', generator: 'allimages', prop: 'duplicatefiles', gailimit: 5, dflimit: 2 });
    assert.deepEqual(r.json['query-continue'], {
      duplicatefiles: { dfcontinue: 'Dnipro_aerial.png|Дніпро_з_висоти.png' },
      allimages: { gaicontinue: 'IPhone.png' },
    });
    assert.equal(r.json.warnings.query['*'], RAW_WARNING);
    assert.deepEqual(Object.keys(r.json), ['warnings', 'query-continue', 'query']);
  });
  it('prop and generator continuation meet (facts §10): new form', async () => {
    const base = { action: 'query', generator: 'allimages', prop: 'duplicatefiles', gailimit: 5, dflimit: 2 };
    const r1 = await get({ ...base, continue: '' });
    assert.deepEqual(Object.keys(r1.json), ['continue', 'query']);
    assert.deepEqual(r1.json.continue, { dfcontinue: 'Dnipro_aerial.png|Дніпро_з_висоти.png', continue: '||' });
    const r2 = await get({ ...base, ...r1.json.continue });
    assert.deepEqual(r2.json.continue, { dfcontinue: 'Flag_of_Ukraine.png|Прапор_України.png', continue: '||' });
    assert.deepEqual(
      r2.json.query.pages['195'].duplicatefiles.map((d: any) => d.name),
      ['Дніпро_з_висоти.png'],
    );
    assert.deepEqual(
      r2.json.query.pages['133'].duplicatefiles.map((d: any) => d.name),
      ['Ukraine_flag_copy.png'],
    );
    const r3 = await get({ ...base, ...r2.json.continue });
    assert.deepEqual(r3.json.continue, { gaicontinue: 'IPhone.png', continue: 'gaicontinue||' });
    // the next generator batch, whose duplicates continue with the generator position copied back
    const r4 = await get({ ...base, ...r3.json.continue });
    assert.deepEqual(r4.json.continue, { dfcontinue: 'Linux_logo.png|Пінгвін.png', gaicontinue: 'IPhone.png', continue: 'gaicontinue||' });
    assert.equal(r4.json.batchcomplete, undefined);
    // pages in title order (JSON.parse would reorder integer keys: look at the text)
    assert.deepEqual(
      [...r4.text.matchAll(/"(\d+)":\{"pageid"/g)].map((m) => m[1]),
      ['202', '372', '171', '241', '132'],
    );
  });
  it('the generator alone: gaicontinue with batchcomplete', async () => {
    const r = await get({ action: 'query', generator: 'allimages', gailimit: 2, continue: '' });
    assert.equal(
      r.text,
      '{"batchcomplete":"","continue":{"gaicontinue":"Borscht.png","continue":"gaicontinue||"},"query":{"pages":{"291":{"pageid":291,"ns":6,"title":"Файл:2014 рік.png"},"373":{"pageid":373,"ns":6,"title":"Файл:Blank.png"}}}}',
    );
  });
  it('files without a description page are missing pages of the generator', async () => {
    const r = await get({ action: 'query', generator: 'allimages', gaifrom: 'U', gailimit: 4, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"allimages":{"gaicontinue":"Ёлка.png"}},"query":{"pages":{"-1":{"ns":6,"title":"Файл:Ukraine flag copy.png","missing":""},"-2":{"ns":6,"title":"Файл:Upload only photo.png","missing":""},"73":{"pageid":73,"ns":6,"title":"Файл:Ukraine map.gif"},"154":{"pageid":154,"ns":6,"title":"Файл:Zoo.png"}}}}',
    );
  });
});

describe('list=allimages', () => {
  it('default props timestamp|url in 1.25 key order, hashed upload URLs', async () => {
    const r = await get({ action: 'query', list: 'allimages', aifrom: 'Ё', ailimit: 3 });
    const srv = server();
    assert.equal(
      r.text,
      `{${WARNINGS},"query-continue":{"allimages":{"aicontinue":"Бандура.png"}},"query":{"allimages":[` +
        `{"name":"Ёлка.png","timestamp":"2012-11-20T17:23:57Z","url":"${srv}/images/9/95/%D0%81%D0%BB%D0%BA%D0%B0.png","descriptionurl":"${srv}/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:%D0%81%D0%BB%D0%BA%D0%B0.png","ns":6,"title":"Файл:Ёлка.png"},` +
        `{"name":"Єнот.png","timestamp":"2009-12-28T19:34:58Z","url":"${srv}/images/9/92/%D0%84%D0%BD%D0%BE%D1%82.png","descriptionurl":"${srv}/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:%D0%84%D0%BD%D0%BE%D1%82.png","ns":6,"title":"Файл:Єнот.png"},` +
        `{"name":"Їжак.png","timestamp":"2010-06-22T00:52:07Z","url":"${srv}/images/4/42/%D0%87%D0%B6%D0%B0%D0%BA.png","descriptionurl":"${srv}/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:%D0%87%D0%B6%D0%B0%D0%BA.png","ns":6,"title":"Файл:Їжак.png"}]}}`,
    );
  });
  it('every aiprop, in the order of ApiQueryImageInfo::getInfo', async () => {
    const r = await get({
      action: 'query',
      list: 'allimages',
      aifrom: "П'ятниця.png",
      ailimit: 1,
      aiprop:
        'bitdepth|mediatype|mime|sha1|dimensions|size|url|canonicaltitle|parsedcomment|comment|userid|user|timestamp|metadata|commonmetadata',
      rawcontinue: 1,
    });
    const srv = server();
    assert.equal(
      r.text,
      `{"query-continue":{"allimages":{"aicontinue":"Паляниця.png"}},"query":{"allimages":[{"name":"П'ятниця.png","timestamp":"2010-03-13T09:02:06Z","user":"Олена Коваль","userid":2,` +
        `"size":99,"width":32,"height":32,"parsedcomment":"Календарний аркуш з п&#039;ятницею.","comment":"Календарний аркуш з п'ятницею.","canonicaltitle":"Файл:П'ятниця.png",` +
        `"url":"${srv}/images/d/d7/%D0%9F%27%D1%8F%D1%82%D0%BD%D0%B8%D1%86%D1%8F.png","descriptionurl":"${srv}/index.php/%D0%A4%D0%B0%D0%B9%D0%BB:%D0%9F%27%D1%8F%D1%82%D0%BD%D0%B8%D1%86%D1%8F.png",` +
        `"sha1":"f22f24ec21a71cf4055dc1205852a6dd0a208465","metadata":null,"commonmetadata":[],"mime":"image/png","mediatype":"BITMAP","bitdepth":8,"ns":6,"title":"Файл:П'ятниця.png"}]}}`,
    );
  });
  it('anon for uploads without a user id; unknown aiprop values are warned about', async () => {
    const r = await get({ action: 'query', list: 'allimages', aifrom: 'Upload_only', ailimit: 1, aiprop: 'user|bogus', rawcontinue: 1 });
    assert.equal(r.json.warnings.allimages['*'], "Unrecognized value for parameter 'aiprop': bogus");
    assert.equal(r.json.query.allimages[0].anon, '');
    assert.deepEqual(Object.keys(r.json.query.allimages[0]), ['name', 'user', 'anon', 'ns', 'title']);
  });
  it('byte order of names: digits, Latin, Ё, Є, Ї, then А-Я, Ґ last', async () => {
    const names = (await get({ action: 'query', list: 'allimages', ailimit: 'max', aiprop: '' })).json.query.allimages.map(
      (i: any) => i.name as string,
    );
    assert.equal(names.length, 54);
    assert.deepEqual(names.slice(0, 2), ['2014_рік.png', 'Blank.png']);
    const i = names.indexOf('Ёлка.png');
    assert.deepEqual(names.slice(i - 1, i + 4), ['Zoo.png', 'Ёлка.png', 'Єнот.png', 'Їжак.png', 'Бандура.png']);
    assert.equal(names.at(-1), 'Ґанок.png');
    assert.ok(names.indexOf('Мʼясо.png') < names.indexOf('Мавка.png'));
    assert.ok(names.indexOf("П'ятниця.png") < names.indexOf('Паляниця.png'));
    assert.deepEqual(
      names,
      [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
    const desc = (
      await get({ action: 'query', list: 'allimages', ailimit: 'max', aiprop: '', aidir: 'descending' })
    ).json.query.allimages.map((i: any) => i.name);
    assert.deepEqual(desc, [...names].reverse());
  });
  it('aifrom/aito/aiprefix are title parts (first letter uppercased, spaces to underscores)', async () => {
    const names = async (p: Record<string, string | number>) =>
      (await get({ action: 'query', list: 'allimages', aiprop: '', ...p })).json.query.allimages.map((i: any) => i.name);
    assert.deepEqual(await names({ aiprefix: 'прапор ' }), ['Прапор_Києва.png', 'Прапор_Львова.png', 'Прапор_України.png']);
    assert.deepEqual(await names({ aifrom: 'герб', aito: 'Говерла.png' }), ['Герб_Києва.png', 'Герб_Львова.png', 'Говерла.png']);
    assert.deepEqual(await names({ aifrom: 'Говерла.png', aito: 'герб', aidir: 'descending' }), [
      'Говерла.png',
      'Герб_Львова.png',
      'Герб_Києва.png',
    ]);
    assert.deepEqual(await names({ aiprefix: 'Категорія:' }), []);
  });
  it('sort=timestamp: newer/older, start/end, user, continuation <timestamp>|<name>', async () => {
    const r = await get({
      action: 'query',
      list: 'allimages',
      aisort: 'timestamp',
      aistart: '2016-01-01T00:00:00Z',
      aiend: '2015-01-01T00:00:00Z',
      aidir: 'older',
      ailimit: 3,
      aiprop: 'timestamp|user',
      rawcontinue: 1,
    });
    assert.equal(
      r.text,
      '{"query-continue":{"allimages":{"aicontinue":"20150712021720|Kyiv_coat_of_arms.png"}},"query":{"allimages":[' +
        '{"name":"Котигорошко.png","timestamp":"2015-12-28T19:51:55Z","user":"Марʼяна","ns":6,"title":"Файл:Котигорошко.png"},' +
        '{"name":"Софійський_собор.png","timestamp":"2015-08-12T14:45:00Z","user":"Адміністратор","ns":6,"title":"Файл:Софійський собор.png"},' +
        '{"name":"Blank.png","timestamp":"2015-07-13T21:27:39Z","user":"ДемоБот","ns":6,"title":"Файл:Blank.png"}]}}',
    );
    const next = await get({
      action: 'query',
      list: 'allimages',
      aisort: 'timestamp',
      aistart: '2016-01-01T00:00:00Z',
      aiend: '2015-01-01T00:00:00Z',
      aidir: 'older',
      ailimit: 3,
      aiprop: 'timestamp',
      aicontinue: '20150712021720|Kyiv_coat_of_arms.png',
    });
    assert.deepEqual(
      next.json.query.allimages.map((i: any) => [i.name, i.timestamp]),
      [
        ['Kyiv_coat_of_arms.png', '2015-07-12T02:17:20Z'],
        // equal upload times: by name, descending too
        ['Upload_only_photo.png', '2015-06-01T00:00:00Z'],
        ['Ukraine_flag_copy.png', '2015-06-01T00:00:00Z'],
      ],
    );
    const tie = await get({
      action: 'query',
      list: 'allimages',
      aisort: 'timestamp',
      aistart: '2015-06-01T00:00:00Z',
      ailimit: 1,
      aiprop: '',
      rawcontinue: 1,
    });
    const iso = await get({
      action: 'query',
      list: 'allimages',
      aisort: 'timestamp',
      ailimit: 1,
      aiprop: '',
      aicontinue: '2015-06-01T00:00:00Z|Upload_only_photo.png',
      rawcontinue: 1,
    });
    assert.equal(iso.json.query.allimages[0].name, 'Upload_only_photo.png');
    assert.deepEqual(tie.json, {
      'query-continue': { allimages: { aicontinue: '20150601000000|Upload_only_photo.png' } },
      query: { allimages: [{ name: 'Ukraine_flag_copy.png', ns: 6, title: 'Файл:Ukraine flag copy.png' }] },
    });
    const newer = await get({ action: 'query', list: 'allimages', aisort: 'timestamp', ailimit: 2, aiprop: 'timestamp' });
    assert.deepEqual(
      newer.json.query.allimages.map((i: any) => [i.name, i.timestamp]),
      [
        ['Герб_Києва.png', '2009-10-15T22:27:33Z'],
        ['Єнот.png', '2009-12-28T19:34:58Z'],
      ],
    );
    const user = await get({
      action: 'query',
      list: 'allimages',
      aisort: 'timestamp',
      aiuser: 'Остап_Ґудзь',
      aiprop: 'user',
      aidir: 'older',
    });
    assert.deepEqual(
      user.json.query.allimages.map((i: any) => [i.name, i.user]),
      [
        ['Трембіта.gif', 'Остап Ґудзь'],
        ['Ґанок.png', 'Остап Ґудзь'],
        ['Об’єкт.png', 'Остап Ґудзь'],
        ['Герб_Львова.png', 'Остап Ґудзь'],
        ['Прапор_Львова.png', 'Остап Ґудзь'],
      ],
    );
    // the user name's first letter is uppercased (User::getCanonicalName)
    assert.equal(
      (await get({ action: 'query', list: 'allimages', aisort: 'timestamp', aiuser: 'тарас', aiprop: 'user', ailimit: 1 })).json.query
        .allimages[0].user,
      'Тарас',
    );
  });
  it('filters: size, sha1, sha1base36, mime, filterbots', async () => {
    const names = async (p: Record<string, string | number>) =>
      (await get({ action: 'query', list: 'allimages', aiprop: '', ailimit: 'max', ...p })).json.query.allimages.map((i: any) => i.name);
    assert.deepEqual(await names({ aiminsize: 5000 }), ['Ukraine_map.gif', 'Мапа_України.gif', 'Трембіта.gif']);
    assert.deepEqual(await names({ aimaxsize: 90 }), ['Blank.png', 'Порожнє_зображення.png']);
    assert.deepEqual(await names({ aiminsize: 118, aimaxsize: 119 }), [
      'Flag_of_Ukraine.png',
      'Ukraine_flag_copy.png',
      'Прапор_Києва.png',
      'Прапор_України.png',
    ]);
    const hex = createHash('sha1').update('').digest('hex');
    assert.deepEqual(await names({ aisha1: hex }), []);
    const sha = (await get({ action: 'query', list: 'allimages', aifrom: 'Tux.png', ailimit: 1, aiprop: 'sha1' })).json.query.allimages[0]
      .sha1;
    assert.deepEqual(await names({ aisha1: sha.toUpperCase() }), ['Linux_logo.png', 'Tux.png', 'Пінгвін.png']);
    assert.deepEqual(await names({ aisha1base36: sha1HexToBase36(sha) }), ['Linux_logo.png', 'Tux.png', 'Пінгвін.png']);
    assert.deepEqual(await names({ aisha1: sha, aisort: 'timestamp' }), ['Tux.png', 'Linux_logo.png', 'Пінгвін.png']);
    assert.deepEqual(await names({ aimime: 'image/gif|image/svg+xml' }), [
      'Star.svg',
      'Ukraine_map.gif',
      'Зірка.svg',
      'Мапа_України.gif',
      'Схема_метро.svg',
      'Трембіта.gif',
    ]);
    assert.deepEqual(await names({ aimime: 'application/pdf|text' }), ['Документ.pdf']);
    assert.equal((await get({ action: 'query', list: 'allimages', aimime: '' })).text, '{"query":{"allimages":[]}}');
    assert.deepEqual(await names({ aisort: 'timestamp', aifilterbots: 'bots' }), []);
    assert.equal((await names({ aisort: 'timestamp', aifilterbots: 'nobots' })).length, 54);
  });
  it('size/dimensions, mime, mediatype, bitdepth of other file types', async () => {
    const r = await get({
      action: 'query',
      list: 'allimages',
      aimime: 'image/svg+xml|application/pdf',
      aiprop: 'dimensions|mime|mediatype|bitdepth',
      ailimit: 2,
    });
    assert.deepEqual(r.json.query.allimages[0], {
      name: 'Star.svg',
      size: 261,
      width: 100,
      height: 95,
      mime: 'image/svg+xml',
      mediatype: 'DRAWING',
      bitdepth: 0,
      ns: 6,
      title: 'Файл:Star.svg',
    });
    assert.deepEqual(r.json.query.allimages[1], {
      name: 'Документ.pdf',
      size: 672,
      width: 0,
      height: 0,
      mime: 'application/pdf',
      mediatype: 'OFFICE',
      bitdepth: 0,
      ns: 6,
      title: 'Файл:Документ.pdf',
    });
  });
  it('ailimit warnings and limits', async () => {
    const over = await get({ action: 'query', list: 'allimages', ailimit: 501, aiprop: '', aiprefix: 'Zoo' });
    assert.equal(
      over.text,
      '{"warnings":{"allimages":{"*":"ailimit may not be over 500 (set to 501) for users"}},"query":{"allimages":[{"name":"Zoo.png","ns":6,"title":"Файл:Zoo.png"}]}}',
    );
    const g = await get({ action: 'query', generator: 'allimages', gailimit: 'max', gaiprefix: 'Zoo' });
    assert.equal(g.text, '{"limits":{"allimages":500},"query":{"pages":{"154":{"pageid":154,"ns":6,"title":"Файл:Zoo.png"}}}}');
  });
  it('errors (texts name the ai prefix even in generator mode)', async () => {
    const bad = 'Invalid continue param. You should pass the original value returned by the previous query';
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ list: 'allimages', aistart: '2015-01-01T00:00:00Z' }, 'aibadparams', "Parameter 'aistart' can only be used with aisort=timestamp"],
      [{ list: 'allimages', aiend: '2015-01-01T00:00:00Z' }, 'aibadparams', "Parameter 'aiend' can only be used with aisort=timestamp"],
      [{ list: 'allimages', aiuser: 'Тарас' }, 'aibadparams', "Parameter 'aiuser' can only be used with aisort=timestamp"],
      [{ list: 'allimages', aifilterbots: 'nobots' }, 'aibadparams', "Parameter 'aifilterbots' can only be used with aisort=timestamp"],
      [
        { generator: 'allimages', gaistart: '2015-01-01T00:00:00Z' },
        'gaibadparams',
        "Parameter 'aistart' can only be used with aisort=timestamp",
      ],
      [{ list: 'allimages', aisort: 'timestamp', aifrom: 'A' }, 'aibadparams', "Parameter 'aifrom' can only be used with aisort=name"],
      [{ list: 'allimages', aisort: 'timestamp', aito: 'A' }, 'aibadparams', "Parameter 'aito' can only be used with aisort=name"],
      [
        { generator: 'allimages', gaisort: 'timestamp', gaiprefix: 'A' },
        'gaibadparams',
        "Parameter 'aiprefix' can only be used with aisort=name",
      ],
      [
        { list: 'allimages', aisort: 'timestamp', aiuser: 'Тарас', aifilterbots: 'bots' },
        'aibadparams',
        "Parameters 'aiuser' and 'aifilterbots' cannot be used together",
      ],
      [{ list: 'allimages', aisha1: 'abc' }, 'aiinvalidsha1hash', 'The SHA1 hash provided is not valid'],
      [{ generator: 'allimages', gaisha1: 'g'.repeat(40) }, 'gaiinvalidsha1hash', 'The SHA1 hash provided is not valid'],
      [{ list: 'allimages', aisha1base36: 'abc' }, 'aiinvalidsha1base36hash', 'The SHA1Base36 hash provided is not valid'],
      [{ list: 'allimages', aicontinue: 'a|b' }, 'aibadcontinue', bad],
      [{ list: 'allimages', aisort: 'timestamp', aicontinue: 'a' }, 'aibadcontinue', bad],
      [{ list: 'allimages', aisort: 'timestamp', aicontinue: 'a|b' }, 'aibadcontinue', bad],
      [{ generator: 'allimages', gaicontinue: 'a|b' }, 'gaibadcontinue', bad],
      [{ list: 'allimages', aifrom: 'a[b' }, 'aiinvalidtitle', 'Bad title "a[b"'],
      [{ generator: 'allimages', gaiprefix: 'a}' }, 'gaiinvalidtitle', 'Bad title "a}"'],
      [{ list: 'allimages', aisort: 'size' }, 'aiunknown_aisort', "Unrecognized value for parameter 'aisort': size"],
      [{ list: 'allimages', aisort: 'timestamp', aiuser: 'a[b' }, 'aibaduser_aiuser', "Invalid value 'a[b' for user parameter aiuser"],
      [
        { generator: 'allimages', redirects: '' },
        'gaiparams',
        'Use "gaifilterredir=nonredirects" option instead of "redirects" when using allimages as a generator',
      ],
    ];
    for (const [params, code, info] of cases) assertError(await get({ action: 'query', ...params }), code, info);
  });
});

describe('file URLs', () => {
  it('hashed upload path from md5 of the DB key, rawurlencoded name; wfUrlencode for pages', () => {
    const md5 = createHash('md5').update('Ёлка.png').digest('hex');
    assert.equal(hashPath('Ёлка.png'), `${md5[0]}/${md5.slice(0, 2)}/`);
    assert.equal(fileUrlPath("A b'(c)!~.png"), `/images/${hashPath("A b'(c)!~.png")}A%20b%27%28c%29%21~.png`);
    assert.equal(rawUrlEncode('Ґ*'), '%D2%90%2A');
    assert.equal(wfUrlencode("Файл:A_b'(c)!~;@$,/&?#.png"), '%D0%A4%D0%B0%D0%B9%D0%BB:A_b%27(c)!~;@$,/%26%3F%23.png');
    const hex = createHash('sha1').update('x').digest('hex');
    assert.equal(sha1Base36ToHex(sha1HexToBase36(hex)), hex);
    assert.equal(sha1HexToBase36('0'.repeat(40)), '0'.repeat(31));
  });
});

describe('FileStore.listPages', () => {
  it('each file with its description page as the page table has it (the redirect flag too), in list() order', async () => {
    // a copy of the demo wiki where two description pages are redirects (the demo has no such uploaded file)
    const tmp = mkdtempSync(join(tmpdir(), 'wikiquery-listpages-'));
    const file = join(tmp, 'w.sqlite');
    const src = new Database(join(s.dir, 'demo.sqlite'), { readonly: true });
    await src.backup(file);
    src.close();
    const w = new Database(file);
    w.prepare("UPDATE page SET page_is_redirect = 1 WHERE page_namespace = 6 AND page_title IN ('Tux.png', 'Борщ.png')").run();
    // the file columns the import derives from the pages (image.img_page), as it would have
    deriveFileColumns(w);
    w.close();
    const db = new Db(file);
    try {
      const files = new SqliteFileStore(db);
      const pageOf = db.raw.prepare(
        'SELECT page_id AS pageid, page_is_redirect AS r FROM page WHERE page_namespace = 6 AND page_title = ?',
      );
      let redirects = 0;
      let missing = 0;
      for (const sort of ['name', 'timestamp'] as const) {
        for (const descending of [false, true]) {
          const o = { sort, descending, limit: 500 };
          const listed = await files.list(o);
          const pages = await files.listPages(o);
          assert.deepEqual(
            pages.map((p) => p.name),
            listed.map((f) => f.name),
          );
          // the upload time is read where it makes the continuation (sort=timestamp)
          if (sort === 'timestamp')
            assert.deepEqual(
              pages.map((p) => p.timestamp),
              listed.map((f) => f.timestamp),
            );
          const full = await files.listPages(o, true);
          for (const [i, p] of pages.entries()) {
            const row = pageOf.get(p.name) as { pageid: number; r: number } | undefined;
            assert.deepEqual(p.page, row ? { pageid: row.pageid, ns: 6, title: p.name, isRedirect: row.r === 1 } : null, p.name);
            assert.equal(full[i]!.page?.isRedirect, p.page?.isRedirect);
            if (row?.r === 1) redirects++;
            if (!row) missing++;
          }
        }
      }
      assert.equal(redirects, 8);
      assert.ok(missing > 0);
      // with their duplicates: what sameContent answers, and that is every other file with the same SHA-1
      const sameSha1 = db.raw.prepare(
        'SELECT d.img_name AS name, d.img_user_text AS userText, d.img_timestamp AS timestamp FROM image f JOIN image d ON d.img_sha1 = f.img_sha1 AND d.img_name <> f.img_name WHERE f.img_name = ? ORDER BY d.img_name',
      );
      let withDuplicates = 0;
      const all = await files.list({ sort: 'name', descending: false, limit: 500 });
      const batch = await files.sameContent(all.map((f) => f.name));
      for (const sort of ['name', 'timestamp'] as const) {
        for (const descending of [false, true]) {
          const o = { sort, descending, limit: 500 };
          const pages = await files.listPages(o);
          for (const full of [false, true]) {
            const dups = await files.listPages(o, full, true);
            assert.deepEqual(
              dups.map((p) => [p.name, p.page?.pageid, p.page?.isRedirect]),
              pages.map((p) => [p.name, p.page?.pageid, p.page?.isRedirect]),
            );
            for (const p of dups) {
              const expected = sameSha1.all(p.name) as Array<{ name: string; userText: string; timestamp: string }>;
              assert.deepEqual(p.duplicates, expected.length ? expected : null, p.name);
              assert.deepEqual((await files.sameContent([p.name])).get(p.name) ?? null, p.duplicates, p.name);
              assert.deepEqual(batch.get(p.name) ?? null, p.duplicates, p.name);
              if (expected.length) withDuplicates++;
            }
          }
        }
      }
      assert.ok(withDuplicates >= 8, String(withDuplicates));
    } finally {
      db.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('store query plans', () => {
  it('every statement is an index seek or an ordered range scan that stops at its LIMIT', async () => {
    const db = new Db(join(s.dir, 'demo.sqlite'), { debug: true });
    try {
      const files = new SqliteFileStore(db);
      const cats = new SqliteCategoryStore(db);
      const links = new SqliteLinkStore(db);
      const log: QueryLogEntry[] = [];
      await queryLog.run(log, async () => {
        await files.byNames(['Tux.png']);
        await files.sameContent(['Tux.png', 'Linux_logo.png']);
        await files.sameContent(['Tux.png']);
        for (const descending of [false, true]) {
          await files.list({ sort: 'name', descending, limit: 3 });
          await files.listPages({ sort: 'name', descending, limit: 3 });
          await files.listPages({ sort: 'timestamp', descending, user: 'Тарас', continueAt: { timestamp: '2011', name: 'A' }, limit: 3 });
          await files.listPages({ sort: 'name', descending, limit: 3 }, false, true);
          await files.listPages({ sort: 'timestamp', descending, limit: 3 }, false, true);
          await files.listPages({ sort: 'timestamp', descending, user: 'Тарас', limit: 3 }, true, true);
          await files.list({
            sort: 'name',
            descending,
            from: 'A',
            to: 'Я',
            prefix: 'Б',
            continueName: 'Б',
            minSize: 1,
            maxSize: 999,
            mimes: [
              ['image', 'png'],
              ['image', 'gif'],
            ],
            limit: 3,
          });
          await files.list({ sort: 'name', descending, sha1: 'x', limit: 3 });
          await files.list({ sort: 'timestamp', descending, limit: 3 });
          await files.list({
            sort: 'timestamp',
            descending,
            start: '2010',
            end: '2020',
            continueAt: { timestamp: '2011', name: 'A' },
            minSize: 1,
            mimes: [['image', 'png']],
            limit: 3,
          });
          await files.list({ sort: 'timestamp', descending, user: 'Тарас', continueAt: { timestamp: '2011', name: 'A' }, limit: 3 });
          await files.list({ sort: 'timestamp', descending, sha1: 'x', limit: 3 });
          await cats.list({ descending, hidden: true, min: 1, max: 5, from: 'A', to: 'Я', prefix: 'Б', continueFrom: 'Б', limit: 3 });
          await cats.list({ descending, hidden: false, limit: 3 });
          await links.fileUsages({ descending, limit: 3 });
          await links.fileUsages({ descending, from: 'A', to: 'Я', prefix: 'П', continueAt: { target: 'П', from: 3 }, limit: 3 });
          await links.fileUsagePages({ descending, from: 'A', to: 'Я', prefix: 'П', continueAt: { target: 'П', from: 3 }, limit: 3 });
          await links.fileUsageTargets({ descending, limit: 3 });
          await links.fileUsageTargets({ descending, from: 'A', to: 'Я', prefix: 'П', continueAt: 'П', limit: 3 });
        }
      });
      const seen = new Set<string>();
      let sameContentPlans = 0;
      for (const { sql } of log) {
        if (seen.has(sql)) continue;
        seen.add(sql);
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]))];
        const args = names.length
          ? [Object.fromEntries(names.map((n) => [n, n === 'limit' ? 3 : 'x']))]
          : (sql.match(/\?/g) ?? []).map(() => 'x');
        const plan = (db.raw.prepare('EXPLAIN QUERY PLAN ' + sql).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
        for (const step of plan) {
          // a whole-table scan would be 'SCAN <table>' with a sort, or a scan of a table that is not ordered by its key
          // a batch is read through json_each: a scan of the batch itself, then a seek per element
          const ok =
            /^SEARCH /.test(step) ||
            /^SCAN (image|imagelinks|category)( USING (COVERING )?INDEX \w+)?$/.test(step) ||
            /^SCAN (j|json_each) VIRTUAL TABLE INDEX/.test(step) ||
            /^(LIST|CORRELATED LIST) SUBQUERY \d+$/.test(step) ||
            // a value read by a subquery per row (a file's description page): its own steps are checked too
            /^CORRELATED SCALAR SUBQUERY \d+$/.test(step) ||
            // rows read as one JSON text (StatementCache.jsonRows): the ordered, limited statement inside
            // feeds the aggregate row by row
            /^(CO-ROUTINE|SCAN) \(subquery-\d+\)$/.test(step) ||
            step === 'USE TEMP B-TREE FOR ORDER BY';
          assert.ok(ok, `${step}\n  in ${sql}`);
          if (/^SCAN /.test(step) && !/VIRTUAL TABLE|subquery/.test(step)) assert.match(sql, /ORDER BY .* LIMIT @?\w+\)?$/, sql);
        }
        // a sort only where an equality seek bounds the rows (all files with one SHA-1)
        if (plan.includes('USE TEMP B-TREE FOR ORDER BY'))
          assert.ok(
            plan.some((p) => /USING INDEX img_sha1 \(img_sha1=\?\)/.test(p)),
            plan.join(' / '),
          );
        // a file's duplicates come from its own row (img_dups, written at import): a primary-key seek, none of img_sha1
        if (/img_dups (FROM|IS NOT NULL)/.test(sql) && !sql.includes('img_page')) {
          sameContentPlans++;
          assert.ok(
            plan.some((p) => /^SEARCH (f|image) USING PRIMARY KEY \(img_name=\?\)$/.test(p)),
            plan.join(' / '),
          );
          assert.ok(!plan.some((p) => p.includes('img_sha1')), plan.join(' / '));
        }
        // the generator's files with their description pages and duplicates: no seek of the page table, and by
        // time none of the image rows but for the files that have duplicates (img_timestamp covers the rest)
        if (sql.includes('img_page AS c1')) {
          assert.ok(!plan.some((p) => /\bpage\b/.test(p)), plan.join(' / '));
          if (!sql.includes('img_user_text'))
            assert.ok(
              plan.some((p) => /^SCAN image( USING COVERING INDEX img_timestamp)?$/.test(p)),
              plan.join(' / '),
            );
        }
      }
      assert.equal(sameContentPlans, 2);
      assert.ok(seen.size >= 20);
    } finally {
      db.close();
    }
  });
});
