/**
 * SMW 2.2's time values (SMWTimeValue, SMWDITime): the Julian day that sorts them and the caption
 * a stored date shows.
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

/** SMW 2.2 has no Ukrainian language class: month labels come from SMWLanguageEn. */
const MONTH_LABELS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

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

