/**
 * meta=allmessages and list=querypage (also as generator) over HTTP on the demo wiki: spec endpoints 6
 * and 7 as exact JSON, every parameter, the errors, all three continuation forms and continuation joins;
 * then the report builder on a hand-made database (MediaWiki's report definitions case by case), the
 * message logic on an in-memory catalog, and the query plans of the store methods.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { RAW_CONTINUE_WARNING as RAW_WARNING, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { Db } from '../../src/store/sqlite/db.js';
import { queryLog, type QueryLogEntry } from '../../src/store/query-log.js';
import { SqliteMessageStore } from '../../src/store/sqlite/messages.js';
import { SqliteReportStore } from '../../src/store/sqlite/reports.js';
import { SCHEMA } from '../../src/store/sqlite/schema.js';
import { buildReports, REPORT_QUERIES, REPORT_SOURCE_TABLES } from '../../src/store/sqlite/import/reports.js';
import { importWiki } from '../../src/importer/import.js';
import { importHooks } from '../../src/cli/import-command.js';
import { Messages, replaceParameters, userLanguage, type ParserEnv } from '../../src/wiki/messages.js';
import { messageText, transformMessage } from '../../src/wikitext/message-transform.js';
import { convertPlural, isValidBuiltInCode, isValidCodeMw } from '../../src/wiki/language.js';
import { TitleCodec } from '../../src/wiki/titles.js';
import { QUERY_PAGES } from '../../src/modules/query/querypage.js';
import { prefixUpperBound } from '../../src/modules/query/allmessages.js';

let s: DemoServer;
before(async () => {
  s = await startDemoServer();
});
after(async () => {
  await s?.close();
});


/** GET with raw UTF-8 output (utf8=1) so that expected texts are readable. */
const get = (params: Record<string, string | number | boolean>) => s.get({ utf8: 1, ...params });
const am = (params: Record<string, string | number | boolean>) => get({ action: 'query', meta: 'allmessages', ...params });
const qp = (params: Record<string, string | number | boolean>) => get({ action: 'query', list: 'querypage', ...params });

function assertError(r: { json: any; headers: Headers }, code: string, info: string): void {
  assert.deepEqual(r.json, { error: { code, info, '*': `See ${s.url} for API usage` } });
  assert.equal(r.headers.get('mediawiki-api-error'), code);
}

/** The demo database itself, for expectations computed independently of the report SQL. */
function demoDb(): Database.Database {
  return new Database(join(s.dir, 'demo.sqlite'), { readonly: true });
}

// -------------------------------------------------------------------------------------------------
// meta=allmessages
// -------------------------------------------------------------------------------------------------

describe('meta=allmessages&amprefix=', () => {
  it('lists the keys with the prefix in byte order, Ukrainian texts with local overrides, $1 and {{…}} unexpanded', async () => {
    const r = await am({ amprefix: 'demo-' });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[' +
        '{"name":"demo-apostrophe","*":"Не забувайте про апостроф: пам\'ять, м’ята, сімʼя"},' +
        '{"name":"demo-back-to-main","*":"Повернутися на [[{{int:mainpage}}]]."},' +
        '{"name":"demo-date","*":"$1 $2 $3 року"},' +
        '{"name":"demo-edits","*":"{{GENDER:$1|Він зробив|Вона зробила}} $2 {{PLURAL:$2|редагування|редагування|редагувань}}."},' +
        '{"name":"demo-empty","*":"Тепер не порожнє"},' +
        '{"name":"demo-files","*":"$1 {{PLURAL:$1|файл|файли|файлів}}"},' +
        '{"name":"demo-footer","*":"Демовікі, $1"},' +
        '{"name":"demo-greeting","*":"{{int:demo-welcome}} (змінено на вікі)"},' +
        '{"name":"demo-html","*":"Текст із <b>розміткою</b> & «лапками»"},' +
        '{"name":"demo-multiline","*":"Перший рядок\\nДругий рядок"},' +
        '{"name":"demo-only-en","*":"Тепер є й українською (локально)"},' +
        '{"name":"demo-ru-fallback","*":"Локальний український текст замість російського"},' +
        '{"name":"demo-ru-fallback-2","*":"Второе сообщение только на русском: $1."},' +
        '{"name":"demo-welcome","*":"{{GENDER:$1|Він|Вона}} з нами з $2 — локальне вітання для $1."}]}}',
    );
  });
  it('escapes non-ASCII without utf8 and has no continuation, even for the whole catalog', async () => {
    const r = await s.get({ action: 'query', meta: 'allmessages', amprefix: 'demo-fo' });
    assert.equal(r.text, '{"query":{"allmessages":[{"name":"demo-footer","*":"\\u0414\\u0435\\u043c\\u043e\\u0432\\u0456\\u043a\\u0456, $1"}]}}');
    const all = await am({});
    assert.deepEqual(Object.keys(all.json), ['query']);
    const names: string[] = all.json.query.allmessages.map((m: any) => m.name);
    const db = demoDb();
    try {
      const union = db.prepare("SELECT COUNT(DISTINCT msg_key) FROM message WHERE msg_lang IN ('uk', 'ru', 'en')").pluck().get();
      assert.equal(names.length, union);
    } finally {
      db.close();
    }
    assert.deepEqual(names, [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
    assert.equal(new Set(names).size, names.length);
    // the merged uk catalog: uk, ru and en keys; local-only pages only with amincludelocal
    for (const k of ['oct', 'demo-only-en', 'size-terabytes', 'word-separator']) assert.ok(names.includes(k), k);
    assert.ok(!names.includes('demo-local-only'));
  });
  it('an empty prefix or filter matches nothing (PHP 5 strpos with an empty needle)', async () => {
    assert.equal((await am({ amprefix: '' })).text, '{"query":{"allmessages":[]}}');
    assert.equal((await am({ amfilter: '' })).text, '{"query":{"allmessages":[]}}');
    assert.equal((await am({ amprefix: 'no-such-prefix-' })).text, '{"query":{"allmessages":[]}}');
  });
});

describe('meta=allmessages parameters', () => {
  it('ammessages: given order, duplicates removed, missing keys, keys as requested (first letter case-insensitive)', async () => {
    const r = await am({ ammessages: 'sunday|august|nosuchkey|sunday|demo-local-only|Mainpage|august/ru' });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"sunday","*":"неділенька"},{"name":"august","*":"серпень (змінено локально)"},' +
        '{"name":"nosuchkey","missing":""},{"name":"demo-local-only","*":"Це повідомлення існує лише як сторінка MediaWiki: у Демовікі."},' +
        '{"name":"Mainpage","*":"Головна сторінка"},{"name":"august/ru","*":"август"}]}}',
    );
  });
  it('amprop=default: the catalog text where the override differs, defaultmissing for local-only messages', async () => {
    const r = await am({ ammessages: 'august|jan|oct|demo-local-only|demo-only-en|mainpage', amprop: 'default' });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"august","default":"серпень","*":"серпень (змінено локально)"},' +
        '{"name":"jan","default":"січ","*":"січ."},{"name":"oct","*":"окт"},' +
        '{"name":"demo-local-only","defaultmissing":"","*":"Це повідомлення існує лише як сторінка MediaWiki: у Демовікі."},' +
        '{"name":"demo-only-en","default":"This text exists in English only.","*":"Тепер є й українською (локально)"},' +
        '{"name":"mainpage","*":"Головна сторінка"}]}}',
    );
  });
  it('amnocontent drops the text but keeps default; customised comes before default', async () => {
    const r = await am({ ammessages: 'august|nosuch|sunday', amnocontent: 1, amprop: 'default', amcustomised: 'modified' });
    assert.equal(r.text, '{"query":{"allmessages":[{"name":"august","customised":"","default":"серпень"},{"name":"sunday","customised":"","default":"неділя"}]}}');
  });
  it('amcustomised=modified / unmodified split the list by the existence of the MediaWiki: page', async () => {
    const mod = await am({ amprefix: 'demo-', amcustomised: 'modified' });
    assert.equal(
      mod.text,
      '{"query":{"allmessages":[{"name":"demo-empty","customised":"","*":"Тепер не порожнє"},' +
        '{"name":"demo-greeting","customised":"","*":"{{int:demo-welcome}} (змінено на вікі)"},' +
        '{"name":"demo-only-en","customised":"","*":"Тепер є й українською (локально)"},' +
        '{"name":"demo-ru-fallback","customised":"","*":"Локальний український текст замість російського"},' +
        '{"name":"demo-welcome","customised":"","*":"{{GENDER:$1|Він|Вона}} з нами з $2 — локальне вітання для $1."}]}}',
    );
    const unmod = await am({ amprefix: 'demo-', amcustomised: 'unmodified', amnocontent: 1 });
    assert.equal(
      unmod.text,
      '{"query":{"allmessages":[{"name":"demo-apostrophe"},{"name":"demo-back-to-main"},{"name":"demo-date"},{"name":"demo-edits"},' +
        '{"name":"demo-files"},{"name":"demo-footer"},{"name":"demo-html"},{"name":"demo-multiline"},{"name":"demo-ru-fallback-2"}]}}',
    );
    // another language: its MediaWiki:Key/<lang> pages
    const ru = await am({ ammessages: 'august|january', amlang: 'ru', amcustomised: 'modified' });
    assert.equal(ru.text, '{"query":{"allmessages":[{"name":"august","customised":"","*":"август (изменено локально)"}]}}');
  });
  it('amincludelocal adds the keys of the MediaWiki: pages of the content language', async () => {
    assert.equal((await am({ amprefix: 'demo-l' })).text, '{"query":{"allmessages":[]}}');
    assert.equal(
      (await am({ amprefix: 'demo-l', amincludelocal: 1 })).text,
      '{"query":{"allmessages":[{"name":"demo-local-only","*":"Це повідомлення існує лише як сторінка MediaWiki: у Демовікі."}]}}',
    );
    // also for another language (the local keys are always the content language's)
    const en = await am({ amprefix: 'demo-l', amincludelocal: 1, amlang: 'en' });
    assert.equal(en.text, '{"query":{"allmessages":[{"name":"demo-local-only","*":"Це повідомлення існує лише як сторінка MediaWiki: у Демовікі."}]}}');
  });
  it('amfilter keeps names containing the text (case-sensitive)', async () => {
    assert.equal(
      (await am({ amfilter: 'separ' })).text,
      '{"query":{"allmessages":[{"name":"colon-separator","*":": "},{"name":"comma-separator","*":", "},{"name":"word-separator","*":" "}]}}',
    );
    assert.equal((await am({ amfilter: 'SEPAR' })).text, '{"query":{"allmessages":[]}}');
  });
  it('amprefix on an explicit list keeps only the first contiguous run', async () => {
    const r = await am({ ammessages: 'august|april|foo|apr', amprefix: 'a' });
    assert.equal(r.text, '{"query":{"allmessages":[{"name":"august","*":"серпень (змінено локально)"},{"name":"april","*":"квітень"}]}}');
  });
  it('amfrom must be an existing key (else nothing), amto is inclusive', async () => {
    const names = async (p: Record<string, string>) => (await am({ amprefix: 'demo-', ...p })).json.query.allmessages.map((m: any) => m.name);
    assert.deepEqual(await names({ amfrom: 'demo-empty', amto: 'demo-footer' }), ['demo-empty', 'demo-files', 'demo-footer']);
    assert.deepEqual(await names({ amfrom: 'demo-e' }), []);
    assert.deepEqual(await names({ amto: 'demo-e' }), ['demo-apostrophe', 'demo-back-to-main', 'demo-date']);
    assert.deepEqual(await names({ amfrom: 'demo-welcome' }), ['demo-welcome']);
    // amfrom outside the prefix: not in the list, so nothing
    assert.deepEqual(await names({ amfrom: 'august' }), []);
    // on an explicit list the output starts at the first occurrence and stops at the first greater name
    const r = await am({ ammessages: 'sunday|august|april|zzz|may', amfrom: 'august', amto: 'sunday' });
    assert.deepEqual(r.json.query.allmessages.map((m: any) => m.name), ['august', 'april']);
  });
  it('amlang: another language, its overrides (MediaWiki:Key/ru), fallback to the site language for local-only keys', async () => {
    const r = await am({ ammessages: 'august|january|oct|demo-local-only|demo-ru-fallback-2', amlang: 'ru', amprop: 'default' });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"august","default":"август","*":"август (изменено локально)"},{"name":"january","*":"январь"},' +
        '{"name":"oct","*":"окт"},{"name":"demo-local-only","defaultmissing":"","*":"Це повідомлення існує лише як сторінка MediaWiki: у Демовікі."},' +
        '{"name":"demo-ru-fallback-2","*":"Второе сообщение только на русском: $1."}]}}',
    );
  });
  it('amlang: any valid code, through its fallback chain (de → en before the site language)', async () => {
    const r = await am({ ammessages: 'august|demo-local-only|demo-only-en|demo-ru-fallback-2', amlang: 'de' });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"august","*":"August"},{"name":"demo-local-only","*":"Це повідомлення існує лише як сторінка MediaWiki: у Демовікі."},' +
        '{"name":"demo-only-en","*":"This text exists in English only."},{"name":"demo-ru-fallback-2","*":"Second English-and-Russian-only message: $1."}]}}',
    );
    // "*" lists the language's merged catalog: en keys only for de
    const names = (await am({ amlang: 'de', amprefix: 'demo-' })).json.query.allmessages.map((m: any) => m.name);
    assert.ok(names.includes('demo-only-en') && !names.includes('demo-local-only'));
  });
  it('uselang is the default language (lowercased; invalid codes mean the content language)', async () => {
    const t = (r: any) => r.json.query.allmessages[0]['*'];
    assert.equal(t(await am({ ammessages: 'august', uselang: 'ru' })), 'август (изменено локально)');
    assert.equal(t(await am({ ammessages: 'august', uselang: 'RU' })), 'август (изменено локально)');
    assert.equal(t(await am({ ammessages: 'august', uselang: 'content' })), 'серпень (змінено локально)');
    assert.equal(t(await am({ ammessages: 'august', uselang: 'a<b' })), 'серпень (змінено локально)');
    assert.equal(t(await am({ ammessages: 'august', uselang: 'ru', amlang: 'en' })), 'August');
  });
  it('amenableparser with amargs: $1, {{PLURAL:}} with the uk rules, {{GENDER:}} of an unknown user, {{int:}}', async () => {
    const r = await am({
      ammessages: 'demo-files|nbytes|pagecategories|hidden-categories|demo-edits|demo-greeting|demo-back-to-main|demo-welcome',
      amenableparser: 1,
      amargs: '21|2015',
    });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"demo-files","*":"21 файл"},{"name":"nbytes","*":"21 байт (локально)"},' +
        '{"name":"pagecategories","*":"Категорія сторінки"},{"name":"hidden-categories","*":"Службова категорія"},' +
        '{"name":"demo-edits","*":"Він зробив 2015 редагувань."},' +
        // {{int:}} takes the other message without arguments and its braces are expanded again
        '{"name":"demo-greeting","*":"Він з нами з $2 — локальне вітання для $1. (змінено на вікі)"},' +
        '{"name":"demo-back-to-main","*":"Повернутися на [[Головна сторінка]]."},' +
        '{"name":"demo-welcome","*":"Він з нами з 2015 — локальне вітання для 21."}]}}',
    );
    const plural = async (n: string, lang = 'uk') =>
      (await am({ ammessages: 'demo-files', amenableparser: 1, amargs: n, amlang: lang })).json.query.allmessages[0]['*'];
    assert.deepEqual(
      await Promise.all(['1', '2', '4', '5', '11', '12', '14', '21', '22', '25', '101', '111', '0', '1,5', 'abc'].map((n) => plural(n))),
      ['1 файл', '2 файли', '4 файли', '5 файлів', '11 файлів', '12 файлів', '14 файлів', '21 файл', '22 файли', '25 файлів', '101 файл', '111 файлів', '0 файлів', '1,5 файлів', 'abc файлів'],
    );
    assert.deepEqual(await Promise.all(['1', '21'].map((n) => plural(n, 'en'))), ['1 file', '21 files']);
    assert.deepEqual(await Promise.all(['1', '3', '21', '5'].map((n) => plural(n, 'ru'))), ['1 файл', '3 файла', '21 файл', '5 файлов']);
  });
  it('amenableparser without amargs: {{PLURAL:$1|…}} reads $1 as 0, {{GENDER:$1|…}} as an unknown user', async () => {
    const r = await am({ ammessages: 'demo-files|demo-welcome|mainpage', amenableparser: 1 });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"demo-files","*":"$1 файлів"},{"name":"demo-welcome","*":"Він з нами з $2 — локальне вітання для $1."},' +
        '{"name":"mainpage","*":"Головна сторінка"}]}}',
    );
  });
  it('{{GENDER:}} takes the third form for an unknown gender when there is one; {{int:}} in the message language', async () => {
    const ru = await am({ ammessages: 'demo-welcome|demo-back-to-main', amenableparser: 1, amargs: 'Olena|2015', amlang: 'ru' });
    assert.equal(ru.text, '{"query":{"allmessages":[{"name":"demo-welcome","*":"он присоединился к Демовики 2015."},{"name":"demo-back-to-main","*":"Вернуться на [[Заглавная страница]]."}]}}');
    const en = await am({ ammessages: 'demo-welcome|demo-back-to-main', amenableparser: 1, amargs: 'Olena|2015', amlang: 'en' });
    assert.equal(en.text, '{"query":{"allmessages":[{"name":"demo-welcome","*":"He joined Demowiki on 2015. Welcome, Olena!"},{"name":"demo-back-to-main","*":"Return to [[Front page]]."}]}}');
  });
  it('amargs without the parser replace $N only; amprop=default then shows the raw text', async () => {
    const r = await am({ ammessages: 'demo-files|demo-footer', amargs: '7', amprop: 'default' });
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"demo-files","default":"$1 {{PLURAL:$1|файл|файли|файлів}}","*":"7 {{PLURAL:7|файл|файли|файлів}}"},' +
        '{"name":"demo-footer","default":"Демовікі, $1","*":"Демовікі, 7"}]}}',
    );
  });
  it('amtitle is checked only with amenableparser', async () => {
    assertError(await am({ ammessages: 'august', amenableparser: 1, amtitle: '[[' }), 'aminvalidtitle', 'Bad title "[["');
    assert.equal((await am({ ammessages: 'jan', amtitle: '[[' })).text, '{"query":{"allmessages":[{"name":"jan","*":"січ."}]}}');
    assert.equal((await am({ ammessages: 'jan', amenableparser: 1, amtitle: 'Київ' })).text, '{"query":{"allmessages":[{"name":"jan","*":"січ."}]}}');
  });
  it('errors: invalid amlang; unknown amcustomised and amprop values', async () => {
    for (const lang of ['x:y', 'a/b', 'a<b', 'a|b', 'a%41']) {
      assertError(await am({ amlang: lang }), 'aminvalidlang', 'Invalid language code for parameter lang');
    }
    assertError(await am({ amcustomised: 'some' }), 'amunknown_amcustomised', "Unrecognized value for parameter 'amcustomised': some");
    const r = await am({ ammessages: 'jan', amprop: 'default|size' });
    assert.equal(r.json.warnings.allmessages['*'], "Unrecognized value for parameter 'amprop': size");
  });
  it('cache mode: public only with amlang and without the parser', async () => {
    const cached = { maxage: 60, smaxage: 60 };
    const user = await am({ ammessages: 'jan', ...cached });
    assert.equal(user.headers.get('cache-control'), 's-maxage=60, max-age=60, public');
    assert.equal(user.headers.get('vary'), 'Accept-Encoding, Cookie');
    const pub = await am({ ammessages: 'jan', amlang: 'ru', uselang: 'uk', ...cached });
    assert.equal(pub.headers.get('cache-control'), 's-maxage=60, max-age=60, public');
    assert.equal(pub.headers.get('vary'), null);
    const parsed = await am({ ammessages: 'jan', amlang: 'ru', uselang: 'uk', amenableparser: 1, ...cached });
    assert.equal(parsed.headers.get('vary'), 'Accept-Encoding, Cookie');
  });
});

// -------------------------------------------------------------------------------------------------
// list=querypage
// -------------------------------------------------------------------------------------------------

const ANCIENT_FIRST_10 =
  '[{"value":"20090110080000","timestamp":"2009-01-10T08:00:00Z","ns":0,"title":"Прадавня легенда"},' +
  '{"value":"20090214120000","timestamp":"2009-02-14T12:00:00Z","ns":0,"title":"Стара хроніка"},' +
  '{"value":"20090301093000","timestamp":"2009-03-01T09:30:00Z","ns":0,"title":"Перший запис"},' +
  '{"value":"20090615102030","timestamp":"2009-06-15T10:20:30Z","ns":0,"title":"Кобза"},' +
  '{"value":"20090615102030","timestamp":"2009-06-15T10:20:30Z","ns":0,"title":"Сопілка"},' +
  '{"value":"20090615102030","timestamp":"2009-06-15T10:20:30Z","ns":0,"title":"Трембіта"},' +
  '{"value":"20090929064018","timestamp":"2009-09-29T06:40:18Z","ns":0,"title":"Petro Smith"},' +
  '{"value":"20091029012521","timestamp":"2009-10-29T01:25:21Z","ns":0,"title":"Єнот"},' +
  '{"value":"20091127170246","timestamp":"2009-11-27T17:02:46Z","ns":0,"title":"Південний Буг"},' +
  '{"value":"20091208023922","timestamp":"2009-12-08T02:39:22Z","ns":0,"title":"Котигорошко"}]';

describe('list=querypage&qppage=Ancientpages', () => {
  it('least recently edited non-redirect main-namespace pages first, 10 per batch, raw continuation with the warning', async () => {
    const r = await qp({ qppage: 'Ancientpages' });
    assert.equal(
      r.text,
      `{"warnings":{"query":{"*":"${RAW_WARNING}"}},"query-continue":{"querypage":{"qpoffset":10}},` +
        `"query":{"querypage":{"name":"Ancientpages","results":${ANCIENT_FIRST_10}}}}`,
    );
    // the offset is a JSON number
    assert.equal(r.json['query-continue'].querypage.qpoffset, 10);
  });
  it('rawcontinue keeps the raw form without the warning; continue= gives the new form with batchcomplete', async () => {
    const raw = await qp({ qppage: 'Ancientpages', rawcontinue: 1 });
    assert.equal(raw.text, `{"query-continue":{"querypage":{"qpoffset":10}},"query":{"querypage":{"name":"Ancientpages","results":${ANCIENT_FIRST_10}}}}`);
    const cont = await qp({ qppage: 'Ancientpages', continue: '' });
    assert.equal(cont.text, `{"batchcomplete":"","continue":{"qpoffset":10,"continue":"-||"},"query":{"querypage":{"name":"Ancientpages","results":${ANCIENT_FIRST_10}}}}`);
    const next = await qp({ qppage: 'Ancientpages', continue: '-||', qpoffset: 10, qplimit: 2 });
    assert.deepEqual(next.json.continue, { qpoffset: 12, continue: '-||' });
    const all = await qp({ qppage: 'Ancientpages', qplimit: 12 });
    assert.deepEqual(next.json.query.querypage.results, all.json.query.querypage.results.slice(10, 12));
  });
  it('every non-redirect main-namespace page once, ascending by value then title; the last batch has no continuation', async () => {
    const all = await qp({ qppage: 'Ancientpages', qplimit: 'max' });
    assert.deepEqual(all.json.limits, { querypage: 500 });
    assert.equal(all.json['query-continue'], undefined);
    const results = all.json.query.querypage.results as any[];
    const db = demoDb();
    try {
      const expected = db
        .prepare('SELECT page_title AS t, latest_timestamp AS v FROM page WHERE page_namespace = 0 AND page_is_redirect = 0')
        .all() as Array<{ t: string; v: string }>;
      expected.sort((a, b) => (a.v < b.v ? -1 : a.v > b.v ? 1 : Buffer.compare(Buffer.from(a.t), Buffer.from(b.t))));
      assert.deepEqual(results.map((x) => [x.value, x.title]), expected.map((e) => [e.v, e.t.replace(/_/g, ' ')]));
    } finally {
      db.close();
    }
    for (const x of results) {
      assert.match(x.value, /^\d{14}$/);
      assert.equal(x.timestamp, `${x.value.slice(0, 4)}-${x.value.slice(4, 6)}-${x.value.slice(6, 8)}T${x.value.slice(8, 10)}:${x.value.slice(10, 12)}:${x.value.slice(12, 14)}Z`);
      assert.deepEqual(Object.keys(x), ['value', 'timestamp', 'ns', 'title']);
    }
    const tail = await qp({ qppage: 'Ancientpages', qpoffset: results.length - 2 });
    assert.equal(tail.json['query-continue'], undefined);
    assert.equal(tail.json.warnings, undefined);
    assert.deepEqual(tail.json.query.querypage.results, results.slice(-2));
    const beyond = await qp({ qppage: 'Ancientpages', qpoffset: 100000 });
    assert.equal(beyond.text, '{"query":{"querypage":{"name":"Ancientpages","results":[]}}}');
  });
});

describe('list=querypage: other reports against the demo data', () => {
  it('BrokenRedirects lists the two redirects to missing pages, by target, with their targets as databaseResult', async () => {
    assert.equal(
      (await qp({ qppage: 'BrokenRedirects' })).text,
      '{"query":{"querypage":{"name":"BrokenRedirects","results":[' +
        '{"value":"Загублена_сторінка","ns":0,"title":"Загублена сторінка","databaseResult":{"rd_namespace":"0","rd_title":"Сторінка,_якої_немає"}},' +
        '{"value":"Старий_вокзал","ns":0,"title":"Старий вокзал","databaseResult":{"rd_namespace":"0","rd_title":"Ще_один_неіснуючий_вокзал"}}]}}}',
    );
  });
  it('DoubleRedirects lists the redirect to a redirect with both hops', async () => {
    assert.equal(
      (await qp({ qppage: 'DoubleRedirects' })).text,
      '{"query":{"querypage":{"name":"DoubleRedirects","results":[{"value":"Столиця_України","ns":0,"title":"Столиця України","databaseResult":{"nsb":"0","tb":"Місто_Київ","nsc":"0","tc":"Київ","iwc":""}}]}}}',
    );
  });
  it('Wantedfiles lists the red file links (a file without description page is not wanted, a description page without file is)', async () => {
    assert.equal(
      (await qp({ qppage: 'Wantedfiles' })).text,
      '{"query":{"querypage":{"name":"Wantedfiles","results":[{"value":"1","ns":6,"title":"Файл:Nonexistent image.jpg"},' +
        '{"value":"1","ns":6,"title":"Файл:Анімація неіснуюча.gif"},{"value":"1","ns":6,"title":"Файл:Втрачене фото.jpg"},' +
        '{"value":"1","ns":6,"title":"Файл:Неіснуюче фото Києва.jpg"},{"value":"1","ns":6,"title":"Файл:Неіснуючий файл.png"},' +
        '{"value":"1","ns":6,"title":"Файл:Пампушки неіснуючі.png"}]}}}',
    );
  });
  it('Mostlinkedtemplates counts the transclusions of every template, most used first, ties by title', async () => {
    const r = await qp({ qppage: 'Mostlinkedtemplates', qplimit: 'max' });
    const results = r.json.query.querypage.results as any[];
    const db = demoDb();
    try {
      const counts = db.prepare('SELECT tl_namespace AS ns, tl_title AS t, COUNT(DISTINCT tl_from) AS c FROM templatelinks GROUP BY 1, 2').all() as any[];
      assert.equal(results.length, counts.length);
      for (const c of counts) {
        const row = results.find((x) => x.ns === c.ns && x.title === (c.ns === 10 ? 'Шаблон:' : '') + c.t.replace(/_/g, ' '));
        assert.ok(row, c.t);
        assert.equal(row.value, String(c.c));
      }
    } finally {
      db.close();
    }
    const values = results.map((x) => Number(x.value));
    assert.deepEqual(values, [...values].sort((a, b) => b - a));
    assert.deepEqual(results.slice(0, 2), [
      { value: '68', ns: 10, title: 'Шаблон:Місто' },
      { value: '68', ns: 10, title: 'Шаблон:Прапор' },
    ]);
  });
  it('Listredirects lists every redirect page with its target and the target page id', async () => {
    const r = await qp({ qppage: 'Listredirects', qplimit: 'max' });
    const results = r.json.query.querypage.results as any[];
    const db = demoDb();
    try {
      assert.equal(results.length, (db.prepare('SELECT COUNT(*) FROM page WHERE page_is_redirect = 1').pluck().get() as number));
      const kyiv = db.prepare("SELECT page_id FROM page WHERE page_namespace = 0 AND page_title = 'Київ'").pluck().get();
      assert.deepEqual(results.find((x) => x.title === 'Kyiv'), {
        value: 'Kyiv',
        ns: 0,
        title: 'Kyiv',
        databaseResult: { rd_namespace: '0', rd_title: 'Київ', rd_fragment: '', rd_interwiki: '', redirid: String(kyiv) },
      });
    } finally {
      db.close();
    }
    const broken = results.find((x) => x.title === 'Загублена сторінка');
    assert.equal(broken.databaseResult.redirid, null);
    assert.deepEqual(results.map((x) => x.ns), [...results.map((x) => x.ns)].sort((a, b) => a - b));
  });
  it('MediaStatistics: one fake Media: title per (media type, MIME) with count and bytes, MySQL enum order', async () => {
    assert.equal(
      (await qp({ qppage: 'MediaStatistics' })).text,
      '{"query":{"querypage":{"name":"MediaStatistics","results":[{"value":"1","ns":-2,"title":"Медіа:TEXT;text/plain;1;189"},' +
        '{"value":"1","ns":-2,"title":"Медіа:OFFICE;application/pdf;1;672"},{"value":"1","ns":-2,"title":"Медіа:DRAWING;image/svg+xml;3;1011"},' +
        '{"value":"1","ns":-2,"title":"Медіа:BITMAP;image/png;46;26046"},{"value":"1","ns":-2,"title":"Медіа:BITMAP;image/gif;3;22689"}]}}}',
    );
  });
  it('Unusedimages: oldest upload first, timestamps, uploader and description as databaseResult', async () => {
    const r = await qp({ qppage: 'Unusedimages', qplimit: 2, rawcontinue: 1 });
    assert.equal(
      r.text,
      '{"query-continue":{"querypage":{"qpoffset":2}},"query":{"querypage":{"name":"Unusedimages","results":[' +
        '{"value":"20100319162423","timestamp":"2010-03-19T16:24:23Z","ns":6,"title":"Файл:Порожнє зображення.png","databaseResult":{"img_user":"1","img_user_text":"Адміністратор","img_description":"Білий квадрат 16×16."}},' +
        '{"value":"20110903144221","timestamp":"2011-09-03T14:42:21Z","ns":6,"title":"Файл:Star.svg","databaseResult":{"img_user":"6","img_user_text":"Ivan Petrenko","img_description":"Star (duplicate of Зірка.svg)."}}]}}}',
    );
  });
  it('Mostlinked has page_namespace (null for missing targets); Wantedpages lists only missing targets', async () => {
    const ml = (await qp({ qppage: 'Mostlinked', qplimit: 'max' })).json.query.querypage.results as any[];
    assert.deepEqual(ml[0], { value: '23', ns: 0, title: 'Дніпро (річка)', databaseResult: { page_namespace: '0' } });
    assert.ok(ml.every((x) => Number(x.value) > 1));
    const wanted = (await qp({ qppage: 'Wantedpages', qplimit: 'max' })).json.query.querypage.results as any[];
    assert.ok(wanted.length > 0);
    const missing = ml.filter((x) => x.databaseResult.page_namespace === null).map((x) => x.title);
    for (const t of missing) assert.ok(wanted.some((w) => w.title === t), t);
    const db = demoDb();
    try {
      const exists = db.prepare('SELECT 1 FROM page WHERE page_namespace = ? AND page_title = ?');
      for (const w of wanted) {
        const dbkey = (w.ns === 0 ? w.title : w.title.slice(w.title.indexOf(':') + 1)).replace(/ /g, '_');
        assert.equal(exists.get(w.ns, dbkey), undefined, w.title);
        assert.notEqual(w.ns, 2);
      }
    } finally {
      db.close();
    }
  });
  it('value-less reports print the DB key as value; every report name is accepted', async () => {
    const r = await qp({ qppage: 'Unusedtemplates' });
    assert.deepEqual(Object.keys(r.json.query.querypage), ['name', 'results']);
    for (const x of r.json.query.querypage.results) assert.equal(x.value, x.title.replace(/^Шаблон:/, '').replace(/ /g, '_'));
    for (const page of QUERY_PAGES) {
      if (page === 'Unwatchedpages') continue;
      const res = await qp({ qppage: page, qplimit: 1 });
      assert.equal(res.json.error, undefined, page);
      assert.ok(Array.isArray(res.json.query.querypage.results), page);
    }
  });
  it('errors: qppage missing or unknown (case-sensitive), Unwatchedpages refused to anonymous users', async () => {
    assertError(await qp({}), 'qpnopage', 'The page parameter must be set');
    assertError(await qp({ qppage: 'Nonexistent' }), 'qpunknown_qppage', "Unrecognized value for parameter 'qppage': Nonexistent");
    assertError(await qp({ qppage: 'ancientpages' }), 'qpunknown_qppage', "Unrecognized value for parameter 'qppage': ancientpages");
    assertError(await qp({ qppage: 'MIMEsearch' }), 'qpunknown_qppage', "Unrecognized value for parameter 'qppage': MIMEsearch");
    assertError(await qp({ qppage: 'Unwatchedpages' }), 'qpspecialpage-cantexecute', "You don't have permission to view the results of this special page");
    assertError(
      await get({ action: 'query', generator: 'querypage', gqppage: 'Unwatchedpages' }),
      'gqpspecialpage-cantexecute',
      "You don't have permission to view the results of this special page",
    );
    assertError(await get({ action: 'query', generator: 'querypage' }), 'gqpnopage', 'The page parameter must be set');
  });
  it('qplimit over the maximum is clamped with a warning; the cache mode is public', async () => {
    const r = await qp({ qppage: 'BrokenRedirects', qplimit: 501, maxage: 30, smaxage: 30 });
    assert.equal(r.json.warnings.querypage['*'], 'qplimit may not be over 500 (set to 501) for users');
    assert.equal(r.headers.get('cache-control'), 's-maxage=30, max-age=30, public');
  });
});

describe('generator=querypage', () => {
  it('yields the result titles; query.querypage keeps only the name', async () => {
    const r = await get({ action: 'query', generator: 'querypage', gqppage: 'BrokenRedirects' });
    const db = demoDb();
    try {
      const id = (t: string) => db.prepare('SELECT page_id FROM page WHERE page_namespace = 0 AND page_title = ?').pluck().get(t);
      const a = id('Загублена_сторінка');
      const b = id('Старий_вокзал');
      assert.deepEqual(r.json, {
        query: {
          querypage: { name: 'BrokenRedirects' },
          pages: {
            [String(a)]: { pageid: a, ns: 0, title: 'Загублена сторінка' },
            [String(b)]: { pageid: b, ns: 0, title: 'Старий вокзал' },
          },
        },
      });
    } finally {
      db.close();
    }
  });
  it('missing targets (Wantedpages) become missing pages; gqpoffset continues', async () => {
    const r = await get({ action: 'query', generator: 'querypage', gqppage: 'Wantedpages', gqplimit: 2, rawcontinue: 1 });
    assert.deepEqual(r.json['query-continue'], { querypage: { gqpoffset: 2 } });
    const pages = Object.entries(r.json.query.pages) as Array<[string, any]>;
    assert.equal(pages.length, 2);
    for (const [key, p] of pages) {
      assert.ok(Number(key) < 0);
      assert.equal(p.missing, '');
    }
    const n = await get({ action: 'query', generator: 'querypage', gqppage: 'Wantedpages', gqplimit: 2, continue: '' });
    assert.deepEqual(n.json.continue, { gqpoffset: 2, continue: 'gqpoffset||' });
  });
});

describe('continuation joins: small limits in every form equal one qplimit=max call', () => {
  type Form = 'raw' | 'rawcontinue' | 'new';
  async function walk(kind: 'list' | 'generator', page: string, limit: number | 'max', form: Form): Promise<string[]> {
    const base: Record<string, string | number> =
      kind === 'list' ? { action: 'query', list: 'querypage', qppage: page, qplimit: limit } : { action: 'query', generator: 'querypage', gqppage: page, gqplimit: limit };
    const param = kind === 'list' ? 'qpoffset' : 'gqpoffset';
    let extra: Record<string, string | number> = form === 'new' ? { continue: '' } : form === 'rawcontinue' ? { rawcontinue: 1 } : {};
    const out: string[] = [];
    for (let batch = 0; batch < 500; batch++) {
      const r = await get({ ...base, ...extra });
      assert.equal(r.json.error, undefined, JSON.stringify(r.json.error));
      if (kind === 'list') {
        const res = r.json.query.querypage.results as any[];
        assert.ok(limit === 'max' || res.length <= limit);
        out.push(...res.map((x) => JSON.stringify(x)));
      } else {
        out.push(...Object.values(r.json.query.pages ?? {}).map((p: any) => p.title as string));
      }
      if (form === 'new') {
        if (!r.json.continue) break;
        assert.equal(typeof r.json.continue[param], 'number');
        extra = { ...r.json.continue };
      } else {
        const qc = r.json['query-continue'];
        assert.equal(r.json.warnings?.query?.['*'], qc && form === 'raw' ? RAW_WARNING : undefined);
        if (!qc) break;
        assert.deepEqual(Object.keys(qc), ['querypage']);
        assert.equal(typeof qc.querypage[param], 'number');
        extra = { ...qc.querypage, ...(form === 'rawcontinue' ? { rawcontinue: 1 } : {}) };
      }
    }
    return out;
  }
  for (const kind of ['list', 'generator'] as const) {
    for (const page of ['Lonelypages', 'Wantedpages']) {
      it(`${kind} ${page}`, async () => {
        const whole = await walk(kind, page, 'max', 'raw');
        assert.ok(whole.length > 10);
        for (const form of ['raw', 'rawcontinue', 'new'] as const) {
          for (const limit of [1, 2, 3]) {
            const joined = await walk(kind, page, limit, form);
            if (kind === 'list') assert.deepEqual(joined, whole, `${form} ${limit}`);
            else assert.deepEqual([...joined].sort(), [...whole].sort(), `${form} ${limit}`);
          }
        }
      });
    }
  }
});

// -------------------------------------------------------------------------------------------------
// buildReports on a hand-made database
// -------------------------------------------------------------------------------------------------

describe('buildReports (MediaWiki 1.25 definitions)', () => {
  let db: Database.Database;
  let id = 0;
  const page = (ns: number, title: string, opts: { redirect?: boolean; len?: number; revs?: number; ts?: string } = {}) => {
    id++;
    const ts = opts.ts ?? '20150101000000';
    db.prepare(
      `INSERT INTO page (page_id, page_namespace, page_title, page_is_redirect, page_len, page_latest, page_touched, page_rev_count,
        first_rev_id, first_timestamp, latest_timestamp) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(id, ns, title, opts.redirect ? 1 : 0, opts.len ?? 100, id, ts, opts.revs ?? 1, id, ts, ts);
    return id;
  };
  const redirect = (from: number, ns: number, title: string) => db.prepare('INSERT INTO redirect (rd_from, rd_namespace, rd_title) VALUES (?, ?, ?)').run(from, ns, title);
  const link = (from: number, fromNs: number, ns: number, title: string) =>
    db.prepare('INSERT INTO pagelinks (pl_from, pl_namespace, pl_title, pl_from_namespace) VALUES (?, ?, ?, ?)').run(from, ns, title, fromNs);
  const tlink = (from: number, ns: number, title: string) =>
    db.prepare('INSERT INTO templatelinks (tl_from, tl_namespace, tl_title, tl_from_namespace) VALUES (?, ?, ?, 0)').run(from, ns, title);
  const ilink = (from: number, file: string) => db.prepare('INSERT INTO imagelinks (il_from, il_to, il_from_namespace) VALUES (?, ?, 0)').run(from, file);
  const cat = (from: number, to: string) =>
    db.prepare("INSERT INTO categorylinks (cl_from, cl_to, cl_sortkey, cl_timestamp, cl_type) VALUES (?, ?, '', '', 'page')").run(from, to);
  const image = (name: string, sha1: string, ts = '20140101000000') =>
    db
      .prepare(
        `INSERT INTO image (img_name, img_size, img_media_type, img_major_mime, img_minor_mime, img_sha1, img_sha1_hex, img_user_text, img_timestamp, img_path)
         VALUES (?, 10, 'BITMAP', 'image', 'png', ?, '', 'U', ?, '')`,
      )
      .run(name, sha1, ts);
  const rows = (type: string) =>
    (db.prepare('SELECT qc_seq, qc_value AS v, qc_namespace AS ns, qc_title AS t, qc_extra AS x FROM querycache WHERE qc_type = ? ORDER BY qc_seq').all(type) as any[]).map(
      (r) => (r.x === null ? [r.v, r.ns, r.t] : [r.v, r.ns, r.t, JSON.parse(r.x)]),
    );

  before(() => {
    db = new Database(':memory:');
    db.exec(SCHEMA);
    const a = page(0, 'A', { len: 50, revs: 3, ts: '20150102000000' });
    const b = page(0, 'B', { len: 50, revs: 1, ts: '20150102000000' });
    const c = page(0, 'C', { len: 70, revs: 2, ts: '20140101000000' });
    const r1 = page(0, 'R1', { redirect: true, revs: 5 });
    redirect(r1, 0, 'Nowhere');
    const r2 = page(0, 'R2', { redirect: true });
    redirect(r2, 0, 'R1');
    const rs = page(0, 'RS', { redirect: true });
    redirect(rs, -1, 'Спеціальна');
    const mw = page(8, 'Msg');
    const user = page(2, 'Someone');
    const t1 = page(10, 'T1');
    page(10, 'Unused');
    const fileRedirect = page(6, 'Old.png', { redirect: true });
    redirect(fileRedirect, 6, 'New.png');
    page(6, 'Lost.png');
    page(14, 'Empty');
    // links: A → B, C; B → A; R1 (redirect) → Nowhere; R2 → R1; Msg → Ghost; A → Ghost2 twice? (PK: once); A, B → User:X
    link(a, 0, 0, 'B');
    link(a, 0, 0, 'C');
    link(b, 0, 0, 'A');
    link(r1, 0, 0, 'Nowhere');
    link(r2, 0, 0, 'R1');
    link(mw, 8, 0, 'Ghost');
    link(a, 0, 0, 'Ghost2');
    link(c, 0, 0, 'Ghost2');
    link(a, 0, 2, 'X');
    link(user, 2, 0, 'Ghost3');
    tlink(a, 10, 'T1');
    tlink(b, 10, 'T1');
    tlink(t1, 10, 'Missing');
    image('New.png', 's1');
    image('Copy.png', 's1', '20130101000000');
    image('Solo.png', 's2', '20120101000000');
    ilink(a, 'New.png');
    ilink(b, 'New.png');
    ilink(a, 'Old.png'); // redirect to an existing file: not wanted
    ilink(a, 'Lost.png'); // description page without file: wanted
    ilink(c, 'Gone.png');
    cat(a, 'K1');
    cat(a, 'K2');
    cat(b, 'K1');
    db.prepare("INSERT INTO category (cat_title, cat_pages) VALUES ('K1', 2), ('K2', 1)").run();
    buildReports(db);
  });
  after(() => db?.close());

  it('writes every report of REPORT_QUERIES and its querycache_info row', () => {
    const types = (db.prepare('SELECT qci_type FROM querycache_info ORDER BY qci_type').pluck().all() as string[]).sort();
    assert.deepEqual(types, REPORT_QUERIES.map((q) => q.name).sort());
    assert.ok(!types.includes('Unwatchedpages'));
    for (const q of REPORT_QUERIES) {
      const seqs = db.prepare('SELECT qc_seq FROM querycache WHERE qc_type = ? ORDER BY qc_seq').pluck().all(q.name) as number[];
      assert.deepEqual(seqs, seqs.map((_, i) => i), q.name);
    }
  });
  it('Ancientpages: content pages without redirects, oldest first, ties by title', () => {
    assert.deepEqual(rows('Ancientpages'), [
      ['20140101000000', 0, 'C'],
      ['20150102000000', 0, 'A'],
      ['20150102000000', 0, 'B'],
    ]);
  });
  it('BrokenRedirects: targets without a page (a file without description page too), not in negative namespaces; DoubleRedirects', () => {
    assert.deepEqual(rows('BrokenRedirects'), [
      ['R1', 0, 'R1', { rd_namespace: '0', rd_title: 'Nowhere' }],
      ['Old.png', 6, 'Old.png', { rd_namespace: '6', rd_title: 'New.png' }],
    ]);
    assert.deepEqual(rows('DoubleRedirects'), [['R2', 0, 'R2', { nsb: '0', tb: 'R1', nsc: '0', tc: 'Nowhere', iwc: '' }]]);
  });
  it('Wantedpages: no user namespaces, no links from MediaWiki: pages, not only from redirects', () => {
    // Ghost (only from MediaWiki:), Nowhere (only from a redirect), Користувач:X (user namespace) are not listed;
    // Ghost3 is linked from a user page, which counts
    assert.deepEqual(rows('Wantedpages'), [
      ['2', 0, 'Ghost2'],
      ['1', 0, 'Ghost3'],
    ]);
  });
  it('Wantedfiles: no file of that name and not a redirect to an existing file', () => {
    assert.deepEqual(rows('Wantedfiles'), [
      ['1', 6, 'Gone.png'],
      ['1', 6, 'Lost.png'],
    ]);
  });
  it('Wantedtemplates, Mostlinkedtemplates, Unusedtemplates', () => {
    assert.deepEqual(rows('Wantedtemplates'), [['1', 10, 'Missing']]);
    assert.deepEqual(rows('Mostlinkedtemplates'), [
      ['2', 10, 'T1'],
      ['1', 10, 'Missing'],
    ]);
    assert.deepEqual(rows('Unusedtemplates'), [['Unused', 10, 'Unused']]);
  });
  it('Fewestrevisions and Mostrevisions list only pages with more than one revision, redirects included', () => {
    assert.deepEqual(rows('Fewestrevisions'), [
      ['2', 0, 'C', { redirect: '0' }],
      ['3', 0, 'A', { redirect: '0' }],
      ['5', 0, 'R1', { redirect: '1' }],
    ]);
    assert.deepEqual(rows('Mostrevisions').map((r) => r[2]), ['R1', 'A', 'C']);
  });
  it('Lonelypages: neither linked nor transcluded; Deadendpages: no outgoing links', () => {
    assert.deepEqual(rows('Lonelypages'), []);
    assert.deepEqual(rows('Deadendpages'), []);
  });
  it('files: ListDuplicatedFiles, Mostimages, Unusedimages, Uncategorizedimages', () => {
    assert.deepEqual(rows('ListDuplicatedFiles'), [['2', 6, 'Copy.png']]);
    assert.deepEqual(rows('Mostimages'), [['2', 6, 'New.png']]);
    assert.deepEqual(rows('Unusedimages').map((r) => r.slice(0, 3)), [
      ['20120101000000', 6, 'Solo.png'],
      ['20130101000000', 6, 'Copy.png'],
    ]);
    assert.deepEqual(rows('Uncategorizedimages'), [['Lost.png', 6, 'Lost.png']]);
  });
  it('categories: Mostcategories (more than one), Mostlinkedcategories, Wantedcategories, Unusedcategories, Uncategorizedpages', () => {
    assert.deepEqual(rows('Mostcategories'), [['2', 0, 'A']]);
    assert.deepEqual(rows('Mostlinkedcategories'), [
      ['2', 14, 'K1'],
      ['1', 14, 'K2'],
    ]);
    assert.deepEqual(rows('Wantedcategories'), [
      ['2', 14, 'K1'],
      ['1', 14, 'K2'],
    ]);
    assert.deepEqual(rows('Unusedcategories'), [['Empty', 14, 'Empty']]);
    assert.deepEqual(rows('Uncategorizedpages'), [['C', 0, 'C']]);
  });
  it('Longpages / Shortpages order by length, ties by page id (descending for Longpages: the page_len index read backwards)', () => {
    assert.deepEqual(rows('Longpages').map((r) => r[2]), ['C', 'B', 'A']);
    assert.deepEqual(rows('Shortpages').map((r) => r[2]), ['A', 'B', 'C']);
  });
  it('maxRows caps every report (top rows in final order) and replaces earlier rows', () => {
    buildReports(db, { maxRows: 2 });
    assert.deepEqual(rows('Ancientpages').map((r) => r[2]), ['C', 'A']);
    assert.deepEqual(rows('Longpages').map((r) => r[2]), ['C', 'B']);
    assert.deepEqual(rows('Fewestrevisions').map((r) => r[2]), ['C', 'A']);
    buildReports(db);
    assert.equal(rows('Ancientpages').length, 3);
  });
});

// -------------------------------------------------------------------------------------------------
// The import's reports thread: the same rows as buildReports on the finished tables
// -------------------------------------------------------------------------------------------------

describe('the reports computed on their own thread during the import', () => {
  let tmp: string;
  before(() => {
    tmp = fs.mkdtempSync(join(os.tmpdir(), 'wikiquery-reports-thread-'));
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  /** querycache as the import left it, then as buildReports (the serial path) makes it on a copy */
  function assertSerialSame(file: string): void {
    const copy = join(tmp, 'copy.sqlite');
    fs.copyFileSync(file, copy);
    const db = new Database(copy);
    try {
      const snapshot = () => ({
        rows: db.prepare('SELECT * FROM querycache ORDER BY qc_type, qc_seq').all(),
        types: db.prepare('SELECT qci_type FROM querycache_info ORDER BY qci_type').pluck().all(),
      });
      const threaded = snapshot();
      buildReports(db);
      const serial = snapshot();
      assert.ok(threaded.rows.length > 100, `${threaded.rows.length} rows`);
      assert.deepEqual(threaded.types, REPORT_QUERIES.map((q) => q.name).sort());
      assert.deepEqual(threaded, serial);
    } finally {
      db.close();
      fs.rmSync(copy);
    }
  }

  it("the demo (inline queries: the hooks' own tables are finished before the link indexes) has the serial rows", () => {
    assertSerialSame(join(s.dir, 'demo.sqlite'));
  });

  it("without inline query links the hooks' own tables are finished while the thread runs; same rows, no side file left", async () => {
    const file = join(tmp, 'no-inline.sqlite');
    const lines: string[] = [];
    await importWiki({
      dump: join(s.dir, 'demo', 'dump.xml'),
      db: file,
      filesDir: join(s.dir, 'demo', 'files'),
      lang: 'uk',
      hooks: importHooks(),
      progress: false,
      log: (l) => lines.push(l),
    });
    const at = (re: RegExp) => lines.findIndex((l) => re.test(l));
    // the semantic hook's value subjects and indexes between the thread's start and its join
    assert.ok(at(/^link indexes, categories/) >= 0 && at(/^link indexes, categories/) < at(/^semantic: tables finished/), lines.join('\n'));
    assert.ok(at(/^semantic: tables finished/) < at(/^reports: \d+ rows/), lines.join('\n'));
    assert.deepEqual(fs.readdirSync(tmp).filter((n) => n !== 'no-inline.sqlite'), []);
    assertSerialSame(file);
  });

  it('the tables the main connection leaves alone meanwhile are those the reports read', () => {
    assert.deepEqual([...REPORT_SOURCE_TABLES].sort(), ['category', 'categorylinks', 'image', 'imagelinks', 'langlinks', 'page', 'pagelinks', 'redirect', 'templatelinks']);
  });
});

// -------------------------------------------------------------------------------------------------
// The message logic on an in-memory catalog
// -------------------------------------------------------------------------------------------------

describe('Messages (MessageCache::get, Message::plain/text of 1.25)', () => {
  const catalogs: Record<string, Record<string, string>> = {
    en: { a: 'A en', b: 'B en', t: 'T en', only_en: 'E', nbsp: 'x&nbsp;y&#32;', loop: '{{int:loop}}', pl: '{{PLURAL:$1|one|other}}', arg: '[$1|{{{1}}}|{{{k|-}}}]' },
    ru: { a: 'A ru', c: 'C ru', t: 'T ru' },
    uk: { a: 'A uk', t: 'T uk' },
  };
  const overrides: Record<string, Record<string, string>> = {
    uk: { a: 'A local', d: 'D local', 'parser-template-loop-warning': 'Петля: [[$1]]', tpl: 'x {{Шаблон|x|1=v|y}} {{Шаблон|3= z }} {{Нема}} {{{1|def}}} {{{2}}}' },
    ru: { c: 'C local ru', t: 'T local ru' },
    en: { b: 'B local en' },
  };
  const templates: Record<string, string> = {
    '10:Шаблон': '<noinclude>doc </noinclude>[{{{1}}}|{{{2}}}|{{{3|d3}}}]<includeonly>!</includeonly>',
    '10:Петля': 'x{{Петля}}',
  };
  const env: ParserEnv = {
    codec: TitleCodec.forSite('Вікі'),
    siteName: 'Вікі',
    contentLang: 'uk',
    fetchTemplate: (ns, dbkey) => templates[`${ns}:${dbkey}`] ?? null,
  };
  const m = new Messages(
    { catalogText: (l, k) => catalogs[l]?.[k], overrideText: (l, k) => overrides[l]?.[k] },
    env,
  );
  const title = { ns: 0, dbkey: 'API' };
  const text = (key: string, args: string[], code: string, t: typeof title) => messageText(m, key, args, code, t);
  const transform = (s: string, code: string, t: typeof title) => transformMessage(m, s, code, t);

  it('the fallback chain of 1.25: own override, merged catalog, fallbacks\' overrides, site language', () => {
    assert.equal(m.get('a', true, 'uk'), 'A local');
    assert.equal(m.get('a', false, 'uk'), 'A uk');
    assert.equal(m.get('c', true, 'uk'), 'C ru'); // the merged uk catalog wins over MediaWiki:C/ru
    assert.equal(m.get('d', true, 'ru'), 'D local'); // site language's page
    assert.equal(m.get('b', true, 'uk'), 'B en');
    assert.equal(m.get('b', true, 'en'), 'B local en');
    assert.equal(m.get('only_en', true, 'de'), 'E');
    assert.equal(m.get('t', true, 'de'), 'T en'); // de's catalog (via en) before the site language
    assert.equal(m.get('t', true, 'Bad_Code'), 'T en');
    assert.equal(m.get('A', true, 'uk'), 'A local'); // first letter case-insensitive
    assert.equal(m.get('a/ru', true, 'uk'), 'A ru'); // "key/lang" as a last resort
    assert.equal(m.get('', true, 'uk'), false);
    assert.equal(m.get('nothing', true, 'uk'), false);
    assert.equal(m.get('nbsp', true, 'uk'), 'x\u00a0y ');
  });
  it('plain(): $N by PHP strtr, $* list; missing messages as <key>', () => {
    assert.equal(replaceParameters('$1 $2 $10 $01 $3', ['a', 'b']), 'a b a0 $01 $3');
    assert.equal(replaceParameters('$10 $1', Array.from({ length: 10 }, (_, i) => `p${i + 1}`)), 'p10 p1');
    assert.equal(m.plain('nothing<', [], 'uk'), '<nothing&lt;>');
    assert.equal(text('nothing', [], 'uk', title), '&lt;nothing&gt;');
  });
  it('text(): templates with arguments (a later one of the same name wins, as PPFrame::newChild unsets), <noinclude>/<includeonly>, missing templates, {{{…}}} of the message', () => {
    assert.equal(text('tpl', [], 'uk', title), 'x [v|y|d3]! [{{{1}}}|{{{2}}}|z]! [[:Шаблон:Нема]] def {{{2}}}');
  });
  it('{{int:key|…}}: $N from its arguments, and its text expanded in a frame holding them', () => {
    assert.equal(transform('{{int:arg|x|k=y}} {{int:pl|2}} {{int:nothing}}', 'en', title), '[x|x|y] other <nothing>');
  });
  it('a template loop shows the content language\'s parser-template-loop-warning', () => {
    assert.equal(transform('{{Петля}}', 'en', title), 'x<span class="error">Петля: [[Шаблон:Петля]]</span>');
  });
  it('text(): the expansion depth limit stops a message that includes itself', () => {
    assert.match(text('loop', [], 'en', title), /Expansion depth limit exceeded/);
  });
  it('preprocessor: pipes inside [[…]] do not split arguments, unbalanced braces stay text, comments vanish', () => {
    assert.equal(transform('{{PLURAL:2|[[a|b]]|c}}', 'en', title), 'c');
    assert.equal(transform('{{PLURAL:1|[[a|b]]|c}}', 'en', title), '[[a|b]]');
    assert.equal(transform('{{{{PLURAL:1|x|y}}', 'en', title), '{{x');
    assert.equal(transform('a<!-- c -->{{lc:ABC}}<nowiki>{{uc:x}}</nowiki>', 'en', title), 'aabc<nowiki>{{uc:x}}</nowiki>');
    assert.equal(transform('{{ucfirst:їжак}} {{formatnum:1234567.5}} {{formatnum:1234}} {{ns:6}} {{ns:Category}} {{SITENAME}} {{!}}', 'uk', title), 'Їжак 1\u00a0234\u00a0567,5 1234 Файл Категорія Вікі |');
    assert.equal(transform('{{formatnum:1234567.5}} {{GRAMMAR:genitive|Вікіпедія}} {{PAGENAME}}', 'en', title), '1,234,567.5 Вікіпедія API');
    assert.equal(transform('{{GRAMMAR:genitive|Вікіпедія}} {{GRAMMAR:accusative|Вікіпедія}} {{ВНУТР:a}} {{МНОЖИНА:5|x|y|z}}', 'uk', title), 'Вікіпедії Вікіпедію A local z');
    assert.equal(transform('{{padleft:7|3}} {{padright:ab|5|xy}} {{GENDER:|a}} {{GENDER:x}}', 'uk', title), '007 abxyx a ');
    assert.equal(transform('{{PLURAL:1|b=c|d}}', 'en', title), 'b=c');
  });
  it('convertPlural of 1.25: CLDR uk/ru rules, no two-form special case, explicit forms as PHP finds them', () => {
    assert.equal(convertPlural(21, ['a', 'b'], 'uk'), 'a');
    assert.equal(convertPlural(5, ['a', 'b'], 'uk'), 'b');
    assert.equal(convertPlural(12, ['one', 'few', 'many', 'other', '12=dozen'], 'uk'), 'dozen');
    assert.equal(convertPlural(91, ['1=one', 'other'], 'uk'), 'other');
    assert.equal(convertPlural(1.5, ['one', 'few', 'many', 'other'], 'uk'), 'other');
    assert.equal(convertPlural(1, ['01=x', 'y'], 'en'), 'y');
    assert.equal(convertPlural(0, [], 'uk'), '');
  });
  it('language codes: Language::isValidCode and isValidBuiltInCode; the user language', () => {
    for (const ok of ['uk', 'en', 'de-formal', 'Bad_Code', '']) assert.ok(isValidCodeMw(ok), ok);
    for (const bad of ['a:b', 'a/b', 'a\\b', 'a&b', 'a<b', "a'b", 'a"b', 'a#b', 'a[b', 'a{b', 'a|b', 'a%2Fb', 'a\nb']) assert.ok(!isValidCodeMw(bad), bad);
    assert.ok(isValidBuiltInCode('uk') && isValidBuiltInCode('be-tarask') && !isValidBuiltInCode('x') && !isValidBuiltInCode('Uk'));
    assert.equal(userLanguage(undefined, 'uk'), 'uk');
    assert.equal(userLanguage('content', 'uk'), 'uk');
    assert.equal(userLanguage('RU', 'uk'), 'ru');
    assert.equal(userLanguage('0', 'uk'), 'uk');
    assert.equal(userLanguage('qqq', 'uk'), 'uk');
  });
  it('prefix ranges: the exclusive upper bound of a key prefix', () => {
    assert.equal(prefixUpperBound('demo-'), 'demo.');
    assert.equal(prefixUpperBound('ab\u{10FFFF}'), 'ac');
    assert.equal(prefixUpperBound('\u{10FFFF}'), undefined);
    assert.equal(prefixUpperBound('a\uD7FF'), 'a\uE000');
    // each kind of last character against the code-point form of the bound
    const slow = (p: string) => {
      const cps = [...p].map((c) => c.codePointAt(0)!);
      while (cps.length) {
        const last = cps.pop()!;
        if (last < 0x10ffff) return String.fromCodePoint(...cps, last + 1 === 0xd800 ? 0xe000 : last + 1);
      }
      return undefined;
    };
    for (const p of ['', 'a', 'Я', 'x\uD7FE', 'x\uD7FF', 'x\uE000', 'x\uFFFE', 'x\uFFFF', 'x😀', 'x\u{10FFFF}', 'демо-', 'a\uDBFF', 'a\uDC00', '\uFFFF']) {
      assert.equal(prefixUpperBound(p), slow(p), JSON.stringify(p));
    }
  });
});

describe('store query plans', () => {
  it('message key ranges and report pages are index range scans', async () => {
    const db = new Db(join(s.dir, 'demo.sqlite'), { debug: true });
    try {
      const messages = new SqliteMessageStore(db);
      const reports = new SqliteReportStore(db);
      const log: QueryLogEntry[] = [];
      await queryLog.run(log, async () => {
        assert.deepEqual((await messages.keys(['uk'], null, { min: 'demo-', below: 'demo.' })).sort().slice(0, 2), ['demo-apostrophe', 'demo-back-to-main']);
        await messages.keys(['uk', 'ru', 'en'], null, { min: 'demo-f', below: 'demo.', max: 'demo-g' });
        await messages.keys(['uk'], 'uk', { min: 'demo-', below: 'demo.' });
        const texts = await messages.texts(['uk', 'ru'], ['august', 'july']);
        assert.ok(texts.some((t) => t.source === 'override' && t.lang === 'uk' && t.key === 'august'));
        assert.equal((await reports.rows('Ancientpages', 10, 3)).length, 3);
        assert.match((await reports.computedAt('Ancientpages')) ?? '', /^\d{14}$/);
      });
      for (const sql of new Set(log.map((e) => e.sql))) {
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]))];
        const args = names.length ? [Object.fromEntries(names.map((n) => [n, n === 'langs' ? '["uk"]' : 'x']))] : (sql.match(/\?/g) ?? []).map(() => '["x"]');
        const plan = (db.raw.prepare('EXPLAIN QUERY PLAN ' + sql).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
        for (const step of plan) {
          // batches are read through json_each (a scan of the batch, then a seek per element); UNIONs merge
          if (/^SCAN (\w+ )?VIRTUAL TABLE INDEX/.test(step) || /^(COMPOUND QUERY|LEFT-MOST SUBQUERY|UNION (ALL )?USING TEMP B-TREE|UNION ALL)$/.test(step)) continue;
          // rows read as one JSON text (StatementCache.jsonRows): the statement inside feeds the aggregate
          if (/^(CO-ROUTINE|SCAN) \(subquery-\d+\)$/.test(step)) continue;
          assert.match(step, /^SEARCH \w+ USING (COVERING INDEX \w+|PRIMARY KEY) \(/, `${step}\n  in ${sql}`);
        }
        if (/msg_key >= @min AND msg_key < @below/.test(sql)) assert.ok(plan.some((p) => /msg_key>\? AND msg_key<\?/.test(p)), plan.join(' / '));
        if (/qc_seq >= \?/.test(sql)) assert.ok(plan.some((p) => /qc_type=\? AND qc_seq>\?/.test(p)), plan.join(' / '));
      }
    } finally {
      db.close();
    }
  });
});
