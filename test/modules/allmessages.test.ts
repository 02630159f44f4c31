/**
 * meta=allmessages over HTTP on the demo wiki: the amprefix request as exact JSON, every parameter, the
 * errors, all three continuation forms and continuation joins; then the message logic on an in-memory
 * catalog, and the query plans of the message and report store methods.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { demoServerForFile, assertApiError } from '../helpers/demo-server.js';
import { Db } from '../../src/store/sqlite/db.js';
import { queryLog, type QueryLogEntry } from '../../src/store/query-log.js';
import { SqliteMessageStore } from '../../src/store/sqlite/messages.js';
import { SqliteReportStore } from '../../src/store/sqlite/reports.js';
import { Messages, replaceParameters, userLanguage, type ParserEnv } from '../../src/wiki/messages.js';
import { messageText, transformMessage } from '../../src/wikitext/message-transform.js';
import { convertPlural, isValidBuiltInCode, isValidCodeMw } from '../../src/wiki/language.js';
import { TitleCodec } from '../../src/wiki/titles.js';
import { prefixUpperBound } from '../../src/modules/query/allmessages.js';

const s = demoServerForFile();

/** GET with raw UTF-8 output (utf8=1) so that expected texts are readable. */
const get = (params: Record<string, string | number | boolean>) => s.get({ utf8: 1, ...params });
const am = (params: Record<string, string | number | boolean>) => get({ action: 'query', meta: 'allmessages', ...params });

const assertError = (r: { json: any; headers: Headers }, code: string, info: string) => assertApiError(s, r, code, info);

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
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"demo-footer","*":"\\u0414\\u0435\\u043c\\u043e\\u0432\\u0456\\u043a\\u0456, $1"}]}}',
    );
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
    assert.deepEqual(
      names,
      [...names].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))),
    );
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
    assert.equal(
      r.text,
      '{"query":{"allmessages":[{"name":"august","customised":"","default":"серпень"},{"name":"sunday","customised":"","default":"неділя"}]}}',
    );
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
    assert.equal(
      en.text,
      '{"query":{"allmessages":[{"name":"demo-local-only","*":"Це повідомлення існує лише як сторінка MediaWiki: у Демовікі."}]}}',
    );
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
    const names = async (p: Record<string, string>) =>
      (await am({ amprefix: 'demo-', ...p })).json.query.allmessages.map((m: any) => m.name);
    assert.deepEqual(await names({ amfrom: 'demo-empty', amto: 'demo-footer' }), ['demo-empty', 'demo-files', 'demo-footer']);
    assert.deepEqual(await names({ amfrom: 'demo-e' }), []);
    assert.deepEqual(await names({ amto: 'demo-e' }), ['demo-apostrophe', 'demo-back-to-main', 'demo-date']);
    assert.deepEqual(await names({ amfrom: 'demo-welcome' }), ['demo-welcome']);
    // amfrom outside the prefix: not in the list, so nothing
    assert.deepEqual(await names({ amfrom: 'august' }), []);
    // on an explicit list the output starts at the first occurrence and stops at the first greater name
    const r = await am({ ammessages: 'sunday|august|april|zzz|may', amfrom: 'august', amto: 'sunday' });
    assert.deepEqual(
      r.json.query.allmessages.map((m: any) => m.name),
      ['august', 'april'],
    );
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
      [
        '1 файл',
        '2 файли',
        '4 файли',
        '5 файлів',
        '11 файлів',
        '12 файлів',
        '14 файлів',
        '21 файл',
        '22 файли',
        '25 файлів',
        '101 файл',
        '111 файлів',
        '0 файлів',
        '1,5 файлів',
        'abc файлів',
      ],
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
    assert.equal(
      ru.text,
      '{"query":{"allmessages":[{"name":"demo-welcome","*":"он присоединился к Демовики 2015."},{"name":"demo-back-to-main","*":"Вернуться на [[Заглавная страница]]."}]}}',
    );
    const en = await am({ ammessages: 'demo-welcome|demo-back-to-main', amenableparser: 1, amargs: 'Olena|2015', amlang: 'en' });
    assert.equal(
      en.text,
      '{"query":{"allmessages":[{"name":"demo-welcome","*":"He joined Demowiki on 2015. Welcome, Olena!"},{"name":"demo-back-to-main","*":"Return to [[Front page]]."}]}}',
    );
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
    assert.equal(
      (await am({ ammessages: 'jan', amenableparser: 1, amtitle: 'Київ' })).text,
      '{"query":{"allmessages":[{"name":"jan","*":"січ."}]}}',
    );
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
// The message logic on an in-memory catalog
// -------------------------------------------------------------------------------------------------

describe('Messages (MessageCache::get, Message::plain/text of 1.25)', () => {
  const catalogs: Record<string, Record<string, string>> = {
    en: {
      a: 'A en',
      b: 'B en',
      t: 'T en',
      only_en: 'E',
      nbsp: 'x&nbsp;y&#32;',
      loop: '{{int:loop}}',
      pl: '{{PLURAL:$1|one|other}}',
      arg: '[$1|{{{1}}}|{{{k|-}}}]',
    },
    ru: { a: 'A ru', c: 'C ru', t: 'T ru' },
    uk: { a: 'A uk', t: 'T uk' },
  };
  const overrides: Record<string, Record<string, string>> = {
    uk: {
      a: 'A local',
      d: 'D local',
      'parser-template-loop-warning': 'Петля: [[$1]]',
      tpl: 'x {{Шаблон|x|1=v|y}} {{Шаблон|3= z }} {{Нема}} {{{1|def}}} {{{2}}}',
    },
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
  const m = new Messages({ catalogText: (l, k) => catalogs[l]?.[k], overrideText: (l, k) => overrides[l]?.[k] }, env);
  const title = { ns: 0, dbkey: 'API' };
  const text = (key: string, args: string[], code: string, t: typeof title) => messageText(m, key, args, code, t);
  const transform = (s: string, code: string, t: typeof title) => transformMessage(m, s, code, t);

  it("the fallback chain of 1.25: own override, merged catalog, fallbacks' overrides, site language", () => {
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
    assert.equal(
      replaceParameters(
        '$10 $1',
        Array.from({ length: 10 }, (_, i) => `p${i + 1}`),
      ),
      'p10 p1',
    );
    assert.equal(m.plain('nothing<', [], 'uk'), '<nothing&lt;>');
    assert.equal(text('nothing', [], 'uk', title), '&lt;nothing&gt;');
  });
  it('text(): templates with arguments (a later one of the same name wins, as PPFrame::newChild unsets), <noinclude>/<includeonly>, missing templates, {{{…}}} of the message', () => {
    assert.equal(text('tpl', [], 'uk', title), 'x [v|y|d3]! [{{{1}}}|{{{2}}}|z]! [[:Шаблон:Нема]] def {{{2}}}');
  });
  it('{{int:key|…}}: $N from its arguments, and its text expanded in a frame holding them', () => {
    assert.equal(transform('{{int:arg|x|k=y}} {{int:pl|2}} {{int:nothing}}', 'en', title), '[x|x|y] other <nothing>');
  });
  it("a template loop shows the content language's parser-template-loop-warning", () => {
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
    assert.equal(
      transform('{{ucfirst:їжак}} {{formatnum:1234567.5}} {{formatnum:1234}} {{ns:6}} {{ns:Category}} {{SITENAME}} {{!}}', 'uk', title),
      'Їжак 1\u00a0234\u00a0567,5 1234 Файл Категорія Вікі |',
    );
    assert.equal(
      transform('{{formatnum:1234567.5}} {{GRAMMAR:genitive|Вікіпедія}} {{PAGENAME}}', 'en', title),
      '1,234,567.5 Вікіпедія API',
    );
    assert.equal(
      transform('{{GRAMMAR:genitive|Вікіпедія}} {{GRAMMAR:accusative|Вікіпедія}} {{ВНУТР:a}} {{МНОЖИНА:5|x|y|z}}', 'uk', title),
      'Вікіпедії Вікіпедію A local z',
    );
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
    for (const bad of ['a:b', 'a/b', 'a\\b', 'a&b', 'a<b', "a'b", 'a"b', 'a#b', 'a[b', 'a{b', 'a|b', 'a%2Fb', 'a\nb'])
      assert.ok(!isValidCodeMw(bad), bad);
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
    for (const p of [
      '',
      'a',
      'Я',
      'x\uD7FE',
      'x\uD7FF',
      'x\uE000',
      'x\uFFFE',
      'x\uFFFF',
      'x😀',
      'x\u{10FFFF}',
      'демо-',
      'a\uDBFF',
      'a\uDC00',
      '\uFFFF',
    ]) {
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
        assert.deepEqual((await messages.keys(['uk'], null, { min: 'demo-', below: 'demo.' })).sort().slice(0, 2), [
          'demo-apostrophe',
          'demo-back-to-main',
        ]);
        await messages.keys(['uk', 'ru', 'en'], null, { min: 'demo-f', below: 'demo.', max: 'demo-g' });
        await messages.keys(['uk'], 'uk', { min: 'demo-', below: 'demo.' });
        const texts = await messages.texts(['uk', 'ru'], ['august', 'july']);
        assert.ok(texts.some((t) => t.source === 'override' && t.lang === 'uk' && t.key === 'august'));
        assert.equal((await reports.rows('Ancientpages', 10, 3)).length, 3);
        assert.match((await reports.computedAt('Ancientpages')) ?? '', /^\d{14}$/);
      });
      for (const sql of new Set(log.map((e) => e.sql))) {
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]))];
        const args = names.length
          ? [Object.fromEntries(names.map((n) => [n, n === 'langs' ? '["uk"]' : 'x']))]
          : (sql.match(/\?/g) ?? []).map(() => '["x"]');
        const plan = (db.raw.prepare('EXPLAIN QUERY PLAN ' + sql).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
        for (const step of plan) {
          // batches are read through json_each (a scan of the batch, then a seek per element); UNIONs merge
          if (
            /^SCAN (\w+ )?VIRTUAL TABLE INDEX/.test(step) ||
            /^(COMPOUND QUERY|LEFT-MOST SUBQUERY|UNION (ALL )?USING TEMP B-TREE|UNION ALL)$/.test(step)
          )
            continue;
          // rows read as one JSON text (StatementCache.jsonRows): the statement inside feeds the aggregate
          if (/^(CO-ROUTINE|SCAN) \(subquery-\d+\)$/.test(step)) continue;
          assert.match(step, /^SEARCH \w+ USING (COVERING INDEX \w+|PRIMARY KEY) \(/, `${step}\n  in ${sql}`);
        }
        if (/msg_key >= @min AND msg_key < @below/.test(sql))
          assert.ok(
            plan.some((p) => /msg_key>\? AND msg_key<\?/.test(p)),
            plan.join(' / '),
          );
        if (/qc_seq >= \?/.test(sql))
          assert.ok(
            plan.some((p) => /qc_type=\? AND qc_seq>\?/.test(p)),
            plan.join(' / '),
          );
      }
    } finally {
      db.close();
    }
  });
});
