/**
 * The Semantic MediaWiki importer: a PageAnalysisHook of pass 2 that turns every page's expanded text
 * into SMW 2.2's semantic data and builds the autocompletion index.
 *
 *   page()   annotations of the page (annotations.ts) are staged as they are written, with the rows
 *            SMW adds itself (_MDAT, _INST/_SUBC, _SOBJ, _ASK and the query subobjects' _ASKFO/_ASKSI/
 *            _ASKDE); subjects get their ids here. Memory: one page at a time.
 *   finish() types are known now (every Property: page has been seen): the staged rows are read back in
 *            order, in batches, parsed per type (values.ts; a value that does not fit becomes _ERRP),
 *            page values that name a redirect are replaced by its target (SMW stores the target), and
 *            written to smw_value. Then, set-based: the subjects only used as values, the distinct
 *            autocompletion values (numbered in byte order), their word keys (sorted insert), the heavy
 *            prefixes with their top-1000 lists (one ordered pass over the word keys), the indexes.
 */
import type { HookContext, PageAnalysis, PageAnalysisHook } from './hooks.js';
import type { TitleCodec } from '../wiki/titles.js';
import type { PageAnnotations, RawAnnotation } from '../semantic/annotations.js';
import { analyzer } from './semantic-analysis.js';
import { normalizedQueryString } from '../semantic/query.js';
import { BLOB_TYPES, DI, PREDEFINED_BY_KEY, propertyKeyFromLabel, propertyPageKey, typeIdFromLabel, typeUri } from '../semantic/types.js';
import { isError, mwTimestampItem, numberItem, parseValue, wikiPageItem } from '../semantic/values.js';
import { wordKeys } from '../semantic/fold.js';
import { itemSortKey, SMW_NS_CONCEPT } from '../semantic/ask.js';
import { defineConcept, encodeConcept } from '../semantic/concept.js';
import type { ImportWriter, SemanticImportWriter } from '../store/import-writer.js';

/** How many values a precomputed list keeps: Semantic Forms' $sfgMaxAutocompleteValues. */
export const TOP_VALUES = 1000;
const BATCH = 10000;
const KIND_QUERY = -1;
/** a concept definition: its text is the JSON of [conditions, documentation] (typed in finish()) */
const KIND_CONCEPT = -2;

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
  private staged = 0;

  constructor(private heavyRows: number | undefined) {}

  begin(writer: ImportWriter, ctx: HookContext): void {
    this.codec = ctx.codec;
    this.w = writer.semantic;
    this.heavyRows ??= this.w.heavyRows;
    this.w.begin();
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

  private stage(subject: number, key: string, kind: number, text: string): void {
    this.w.stage(subject, this.propId(key), kind, text);
    this.staged++;
  }

  private addSubject(ns: number, dbkey: string, subobject: string, sortkey: string): number {
    this.subjects++;
    return this.w.addSubject(ns, dbkey, subobject, sortkey);
  }

  private stageAnnotations(subject: number, list: RawAnnotation[], page: PageAnalysis | null): void {
    for (const a of list) {
      const key = a.key ?? propertyKeyFromLabel(a.prop);
      if (key === null) continue;
      if (PREDEFINED_BY_KEY.get(key)?.type === '__fixed') continue; // set by SMW only
      if (key === '_TYPE' && page && page.ns === 102) {
        const type = typeIdFromLabel(a.value);
        if (type !== undefined) this.w.declareType(this.propId(page.dbkey), type);
      }
      this.stage(subject, key, 0, a.value);
    }
  }

  page(p: PageAnalysis, text: string, analyzed?: unknown): void {
    const ann = analyzed !== undefined ? (analyzed as PageAnnotations | null) : (analyzer(p, text, { codec: this.codec, lang: '' }) as PageAnnotations | null);
    if (ann === null) return;
    const titleText = p.dbkey.replace(/_/g, ' ');
    const subject = this.addSubject(p.ns, p.dbkey, '', p.defaultSort ?? titleText);
    this.stageAnnotations(subject, ann.annotations, p);
    // ConceptParserFunction: only on a Concept: page, and only its first #concept
    const concept = p.ns === SMW_NS_CONCEPT ? ann.concepts?.[0] : undefined;
    if (concept) this.stage(subject, '_CONC', KIND_CONCEPT, JSON.stringify([concept.query, concept.docu ?? '']));
    const catProp = p.ns === 14 ? '_SUBC' : '_INST';
    for (const c of new Set(p.categories)) this.stage(subject, catProp, 0, c);
    this.stage(subject, '_MDAT', DI.TIME, mwTimestampItem(p.latestTimestamp));
    for (const s of ann.subobjects) this.stage(subject, '_SOBJ', DI.WIKIPAGE, wikiPageItem(p.ns, p.dbkey, s.name));
    for (const q of ann.queries) this.stage(subject, '_ASK', DI.WIKIPAGE, wikiPageItem(p.ns, p.dbkey, q.name));
    for (const s of ann.subobjects) {
      const id = this.addSubject(p.ns, p.dbkey, s.name, s.sortkey ?? titleText);
      this.stageAnnotations(id, s.annotations, null);
    }
    for (const q of ann.queries) {
      const id = this.addSubject(p.ns, p.dbkey, q.name, titleText);
      this.stage(id, '_ASKST', KIND_QUERY, q.conditions);
      this.stage(id, '_ASKFO', DI.BLOB, q.format);
      this.stage(id, '_ASKSI', DI.NUMBER, numberItem(q.size));
      this.stage(id, '_ASKDE', DI.NUMBER, numberItem(q.depth));
    }
  }

  finish(_writer: ImportWriter, ctx: HookContext): void {
    const t0 = Date.now();
    const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
    // ---- property types: known now that every Property: page has been seen
    const props = new Map<number, PropInfo>();
    for (const r of this.w.resolveTypes()) props.set(r.id, { key: r.key, type: r.type, ns: PREDEFINED_BY_KEY.get(r.key)?.ns });
    const errp = this.propId('_ERRP');
    const values = this.typeValues(props, errp);
    ctx.log(`semantic: ${this.subjects} subjects, ${values} values of ${props.size} properties (${secs()} s)`);

    // ---- subjects only used as values; autocompletion: distinct values, word keys, heavy prefixes
    this.w.endStaging();
    const words = this.buildWordKeys();
    const heavy = this.buildHeavyPrefixes();
    this.w.finish();
    ctx.log(`semantic: autocompletion index: ${words} word keys, ${heavy.nodes} precomputed prefixes (${heavy.rows} rows) (${secs()} s)`);
  }

  /** Staged rows → smw_value, in order, batch by batch. Returns the number of values written. */
  private typeValues(props: Map<number, PropInfo>, errp: number): number {
    const w = this.w;
    const redirectCache = new Map<string, { ns: number; dbkey: string } | null>();
    const resolve = (ns: number, dbkey: string) => {
      const k = `${ns}|${dbkey}`;
      let t = redirectCache.get(k);
      if (t === undefined) {
        t = w.redirectTarget({ ns, dbkey }) ?? null;
        if (redirectCache.size > 20000) redirectCache.clear();
        redirectCache.set(k, t);
      }
      return t;
    };
    const typeOf = (key: string) => {
      const id = this.propIds.get(key) ?? w.propertyId(key);
      return (id !== undefined && props.get(id)?.type) || '_wpg';
    };
    const codec = this.codec;
    let subject = -1;
    let seq = 0;
    let seen = new Set<string>();
    let written = 0;
    /** one value of the current subject, unless it has it already; `derived`: sv_item is left NULL */
    const emit = (prop: number, di: number, item: string, ns: number | null, key: string | null, derived = false): boolean => {
      const sig = `${prop}\u0001${item}`;
      if (seen.has(sig)) return false;
      seen.add(sig);
      w.addValue(subject, prop, seq++, di, derived ? null : item, ns, key, itemSortKey(di, item) ?? null);
      written++;
      return true;
    };
    /** _ERRP: the current subject has an improper value for `prop` (a page value: the property's page) */
    const emitImproper = (prop: PropInfo) => {
      const page = propertyPageKey(prop.key);
      emit(errp, DI.WIKIPAGE, wikiPageItem(102, page), 102, page);
    };
    let last = 0;
    for (;;) {
      const rows = w.stagedRows(last, BATCH);
      if (rows.length === 0) break;
      last = rows[rows.length - 1].row;
      w.batch(() => {
        for (const row of rows) {
          if (row.subject !== subject) {
            subject = row.subject;
            seq = 0;
            seen = new Set();
          }
          const prop = props.get(row.property)!;
          if (row.kind === KIND_QUERY) {
            let text: string;
            try {
              text = normalizedQueryString(row.text, { codec, typeOf });
            } catch {
              text = row.text;
            }
            emit(row.property, DI.BLOB, text, null, null);
            continue;
          }
          if (row.kind === KIND_CONCEPT) {
            const [conditions, docu] = JSON.parse(row.text) as [string, string];
            emit(row.property, DI.CONCEPT, encodeConcept(defineConcept(conditions, docu, { codec, typeOf }).value), null, null);
            continue;
          }
          if (row.kind > 0) {
            emit(row.property, row.kind, row.text, null, null);
            continue;
          }
          if (prop.type === '__typ') {
            const type = typeIdFromLabel(row.text);
            if (type === undefined) emitImproper(prop);
            else emit(row.property, DI.URI, typeUri(type), null, null);
            continue;
          }
          const v = parseValue(prop.type, row.text, codec, prop.ns);
          if (v === null) continue;
          if (isError(v)) {
            emitImproper(prop);
            continue;
          }
          // user properties' page and text values keep their title/text in sv_key (matched by baseprop,
          // autocompleted) and no separate sv_item (it is derived from sv_key when read)
          const user = !prop.key.startsWith('_');
          if (v.di === DI.WIKIPAGE) {
            let ns = v.ns!;
            let dbkey = v.key!;
            const target = resolve(ns, dbkey);
            if (target && (prop.ns === undefined || target.ns === prop.ns)) {
              ns = target.ns;
              dbkey = target.dbkey;
            }
            if (user) {
              if (emit(row.property, DI.WIKIPAGE, wikiPageItem(ns, dbkey), ns, dbkey, true) && prop.type === '_wpg') w.addCompletionValue(row.property, dbkey);
            } else emit(row.property, DI.WIKIPAGE, wikiPageItem(ns, dbkey), null, null);
          } else if (v.di === DI.BLOB) {
            if (user) {
              if (emit(row.property, DI.BLOB, v.item, null, v.item, true) && BLOB_TYPES.has(prop.type)) w.addCompletionValue(row.property, v.item);
            } else emit(row.property, DI.BLOB, v.item, null, null);
          } else {
            emit(row.property, v.di, v.item, null, null);
          }
        }
      });
    }
    return written;
  }

  /** smw_ac_word from smw_ac_value: word keys staged unordered, then put in key order by the writer. */
  private buildWordKeys(): number {
    let last = 0;
    for (;;) {
      const rows = this.w.completionValues(last, BATCH);
      if (rows.length === 0) break;
      last = rows[rows.length - 1].id;
      this.w.batch(() => {
        for (const r of rows) for (const k of wordKeys(r.value)) this.w.addWordKey(r.source, k, r.id);
      });
    }
    return this.w.endWordKeys();
  }

  /**
   * One pass over the word keys in (source, key) order: the LCP intervals of the sorted keys are the
   * nodes of their compressed trie; each keeps the smallest TOP_VALUES value ids of its rows (children
   * pass their lists up); a node with more than heavyRows rows is written with its list.
   */
  private buildHeavyPrefixes(): { nodes: number; rows: number } {
    const w = this.w;
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
    const trie = new TopKTrie(this.heavyRows!, TOP_VALUES, (key, ids) => pendingNodes.push({ source: source!, key, ids }));
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
