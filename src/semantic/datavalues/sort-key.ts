/**
 * Sort keys of data items (SMWDataItem::getSortKey as the SQLStore keeps it in o_sortkey / o_value):
 * the number, the Julian day of a time, 0/1 of a boolean.
 */
import { DI } from '../types.js';
import { julianDay } from './time.js';

/** The sort key SMW keeps for a number, time or boolean item (o_sortkey / o_value). */
export function itemSortKey(di: number, item: string): number | undefined {
  if (di === DI.NUMBER) return Number(item);
  if (di === DI.BOOLEAN) return item === 't' ? 1 : 0;
  if (di === DI.TIME) {
    const p = item.split('/').map(Number);
    const [model, year, month = 1, day = 1, h = 0, mi = 0, s = 0] = p;
    if (year >= -4713) {
      const jd = julianDay(model, year, month, day, h, mi, s);
      if (jd > 0) return jd;
    }
    return year - 1 + (month - 1) / 12 + (day - 1) / 12 / 31;
  }
  return undefined;
}
