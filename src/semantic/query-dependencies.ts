/**
 * What an inline query can see, for re-evaluating it only when that changes (SMW's query dependency
 * links, QueryDependencyLinksStore: a query is refreshed when a value of a property its conditions name
 * changes, a page enters or leaves a category or namespace it asks for, or a page it names or lists
 * changes). Read from the query's conditions (_ASKST); a concept is read through its own stored query,
 * a few levels deep.
 */
import type { TitleCodec } from '../wiki/titles.js';
import type { Description } from './query/descriptions.js';
import { parseConditions } from './query/parser.js';

export interface QueryDependencies {
  /** property keys its conditions name ('_INST' is kept in `categories`) */
  properties: Set<string>;
  /** category DB keys (a subcategory's change counts for every category query) */
  categories: Set<string>;
  namespaces: Set<number>;
  /** pages it names, as `ns:dbkey` */
  pages: Set<string>;
  /** any change can change it (a condition on every page, a concept that cannot be read) */
  any: boolean;
}

/** levels of concepts within concepts read ($smwgQConceptMaxDepth is deeper; past this, any change counts) */
const CONCEPT_DEPTH = 4;

export function queryDependencies(
  conditions: string,
  codec: TitleCodec,
  concept: (dbkey: string) => string | undefined,
  depth = 0,
): QueryDependencies {
  const deps: QueryDependencies = { properties: new Set(), categories: new Set(), namespaces: new Set(), pages: new Set(), any: false };
  // every property as a page-valued one: the types change how values compare, not which properties are named
  const parsed = parseConditions(conditions, { codec, typeOf: () => '_wpg' });
  walk(parsed.description, deps, true, codec, concept, depth);
  return deps;
}

function walk(
  d: Description,
  deps: QueryDependencies,
  top: boolean,
  codec: TitleCodec,
  concept: (dbkey: string) => string | undefined,
  depth: number,
): void {
  switch (d.k) {
    case 'thing':
      if (top) deps.any = true;
      return;
    case 'ns':
      deps.namespaces.add(d.ns);
      return;
    case 'class':
      for (const c of d.cats) deps.categories.add(c);
      return;
    case 'value':
      if (d.item.ns !== undefined && d.item.dbkey !== undefined) deps.pages.add(`${d.item.ns}:${d.item.dbkey}`);
      return;
    case 'some':
      if (d.prop.key === '_INST') deps.categories.add('');
      else deps.properties.add(d.prop.key);
      walk(d.desc, deps, false, codec, concept, depth);
      return;
    case 'and':
    case 'or':
      for (const item of d.items) walk(item, deps, top && d.k === 'or', codec, concept, depth);
      return;
    case 'concept': {
      const text = depth < CONCEPT_DEPTH ? concept(d.dbkey) : undefined;
      if (text === undefined) {
        deps.any = true;
        return;
      }
      const inner = queryDependencies(text, codec, concept, depth + 1);
      for (const p of inner.properties) deps.properties.add(p);
      for (const c of inner.categories) deps.categories.add(c);
      for (const n of inner.namespaces) deps.namespaces.add(n);
      for (const p of inner.pages) deps.pages.add(p);
      if (inner.any) deps.any = true;
      return;
    }
  }
}

/**
 * properties whose change alone refreshes no query ($smwgQueryDependencyPropertyExemptionlist: the
 * modification date, subobject links) nor the query's own description
 */
const EXEMPT = new Set(['_MDAT', '_SOBJ', '_ASK', '_ASKST', '_ASKFO', '_ASKSI', '_ASKDE', '_ASKDU']);

/** What the pages a batch wrote changed, as the inline queries see it. */
export class SemanticChanges {
  readonly properties = new Set<string>();
  readonly categories = new Set<string>();
  readonly namespaces = new Set<number>();
  /** pages whose values changed, or that came or went, as `ns:dbkey` */
  readonly pages = new Set<string>();

  /** a page's values before and after (SemanticUpdateWriter.valuesOf) */
  values(ns: number, dbkey: string, before: readonly string[], after: readonly string[]): void {
    const old = new Set(before);
    const now = new Set(after);
    let changed = false;
    for (const v of old) if (!now.has(v)) changed = this.value(v) || changed;
    for (const v of now) if (!old.has(v)) changed = this.value(v) || changed;
    if (changed) {
      this.pages.add(`${ns}:${dbkey}`);
      this.namespaces.add(ns);
    }
  }

  /** a title that came or went (a page created, deleted or moved) */
  title(ns: number, dbkey: string): void {
    this.pages.add(`${ns}:${dbkey}`);
    this.namespaces.add(ns);
  }

  private value(v: string): boolean {
    const tab = v.indexOf('\t');
    const key = v.slice(0, tab);
    if (EXEMPT.has(key)) return false;
    if (key === '_INST') this.categories.add(v.slice(tab + 1, v.indexOf('\t', tab + 1)));
    // a subcategory's change reaches every category query (their members include the subcategories')
    else if (key === '_SUBC') this.categories.add('');
    else this.properties.add(key);
    return true;
  }

  get empty(): boolean {
    return this.pages.size === 0;
  }

  /** whether a query with these dependencies can answer otherwise now */
  reaches(d: QueryDependencies): boolean {
    if (this.empty) return false;
    if (d.any) return true;
    for (const p of d.properties) if (this.properties.has(p)) return true;
    for (const c of d.categories) if (c === '' ? this.categories.size > 0 : this.categories.has(c) || this.categories.has('')) return true;
    for (const n of d.namespaces) if (this.namespaces.has(n)) return true;
    for (const p of d.pages) if (this.pages.has(p)) return true;
    return false;
  }
}
