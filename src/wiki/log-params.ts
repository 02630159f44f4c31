/**
 * Log entry parameters as MediaWiki 1.25 stores and shows them: log_params is a PHP-serialized array
 * (new-style entries, keys like '4::target') or, for legacy entries, values separated by newlines
 * (DatabaseLogEntry::getParameters); ApiQueryLogEvents::addLogParams turns them into the API's member
 * named after the log type.
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

/** The parameters of a log entry and whether they are in the legacy (newline-separated) form. */
export function logParameters(raw: string): { params: PhpArray; legacy: boolean } {
  const v = raw === '' ? undefined : phpUnserialize(raw);
  // unserialize() of a non-array (or of garbage) is not how new-style parameters look: legacy then
  if (v instanceof Map) return { params: v, legacy: false };
  const params: PhpArray = new Map();
  if (raw !== '') raw.split('\n').forEach((s, i) => params.set(String(i), s));
  return { params, legacy: true };
}

function toJson(v: PhpData): unknown {
  if (!(v instanceof Map)) return v;
  const keys = [...v.keys()];
  // a PHP array with keys 0..n-1 is a JSON list
  if (keys.every((k, i) => k === String(i))) return [...v.values()].map(toJson);
  const o = new Map<string, unknown>();
  for (const [k, x] of v) o.set(k, toJson(x));
  return o;
}

function str(v: PhpData | undefined): string {
  return v === undefined || v === null ? '' : v instanceof Map ? '' : String(v);
}

const INFINITE = new Set(['infinite', 'indefinite', 'infinity', 'never']);
const UNIT_SECONDS: Record<string, number> = { second: 1, sec: 1, minute: 60, min: 60, hour: 3600, day: 86400, week: 604800, fortnight: 1209600 };

/** strtotime(duration, ts) for the relative forms block durations use ('3 days', '1 month'); null otherwise. */
function blockExpiry(duration: string, tsMw: string): string | null {
  const base = new Date(Date.UTC(+tsMw.slice(0, 4), +tsMw.slice(4, 6) - 1, +tsMw.slice(6, 8), +tsMw.slice(8, 10), +tsMw.slice(10, 12), +tsMw.slice(12, 14)));
  const parts = [...duration.toLowerCase().matchAll(/([+-]?\d+)\s*([a-z]+?)s?\b/g)];
  if (parts.length === 0) {
    const abs = Date.parse(duration);
    return Number.isNaN(abs) ? null : new Date(abs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  const d = new Date(base.getTime());
  for (const [, n, unit] of parts) {
    const k = Number(n);
    if (unit === 'month') d.setUTCMonth(d.getUTCMonth() + k);
    else if (unit === 'year') d.setUTCFullYear(d.getUTCFullYear() + k);
    else if (UNIT_SECONDS[unit] !== undefined) d.setTime(d.getTime() + k * UNIT_SECONDS[unit] * 1000);
    else return null;
  }
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/**
 * ApiQueryLogEvents::addLogParams of 1.25: adds the member named after the log type to `vals`.
 * `titleInfo` turns a target title text into {ns, title} (null when it is not a title).
 */
export function addLogParams(
  vals: Record<string, unknown>,
  raw: string,
  type: string,
  timestamp: string,
  titleInfo: (text: string) => { ns: number; title: string } | null,
): void {
  const { params, legacy } = logParameters(raw);
  const get = (legacyKey: string, key: string) => params.get(legacy ? legacyKey : key);
  switch (type) {
    case 'move': {
      const target = get('0', '4::target');
      const out: Record<string, unknown> = {};
      if (target !== undefined) {
        const t = titleInfo(str(target));
        if (t) {
          out.new_ns = t.ns;
          out.new_title = t.title;
        }
      }
      const noredir = get('1', '5::noredir');
      if (noredir !== undefined && noredir !== null && noredir !== false && noredir !== '' && noredir !== '0' && noredir !== 0) out.suppressedredirect = true;
      if (Object.keys(out).length) vals[type] = out;
      return;
    }
    case 'patrol':
      vals[type] = { cur: toJson(get('0', '4::curid') ?? null), prev: toJson(get('1', '5::previd') ?? null), auto: toJson(get('2', '6::auto') ?? null) };
      return;
    case 'rights': {
      if (legacy) vals[type] = { old: str(params.get('0')), new: str(params.get('1')) };
      else {
        const list = (v: PhpData | undefined) => (v instanceof Map ? [...v.values()].map(str).join(', ') : '');
        vals[type] = { new: list(params.get('5::newgroups')), old: list(params.get('4::oldgroups')) };
      }
      return;
    }
    case 'block': {
      const duration = str(params.get('0') ?? params.get('5::duration'));
      const out: Record<string, unknown> = { duration, flags: str(params.get('1') ?? params.get('6::flags')) };
      if (!INFINITE.has(duration.toLowerCase())) {
        const expiry = blockExpiry(duration, timestamp);
        if (expiry !== null) out.expiry = expiry;
      }
      vals[type] = out;
      return;
    }
  }
  // keys like "4::paramname" cannot be output as they are: "paramname"
  const out = new Map<string, unknown>();
  for (const [k, v] of params) {
    const parts = k.split(':');
    out.set(parts.length >= 3 ? parts.slice(2).join(':') : k, toJson(v));
  }
  vals[type] = out;
}
