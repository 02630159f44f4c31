/**
 * src/php: the PHP behaviours wikiquery imitates, against the results php.net documents (and PHP 5's
 * for the cases where PHP 7 or 8 changed them: trailing blanks make a string non-numeric).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { phpLooseEquals, phpLooseGreater, strnatcmp } from '../../src/php/compare.js';
import { phpJsonEncode, PhpMap } from '../../src/php/json.js';
import { isNumericString, phpFloatCast, phpFloatToString, phpFloatval, phpIntCast, phpIntval, phpRound } from '../../src/php/numbers.js';
import { phpSerializeString, phpUnserialize } from '../../src/php/serialize.js';
import { md5, phpArraySlice, phpExplodeLimit, phpTrim } from '../../src/php/strings.js';
import { phpUrlencode, rawUrlEncode } from '../../src/php/url.js';

describe('PHP strings', () => {
  it('trim() strips " \\t\\n\\r\\0\\x0B" only', () => {
    assert.equal(phpTrim('\t\tThese are a few words :) ...  '), 'These are a few words :) ...');
    assert.equal(phpTrim('\0\x0B x \n\r'), 'x');
    assert.equal(phpTrim('\u00a0x\u00a0'), '\u00a0x\u00a0');
    assert.equal(phpTrim('\f x'), '\f x');
    assert.equal(phpTrim('   '), '');
  });
  it('explode() with a limit keeps the rest in the last piece', () => {
    assert.deepEqual(phpExplodeLimit('one|two|three|four', '|', 2), ['one', 'two|three|four']);
    assert.deepEqual(phpExplodeLimit('one|two', '|', 5), ['one', 'two']);
  });
  it('array_slice() with negative offsets and lengths', () => {
    const input = ['a', 'b', 'c', 'd', 'e'];
    assert.deepEqual(phpArraySlice(input, 2), ['c', 'd', 'e']);
    assert.deepEqual(phpArraySlice(input, -2, 1), ['d']);
    assert.deepEqual(phpArraySlice(input, 0, 3), ['a', 'b', 'c']);
    assert.deepEqual(phpArraySlice(input, 1, -2), ['b', 'c']);
    assert.deepEqual(phpArraySlice(input, 9), []);
  });
  it('md5() of the UTF-8 bytes', () => {
    assert.equal(md5('apple'), '1f3870be274f6c49b3e31a0c6728957f');
    assert.equal(md5(''), 'd41d8cd98f00b204e9800998ecf8427e');
  });
});

describe('PHP numbers', () => {
  it('(string) of a float: precision 14, %.14G', () => {
    const cases: Array<[number, string]> = [
      [1, '1'],
      [-0, '-0'],
      [0.1 + 0.2, '0.3'],
      [1 / 3, '0.33333333333333'],
      [1e15, '1.0E+15'],
      [1e14, '1.0E+14'],
      [99999999999999, '99999999999999'],
      [0.0001, '0.0001'],
      [0.00001, '1.0E-5'],
      [-1.5e-7, '-1.5E-7'],
      [NaN, 'NAN'],
      [Infinity, 'INF'],
      [-Infinity, '-INF'],
      [7e-10, '7.0E-10'],
      [1.2345678901234568, '1.2345678901235'],
    ];
    for (const [n, s] of cases) assert.equal(phpFloatToString(n), s, String(n));
  });
  it('(string) of a float rounds an exact tie to even, as zend_dtoa does', () => {
    assert.equal(phpFloatToString(31503696262930.5), '31503696262930');
    assert.equal(phpFloatToString(31503696262931.5), '31503696262932');
    assert.equal(phpFloatToString(123456789012345), '1.2345678901234E+14');
    assert.equal(phpFloatToString(123456789012355), '1.2345678901236E+14');
    assert.equal(phpFloatToString(31503696262930.75), '31503696262931');
  });
  it('round() halves away from zero, with negative places', () => {
    assert.equal(phpRound(3.4, 0), 3);
    assert.equal(phpRound(3.5, 0), 4);
    assert.equal(phpRound(-3.5, 0), -4);
    assert.equal(phpRound(1.95583, 2), 1.96);
    assert.equal(phpRound(1241757, -3), 1242000);
    assert.equal(phpRound(5.045, 2), 5.05);
    assert.equal(phpRound(5.055, 2), 5.06);
  });
  it('(int), (float), intval(), is_numeric()', () => {
    assert.equal(phpIntCast(3.9), 3);
    assert.equal(phpIntCast(-3.9), -3);
    assert.equal(phpIntval('42'), 42);
    assert.equal(phpIntval('+42'), 42);
    assert.equal(phpIntval('-42'), -42);
    assert.equal(phpIntval('042'), 42);
    assert.equal(phpIntval('1e10'), 1);
    assert.equal(phpIntval(' 12abc'), 12);
    assert.equal(phpIntval('abc'), 0);
    assert.equal(phpFloatCast('122.34343The'), 122.34343);
    assert.equal(phpFloatCast('The122.34343'), 0);
    assert.equal(phpFloatCast('1.5e3abc'), 1500);
    assert.equal(phpFloatval('1.2.3'), 1.2);
    assert.equal(phpFloatval('.'), 0);
    for (const s of ['42', '1337e0', '02471', '9.1', '.5', ' 1', '-1e-3']) assert.ok(isNumericString(s), s);
    for (const s of ['not numeric', '1 ', '', '.', '1e', 'e1']) assert.ok(!isNumericString(s), s);
  });
});

describe('PHP comparisons', () => {
  it('loose == of two strings: numerically when both are numeric', () => {
    assert.ok(phpLooseEquals('1', '01'));
    assert.ok(phpLooseEquals('10', '1e1'));
    assert.ok(phpLooseEquals('100', '1e2'));
    assert.ok(phpLooseEquals(' 1', '1'));
    assert.ok(!phpLooseEquals('1 ', '1'));
    assert.ok(!phpLooseEquals('abc', 'ABC'));
    assert.ok(!phpLooseEquals('1', '1a'));
  });
  it('loose > of two strings', () => {
    assert.ok(phpLooseGreater('10', '9'));
    assert.ok(!phpLooseGreater('10', '9a'));
    assert.ok(!phpLooseGreater('abc', 'abd'));
    assert.ok(phpLooseGreater('b', 'a'));
  });
  it('strnatcmp(): natural order, case-sensitive', () => {
    assert.deepEqual(['img12.png', 'img10.png', 'img2.png', 'img1.png'].sort(strnatcmp), [
      'img1.png',
      'img2.png',
      'img10.png',
      'img12.png',
    ]);
    assert.equal(strnatcmp('img12.png', 'img10.png'), 1);
    assert.equal(strnatcmp('Hello', 'hello'), -1);
    assert.equal(strnatcmp('', ''), 0);
    assert.equal(strnatcmp('a', ''), 1);
  });
});

describe('PHP encodings', () => {
  it('urlencode() and rawurlencode()', () => {
    assert.equal(phpUrlencode('foo bar@baz'), 'foo+bar%40baz');
    assert.equal(phpUrlencode("~!*'()"), '%7E%21%2A%27%28%29');
    assert.equal(rawUrlEncode('sales and marketing/Miami'), 'sales%20and%20marketing%2FMiami');
    assert.equal(rawUrlEncode('foo @+%/~'), 'foo%20%40%2B%25%2F~');
    assert.equal(rawUrlEncode('Ґ'), '%D2%90');
    assert.equal(rawUrlEncode('\ud800'), '%EF%BF%BD');
  });
  it('serialize() of a string counts UTF-8 bytes; unserialize() of scalars and arrays', () => {
    assert.equal(phpSerializeString('Hello'), 's:5:"Hello";');
    assert.equal(phpSerializeString('Рік'), 's:6:"Рік";');
    assert.deepEqual(
      phpUnserialize('a:2:{i:0;s:6:"Рік";s:1:"b";b:1;}'),
      new Map<string, unknown>([
        ['0', 'Рік'],
        ['b', true],
      ]),
    );
    assert.equal(phpUnserialize('d:0.5;'), 0.5);
    assert.equal(phpUnserialize('N;'), null);
    assert.equal(phpUnserialize('s:5:"Hello";x'), undefined);
    assert.equal(phpUnserialize('s:9:"Hello";'), undefined);
  });
  it('json_encode() with default flags', () => {
    assert.equal(
      phpJsonEncode(
        new PhpMap([
          ['a', 1],
          ['b', 2],
          ['c', 3],
        ]),
      ),
      '{"a":1,"b":2,"c":3}',
    );
    assert.equal(phpJsonEncode(['/', 0.1, true, null]), '["\\/",0.1,true,null]');
    assert.equal(phpJsonEncode('é'), '"\\u00e9"');
  });
});
