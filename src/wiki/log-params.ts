/**
 * Log entry parameters as MediaWiki 1.25 stores and shows them: log_params is a PHP-serialized array
 * (new-style entries, keys like '4::target') or, for legacy entries, values separated by newlines
 * (DatabaseLogEntry::getParameters); ApiQueryLogEvents::addLogParams turns them into the API's member
 * named after the log type.
 */
import { phpUnserialize, type PhpArray, type PhpData } from '../php/serialize.js';
import { mwToEpochMs } from './timestamps.js';

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
const UNIT_SECONDS: Record<string, number> = {
  second: 1,
  sec: 1,
  minute: 60,
  min: 60,
  hour: 3600,
  day: 86400,
  week: 604800,
  fortnight: 1209600,
};

/** strtotime(duration, ts) for the relative forms block durations use ('3 days', '1 month'); null otherwise. */
function blockExpiry(duration: string, tsMw: string): string | null {
  const base = mwToEpochMs(tsMw);
  const parts = [...duration.toLowerCase().matchAll(/([+-]?\d+)\s*([a-z]+?)s?\b/g)];
  if (parts.length === 0) {
    const abs = Date.parse(duration);
    return Number.isNaN(abs) ? null : new Date(abs).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }
  const d = new Date(base);
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
 * The getParametersForApi() of 1.25's log formatters: legacy (numeric) and '4::name' keys renamed to
 * typed 'N:type:name' keys where the formatter of the type declares them (move, rights, patrol,
 * newusers, upload, block); other types keep their parameters as stored.
 */
function parametersForApi(params: PhpArray, type: string, tsMw: string): PhpArray {
  const map = (pairs: Array<[string, string]>) => {
    for (const [from, to] of pairs) {
      if (params.has(from)) {
        params.set(to, params.get(from)!);
        params.delete(from);
      }
    }
  };
  switch (type) {
    case 'move':
      map([
        ['0', '4:title:target'],
        ['1', '5:bool:suppressredirect'],
        ['4::target', '4:title:target'],
        ['5::noredir', '5:bool:suppressredirect'],
      ]);
      if (!params.has('5:bool:suppressredirect')) params.set('5:bool:suppressredirect', false);
      break;
    case 'rights': {
      const legacy = params.has('0') || params.has('1');
      map([
        ['0', '4:array:oldgroups'],
        ['1', '5:array:newgroups'],
        ['4::oldgroups', '4:array:oldgroups'],
        ['5::newgroups', '5:array:newgroups'],
      ]);
      // legacy entries list the groups as "a, b" text
      if (legacy) {
        for (const k of ['4:array:oldgroups', '5:array:newgroups']) {
          const v = str(params.get(k)).trim();
          const list: PhpArray = new Map();
          if (v !== '') v.split(/\s*,\s*/).forEach((g, i) => list.set(String(i), g));
          params.set(k, list);
        }
      }
      break;
    }
    case 'patrol':
      map([
        ['0', '4:number:curid'],
        ['1', '5:number:previd'],
        ['2', '6:bool:auto'],
        ['4::curid', '4:number:curid'],
        ['5::previd', '5:number:previd'],
        ['6::auto', '6:bool:auto'],
      ]);
      break;
    case 'newusers':
      map([
        ['0', '4:number:userid'],
        ['4::userid', '4:number:userid'],
      ]);
      break;
    case 'upload':
      map([['img_timestamp', ':timestamp:img_timestamp']]);
      break;
    case 'block': {
      map([
        ['0', '5::duration'],
        ['1', '6:array:flags'],
        ['6::flags', '6:array:flags'],
      ]);
      const flags = params.get('6:array:flags');
      if (typeof flags === 'string') {
        const list: PhpArray = new Map();
        if (flags !== '') flags.split(',').forEach((f, i) => list.set(String(i), f));
        params.set('6:array:flags', list);
      }
      if (params.has('5::duration')) {
        // duration, flags, then the expiry computed from the duration
        const duration = str(params.get('5::duration'));
        const rest = new Map([...params].filter(([k]) => k !== '5::duration' && k !== '6:array:flags'));
        const out: PhpArray = new Map([['5:plain:duration', duration]]);
        if (params.has('6:array:flags')) out.set('6:array:flags', params.get('6:array:flags')!);
        if (!INFINITE.has(duration.toLowerCase())) {
          const expiry = blockExpiry(duration, tsMw);
          if (expiry !== null) out.set('6:plain:expiry', expiry);
        }
        for (const [k, v] of rest) out.set(k, v);
        return out;
      }
      break;
    }
  }
  return params;
}

/** wfTimestamp(TS_ISO_8601, …) of a TS_MW or ISO value ('' when it is neither). */
function isoOf(v: PhpData): string {
  const s = str(v);
  const m = /^(\d{4})-?(\d{2})-?(\d{2})T?(\d{2}):?(\d{2}):?(\d{2})Z?$/.exec(s);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : s;
}

/**
 * LogFormatter::formatParametersForApi of 1.25: the parameters of a log entry as logevents shows them
 * under `params` (and recentchanges under `logparams`): 'N:type:name' keys become `name` with the value
 * converted by its type (titles become name_ns and name_title).
 */
export function formatLogParams(
  raw: string,
  type: string,
  timestamp: string,
  titleInfo: (text: string) => { ns: number; title: string } | null,
): Map<string, unknown> {
  // no parameters: nothing to rename or convert (a move's suppressredirect is the one member made from none)
  if (raw === '' && type !== 'move') return new Map();
  const params = parametersForApi(logParameters(raw).params, type, timestamp);
  const out = new Map<string, unknown>();
  for (const [key, value] of params) {
    const parts = key.split(':');
    if (parts.length < 3) {
      out.set(key, toJson(value));
      continue;
    }
    const kind = parts[1].trim().toLowerCase();
    const name = parts.slice(2).join(':');
    switch (kind) {
      case 'bool':
        out.set(name, value !== null && value !== false && value !== '' && value !== '0' && value !== 0);
        break;
      case 'number':
        out.set(
          name,
          typeof value === 'number' ? value : /^\d+$/.test(str(value)) ? Number(str(value)) : Number.parseFloat(str(value)) || 0,
        );
        break;
      case 'timestamp':
        out.set(name, isoOf(value));
        break;
      case 'title':
      case 'title-link': {
        const t = titleInfo(str(value));
        if (t) {
          out.set(`${name}_ns`, t.ns);
          out.set(`${name}_title`, t.title);
        } else out.set(name, toJson(value));
        break;
      }
      case 'user':
      case 'user-link': {
        out.set(name, str(value));
        break;
      }
      default:
        out.set(name, toJson(value));
    }
  }
  return out;
}
