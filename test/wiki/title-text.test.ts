/** TitleCodec.prefixedText: the namespace's local name and the DB key with every underscore a space. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { TitleCodec } from '../../src/wiki/titles.js';

describe('prefixedText', () => {
  it('prefixes the local namespace name and turns every underscore into a space', () => {
    const codec = TitleCodec.forSite('Вікі');
    const keys = [
      '',
      '_',
      '__',
      'A',
      'A_b',
      '_A',
      'A_',
      'a__b___c',
      'Фото_Євбоков.jpg',
      'Довга_назва_сторінки_номер_12345_кінець',
      'x'.repeat(40) + '_' + 'y'.repeat(40),
      '😀_😀',
    ];
    let checked = 0;
    for (const ns of [0, 1, 2, 6, 14, 10, 4, 828, 12345]) {
      const name = codec.nsName(ns) ?? '';
      for (const key of keys) {
        assert.equal(codec.prefixedText(ns, key), (name === '' ? '' : name + ':') + key.split('_').join(' '), `${ns} ${key}`);
        checked++;
      }
    }
    assert.equal(codec.prefixedText(6, 'Фото_Євбоков.jpg'), 'Файл:Фото Євбоков.jpg');
    assert.equal(codec.prefixedText(0, 'Головна_сторінка'), 'Головна сторінка');
    assert.equal(checked, 108);
  });
});
