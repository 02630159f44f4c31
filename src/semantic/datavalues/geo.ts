/**
 * Geographic coordinates as SMW 2.2's Maps-less coordinate type reads them (SMWDIGeoCoord).
 */
import { DI } from '../types.js';
import { phpFloatToString } from '../../php/numbers.js';
import type { ParseResult } from './data-item.js';

const DIRS: Record<string, number> = { N: 1, S: -1, E: 1, W: -1, ПН: 1, ПД: -1, СХ: 1, ЗХ: -1 };

/** One coordinate: decimal (50.45, 50,45) or degrees/minutes/seconds (50°27′0″N), with a direction. */
function parseAngle(s: string): { value: number; axis?: 'lat' | 'lon' } | null {
  let t = s.trim().replace(/\s+/g, ' ');
  let sign = 1;
  let axis: 'lat' | 'lon' | undefined;
  const dir = /\s*(N|S|E|W|пн\.?\s*ш\.?|пд\.?\s*ш\.?|сх\.?\s*д\.?|зх\.?\s*д\.?)$/iu.exec(t);
  if (dir) {
    const k = dir[1]
      .toUpperCase()
      .replace(/[^A-ZА-ЯІЇЄҐ]/gu, '')
      .slice(0, 2);
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
