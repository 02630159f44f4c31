/**
 * SMW 2.2's time values (SMWTimeValue, SMWDITime): the Julian day that sorts them.
 */

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

