/**
 * Inline queries in rendered pages ({{#ask:}}, {{#show:}}) through action=parse: the output of SMW 2.2's
 * printers (TableResultPrinter, ListResultPrinter for list/ul/ol/template, count) for queries on the demo
 * wiki, parsed as MediaWiki parses a parser function's text; the expected HTML follows SMW's code for
 * markup and MediaWiki 1.25's parse for what it makes of it. Also: the per-page bound on inline
 * queries, template-format output expanded (its templates recorded), and query results recorded as links.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startDemoServer, type DemoServer, demoServerForFile } from '../helpers/demo-server.js';
import { MAX_INLINE_QUERIES } from '../../src/wikitext/expansion-rounds.js';
import { formatNumber } from '../../src/semantic/datavalues/number.js';
import { strnatcmp } from '../../src/php/compare.js';
import { inlineBounds } from '../../src/modules/smw/inline-query.js';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { xmlHeader, xmlPage, XML_FOOTER, type DumpPage } from '../../src/demo/dump-xml.js';
import { importWiki } from '../../src/importer/import.js';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';

const s = demoServerForFile();

const parse = async (text: string, prop = 'text', title = 'API') =>
  (await s.post({ action: 'parse', text, title, prop, disablelimitreport: '1', format: 'json', formatversion: '2' })).json;

const CASES: Array<{ name: string; wikitext: string; html: string }> = [
  {
    name: "list (the default for one print request): links joined by ', '",
    wikitext: '{{#ask:[[Категорія:Супи]]}}',
    html: '<p><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a>, <a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a>, <a href="/index.php/%D0%9A%D0%B0%D0%BF%D1%83%D1%81%D0%BD%D1%8F%D0%BA" title="Капусняк">Капусняк</a>, <a href="/index.php/%D0%9A%D1%83%D0%BB%D1%96%D1%88" title="Куліш">Куліш</a>, <a href="/index.php/%D0%AE%D1%88%D0%BA%D0%B0" title="Юшка">Юшка</a>\n</p>',
  },
  {
    name: 'ul: data-sortkey from the sort key, the further-results link as the last item',
    wikitext: '{{#ask:[[Категорія:Супи]]|format=ul|limit=2}}',
    html: '<ul>\n\t<li data-sortkey="Б"><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a></li>\n\t<li data-sortkey="Г"><a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a></li>\n<li> <span class="smw-ul-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/format%3Dul/limit%3D2/offset%3D2" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/format=ul/limit=2/offset=2">... подальші результати</a></span></li></ul>\n',
  },
  {
    name: 'ol with an empty searchlabel: no further-results link',
    wikitext: '{{#ask:[[Категорія:Супи]]|format=ol|limit=2|searchlabel=}}',
    html: '<ol>\n\t<li data-sortkey="Б"><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a></li>\n\t<li data-sortkey="Г"><a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a></li>\n</ol>\n',
  },
  {
    name: 'table (the default with a printout): headers link the property, data-sort-value, row-odd/row-even, footer row',
    wikitext: '{{#ask:[[Категорія:Міста]]|?Населення|limit=2}}',
    html: '<table class="sortable wikitable smwtable"><th>&#160;</th><th class="Населення"><a href="/index.php/Property:%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F" title="Property:Населення">Населення</a></th><tr class="row-odd"><td class="smwtype_wpg"><a href="/index.php/%D0%84%D0%B2%D0%BF%D0%B0%D1%82%D0%BE%D1%80%D1%96%D1%8F" title="Євпаторія">Євпаторія</a></td><td data-sort-value="105000" class="Населення smwtype_num">105,000</td></tr><tr class="row-even"><td class="smwtype_wpg"><a href="/index.php/%D0%86%D0%B2%D0%B0%D0%BD%D0%BE-%D0%A4%D1%80%D0%B0%D0%BD%D0%BA%D1%96%D0%B2%D1%81%D1%8C%D0%BA" title="Івано-Франківськ">Івано-Франківськ</a></td><td data-sort-value="235000" class="Населення smwtype_num">235,000</td></tr><tr class="smwfooter row-odd"><td class="sortbottom" colspan="2"><span class="smw-table-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%9C%D1%96%D1%81%D1%82%D0%B0-5D-5D/-3F%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F/limit%3D2/offset%3D2" title="Спеціальна:Ask/-5B-5BКатегорія:Міста-5D-5D/-3FНаселення/limit=2/offset=2">... подальші результати</a></span></td></tr></table>\n',
  },
  {
    name: 'broadtable, mainlabel=- and headers=plain: no subject column, plain header, width=100%',
    wikitext: '{{#ask:[[Категорія:Міста]]|?Населення=Люди|mainlabel=-|headers=plain|format=broadtable|limit=1|searchlabel=}}',
    html: '<table class="sortable wikitable smwtable" width="100%"><th class="Люди">Люди</th><tr class="row-odd"><td data-sort-value="105000" class="Люди smwtype_num">105,000</td></tr></table>\n',
  },
  {
    name: "list with printouts, sort/order and sep: '(' label values ')' and the separator between rows",
    wikitext: '{{#ask:[[Категорія:Обласні центри]]|?Населення|sort=Населення|order=desc|limit=2|format=list|sep=;|searchlabel=}}',
    html: '<p><a href="/index.php/%D0%9A%D0%B8%D1%97%D0%B2" title="Київ">Київ</a> (<a href="/index.php/Property:%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F" title="Property:Населення">Населення</a> 2,884,000);<a href="/index.php/%D0%A5%D0%B0%D1%80%D0%BA%D1%96%D0%B2" title="Харків">Харків</a> (<a href="/index.php/Property:%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F" title="Property:Населення">Населення</a> 1,430,000)\n</p>',
  },
  {
    name: "#show of a number: the value of one property of one page, formatted with SMW's separators",
    wikitext: '{{#show:Київ|?Населення}}',
    html: '<p>2,884,000\n</p>',
  },
  {
    name: '#show of a page value: linked as [[:Title|Title]]',
    wikitext: '{{#show:Київ|?Розташоване в}}',
    html: '<p><a href="/index.php/%D0%9A%D0%B8%D1%97%D0%B2%D1%81%D1%8C%D0%BA%D0%B0_%D0%BE%D0%B1%D0%BB%D0%B0%D1%81%D1%82%D1%8C" title="Київська область">Київська область</a>\n</p>',
  },
  {
    name: "#show of a date: SMW's caption (English month labels: SMW 2.2 has no Ukrainian language class)",
    wikitext: '{{#show:Демонстраційна сторінка|?Дата заснування}}',
    html: '<p>24 August 1991\n</p>',
  },
  {
    name: "count with intro and outro ('_' is a space)",
    wikitext: '{{#ask:[[Категорія:Супи]]|format=count|intro=Супів:_|outro=.}}',
    html: '<p>Супів: 5.\n</p>',
  },
  {
    name: 'an empty result shows default',
    wikitext: '{{#ask:[[Категорія:Немає такої]]|default=Нічого_не_знайдено}}',
    html: '<p>Нічого не знайдено\n</p>',
  },
  {
    name: "template format without template: SMW's error box",
    wikitext: '{{#ask:[[Категорія:Супи]]|format=template}}',
    html: '<span class="smw-highlighter" data-type="4" data-state="inline" data-title="Помилка"><span class="smwtticon warning"></span><div class="smwttcontent">Щоб цей формат запиту спрацював, потрібно вказати значення параметра «template».</div></span>\n',
  },
  {
    name: 'a query error: the rest of the query runs, the error box follows',
    wikitext: '{{#ask:[[Населення::<q>]]}}',
    html: '<a href="/index.php/%D0%84%D0%B2%D0%BF%D0%B0%D1%82%D0%BE%D1%80%D1%96%D1%8F" title="Євпаторія">Євпаторія</a>, <a href="/index.php/%D0%86%D0%B2%D0%B0%D0%BD%D0%BE-%D0%A4%D1%80%D0%B0%D0%BD%D0%BA%D1%96%D0%B2%D1%81%D1%8C%D0%BA" title="Івано-Франківськ">Івано-Франківськ</a>, <a href="/index.php/%D0%86%D0%B7%D0%BC%D0%B0%D1%97%D0%BB" title="Ізмаїл">Ізмаїл</a>, <a href="/index.php/%D0%86%D0%B7%D1%8E%D0%BC" title="Ізюм">Ізюм</a>, <a href="/index.php/%D0%86%D1%80%D0%BF%D1%96%D0%BD%D1%8C" title="Ірпінь">Ірпінь</a>, <a href="/index.php/%D0%87%D0%B6%D0%B0%D0%BA%D0%BE%D0%B2%D0%B5" title="Їжакове">Їжакове</a>, <a href="/index.php/%D0%90%D0%BB%D1%87%D0%B5%D0%B2%D1%81%D1%8C%D0%BA" title="Алчевськ">Алчевськ</a>, <a href="/index.php/%D0%91%D0%B5%D1%80%D0%B4%D0%B8%D1%87%D1%96%D0%B2" title="Бердичів">Бердичів</a>, <a href="/index.php/%D0%91%D0%B5%D1%80%D0%B4%D1%8F%D0%BD%D1%81%D1%8C%D0%BA" title="Бердянськ">Бердянськ</a>, <a href="/index.php/%D0%91%D0%BE%D1%80%D0%B8%D1%81%D0%BF%D1%96%D0%BB%D1%8C" title="Бориспіль">Бориспіль</a>, <a href="/index.php/%D0%91%D1%80%D0%BE%D0%B2%D0%B0%D1%80%D0%B8" title="Бровари">Бровари</a>, <a href="/index.php/%D0%91%D1%96%D0%BB%D0%B0_%D0%A6%D0%B5%D1%80%D0%BA%D0%B2%D0%B0" title="Біла Церква">Біла Церква</a>, <a href="/index.php/%D0%92%D1%96%D0%BD%D0%BD%D0%B8%D1%86%D1%8F" title="Вінниця">Вінниця</a>, <a href="/index.php/%D0%93%D0%BE%D1%80%D0%BB%D1%96%D0%B2%D0%BA%D0%B0" title="Горлівка">Горлівка</a>, <a href="/index.php/%D0%94%D0%B5%D0%BC%D0%BE%D0%BD%D1%81%D1%82%D1%80%D0%B0%D1%86%D1%96%D0%B9%D0%BD%D0%B0_%D1%81%D1%82%D0%BE%D1%80%D1%96%D0%BD%D0%BA%D0%B0" title="Демонстраційна сторінка">Демонстраційна сторінка</a>, <a href="/index.php/%D0%94%D0%BD%D1%96%D0%BF%D1%80%D0%BE_(%D0%BC%D1%96%D1%81%D1%82%D0%BE)" title="Дніпро (місто)">Дніпро (місто)</a>, <a href="/index.php/%D0%94%D0%BE%D0%BD%D0%B5%D1%86%D1%8C%D0%BA" title="Донецьк">Донецьк</a>, <a href="/index.php/%D0%94%D1%80%D0%BE%D0%B3%D0%BE%D0%B1%D0%B8%D1%87" title="Дрогобич">Дрогобич</a>, <a href="/index.php/%D0%96%D0%B8%D1%82%D0%BE%D0%BC%D0%B8%D1%80" title="Житомир">Житомир</a>, <a href="/index.php/%D0%97%D0%B0%D0%BF%D0%BE%D1%80%D1%96%D0%B6%D0%B6%D1%8F" title="Запоріжжя">Запоріжжя</a>, <a href="/index.php/%D0%9A%D0%B0%D0%BC%27%D1%8F%D0%BD%D0%B5%D1%86%D1%8C-%D0%9F%D0%BE%D0%B4%D1%96%D0%BB%D1%8C%D1%81%D1%8C%D0%BA%D0%B8%D0%B9" title="Кам\'янець-Подільський">Кам\'янець-Подільський</a>, <a href="/index.php/%D0%9A%D0%B0%D0%BC%27%D1%8F%D0%BD%D1%81%D1%8C%D0%BA%D0%B5" title="Кам\'янське">Кам\'янське</a>, <a href="/index.php/%D0%9A%D0%B5%D1%80%D1%87" title="Керч">Керч</a>, <a href="/index.php/%D0%9A%D0%B8%D1%97%D0%B2" title="Київ">Київ</a>, <a href="/index.php/%D0%9A%D0%BE%D0%B2%D0%B5%D0%BB%D1%8C" title="Ковель">Ковель</a>, <a href="/index.php/%D0%9A%D0%BE%D0%BB%D0%BE%D0%BC%D0%B8%D1%8F" title="Коломия">Коломия</a>, <a href="/index.php/%D0%9A%D0%BE%D0%BD%D0%BE%D1%82%D0%BE%D0%BF" title="Конотоп">Конотоп</a>, <a href="/index.php/%D0%9A%D1%80%D0%B0%D0%BC%D0%B0%D1%82%D0%BE%D1%80%D1%81%D1%8C%D0%BA" title="Краматорськ">Краматорськ</a>, <a href="/index.php/%D0%9A%D1%80%D0%B5%D0%BC%D0%B5%D0%BD%D1%87%D1%83%D0%BA" title="Кременчук">Кременчук</a>, <a href="/index.php/%D0%9A%D1%80%D0%B8%D0%B2%D0%B8%D0%B9_%D0%A0%D1%96%D0%B3" title="Кривий Ріг">Кривий Ріг</a>, <a href="/index.php/%D0%9A%D1%80%D0%BE%D0%BF%D0%B8%D0%B2%D0%BD%D0%B8%D1%86%D1%8C%D0%BA%D0%B8%D0%B9" title="Кропивницький">Кропивницький</a>, <a href="/index.php/%D0%9B%D0%B8%D1%81%D0%B8%D1%87%D0%B0%D0%BD%D1%81%D1%8C%D0%BA" title="Лисичанськ">Лисичанськ</a>, <a href="/index.php/%D0%9B%D1%83%D0%B3%D0%B0%D0%BD%D1%81%D1%8C%D0%BA" title="Луганськ">Луганськ</a>, <a href="/index.php/%D0%9B%D1%83%D1%86%D1%8C%D0%BA" title="Луцьк">Луцьк</a>, <a href="/index.php/%D0%9B%D1%8C%D0%B2%D1%96%D0%B2" title="Львів">Львів</a>, <a href="/index.php/%D0%9C%D0%B0%D0%BA%D1%96%D1%97%D0%B2%D0%BA%D0%B0" title="Макіївка">Макіївка</a>, <a href="/index.php/%D0%9C%D0%B0%D1%80%D1%96%D1%83%D0%BF%D0%BE%D0%BB%D1%8C" title="Маріуполь">Маріуполь</a>, <a href="/index.php/%D0%9C%D0%B5%D0%BB%D1%96%D1%82%D0%BE%D0%BF%D0%BE%D0%BB%D1%8C" title="Мелітополь">Мелітополь</a>, <a href="/index.php/%D0%9C%D0%B8%D0%BA%D0%BE%D0%BB%D0%B0%D1%97%D0%B2" title="Миколаїв">Миколаїв</a>, <a href="/index.php/%D0%9C%D1%83%D0%BA%D0%B0%D1%87%D0%B5%D0%B2%D0%BE" title="Мукачево">Мукачево</a>, <a href="/index.php/%D0%9D%D1%96%D0%B6%D0%B8%D0%BD" title="Ніжин">Ніжин</a>, <a href="/index.php/%D0%9D%D1%96%D0%BA%D0%BE%D0%BF%D0%BE%D0%BB%D1%8C" title="Нікополь">Нікополь</a>, <a href="/index.php/%D0%9E%D0%B4%D0%B5%D1%81%D0%B0" title="Одеса">Одеса</a>, <a href="/index.php/%D0%9E%D1%85%D1%82%D0%B8%D1%80%D0%BA%D0%B0" title="Охтирка">Охтирка</a>, <a href="/index.php/%D0%9F%D0%B0%D0%B2%D0%BB%D0%BE%D0%B3%D1%80%D0%B0%D0%B4" title="Павлоград">Павлоград</a>, <a href="/index.php/%D0%9F%D0%B5%D1%80%D0%B5%D1%8F%D1%81%D0%BB%D0%B0%D0%B2" title="Переяслав">Переяслав</a>, <a href="/index.php/%D0%9F%D0%BE%D0%BB%D1%82%D0%B0%D0%B2%D0%B0" title="Полтава">Полтава</a>, <a href="/index.php/%D0%A0%D1%96%D0%B2%D0%BD%D0%B5" title="Рівне">Рівне</a>, <a href="/index.php/%D0%A1%D0%B0%D0%BC%D0%B1%D1%96%D1%80" title="Самбір">Самбір</a>, <a href="/index.php/%D0%A1%D0%B5%D0%B2%D0%B0%D1%81%D1%82%D0%BE%D0%BF%D0%BE%D0%BB%D1%8C" title="Севастополь">Севастополь</a><span class="smw-list-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F::-3Cq-3E-5D-5D/offset%3D50" title="Спеціальна:Ask/-5B-5BНаселення::-3Cq-3E-5D-5D/offset=50">... подальші результати</a></span><span class="smw-highlighter" data-type="4" data-state="inline" data-title="Помилка"><span class="smwtticon warning"></span><div class="smwttcontent">Підзапити не підтримуються для значень властивості «Населення».</div></span>\n',
  },
  {
    name: 'limit=0: only the further-results link (offset=0)',
    wikitext: '{{#ask:[[Категорія:Супи]]|limit=0}}',
    html: '<p><span class="smw-list-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/offset%3D0" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/offset=0">... подальші результати</a></span>\n</p>',
  },
  {
    name: "a category check printout: SMWBoolValue's 'x' caption, sort value 1, type _boo",
    wikitext: '{{#ask:[[Категорія:Супи]]|?Категорія:Супи|limit=1|searchlabel=}}',
    html: '<table class="sortable wikitable smwtable"><th>&#160;</th><th class="Супи"><a href="/index.php/%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8" title="Категорія:Супи">Супи</a></th><tr class="row-odd"><td class="smwtype_wpg"><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a></td><td data-sort-value="1" class="Супи smwtype_boo"><span style="font-family: sans-serif; ">X</span></td></tr></table>\n',
  },
  {
    name: "a condition past the depth limit (4): SMW's error text, with its '&#x005B;' escaped once more by smwfEncodeMessages",
    wikitext: '{{#ask:[[Розташоване в.Розташоване в.Розташоване в.Розташоване в.Розташоване в::Україна]]}}',
    html: '<span class="smw-highlighter" data-type="4" data-state="inline" data-title="Помилка"><span class="smwtticon warning"></span><div class="smwttcontent">Наступні умови запиту не можуть бути опрацьовані в зв’язку з обмеженнями цього вікі в розмірі та/або глибині запиту: &amp;#x005B;&amp;#x005B;Розташоване в::Україна]].</div></span>\n',
  },
  {
    name: 'URL values link as [url caption] (MediaWiki calls it free when the text is the URL)',
    wikitext: '{{#show:Демонстраційна сторінка|?Сторінка в мережі}}',
    html: '<p><a rel="nofollow" class="external free" href="http://example.net/demo">http://example.net/demo</a>\n</p>',
  },
  {
    name: 'e-mail and telephone values show without their scheme',
    wikitext: '{{#show:Демонстраційна сторінка|?Електронна пошта}} {{#show:Демонстраційна сторінка|?Телефон}}',
    html: '<p><a rel="nofollow" class="external text" href="mailto:demo@example.org">demo@example.org</a> <a rel="nofollow" class="external text" href="tel:+380-44-123-4567">+380-44-123-4567</a>\n</p>',
  },
  {
    name: 'category: the rows under the first letters of their sort keys, in 3 columns of ceil(n/3) items; the comment after each column is removed by the parse',
    wikitext: '{{#ask:[[Категорія:Супи]]|format=category}}',
    html: '<div class="smw-columnlist-container"><div class="smw-column" style="width:33%;"><div class="smw-column-header">Б</div><ul><li><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a> </li></ul><div class="smw-column-header">Г</div><ul><li><a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a> </li></ul></div> <div class="smw-column" style="width:33%;"><div class="smw-column-header">К</div><ul><li><a href="/index.php/%D0%9A%D0%B0%D0%BF%D1%83%D1%81%D0%BD%D1%8F%D0%BA" title="Капусняк">Капусняк</a> </li><li><a href="/index.php/%D0%9A%D1%83%D0%BB%D1%96%D1%88" title="Куліш">Куліш</a> </li></ul></div> <div class="smw-column" style="width:33%;"><div class="smw-column-header">Ю</div><ul><li><a href="/index.php/%D0%AE%D1%88%D0%BA%D0%B0" title="Юшка">Юшка</a> </li></ul></div> \n<br style="clear: both;" /></div>\n',
  },
  {
    name: "category with a printout, delim and columns=2: values natsorted and joined by delim, '(прод.)' where a column starts inside a letter (MediaWiki drops <ul start>), the further-results link in the last letter's list",
    wikitext: '{{#ask:[[Категорія:Супи]]|?Інгредієнт|format=category|columns=2|limit=4|delim=;}}',
    html: '<div class="smw-columnlist-container"><div class="smw-column" style="width:50%;"><div class="smw-column-header">Б</div><ul><li><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a> (<a href="/index.php/Property:%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82" title="Property:Інгредієнт">Інгредієнт</a> <a href="/index.php?title=%D0%91%D1%83%D1%80%D1%8F%D0%BA&amp;action=edit&amp;redlink=1" class="new" title="Буряк (такої сторінки не існує)">Буряк</a>; <a href="/index.php?title=%D0%9A%D0%B0%D0%BF%D1%83%D1%81%D1%82%D0%B0&amp;action=edit&amp;redlink=1" class="new" title="Капуста (такої сторінки не існує)">Капуста</a>; <a href="/index.php?title=%D0%9A%D0%B0%D1%80%D1%82%D0%BE%D0%BF%D0%BB%D1%8F&amp;action=edit&amp;redlink=1" class="new" title="Картопля (такої сторінки не існує)">Картопля</a>)</li></ul><div class="smw-column-header">Г</div><ul><li><a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a> (<a href="/index.php/Property:%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82" title="Property:Інгредієнт">Інгредієнт</a> <a href="/index.php?title=%D0%91%D1%96%D0%BB%D1%96_%D0%B3%D1%80%D0%B8%D0%B1%D0%B8&amp;action=edit&amp;redlink=1" class="new" title="Білі гриби (такої сторінки не існує)">Білі гриби</a>; <a href="/index.php?title=%D0%9A%D0%B0%D1%80%D1%82%D0%BE%D0%BF%D0%BB%D1%8F&amp;action=edit&amp;redlink=1" class="new" title="Картопля (такої сторінки не існує)">Картопля</a>)</li></ul><div class="smw-column-header">К</div><ul><li><a href="/index.php/%D0%9A%D0%B0%D0%BF%D1%83%D1%81%D0%BD%D1%8F%D0%BA" title="Капусняк">Капусняк</a> (<a href="/index.php/Property:%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82" title="Property:Інгредієнт">Інгредієнт</a> <a href="/index.php?title=%D0%9A%D0%B2%D0%B0%D1%88%D0%B5%D0%BD%D0%B0_%D0%BA%D0%B0%D0%BF%D1%83%D1%81%D1%82%D0%B0&amp;action=edit&amp;redlink=1" class="new" title="Квашена капуста (такої сторінки не існує)">Квашена капуста</a>; <a href="/index.php?title=%D0%9F%D1%88%D0%BE%D0%BD%D0%BE&amp;action=edit&amp;redlink=1" class="new" title="Пшоно (такої сторінки не існує)">Пшоно</a>)</li></ul></div> <div class="smw-column" style="width:50%;"><div class="smw-column-header">К (прод.)</div><ul><li><a href="/index.php/%D0%9A%D1%83%D0%BB%D1%96%D1%88" title="Куліш">Куліш</a> (<a href="/index.php/Property:%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82" title="Property:Інгредієнт">Інгредієнт</a> <a href="/index.php?title=%D0%9F%D1%88%D0%BE%D0%BD%D0%BE&amp;action=edit&amp;redlink=1" class="new" title="Пшоно (такої сторінки не існує)">Пшоно</a>; <a href="/index.php/%D0%A1%D0%B0%D0%BB%D0%BE" title="Сало">Сало</a>; <a href="/index.php?title=%D0%A6%D0%B8%D0%B1%D1%83%D0%BB%D1%8F&amp;action=edit&amp;redlink=1" class="new" title="Цибуля (такої сторінки не існує)">Цибуля</a>)</li><li><span class="smw-category-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/-3F%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82/format%3Dcategory/limit%3D4/columns%3D2/delim%3D-3B/offset%3D4" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/-3FІнгредієнт/format=category/limit=4/columns=2/delim=-3B/offset=4">... подальші результати</a></span></li></ul></div> \n<br style="clear: both;" /></div>\n',
  },
  {
    name: "category with mainlabel=-: grouped by the first value's letter, listed under the subject's letter (a new letter goes last)",
    wikitext: '{{#ask:[[Категорія:Супи]]|?Інгредієнт|mainlabel=-|format=category|limit=3|searchlabel=}}',
    html: '<div class="smw-columnlist-container"><div class="smw-column" style="width:33%;"><div class="smw-column-header">Б</div><ul><li><a href="/index.php/Property:%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82" title="Property:Інгредієнт">Інгредієнт</a> <a href="/index.php?title=%D0%91%D1%83%D1%80%D1%8F%D0%BA&amp;action=edit&amp;redlink=1" class="new" title="Буряк (такої сторінки не існує)">Буряк</a>, <a href="/index.php?title=%D0%9A%D0%B0%D0%BF%D1%83%D1%81%D1%82%D0%B0&amp;action=edit&amp;redlink=1" class="new" title="Капуста (такої сторінки не існує)">Капуста</a>, <a href="/index.php?title=%D0%9A%D0%B0%D1%80%D1%82%D0%BE%D0%BF%D0%BB%D1%8F&amp;action=edit&amp;redlink=1" class="new" title="Картопля (такої сторінки не існує)">Картопля</a> </li></ul></div> <div class="smw-column" style="width:33%;"><div class="smw-column-header">Г</div><ul><li><a href="/index.php/Property:%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82" title="Property:Інгредієнт">Інгредієнт</a> <a href="/index.php?title=%D0%91%D1%96%D0%BB%D1%96_%D0%B3%D1%80%D0%B8%D0%B1%D0%B8&amp;action=edit&amp;redlink=1" class="new" title="Білі гриби (такої сторінки не існує)">Білі гриби</a>, <a href="/index.php?title=%D0%9A%D0%B0%D1%80%D1%82%D0%BE%D0%BF%D0%BB%D1%8F&amp;action=edit&amp;redlink=1" class="new" title="Картопля (такої сторінки не існує)">Картопля</a> </li></ul></div> <div class="smw-column" style="width:33%;"><div class="smw-column-header">К</div><ul><li><a href="/index.php/Property:%D0%86%D0%BD%D0%B3%D1%80%D0%B5%D0%B4%D1%96%D1%94%D0%BD%D1%82" title="Property:Інгредієнт">Інгредієнт</a> <a href="/index.php?title=%D0%9A%D0%B2%D0%B0%D1%88%D0%B5%D0%BD%D0%B0_%D0%BA%D0%B0%D0%BF%D1%83%D1%81%D1%82%D0%B0&amp;action=edit&amp;redlink=1" class="new" title="Квашена капуста (такої сторінки не існує)">Квашена капуста</a>, <a href="/index.php?title=%D0%9F%D1%88%D0%BE%D0%BD%D0%BE&amp;action=edit&amp;redlink=1" class="new" title="Пшоно (такої сторінки не існує)">Пшоно</a> </li></ul></div> \n<br style="clear: both;" /></div>\n',
  },
  {
    name: 'category with a template: userparam first, then 1…n and #, expanded',
    wikitext: '{{#ask:[[Категорія:Супи]]|format=category|template=Заглушка|userparam=u|columns=1|limit=2|searchlabel=}}',
    html: '<div class="smw-columnlist-container"><div class="smw-column" style="width:100%;"><div class="smw-column-header">Б</div><ul><li><i>Це незавершена стаття&#32;про <a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a>. Ви можете допомогти, доповнивши її.</i></li></ul><div class="smw-column-header">Г</div><ul><li><i>Це незавершена стаття&#32;про <a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a>. Ви можете допомогти, доповнивши її.</i></li></ul></div> \n<br style="clear: both;" /></div>\n',
  },
  {
    name: "ol in columns: floating divs of ceil(n/columns) rows, the next column's list starts at the next number",
    wikitext: '{{#ask:[[Категорія:Супи]]|format=ol|columns=2|limit=3}}',
    html: '<div style="float: left; width: 50%">\n<ol>\n\t<li data-sortkey="Б"><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a></li>\n\t<li data-sortkey="Г"><a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a></li>\n</ol>\n</div><div style="float: left; width: 50%"><ol start="3">\t<li data-sortkey="К"><a href="/index.php/%D0%9A%D0%B0%D0%BF%D1%83%D1%81%D0%BD%D1%8F%D0%BA" title="Капусняк">Капусняк</a></li>\n<li> <span class="smw-ol-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/format%3Dol/limit%3D3/columns%3D2/offset%3D3" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/format=ol/limit=3/columns=2/offset=3">... подальші результати</a></span></li></ol>\n</div>\n<p><br style="clear: both" />\n</p>',
  },
  {
    name: 'ul with template, introtemplate and outrotemplate: all expanded (the intro after <ul>, the outro before the link)',
    wikitext: '{{#ask:[[Категорія:Супи]]|format=ul|template=Заглушка|introtemplate=Заглушка|outrotemplate=Заглушка|limit=1|searchlabel=}}',
    html: '<ul>\n<i>Це незавершена стаття. Ви можете допомогти, доповнивши її.</i>\t<li><i>Це незавершена стаття&#32;про <a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a>. Ви можете допомогти, доповнивши її.</i></li>\n<i>Це незавершена стаття. Ви можете допомогти, доповнивши її.</i></ul>\n',
  },
  {
    name: 'introtemplate without template: SMW 2.2 does not expand it, so the call stays text and the condition in it is a category link',
    wikitext: '{{#ask:[[Категорія:Супи]]|format=ul|limit=2|introtemplate=Вступ|userparam=0|searchlabel=}}',
    html: '<ul>\n{{Вступ|smw-resultquerycondition=|smw-resultquerylimit=2|smw-resultqueryoffset=0}}\t<li data-sortkey="Б"><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a></li>\n\t<li data-sortkey="Г"><a href="/index.php/%D0%93%D1%80%D0%B8%D0%B1%D0%BD%D0%B0_%D1%8E%D1%88%D0%BA%D0%B0" title="Грибна юшка">Грибна юшка</a></li>\n</ul>\n',
  },
  {
    name: "template with named args: the unlabelled main column is named 1 (PHP reads `'?' . 0 + 1` as 1)",
    wikitext: '{{#ask:[[Категорія:Супи]]|format=template|template=Заглушка|named args=yes|limit=1|searchlabel=}}',
    html: '<p><i>Це незавершена стаття&#32;про <a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a>. Ви можете допомогти, доповнивши її.</i>\n</p>',
  },
  {
    name: 'table with transpose: a row per print request, its header first, the footer cell in the first row',
    wikitext: '{{#ask:[[Категорія:Міста]]|?Населення|limit=2|transpose=yes}}',
    html: '<table class="sortable wikitable smwtable"><tr class="row-odd"><th>&#160;</th><td class="smwtype_wpg"><a href="/index.php/%D0%84%D0%B2%D0%BF%D0%B0%D1%82%D0%BE%D1%80%D1%96%D1%8F" title="Євпаторія">Євпаторія</a></td><td class="smwtype_wpg"><a href="/index.php/%D0%86%D0%B2%D0%B0%D0%BD%D0%BE-%D0%A4%D1%80%D0%B0%D0%BD%D0%BA%D1%96%D0%B2%D1%81%D1%8C%D0%BA" title="Івано-Франківськ">Івано-Франківськ</a></td><td class="sortbottom" colspan="2"><span class="smw-table-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%9C%D1%96%D1%81%D1%82%D0%B0-5D-5D/-3F%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F/limit%3D2/transpose%3Dyes/offset%3D2" title="Спеціальна:Ask/-5B-5BКатегорія:Міста-5D-5D/-3FНаселення/limit=2/transpose=yes/offset=2">... подальші результати</a></span></td></tr><tr class="row-even"><th class="Населення"><a href="/index.php/Property:%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F" title="Property:Населення">Населення</a></th><td data-sort-value="105000" class="Населення smwtype_num">105,000</td><td data-sort-value="235000" class="Населення smwtype_num">235,000</td><td></td></tr></table>\n',
  },
  {
    name: 'list with columns (not its parameter) and ul with columns out of range (1..10): ignored, and left out of the link',
    wikitext: '{{#ask:[[Категорія:Супи]]|columns=2|limit=1|transpose=yes}}\n{{#ask:[[Категорія:Супи]]|format=ul|columns=20|limit=1}}',
    html: '<p><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a><span class="smw-list-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/limit%3D1/offset%3D1" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/limit=1/offset=1">... подальші результати</a></span>\n</p>\n<ul>\n\t<li data-sortkey="Б"><a href="/index.php/%D0%91%D0%BE%D1%80%D1%89" title="Борщ">Борщ</a></li>\n<li> <span class="smw-ul-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/format%3Dul/limit%3D1/offset%3D1" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/format=ul/limit=1/offset=1">... подальші результати</a></span></li></ul>\n',
  },
  {
    name: 'csv inline: no query, only the link to Special:Ask with the format, captioned CSV, offset=0',
    wikitext: '{{#ask:[[Категорія:Супи]]|?Населення|format=csv|sep=;|showsep=yes|filename=супи.csv}}',
    html: '<p><span class="smw-csv-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/-3F%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F/format%3Dcsv/sep%3D-3B/showsep%3Dyes/filename%3D%D1%81%D1%83%D0%BF%D0%B8.csv/offset%3D0" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/-3FНаселення/format=csv/sep=-3B/showsep=yes/filename=супи.csv/offset=0">CSV</a></span>\n</p>',
  },
  {
    name: 'json, rss (the feed format) and rdf: their links, printer parameters given (an invalid one left out), searchlabel as the caption',
    wikitext:
      '{{#ask:[[Категорія:Супи]]|format=json|limit=7|prettyprint=yes}} {{#ask:[[Категорія:Супи]]|format=rss|rsstitle=Т|type=atom|page=abc}} {{#ask:[[Категорія:Супи]]|format=rdf|syntax=turtle|searchlabel=Дані}}',
    html: '<p><span class="smw-json-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/format%3Djson/limit%3D7/prettyprint%3Dyes/offset%3D0" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/format=json/limit=7/prettyprint=yes/offset=0">JSON</a></span> <span class="smw-feed-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/format%3Drss/type%3Datom/title%3D%D0%A2/offset%3D0" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/format=rss/type=atom/title=Т/offset=0">RSS</a></span> <span class="smw-rdf-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/format%3Drdf/searchlabel%3D%D0%94%D0%B0%D0%BD%D1%96/syntax%3Dturtle/offset%3D0" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/format=rdf/searchlabel=Дані/syntax=turtle/offset=0">Дані</a></span>\n</p>',
  },
  {
    name: 'dsv: sep is an alias of separator; an empty searchlabel prints nothing',
    wikitext: '{{#ask:[[Категорія:Супи]]|format=dsv|sep=;}}|{{#ask:[[Категорія:Супи]]|format=dsv|searchlabel=}}|',
    html: '<p><span class="smw-dsv-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%A1%D1%83%D0%BF%D0%B8-5D-5D/format%3Ddsv/separator%3D-3B/offset%3D0" title="Спеціальна:Ask/-5B-5BКатегорія:Супи-5D-5D/format=dsv/separator=-3B/offset=0">DSV</a></span>||\n</p>',
  },
  {
    name: 'an export format with a query error: the link, then the error box',
    wikitext: '{{#ask:[[Населення::<q>]]|format=csv|default=Нічого}}',
    html: '<span class="smw-csv-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9D%D0%B0%D1%81%D0%B5%D0%BB%D0%B5%D0%BD%D0%BD%D1%8F::-3Cq-3E-5D-5D/format%3Dcsv/default%3D%D0%9D%D1%96%D1%87%D0%BE%D0%B3%D0%BE/offset%3D0" title="Спеціальна:Ask/-5B-5BНаселення::-3Cq-3E-5D-5D/format=csv/default=Нічого/offset=0">CSV</a></span><span class="smw-highlighter" data-type="4" data-state="inline" data-title="Помилка"><span class="smwtticon warning"></span><div class="smwttcontent">Підзапити не підтримуються для значень властивості «Населення».</div></span>\n',
  },
  {
    name: 'category where no row has a first value: smw-qp-empty-data, intro still printed (there are results)',
    wikitext: '{{#ask:[[Категорія:Супи]]|?Населення|mainlabel=-|format=category|intro=Вступ:_}}',
    html: 'Вступ: <span class="smw-highlighter" data-type="4" data-state="inline" data-title="Помилка"><span class="smwtticon warning"></span><div class="smwttcontent">Запитані дані не можуть відображатися через деякі недостатні критерії відбору.</div></span>\n',
  },
];

describe('inline queries: SMW 2.2 printers in a parsed page', () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const r = await parse(c.wikitext);
      assert.equal(r.parse.text, c.html);
    });
  }
});

describe('inline queries: bounds, templates, links', () => {
  it('at most MAX_INLINE_QUERIES distinct queries a page; the calls past it output nothing', async () => {
    const calls = Array.from({ length: MAX_INLINE_QUERIES + 2 }, (_, i) => `{{#ask:[[Категорія:Супи]]|format=count|intro=q${i}:}}`);
    const r = await parse(calls.join(' '));
    const counted = [...(r.parse.text as string).matchAll(/q(\d+):5/g)].map((m) => Number(m[1]));
    assert.equal(counted.length, MAX_INLINE_QUERIES);
    assert.deepEqual(
      counted,
      Array.from({ length: MAX_INLINE_QUERIES }, (_, i) => i),
    );
  });

  it('the same query twice runs once and prints twice', async () => {
    const r = await parse('{{#ask:[[Категорія:Супи]]|format=count}} {{#ask:[[Категорія:Супи]]|format=count}}');
    assert.equal(r.parse.text, '<p>5 5\n</p>');
  });

  it('format=template: one call per row with the printouts as 1, 2, … and #, expanded (the template is recorded)', async () => {
    const r = await parse(
      '{{#ask:[[Категорія:Супи]]|?Населення|format=template|template=Немає шаблону|limit=2|searchlabel=}}',
      'text|templates',
    );
    assert.deepEqual(r.parse.templates, [{ ns: 10, title: 'Шаблон:Немає шаблону', exists: false }]);
    const links = (r.parse.text as string).match(/title="Шаблон:Немає шаблону \(такої сторінки не існує\)"/g) ?? [];
    assert.equal(links.length, 2);
  });

  it('result pages are links of the page, as MediaWiki records the parsed output', async () => {
    const r = await parse('{{#ask:[[Категорія:Супи]]|limit=2|searchlabel=}}', 'links');
    assert.deepEqual(
      r.parse.links.map((l: { title: string }) => l.title),
      ['Борщ', 'Грибна юшка'],
    );
  });

  it('an inline query inside a template parameter is evaluated with the expanded arguments', async () => {
    const r = await parse('{{#if:1|{{#ask:[[Категорія:{{#if:1|Супи}}]]|format=count}}}}');
    assert.equal(r.parse.text, '<p>5\n</p>');
  });
});

describe('inline queries: format=embedded', () => {
  it('each result page transcluded under a linked heading (embedformat=h3); the page being parsed shows in bold instead', async () => {
    const r = await parse(
      '{{#ask:[[Борщ]] OR [[Куліш]]|format=embedded|embedformat=h3|searchlabel=}}',
      'text|templates|categories',
      'Борщ',
    );
    const text = r.parse.text as string;
    const head =
      '<h3><span class="mw-headline" id=".D0.91.D0.BE.D1.80.D1.89"><strong class="selflink">Борщ</strong></span></h3>\n<b>Борщ</b>' +
      '<h3><span class="mw-headline" id=".D0.9A.D1.83.D0.BB.D1.96.D1.88"><a href="/index.php/%D0%9A%D1%83%D0%BB%D1%96%D1%88" title="Куліш">Куліш</a></span></h3>\n';
    assert.equal(text.slice(0, head.length), head);
    // Куліш's text, its infobox template expanded for the page being parsed ({{PAGENAME}} is Борщ)
    assert.match(text.slice(head.length), /^<table class="infobox">\n<tr>\n<th> Борщ\n<\/th><\/tr>[\s\S]*<b>Куліш<\/b> — /);
    assert.deepEqual(
      (r.parse.templates as Array<{ title: string }>).map((t) => t.title),
      ['Куліш', 'Шаблон:Страва', 'Шаблон:Без джерел'],
    );
    assert.ok((r.parse.categories as Array<{ category: string }>).some((c) => c.category === 'Супи'));
  });

  it('embedonly: no headings', async () => {
    const r = await parse('{{#ask:[[Борщ]]|format=embedded|embedonly=yes}}', 'text', 'Борщ');
    assert.equal(r.parse.text, '<p><b>Борщ</b>\n</p>');
  });

  it('embedformat=ul: one item per page (title, <br />, text), the further-results link as the last item', async () => {
    const r = await parse('{{#ask:[[Категорія:Персонажі]]|format=embedded|embedformat=ul|limit=1}}');
    const text = r.parse.text as string;
    const head =
      '<ul><li><a href="/index.php/Amelia_Kovalenko" title="Amelia Kovalenko">Amelia Kovalenko</a><br />\n<b>Amelia Kovalenko</b> — ';
    const tail =
      '</li>\n<li><span class="smw-embedded-furtherresults"><a href="/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:Ask/-5B-5B%D0%9A%D0%B0%D1%82%D0%B5%D0%B3%D0%BE%D1%80%D1%96%D1%8F:%D0%9F%D0%B5%D1%80%D1%81%D0%BE%D0%BD%D0%B0%D0%B6%D1%96-5D-5D/format%3Dembedded/limit%3D1/embedformat%3Dul/offset%3D1" title="Спеціальна:Ask/-5B-5BКатегорія:Персонажі-5D-5D/format=embedded/limit=1/embedformat=ul/offset=1">... подальші результати</a></span></li>\n</ul>\n';
    assert.equal(text.slice(0, head.length), head);
    assert.equal(text.slice(-tail.length), tail);
  });

  it('on another page the same query transcludes the page ({{:Борщ}}), recorded as a template', async () => {
    const r = await parse('{{#ask:[[Борщ]]|format=embedded|embedonly=yes}}', 'text|templates', 'API');
    assert.equal(((r.parse.text as string).match(/<b>Борщ<\/b> — /g) ?? []).length, 1);
    assert.ok((r.parse.templates as Array<{ ns: number; title: string }>).some((t) => t.ns === 0 && t.title === 'Борщ'));
  });
});

describe("PHP natsort order (CategoryResultPrinter sorts each field's values)", () => {
  it('digit runs by value, leading zeros and whitespace skipped, bytes otherwise', () => {
    assert.deepEqual(['img12.png', 'img10.png', 'img2.png', 'img1.png', 'IMG3.png'].sort(strnatcmp), [
      'IMG3.png',
      'img1.png',
      'img2.png',
      'img10.png',
      'img12.png',
    ]);
    assert.deepEqual(['8', '10', '011', '0'].sort(strnatcmp), ['0', '8', '10', '011']);
    assert.equal(strnatcmp('x 0.05', 'x 0.5'), -1); // a run starting with 0 compares left-aligned…
    assert.equal(strnatcmp('x 0.25', 'x 0.5'), 1); // …others by length first
    assert.equal(strnatcmp('а  10', 'а2'), 1);
    assert.equal(strnatcmp('Картопля', 'Капуста'), 1);
    assert.equal(strnatcmp('', 'a'), -1);
  });
});

describe('inline queries: parameters', () => {
  it('an offset above $smwgQUpperbound (5000) is the default 0, and the link leaves it out', async () => {
    const r = await parse('{{#ask:[[Категорія:Супи]]|limit=2|offset=9999}}');
    assert.match(
      r.parse.text,
      /^<p><a [^>]*>Борщ<\/a>, <a [^>]*>Грибна юшка<\/a><span class="smw-list-furtherresults"><a [^>]* title="Спеціальна:Ask\/-5B-5BКатегорія:Супи-5D-5D\/limit=2\/offset=2">/,
    );
  });

  it('limit is bounded by $smwgQMaxInlineLimit (500) less the offset; count ignores limit and offset', async () => {
    assert.deepEqual(inlineBounds(0, 100000, 'table'), { offset: 0, limit: 500 });
    assert.deepEqual(inlineBounds(497, 100000, 'ul'), { offset: 497, limit: 3 });
    assert.deepEqual(inlineBounds(4000, 10, 'list'), { offset: 500, limit: 0 });
    assert.deepEqual(inlineBounds(7, 2, 'count'), { offset: 0, limit: 10000 });
    const all = await parse('{{#ask:[[Населення::+]]|format=count}}');
    const n = Number(/^<p>(\d+)/.exec(all.parse.text)![1]);
    assert.ok(n > 50, `${n} pages with a population`);
    assert.equal((await parse('{{#ask:[[Населення::+]]|format=count|limit=1|offset=3}}')).parse.text, `<p>${n}\n</p>`);
  });

  it('a format not printed here (Semantic Result Formats) shows the call as written, without links or categories from it', async () => {
    const r = await parse('{{#ask:[[Категорія:Супи]]|format=googlemaps3}}', 'text|categories|links');
    assert.equal(
      r.parse.text,
      '<p>&#123;&#123;&#35;ask&#58;&#91;&#91;Категорія&#58;Супи&#93;&#93;&#124;format&#61;googlemaps3&#125;&#125;\n</p>',
    );
    assert.deepEqual([r.parse.categories, r.parse.links], [[], []]);
  });
});

describe('SMW NumberFormatter', () => {
  it('thousands, decimals, trailing zeros, scientific', () => {
    assert.equal(formatNumber(2884000), '2,884,000');
    assert.equal(formatNumber(3.5), '3.5');
    assert.equal(formatNumber(-1234.5678), '-1,234.568');
    assert.equal(formatNumber(0.00123), '0.00123');
    assert.equal(formatNumber(1e13), '1.0e+13'); // preg_replace('/(\.\d+?)0*e/') keeps one digit
    assert.equal(formatNumber(0), '0');
  });
});

/**
 * The links of inline query results at import: a small wiki whose queries' results link pages, property
 * pages and files, call a template (format=template) that adds a category, and one page whose query sits
 * in a template. The link tables must hold what action=parse reports for the same page.
 */
describe('inline queries: their results are links of the page in the imported link tables', () => {
  let w: DemoServer;
  let tmp: string;
  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'wikiquery-asklinks-'));
    const pages: DumpPage[] = [];
    let id = 1;
    const add = (ns: number, title: string, text: string) =>
      pages.push({
        title,
        ns,
        id: id++,
        revisions: [{ id: 1000 + id, timestamp: '2015-06-01T12:30:45Z', contributor: { name: 'Адмін', id: 1 }, text }],
      });
    add(102, 'Річка', '[[Has type::Page]]');
    add(102, 'Довжина', '[[Has type::Number]]');
    add(102, 'Герб', '[[Has type::Page]]');
    // a chain of subproperties: Ліва притока ⊂ Притока ⊂ Річка
    add(102, 'Притока', '[[Has type::Page]] [[Subproperty of::Річка]]');
    add(102, 'Ліва притока', '[[Has type::Page]] [[Subproperty of::Property:Притока]]');
    add(0, 'Гірки', '[[Ліва притока::Дніпро]]');
    add(0, 'Альта', '[[Річка::Дніпро]] [[Довжина::12]] [[Герб::Файл:Альта.png]] [[Категорія:Села]]');
    add(0, 'Бірки', '[[Річка::Десна]] [[Довжина::30]] [[Категорія:Села]]');
    add(0, 'Вишні', '[[Річка::Дніпро]] [[Довжина::7]] [[Категорія:Села]]');
    add(10, 'Рядок села', '<includeonly>* {{{1}}} ({{{2}}})[[Категорія:Сторінки зі списками сіл]]</includeonly>');
    add(10, 'Села на Дніпрі', '<includeonly>{{#ask:[[Річка::Дніпро]]|format=ul|searchlabel=}}</includeonly>');
    add(0, 'Таблиця', '{{#ask:[[Категорія:Села]]|?Річка|?Герб|limit=2}}');
    add(0, 'Шаблонний список', '{{#ask:[[Категорія:Села]]|?Довжина|format=template|template=Рядок села|searchlabel=}}');
    add(0, 'Через шаблон', '{{Села на Дніпрі}}');
    add(0, 'Порожній запит', '{{#ask:[[Річка::Дунай]]}} [[Альта]]');
    fs.writeFileSync(path.join(tmp, 'dump.xml'), xmlHeader() + pages.map(xmlPage).join('') + XML_FOOTER);
    const db = path.join(tmp, 'wiki.sqlite');
    await importWiki({
      dump: path.join(tmp, 'dump.xml'),
      db,
      lang: 'uk',
      hooks: importHooks(),
      inlineQueries: importInlineQueries(),
      log: () => {},
    });
    w = await startDemoServer({ db });
  });
  after(async () => {
    await w?.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  const titles = (list: Array<{ title: string }> | undefined) => (list ?? []).map((x) => x.title);
  const stored = async (title: string) => {
    const r = await w.get({
      action: 'query',
      titles: title,
      prop: 'links|templates|categories|images',
      pllimit: 'max',
      tllimit: 'max',
      cllimit: 'max',
      imlimit: 'max',
      formatversion: '2',
    });
    const p = r.json.query.pages[0];
    return { links: titles(p.links), templates: titles(p.templates), categories: titles(p.categories), images: titles(p.images) };
  };
  const parsed = async (title: string) => {
    const p = (await w.get({ action: 'parse', page: title, prop: 'links|templates|categories|images', formatversion: '2' })).json.parse;
    const sortByTitle = (a: string[]) => [...a].sort();
    return {
      links: sortByTitle(titles(p.links)),
      templates: sortByTitle(titles(p.templates)),
      // the import names tracking categories by the --messages it was given (none here); parse has built-in texts
      categories: sortByTitle(
        (p.categories as Array<{ category: string; hidden?: boolean }>)
          .filter((c) => !c.category.startsWith('Сторінки,_що_посилаються'))
          .map((c) => 'Категорія:' + c.category.replace(/_/g, ' ')),
      ),
      images: sortByTitle((p.images as string[]).map((f) => 'Файл:' + f.replace(/_/g, ' '))),
    };
  };

  it('a table: result pages, page values, the property pages of its headers and a file value', async () => {
    assert.deepEqual(await stored('Таблиця'), {
      links: ['Альта', 'Бірки', 'Десна', 'Дніпро', 'Property:Герб', 'Property:Річка'],
      templates: [],
      categories: [],
      images: ['Файл:Альта.png'],
    });
  });

  it('format=template: the template, the categories and links its expansion adds', async () => {
    assert.deepEqual(await stored('Шаблонний список'), {
      links: ['Альта', 'Бірки', 'Вишні'],
      templates: ['Шаблон:Рядок села'],
      categories: ['Категорія:Сторінки зі списками сіл'],
      images: [],
    });
    const members = await w.get({
      action: 'query',
      list: 'categorymembers',
      cmtitle: 'Категорія:Сторінки зі списками сіл',
      formatversion: '2',
    });
    assert.deepEqual(titles(members.json.query.categorymembers), ['Шаблонний список']);
    const info = await w.get({ action: 'query', prop: 'categoryinfo', titles: 'Категорія:Сторінки зі списками сіл', formatversion: '2' });
    assert.deepEqual(info.json.query.pages[0].categoryinfo, { size: 1, pages: 1, files: 0, subcats: 0, hidden: false });
  });

  it('a query in a template: the page calling the template links its results (subproperties included)', async () => {
    assert.deepEqual((await stored('Через шаблон')).links, ['Альта', 'Вишні', 'Гірки']);
  });

  it('a condition on a property holds for the values of its subproperties, to any depth; not the other way', async () => {
    const ask = async (query: string) => Object.keys((await w.get({ action: 'ask', query })).json.query.results);
    assert.deepEqual(await ask('[[Річка::Дніпро]]'), ['Альта', 'Вишні', 'Гірки']);
    assert.deepEqual(await ask('[[Притока::Дніпро]]'), ['Гірки']);
    assert.deepEqual(await ask('[[Ліва притока::+]]'), ['Гірки']);
    assert.deepEqual(await ask('[[Річка::Десна]] OR [[Притока::+]]'), ['Бірки', 'Гірки']);
    assert.deepEqual(await ask('[[-Річка::Гірки]]'), ['Дніпро']);
    assert.deepEqual(await ask('[[-Притока::Альта]]'), []);
  });

  it('no results: only the links written in the page', async () => {
    assert.deepEqual((await stored('Порожній запит')).links, ['Альта']);
  });

  it('the link tables hold what action=parse finds in each page', async () => {
    for (const t of ['Таблиця', 'Шаблонний список', 'Через шаблон', 'Порожній запит']) {
      const s = await stored(t);
      assert.deepEqual(
        {
          ...s,
          links: [...s.links].sort(),
          templates: [...s.templates].sort(),
          categories: [...s.categories].sort(),
          images: [...s.images].sort(),
        },
        await parsed(t),
        t,
      );
    }
  });

  it('backlinks and the pages a file is used on include the pages whose queries show them', async () => {
    const bl = await w.get({ action: 'query', list: 'backlinks', bltitle: 'Вишні', formatversion: '2' });
    assert.deepEqual(titles(bl.json.query.backlinks).sort(), ['Через шаблон', 'Шаблонний список']);
    assert.deepEqual(
      titles((await w.get({ action: 'query', list: 'backlinks', bltitle: 'Гірки', formatversion: '2' })).json.query.backlinks),
      ['Через шаблон'],
    );
    const iu = await w.get({ action: 'query', list: 'imageusage', iutitle: 'Файл:Альта.png', formatversion: '2' });
    assert.deepEqual(titles(iu.json.query.imageusage), ['Таблиця']);
  });
});
