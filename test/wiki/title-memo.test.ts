/**
 * TitleCodec.parse's memo lives for the whole import (and server), while what it is given is cut from
 * page texts: it must keep copies, not views of those texts (see detached() in src/wiki/titles.ts).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { TitleCodec, detached } from '../../src/wiki/titles.js';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;
const heapAfterGc = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};

describe('the title memo', () => {
  it('keeps no page text alive through the titles cut from it', () => {
    const codec = TitleCodec.forSite('Вікі');
    const before = heapAfterGc();
    // 400 "pages" of 100,000 characters, a link target cut from each (as the link scanner does)
    for (let i = 0; i < 400; i++) {
      const text = `${i} `.repeat(50_000 / String(i).length) + `[[Довга назва сторінки номер ${i}]]`;
      const at = text.indexOf('[[') + 2;
      const title = codec.parse(text.slice(at, text.indexOf(']]', at)));
      assert.equal(title?.dbkey, `Довга_назва_сторінки_номер_${i}`);
    }
    const grown = heapAfterGc() - before;
    // views would hold 400 × 100,000 characters (≥ 40 MB); copies a few hundred kB
    assert.ok(grown < 8_000_000, `the heap grew by ${grown} bytes`);
    // and the memo still answers (a copy of its entry each time)
    const again = codec.parse('Довга назва сторінки номер 7');
    assert.deepEqual(again, { ns: 0, dbkey: 'Довга_назва_сторінки_номер_7', fragment: '' });
  });

  it('detached() copies: equal strings, short ones as they are', () => {
    const s = 'x'.repeat(1000) + 'Довга назва';
    assert.equal(detached(s.slice(1000)), 'Довга назва');
    assert.equal(detached('коротка'), 'коротка');
    assert.equal(detached(undefined), undefined);
    assert.equal(detached(s), s);
  });
});
