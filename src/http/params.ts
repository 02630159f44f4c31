/**
 * Decoding a request into MediaWiki's flat parameter map: query string and body merged (the body wins,
 * as PHP's $_REQUEST with request_order=GP), the last of repeated names wins, PHP array syntax
 * (`foo[]=x`) refused with a warning, values NFC-normalized as WebRequest does.
 */

export interface DecodedParams {
  raw: Record<string, string>;
  /** names sent with PHP array syntax (foo[]=x): ignored, reported with a warning */
  phpArrays: string[];
}

export function decodeParams(query: string, body: Record<string, unknown> | undefined): DecodedParams {
  const raw = new (ParamMap as unknown as new () => Record<string, string>)();
  const phpArrays: string[] = [];
  const setParam = (name: string, value: string) => {
    const bracket = name.indexOf('[');
    if (bracket > 0 && name.endsWith(']')) {
      const base = name.slice(0, bracket);
      if (!phpArrays.includes(base)) phpArrays.push(base);
      delete raw[base];
      return;
    }
    raw[name] = isNfc(value) ? value : value.normalize('NFC');
  };
  if (query) {
    const pairs = queryPairs(query);
    for (let i = 0; i < pairs.length; i += 2) setParam(pairs[i]!, pairs[i + 1]!);
  }
  if (body && typeof body === 'object') {
    for (const [name, value] of Object.entries(body)) {
      if (Array.isArray(value)) setParam(name, String(value[value.length - 1]));
      else if (typeof value === 'string') setParam(name, value);
      else if (Buffer.isBuffer(value)) setParam(name, value.toString('utf8'));
      else if (value !== undefined && value !== null) setParam(name, String(value));
    }
  }
  return { raw, phpArrays };
}

/**
 * The map of parameters: an object whose prototype has neither properties nor a prototype, so that a
 * parameter named __proto__ or constructor is just a parameter (as with Object.create(null)), but that
 * V8 keeps in its fast shape (an object made by Object.create(null) is a hash table, 10x slower to fill).
 */
function ParamMap(this: object): void {}
ParamMap.prototype = Object.create(null);

/**
 * The name/value pairs of a query string as URLSearchParams reads it (application/x-www-form-urlencoded:
 * `+` is a space, percent-decoding, UTF-8), flat [name, value, name, value, …]. decodeURIComponent does
 * it several times faster and gives the same text whenever it accepts the input (valid %XX sequences of
 * valid UTF-8); anything it refuses (a stray `%`, bytes that are not UTF-8, which URLSearchParams keeps
 * or replaces by U+FFFD) is read by URLSearchParams.
 */
export function queryPairs(query: string): string[] {
  const out: string[] = [];
  try {
    // most queries need no decoding at all
    const decode = query.includes('%') || query.includes('+') ? component : (text: string) => text;
    let start = 0;
    while (start <= query.length) {
      let end = query.indexOf('&', start);
      if (end < 0) end = query.length;
      if (end > start) {
        const equals = query.indexOf('=', start);
        if (equals >= 0 && equals < end) out.push(decode(query.slice(start, equals)), decode(query.slice(equals + 1, end)));
        else out.push(decode(query.slice(start, end)), '');
      }
      start = end + 1;
    }
    return out;
  } catch {
    out.length = 0;
    for (const [name, value] of new URLSearchParams(query)) out.push(name, value);
    return out;
  }
}

function component(encoded: string): string {
  if (encoded.includes('+')) encoded = encoded.replace(/\+/g, ' ');
  return encoded.includes('%') ? decodeURIComponent(encoded) : encoded;
}

/**
 * Whether NFC leaves the text as it is, decided without normalizing for the common case: ASCII and
 * Cyrillic letters (U+0400–U+0482, U+048A–U+04FF: no combining marks among them, and none composes
 * with the other) are their own NFC, alone and in any sequence. Anything else is normalized.
 */
export function isNfc(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    if (unit < 0x80 || (unit >= 0x400 && unit <= 0x482) || (unit >= 0x48a && unit <= 0x4ff)) continue;
    return false;
  }
  return true;
}
