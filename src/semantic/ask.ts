/**
 * Semantic MediaWiki 2.2's query language, without I/O: the parser (SMWQueryParser, chunk by chunk as
 * the original reads it, with its error messages), the query description model (SMW\Query\Language:
 * Thing, Namespace, Class, Value, SomeProperty, Conjunction, Disjunction) with size/depth pruning
 * (SMWQuery::applyRestrictions), print requests (SMWQueryProcessor::getSMWPrintRequestFromString) and
 * the query parameters (limit, offset, sort, order, mainlabel) of an API query.
 *
 * Property types decide how a value is read, so the parser asks `typeOf(key)`; the caller loads the
 * types of the property names `propertyNames()` finds first (a store round trip per request, not per
 * property). Error texts are SMW's, in the content language (Ukrainian), as SMW produces them with
 * wfMessage()->inContentLanguage().
 */
import { htmlspecialchars } from '../wiki/html.js';
import type { TitleCodec } from '../wiki/titles.js';
import { NS_CATEGORY } from '../wiki/namespaces.js';
import { ucfirst } from '../wiki/language.js';
import { DI, PREDEFINED_BY_KEY, PREDEFINED_LABELS } from './types.js';
import { isError, numberItem, parseValue, wikiPageItem } from './values.js';

// ---------------------------------------------------------------------------------------------------
// Settings (SemanticMediaWiki.settings.php defaults)
// ---------------------------------------------------------------------------------------------------

export const SMW_QMAX_LIMIT = 10000; // $smwgQMaxLimit
export const SMW_QDEFAULT_LIMIT = 50; // $smwgQDefaultLimit
export const SMW_QUPPERBOUND = 5000; // $smwgQUpperbound (the offset parameter's upper bound)
export const SMW_QMAX_SIZE = 12; // $smwgQMaxSize
export const SMW_QMAX_DEPTH = 4; // $smwgQMaxDepth
export const SMW_QSUBCATEGORY_DEPTH = 10; // $smwgQSubcategoryDepth
export const SMW_QSUBPROPERTY_DEPTH = 10; // $smwgQSubpropertyDepth
export const SMW_QCONCEPT_MAX_SIZE = 20; // $smwgQConceptMaxSize
export const SMW_QCONCEPT_MAX_DEPTH = 8; // $smwgQConceptMaxDepth
export const SMW_NS_CONCEPT = 108;

// ---------------------------------------------------------------------------------------------------
// Messages (i18n/uk.json of SMW 2.2)
// ---------------------------------------------------------------------------------------------------

const MESSAGES: Record<string, string> = {
  smw_querytoolarge: 'Наступні умови запиту не можуть бути опрацьовані в зв’язку з обмеженнями цього вікі в розмірі та/або глибині запиту: $1.',
  smw_toomanyclosing: '«$1» зустрічається занадто багато разів.',
  smw_unexpectedpart: 'Фрагмент запиту «$1» — незрозумілий. Результати можуть відрізнятись від очікуваних.',
  smw_emptysubquery: 'Деякий підзапит не містить інформації про умову.',
  smw_valuesubquery: 'Підзапити не підтримуються для значень властивості «$1».',
  smw_propvalueproblem: 'Значення властивості «$1» — незрозуміле.',
  smw_misplacedsubquery: 'Деякий підзапит був використаний у невідповідному місці.',
  smw_badqueryatom: 'Певна частина «<nowiki>[[…]]</nowiki>» — незрозуміла.',
  smw_misplacedsymbol: 'Символ «$1» використано у невідповідному місці.',
  smw_noclosingbrackets: 'Деякі з «<nowiki>[[</nowiki>» у запиті не було закрито відповідними «]]».',
  smw_notitle: '«$1» неможливо використати у якості назви сторінки у цій вікі.',
  smw_wrong_namespace: 'Тут дозволено лише сторінки в просторі назв «$1».',
  smw_nofloat: '«$1» не є числом',
  smw_nodatetime: 'Дата «$1» — незрозуміла.',
  smw_noboolean: '«$1» не розпізнається як булове значення (значення «так/ні»).',
  smw_baduri: 'Використовувати адреси (URI), що мають форму «$1» не дозволяється.',
  smw_emptystring: 'Використовувати пусті рядки не дозволяється.',
  smw_noproperty: '" $1 " не можна використовувати як ім\'я властивості в цій вікі.',
  smw_unitnotallowed: '«$1» не оголошена як допустима одиниця виміру цієї властивості.',
  smw_unsupportedunit: 'Перетворення для одиниці виміру «$1» не підтримується.',
  smw_bad_geocoord: '«$1» не розпізнано як географічні координати.',
  smw_concept_cache_miss:
    'Концепцію «$1» неможливо використати у цей момент, оскільки налаштування цієї вікі вимагає попередньої автономної обробки. Якщо проблема не вирішиться протягом певного часу, зверніться до адміністратора сайту.',
  // not in SMW 2.2's uk.json: the English text
  'smw-query-condition-circular': 'A possible circular condition has been detected in "$1".',
  smw_no_concept_namespace: 'Концепції можна означувати лише у просторі назв «Концепція:».',
  smw_multiple_concepts: 'Кожна сторінка концепції може мати лише одне означення концепції.',
  smw_concept_description: 'Опис концепції «$1».',
  smw_viewasrdf: 'вивід RDF',
};

export function smwMessage(key: string, ...args: string[]): string {
  const text = MESSAGES[key] ?? key;
  return text.replace(/\$(\d)/g, (m, n: string) => args[Number(n) - 1] ?? m);
}

/** Message->escaped(): the few messages SMW's parser escapes (htmlspecialchars with ENT_QUOTES) */
function escapeHtml(s: string): string {
  return htmlspecialchars(s, 'both');
}

// ---------------------------------------------------------------------------------------------------
// Description model
// ---------------------------------------------------------------------------------------------------

/** SMW_CMP_* */
export type Comparator = 'eq' | 'lt' | 'gt' | 'le' | 'ge' | 'ne' | 'like' | 'nlike';

/** SMWQueryLanguage with $smwStrictComparators = false: '<' and '>' include the bound. Order matters. */
const COMPARATORS: Array<[string, Comparator]> = [
  ['!~', 'nlike'],
  ['<<', 'lt'],
  ['>>', 'gt'],
  ['<', 'le'],
  ['>', 'ge'],
  ['≤', 'le'],
  ['≥', 'ge'],
  ['!', 'ne'],
  ['~', 'like'],
];
const COMPARATOR_STRING: Record<Comparator, string> = { eq: '', lt: '<<', gt: '>>', le: '<', ge: '>', ne: '!', like: '~', nlike: '!~' };

/** A data item as a query compares it. */
export interface QueryItem {
  di: number;
  /** SMW serialization */
  item: string;
  /** page items */
  ns?: number;
  dbkey?: string;
  subobject?: string;
  /** blob items: the text */
  text?: string;
  /** number, time and boolean items: SMW's sort key (the number, the Julian day, 0/1) */
  num?: number;
}

export interface PropertyRef {
  /** '_INST' or a user property's DB key */
  key: string;
  inverse: boolean;
  /** type id ('_wpg' for an undeclared property) */
  type: string;
}

export type Description =
  | { k: 'thing' }
  | { k: 'ns'; ns: number }
  | { k: 'class'; cats: string[] }
  /** a page (top level, or a page-valued property's value) or a value of the enclosing property */
  | { k: 'value'; item: QueryItem; cmp: Comparator; type: string }
  | { k: 'some'; prop: PropertyRef; desc: Description }
  | { k: 'and'; items: Description[] }
  | { k: 'or'; items: Description[] }
  /** `[[Concept:X]]` (ConceptDescription): the pages X's stored query matches (semantic/concepts.ts expands it) */
  | { k: 'concept'; dbkey: string };

const THING: Description = { k: 'thing' };

function size(d: Description): number {
  switch (d.k) {
    case 'thing':
      return 0;
    case 'some':
      return 1 + size(d.desc);
    case 'and':
    case 'or':
      return d.items.reduce((n, x) => n + size(x), 0);
    default:
      // a class disjunction counts once when subcategories are computed anyway
      return 1;
  }
}

function depth(d: Description): number {
  switch (d.k) {
    case 'some':
      return 1 + depth(d.desc);
    case 'and':
    case 'or':
      return d.items.reduce((n, x) => Math.max(n, depth(x)), 0);
    default:
      return 0;
  }
}

/** Conjunction::addDescription: Thing is dropped, conjunctions absorbed. */
export function conjoin(items: Description[]): Description {
  const out: Description[] = [];
  for (const d of items) {
    if (d.k === 'thing') continue;
    if (d.k === 'and') out.push(...d.items);
    else out.push(d);
  }
  if (out.length === 0) return THING;
  if (out.length === 1) return out[0];
  return { k: 'and', items: out };
}

/** Disjunction::addDescription: Thing makes it true, class descriptions merge, disjunctions absorbed. */
export function disjoin(items: Description[]): Description {
  const out: Description[] = [];
  let cls: { k: 'class'; cats: string[] } | null = null;
  for (const d of items) {
    if (d.k === 'thing') return THING;
    if (d.k === 'class') {
      if (cls === null) {
        cls = { k: 'class', cats: [...d.cats] };
        out.push(cls);
      } else cls.cats.push(...d.cats);
    } else if (d.k === 'or') out.push(...d.items);
    else out.push(d);
  }
  if (out.length === 1) return out[0];
  return { k: 'or', items: out };
}

// ---------------------------------------------------------------------------------------------------
// Query strings (Description::getQueryString), for the texts of pruned conditions
// ---------------------------------------------------------------------------------------------------

export interface LanguageContext {
  codec: TitleCodec;
  /** type id of a property key; '_wpg' for properties nobody declared */
  typeOf(key: string): string;
}

function propertyLabel(p: PropertyRef): string {
  const pre = PREDEFINED_BY_KEY.get(p.key);
  const label = pre ? pre.label : p.key.replace(/_/g, ' ');
  return (p.inverse ? '-' : '') + label;
}

function wikiValue(item: QueryItem, codec: TitleCodec): string {
  switch (item.di) {
    case DI.WIKIPAGE: {
      const t = codec.prefixedText(item.ns!, item.dbkey!);
      return item.subobject ? t + '#' + item.subobject : t;
    }
    case DI.BLOB:
      return item.text ?? item.item;
    default:
      return item.item;
  }
}

export function queryString(d: Description, asValue: boolean, codec: TitleCodec): string {
  switch (d.k) {
    case 'thing':
      return asValue ? '+' : '';
    case 'ns': {
      const name = d.ns === 0 ? '' : (codec.nsName(d.ns) ?? '');
      const s = '[[' + (d.ns === NS_CATEGORY ? ':' : '') + name + ':+]]';
      return asValue ? ' <q>' + s + '</q> ' : s;
    }
    case 'class': {
      const s = '[[' + d.cats.map((c, i) => (i === 0 ? codec.prefixedText(NS_CATEGORY, c) : c.replace(/_/g, ' '))).join('||') + ']]';
      return asValue ? ' <q>' + s + '</q> ' : s;
    }
    case 'concept': {
      const s = '[[' + codec.prefixedText(SMW_NS_CONCEPT, d.dbkey) + ']]';
      return asValue ? ' <q>' + s + '</q> ' : s;
    }
    case 'value': {
      const c = COMPARATOR_STRING[d.cmp];
      const v = wikiValue(d.item, codec);
      if (asValue) return c + v;
      return c === '' ? '[[:' + v + ']]' : '[[' + c + v + ']]';
    }
    case 'some': {
      let chain = propertyLabel(d.prop);
      let sub = d.desc;
      while (sub.k === 'some') {
        chain += '.' + propertyLabel(sub.prop);
        sub = sub.desc;
      }
      const s = '[[' + chain + '::' + queryString(sub, true, codec) + ']]';
      return asValue ? '<q>' + s + '</q>' : s;
    }
    case 'and': {
      const s = d.items.map((x) => queryString(x, false, codec)).join(' ');
      if (s === '') return asValue ? '+' : '';
      return asValue ? ' <q>' + s + '</q> ' : s;
    }
    case 'or': {
      const sep = asValue ? '||' : ' OR ';
      const s = d.items
        .map((x) => {
          const sub = queryString(x, asValue, codec);
          if (x.k === 'some') return asValue ? ' <q>[[' + sub + ']]</q> ' : ' <q>' + sub + '</q> ';
          return sub;
        })
        .join(sep);
      return asValue ? s : ' <q>' + s + '</q> ';
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Pruning (Description::prune and its overrides)
// ---------------------------------------------------------------------------------------------------

interface Budget {
  size: number;
  depth: number;
}

function prune(d: Description, b: Budget, log: string[], codec: TitleCodec): Description {
  switch (d.k) {
    case 'thing':
      return d;
    case 'class': {
      if (b.size >= 1) {
        b.size -= 1;
        return d;
      }
      log.push(queryString(d, false, codec));
      return THING;
    }
    case 'some': {
      if (b.size <= 0 || b.depth <= 0) {
        log.push(queryString(d, false, codec));
        return THING;
      }
      b.size--;
      b.depth--;
      return { k: 'some', prop: d.prop, desc: prune(d.desc, b, log, codec) };
    }
    case 'and':
    case 'or': {
      if (b.size <= 0) {
        log.push(queryString(d, false, codec));
        return THING;
      }
      const sub: string[] = [];
      let newDepth = b.depth;
      const items: Description[] = [];
      for (const x of d.items) {
        const rest: Budget = { size: b.size, depth: b.depth };
        items.push(prune(x, rest, sub, codec));
        b.size = rest.size;
        newDepth = Math.min(newDepth, rest.depth);
      }
      // Conjunction::addDescription skips Thing; a Thing in a Disjunction makes it empty (always true)
      const kept = d.k === 'and' ? items.filter((x) => x.k !== 'thing').length : items.some((x) => x.k === 'thing') ? 0 : items.length;
      if (kept > 0) {
        log.push(...sub);
        b.depth = newDepth;
        return d.k === 'and' ? conjoin(items) : disjoin(items);
      }
      log.push(queryString(d, false, codec));
      return THING;
    }
    default: {
      if (b.size < size(d) || b.depth < depth(d)) {
        log.push(queryString(d, false, codec));
        return THING;
      }
      b.size -= size(d);
      b.depth -= depth(d);
      return d;
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Property names (SMWPropertyValue::makeUserProperty)
// ---------------------------------------------------------------------------------------------------

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
function normalTitleText(s: string): string {
  return ucfirst(s.trim()).replace(/_/g, ' ');
}

export type PropertyParse = { key: string; inverse: boolean; label: string } | { error: string };

/** SMWPropertyValue::makeUserProperty: the key, or SMW's error text. */
export function userProperty(value: string): PropertyParse {
  let name = normalTitleText(value.replace(/[ \]]+$/, '').replace(/^[ \[]+/, ''));
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

const isPageType = (t: string) => t === '_wpg' || t === '__sob';

// ---------------------------------------------------------------------------------------------------
// Values (SMWDataValue::getQueryDescription)
// ---------------------------------------------------------------------------------------------------

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

function errorText(code: string, value: string, type: string, codec: TitleCodec): string {
  if (code === 'smw_wrong_namespace') return smwMessage(code, codec.nsName(NS_CATEGORY) ?? '');
  if (code === 'smw_unitnotallowed' || code === 'smw_unsupportedunit') return smwMessage(code, value.replace(/^[\s\d.,+-]+/, ''));
  if (code === 'smw_emptystring') return smwMessage(code);
  void type;
  return smwMessage(code, value);
}

/** A page value as SMWWikiPageValue reads it (the fragment names a subobject). */
function pageItem(text: string, codec: TitleCodec, defaultNs: number): QueryItem | null {
  const v = text.replace(/^[\s\[]+/, '').replace(/[\s\]]+$/, '');
  if (v === '') return null;
  const t = codec.parse(v, defaultNs);
  if (t === null || t.ns < 0 || t.dbkey === '') return null;
  const subobject = t.fragment.replace(/ /g, '_');
  return { di: DI.WIKIPAGE, item: wikiPageItem(t.ns, t.dbkey, subobject), ns: t.ns, dbkey: t.dbkey, subobject };
}

/** The value description of one value text of a property of type `type`; errors go to `errors`. */
function valueDescription(raw: string, prop: PropertyRef, ctx: LanguageContext, errors: string[]): Description {
  let cmp: Comparator = 'eq';
  let value = raw;
  for (const [s, c] of COMPARATORS) {
    if (value.startsWith(s)) {
      cmp = c;
      value = value.slice(s.length);
      break;
    }
  }
  const type = prop.inverse ? '_wpg' : prop.type;
  const fixedNs = PREDEFINED_BY_KEY.get(prop.key)?.ns;
  const dvErrors: string[] = [];
  let item: QueryItem | null = null;
  if (isPageType(type) || type === '__typ') {
    if (type === '__typ') {
      item = { di: DI.URI, item: value.trim() };
    } else {
      item = pageItem(value, ctx.codec, fixedNs ?? 0);
      if (item === null) dvErrors.push(smwMessage('smw_notitle', value.trim()));
      else if (fixedNs !== undefined && item.ns !== fixedNs) {
        dvErrors.push(errorText('smw_wrong_namespace', value, type, ctx.codec));
        item = null;
      }
    }
  } else if (cmp === 'like' || cmp === 'nlike') {
    // a pattern is not a value of the type: it is compared with the stored text or serialization
    const v = value.trim();
    if (v === '') dvErrors.push(smwMessage('smw_emptystring'));
    else item = { di: type === '_txt' || type === '_str' || type === '_cod' ? DI.BLOB : DI.URI, item: v, text: v };
  } else {
    const r = parseValue(type, value, ctx.codec, fixedNs);
    if (r === null) dvErrors.push(smwMessage('smw_notitle', value.trim()));
    else if (isError(r)) dvErrors.push(errorText(r.error, value.trim(), type, ctx.codec));
    else {
      item = { di: r.di, item: r.item };
      if (r.di === DI.BLOB) item.text = r.key ?? r.item;
      const n = itemSortKey(r.di, r.item);
      if (n !== undefined) item.num = n;
    }
  }
  // SMW merges the value's errors with PHP's array union (`$errors + $dvErrors`): only the value
  // errors at positions beyond the existing ones are kept
  for (let i = errors.length; i < dvErrors.length; i++) errors.push(dvErrors[i]);
  if (item === null) return THING;
  return { k: 'value', item, cmp, type };
}

// ---------------------------------------------------------------------------------------------------
// The parser (SMWQueryParser)
// ---------------------------------------------------------------------------------------------------

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\\/]/g, '\\$&');
}

/** <q> levels the parser follows (far beyond what $smwgQMaxDepth and $smwgQMaxSize leave standing). */
const MAX_NESTING = 64;

class QueryParser {
  private rest = '';
  private stack: string[] = [];
  errors: string[] = [];
  private readonly defaultStop: RegExp;
  private readonly categoryPrefixes: string[];
  private readonly conceptPrefixes: string[];
  /** every property name met (for loading their types before the real parse) */
  readonly names = new Set<string>();

  constructor(private readonly ctx: LanguageContext) {
    const cat = (ctx.codec.nsName(NS_CATEGORY) ?? 'Category') + ':';
    const concept = (ctx.codec.nsName(108) ?? 'Concept') + ':';
    this.categoryPrefixes = [cat, 'Category:'];
    this.conceptPrefixes = [concept, 'Concept:'];
    const alts = ['\\[\\[', '\\]\\]', '::', ':=', '<q>', '<\\/q>', '^' + escapeRegex(cat), '^Category:', '^' + escapeRegex(concept), '^Concept:', '\\|\\|', '\\|'];
    this.defaultStop = new RegExp('[\\s]*(' + alts.join('|') + ')', 'iu');
  }

  parse(queryString: string): Description {
    this.errors = [];
    this.rest = queryString;
    this.stack = [];
    const result = this.subquery();
    return result ?? THING;
  }

  /** readChunk: the text before the next delimiter, or the delimiter itself when the text starts with it */
  private readChunk(stop: RegExp | null = null, consume = true, trim = true): string {
    const re = stop ?? this.defaultStop;
    const m = re.exec(this.rest);
    let out: string;
    if (!m) {
      out = this.rest;
      if (consume) this.rest = '';
    } else if (m.index === 0) {
      out = m[1];
      if (consume) this.rest = this.rest.slice(m[0].length);
    } else {
      out = this.rest.slice(0, m.index);
      if (consume) this.rest = this.rest.slice(m.index + m[0].length - m[1].length);
    }
    return trim ? out.trim() : out;
  }

  private static readonly VALUE_STOP = /[\s]*(\[\[|\]\]|\|\||\|)/iu;
  private static readonly CLOSE_STOP = /[\s]*(\]\])/iu;

  private nesting = 0;

  private subquery(): Description | null {
    // SMW recurses without a bound; here a query nested deeper than any the size/depth limits would keep
    // ends with SMW's "too large" error instead of exhausting the stack
    if (++this.nesting > MAX_NESTING) {
      this.errors.push(smwMessage('smw_querytoolarge', this.rest.replace(/\[/g, '&#x005B;')));
      this.rest = '';
      this.nesting--;
      return null;
    }
    try {
      return this.subqueryBody();
    } finally {
      this.nesting--;
    }
  }

  private subqueryBody(): Description | null {
    let conjunction: Description | null = null;
    const disjuncts: Array<Description | null> = [];
    let chunk = this.readChunk();
    let go = chunk !== '';
    while (go) {
      // PHP's switch compares exactly: 'or' and '<Q>' are not understood
      switch (chunk) {
        case '[[': {
          const ld = this.linkDescription();
          if (ld !== null) conjunction = conjunction === null ? ld : conjoin([conjunction, ld]);
          break;
        }
        case 'AND':
        case '<q>': {
          this.stack.push('</q>');
          const sub = this.subquery();
          if (sub !== null) conjunction = conjunction === null ? sub : conjoin([conjunction, sub]);
          break;
        }
        case 'OR':
        case '||':
        case '':
        case '</q>':
          disjuncts.push(conjunction);
          conjunction = null;
          if (chunk === '</q>') {
            if (this.stack.pop() === '</q>') go = false;
            else {
              this.errors.push(smwMessage('smw_toomanyclosing', chunk));
              return null;
            }
          } else if (chunk === '') go = false;
          break;
        case '+':
          break;
        default:
          this.errors.push(smwMessage('smw_unexpectedpart', chunk));
      }
      if (go) chunk = this.readChunk();
    }
    if (disjuncts.length === 0) {
      this.errors.push(smwMessage('smw_emptysubquery'));
      return null;
    }
    const parts: Description[] = [];
    for (const d of disjuncts) {
      if (d === null) {
        this.errors.push(smwMessage('smw_emptysubquery'));
        return null;
      }
      parts.push(d);
    }
    return parts.length === 1 ? parts[0] : disjoin(parts);
  }

  private linkDescription(): Description | null {
    const chunk = this.readChunk(null, true, false);
    const norm = normalTitleText(chunk);
    if (this.categoryPrefixes.includes(norm)) return this.classDescription(true);
    if (this.conceptPrefixes.includes(norm)) return this.classDescription(false);
    const sep = this.readChunk(null, false);
    if (sep === '::' || sep === ':=') {
      if (chunk[0] !== ':') return this.propertyDescription(chunk);
      const full = chunk + this.readChunk(QueryParser.VALUE_STOP);
      return this.articleDescription(full.trim());
    }
    return this.articleDescription(chunk.trim());
  }

  private classDescription(category: boolean): Description | null {
    let result: Description | null = null;
    let chunk: string;
    let go = true;
    while (go) {
      chunk = this.readChunk();
      if (chunk !== '+') {
        const t = this.ctx.codec.parse((category ? this.categoryPrefixes[0] : this.conceptPrefixes[0]) + chunk, 0);
        if (t !== null && category) {
          const d: Description = { k: 'class', cats: [t.dbkey] };
          result = result === null ? d : disjoin([result, d]);
        }
        if (t !== null && !category) result = result === null ? { k: 'concept', dbkey: t.dbkey } : disjoin([result, { k: 'concept', dbkey: t.dbkey }]);
      }
      chunk = this.readChunk();
      go = chunk === '||' && category;
      if (!go) return this.finishLink(chunk, false, result);
    }
    return result;
  }

  private propertyDescription(propertyName: string): Description | null {
    this.readChunk(); // the separator
    const names = propertyName[0] === ' ' ? [propertyName] : propertyName.split('.');
    const props: PropertyRef[] = [];
    let type = '_wpg';
    let inverse = false;
    let lastLabel = '';
    for (const name of names) {
      if (!isPageType(type)) {
        this.errors.push(smwMessage('smw_valuesubquery', name));
        return null;
      }
      const p = userProperty(name);
      if ('error' in p) {
        this.errors.push(p.error);
        return null;
      }
      this.names.add(p.key);
      type = typeOfKey(this.ctx, p.key);
      inverse = p.inverse;
      lastLabel = p.label;
      props.push({ key: p.key, inverse: p.inverse, type });
    }
    const last = props[props.length - 1];
    let inner: Description | null = null;
    let chunk = '';
    let go = true;
    const addInner = (d: Description) => {
      inner = inner === null ? d : disjoin([inner, d]);
    };
    while (go) {
      chunk = this.readChunk();
      if (chunk === '+') {
        addInner(THING);
        chunk = this.readChunk();
      } else if (chunk === '<q>') {
        if (isPageType(type) || inverse) {
          this.stack.push('</q>');
          const sub = this.subquery();
          if (sub !== null) addInner(sub);
        } else {
          this.errors.push(smwMessage('smw_valuesubquery', names[names.length - 1]));
          addInner(THING);
        }
        chunk = this.readChunk();
      } else {
        let open = 1;
        let value = chunk;
        let go2 = true;
        while (open > 0 && go2) {
          chunk = this.readChunk(QueryParser.VALUE_STOP);
          switch (chunk) {
            case '[[':
              open++;
              break;
            case ']]':
              open--;
              break;
            case '|':
            case '||':
              if (open === 1) open = 0;
              break;
            case '':
              go2 = false;
              break;
          }
          if (open !== 0) value += chunk;
        }
        addInner(valueDescription(value, last, this.ctx, this.errors));
      }
      go = chunk === '||';
    }
    if (inner === null) {
      inner = THING;
      this.errors.push(smwMessage('smw_propvalueproblem', lastLabel));
    }
    let result: Description = inner;
    for (let i = props.length - 1; i >= 0; i--) result = { k: 'some', prop: props[i], desc: result };
    return this.finishLink(chunk, false, result);
  }

  private articleDescription(first: string): Description | null {
    let chunk = first;
    let result: Description | null = null;
    let go = true;
    while (go) {
      if (chunk === '<q>') {
        this.errors.push(smwMessage('smw_misplacedsubquery'));
        return null;
      }
      let list = splitLimit(chunk, ':', 3);
      if (list[0] === '' && list.length === 3) list = list.slice(1);
      if (list.length === 2 && list[1] === '+') {
        const ns = list[0] === '' ? 0 : this.ctx.codec.nsIdFromPrefix(list[0]);
        if (ns !== undefined && ns >= 0) result = result === null ? { k: 'ns', ns } : disjoin([result, { k: 'ns', ns }]);
      } else {
        // newTypeIDValue('_wpg', $chunk) reads the chunk as a plain title: comparators are no syntax here
        const item = pageItem(chunk, this.ctx.codec, 0);
        if (item !== null) {
          const d: Description = { k: 'value', item, cmp: 'eq', type: '_wpg' };
          result = result === null ? d : disjoin([result, d]);
        }
      }
      chunk = this.readChunk(QueryParser.VALUE_STOP);
      if (chunk === '||') {
        chunk = this.readChunk(QueryParser.VALUE_STOP);
        go = true;
      } else go = false;
    }
    return this.finishLink(chunk, true, result);
  }

  private finishLink(chunk: string, _hasNamespaces: boolean, result: Description | null): Description | null {
    if (result === null) this.errors.push(smwMessage('smw_badqueryatom'));
    if (chunk === '|') {
      chunk = this.readChunk(QueryParser.CLOSE_STOP);
      let label = '|';
      if (chunk !== ']]') {
        label += chunk;
        chunk = this.readChunk(QueryParser.CLOSE_STOP);
      }
      this.errors.push(escapeHtml(smwMessage('smw_unexpectedpart', label)));
    }
    if (chunk !== ']]') {
      if (chunk !== '') {
        this.errors.push(smwMessage('smw_misplacedsymbol', escapeHtml(chunk)));
        chunk = this.readChunk(QueryParser.CLOSE_STOP);
        if (chunk !== ']]') chunk = this.readChunk(QueryParser.CLOSE_STOP);
      }
      if (chunk === '') this.errors.push(smwMessage('smw_noclosingbrackets'));
    }
    return result;
  }
}

/** PHP explode/preg_split with a limit */
function splitLimit(s: string, sep: string, limit: number): string[] {
  const parts = s.split(sep);
  if (parts.length <= limit) return parts;
  return [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(sep)];
}

/** Property keys a query string names (conditions, chains), for loading their types first. */
export function propertyNames(queryString: string, codec: TitleCodec): string[] {
  const p = new QueryParser({ codec, typeOf: () => '_wpg' });
  p.parse(queryString);
  return [...p.names];
}

export interface ParsedConditions {
  description: Description;
  errors: string[];
  size: number;
  depth: number;
}

/**
 * SMWQueryParser::getQueryDescription, then SMWQuery::applyRestrictions (a concept's definition is pruned
 * to $smwgQConceptMaxSize/$smwgQConceptMaxDepth instead).
 */
export function parseConditions(queryString: string, ctx: LanguageContext, forConcept = false): ParsedConditions {
  const p = new QueryParser(ctx);
  const parsed = p.parse(queryString);
  const errors = [...p.errors];
  const log: string[] = [];
  const budget = forConcept ? { size: SMW_QCONCEPT_MAX_SIZE, depth: SMW_QCONCEPT_MAX_DEPTH } : { size: SMW_QMAX_SIZE, depth: SMW_QMAX_DEPTH };
  const description = prune(parsed, budget, log, ctx.codec);
  if (log.length > 0) errors.push(smwMessage('smw_querytoolarge', log.join(', ').replace(/\[/g, '&#x005B;')));
  return { description, errors, size: size(description), depth: depth(description) };
}

/** SMW_*_QUERY flags (Description::getQueryFeatures) */
const SMW_PROPERTY_QUERY = 1;
const SMW_CATEGORY_QUERY = 2;
const SMW_CONCEPT_QUERY = 4;
const SMW_NAMESPACE_QUERY = 8;
const SMW_CONJUNCTION_QUERY = 16;
const SMW_DISJUNCTION_QUERY = 32;

/** Description::getQueryFeatures: the query constructs a description uses (stored with a concept) */
export function queryFeatures(d: Description): number {
  switch (d.k) {
    case 'thing':
    case 'value':
      return 0;
    case 'ns':
      return SMW_NAMESPACE_QUERY;
    case 'class':
      return d.cats.length > 1 ? SMW_CATEGORY_QUERY | SMW_DISJUNCTION_QUERY : SMW_CATEGORY_QUERY;
    case 'concept':
      return SMW_CONCEPT_QUERY;
    case 'some':
      return SMW_PROPERTY_QUERY | queryFeatures(d.desc);
    case 'and':
      return d.items.reduce((f, x) => f | queryFeatures(x), SMW_CONJUNCTION_QUERY);
    case 'or':
      return d.items.reduce((f, x) => f | queryFeatures(x), SMW_DISJUNCTION_QUERY);
  }
}

// ---------------------------------------------------------------------------------------------------
// Print requests and parameters (SMWQueryProcessor)
// ---------------------------------------------------------------------------------------------------

/** PrintRequest::PRINT_* */
export const PRINT_CATS = 0;
export const PRINT_PROP = 1;
export const PRINT_THIS = 2;
export const PRINT_CCAT = 3;

export interface PrintRequest {
  mode: number;
  label: string;
  /** false when none was given; '-' for a plain '#' */
  format: string | false;
  /** PRINT_PROP */
  prop?: PropertyRef;
  /** PRINT_CCAT: the category's DB key */
  category?: string;
}

/** getSMWPrintRequestFromString; null when SMW gives up on it. In show mode (#show) the default labels are ''. */
export function printRequestFromString(raw: string, ctx: LanguageContext, showMode = false): PrintRequest | null {
  const eq = raw.indexOf('=');
  const head = eq < 0 ? raw : raw.slice(0, eq);
  const hash = head.indexOf('#');
  const name = hash < 0 ? head : head.slice(0, hash);
  // trim(false) is '' in PHP: a printout without '#' has the output format ''
  let format = hash < 0 ? '' : head.slice(hash + 1).trim();
  if (hash >= 0 && format === '') format = '-';
  const catName = ctx.codec.nsName(NS_CATEGORY) ?? 'Category';
  let pr: PrintRequest;
  if (name.trim() === '') {
    pr = { mode: PRINT_THIS, label: '', format: false };
  } else if (ucfirst(name.trim()) === catName) {
    pr = { mode: PRINT_CATS, label: catName, format: false };
  } else {
    const t = ctx.codec.parse(name.trim(), 102);
    if (t === null) return null;
    if (t.ns === NS_CATEGORY) {
      pr = { mode: PRINT_CCAT, label: t.dbkey.replace(/_/g, ' '), format: 'x', category: t.dbkey };
    } else {
      const p = userProperty(name.trim());
      if ('error' in p) return null;
      pr = { mode: PRINT_PROP, label: p.label, format: false, prop: { key: p.key, inverse: p.inverse, type: p.inverse ? '_wpg' : typeOfKey(ctx, p.key) } };
    }
  }
  pr.format = pr.mode === PRINT_CCAT && format === '' ? 'x' : format;
  if (showMode) pr.label = '';
  if (eq >= 0) pr.label = raw.slice(eq + 1).trim();
  return pr;
}

export interface AskComponents {
  queryString: string;
  /** raw parameters, keys lowercased */
  parameters: Map<string, string>;
  /** printout strings after '?' (with their raw text) */
  printouts: string[];
}

/** SMWQueryProcessor::getComponentsFromFunctionParams; in show mode (#show) the conditions are one page. */
export function componentsFromParams(rawParams: string[], showMode = false): AskComponents {
  let queryString = '';
  const parameters = new Map<string, string>();
  const printouts: string[] = [];
  for (let raw of rawParams) {
    // '=' inside [[…::…]] is not a parameter separator (bug 32955)
    raw = raw.replace(/\[\[(?:([^:][^\]]*):[=:])+([^\[\]]*)\]\]/gu, (m) => m.replace(/=/g, '-3D'));
    if (raw === '') continue;
    if (raw[0] === '?') printouts.push(raw.slice(1));
    else if (raw[0] === '+') continue; // a parameter of the previous printout (no effect on the API output)
    else {
      const eq = raw.indexOf('=');
      if (eq >= 0) parameters.set(raw.slice(0, eq).trim().toLowerCase(), raw.slice(eq + 1));
      else queryString += raw;
    }
  }
  queryString = queryString.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/-3D/g, '=');
  if (showMode) queryString = `[[:${queryString}]]`;
  return { queryString, parameters, printouts };
}

/** ApiRequestParameterFormatter::getAskApiParameters: split at single '|' (not '||'). */
export function splitAskQuery(query: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (let i = 1; i < query.length - 1; i++) {
    if (query[i] === '|' && query[i - 1] !== '|' && query[i + 1] !== '|') {
      out.push(query.slice(last, i));
      last = i + 1;
    }
  }
  out.push(query.slice(last));
  return out;
}

export type SortOrder = 'ASC' | 'DESC' | 'RANDOM';

export interface QueryOptions {
  limit: number;
  offset: number;
  /** [property key ('' = the page), order], in the order given */
  sort: Array<[string, SortOrder]>;
  mainlabel: string | null;
  errors: string[];
}

/** ParamProcessor's integer with 'negatives' => false (and an upper bound): invalid → the default. */
function intParam(v: string | undefined, dflt: number, upper?: number): number {
  if (v === undefined) return dflt;
  const t = v.trim();
  if (!/^\+?\d+$/.test(t)) return dflt;
  const n = Number(t);
  if (upper !== undefined && n > upper) return dflt;
  return n;
}

/** ParamProcessor's list: comma-separated, trimmed. */
function listParam(v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return v.split(',').map((x) => x.trim());
}

/** createQuery's limit/offset/sort handling for the special-page context of the API. */
export function queryOptions(parameters: Map<string, string>): QueryOptions {
  const errors: string[] = [];
  const offset = Math.min(SMW_QMAX_LIMIT, intParam(parameters.get('offset'), 0, SMW_QUPPERBOUND));
  const limit = Math.min(SMW_QMAX_LIMIT - offset, intParam(parameters.get('limit'), SMW_QDEFAULT_LIMIT), SMW_QMAX_LIMIT);
  const sortParam = listParam(parameters.get('sort')) ?? [''];
  const orderParam = (listParam(parameters.get('order')) ?? []).filter((o) => o !== '');
  const orders: SortOrder[] = orderParam.map((o) => {
    const x = o.toLowerCase();
    return x === 'descending' || x === 'reverse' || x === 'desc' ? 'DESC' : x === 'random' || x === 'rand' ? 'RANDOM' : 'ASC';
  });
  const sort: Array<[string, SortOrder]> = [];
  const setSort = (k: string, o: SortOrder) => {
    const i = sort.findIndex(([x]) => x === k);
    if (i >= 0) sort[i][1] = o;
    else sort.push([k, o]);
  };
  for (const s of sortParam) {
    let key: string;
    if (s.trim() === '') key = '';
    else {
      const p = userProperty(s.trim());
      if ('error' in p) {
        errors.push(p.error);
        continue;
      }
      key = p.key;
    }
    setSort(key, orders.length ? orders.shift()! : 'ASC');
  }
  if (!sort.some(([k]) => k === '') && orders.length > 0) setSort('', orders.shift()!);
  const mainlabel = parameters.has('mainlabel') ? parameters.get('mainlabel')! : null;
  return { limit, offset, sort, mainlabel, errors };
}

export { numberItem };
