/**
 * The Semantic MediaWiki importer: a PageAnalysisHook of pass 2 that turns every page's expanded text
 * into SMW 2.2's semantic data and builds the autocompletion index.
 *
 *   begin()  the Property: pages are analysed first (as pass 2 will analyse them): the types they declare
 *            are known before any value is seen.
 *   page()   annotations of the page (annotations.ts), with the rows SMW adds itself (_MDAT, _INST/_SUBC,
 *            _SOBJ, _ASK and the query subobjects' _ASKFO/_ASKSI/_ASKDE), are parsed per type (values.ts;
 *            a value that does not fit becomes _ERRP), page values that name a redirect are replaced by
 *            its target (SMW stores the target), and written to smw_value; subjects get their ids here.
 *            Memory: one page at a time. Two things wait for the end, when every property exists:
 *            _ERRP's id (property ids are numbered in order of first use, _ERRP last) and the normalised
 *            query strings (_ASKST, whose normalisation reads the properties' types): their rows are
 *            written with a stand-in property id / staged with their sv_seq.
 *   finish() the declared types are applied to smw_property, the stand-ins replaced, the queries'
 *            rows written. Then, set-based: the subjects only used as values, the indexes; and handed
 *            to the writer's buildCompletionIndex (a thread of its own on SQLite, beside the rest of the
 *            import): the distinct autocompletion values (numbered in byte order), their word keys
 *            (sorted insert), the heavy prefixes with their top-1000 lists (one ordered pass over the
 *            word keys; buildCompletionIndex below).
 */
import type { HookContext, PageAnalysis, PageAnalysisHook } from './hooks.js';
import type { TitleCodec } from '../wiki/titles.js';
import { NS_PROPERTY } from '../wiki/namespaces.js';
import type { PageAnnotations, RawAnnotation } from '../semantic/annotations.js';
import { analyzer } from './semantic-analysis.js';
import { normalizedQueryString } from '../semantic/query.js';
import { BLOB_TYPES, DI, PREDEFINED_BY_KEY, propertyKeyFromLabel, propertyPageKey, typeIdFromLabel, typeUri } from '../semantic/types.js';
import { isError, mwTimestampItem, numberItem, parseValue, wikiPageItem } from '../semantic/values.js';
import { wordKeys } from '../semantic/fold.js';
import { itemSortKey, SMW_NS_CONCEPT } from '../semantic/ask.js';
import { defineConcept, encodeConcept } from '../semantic/concept.js';
import type { CompletionIndexCounts, ImportWriter, SemanticImportWriter } from '../store/import-writer.js';

/** How many values a precomputed list keeps: Semantic Forms' $sfgMaxAutocompleteValues. */
export const TOP_VALUES = 1000;
const BATCH = 10000;
/** the property id _ERRP rows carry until _ERRP has its id (finish) */
const ERRP_PENDING = -2;

export interface SemanticHookOptions {
  /** threshold of precomputed prefix lists (tests lower it to exercise both paths) */
  heavyRows?: number;
}

export function semanticImportHook(opts: SemanticHookOptions = {}): PageAnalysisHook {
  return new SemanticImportHook(opts.heavyRows);
}

interface PropInfo {
  key: string;
  type: string;
  ns?: number;
}

class SemanticImportHook implements PageAnalysisHook {
  readonly name = 'semantic';
  readonly analyzer = new URL('./semantic-analysis.js', import.meta.url).href;
  private codec!: TitleCodec;
  private w!: SemanticImportWriter;
  private propIds = new Map<string, number>();
  private subjects = 0;
  private values = 0;
  /** user properties' types declared by their Property: pages (the pre-pass of begin()) */
  private declared = new Map<string, string>();
  private infos = new Map<number, PropInfo>();
  /** the subject whose values are being written, the next sv_seq, and the values it has (SMW keeps one of each) */
  private subject = -1;
  private seq = 0;
  private seen = new Set<string>();
  private redirectCache = new Map<string, { ns: number; dbkey: string } | null>();

  constructor(private heavyRows: number | undefined) {}

  async begin(writer: ImportWriter, ctx: HookContext): Promise<void> {
    this.codec = ctx.codec;
    this.w = writer.semantic;
    this.heavyRows ??= this.w.heavyRows;
    this.w.begin();
    if (!ctx.analyzeNamespace) throw new Error('the semantic import needs the pre-pass over the Property: pages');
    // what page() will declare for these pages, in the same order: the last [[Has type::…]] counts
    await ctx.analyzeNamespace(NS_PROPERTY, (p, analyzed) => {
      const ann = analyzed as PageAnnotations | null;
      if (ann === null || p.ns !== NS_PROPERTY) return;
      for (const a of ann.annotations) {
        if ((a.key ?? propertyKeyFromLabel(a.prop)) !== '_TYPE') continue;
        const type = typeIdFromLabel(a.value);
        if (type !== undefined) this.declared.set(p.dbkey, type);
      }
    });
  }

  /** a property's key, type and namespace; the type as smw_property will have it after resolveTypes() */
  private info(id: number, key: string): PropInfo {
    let i = this.infos.get(id);
    if (i === undefined) {
      const pre = PREDEFINED_BY_KEY.get(key);
      const type = (!key.startsWith('_') && this.declared.get(key)) || (pre?.type ?? '_wpg');
      i = { key, type, ns: pre?.ns };
      this.infos.set(id, i);
    }
    return i;
  }

  /** The id of a property key, created on first use (bounded cache in front of the table). */
  private propId(key: string): number {
    let id = this.propIds.get(key);
    if (id !== undefined) return id;
    id = this.w.propertyId(key);
    if (id === undefined) id = this.w.addProperty(key, PREDEFINED_BY_KEY.get(key)?.type ?? '_wpg');
    if (this.propIds.size > 50000) this.propIds.clear();
    this.propIds.set(key, id);
    return id;
  }

  private addSubject(ns: number, dbkey: string, subobject: string, sortkey: string): number {
    this.subjects++;
    this.subject = this.w.addSubject(ns, dbkey, subobject, sortkey);
    this.seq = 0;
    this.seen = new Set();
    return this.subject;
  }

  private resolveRedirect(ns: number, dbkey: string): { ns: number; dbkey: string } | null {
    const k = `${ns}|${dbkey}`;
    let t = this.redirectCache.get(k);
    if (t === undefined) {
      t = this.w.redirectTarget({ ns, dbkey }) ?? null;
      if (this.redirectCache.size > 20000) this.redirectCache.clear();
      this.redirectCache.set(k, t);
    }
    return t;
  }

  /** one value of the current subject, unless it has it already; `derived`: sv_item is left NULL */
  private emit(prop: number, di: number, item: string, ns: number | null, key: string | null, derived = false): boolean {
    const sig = `${prop}\u0001${item}`;
    if (this.seen.has(sig)) return false;
    this.seen.add(sig);
    this.w.addValue(this.subject, prop, this.seq++, di, derived ? null : item, ns, key, itemSortKey(di, item) ?? null);
    this.values++;
    return true;
  }

  /** _ERRP: the current subject has an improper value for `prop` (a page value: the property's page) */
  private emitImproper(prop: PropInfo): void {
    const page = propertyPageKey(prop.key);
    this.emit(ERRP_PENDING, DI.WIKIPAGE, wikiPageItem(NS_PROPERTY, page), NS_PROPERTY, page);
  }

  /** a data item SMW makes itself (`di`: its type code) */
  private item(key: string, di: number, item: string): void {
    this.emit(this.propId(key), di, item, null, null);
  }

  /** an annotation's value, parsed by its property's type */
  private annotation(key: string, text: string): void {
    const id = this.propId(key);
    const prop = this.info(id, key);
    if (prop.type === '__typ') {
      const type = typeIdFromLabel(text);
      if (type === undefined) this.emitImproper(prop);
      else this.emit(id, DI.URI, typeUri(type), null, null);
      return;
    }
    const v = parseValue(prop.type, text, this.codec, prop.ns);
    if (v === null) return;
    if (isError(v)) {
      this.emitImproper(prop);
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
        if (this.emit(id, DI.WIKIPAGE, wikiPageItem(ns, dbkey), ns, dbkey, true) && prop.type === '_wpg') this.w.addCompletionValue(id, dbkey);
      } else this.emit(id, DI.WIKIPAGE, wikiPageItem(ns, dbkey), null, null);
    } else if (v.di === DI.BLOB) {
      if (user) {
        if (this.emit(id, DI.BLOB, v.item, null, v.item, true) && BLOB_TYPES.has(prop.type)) this.w.addCompletionValue(id, v.item);
      } else this.emit(id, DI.BLOB, v.item, null, null);
    } else {
      this.emit(id, v.di, v.item, null, null);
    }
  }

  private annotations(list: RawAnnotation[], page: PageAnalysis | null): void {
    for (const a of list) {
      const key = a.key ?? propertyKeyFromLabel(a.prop);
      if (key === null) continue;
      if (PREDEFINED_BY_KEY.get(key)?.type === '__fixed') continue; // set by SMW only
      if (key === '_TYPE' && page && page.ns === NS_PROPERTY) {
        const type = typeIdFromLabel(a.value);
        if (type !== undefined) this.w.declareType(this.propId(page.dbkey), type);
      }
      this.annotation(key, a.value);
    }
  }

  page(p: PageAnalysis, text: string, analyzed?: unknown): void {
    const ann = analyzed !== undefined ? (analyzed as PageAnnotations | null) : (analyzer(p, text, { codec: this.codec, lang: '' }) as PageAnnotations | null);
    if (ann === null) return;
    const titleText = p.dbkey.replace(/_/g, ' ');
    const subject = this.addSubject(p.ns, p.dbkey, '', p.defaultSort ?? titleText);
    this.annotations(ann.annotations, p);
    // ConceptParserFunction: only on a Concept: page, and only its first #concept; typed with every
    // property's type at the end, as _ASKST is
    const concept = p.ns === SMW_NS_CONCEPT ? ann.concepts?.[0] : undefined;
    if (concept) {
      this.w.stage(subject, this.propId('_CONC'), this.seq++, JSON.stringify([concept.query, concept.docu ?? '']));
      this.values++;
    }
    const catProp = p.ns === 14 ? '_SUBC' : '_INST';
    for (const c of new Set(p.categories)) this.annotation(catProp, c);
    this.item('_MDAT', DI.TIME, mwTimestampItem(p.latestTimestamp));
    for (const s of ann.subobjects) this.item('_SOBJ', DI.WIKIPAGE, wikiPageItem(p.ns, p.dbkey, s.name));
    for (const q of ann.queries) this.item('_ASK', DI.WIKIPAGE, wikiPageItem(p.ns, p.dbkey, q.name));
    for (const s of ann.subobjects) {
      this.addSubject(p.ns, p.dbkey, s.name, s.sortkey ?? titleText);
      this.annotations(s.annotations, null);
    }
    for (const q of ann.queries) {
      const id = this.addSubject(p.ns, p.dbkey, q.name, titleText);
      // the first value of a new subject: nothing to be a duplicate of; written at the end, normalised
      this.w.stage(id, this.propId('_ASKST'), this.seq++, q.conditions);
      this.values++;
      this.item('_ASKFO', DI.BLOB, q.format);
      this.item('_ASKSI', DI.NUMBER, numberItem(q.size));
      this.item('_ASKDE', DI.NUMBER, numberItem(q.depth));
    }
  }

  finish(_writer: ImportWriter, ctx: HookContext): void {
    const t0 = Date.now();
    const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
    // ---- property types as the Property: pages declared them in pass 2: what the pre-pass found
    const props = new Map<number, PropInfo>();
    for (const r of this.w.resolveTypes()) {
      props.set(r.id, { key: r.key, type: r.type, ns: PREDEFINED_BY_KEY.get(r.key)?.ns });
      const used = this.infos.get(r.id);
      if (used !== undefined && used.type !== r.type) {
        throw new Error(`semantic: property ${r.key} was typed ${used.type} in pass 2 but its page declares ${r.type}`);
      }
    }
    ctx.step?.('semantic: queries, types');
    const errp = this.propId('_ERRP');
    this.w.batch(() => this.w.renumberProperty(ERRP_PENDING, errp));
    this.writeQueries(props);
    ctx.log(`semantic: ${this.subjects} subjects, ${this.values} values of ${props.size} properties (${secs()} s)`);

    // ---- subjects only used as values; autocompletion: distinct values, then (maybe on a thread of its
    // own, while the import goes on) word keys and heavy prefixes
    ctx.step?.('semantic: value subjects');
    this.w.endStaging();
    ctx.step?.('semantic: ac values copied out');
    this.w.buildCompletionIndex(import.meta.url, this.heavyRows!, (r) =>
      ctx.log(`semantic: autocompletion index: ${r.words} word keys, ${r.nodes} precomputed prefixes (${r.rows} rows) (${secs()} s)`),
    );
    ctx.step?.('semantic: indexes');
    this.w.finish();
  }

  /**
   * The staged query strings (_ASKST) and concept definitions (_CONC), normalised with every property's
   * type, → smw_value.
   */
  private writeQueries(props: Map<number, PropInfo>): void {
    const w = this.w;
    const conceptProp = this.propIds.get('_CONC') ?? w.propertyId('_CONC');
    const typeOf = (key: string) => {
      const id = this.propIds.get(key) ?? w.propertyId(key);
      return (id !== undefined && props.get(id)?.type) || '_wpg';
    };
    const codec = this.codec;
    let last = 0;
    for (;;) {
      const rows = w.stagedRows(last, BATCH);
      if (rows.length === 0) break;
      last = rows[rows.length - 1].row;
      w.batch(() => {
        for (const row of rows) {
          if (row.property === conceptProp) {
            const [conditions, docu] = JSON.parse(row.text) as [string, string];
            const item = encodeConcept(defineConcept(conditions, docu, { codec, typeOf }).value);
            w.addValue(row.subject, row.property, row.kind, DI.CONCEPT, item, null, null, itemSortKey(DI.CONCEPT, item) ?? null);
            continue;
          }
          let text: string;
          try {
            text = normalizedQueryString(row.text, { codec, typeOf });
          } catch {
            text = row.text;
          }
          w.addValue(row.subject, row.property, row.kind, DI.BLOB, text, null, null, itemSortKey(DI.BLOB, text) ?? null);
        }
      });
    }
  }
}

/** The autocompletion index from the completion values (see SemanticImportWriter.buildCompletionIndex). */
export function buildCompletionIndex(w: SemanticImportWriter, heavyRows: number): CompletionIndexCounts {
  const words = buildWordKeys(w);
  return { words, ...buildHeavyPrefixes(w, heavyRows) };
}

/** smw_ac_word from smw_ac_value: word keys staged unordered, then put in key order by the writer. */
function buildWordKeys(w: SemanticImportWriter): number {
  let last = 0;
  for (;;) {
    const rows = w.completionValues(last, BATCH);
    if (rows.length === 0) break;
    last = rows[rows.length - 1].id;
    w.batch(() => {
      for (const r of rows) for (const k of wordKeys(r.value)) w.addWordKey(r.source, k, r.id);
    });
  }
  return w.endWordKeys();
}

/**
 * One pass over the word keys in (source, key) order: the LCP intervals of the sorted keys are the
 * nodes of their compressed trie; each keeps the smallest TOP_VALUES value ids of its rows (children
 * pass their lists up); a node with more than heavyRows rows is written with its list.
 */
function buildHeavyPrefixes(w: SemanticImportWriter, heavyRows: number): { nodes: number; rows: number } {
  const pendingNodes: Array<{ source: number; key: string; ids: number[] }> = [];
  let nodes = 0;
  let topRows = 0;
  const flush = () => {
    if (pendingNodes.length === 0) return;
    w.batch(() => {
      for (const n of pendingNodes) {
        w.addHeavyPrefix(n.source, n.key, n.ids);
        topRows += n.ids.length;
      }
    });
    nodes += pendingNodes.length;
    pendingNodes.length = 0;
  };
  let source: number | null = null;
  const trie = new TopKTrie(heavyRows, TOP_VALUES, (key, ids) => pendingNodes.push({ source: source!, key, ids }));
  let cursor: [number, string, number] | null = null;
  for (;;) {
    const rows = w.wordKeys(cursor, BATCH);
    if (rows.length === 0) break;
    for (const r of rows) {
      if (r.source !== source) {
        if (source !== null) trie.end();
        source = r.source;
      }
      trie.add(r.key, r.value);
    }
    const l = rows[rows.length - 1];
    cursor = [l.source, l.key, l.value];
    if (pendingNodes.length > 1000) flush();
  }
  if (source !== null) trie.end();
  flush();
  return { nodes, rows: topRows };
}

/** Longest common prefix length of two strings, never splitting a surrogate pair. */
function lcp(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0 && i < a.length) {
    const c = a.charCodeAt(i - 1);
    if (c >= 0xd800 && c <= 0xdbff) i--;
  }
  return i;
}

interface Frame {
  depth: number;
  key: string;
  count: number;
  ids: number[];
}

/** The smallest k distinct numbers of a list, ascending. */
function topK(ids: number[], k: number): number[] {
  ids.sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of ids) {
    if (out.length && out[out.length - 1] === v) continue;
    out.push(v);
    if (out.length === k) break;
  }
  return out;
}

/**
 * LCP-interval enumeration over keys arriving in sorted order: every interval (a node of the compressed
 * trie: a branching point, or a run of equal keys) is reported with its top-k ids when it holds more than
 * `threshold` rows.
 */
export class TopKTrie {
  private stack: Frame[] = [];
  private prev: string | null = null;

  constructor(
    private readonly threshold: number,
    private readonly k: number,
    private readonly emit: (key: string, ids: number[]) => void,
  ) {
    this.reset();
  }

  private reset(): void {
    this.stack = [{ depth: 0, key: '', count: 0, ids: [] }];
    this.prev = null;
  }

  private push(into: Frame, ids: number[], count: number): void {
    into.count += count;
    for (const v of ids) into.ids.push(v);
    if (into.ids.length > 4 * this.k) into.ids = topK(into.ids, this.k);
  }

  private close(f: Frame): number[] {
    const ids = topK(f.ids, this.k);
    if (f.count > this.threshold) this.emit(f.key, ids);
    return ids;
  }

  add(key: string, id: number): void {
    const l = this.prev === null ? 0 : lcp(this.prev, key);
    let top = this.stack[this.stack.length - 1];
    while (top.depth > l) {
      const f = this.stack.pop()!;
      const ids = this.close(f);
      const below = this.stack[this.stack.length - 1];
      if (below.depth < l) {
        // a branching node at depth l, between `below` and the closed frame
        const mid: Frame = { depth: l, key: f.key.slice(0, l), count: 0, ids: [] };
        this.push(mid, ids, f.count);
        this.stack.push(mid);
      } else {
        this.push(below, ids, f.count);
      }
      top = this.stack[this.stack.length - 1];
    }
    if (key.length > top.depth) this.stack.push({ depth: key.length, key, count: 1, ids: [id] });
    else this.push(top, [id], 1);
    this.prev = key;
  }

  /** End of a source: close every open interval. */
  end(): void {
    while (this.stack.length > 1) {
      const f = this.stack.pop()!;
      this.push(this.stack[this.stack.length - 1], this.close(f), f.count);
    }
    this.reset();
  }
}
