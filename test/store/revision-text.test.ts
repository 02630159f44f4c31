/**
 * Revision texts as the store keeps them: short ones as they are, longer ones deflated with a window
 * fitted to their length, read back by a plain raw inflate.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { encodeRevisionText } from '../../src/store/open.js';
import { DEFLATE_FROM_BYTES, decodeRevisionText, isDeflatedLength } from '../../src/store/revision-text.js';

describe('revision texts as stored', () => {
  it("keeps a text under DEFLATE_FROM_BYTES UTF-8 bytes as it is, a longer one deflated with a window fitted to it: the default window's bytes, read back by a plain raw inflate", () => {
    // lengths around each window's reach (2^w - 262 bytes), past the largest (32 KB), astral characters on the edges
    const lengths = [0, 1, 2, 100, 249, 250, 251, 500, 762, 763, 5000, 16122, 16123, 32506, 32507, 40000, 100000];
    const piece = 'Київ 𝄞 [[Дніпро|річка]] {{Шаблон|x=1}} 😀 ';
    for (const n of lengths) {
      // pseudo-random characters (Cyrillic, ASCII, astral) repeated once: the repeat is a match as far back as half the text
      let seed = n + 1;
      const half = Array.from({ length: Math.ceil(n / 2) }, () => {
        seed = (seed * 1103515245 + 12345) % 2147483648;
        const r = seed % 100;
        return r < 60
          ? String.fromCodePoint(0x410 + (r % 48))
          : r < 95
            ? String.fromCodePoint(0x20 + r)
            : String.fromCodePoint(0x1f600 + r);
      });
      for (const text of [
        Array.from(piece.repeat(Math.ceil(n / piece.length) + 1))
          .slice(0, n)
          .join(''),
        [...half, ...half].slice(0, n).join(''),
      ]) {
        const bytes = Buffer.from(text, 'utf8');
        const stored = encodeRevisionText(text);
        const deflated = isDeflatedLength(bytes.length);
        assert.equal(deflated, bytes.length >= DEFLATE_FROM_BYTES);
        assert.ok(decodeRevisionText(stored, deflated ? 1 : 0) === text, `${n} characters`);
        assert.deepEqual(Buffer.from(encodeRevisionText(text)), Buffer.from(stored), 'the same text, the same bytes');
        if (deflated) {
          assert.ok(inflateRawSync(stored).toString('utf8') === text, `${n} characters`);
          assert.deepEqual(
            Buffer.from(stored),
            deflateRawSync(bytes),
            `${n} characters (${bytes.length} bytes): the default window's bytes`,
          );
        } else assert.deepEqual(Buffer.from(stored), bytes, `${n} characters (${bytes.length} bytes): as they are`);
      }
    }
    // the edge, in bytes: 'ї' is two
    for (const [text, deflated] of [
      ['a'.repeat(DEFLATE_FROM_BYTES - 1), false],
      ['a'.repeat(DEFLATE_FROM_BYTES), true],
      ['ї'.repeat(DEFLATE_FROM_BYTES / 2 - 1) + 'a', false],
      ['ї'.repeat(DEFLATE_FROM_BYTES / 2), true],
    ] as const) {
      const stored = encodeRevisionText(text);
      assert.equal(isDeflatedLength(Buffer.byteLength(text)), deflated);
      assert.deepEqual(Buffer.from(stored), deflated ? deflateRawSync(Buffer.from(text)) : Buffer.from(text));
      assert.equal(decodeRevisionText(stored, deflated ? 1 : 0), text);
    }
  });
});
