/**
 * User values → SMW 2.2 data items, per type: what SMWDataValue::setUserValue accepts and the
 * serialization (`getSerialization()`) of the data item it makes — exactly the `item` strings
 * browsebysubject prints. A value that does not fit its type gives `{ error }`; the caller then records
 * an `_ERRP` ("has improper value for") instead, as SemanticData::addDataValue does.
 */
import type { TitleCodec } from '../../wiki/titles.js';
import { DI } from '../types.js';
import type { ParseResult } from './data-item.js';
import { parseNumber, parseQuantity, parseTemperature } from './number.js';
import { parseDate } from './time.js';
import { parseEmail, parseTelephone, parseUrl } from './uri.js';
import { parseGeo } from './geo.js';

// ---------------------------------------------------------------------------------------------------
// Page
// ---------------------------------------------------------------------------------------------------

export function wikiPageItem(ns: number, dbkey: string, subobject = ''): string {
  return subobject === '' ? `${dbkey}#${ns}#` : `${dbkey}#${ns}##${subobject}`;
}

/** SMWWikiPageValue: a title (the fragment is dropped); `fixedNs` for category/property/form values. */
export function parsePage(value: string, codec: TitleCodec, fixedNs?: number): ParseResult {
  const v = value.replace(/^[\s[]+/, '').replace(/[\s\]]+$/, '');
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

/** How each type's values are read; the types not listed read a page. */
const PARSERS = new Map<string, (value: string) => ParseResult>([
  ['_txt', parseBlob],
  ['_str', parseBlob],
  ['_cod', parseBlob],
  ['_num', parseNumber],
  ['_qty', parseQuantity],
  ['_tem', parseTemperature],
  ['_boo', parseBoolean],
  ['_dat', parseDate],
  ['_geo', parseGeo],
  ['_uri', parseUrl],
  ['_anu', parseUrl],
  ['_ema', parseEmail],
  ['_tel', parseTelephone],
]);

/** Parse a user value for a type id (Page when the type is unknown). Record values are not stored: null. */
export function parseValue(type: string, value: string, codec: TitleCodec, fixedNs?: number): ParseResult | null {
  if (type === '_rec') return null;
  const parse = PARSERS.get(type);
  return parse ? parse(value) : parsePage(value, codec, fixedNs);
}
