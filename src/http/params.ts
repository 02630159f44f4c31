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
  const raw: Record<string, string> = Object.create(null);
  const phpArrays: string[] = [];
  const put = (name: string, value: string) => {
    const bracket = name.indexOf('[');
    if (bracket > 0 && name.endsWith(']')) {
      const base = name.slice(0, bracket);
      if (!phpArrays.includes(base)) phpArrays.push(base);
      delete raw[base];
      return;
    }
    raw[name] = /[^\x00-\x7f]/.test(value) ? value.normalize('NFC') : value;
  };
  if (query) for (const [k, v] of new URLSearchParams(query)) put(k, v);
  if (body && typeof body === 'object') {
    for (const [k, v] of Object.entries(body)) {
      if (Array.isArray(v)) put(k, String(v[v.length - 1]));
      else if (typeof v === 'string') put(k, v);
      else if (Buffer.isBuffer(v)) put(k, v.toString('utf8'));
      else if (v !== undefined && v !== null) put(k, String(v));
    }
  }
  // a prototype-less object: a parameter named __proto__ or constructor is just a parameter
  return { raw, phpArrays };
}
