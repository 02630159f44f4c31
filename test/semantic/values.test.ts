/**
 * Semantic MediaWiki's value parsing per data type (numbers, dates, URIs, e-mail addresses, telephone
 * numbers, geographic coordinates, pages, booleans) and property labels.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBoolean, parsePage, parseValue } from '../../src/semantic/datavalues/values.js';
import { parseDate } from '../../src/semantic/datavalues/time.js';
import { parseEmail, parseTelephone, parseUrl } from '../../src/semantic/datavalues/uri.js';
import { parseGeo } from '../../src/semantic/datavalues/geo.js';
import { parseNumber } from '../../src/semantic/datavalues/number.js';
import { propertyKeyFromLabel, typeIdFromLabel } from '../../src/semantic/types.js';
import { TitleCodec } from '../../src/wiki/titles.js';

const codec = TitleCodec.forSite('Демовікі');

describe('values per type', () => {
  const item = (r: ReturnType<typeof parseNumber>) => ('error' in r ? `error:${r.error}` : r.item);
  it('Number: decimal comma and point, thousands separators, exponent, no unit', () => {
    assert.equal(item(parseNumber('12345')), '12345');
    assert.equal(item(parseNumber('1 234 567,5')), '1234567.5');
    assert.equal(item(parseNumber('1\u00a0234')), '1234');
    assert.equal(item(parseNumber('3,14')), '3.14');
    assert.equal(item(parseNumber('3.14')), '3.14');
    assert.equal(item(parseNumber('1,234,567.25')), '1234567.25');
    assert.equal(item(parseNumber('1.234.567,25')), '1234567.25');
    assert.equal(item(parseNumber('−12')), '-12');
    assert.equal(item(parseNumber('1.5e3')), '1500');
    assert.equal(item(parseNumber('1e20')), '1.0E+20');
    assert.match(item(parseNumber('багато')), /^error/);
    assert.match(item(parseNumber('12 осіб')), /^error/);
    assert.match(item(parseNumber('')), /^error/);
  });
  it('Boolean in English and Ukrainian', () => {
    for (const t of ['true', 'Так', 'ТАК', '1', 'yes', 't']) assert.equal(item(parseBoolean(t)), 't', t);
    for (const f of ['false', 'ні', 'Ні', '0', 'no', 'f']) assert.equal(item(parseBoolean(f)), 'f', f);
    assert.match(item(parseBoolean('можливо')), /^error/);
  });
  it('Date: ISO, Ukrainian and English month names, year only, BC, Julian before 1582', () => {
    assert.equal(item(parseDate('1991-08-24')), '1/1991/8/24');
    assert.equal(item(parseDate('1 січня 2015')), '1/2015/1/1');
    assert.equal(item(parseDate('24 серпня 1991 року')), '1/1991/8/24');
    assert.equal(item(parseDate('2015')), '1/2015');
    assert.equal(item(parseDate('березень 2014')), '1/2014/3');
    assert.equal(item(parseDate('Jan 1, 2015')), '1/2015/1/1');
    assert.equal(item(parseDate('1 January 2015')), '1/2015/1/1');
    assert.equal(item(parseDate('24.08.1991')), '1/1991/8/24');
    assert.equal(item(parseDate('2015-06-01T12:30:45Z')), '1/2015/6/1/12/30/45');
    assert.equal(item(parseDate('482')), '2/482');
    assert.equal(item(parseDate('500 BC')), '2/-500');
    assert.equal(item(parseDate('44 до н. е.')), '2/-44');
    assert.match(item(parseDate('2015-02-30')), /^error/);
    assert.match(item(parseDate('невідомо коли')), /^error/);
  });
  it('URL, Email, Telephone number', () => {
    assert.equal(item(parseUrl('https://demo.example.org/path?x=1#frag')), 'https://demo.example.org/path?x=1#frag');
    assert.equal(item(parseUrl('example.org/a b')), 'http://example.org/a%20b');
    assert.equal(item(parseUrl('https://uk.example.org/Київ')), 'https://uk.example.org/%D0%9A%D0%B8%D1%97%D0%B2');
    assert.equal(item(parseUrl('mailto:x@example.org')), 'mailto:x@example.org');
    assert.equal(item(parseEmail('demo@example.org')), 'mailto:demo@example.org');
    assert.equal(item(parseEmail('mailto:demo@example.org')), 'mailto:demo@example.org');
    assert.match(item(parseEmail('не пошта')), /^error/);
    assert.equal(item(parseTelephone('+380 44 123 4567')), 'tel:+380-44-123-4567');
    assert.equal(item(parseTelephone('tel:+380441234567')), 'tel:+380441234567');
    assert.equal(item(parseTelephone('00380 44 123 4567')), 'tel:+380-44-123-4567');
    assert.match(item(parseTelephone('123')), /^error/);
  });
  it('Geographic coordinate: decimal and degrees/minutes/seconds', () => {
    assert.equal(item(parseGeo('50.45, 30.52')), '50.45,30.52');
    assert.equal(item(parseGeo('50,45; 30,52')), '50.45,30.52');
    assert.equal(item(parseGeo('50°27′N, 30°31′12″E')), '50.45,30.52');
    assert.equal(item(parseGeo('33°51′S 151°12′E')), '-33.85,151.2');
    assert.match(item(parseGeo('95, 30')), /^error/);
  });
  it('Page and Text', () => {
    assert.equal(item(parsePage('київська_область', codec)), 'Київська_область#0#');
    assert.equal(item(parsePage('Категорія:міста', codec)), 'Міста#14#');
    assert.equal(item(parsePage('Міста', codec, 14)), 'Міста#14#');
    assert.match(item(parsePage('[[', codec)), /^error/);
    assert.equal(item(parseValue('_txt', '  Текст з пробілами ', codec)!), 'Текст з пробілами');
  });
  it('type labels in English and Ukrainian; property keys', () => {
    const labels: Array<[string, string]> = [
      ['Page', '_wpg'],
      ['Сторінка', '_wpg'],
      ['Text', '_txt'],
      ['Текст', '_txt'],
      ['String', '_str'],
      ['Рядок', '_str'],
      ['Number', '_num'],
      ['Число', '_num'],
      ['Boolean', '_boo'],
      ['Булеве', '_boo'],
      ['Логічний', '_boo'],
      ['Date', '_dat'],
      ['Дата', '_dat'],
      ['URL', '_uri'],
      ['Email', '_ema'],
      ['Telephone number', '_tel'],
      ['Номер телефону', '_tel'],
      ['Geographic coordinate', '_geo'],
      ['Географічна координата', '_geo'],
      ['number', '_num'],
    ];
    for (const [l, id] of labels) assert.equal(typeIdFromLabel(l), id, l);
    assert.equal(typeIdFromLabel('Foo'), undefined);
    assert.equal(propertyKeyFromLabel(' розташоване  в '), 'Розташоване_в');
    assert.equal(propertyKeyFromLabel('Has type'), '_TYPE');
    assert.equal(propertyKeyFromLabel('має тип'), '_TYPE');
    assert.equal(propertyKeyFromLabel('a|b'), null);
  });
});
