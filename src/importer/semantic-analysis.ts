/**
 * The semantic importer's work on a page's expanded text, run on the analysis workers (see hooks.ts).
 *
 * In pass 2 (with the hook's data: the types the Property: pages declare, known from the pre-pass of
 * begin()) a page's annotations, subobjects and queries are typed here -- parsed per type (values.ts;
 * a value that does not fit becomes _ERRP), page values that name a redirect replaced by its target,
 * duplicates of a subject dropped, sort keys computed -- and come back as a flat list of write operations
 * (SemanticOps) that semantic-hook.ts applies on the main thread in order: all it does per value is give
 * the property its id and write the row. Without the data (the pre-pass itself) the result is the
 * page's annotations as read.
 */
import { extractAnnotations, type PageAnnotations, type RawAnnotation } from '../semantic/annotations.js';
import { SEMANTIC_NAMESPACES } from '../semantic/types.js';
import { BLOB_TYPES, DI, PREDEFINED_BY_KEY, propertyKeyFromLabel, propertyPageKey, typeIdFromLabel, typeUri } from '../semantic/types.js';
import { isError } from '../semantic/datavalues/data-item.js';
import { mwTimestampItem } from '../semantic/datavalues/time.js';
import { numberItem } from '../semantic/datavalues/number.js';
import { parseValue, wikiPageItem } from '../semantic/datavalues/values.js';
import { itemSortKey } from '../semantic/datavalues/sort-key.js';
import { SMW_NS_CONCEPT } from '../semantic/query/limits.js';
import { NS_PROPERTY } from '../wiki/namespaces.js';
import type { TitleCodec } from '../wiki/titles.js';
import type { ImportSource, TitleRef } from '../store/import-writer.js';
import type { HookAnalyzer, PageAnalysis } from './hooks.js';

/** What the hook hands the workers for pass 2: [property DB key, declared type id] of the Property: pages. */
export type SemanticAnalyzerData = Array<[string, string]>;

/**
 * Operations, flat (cheap to pass between threads). `seq` is the subject's next sv_seq, `prop` the property
 * of the last ANN; every operation that writes a value or a staged row takes the next seq.
 */
export const OP = {
  /** ns, dbkey, subobject, sortkey: a new subject (seq starts at 0) */
  SUBJECT: 0,
  /** key: an annotation's property (its id is taken, even when no value follows); its type is the one typed with */
  ANN: 1,
  /** di, item, ns, key, sortNum: a value of `prop` */
  VALUE: 2,
  /** di, item, ns, key, sortNum: an _ERRP value (its property id is known at the end) */
  ERRP: 3,
  /** value: an autocompletion value of `prop` */
  COMPLETION: 4,
  /** key, di, item, sortNum: a value SMW makes itself */
  ITEM: 5,
  /** key, text: a row staged for the end (_ASKST, _CONC) */
  STAGE: 6,
  /** property page DB key, type: a [[Has type::…]] of a Property: page */
  DECLARE: 7,
} as const;

export type SemanticOps = unknown[];

/**
 * null: SMW keeps no data for the page (a redirect). A page outside the semantic namespaces is a subject
 * without values: SMW 2.2's StoreUpdater clears its data, and SQLStore3Writers::doFlatDataUpdate
 * "always make[s] an ID" with the title as sort key, so `[[Шаблон:+]]` finds the templates.
 */
export const analyzer: HookAnalyzer = (p, text, ctx): PageAnnotations | SemanticOps | null => {
  if (p.isRedirect) return null;
  if (!SEMANTIC_NAMESPACES.has(p.ns)) {
    return ctx.data === undefined || ctx.data === null ? null : [OP.SUBJECT, p.ns, p.dbkey, '', p.dbkey.replace(/_/g, ' ')];
  }
  const ann = extractAnnotations(text, ctx.codec);
  if (ctx.data === undefined || ctx.data === null) return ann;
  return typerOf(ctx.data as SemanticAnalyzerData, ctx.codec, ctx.source!).page(p, ann);
};

/** one typer per thread and data (the redirect cache lives as long as the pass) */
const typers = new WeakMap<object, SemanticTyper>();
function typerOf(data: SemanticAnalyzerData, codec: TitleCodec, source: ImportSource): SemanticTyper {
  let t = typers.get(data);
  if (t === undefined) {
    t = new SemanticTyper(new Map(data), codec, source);
    typers.set(data, t);
  }
  return t;
}

interface PropInfo {
  type: string;
  ns?: number;
}

/** the key _ERRP values are told apart by in a subject's values until _ERRP has its id (no property key is empty) */
const ERRP_KEY = '';

export class SemanticTyper {
  private readonly infos = new Map<string, PropInfo>();
  private readonly redirectCache = new Map<string, TitleRef | null>();
  private ops: SemanticOps = [];
  /** the values the current subject has (SMW keeps one of each) */
  private seen = new Set<string>();

  constructor(
    /** user properties' types declared by their Property: pages */
    private readonly declared: Map<string, string>,
    private readonly codec: TitleCodec,
    private readonly source: ImportSource,
  ) {}

  /** a property's type and namespace, as smw_property will have them once the declared types are applied */
  info(key: string): PropInfo {
    let i = this.infos.get(key);
    if (i === undefined) {
      const pre = PREDEFINED_BY_KEY.get(key);
      const type = (!key.startsWith('_') && this.declared.get(key)) || (pre?.type ?? '_wpg');
      i = { type, ns: pre?.ns };
      this.infos.set(key, i);
    }
    return i;
  }

  private resolveRedirect(ns: number, dbkey: string): TitleRef | null {
    const k = `${ns}|${dbkey}`;
    let t = this.redirectCache.get(k);
    if (t === undefined) {
      const target = this.source.pages.redirectTarget({ ns, dbkey });
      t = target === undefined ? null : { ns: target.ns, dbkey: target.dbkey };
      if (this.redirectCache.size > 20000) this.redirectCache.clear();
      this.redirectCache.set(k, t);
    }
    return t;
  }

  private subject(ns: number, dbkey: string, subobject: string, sortkey: string): void {
    this.ops.push(OP.SUBJECT, ns, dbkey, subobject, sortkey);
    this.seen = new Set();
  }

  /** false when the subject has the value already */
  private fresh(key: string, item: string): boolean {
    const sig = `${key}\u0001${item}`;
    if (this.seen.has(sig)) return false;
    this.seen.add(sig);
    return true;
  }

  /** a value of the current annotation's property; `derived`: sv_item is left NULL */
  private value(key: string, di: number, item: string, ns: number | null, dbkey: string | null, derived = false): boolean {
    if (!this.fresh(key, item)) return false;
    this.ops.push(OP.VALUE, di, derived ? null : item, ns, dbkey, itemSortKey(di, item) ?? null);
    return true;
  }

  /** _ERRP: the current subject has an improper value for `key` (a page value: the property's page) */
  private improper(key: string): void {
    const page = propertyPageKey(key);
    const item = wikiPageItem(NS_PROPERTY, page);
    if (!this.fresh(ERRP_KEY, item)) return;
    this.ops.push(OP.ERRP, DI.WIKIPAGE, item, NS_PROPERTY, page, itemSortKey(DI.WIKIPAGE, item) ?? null);
  }

  /** a data item SMW makes itself (`di`: its type code) */
  private item(key: string, di: number, item: string): void {
    if (this.fresh(key, item)) this.ops.push(OP.ITEM, key, di, item, itemSortKey(di, item) ?? null);
  }

  /** an annotation's value, parsed by its property's type */
  private annotation(key: string, text: string): void {
    this.ops.push(OP.ANN, key);
    const prop = this.info(key);
    if (prop.type === '__typ') {
      const type = typeIdFromLabel(text);
      if (type === undefined) this.improper(key);
      else this.value(key, DI.URI, typeUri(type), null, null);
      return;
    }
    const v = parseValue(prop.type, text, this.codec, prop.ns);
    if (v === null) return;
    if (isError(v)) {
      this.improper(key);
      return;
    }
    // user properties' page and text values keep their title/text in sv_key (matched by baseprop,
    // autocompleted) and no separate sv_item (it is derived from sv_key when read)
    const user = !key.startsWith('_');
    if (v.di === DI.WIKIPAGE) {
      let ns = v.ns!;
      let dbkey = v.key!;
      const target = this.resolveRedirect(ns, dbkey);
      if (target && (prop.ns === undefined || target.ns === prop.ns)) {
        ns = target.ns;
        dbkey = target.dbkey;
      }
      if (user) {
        if (this.value(key, DI.WIKIPAGE, wikiPageItem(ns, dbkey), ns, dbkey, true) && prop.type === '_wpg')
          this.ops.push(OP.COMPLETION, dbkey);
      } else this.value(key, DI.WIKIPAGE, wikiPageItem(ns, dbkey), null, null);
    } else if (v.di === DI.BLOB) {
      if (user) {
        if (this.value(key, DI.BLOB, v.item, null, v.item, true) && BLOB_TYPES.has(prop.type)) this.ops.push(OP.COMPLETION, v.item);
      } else this.value(key, DI.BLOB, v.item, null, null);
    } else {
      this.value(key, v.di, v.item, null, null);
    }
  }

  private annotations(list: RawAnnotation[], page: PageAnalysis | null): void {
    for (const a of list) {
      const key = a.key ?? propertyKeyFromLabel(a.prop);
      if (key === null) continue;
      if (PREDEFINED_BY_KEY.get(key)?.type === '__fixed') continue; // set by SMW only
      if (key === '_TYPE' && page && page.ns === NS_PROPERTY) {
        const type = typeIdFromLabel(a.value);
        if (type !== undefined) this.ops.push(OP.DECLARE, page.dbkey, type);
      }
      this.annotation(key, a.value);
    }
  }

  /** the operations that write a page's semantic data */
  page(p: PageAnalysis, ann: PageAnnotations): SemanticOps {
    this.ops = [];
    const titleText = p.dbkey.replace(/_/g, ' ');
    this.subject(p.ns, p.dbkey, '', p.defaultSort ?? titleText);
    this.annotations(ann.annotations, p);
    // ConceptParserFunction: only on a Concept: page, and only its first #concept; typed with every
    // property's type at the end, as _ASKST is
    const concept = p.ns === SMW_NS_CONCEPT ? ann.concepts?.[0] : undefined;
    if (concept) this.ops.push(OP.STAGE, '_CONC', JSON.stringify([concept.query, concept.docu ?? '']));
    const catProp = p.ns === 14 ? '_SUBC' : '_INST';
    for (const c of new Set(p.categories)) this.annotation(catProp, c);
    this.item('_MDAT', DI.TIME, mwTimestampItem(p.latestTimestamp));
    for (const s of ann.subobjects) this.item('_SOBJ', DI.WIKIPAGE, wikiPageItem(p.ns, p.dbkey, s.name));
    for (const q of ann.queries) this.item('_ASK', DI.WIKIPAGE, wikiPageItem(p.ns, p.dbkey, q.name));
    for (const s of ann.subobjects) {
      this.subject(p.ns, p.dbkey, s.name, s.sortkey ?? titleText);
      this.annotations(s.annotations, null);
    }
    for (const q of ann.queries) {
      this.subject(p.ns, p.dbkey, q.name, titleText);
      // the first value of a new subject: nothing to be a duplicate of; written at the end, normalised
      this.ops.push(OP.STAGE, '_ASKST', q.conditions);
      this.item('_ASKFO', DI.BLOB, q.format);
      this.item('_ASKSI', DI.NUMBER, numberItem(q.size));
      this.item('_ASKDE', DI.NUMBER, numberItem(q.depth));
    }
    const ops = this.ops;
    this.ops = [];
    return ops;
  }
}
