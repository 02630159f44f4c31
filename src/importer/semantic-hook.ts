/**
 * The Semantic MediaWiki importer: a PageAnalysisHook of pass 2 that turns every page's expanded text
 * into SMW 2.2's semantic data and builds the autocompletion index.
 *
 *   begin()  the Property: pages are analysed first (as pass 2 will analyse them): the types they declare
 *            are known before any value is seen.
 *   page()   annotations of the page (annotations.ts), with the rows SMW adds itself (_MDAT, _INST/_SUBC,
 *            _SOBJ, _ASK and the query subobjects' _ASKFO/_ASKSI/_ASKDE), are parsed per type (values.ts;
 *            a value that does not fit becomes _ERRP), page values that name a redirect are replaced by
 *            its target (SMW stores the target) -- all on the analysis workers (semantic-analysis.ts),
 *            with the declared types of the pre-pass -- and written here to smw_value; subjects and
 *            properties get their ids here. Memory: one page at a time. Two things wait for the end, when every property exists:
 *            _ERRP's id (property ids are numbered in order of first use, _ERRP last) and the normalised
 *            query strings (_ASKST, whose normalisation reads the properties' types): their rows are
 *            written with a stand-in property id / staged with their sv_seq.
 *   finish() the declared types are applied to smw_property, the stand-ins replaced, the queries'
 *            rows written; then handed to the writer's buildCompletionIndex (a thread of its own on
 *            SQLite, beside the rest of the import): the distinct autocompletion values (numbered in
 *            byte order), their word keys (sorted insert), the heavy prefixes with their top-1000 lists
 *            (one ordered pass over the word keys; buildCompletionIndex below).
 *   finishOwnTables()  set-based: the subjects only used as values, the indexes (beside the
 *            query-page reports' thread when no inline query links wait for them).
 */
import type { HookContext, PageAnalysis, PageAnalysisHook } from './hooks.js';
import type { TitleCodec } from '../wiki/titles.js';
import { NS_PROPERTY } from '../wiki/namespaces.js';
import type { PageAnnotations } from '../semantic/annotations.js';
import { analyzer, OP, type SemanticAnalyzerData, type SemanticOps } from './semantic-analysis.js';
import { normalizedQueryString } from '../semantic/query-profile.js';
import { DI, PREDEFINED_BY_KEY, propertyKeyFromLabel, typeIdFromLabel } from '../semantic/types.js';
import { wordKeys } from '../semantic/fold.js';
import { COMPLETION_LIST_VALUES } from '../semantic/completion-answer.js';
import { itemSortKey } from '../semantic/datavalues/sort-key.js';
import { defineConcept, encodeConcept } from '../semantic/concept.js';
import type { CompletionIndexCounts, ImportSource, ImportWriter, SemanticImportWriter, SemanticValue } from '../store/import-writer.js';

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
  /** the analyzers' data (for page() called without a result) and what they read */
  private data: SemanticAnalyzerData | undefined;
  private source!: ImportSource;

  constructor(private heavyRows: number | undefined) {}

  async begin(writer: ImportWriter, ctx: HookContext): Promise<void> {
    this.codec = ctx.codec;
    this.w = writer.semantic;
    this.source = writer;
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

  analyzerData(): SemanticAnalyzerData {
    return [...this.declared];
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

  /**
   * The page's semantic data, typed by the analyzer (semantic-analysis.ts, on a worker): its operations
   * applied in order. Property ids are numbered here, in order of first use, as the operations name them.
   */
  page(p: PageAnalysis, text: string, analyzed?: unknown): void {
    const ops = (analyzed !== undefined ? analyzed : this.analyze(p, text)) as SemanticOps | null;
    if (ops === null) return;
    const w = this.w;
    const counted = applySemanticOps(ops, {
      addSubject: (ns, dbkey, subobject, sortkey) => w.addSubject(ns, dbkey, subobject, sortkey),
      property: (key) => {
        const id = this.propId(key);
        this.info(id, key);
        return id;
      },
      propertyId: (key) => this.propId(key),
      errpProperty: () => ERRP_PENDING,
      addValue: (subject, property, seq, di, item, ns, key, sortNum) => w.addValue(subject, property, seq, di, item, ns, key, sortNum),
      addCompletionValue: (source, value) => w.addCompletionValue(source, value),
      stage: (subject, property, seq, text) => w.stage(subject, property, seq, text),
      declareType: (property, type) => w.declareType(property, type),
    });
    this.subjects += counted.subjects;
    this.values += counted.values;
  }

  /** what a worker would have given for the page (a hook called without its analyzer's result) */
  private analyze(p: PageAnalysis, text: string): unknown {
    return analyzer(p, text, { codec: this.codec, lang: '', data: (this.data ??= this.analyzerData()), source: this.source });
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

    // ---- autocompletion: distinct values, then (maybe on a thread of its own, while the import goes on)
    // word keys and heavy prefixes; first, so that the thread runs beside as much of the import as it can
    ctx.step?.('semantic: ac values copied out');
    this.w.endStaging();
    this.w.buildCompletionIndex(import.meta.url, this.heavyRows!, (r) =>
      ctx.log(`semantic: autocompletion index: ${r.words} word keys, ${r.nodes} precomputed prefixes (${r.rows} rows) (${secs()} s)`),
    );
  }

  /** the subjects only used as values, the indexes (beside the query-page reports when it can) */
  finishOwnTables(_writer: ImportWriter, ctx: HookContext): void {
    ctx.step?.('semantic: value subjects');
    this.w.valueSubjects();
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
          const v = stagedValue(row.text, row.property === conceptProp, { codec, typeOf });
          w.addValue(row.subject, row.property, row.kind, v.di, v.item, null, null, v.sortNum);
        }
      });
    }
  }
}

/** Where a page's semantic operations are written: the import's writer, or the incremental writer. */
export interface SemanticOpSink {
  addSubject(ns: number, dbkey: string, subobject: string, sortkey: string): number;
  /** the id of an annotation's property (made on first use) */
  property(key: string): number;
  /** the id of a property SMW writes itself (made on first use) */
  propertyId(key: string): number;
  /** the property id _ERRP values are written with */
  errpProperty(): number;
  addValue(...value: SemanticValue): void;
  addCompletionValue(source: number, value: string): void;
  /** a query's conditions or a concept (normalised once every property's type is known) */
  stage(subject: number, property: number, seq: number, text: string): void;
  declareType(property: number, type: string): void;
}

/**
 * A page's semantic data, typed by the analyzer (semantic-analysis.ts, on a worker): its operations
 * applied in order. Property ids are numbered in order of first use, as the operations name them.
 */
export function applySemanticOps(ops: SemanticOps, w: SemanticOpSink): { subjects: number; values: number } {
  let subjects = 0;
  let values = 0;
  let subject = -1;
  let seq = 0;
  let prop = -1;
  for (let i = 0; i < ops.length; ) {
    switch (ops[i]) {
      case OP.SUBJECT:
        subjects++;
        subject = w.addSubject(ops[i + 1] as number, ops[i + 2] as string, ops[i + 3] as string, ops[i + 4] as string);
        seq = 0;
        i += 5;
        break;
      case OP.ANN:
        prop = w.property(ops[i + 1] as string);
        i += 2;
        break;
      case OP.VALUE:
      case OP.ERRP:
        w.addValue(
          subject,
          ops[i] === OP.VALUE ? prop : w.errpProperty(),
          seq++,
          ops[i + 1] as number,
          ops[i + 2] as string | null,
          ops[i + 3] as number | null,
          ops[i + 4] as string | null,
          ops[i + 5] as number | null,
        );
        values++;
        i += 6;
        break;
      case OP.COMPLETION:
        w.addCompletionValue(prop, ops[i + 1] as string);
        i += 2;
        break;
      case OP.ITEM:
        w.addValue(
          subject,
          w.propertyId(ops[i + 1] as string),
          seq++,
          ops[i + 2] as number,
          ops[i + 3] as string,
          null,
          null,
          ops[i + 4] as number | null,
        );
        values++;
        i += 5;
        break;
      case OP.STAGE:
        w.stage(subject, w.propertyId(ops[i + 1] as string), seq++, ops[i + 2] as string);
        values++;
        i += 3;
        break;
      case OP.DECLARE:
        w.declareType(w.propertyId(ops[i + 1] as string), ops[i + 2] as string);
        i += 3;
        break;
      default:
        throw new Error(`semantic: unknown operation ${String(ops[i])} from the analyzer`);
    }
  }
  return { subjects, values };
}

/**
 * A staged row's value as SMW stores it once every property's type is known: a concept's definition, or a
 * query's conditions normalised (as written when they do not parse).
 */
export function stagedValue(
  text: string,
  isConcept: boolean,
  o: { codec: TitleCodec; typeOf: (key: string) => string },
): { di: number; item: string; sortNum: number | null } {
  if (isConcept) {
    const [conditions, docu] = JSON.parse(text) as [string, string];
    const item = encodeConcept(defineConcept(conditions, docu, o).value);
    return { di: DI.CONCEPT, item, sortNum: itemSortKey(DI.CONCEPT, item) ?? null };
  }
  let normal: string;
  try {
    normal = normalizedQueryString(text, o);
  } catch {
    normal = text;
  }
  return { di: DI.BLOB, item: normal, sortNum: itemSortKey(DI.BLOB, normal) ?? null };
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
    last = rows[rows.length - 1][0];
    w.batch(() => {
      for (const [id, source, value] of rows) for (const k of wordKeys(value)) w.addWordKey(source, k, id);
    });
  }
  return w.endWordKeys();
}

/**
 * One pass over the word keys in (source, key) order: the LCP intervals of the sorted keys are the
 * nodes of their compressed trie; each keeps the smallest COMPLETION_LIST_VALUES value ids of its rows (children
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
  const trie = new TopKTrie(heavyRows, COMPLETION_LIST_VALUES, (key, ids) => pendingNodes.push({ source: source!, key, ids }));
  let cursor: [number, string, number] | null = null;
  for (;;) {
    const rows = w.wordKeys(cursor, BATCH);
    if (rows.length === 0) break;
    for (const [rowSource, key, value] of rows) {
      if (rowSource !== source) {
        if (source !== null) trie.end();
        source = rowSource;
      }
      trie.add(key, value);
    }
    const l = rows[rows.length - 1];
    cursor = [l[0], l[1], l[2]];
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
