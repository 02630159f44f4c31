/**
 * SMW 2.2's number values (SMWNumberValue, SMWQuantityValue, SMWTemperatureValue and
 * SMW\NumberFormatter): numbers as people write them here, stored as PHP prints a float.
 */
import { DI } from '../types.js';
import { phpFloatToString } from '../../php/numbers.js';
import type { ParseResult } from './data-item.js';

/**
 * A number as people write it here: an optional sign (also U+2212), digits with thousands separators
 * (space, NBSP, thin space, apostrophe, or '.'/',' in groups of three), a decimal comma or point, an
 * optional exponent. Returns the number and what follows it (a unit), or null when there is no number
 * at the start.
 */
export function parseNumberText(input: string): { value: number; rest: string } | null {
  const s = input
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

/** SMW\NumberFormatter::formatNumberToLocalizedText with uk's (English fallback) separators '.' and ','. */
export function formatNumber(value: number, decplaces = 3): string {
  let places = decplaces;
  let scientific = false;
  if (places > 0 && value !== 0) {
    const abs = Math.abs(value);
    if (abs >= 1e12 || abs <= 10 ** -places) scientific = true;
    else if (abs < 1) for (let i = 0.1; abs <= i; i *= 0.1) places++;
  }
  if (scientific) {
    // sprintf('%1.6e'): PHP writes the exponent with its sign and no padding
    const [m, e] = value.toExponential(6).split('e');
    return m.replace(/(\.\d+?)0*$/, '$1') + 'e' + (e[0] === '-' ? '' : '+') + e.replace(/^\+/, '');
  }
  const fixed = Math.abs(value).toFixed(places);
  let [int, frac] = fixed.split('.');
  int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let s = (value < 0 && Number(fixed) !== 0 ? '-' : '') + int + (frac !== undefined ? '.' + frac : '');
  const end = '.' + '0'.repeat(places);
  if (places > 0 && s.endsWith(end)) s = s.slice(0, -end.length);
  else s = s.replace(/(\.\d+?)0*$/, '$1');
  return s;
}
