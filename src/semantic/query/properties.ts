/**
 * Property names in queries (SMWPropertyValue::makeUserProperty): the key a label names, predefined or
 * a user property, and the type that decides how the property's values are read.
 *
 * Property types decide how a value is read, so the parser asks `typeOf(key)`; the caller loads the
 * types of the property names `propertyNames()` finds first (a store round trip per request, not per
 * property).
 */
import type { TitleCodec } from '../../wiki/titles.js';
import { ucfirst } from '../../wiki/language.js';
import { PREDEFINED_BY_KEY, PREDEFINED_LABELS } from '../types.js';
import { smwMessage } from './messages.js';

export interface LanguageContext {
  codec: TitleCodec;
  /** type id of a property key; '_wpg' for properties nobody declared */
  typeOf(key: string): string;
}

/** Labels of predefined properties a query may name (English, as SMW 2.2 registers them, and this wiki's). */
const QUERY_PREDEFINED = new Map<string, string>([
  // every label an annotation may use, and the properties only SMW itself writes
  ...PREDEFINED_LABELS,
  ['Modification date', '_MDAT'],
  ['Has improper value for', '_ERRP'],
  ['Has query', '_ASK'],
  ['Has subobject', '_SOBJ'],
  ['Query string', '_ASKST'],
  ['Query format', '_ASKFO'],
  ['Query size', '_ASKSI'],
  ['Query depth', '_ASKDE'],
]);

/** Types of predefined properties (SMW's registry), where the stored type says '__fixed'. */
const PREDEFINED_TYPES: Record<string, string> = {
  _MDAT: '_dat',
  _ERRP: '_wpg',
  _ASK: '__sob',
  _SOBJ: '__sob',
  _ASKST: '_cod',
  _ASKFO: '_txt',
  _ASKSI: '_num',
  _ASKDE: '_num',
  _SKEY: '_txt',
  _TYPE: '__typ',
};

/** smwfNormalTitleText */
export function normalTitleText(s: string): string {
  return ucfirst(s.trim()).replace(/_/g, ' ');
}

export type PropertyParse = { key: string; inverse: boolean; label: string } | { error: string };

/** SMWPropertyValue::makeUserProperty: the key, or SMW's error text. */
export function userProperty(value: string): PropertyParse {
  let name = normalTitleText(value.replace(/[ \]]+$/, '').replace(/^[ []+/, ''));
  let inverse = false;
  if (name !== '' && name[0] === '-') {
    name = normalTitleText(value.slice(1));
    inverse = true;
  }
  if (name === '' || name[0] === '-') return { error: smwMessage('smw_noproperty', value) };
  const pre = QUERY_PREDEFINED.get(name);
  const key = pre ?? name.replace(/ /g, '_');
  return { key, inverse, label: (inverse ? '-' : '') + name };
}

/** A property's type id: SMW's own for predefined properties, the declared one (or Page) for user properties. */
export function typeOfKey(ctx: LanguageContext, key: string): string {
  if (key.startsWith('_')) {
    const t = PREDEFINED_TYPES[key] ?? PREDEFINED_BY_KEY.get(key)?.type;
    if (t !== undefined && t !== '__fixed') return t;
    return '_wpg';
  }
  return ctx.typeOf(key);
}

export const isPageType = (t: string) => t === '_wpg' || t === '__sob';
