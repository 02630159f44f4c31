/**
 * JSON.parse that keeps every object's member order, integer-like keys included (JSON.parse moves
 * "336" before "-1"): objects become Maps, as the result tree's ordered objects are.
 */
const SCALAR = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null/y;

export function parseOrderedJson(text: string): unknown {
  let pos = 0;
  const ws = () => {
    while (pos < text.length && ' \t\n\r'.includes(text[pos]!)) pos++;
  };
  const value = (): unknown => {
    ws();
    const c = text[pos];
    if (c === '{') {
      pos++;
      const m = new Map<string, unknown>();
      ws();
      if (text[pos] === '}') {
        pos++;
        return m;
      }
      for (;;) {
        ws();
        const key = value() as string;
        ws();
        if (text[pos++] !== ':') throw new Error(`':' expected at ${pos}`);
        m.set(key, value());
        ws();
        const d = text[pos++];
        if (d === '}') return m;
        if (d !== ',') throw new Error(`',' expected at ${pos}`);
      }
    }
    if (c === '[') {
      pos++;
      const a: unknown[] = [];
      ws();
      if (text[pos] === ']') {
        pos++;
        return a;
      }
      for (;;) {
        a.push(value());
        ws();
        const d = text[pos++];
        if (d === ']') return a;
        if (d !== ',') throw new Error(`',' expected at ${pos}`);
      }
    }
    // a scalar: the longest JSON scalar from here, read by JSON.parse
    SCALAR.lastIndex = pos;
    const m = SCALAR.exec(text);
    if (!m) throw new Error(`value expected at ${pos}`);
    pos += m[0].length;
    return JSON.parse(m[0]);
  };
  const v = value();
  ws();
  if (pos !== text.length) throw new Error(`trailing text at ${pos}`);
  return v;
}
