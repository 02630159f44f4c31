/**
 * Magic words in the preprocessor: page name, subpage, site and time variables, case, those left as written, DEFAULTSORT.
 */
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { expand, x } from '../helpers/mini-wiki.js';

// ---------------------------------------------------------------------------------------------------
// Magic words
// ---------------------------------------------------------------------------------------------------

describe('magic words', () => {
  test('page name variables render with spaces', () => {
    const r = (w: string, title: string, ns = 0): string => x(`{{${w}}}`, {}, title, ns);
    assert.equal(r('PAGENAME', 'Біла Церква'), 'Біла Церква');
    assert.equal(r('PAGENAMEE', 'Біла Церква'), '%D0%91%D1%96%D0%BB%D0%B0_%D0%A6%D0%B5%D1%80%D0%BA%D0%B2%D0%B0');
    assert.equal(r('FULLPAGENAME', 'Місто', 10), 'Шаблон:Місто');
    assert.equal(r('FULLPAGENAMEE', 'A b', 10), '%D0%A8%D0%B0%D0%B1%D0%BB%D0%BE%D0%BD:A_b');
    assert.equal(r('NAMESPACE', 'Місто', 10), 'Шаблон');
    assert.equal(r('NAMESPACE', 'Київ'), '');
    assert.equal(r('NAMESPACENUMBER', 'Місто', 10), '10');
    assert.equal(r('TALKPAGENAME', 'Місто', 10), 'Обговорення шаблону:Місто');
    assert.equal(r('НАЗВА_СТОРІНКИ', 'Львів'), 'Львів');
  });

  test('subpage variables depend on the namespace', () => {
    const r = (w: string, title: string, ns: number): string => x(`{{${w}}}`, {}, title, ns);
    assert.equal(r('BASEPAGENAME', 'Іван/Чернетка/Новий', 2), 'Іван/Чернетка');
    assert.equal(r('SUBPAGENAME', 'Іван/Чернетка/Новий', 2), 'Новий');
    assert.equal(r('ROOTPAGENAME', 'Іван/Чернетка/Новий', 2), 'Іван');
    // the main namespace has no subpages
    assert.equal(r('BASEPAGENAME', 'AC/DC', 0), 'AC/DC');
    assert.equal(r('SUBPAGENAME', 'AC/DC', 0), 'AC/DC');
  });

  test('names are escaped as MediaWiki does (entities)', () => {
    assert.equal(x('{{PAGENAME}}', {}, "Кам'янець-Подільський"), 'Кам&#39;янець-Подільський');
    assert.equal(x('{{PAGENAME}}', {}, 'A=B & "C"'), 'A&#61;B &#38; &#34;C&#34;');
  });

  test('the optional :title argument', () => {
    assert.equal(
      x('{{PAGENAME: шаблон:foo bar }}|{{NAMESPACE:Категорія:X}}|{{FULLPAGENAME:Template:x_y}}|{{PAGENAME:}}'),
      'Foo bar|Категорія|Шаблон:X y|',
    );
    assert.equal(x('{{BASEPAGENAME:Користувач:A/B/C}}|{{SUBPAGENAME:Користувач:A/B/C}}'), 'A/B|C');
  });

  test('page names inside templates are those of the page being rendered', () => {
    assert.equal(x('{{T}}', { 'Шаблон:T': '{{PAGENAME}}/{{NAMESPACE}}' }, 'Одеса'), 'Одеса/');
  });

  test('SITENAME comes from the context, else stays as written', () => {
    assert.equal(expand('{{SITENAME}}', {}, 'X', 0, { siteName: 'Вікі' }).text, 'Вікі');
    assert.equal(x('{{SITENAME}}'), '{{SITENAME}}');
  });

  test('variables are case-sensitive; other cases are template calls', () => {
    const r = expand('{{pagename}}');
    assert.equal(r.text, '[[:Шаблон:Pagename]]');
  });

  test('time variables use ctx.now', () => {
    const now = new Date(Date.UTC(2015, 4, 7, 9, 5, 3));
    const r = expand(
      '{{CURRENTYEAR}}-{{CURRENTMONTH}}-{{CURRENTDAY2}} {{CURRENTTIME}} {{CURRENTMONTHNAMEGEN}} {{CURRENTTIMESTAMP}}',
      {},
      'X',
      0,
      { now },
    );
    assert.equal(r.text, '2015-05-07 09:05 травня 20150507090503');
  });

  test('variables MediaWiki knows but that need the live wiki stay as written', () => {
    const r = expand('{{NUMBEROFARTICLES}} {{fullurl:Київ}}');
    assert.equal(r.text, '{{NUMBEROFARTICLES}} {{fullurl:Київ}}');
    assert.deepEqual(r.templates, []);
  });

  test('DEFAULTSORT family: recorded, removed from the text, the last one wins', () => {
    const r = expand('a{{DEFAULTSORT:Перший}}b{{DEFAULTSORTKEY:Другий}}c');
    assert.equal(r.text, 'abc');
    assert.equal(r.defaultSort, 'Другий');
    assert.equal(expand('{{DEFAULTCATEGORYSORT: Київ, місто }}').defaultSort, 'Київ, місто');
    assert.equal(expand('{{СОРТУВАННЯ_ЗА_ЗАМОВЧУВАННЯМ:Ключ}}').defaultSort, 'Ключ');
    assert.equal(expand('{{DEFAULTSORT:А}}{{DEFAULTSORT:Б|noreplace}}').defaultSort, 'А');
    assert.equal(expand('text').defaultSort, undefined);
    assert.equal(expand('{{T}}', { 'Шаблон:T': '{{DEFAULTSORT:{{PAGENAME}}, місто}}' }, 'Київ').defaultSort, 'Київ, місто');
  });
});
