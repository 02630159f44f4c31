/**
 * The importer's public output: the rows of the database it builds from a small inline dump (Ukrainian
 * titles, redirects, categories with sort keys, files, messages, MediaWiki: overrides); the
 * line-numbered error of a malformed dump; and the atomic replace (an existing database survives a
 * failed or interrupted import).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import Database from 'better-sqlite3';
import { importWiki, type ImportSummary } from '../../src/importer/import.js';
import { SCHEMA, SCHEMA_VERSION } from '../../src/store/sqlite/schema.js';
import { TitleCodec } from '../../src/wiki/titles.js';
import { InterwikiMap } from '../../src/wiki/interwiki.js';
import { redirectTarget } from '../../src/wikitext/redirect.js';
import { openStore } from '../../src/store/open.js';
import { createServer } from '../../src/http/server.js';
import type { PageAnalysis, PageAnalysisHook } from '../../src/importer/hooks.js';
import { semanticImportHook } from '../../src/importer/semantic-hook.js';
import { generateBig } from '../../scripts/generate-big.js';
import { dumpXml, page, pageIds } from '../helpers/dump-pages.js';

// the import command runs on its own too (`wikiquery import` is the same function behind main.js)
const CLI = path.resolve(import.meta.dirname, '../../src/cli/import-command.js');
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="80"><rect width="120" height="80"/></svg>\n';

const KYIV_TEXT = `'''Київ''' — столиця на [[Дніпро (річка)|Дніпрі]] і на [[дніпро_(річка)]] ще раз.
Посилання на себе: [[Київ]], на розділ: [[Київ#Історія]], [[Київ (значення)]].
{{Картка міста|назва=Київ}} {{:Головна}} {{PAGENAME}} {{#if:x|y}}
[[Файл:Прапор.png|thumb|Прапор з [[Україна|України]]]] [[Image:Немає.jpg]] [[Медіа:Звук.ogg]]
[[:Категорія:Міста]] [[:Файл:Герб.png]] [[Має населення::2900000]] [[en:Kyiv]] [[pl:Kijów]] [[wikipedia:Kyiv]]
[[:en:Kyiv city#x]] [[w:Kyiv]] [http://Example.ORG/a%7Eb?x=1 сайт] (http://example.com/path). [//proto.example/x]
[[Файл:Герб.png|посилання=Одеса]] [[Файл:Прапор.png|link=https://flag.example/]] [[Файл:Прапор.png|link=]]
<!-- [[Закоментоване]] --> <nowiki>[[Не посилання]]</nowiki> [[Категорія:Міста|Київ]] [[Category:Столиці]]
[[категорія:Міста України| ]]
<gallery>
Файл:Герб.png|Герб
Прапор.png|Прапор і [[Львів]]
</gallery>`;

let dir: string;
let dbFile: string;
let db: Database.Database;
let summary: ImportSummary;
const hookPages: PageAnalysis[] = [];
const hookCalls: string[] = [];
let expandedKyiv = '';

function setupWiki(): void {
  pageIds.next = 1;
  const pages = [
    page('Київ', 0, [
      { id: 11, ts: '2014-05-01T10:00:00Z', user: 'Олена', userId: 7, comment: 'створено', text: 'Київ — місто.' },
      { id: 12, ts: '2015-06-02T12:30:45Z', ip: '192.0.2.1', comment: 'доповнено', text: KYIV_TEXT },
    ]),
    page('Дніпро (річка)', 0, 'Річка. {{DEFAULTSORT:Дніпро}}\n[[Категорія:Річки]] [[Категорія:Річки України|*]]'),
    page('Kyiv', 0, '#REDIRECT [[Київ#Історія]]', '    <redirect title="Київ" />\n'),
    page('Киев', 0, '#перенаправлення [[Київ]]'),
    page('Кийів', 0, '#ПЕРЕАДРЕСАЦІЯ: [[Київ]]'),
    page('Місто', 0, 'Не перенаправлення: #REDIRECT [[Київ]]'),
    page('Категорія:Міста', 14, 'Міста. [[Категорія:Україна]]'),
    page('Категорія:Приховані', 14, '__HIDDENCAT__ Службова.'),
    page('Категорія:Порожня', 14, 'Без членів.'),
    page('Сторінка з прихованою', 0, '[[Категорія:Приховані]] [[Київ]]'),
    page(
      'Файл:Прапор.png',
      6,
      'Прапор. [[Категорія:Прапори]]',
      '    <upload>\n      <timestamp>2015-03-03T03:03:03Z</timestamp>\n      <contributor><username>Олена</username><id>7</id></contributor>\n' +
        '      <comment>Прапор України</comment>\n      <filename>Прапор.png</filename>\n      <size>70</size>\n    </upload>\n',
    ),
    page('Файл:Схема.svg', 6, [{ id: 700, ts: '2013-02-02T02:02:02Z', user: 'Петро', userId: 9, text: 'Схема.' }]),
    page(
      'Шаблон:Картка міста',
      10,
      '<includeonly>[[Категорія:Міста з карткою]]{{{назва|}}} на {{PAGENAME}}.</includeonly><noinclude>Картка.</noinclude>',
    ),
    page('Шаблон:Картка', 10, '#REDIRECT [[Шаблон:Картка міста]]'),
    page('Львів', 0, '{{Картка|назва=Лев}} {{#ifexist:Дніпро (річка)|є|нема}} {{#ifexist:Тернопіль|є|нема}}'),
    page('MediaWiki:August', 8, 'серпень (змінено)'),
    page('MediaWiki:August/ru', 8, 'август!'),
    page('MediaWiki:Common.css', 8, 'body { color: red; }'),
    page('Користувач:Олена/Чернетка', 2, 'Див. [[/Друга]] і [[../]].'),
    page('Повідомлення', 0, '[[{{int:link-target}}]] [[{{int:August}}]] [[{{int:no-such}}]] [[{{int:ru-only|Дніпро}} (річка)]]'),
  ];
  fs.writeFileSync(path.join(dir, 'dump.xml'), dumpXml(pages));

  const files = path.join(dir, 'files');
  fs.mkdirSync(path.join(files, 'a', 'ab'), { recursive: true });
  fs.writeFileSync(path.join(files, 'Прапор.png'), PNG);
  fs.writeFileSync(path.join(files, 'a', 'ab', 'Копія_прапора.png'), PNG); // identical bytes, hashed folder
  fs.writeFileSync(path.join(files, 'Схема.svg'), SVG);
  fs.writeFileSync(path.join(files, 'Нотатки.txt'), 'текст\n');
  fs.utimesSync(path.join(files, 'Нотатки.txt'), new Date('2012-12-12T12:12:12Z'), new Date('2012-12-12T12:12:12Z'));
  fs.writeFileSync(
    path.join(files, 'uploads.json'),
    JSON.stringify([
      { name: 'Копія прапора.png', user: 'Іван', timestamp: '2016-01-01T00:00:00Z', comment: 'копія' },
      { name: 'Прапор.png', user: 'Не той', timestamp: '2010-01-01T00:00:00Z', comment: 'ігнорується: дамп важливіший' },
    ]),
  );

  const m1 = path.join(dir, 'messages1');
  const m2 = path.join(dir, 'messages2');
  fs.mkdirSync(m1);
  fs.mkdirSync(m2);
  fs.writeFileSync(
    path.join(m1, 'en.json'),
    JSON.stringify({ '@metadata': { authors: [] }, august: 'August', 'hidden-category-category': 'Hidden categories' }),
  );
  fs.writeFileSync(
    path.join(m1, 'uk.json'),
    JSON.stringify({
      '@metadata': {},
      august: 'серпень',
      'hidden-category-category': 'Приховані категорії',
      'broken-file-category': 'Сторінки з неробочими посиланнями на файли',
      'link-target': 'Київ',
    }),
  );
  fs.writeFileSync(path.join(m1, 'ru.json'), JSON.stringify({ august: 'август', 'ru-only': '$1' }));
  fs.writeFileSync(path.join(m2, 'uk.json'), JSON.stringify({ august: 'серпня' }));
}

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-importer-'));
  dbFile = path.join(dir, 'wiki.sqlite');
  setupWiki();
  const hook: PageAnalysisHook = {
    name: 'test',
    begin: (d) => {
      hookCalls.push('begin:' + d.pages.count());
    },
    page: (p, text) => {
      hookPages.push(p);
      if (p.dbkey === 'Київ') expandedKyiv = text;
    },
    finish: (d) => {
      hookCalls.push('finish:' + d.derived.categoryCount());
    },
  };
  summary = await importWiki({
    dump: path.join(dir, 'dump.xml'),
    db: dbFile,
    filesDir: path.join(dir, 'files'),
    messageDirs: [path.join(dir, 'messages1'), path.join(dir, 'messages2')],
    lang: 'uk',
    hooks: [hook],
    log: () => {},
  });
  db = new Database(dbFile, { readonly: true });
});

after(() => {
  db?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const all = (sql: string, ...p: unknown[]) => db.prepare(sql).all(...p) as any[];
const col = (sql: string, ...p: unknown[]) =>
  db
    .prepare(sql)
    .pluck()
    .all(...p) as any[];
const idOf = (ns: number, title: string) =>
  db.prepare('SELECT page_id FROM page WHERE page_namespace = ? AND page_title = ?').pluck().get(ns, title) as number;

describe('import: pages and redirects', () => {
  it('writes one page row per dump page with the first and latest revision', () => {
    assert.equal(summary.pages, 20);
    const kyiv = all("SELECT * FROM page WHERE page_title = 'Київ'")[0];
    assert.equal(kyiv.page_namespace, 0);
    assert.equal(kyiv.page_rev_count, 2);
    assert.equal(kyiv.page_latest, 12);
    assert.equal(kyiv.first_rev_id, 11);
    assert.equal(kyiv.first_user, 'Олена');
    assert.equal(kyiv.first_user_id, 7);
    assert.equal(kyiv.first_timestamp, '20140501100000');
    assert.equal(kyiv.latest_user, '192.0.2.1');
    assert.equal(kyiv.latest_user_id, 0);
    assert.equal(kyiv.latest_timestamp, '20150602123045');
    assert.equal(kyiv.page_touched, '20150602123045');
    assert.equal(kyiv.latest_comment, 'доповнено');
    assert.equal(kyiv.page_len, Buffer.byteLength(KYIV_TEXT));
    assert.equal(kyiv.page_is_redirect, 0);
    assert.match(kyiv.latest_sha1, /^[0-9a-z]{31}$/);
    assert.equal(db.prepare('SELECT old_text FROM page_text WHERE page_id = ?').pluck().get(kyiv.page_id), KYIV_TEXT);
    assert.deepEqual(col('SELECT page_title FROM page WHERE page_namespace = 2'), ['Олена/Чернетка']);
  });

  it('reads #REDIRECT and the Ukrainian magic words in any case', () => {
    assert.deepEqual(
      all(
        'SELECT p.page_title AS t, rd_namespace AS ns, rd_title AS target, rd_fragment AS frag FROM redirect JOIN page p ON p.page_id = rd_from ORDER BY t',
      ),
      [
        { t: 'Kyiv', ns: 0, target: 'Київ', frag: 'Історія' },
        { t: 'Картка', ns: 10, target: 'Картка_міста', frag: '' },
        { t: 'Киев', ns: 0, target: 'Київ', frag: '' },
        { t: 'Кийів', ns: 0, target: 'Київ', frag: '' },
      ],
    );
    assert.deepEqual(col('SELECT page_title FROM page WHERE page_is_redirect = 1 ORDER BY page_title'), [
      'Kyiv',
      'Картка',
      'Киев',
      'Кийів',
    ]);
  });

  it('stores siteinfo, namespaces and the schema version in meta', () => {
    const meta = Object.fromEntries(all('SELECT key, value FROM meta').map((r) => [r.key, r.value]));
    assert.equal(meta.schema_version, String(SCHEMA_VERSION));
    assert.deepEqual(JSON.parse(meta.siteinfo), {
      sitename: 'Тестовікі',
      dbname: 'testwiki',
      base: 'http://localhost/index.php/Головна',
      generator: 'MediaWiki 1.25.4',
      case: 'first-letter',
      lang: 'uk',
    });
    assert.match(meta.import_time, /^\d{14}$/);
    assert.equal(db.prepare('SELECT ns_name FROM namespace WHERE ns_id = 4').pluck().get(), 'Тестовікі');
    assert.equal(db.prepare('SELECT ns_canonical FROM namespace WHERE ns_id = 6').pluck().get(), 'File');
    assert.equal(db.prepare('SELECT ns_name FROM namespace WHERE ns_id = 106').pluck().get(), 'Форма'); // default, not in the dump
  });

  it('has every index of the schema', () => {
    const expected = [...SCHEMA.matchAll(/CREATE (?:UNIQUE )?INDEX (\w+)/g)].map((m) => m[1]).sort();
    const actual = col("SELECT name FROM sqlite_master WHERE type = 'index' AND name NOT LIKE 'sqlite_%' ORDER BY name");
    assert.deepEqual(actual, expected);
    assert.deepEqual(col("SELECT name FROM sqlite_master WHERE name LIKE 'tmp_%'"), []);
  });
});

describe('import: links', () => {
  it("{{int:}} reads the imported messages in the content language (LinksUpdate's options): override, catalogs, fallback chain", () => {
    const from = idOf(0, 'Повідомлення');
    // link-target: uk catalog; August: the MediaWiki:August override; ru-only: uk → ru fallback with $1;
    // no-such: Message::plain's "<no-such>", no title; no message is a transclusion
    assert.deepEqual(col('SELECT pl_title FROM pagelinks WHERE pl_from = ? ORDER BY pl_title', from), [
      'Дніпро_(річка)',
      'Київ',
      'Серпень_(змінено)',
    ]);
    assert.deepEqual(col('SELECT tl_title FROM templatelinks WHERE tl_from = ?', from), []);
  });

  it('records page links once per target, without self-links, comments, nowiki, SMW annotations or interwikis', () => {
    const kyiv = idOf(0, 'Київ');
    assert.deepEqual(
      all(
        'SELECT pl_namespace AS ns, pl_title AS t, pl_from_namespace AS fns FROM pagelinks WHERE pl_from = ? ORDER BY pl_namespace, pl_title',
        kyiv,
      ),
      [
        { ns: 0, t: 'W:Kyiv', fns: 0 }, // 'w' is no prefix of MediaWiki's default interwiki map
        { ns: 0, t: 'Головна', fns: 0 }, // {{:Головна}} does not exist: MediaWiki shows (and records) a red link
        { ns: 0, t: 'Дніпро_(річка)', fns: 0 },
        { ns: 0, t: 'Київ', fns: 0 }, // [[Київ#Історія]]: a self-link with a fragment is recorded
        { ns: 0, t: 'Київ_(значення)', fns: 0 },
        { ns: 0, t: 'Львів', fns: 0 }, // from a gallery caption
        { ns: 0, t: 'Одеса', fns: 0 }, // an image's посилання= (link=)
        { ns: 0, t: 'Україна', fns: 0 }, // from an image caption
        { ns: 6, t: 'Герб.png', fns: 0 },
        { ns: 14, t: 'Міста', fns: 0 },
      ],
    );
    // redirects link to their target, whatever its namespace: a page link, never a file or category use
    assert.deepEqual(col('SELECT pl_title FROM pagelinks WHERE pl_from = ?', idOf(0, 'Kyiv')), ['Київ']);
    assert.deepEqual(all('SELECT pl_namespace AS ns, pl_title AS t FROM pagelinks WHERE pl_from = ?', idOf(10, 'Картка')), [
      { ns: 10, t: 'Картка_міста' },
    ]);
    // subpage links
    assert.deepEqual(col('SELECT pl_title FROM pagelinks WHERE pl_from = ? ORDER BY pl_title', idOf(2, 'Олена/Чернетка')), [
      'Олена',
      'Олена/Чернетка/Друга',
    ]);
  });

  it('records file links from [[Файл:]], [[Image:]], [[Медіа:]] and <gallery>, missing files included', () => {
    assert.deepEqual(col('SELECT il_to FROM imagelinks WHERE il_from = ? ORDER BY il_to', idOf(0, 'Київ')), [
      'Герб.png',
      'Звук.ogg',
      'Немає.jpg',
      'Прапор.png',
    ]);
  });

  it('records interlanguage links', () => {
    assert.deepEqual(all('SELECT ll_lang AS l, ll_title AS t FROM langlinks ORDER BY ll_lang'), [
      { l: 'en', t: 'Kyiv' },
      { l: 'pl', t: 'Kijów' },
    ]);
  });

  it('records interwiki links: other prefixes, and language prefixes escaped with ":" (title as written, no fragment)', () => {
    assert.deepEqual(all('SELECT iwl_prefix AS p, iwl_title AS t FROM iwlinks WHERE iwl_from = ? ORDER BY iwl_prefix', idOf(0, 'Київ')), [
      { p: 'en', t: 'Kyiv_city' },
      { p: 'wikipedia', t: 'Kyiv' },
    ]);
    assert.equal(col("SELECT iw_url FROM interwiki WHERE iw_prefix = 'wikipedia'")[0], 'https://en.wikipedia.org/wiki/$1');
  });

  it('prop=iwlinks over the imported database: prefix, title as written, URL from the stored map', async () => {
    const store = await openStore(dbFile);
    const server = await createServer({ store, logLevel: 'silent' });
    const base = await server.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const r = await (
        await fetch(`${base}/api.php?action=query&format=json&prop=iwlinks&iwprop=url&titles=${encodeURIComponent('Київ')}`)
      ).json();
      assert.deepEqual((Object.values(r.query.pages)[0] as any).iwlinks, [
        { prefix: 'en', url: 'https://en.wikipedia.org/wiki/Kyiv_city', '*': 'Kyiv_city' },
        { prefix: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Kyiv', '*': 'Kyiv' },
      ]);
      const one = await (
        await fetch(`${base}/api.php?action=query&format=json&prop=iwlinks&iwlimit=1&continue=&titles=${encodeURIComponent('Київ')}`)
      ).json();
      assert.deepEqual(one.continue, { iwcontinue: `${idOf(0, 'Київ')}|wikipedia|Kyiv`, continue: '||' });
    } finally {
      await server.close();
    }
  });

  it('reads interwiki redirect targets: prefix apart, title as written, fragment apart', () => {
    const codec = TitleCodec.forSite('Тестовікі');
    assert.deepEqual(redirectTarget('#REDIRECT [[wikipedia:Kyiv city#Історія]]', codec, InterwikiMap.defaults()), {
      ns: 0,
      dbkey: 'Kyiv_city',
      fragment: 'Історія',
      interwiki: 'wikipedia',
    });
    assert.deepEqual(redirectTarget('#REDIRECT [[w:Kyiv]]', codec, InterwikiMap.defaults())?.dbkey, 'W:Kyiv');
  });

  it('records external links with their reversed-host index: bracketed, free, protocol-relative, image link=', () => {
    assert.deepEqual(
      all('SELECT el_to AS url, el_index AS idx FROM externallinks WHERE el_from = ? ORDER BY el_to, el_index', idOf(0, 'Київ')),
      [
        { url: '//proto.example/x', idx: 'http://example.proto./x' },
        { url: '//proto.example/x', idx: 'https://example.proto./x' },
        // '%7E' is a harmless escape (Parser::replaceUnusualEscapes); the host is lowercased in the index only
        { url: 'http://Example.ORG/a~b?x=1', idx: 'http://org.example./a~b?x=1' },
        // the free link ends before trailing punctuation and a ')' without '('
        { url: 'http://example.com/path', idx: 'http://com.example./path' },
        { url: 'https://flag.example/', idx: 'https://example.flag./' },
      ],
    );
  });

  it('records transclusions: missing ones, redirects and their targets; no variables or parser functions', () => {
    const tl = (page: string) =>
      all('SELECT tl_namespace AS ns, tl_title AS t FROM templatelinks WHERE tl_from = ? ORDER BY tl_namespace, tl_title', idOf(0, page));
    assert.deepEqual(tl('Київ'), [
      { ns: 0, t: 'Головна' },
      { ns: 10, t: 'Картка_міста' },
    ]);
    assert.deepEqual(tl('Львів'), [
      { ns: 10, t: 'Картка' },
      { ns: 10, t: 'Картка_міста' },
    ]);
    // <includeonly> categories apply to the pages that use the template, not to the template
    assert.deepEqual(col('SELECT cl_to FROM categorylinks WHERE cl_from = ?', idOf(10, 'Картка_міста')), []);
    assert.deepEqual(
      col("SELECT p.page_title FROM categorylinks JOIN page p ON p.page_id = cl_from WHERE cl_to = 'Міста_з_карткою' ORDER BY 1"),
      ['Київ', 'Львів'],
    );
  });

  it('analyses the expanded text: parameters, variables, parser functions, #ifexist links', () => {
    assert.match(expandedKyiv, /\[\[Категорія:Міста з карткою\]\]Київ на Київ\. \[\[:Головна\]\] Київ y\n/);
    assert.deepEqual(col('SELECT pl_title FROM pagelinks WHERE pl_from = ? ORDER BY pl_title', idOf(0, 'Львів')), [
      'Дніпро_(річка)',
      'Тернопіль',
    ]);
  });

  it('writes category links with MediaWiki sort keys, types and the latest revision time', () => {
    const rows = all(
      `SELECT p.page_title AS page, cl_to AS cat, cl_sortkey AS key, cl_sortkey_prefix AS prefix, cl_type AS type, cl_timestamp AS ts
       FROM categorylinks JOIN page p ON p.page_id = cl_from ORDER BY cl_to, cl_sortkey`,
    );
    const by = (page: string, cat: string) => rows.find((r) => r.page === page && r.cat === cat);
    assert.deepEqual(by('Київ', 'Міста'), {
      page: 'Київ',
      cat: 'Міста',
      key: 'КИЇВ\nКИЇВ',
      prefix: 'Київ',
      type: 'page',
      ts: '20150602123045',
    });
    assert.deepEqual(by('Київ', 'Столиці'), { page: 'Київ', cat: 'Столиці', key: 'КИЇВ', prefix: '', type: 'page', ts: '20150602123045' });
    assert.equal(by('Київ', 'Міста_України').key, ' \nКИЇВ');
    // DEFAULTSORT is the prefix of links without one; an explicit one wins
    assert.equal(by('Дніпро_(річка)', 'Річки').key, 'ДНІПРО\nДНІПРО (РІЧКА)');
    assert.equal(by('Дніпро_(річка)', 'Річки').prefix, 'Дніпро');
    assert.equal(by('Дніпро_(річка)', 'Річки_України').key, '*\nДНІПРО (РІЧКА)');
    assert.equal(by('Міста', 'Україна').type, 'subcat');
    assert.equal(by('Прапор.png', 'Прапори').type, 'file');
    // tracking categories from the content-language messages
    assert.equal(by('Приховані', 'Приховані_категорії').type, 'subcat');
    assert.ok(by('Київ', 'Сторінки_з_неробочими_посиланнями_на_файли'), '[[Image:Немає.jpg]] is a broken file link');
  });

  it('stores __HIDDENCAT__ and DEFAULTSORT as page properties', () => {
    assert.deepEqual(all('SELECT pp_page AS id, pp_propname AS name, pp_value AS value FROM page_props ORDER BY pp_page, pp_propname'), [
      { id: idOf(0, 'Дніпро_(річка)'), name: 'defaultsort', value: 'Дніпро' },
      { id: idOf(14, 'Приховані'), name: 'hiddencat', value: '' },
    ]);
  });

  it('builds the category table by SQL from the links', () => {
    const cats = Object.fromEntries(
      all('SELECT * FROM category').map((r) => [r.cat_title, [r.cat_pages, r.cat_subcats, r.cat_files, r.cat_hidden]]),
    );
    assert.deepEqual(cats.Міста, [1, 0, 0, 0]);
    assert.deepEqual(cats.Україна, [1, 1, 0, 0]);
    assert.deepEqual(cats.Прапори, [1, 0, 1, 0]);
    assert.deepEqual(cats.Приховані, [1, 0, 0, 1]);
    assert.deepEqual(cats.Порожня, [0, 0, 0, 0], 'a category page without members is listed');
    assert.deepEqual(cats.Міста_з_карткою, [2, 0, 0, 0]);
    assert.equal(summary.categories, Object.keys(cats).length);
  });
});

describe('import: files', () => {
  it('hashes files, reads sizes and MIME types, and finds duplicates by SHA-1', () => {
    const hex = crypto.createHash('sha1').update(PNG).digest('hex');
    const rows = all('SELECT * FROM image ORDER BY img_name');
    assert.deepEqual(
      rows.map((r) => r.img_name),
      ['Копія_прапора.png', 'Нотатки.txt', 'Прапор.png', 'Схема.svg'],
    );
    const flag = rows[2];
    assert.equal(flag.img_sha1_hex, hex);
    assert.equal(
      flag.img_sha1,
      BigInt('0x' + hex)
        .toString(36)
        .padStart(31, '0'),
    );
    assert.equal(rows[0].img_sha1, flag.img_sha1);
    assert.deepEqual([flag.img_size, flag.img_width, flag.img_height, flag.img_bits], [PNG.length, 1, 1, 8]);
    assert.deepEqual([flag.img_media_type, flag.img_major_mime, flag.img_minor_mime], ['BITMAP', 'image', 'png']);
    assert.equal(rows[0].img_path, 'a/ab/Копія_прапора.png');
    const svg = rows[3];
    assert.deepEqual(
      [svg.img_media_type, svg.img_major_mime, svg.img_minor_mime, svg.img_width, svg.img_height],
      ['DRAWING', 'image', 'svg+xml', 120, 80],
    );
    assert.deepEqual([rows[1].img_media_type, rows[1].img_major_mime, rows[1].img_minor_mime], ['TEXT', 'text', 'plain']);
  });

  it('takes the uploader from the dump, then uploads.json, then the description page, then the mtime', () => {
    const who = Object.fromEntries(
      all('SELECT img_name, img_user_text, img_user, img_timestamp, img_description FROM image').map((r) => [
        r.img_name,
        [r.img_user_text, r.img_user, r.img_timestamp, r.img_description],
      ]),
    );
    assert.deepEqual(who['Прапор.png'], ['Олена', 7, '20150303030303', 'Прапор України']);
    assert.deepEqual(who['Копія_прапора.png'], ['Іван', 0, '20160101000000', 'копія']);
    assert.deepEqual(who['Схема.svg'], ['Петро', 9, '20130202020202', '']);
    assert.deepEqual(who['Нотатки.txt'], ['Maintenance script', 0, '20121212121212', '']);
    assert.equal(summary.files, 4);
  });
});

describe('import: messages', () => {
  it('loads every language file, later directories overriding earlier ones', () => {
    assert.deepEqual(all("SELECT msg_lang AS l, msg_text AS t FROM message WHERE msg_key = 'august' ORDER BY msg_lang"), [
      { l: 'en', t: 'August' },
      { l: 'ru', t: 'август' },
      { l: 'uk', t: 'серпня' },
    ]);
    assert.equal(db.prepare("SELECT COUNT(*) FROM message WHERE msg_key = '@metadata'").pluck().get(), 0);
  });

  it('turns MediaWiki: pages into overrides (content language, /lang suffix; no CSS)', () => {
    assert.deepEqual(all('SELECT mo_lang AS l, mo_key AS k, mo_text AS t FROM message_override ORDER BY mo_lang, mo_key'), [
      { l: 'ru', k: 'august', t: 'август!' },
      { l: 'uk', k: 'august', t: 'серпень (змінено)' },
    ]);
  });
});

describe('import: analysis hooks', () => {
  it('calls begin, page for every page in id order, and finish after the link tables, before the category table', () => {
    // the category table counts the categories inline query results add, which need the finished semantic data
    assert.deepEqual(hookCalls, ['begin:20', 'finish:0']);
    assert.ok(summary.categories > 0);
    assert.equal(hookPages.length, 20);
    assert.deepEqual(
      hookPages.map((p) => p.pageId),
      [...hookPages.map((p) => p.pageId)].sort((a, b) => a - b),
    );
    const dnipro = hookPages.find((p) => p.dbkey === 'Дніпро_(річка)')!;
    assert.deepEqual(dnipro, {
      pageId: idOf(0, 'Дніпро_(річка)'),
      ns: 0,
      dbkey: 'Дніпро_(річка)',
      isRedirect: false,
      latestTimestamp: '20150101000000',
      defaultSort: 'Дніпро',
      categories: ['Річки', 'Річки_України'],
    });
    assert.equal(hookPages.find((p) => p.dbkey === 'Kyiv')!.isRedirect, true);
  });
});

describe('import: analysis threads', () => {
  const importWith = async (workers: number, hooks: PageAnalysisHook[], db: string, dump = path.join(dir, 'dump.xml')) =>
    importWiki({
      dump,
      db,
      filesDir: path.join(dir, 'files'),
      messageDirs: [path.join(dir, 'messages1'), path.join(dir, 'messages2')],
      lang: 'uk',
      hooks,
      workers,
      log: () => {},
    });

  it('writes the same rows with no worker thread, one or three', async () => {
    const tables = [
      'pagelinks',
      'imagelinks',
      'templatelinks',
      'categorylinks',
      'langlinks',
      'externallinks',
      'iwlinks',
      'page_props',
      'category',
      'search_title',
      'smw_subject',
      'smw_value',
      'smw_property',
      'querycache',
    ];
    const rows = (file: string) => {
      const d = new Database(file, { readonly: true });
      try {
        const out: Record<string, unknown[]> = {};
        for (const t of tables) out[t] = d.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).raw().all();
        out.search = d
          .prepare("SELECT rowid FROM search_index WHERE search_index MATCH 'київ OR дніпро' ORDER BY rank, rowid")
          .pluck()
          .all();
        return out;
      } finally {
        d.close();
      }
    };
    const seen: Record<number, Array<[string, unknown]>> = {};
    const renamed = path.join(dir, 'dump-renamed.xml');
    const results = [];
    for (const workers of [0, 1, 3]) {
      const file = path.join(dir, `workers-${workers}.sqlite`);
      seen[workers] = [];
      const hook: PageAnalysisHook = {
        name: 'order',
        analyzer: new URL('../helpers/failing-analyzer.js', import.meta.url).href,
        page: (p, text, analyzed) => {
          seen[workers].push([p.dbkey + text, analyzed]);
        },
      };
      // the analyzer refuses Київ: that page is renamed in a copy of the dump
      fs.writeFileSync(
        renamed,
        fs.readFileSync(path.join(dir, 'dump.xml'), 'utf8').replaceAll('<title>Київ</title>', '<title>Київ2</title>'),
      );
      await importWith(workers, [semanticImportHook(), hook], file, renamed);
      results.push(rows(file));
    }
    assert.ok((results[0].pagelinks as unknown[]).length > 0 && (results[0].smw_value as unknown[]).length > 0);
    assert.deepEqual(results[1], results[0]);
    assert.deepEqual(results[2], results[0]);
    // the hook saw every page in id order, with its analyzer's result and no text
    assert.equal(seen[0].length, 20);
    assert.deepEqual(seen[1], seen[0]);
    assert.deepEqual(seen[3], seen[0]);
    assert.ok(seen[3].every(([k, v]) => typeof v === 'number' && !k.includes('[[')));
  });

  it('writes the same rows over many chunks: the worker’s, and those the main thread analyses while it waits', {
    timeout: 120_000,
  }, async () => {
    // 2,600 synthetic pages: six chunks of 500, each encoded page by page and decoded as it is written
    // (result-codec.ts); the main thread takes chunks of its own while the worker starts and whenever it is behind
    const big = path.join(dir, 'big-chunks');
    await generateBig(big, 2600);
    const rows = (file: string) => {
      const d = new Database(file, { readonly: true });
      try {
        const out: Record<string, unknown[]> = {};
        for (const t of [
          'pagelinks',
          'imagelinks',
          'templatelinks',
          'categorylinks',
          'externallinks',
          'page_props',
          'category',
          'smw_value',
          'querycache',
        ]) {
          out[t] = d.prepare(`SELECT * FROM ${t} ORDER BY 1, 2, 3`).raw().all();
        }
        out.search = d
          .prepare("SELECT rowid FROM search_index WHERE search_index MATCH 'поселення' ORDER BY rank, rowid LIMIT 3000")
          .pluck()
          .all();
        return out;
      } finally {
        d.close();
      }
    };
    const results = [];
    for (const workers of [0, 1]) {
      const file = path.join(dir, `chunks-${workers}.sqlite`);
      await importWiki({
        dump: path.join(big, 'dump.xml'),
        db: file,
        filesDir: path.join(big, 'files'),
        lang: 'uk',
        hooks: [semanticImportHook()],
        workers,
        log: () => {},
      });
      results.push(rows(file));
    }
    assert.ok((results[0].pagelinks as unknown[]).length > 10_000);
    assert.ok((results[0].search as unknown[]).length > 2000);
    assert.deepEqual(results[1], results[0]);
  });

  it('fails the import when a worker fails, keeping the database', async () => {
    const file = path.join(dir, 'workers-fail.sqlite');
    await importWith(0, [], file);
    const before = crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex');
    const hook: PageAnalysisHook = {
      name: 'failing',
      analyzer: new URL('../helpers/failing-analyzer.js', import.meta.url).href,
      page: () => {},
    };
    await assert.rejects(importWith(1, [hook], file), /page analysis failed: .*the test analyzer refuses Київ/s);
    assert.equal(crypto.createHash('sha1').update(fs.readFileSync(file)).digest('hex'), before);
    assert.deepEqual(
      fs.readdirSync(dir).filter((n) => n.startsWith('workers-fail.sqlite.tmp-')),
      [],
    );
  });
});

describe('import: failures leave the existing database untouched', () => {
  const sha = (f: string) => crypto.createHash('sha1').update(fs.readFileSync(f)).digest('hex');
  const leftovers = (target: string) => fs.readdirSync(path.dirname(target)).filter((n) => n.startsWith(path.basename(target) + '.tmp-'));

  it('reports a malformed dump as file:line:column in one line, exit code 1', () => {
    const bad = path.join(dir, 'bad.xml');
    fs.writeFileSync(bad, dumpXml([page('Добра', 0, 'текст')]).replace('  </page>\n', '  </revision>\n  </page>\n'));
    const before = sha(dbFile);
    const r = spawnSync(process.execPath, [CLI, bad, '--db', dbFile], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    // the notes on what an import without --files/--messages lacks come first; the error is one line
    const lines = r.stderr
      .trim()
      .split('\n')
      .filter((l) => !l.startsWith('note: '));
    assert.equal(lines.length, 1, r.stderr);
    const lineNo = fs.readFileSync(bad, 'utf8').split('\n').indexOf('  </revision>') + 1;
    assert.match(
      lines[0],
      new RegExp(`^wikiquery import: .*bad\\.xml:${lineNo}:\\d+: unexpected close tag </revision>, expected </page>$`),
    );
    assert.equal(r.stdout, '');
    assert.equal(sha(dbFile), before);
    assert.deepEqual(leftovers(dbFile), []);
  });

  it('reports a truncated dump and a non-dump', () => {
    const cut = path.join(dir, 'cut.xml');
    const xml = dumpXml([page('Добра', 0, 'текст')]);
    fs.writeFileSync(cut, xml.slice(0, xml.indexOf('</page>')));
    let r = spawnSync(process.execPath, [CLI, cut, '--db', dbFile], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /cut\.xml:\d+:\d+: unexpected end of file: unclosed tag <\w+>\n$/);
    const html = path.join(dir, 'page.html');
    fs.writeFileSync(html, '<html><body>hi</body></html>');
    r = spawnSync(process.execPath, [CLI, html, '--db', dbFile], { encoding: 'utf8' });
    assert.equal(r.status, 1);
    assert.match(r.stderr, /page\.html:1:6: not a MediaWiki XML dump: root element is <html>/);
    assert.deepEqual(leftovers(dbFile), []);
  });

  it('keeps the previous database when the import is killed with SIGTERM midway', async () => {
    const big = path.join(dir, 'big.xml');
    const out = fs.createWriteStream(big);
    out.write(dumpXml([]).replace('</mediawiki>\n', ''));
    pageIds.next = 1;
    for (let i = 0; i < 60000; i++) {
      out.write(page(`Сторінка ${i}`, 0, `Текст ${i} [[Сторінка ${(i * 7) % 60000}]] [[Категорія:Група ${i % 100}]] {{Шаблон ${i % 10}}}`));
    }
    out.end('</mediawiki>\n');
    await new Promise((r) => out.on('finish', r));
    const before = sha(dbFile);
    const child = spawn(process.execPath, [CLI, big, '--db', dbFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    // wait until the temporary database exists and pass 1 is under way, then interrupt
    const deadline = Date.now() + 20000;
    while (leftovers(dbFile).length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    assert.deepEqual(leftovers(dbFile), [`${path.basename(dbFile)}.tmp-${child.pid}`], 'the import builds into FILE.tmp-<pid>');
    await new Promise((r) => setTimeout(r, 300));
    child.kill('SIGTERM');
    const code = await exited;
    assert.equal(code, 143, stderr);
    assert.match(stderr, /interrupted by SIGTERM/);
    assert.equal(sha(dbFile), before);
    assert.deepEqual(leftovers(dbFile), []);
  });
});
