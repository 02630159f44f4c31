/**
 * User values → SMW 2.2 data items, per type: what SMWDataValue::setUserValue accepts and the
 * serialization (`getSerialization()`) of the data item it makes — exactly the `item` strings
 * browsebysubject prints. A value that does not fit its type gives `{ error }`; the caller then records
 * an `_ERRP` ("has improper value for") instead, as SemanticData::addDataValue does.
 */
import type { TitleCodec } from '../wiki/titles.js';
import { DI } from './types.js';
import { phpFloatToString } from './php.js';
import { rawUrlEncode } from '../wiki/files.js';

export interface DataItem {
  di: number;
  /** SMW serialization */
  item: string;
  /** wikipage items: namespace and DB key */
  ns?: number;
  /** wikipage items: DB key; blob items: the text (what autocompletion and baseprop match) */
  key?: string;
}

export type ParseResult = DataItem | { error: string };

export function isError(r: ParseResult): r is { error: string } {
  return (r as { error?: string }).error !== undefined;
}

// ---------------------------------------------------------------------------------------------------
// Page
// ---------------------------------------------------------------------------------------------------

export function wikiPageItem(ns: number, dbkey: string, subobject = ''): string {
  return subobject === '' ? `${dbkey}#${ns}#` : `${dbkey}#${ns}##${subobject}`;
}

/** SMWWikiPageValue: a title (the fragment is dropped); `fixedNs` for category/property/form values. */
export function parsePage(value: string, codec: TitleCodec, fixedNs?: number): ParseResult {
  const v = value.replace(/^[\s\[]+/, '').replace(/[\s\]]+$/, '');
  if (v === '') return { error: 'smw_notitle' };
  const t = codec.parse(v, fixedNs ?? 0);
  if (t === null || t.ns < 0) return { error: 'smw_notitle' };
  if (fixedNs !== undefined && t.ns !== fixedNs) return { error: 'smw_wrong_namespace' };
  return { di: DI.WIKIPAGE, item: wikiPageItem(t.ns, t.dbkey), ns: t.ns, key: t.dbkey };
}

// ---------------------------------------------------------------------------------------------------
// Text, String, Code
// ---------------------------------------------------------------------------------------------------

export function parseBlob(value: string): ParseResult {
  const v = value.trim();
  if (v === '') return { error: 'smw_emptystring' };
  return { di: DI.BLOB, item: v, key: v };
}

// ---------------------------------------------------------------------------------------------------
// Number (and Quantity / Temperature)
// ---------------------------------------------------------------------------------------------------

/**
 * A number as people write it here: an optional sign (also U+2212), digits with thousands separators
 * (space, NBSP, thin space, apostrophe, or '.'/',' in groups of three), a decimal comma or point, an
 * optional exponent. Returns the number and what follows it (a unit), or null when there is no number
 * at the start.
 */
export function parseNumberText(input: string): { value: number; rest: string } | null {
  let s = input
    .replace(/&(?:nbsp|#160|thinsp|#8201);/g, ' ')
    .replace(/[\u00a0\u2009\u202f]/g, ' ')
    .replace(/\u2212/g, '-')
    .trim();
  const m = /^([+-]?)\s*((?:\d[\d '’.,]*\d|\d)(?:\s*[eE][+-]?\d+)?)(.*)$/s.exec(s);
  if (!m) {
    // ".5" / ",5"
    const m2 = /^([+-]?)\s*([.,]\d+(?:[eE][+-]?\d+)?)(.*)$/s.exec(s);
    if (!m2) return null;
    const value = Number(m2[2].replace(',', '.'));
    return Number.isFinite(value) ? { value: m2[1] === '-' ? -value : value, rest: m2[3].trim() } : null;
  }
  let [, sign, body, rest] = m;
  let exp = '';
  const em = /\s*([eE][+-]?\d+)$/.exec(body);
  if (em) {
    exp = em[1];
    body = body.slice(0, em.index);
  }
  // space-like thousands separators: only between digit groups of three
  if (/[ '’]/.test(body)) {
    if (!/^\d{1,3}(?:[ '’]\d{3})+(?:[.,]\d+)?$/.test(body)) {
      // "12 осіб": the number ends at the first space
      const cut = /^[\d.,]*\d/.exec(body)![0];
      rest = body.slice(cut.length) + exp + rest;
      exp = '';
      body = cut;
    } else {
      body = body.replace(/[ '’]/g, '');
    }
  }
  const dots = (body.match(/\./g) ?? []).length;
  const commas = (body.match(/,/g) ?? []).length;
  let normal: string | null = null;
  if (dots === 0 && commas === 0) normal = body;
  else if (dots > 0 && commas > 0) {
    // the later one is the decimal separator, the other groups thousands
    const dec = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
    const grp = dec === '.' ? ',' : '.';
    const [intPart, frac] = [body.slice(0, body.lastIndexOf(dec)), body.slice(body.lastIndexOf(dec) + 1)];
    if (intPart.includes(dec) || !new RegExp(`^\\d{1,3}(?:\\${grp}\\d{3})*$`).test(intPart)) return null;
    normal = intPart.split(grp).join('') + '.' + frac;
  } else {
    const sep = dots > 0 ? '.' : ',';
    const count = dots + commas;
    if (count === 1) normal = body.replace(sep, '.');
    else if (new RegExp(`^\\d{1,3}(?:\\${sep}\\d{3})+$`).test(body)) normal = body.split(sep).join('');
    else return null;
  }
  const value = Number(normal + exp);
  if (!Number.isFinite(value)) return null;
  return { value: sign === '-' ? -value : value, rest: rest.trim() };
}

export function numberItem(n: number): string {
  return phpFloatToString(n);
}

/** SMWNumberValue: a number, no unit (a Number property has none). */
export function parseNumber(value: string): ParseResult {
  const r = parseNumberText(value);
  if (r === null) return { error: 'smw_nofloat' };
  if (r.rest !== '') return { error: 'smw_unitnotallowed' };
  return { di: DI.NUMBER, item: numberItem(r.value) };
}

/** SMWQuantityValue without declared units: the number, whatever unit follows. */
export function parseQuantity(value: string): ParseResult {
  const r = parseNumberText(value);
  if (r === null) return { error: 'smw_nofloat' };
  return { di: DI.NUMBER, item: numberItem(r.value) };
}

/** SMWTemperatureValue: stored in kelvin. */
export function parseTemperature(value: string): ParseResult {
  const r = parseNumberText(value);
  if (r === null) return { error: 'smw_nofloat' };
  const unit = r.rest.replace(/^°\s*/, '').toUpperCase();
  let k: number;
  if (unit === 'K' || unit === '') k = r.value;
  else if (unit === 'C' || unit === 'С') k = r.value + 273.15;
  else if (unit === 'F') k = ((r.value - 32) * 5) / 9 + 273.15;
  else if (unit === 'R') k = (r.value * 5) / 9;
  else return { error: 'smw_unsupportedunit' };
  return { di: DI.NUMBER, item: numberItem(k) };
}

// ---------------------------------------------------------------------------------------------------
// Boolean
// ---------------------------------------------------------------------------------------------------

const TRUE_WORDS = new Set(['true', 't', 'yes', 'y', '1', 'так', 'т', 'істина', 'правда', 'вірно', 'да']);
const FALSE_WORDS = new Set(['false', 'f', 'no', 'n', '0', 'ні', 'н', 'хиба', 'хибність', 'неправда', 'невірно', 'нет']);

export function parseBoolean(value: string): ParseResult {
  const v = value.trim().toLowerCase();
  if (TRUE_WORDS.has(v)) return { di: DI.BOOLEAN, item: 't' };
  if (FALSE_WORDS.has(v)) return { di: DI.BOOLEAN, item: 'f' };
  return { error: 'smw_noboolean' };
}

// ---------------------------------------------------------------------------------------------------
// Date
// ---------------------------------------------------------------------------------------------------

// prototype-less: month names come from annotation values
const MONTHS: Record<string, number> = Object.create(null);
const monthNames: string[][] = [
  ['january', 'jan', 'січень', 'січня', 'січ'],
  ['february', 'feb', 'лютий', 'лютого', 'лют'],
  ['march', 'mar', 'березень', 'березня', 'бер'],
  ['april', 'apr', 'квітень', 'квітня', 'квіт', 'кві'],
  ['may', 'травень', 'травня', 'трав', 'тра'],
  ['june', 'jun', 'червень', 'червня', 'черв', 'чер'],
  ['july', 'jul', 'липень', 'липня', 'лип'],
  ['august', 'aug', 'серпень', 'серпня', 'серп', 'сер'],
  ['september', 'sep', 'sept', 'вересень', 'вересня', 'вер'],
  ['october', 'oct', 'жовтень', 'жовтня', 'жовт', 'жов'],
  ['november', 'nov', 'листопад', 'листопада', 'лист', 'лис'],
  ['december', 'dec', 'грудень', 'грудня', 'груд', 'гру'],
];
monthNames.forEach((names, i) => names.forEach((n) => (MONTHS[n] = i + 1)));

/** Julian (2) before the Gregorian reform (4 October 1582), Gregorian (1) after — SMW's guess. */
function calendarModel(y: number, m?: number, d?: number): number {
  if (y < 1582) return 2;
  if (y > 1582) return 1;
  if (m === undefined) return 2;
  if (m < 10) return 2;
  if (m === 10 && d !== undefined && d < 4) return 2;
  return 1;
}

function daysInMonth(y: number, m: number, model: number): number {
  if (m === 2) {
    const leap = model === 2 ? y % 4 === 0 : (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
    return leap ? 29 : 28;
  }
  return [31, 0, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][m - 1];
}

export interface TimeParts {
  year: number;
  month?: number;
  day?: number;
  hour?: number;
  minute?: number;
  second?: number;
  /** an explicit era (AD/BC) was written: SMW prints '+' before a positive year then */
  era?: 1 | -1;
  model?: number;
}

/** SMWDITime::getSerialization: model/year[/month[/day[/hour/minute/second]]]. */
export function timeItem(t: TimeParts): string {
  const model = t.model ?? calendarModel(t.year, t.month, t.day);
  let s = `${model}/${t.era === 1 ? '+' : ''}${t.year}`;
  if (t.month !== undefined) {
    s += `/${t.month}`;
    if (t.day !== undefined) {
      s += `/${t.day}`;
      if (t.hour !== undefined) s += `/${t.hour}/${t.minute ?? 0}/${phpFloatToString(t.second ?? 0)}`;
    }
  }
  return s;
}

/** TS_MW (YYYYMMDDhhmmss) → the _MDAT item, full precision, Gregorian. */
export function mwTimestampItem(ts: string): string {
  const n = (a: number, b: number) => Number(ts.slice(a, b));
  return `1/${n(0, 4)}/${n(4, 6)}/${n(6, 8)}/${n(8, 10)}/${n(10, 12)}/${n(12, 14)}`;
}

const ERA_BC = /\s*(?:BCE|BC|B\.C\.|до\s*н\.?\s*е\.?|до\s+нашої\s+ери)\s*$/i;
const ERA_AD = /\s*(?:CE|AD|A\.D\.|н\.?\s*е\.?|нашої\s+ери)\s*$/i;
const ERA_AD_PREFIX = /^\s*(?:AD|A\.D\.)\s+/i;

/**
 * SMWTimeValue for the forms people write: ISO (2015-01-01, 2015-01-01T12:30:45Z, 2015-01), 1 січня 2015
 * (року / р.), January 1, 2015, 1 January 2015, 24.08.1991, 2015/1/1, 2015, with BC/AD (до н. е.).
 */
export function parseDate(value: string): ParseResult {
  let s = value.trim().replace(/\s+/g, ' ');
  if (s === '') return { error: 'smw_nodatetime' };
  let era: 1 | -1 | undefined;
  if (ERA_BC.test(s)) {
    era = -1;
    s = s.replace(ERA_BC, '');
  } else if (ERA_AD.test(s)) {
    era = 1;
    s = s.replace(ERA_AD, '');
  } else if (ERA_AD_PREFIX.test(s)) {
    era = 1;
    s = s.replace(ERA_AD_PREFIX, '');
  }
  s = s.replace(/\s*(?:року|рік|р\.)$/i, '').trim();
  let y: number | undefined;
  let mo: number | undefined;
  let d: number | undefined;
  let time: { h: number; mi: number; sec: number } | undefined;
  // a time of day at the end: 12:30, 12:30:45, T12:30:45Z
  const tm = /(?:[T ]|^)(\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d+)?))?\s*(?:Z|UTC|GMT)?$/i.exec(s);
  if (tm && tm.index > 0) {
    time = { h: Number(tm[1]), mi: Number(tm[2]), sec: tm[3] !== undefined ? Number(tm[3]) : 0 };
    s = s.slice(0, tm.index).trim().replace(/,$/, '');
  }
  let m: RegExpExecArray | null;
  if ((m = /^(-?\d{1,4}|-?\d{5,})$/.exec(s))) {
    y = Number(m[1]);
  } else if ((m = /^(-?\d{1,})-(\d{1,2})(?:-(\d{1,2}))?$/.exec(s))) {
    y = Number(m[1]);
    mo = Number(m[2]);
    if (m[3] !== undefined) d = Number(m[3]);
  } else if ((m = /^(\d{1,4})\/(\d{1,2})(?:\/(\d{1,2}))?$/.exec(s))) {
    y = Number(m[1]);
    mo = Number(m[2]);
    if (m[3] !== undefined) d = Number(m[3]);
  } else if ((m = /^(\d{1,2})\.(\d{1,2})\.(\d{1,4})$/.exec(s))) {
    d = Number(m[1]);
    mo = Number(m[2]);
    y = Number(m[3]);
  } else if ((m = /^(\d{1,2})\.? ([\p{L}.]+),? (-?\d{1,})$/u.exec(s))) {
    d = Number(m[1]);
    mo = MONTHS[m[2].toLowerCase().replace(/\.$/, '')];
    y = Number(m[3]);
    if (mo === undefined) return { error: 'smw_nodatetime' };
  } else if ((m = /^([\p{L}.]+) (\d{1,2})(?:st|nd|rd|th)?,? (-?\d{1,})$/u.exec(s))) {
    mo = MONTHS[m[1].toLowerCase().replace(/\.$/, '')];
    d = Number(m[2]);
    y = Number(m[3]);
    if (mo === undefined) return { error: 'smw_nodatetime' };
  } else if ((m = /^([\p{L}.]+),? (-?\d{1,})$/u.exec(s))) {
    mo = MONTHS[m[1].toLowerCase().replace(/\.$/, '')];
    y = Number(m[2]);
    if (mo === undefined) return { error: 'smw_nodatetime' };
  } else {
    return { error: 'smw_nodatetime' };
  }
  if (y === undefined || !Number.isFinite(y)) return { error: 'smw_nodatetime' };
  if (era !== undefined) {
    if (y <= 0) return { error: 'smw_nodatetime' };
    if (era === -1) y = -y;
  }
  if (y === 0) return { error: 'smw_nodatetime' }; // there is no year 0
  if (mo !== undefined && (mo < 1 || mo > 12)) return { error: 'smw_nodatetime' };
  const model = calendarModel(y, mo, d);
  if (d !== undefined && (d < 1 || d > daysInMonth(Math.abs(y), mo!, model))) return { error: 'smw_nodatetime' };
  if (time) {
    if (d === undefined || time.h > 24 || time.mi > 59 || time.sec >= 60) return { error: 'smw_nodatetime' };
  }
  return {
    di: DI.TIME,
    item: timeItem({ year: y, month: mo, day: d, hour: time?.h, minute: time?.mi, second: time?.sec, era: era === 1 ? 1 : undefined, model }),
  };
}

// ---------------------------------------------------------------------------------------------------
// URL, Email, Telephone number
// ---------------------------------------------------------------------------------------------------

function encodeUriPart(s: string): string {
  return rawUrlEncode(s)
    .replace(/%3A/g, ':')
    .replace(/%2F/g, '/')
    .replace(/%23/g, '#')
    .replace(/%40/g, '@')
    .replace(/%3F/g, '?')
    .replace(/%3D/g, '=')
    .replace(/%26/g, '&')
    .replace(/%25/g, '%');
}

/** SMWDIUri::getURI: '//' only for http, https and ftp. */
export function uriItem(scheme: string, hierpart: string, query = '', fragment = ''): string {
  const slashes = scheme === 'http' || scheme === 'https' || scheme === 'ftp' ? '//' : '';
  return scheme + ':' + slashes + hierpart + (query ? '?' + query : '') + (fragment ? '#' + fragment : '');
}

/** SMWURIValue in URL mode. */
export function parseUrl(value: string): ParseResult {
  let v = value.trim();
  if (v === '') return { error: 'smw_emptystring' };
  let colon = v.indexOf(':');
  if (colon < 0) {
    v = 'http://' + v;
    colon = 4;
  }
  const scheme = v.slice(0, colon);
  let rest = v.slice(colon + 1);
  let hierpart: string;
  let query = '';
  let fragment = '';
  const q = rest.indexOf('?');
  if (q >= 0) {
    hierpart = rest.slice(0, q);
    rest = rest.slice(q + 1);
    const h = rest.indexOf('#');
    query = h >= 0 ? rest.slice(0, h) : rest;
    fragment = h >= 0 ? rest.slice(h + 1) : '';
  } else {
    const h = rest.indexOf('#');
    hierpart = h >= 0 ? rest.slice(0, h) : rest;
    fragment = h >= 0 ? rest.slice(h + 1) : '';
  }
  hierpart = encodeUriPart(hierpart);
  query = encodeUriPart(query);
  fragment = encodeUriPart(fragment);
  if (hierpart.startsWith('//')) hierpart = hierpart.slice(2);
  if (scheme === '' || /[^a-zA-Z]/.test(scheme) || hierpart === '') return { error: 'smw_baduri' };
  return { di: DI.URI, item: uriItem(scheme, hierpart, query, fragment) };
}

// Sanitizer::validateEmail (MediaWiki 1.25)
const EMAIL = /^[a-z0-9!#$%&'*+\-\/=?^_`{|}~.]+@[a-z0-9\-]+(?:\.[a-z0-9\-]+)*$/i;

/** SMWURIValue in email mode: mailto:<address>. */
export function parseEmail(value: string): ParseResult {
  let v = value.trim();
  if (v.startsWith('mailto:')) v = v.slice(7);
  if (v === '' || !EMAIL.test(v)) return { error: 'smw_baduri' };
  return { di: DI.URI, item: uriItem('mailto', encodeUriPart(v)) };
}

const TEL_GLOBAL = /^tel:\+[0-9\-.()]*[0-9][0-9\-.()]*$/;

/** SMWURIValue in telephone mode: spaces between digits become '-', 00 → +, a global number. */
export function parseTelephone(value: string): ParseResult {
  let v = value.trim();
  if (v.startsWith('tel:')) v = v.slice(4);
  let h = v.replace(/(?<=[0-9]) (?=[0-9])/g, '-').replace(/ /g, '');
  if (h.startsWith('00')) h = '+' + h.slice(2);
  if (h.replace(/[^0-9]/g, '').length < 6 || /[-+.\/][-.\/]/.test(h) || !TEL_GLOBAL.test('tel:' + h)) return { error: 'smw_baduri' };
  return { di: DI.URI, item: 'tel:' + h };
}

// ---------------------------------------------------------------------------------------------------
// Geographic coordinate
// ---------------------------------------------------------------------------------------------------

const DIRS: Record<string, number> = { N: 1, S: -1, E: 1, W: -1, 'ПН': 1, 'ПД': -1, 'СХ': 1, 'ЗХ': -1 };

/** One coordinate: decimal (50.45, 50,45) or degrees/minutes/seconds (50°27′0″N), with a direction. */
function parseAngle(s: string): { value: number; axis?: 'lat' | 'lon' } | null {
  let t = s.trim().replace(/\s+/g, ' ');
  let sign = 1;
  let axis: 'lat' | 'lon' | undefined;
  const dir = /\s*(N|S|E|W|пн\.?\s*ш\.?|пд\.?\s*ш\.?|сх\.?\s*д\.?|зх\.?\s*д\.?)$/iu.exec(t);
  if (dir) {
    const k = dir[1].toUpperCase().replace(/[^A-ZА-ЯІЇЄҐ]/gu, '').slice(0, 2);
    const d = DIRS[k] ?? DIRS[k[0]];
    if (d === undefined) return null;
    sign = d;
    axis = /^(N|S|ПН|ПД)/i.test(k) ? 'lat' : 'lon';
    t = t.slice(0, dir.index).trim();
  }
  if (t.startsWith('-')) {
    sign = -sign;
    t = t.slice(1).trim();
  }
  const dms = /^(\d+(?:[.,]\d+)?)\s*°\s*(?:(\d+(?:[.,]\d+)?)\s*['′’]\s*)?(?:(\d+(?:[.,]\d+)?)\s*(?:["″”]|''|′′)\s*)?$/u.exec(t);
  if (dms) {
    const n = (x: string | undefined) => (x === undefined ? 0 : Number(x.replace(',', '.')));
    return { value: sign * (n(dms[1]) + n(dms[2]) / 60 + n(dms[3]) / 3600), axis };
  }
  if (/^\d+(?:[.,]\d+)?$/.test(t)) return { value: sign * Number(t.replace(',', '.')), axis };
  return null;
}

export function parseGeo(value: string): ParseResult {
  const v = value.trim();
  if (v === '') return { error: 'smw_emptystring' };
  let parts: string[];
  if (v.includes(';')) parts = v.split(';');
  else if ((v.match(/,/g) ?? []).length === 1 && !/\d,\d+\s*°/.test(v)) parts = v.split(',');
  else if ((v.match(/,/g) ?? []).length === 3) {
    // 50,45, 30,52 (decimal commas)
    const m = /^(.+?,\d+)\s*,\s*(.+)$/.exec(v);
    parts = m ? [m[1], m[2]] : [];
  } else {
    // "50.45 30.52", "50°27′N 30°31′E"
    const m = /^(.*?(?:[NSns]|\d))\s+([-\d].*)$/u.exec(v);
    parts = m ? [m[1], m[2]] : [];
  }
  if (parts.length !== 2) return { error: 'smw_bad_geocoord' };
  let a = parseAngle(parts[0]);
  let b = parseAngle(parts[1]);
  if (!a || !b) return { error: 'smw_bad_geocoord' };
  if (a.axis === 'lon' && b.axis === 'lat') [a, b] = [b, a];
  const lat = a.value;
  const lon = b.value;
  if (!(Math.abs(lat) <= 90) || !(Math.abs(lon) <= 360)) return { error: 'smw_bad_geocoord' };
  return { di: DI.GEO, item: `${phpFloatToString(lat)},${phpFloatToString(lon)}` };
}

// ---------------------------------------------------------------------------------------------------

/** Parse a user value for a type id (Page when the type is unknown). Record values are not stored: null. */
export function parseValue(type: string, value: string, codec: TitleCodec, fixedNs?: number): ParseResult | null {
  switch (type) {
    case '_txt':
    case '_str':
    case '_cod':
      return parseBlob(value);
    case '_num':
      return parseNumber(value);
    case '_qty':
      return parseQuantity(value);
    case '_tem':
      return parseTemperature(value);
    case '_boo':
      return parseBoolean(value);
    case '_dat':
      return parseDate(value);
    case '_uri':
    case '_anu':
      return parseUrl(value);
    case '_ema':
      return parseEmail(value);
    case '_tel':
      return parseTelephone(value);
    case '_geo':
      return parseGeo(value);
    case '_rec':
      return null;
    default:
      return parsePage(value, codec, fixedNs);
  }
}
