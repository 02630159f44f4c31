/**
 * MediaWiki timestamps: the 14-digit TS_MW form stored in the database and the ISO 8601 form the API
 * shows (wfTimestamp of the forms clients send).
 */

/** '20150601123045' → '2015-06-01T12:30:45Z' */
export function mwToIso(ts: string): string {
  // one flat string from the digits: the joined slices made a tree of pieces that writing the answer
  // had to flatten first (this was half of a timestamp's cost in a list)
  if (ts.length === 14) {
    const c = (i: number) => ts.charCodeAt(i);
    return String.fromCharCode(
      c(0),
      c(1),
      c(2),
      c(3),
      45,
      c(4),
      c(5),
      45,
      c(6),
      c(7),
      84,
      c(8),
      c(9),
      58,
      c(10),
      c(11),
      58,
      c(12),
      c(13),
      90,
    );
  }
  return `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;
}

/** '2015-06-01T12:30:45Z' → '20150601123045' */
export function isoToMw(iso: string): string {
  return iso
    .replace(/[^0-9]/g, '')
    .slice(0, 14)
    .padEnd(14, '0');
}

/** '20150601123045' → its milliseconds since the epoch (UTC) */
export function mwToEpochMs(ts: string): number {
  return Date.UTC(+ts.slice(0, 4), +ts.slice(4, 6) - 1, +ts.slice(6, 8), +ts.slice(8, 10), +ts.slice(10, 12), +ts.slice(12, 14));
}

export function dateToMw(d: Date): string {
  return isoToMw(d.toISOString());
}

/**
 * Accept what wfTimestamp accepts from API clients: TS_MW (14 digits), ISO 8601 with or without
 * separators and zone, MySQL 'YYYY-MM-DD hh:mm:ss', Unix seconds, and 'now'. Returns TS_MW or null.
 */
export function parseTimestamp(v: string): string | null {
  const s = v.trim();
  if (s === 'now') return dateToMw(new Date());
  let m: RegExpExecArray | null;
  if ((m = /^(\d{4})(\d\d)(\d\d)(\d\d)(\d\d)(\d\d)$/.exec(s))) return valid(m.slice(1)) ? s : null;
  if ((m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d):(\d\d)(?:\.\d+)?(Z|[+-]00:?00)?$/.exec(s))) {
    return valid(m.slice(1, 7)) ? m.slice(1, 7).join('') : null;
  }
  if ((m = /^(\d{4})-(\d\d)-(\d\d)$/.exec(s))) return valid([...m.slice(1), '00', '00', '00']) ? m.slice(1).join('') + '000000' : null;
  if (/^\d{1,13}$/.test(s)) return dateToMw(new Date(Number(s) * 1000));
  return null;
}

function valid(parts: string[]): boolean {
  const [y, mo, d, h, mi, se] = parts.map(Number);
  return y >= 0 && mo >= 1 && mo <= 12 && d >= 1 && d <= 31 && h <= 23 && mi <= 59 && se <= 60;
}
