/**
 * SMW 2.2's query language as descriptions (SMW\Query\Language: Thing, Namespace, Class, Value,
 * SomeProperty, Conjunction, Disjunction, Concept), with what a description says of itself: its size and
 * depth, its query string (Description::getQueryString), its pruning to the size/depth limits
 * (Description::prune, for SMWQuery::applyRestrictions) and its query features.
 */
import type { TitleCodec } from '../../wiki/titles.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { DI, PREDEFINED_BY_KEY } from '../types.js';
import { SMW_NS_CONCEPT } from './limits.js';

/** SMW_CMP_* */
export type Comparator = 'eq' | 'lt' | 'gt' | 'le' | 'ge' | 'ne' | 'like' | 'nlike';

/** SMWQueryLanguage with $smwStrictComparators = false: '<' and '>' include the bound. Order matters. */
export const COMPARATORS: Array<[string, Comparator]> = [
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
  /** `[[Concept:X]]` (ConceptDescription): the pages X's stored query matches (semantic/engine/concept-expansion.ts expands it) */
  | { k: 'concept'; dbkey: string };

export const THING: Description = { k: 'thing' };

export function descriptionSize(d: Description): number {
  switch (d.k) {
    case 'thing':
      return 0;
    case 'some':
      return 1 + descriptionSize(d.desc);
    case 'and':
    case 'or':
      return d.items.reduce((n, x) => n + descriptionSize(x), 0);
    default:
      // a class disjunction counts once when subcategories are computed anyway
      return 1;
  }
}

export function descriptionDepth(d: Description): number {
  switch (d.k) {
    case 'some':
      return 1 + descriptionDepth(d.desc);
    case 'and':
    case 'or':
      return d.items.reduce((n, x) => Math.max(n, descriptionDepth(x)), 0);
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

/** What a description may still use of the size and depth limits while it is pruned. */
export interface Budget {
  size: number;
  depth: number;
}

export function prune(d: Description, b: Budget, log: string[], codec: TitleCodec): Description {
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
      if (b.size < descriptionSize(d) || b.depth < descriptionDepth(d)) {
        log.push(queryString(d, false, codec));
        return THING;
      }
      b.size -= descriptionSize(d);
      b.depth -= descriptionDepth(d);
      return d;
    }
  }
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
