/**
 * SMW 2.2's time values (SMWTimeValue, SMWDITime): dates as people write them here, the items they
 * make, the Julian day that sorts them and the caption a stored date shows.
 */
import { DI } from '../types.js';
import { phpFloatToString } from '../../php/numbers.js';
import type { ParseResult } from './data-item.js';

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
    item: timeItem({
      year: y,
      month: mo,
      day: d,
      hour: time?.h,
      minute: time?.mi,
      second: time?.sec,
      era: era === 1 ? 1 : undefined,
      model,
    }),
  };
}

/** Julian day number (SMWDITime::date2JD) plus the day fraction: the sort key of a time item. */
export function julianDay(model: number, year: number, month: number, day: number, h = 0, mi = 0, s = 0): number {
  const y = year < 0 ? year + 1 : year; // no year 0
  let a: number;
  let yy = y;
  let mm = month;
  if (mm <= 2) {
    yy -= 1;
    mm += 12;
  }
  let b = 0;
  if (model === 1) {
    a = Math.floor(yy / 100);
    b = 2 - a + Math.floor(a / 4);
  }
  const jd = Math.floor(365.25 * (yy + 4716)) + Math.floor(30.6001 * (mm + 1)) + day + b - 1524.5;
  return jd + (h * 3600 + mi * 60 + s) / 86400;
}

/** SMW 2.2 has no Ukrainian language class: month labels come from SMWLanguageEn. */
const MONTH_LABELS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

/**
 * SMWTimeValue::getCaptionFromDataitem (the preferred caption of a stored date): "day Month year" to the
 * item's precision, "BC" after a year before 1, the time as H:i:s. Items keep the calendar model SMW
 * prefers for their date (Julian before 1582), so no conversion happens here.
 */
export function timeCaption(item: string): string {
  const [, y, mo, d, h, mi, sec] = item.split('/');
  const year = Number(y);
  let out = year > 0 ? String(Math.trunc(year)) : String(Math.trunc(-year)) + ' BC';
  if (mo !== undefined) out = MONTH_LABELS[Number(mo) - 1] + ' ' + out;
  if (d !== undefined) out = Number(d) + ' ' + out;
  if (h !== undefined) {
    const two = (x: string | undefined) => String(Math.trunc(Number(x ?? 0))).padStart(2, '0');
    out += ' ' + two(h) + ':' + two(mi) + ':' + two(sec);
  }
  return out;
}
