/**
 * PHP's serialize() and unserialize(): MediaWiki keeps log parameters serialized, SMW a concept's
 * description.
 */

export type PhpData = string | number | boolean | null | PhpArray;
/** A PHP array: ordered keys (ints become decimal strings, as PHP's array keys are shown in JSON). */
export type PhpArray = Map<string, PhpData>;

/** PHP unserialize() of the scalar and array forms log parameters use; null when the text is not one. */
export function phpUnserialize(text: string): PhpData | undefined {
  const buf = Buffer.from(text, 'utf8');
  let pos = 0;
  const fail = (): never => {
    throw new Error('bad');
  };
  const readUntil = (ch: string): string => {
    const end = buf.indexOf(ch, pos);
    if (end < 0) fail();
    const s = buf.toString('latin1', pos, end);
    pos = end + 1;
    return s;
  };
  const expect = (ch: string) => {
    if (buf.toString('latin1', pos, pos + 1) !== ch) fail();
    pos++;
  };
  const value = (): PhpData => {
    const t = buf.toString('latin1', pos, pos + 2);
    pos += 2;
    switch (t) {
      case 'N;':
        return null;
      case 'b:':
        return readUntil(';') === '1';
      case 'i:': {
        const s = readUntil(';');
        if (!/^-?\d+$/.test(s)) fail();
        return Number(s);
      }
      case 'd:': {
        const n = Number(readUntil(';'));
        if (Number.isNaN(n)) fail();
        return n;
      }
      case 's:': {
        const len = Number(readUntil(':'));
        if (!Number.isInteger(len) || len < 0) fail();
        expect('"');
        if (pos + len > buf.length) fail();
        const s = buf.toString('utf8', pos, pos + len);
        pos += len;
        expect('"');
        expect(';');
        return s;
      }
      case 'a:': {
        const n = Number(readUntil(':'));
        if (!Number.isInteger(n) || n < 0) fail();
        expect('{');
        const m: PhpArray = new Map();
        for (let i = 0; i < n; i++) {
          const k = value();
          if (typeof k !== 'string' && typeof k !== 'number') fail();
          m.set(String(k), value());
        }
        expect('}');
        return m;
      }
      default:
        return fail();
    }
  };
  try {
    const v = value();
    return pos === buf.length ? v : undefined;
  } catch {
    return undefined;
  }
}

/** PHP serialize() of a string: s:N:"…"; (N counts UTF-8 bytes). */
export function phpSerializeString(s: string): string {
  return `s:${Buffer.byteLength(s, 'utf8')}:"${s}";`;
}
