/**
 * Semantic MediaWiki 2.2's data types and predefined properties, as far as wikiquery stores them: type
 * ids (`_wpg`, `_num`, …) with their English labels (SMW's own) and the Ukrainian labels this wiki's
 * property pages use, the data item type code each type produces (SMWDataItem::TYPE_*), and the
 * predefined properties an annotation can name ("Has type", "Має тип", …).
 */
import { ucfirst } from '../wiki/language.js';

/** SMWDataItem::TYPE_* */
export const DI = {
  NUMBER: 1,
  BLOB: 2,
  BOOLEAN: 4,
  URI: 5,
  TIME: 6,
  GEO: 7,
  CONTAINER: 8,
  WIKIPAGE: 9,
  CONCEPT: 10,
  PROPERTY: 11,
  ERROR: 12,
} as const;

export interface TypeInfo {
  id: string;
  /** data item type code of its values */
  di: number;
  /** labels accepted in [[Has type::…]], the canonical English one first */
  labels: string[];
}

/** User-assignable types. */
export const TYPES: TypeInfo[] = [
  { id: '_wpg', di: DI.WIKIPAGE, labels: ['Page', 'Сторінка'] },
  { id: '_txt', di: DI.BLOB, labels: ['Text', 'Текст'] },
  { id: '_str', di: DI.BLOB, labels: ['String', 'Рядок'] },
  { id: '_cod', di: DI.BLOB, labels: ['Code', 'Програмний код'] },
  { id: '_num', di: DI.NUMBER, labels: ['Number', 'Число'] },
  { id: '_qty', di: DI.NUMBER, labels: ['Quantity', 'Кількість'] },
  { id: '_tem', di: DI.NUMBER, labels: ['Temperature', 'Температура'] },
  { id: '_boo', di: DI.BOOLEAN, labels: ['Boolean', 'Булеве', 'Булевий', 'Логічний', 'Логічне', 'Логічне значення'] },
  { id: '_dat', di: DI.TIME, labels: ['Date', 'Дата'] },
  { id: '_uri', di: DI.URI, labels: ['URL', 'URI', 'Адреса URL', 'Посилання'] },
  { id: '_anu', di: DI.URI, labels: ['Annotation URI'] },
  { id: '_ema', di: DI.URI, labels: ['Email', 'E-mail', 'Електронна пошта', 'Ел. пошта'] },
  { id: '_tel', di: DI.URI, labels: ['Telephone number', 'Номер телефону', 'Телефон'] },
  {
    id: '_geo',
    di: DI.GEO,
    labels: ['Geographic coordinate', 'Geographic coordinates', 'Географічна координата', 'Географічні координати', 'Координати'],
  },
  { id: '_rec', di: DI.WIKIPAGE, labels: ['Record', 'Запис'] },
];

const TYPE_BY_ID = new Map(TYPES.map((t) => [t.id, t]));
const TYPE_BY_LABEL = new Map<string, string>();
const TYPE_BY_LOWER_LABEL = new Map<string, string>();
for (const t of TYPES) {
  for (const l of t.labels) {
    TYPE_BY_LABEL.set(l, t.id);
    TYPE_BY_LOWER_LABEL.set(l.toLowerCase(), t.id);
  }
}

/** Types stored as blobs: the values Semantic Forms autocompletes (SF reads smw_di_blob). */
export const BLOB_TYPES = new Set(['_txt', '_str', '_cod']);

export function typeInfo(id: string): TypeInfo | undefined {
  return TYPE_BY_ID.get(id);
}

/** A [[Has type::…]] value → type id (labels as SMW normalises them: trimmed, first letter uppercased). */
export function typeIdFromLabel(label: string): string | undefined {
  const norm = ucfirst(label.trim().replace(/[\s_]+/g, ' '));
  if (norm === '') return undefined;
  // a type id written directly ([[Has type::_num]]) is accepted by SMW too
  if (norm.startsWith('_') && TYPE_BY_ID.has(norm)) return norm;
  return TYPE_BY_LABEL.get(norm) ?? TYPE_BY_LOWER_LABEL.get(norm.toLowerCase());
}

/** SMW's URI of a type, the value of _TYPE: http://semantic-mediawiki.org/swivt/1.0#_num */
export function typeUri(id: string): string {
  return 'http://semantic-mediawiki.org/swivt/1.0#' + id;
}

/** Types of the predefined properties wikiquery handles (internal ids start with '__' or name a value type). */
export interface PredefinedProperty {
  key: string;
  /** English label (its DB-key form is the title of the property's page, e.g. _ERRP values) */
  label: string;
  /** how values are parsed: a type id, '__typ' for _TYPE, or '__fixed' when only SMW itself sets it */
  type: string;
  /** wikipage values live in this namespace (category, property, form) */
  ns?: number;
}

export const PREDEFINED: PredefinedProperty[] = [
  { key: '_TYPE', label: 'Has type', type: '__typ' },
  { key: '_URI', label: 'Equivalent URI', type: '_uri' },
  { key: '_INST', label: 'Category', type: '_wpg', ns: 14 },
  { key: '_SUBC', label: 'Subcategory of', type: '_wpg', ns: 14 },
  { key: '_SUBP', label: 'Subproperty of', type: '_wpg', ns: 102 },
  { key: '_UNIT', label: 'Display units', type: '_txt' },
  { key: '_CONV', label: 'Corresponds to', type: '_txt' },
  { key: '_PVAL', label: 'Allows value', type: '_txt' },
  { key: '_LIST', label: 'Has fields', type: '_txt' },
  { key: '_SF_DF', label: 'Has default form', type: '_wpg', ns: 106 },
  { key: '_SF_AF', label: 'Has alternate form', type: '_wpg', ns: 106 },
  // the properties only SMW itself sets
  ...[
    ['_SKEY', 'Sort key'],
    ['_MDAT', 'Modification date'],
    ['_ERRP', 'Has improper value for'],
    ['_ASK', 'Has query'],
    ['_SOBJ', 'Has subobject'],
    ['_ASKST', 'Query string'],
    ['_ASKFO', 'Query format'],
    ['_ASKSI', 'Query size'],
    ['_ASKDE', 'Query depth'],
  ].map(([key, label]) => ({ key, label, type: '__fixed' })),
];

export const PREDEFINED_BY_KEY = new Map(PREDEFINED.map((p) => [p.key, p]));

/** Labels an annotation may use for a predefined property (English, plus this wiki's Ukrainian ones). */
export const PREDEFINED_LABELS = new Map<string, string>([
  ['Has type', '_TYPE'],
  ['Має тип', '_TYPE'],
  ['Equivalent URI', '_URI'],
  ['Subproperty of', '_SUBP'],
  ['Є підвластивістю', '_SUBP'],
  ['Display units', '_UNIT'],
  ['Corresponds to', '_CONV'],
  ['Allows value', '_PVAL'],
  ['Допустиме значення', '_PVAL'],
  ['Has fields', '_LIST'],
  ['Has default form', '_SF_DF'],
  ['Page has default form', '_SF_DF'],
  ['Has alternate form', '_SF_AF'],
]);

/**
 * The property key of a label as written in an annotation: a predefined key ('_TYPE') or the label's
 * DB key (trimmed, whitespace/underscore runs as one '_', first letter uppercased as SMW's
 * smwfNormalTitleText does). null when the label cannot name a property.
 */
export function propertyKeyFromLabel(label: string): string | null {
  const text = ucfirst(label.replace(/[\s_\u00a0]+/g, ' ').trim());
  if (text === '' || /[#<>[\]|{}\u0000-\u001f\u007f\ufffd]/.test(text)) return null;
  const predefined = PREDEFINED_LABELS.get(text);
  if (predefined) return predefined;
  if (text.startsWith('_')) return null; // no user property may look like a predefined key
  return text.replace(/ /g, '_');
}

/** The DB key of a property's page (Property:<label>): '_ERRP' values point there. */
export function propertyPageKey(key: string): string {
  const p = PREDEFINED_BY_KEY.get(key);
  return p ? p.label.replace(/ /g, '_') : key;
}

/** Namespaces where SMW 2.2 keeps semantic data ($smwgNamespacesWithSemanticLinks defaults, + SF's Form). */
export const SEMANTIC_NAMESPACES = new Set([0, 2, 4, 6, 12, 14, 102, 104, 106, 108]);
