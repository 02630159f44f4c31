/**
 * SMW's query engine on SQLite: a query description (semantic/ask.ts) compiled to one SQL statement over
 * smw_subject and smw_value, as SMW's SQLStore3 QueryEngine does over its property tables.
 *
 * Every condition has two SQL forms: a set (the subject ids it holds, read from an index: categories
 * and values through smw_value_item / smw_value_key / smw_value_num, namespaces and page ranges through
 * smw_subject's indexes) and a check (a correlated EXISTS, a primary-key seek per candidate). The
 * top-level conditions (and the properties sorted by, which SMW adds as conditions) are probed: each
 * set is counted up to PROBE_CAP rows, the smallest drives and the others are checked. When every
 * condition is large and the order is the page's sort key, the subjects are walked in sort-key order
 * through smw_subject_sort and checked until the page is full, so a request reads a bounded number of
 * rows either way; only a sort by a property over large sets still sorts a large set.
 *
 * Offsets are bounded by SMW itself ($smwgQMaxLimit, $smwgQUpperbound).
 */
import type { Db, Statement } from './db.js';
import { DI } from '../../semantic/types.js';
import type { Comparator, Description, PropertyRef, QueryItem, SortOrder } from '../../semantic/ask.js';
import { SMW_QSUBCATEGORY_DEPTH } from '../../semantic/ask.js';
import type { AskAnswer, AskPrintValue, AskRequest, AskSubject, AskPrintoutSpec } from '../semantic-store.js';
import { SEMANTIC_ITEM } from './semantic-schema.js';

/** Rows a condition's set is counted to when choosing the one that drives. */
const PROBE_CAP = 2000;
/** Subjects a sort-order walk reads (beyond the offset) before the smallest condition drives instead. */
const WALK_BUDGET = 20000;
/** Categories a class condition expands to at most (with subcategories). */
const MAX_CATEGORIES = 5000;
/** Distinct statement texts kept prepared. */
const STATEMENT_CACHE = 300;

const SQL_OP: Record<Exclude<Comparator, 'like' | 'nlike'>, string> = { eq: '=', lt: '<', gt: '>', le: '<=', ge: '>=', ne: '!=' };

/** SMW's LIKE pattern (* any, ? one character) as a GLOB pattern (case-sensitive, as SMW's binary columns). */
function globPattern(p: string): string {
  return p.replace(/[\[\]]/g, (c) => (c === '[' ? '[[]' : '[]]'));
}

interface PropInfo {
  id: number;
  /** user properties keep page titles and texts in sv_ns/sv_key */
  user: boolean;
}

interface Resolved {
  props: Map<string, PropInfo>;
  /** page item key 'ns|dbkey|subobject' → the page after a redirect, and its subject id (0 when SMW has none) */
  pages: Map<string, { id: number; ns: number; dbkey: string }>;
  /** category DB key → the category and its subcategories, as _INST items */
  classes: Map<string, string[]>;
}

function pageKey(item: QueryItem): string {
  return `${item.ns}|${item.dbkey}|${item.subobject ?? ''}`;
}

const isPageType = (t: string) => t === '_wpg' || t === '__sob';

class Compiler {
  readonly params: unknown[] = [];
  private n = 0;

  constructor(private readonly r: Resolved) {}

  private p(v: unknown): string {
    this.params.push(v);
    return '?';
  }

  private alias(base: string): string {
    return `${base}${this.n++}`;
  }

  private prop(p: PropertyRef): PropInfo | undefined {
    return this.r.props.get(p.key);
  }

  /** SQL of one page's item serialization from a smw_subject alias (for predefined page properties). */
  private static itemOf(o: string): string {
    return `${o}.ss_title || '#' || ${o}.ss_namespace || '#' || CASE WHEN ${o}.ss_subobject = '' THEN '' ELSE '#' || ${o}.ss_subobject END`;
  }

  /** value row v holds the page of subject row o */
  private valueIsSubject(v: string, o: string, info: PropInfo): string {
    if (info.user) return `${o}.ss_namespace = ${v}.sv_ns AND ${o}.ss_title = ${v}.sv_key AND ${o}.ss_subobject = ''`;
    return `${v}.sv_item = ${Compiler.itemOf(o)}`;
  }

  private classItems(d: { cats: string[] }): string {
    const items = new Set<string>();
    for (const c of d.cats) for (const i of this.r.classes.get(c) ?? []) items.add(i);
    return JSON.stringify([...items]);
  }

  private pageId(item: QueryItem): number {
    return this.r.pages.get(pageKey(item))?.id ?? 0;
  }

  /** the page a value names, after its redirect (SMW stores and compares the target) */
  private target(item: QueryItem): { ns: number; dbkey: string; item: string } {
    const t = this.r.pages.get(pageKey(item));
    if (!t) return { ns: item.ns!, dbkey: item.dbkey!, item: item.item };
    const sub = item.subobject ?? '';
    return { ns: t.ns, dbkey: t.dbkey, item: `${t.dbkey}#${t.ns}#${sub === '' ? '' : '#' + sub}` };
  }

  // ---- checks: the subject whose id is the SQL expression `x` (row alias `row` when there is one) ----

  check(d: Description, x: string, row?: string): string {
    switch (d.k) {
      case 'thing':
        return '1';
      case 'ns':
        if (row) return `${row}.ss_namespace = ${this.p(d.ns)}`;
        return `EXISTS (SELECT 1 FROM smw_subject c WHERE c.ss_id = ${x} AND c.ss_namespace = ${this.p(d.ns)})`;
      case 'class': {
        const inst = this.r.props.get('_INST');
        if (!inst) return '0';
        const c = this.alias('c');
        return `EXISTS (SELECT 1 FROM smw_value ${c} WHERE ${c}.sv_subject = ${x} AND ${c}.sv_property = ${this.p(inst.id)} AND ${c}.sv_item IN (SELECT value FROM json_each(${this.p(this.classItems(d))})))`;
      }
      case 'value':
        if (d.cmp === 'eq') return `${x} = ${this.p(this.pageId(d.item))}`;
        if (row) return this.sortkeyCondition(`${row}.ss_sortkey`, d);
        {
          const c = this.alias('c');
          return `EXISTS (SELECT 1 FROM smw_subject ${c} WHERE ${c}.ss_id = ${x} AND ${this.sortkeyCondition(`${c}.ss_sortkey`, d)})`;
        }
      case 'some':
        return this.someCheck(d.prop, d.desc, x);
      case 'and':
        return '(' + d.items.map((i) => this.check(i, x, row)).join(' AND ') + ')';
      case 'or':
        return '(' + d.items.map((i) => this.check(i, x, row)).join(' OR ') + ')';
    }
  }

  /** a page comparison other than equality: on the sort key (SMW: smw_sortkey against the title) */
  private sortkeyCondition(col: string, d: { item: QueryItem; cmp: Comparator }): string {
    const text = (d.item.dbkey ?? '').replace(/_/g, ' ');
    if (d.cmp === 'like') return `${col} GLOB ${this.p(globPattern(text))}`;
    if (d.cmp === 'nlike') return `${col} NOT GLOB ${this.p(globPattern(text))}`;
    return `${col} ${SQL_OP[d.cmp]} ${this.p(text)}`;
  }

  private someCheck(prop: PropertyRef, inner: Description, x: string): string {
    const info = this.prop(prop);
    if (!info) return '0';
    const v = this.alias('v');
    if (prop.inverse) {
      if (!info.user) return '0';
      const xs = this.alias('xs');
      return `EXISTS (SELECT 1 FROM smw_subject ${xs} JOIN smw_value ${v} ON ${v}.sv_property = ${this.p(info.id)} AND ${v}.sv_key = ${xs}.ss_title AND ${v}.sv_ns = ${xs}.ss_namespace
        WHERE ${xs}.ss_id = ${x} AND ${xs}.ss_subobject = '' AND ${this.check(inner, `${v}.sv_subject`)})`;
    }
    // parameters are collected in text order: the property's before the value condition's
    const pid = this.p(info.id);
    const cond = isPageType(prop.type) ? this.pageValueCondition(inner, v, info) : this.valueCondition(inner, v, info);
    return `EXISTS (SELECT 1 FROM smw_value ${v} WHERE ${v}.sv_subject = ${x} AND ${v}.sv_property = ${pid} AND ${cond})`;
  }

  /** the page value in row v satisfies d */
  private pageValueCondition(d: Description, v: string, info: PropInfo): string {
    switch (d.k) {
      case 'thing':
        return '1';
      case 'value':
        if (d.cmp === 'eq') {
          const it = this.target(d.item);
          if (info.user) {
            if (d.item.subobject) return '0';
            return `${v}.sv_key = ${this.p(it.dbkey)} AND ${v}.sv_ns = ${this.p(it.ns)}`;
          }
          return `${v}.sv_item = ${this.p(it.item)}`;
        }
        break;
      case 'or':
        return '(' + d.items.map((i) => this.pageValueCondition(i, v, info)).join(' OR ') + ')';
      case 'and':
        return '(' + d.items.map((i) => this.pageValueCondition(i, v, info)).join(' AND ') + ')';
    }
    const o = this.alias('o');
    return `EXISTS (SELECT 1 FROM smw_subject ${o} WHERE ${this.valueIsSubject(v, o, info)} AND ${this.check(d, `${o}.ss_id`, o)})`;
  }

  /** the (non-page) value in row v satisfies d */
  private valueCondition(d: Description, v: string, info: PropInfo): string {
    switch (d.k) {
      case 'thing':
        return '1';
      case 'or':
        return '(' + d.items.map((i) => this.valueCondition(i, v, info)).join(' OR ') + ')';
      case 'and':
        return '(' + d.items.map((i) => this.valueCondition(i, v, info)).join(' AND ') + ')';
      case 'value':
        return this.valueComparison(d.item, d.cmp, v, info);
      default:
        return '0';
    }
  }

  private valueComparison(item: QueryItem, cmp: Comparator, v: string, info: PropInfo): string {
    if (cmp === 'like' || cmp === 'nlike') {
      let pattern = item.text ?? item.item;
      let col = `${v}.sv_item`;
      if (item.di === DI.BLOB) col = info.user ? `${v}.sv_key` : `${v}.sv_item`;
      else if (item.di === DI.URI) pattern = pattern.replace(/https?:\/\//g, '').replace(/%2A/g, '*');
      else col = SEMANTIC_ITEM.replace(/sv_/g, `${v}.sv_`);
      return `${col} ${cmp === 'like' ? '' : 'NOT '}GLOB ${this.p(globPattern(pattern))}`;
    }
    const op = SQL_OP[cmp];
    if (item.num !== undefined) return `${v}.sv_num ${op} ${this.p(item.num)}`;
    if (item.di === DI.BLOB) return `${info.user ? `${v}.sv_key` : `${v}.sv_item`} ${op} ${this.p(item.text ?? item.item)}`;
    return `${v}.sv_item ${op} ${this.p(item.item)}`;
  }

  // ---- sets: a SELECT of the ids (column `id`) of the subjects satisfying d ----

  set(d: Description): string {
    switch (d.k) {
      case 'thing':
        return 'SELECT ss_id AS id FROM smw_subject';
      case 'ns':
        return `SELECT ss_id AS id FROM smw_subject WHERE ss_namespace = ${this.p(d.ns)}`;
      case 'class': {
        const inst = this.r.props.get('_INST');
        if (!inst) return 'SELECT 0 AS id WHERE 0';
        return `SELECT sv_subject AS id FROM smw_value WHERE sv_property = ${this.p(inst.id)} AND sv_item IN (SELECT value FROM json_each(${this.p(this.classItems(d))}))`;
      }
      case 'value': {
        if (d.cmp === 'eq') return `SELECT ${this.p(this.pageId(d.item))} AS id`;
        const s = this.alias('s');
        return `SELECT ${s}.ss_id AS id FROM smw_subject ${s} WHERE ${this.sortkeyCondition(`${s}.ss_sortkey`, d)}`;
      }
      case 'some':
        return this.someSet(d.prop, d.desc);
      case 'and': {
        const [first, ...rest] = orderForSet(d.items);
        const t = this.alias('t');
        const drive = this.set(first);
        return `SELECT ${t}.id AS id FROM (${drive}) ${t} WHERE ${rest.map((i) => this.check(i, `${t}.id`)).join(' AND ')}`;
      }
      case 'or':
        return d.items.map((i) => this.set(i)).join(' UNION ');
    }
  }

  private someSet(prop: PropertyRef, inner: Description): string {
    const info = this.prop(prop);
    if (!info) return 'SELECT 0 AS id WHERE 0';
    const v = this.alias('v');
    if (prop.inverse) {
      if (!info.user) return 'SELECT 0 AS id WHERE 0';
      const xs = this.alias('xs');
      const pid = this.p(info.id);
      const innerCond = inner.k === 'thing' ? '' : ` AND ${v}.sv_subject IN (${this.set(inner)})`;
      return `SELECT DISTINCT ${xs}.ss_id AS id FROM smw_value ${v} JOIN smw_subject ${xs} ON ${xs}.ss_namespace = ${v}.sv_ns AND ${xs}.ss_title = ${v}.sv_key AND ${xs}.ss_subobject = ''
        WHERE ${v}.sv_property = ${pid} AND ${v}.sv_key IS NOT NULL${innerCond}`;
    }
    const pid = this.p(info.id);
    if (isPageType(prop.type) && !simplePageCondition(inner)) {
      const o = this.alias('o');
      return `SELECT ${v}.sv_subject AS id FROM smw_subject ${o} JOIN smw_value ${v} ON ${v}.sv_property = ${pid} AND ${this.valueIsSubject(v, o, info)}
        WHERE ${o}.ss_id IN (${this.set(inner)})`;
    }
    const cond = isPageType(prop.type) ? this.pageValueCondition(inner, v, info) : this.valueCondition(inner, v, info);
    return `SELECT ${v}.sv_subject AS id FROM smw_value ${v} WHERE ${v}.sv_property = ${pid} AND ${cond}`;
  }
}

/** conditions on a page value that are read from the value row itself */
function simplePageCondition(d: Description): boolean {
  if (d.k === 'thing') return true;
  if (d.k === 'value') return d.cmp === 'eq';
  if (d.k === 'or') return d.items.every(simplePageCondition);
  return false;
}

/** how small a condition's set is likely to be: a page, a property value, a category, a property, … */
function rank(d: Description): number {
  if (d.k === 'value') return d.cmp === 'eq' ? 0 : 6;
  if (d.k === 'some') return d.desc.k === 'value' ? (d.desc.cmp === 'eq' ? 1 : 3) : d.desc.k === 'thing' ? 5 : 4;
  if (d.k === 'class') return 2;
  if (d.k === 'ns') return 7;
  return 4;
}

/** inside a nested conjunction, drive by the condition that is likely smallest */
function orderForSet(items: Description[]): Description[] {
  return [...items].sort((a, b) => rank(a) - rank(b));
}

/** Every page item compared for equality (they need subject ids), and every category. */
function collect(d: Description, pages: QueryItem[], cats: Set<string>, props: Set<string>): void {
  switch (d.k) {
    case 'class':
      for (const c of d.cats) cats.add(c);
      props.add('_INST');
      return;
    case 'value':
      if (d.item.di === DI.WIKIPAGE && d.cmp === 'eq') pages.push(d.item);
      return;
    case 'some':
      props.add(d.prop.key);
      collect(d.desc, pages, cats, props);
      return;
    case 'and':
    case 'or':
      for (const i of d.items) collect(i, pages, cats, props);
      return;
  }
}

export class SemanticQueryEngine {
  private readonly cache = new Map<string, Statement>();

  /** @param probeCap rows a condition's set is counted to (tests lower it to exercise the sort-order walk) */
  constructor(
    private readonly db: Db,
    private readonly probeCap = PROBE_CAP,
  ) {}

  /** a statement per distinct SQL text, the least recently used dropped beyond STATEMENT_CACHE */
  private stmt(sql: string, pluck = false): Statement {
    const key = (pluck ? 'P:' : 'R:') + sql;
    let s = this.cache.get(key);
    if (s) {
      this.cache.delete(key);
      this.cache.set(key, s);
      return s;
    }
    s = this.db.prepare('SemanticStore.ask', sql, pluck);
    this.cache.set(key, s);
    if (this.cache.size > STATEMENT_CACHE) this.cache.delete(this.cache.keys().next().value!);
    return s;
  }

  private resolve(d: Description, sortKeys: string[]): Resolved {
    const pages: QueryItem[] = [];
    const cats = new Set<string>();
    const propKeys = new Set<string>(sortKeys.filter((k) => k !== ''));
    collect(d, pages, cats, propKeys);
    const props = new Map<string, PropInfo>();
    if (propKeys.size > 0) {
      const rows = this.stmt('SELECT sp_id AS id, sp_key AS key FROM json_each(?) j JOIN smw_property ON sp_key = j.value').all(JSON.stringify([...propKeys])) as Array<{ id: number; key: string }>;
      for (const r of rows) props.set(r.key, { id: r.id, user: !r.key.startsWith('_') });
    }
    const resolvedPages = new Map<string, { id: number; ns: number; dbkey: string }>();
    if (pages.length > 0) {
      // SMW's getSMWPageID answers a redirect's id with its target's (SMW_EQ_SOME)
      const rows = this.stmt(
        `SELECT j.key AS i, COALESCE(t.ss_id, s.ss_id, 0) AS id, r.rd_namespace AS rns, r.rd_title AS rtitle FROM json_each(?) j
           LEFT JOIN page p ON p.page_namespace = json_extract(j.value, '$[0]') AND p.page_title = json_extract(j.value, '$[1]') AND p.page_is_redirect = 1
           LEFT JOIN redirect r ON r.rd_from = p.page_id
           LEFT JOIN smw_subject t ON t.ss_namespace = r.rd_namespace AND t.ss_title = r.rd_title AND t.ss_subobject = json_extract(j.value, '$[2]')
           LEFT JOIN smw_subject s ON s.ss_namespace = json_extract(j.value, '$[0]') AND s.ss_title = json_extract(j.value, '$[1]') AND s.ss_subobject = json_extract(j.value, '$[2]')`,
      ).all(JSON.stringify(pages.map((p) => [p.ns, p.dbkey, p.subobject ?? '']))) as Array<{ i: number; id: number; rns: number | null; rtitle: string | null }>;
      for (const r of rows) {
        const p = pages[r.i];
        resolvedPages.set(pageKey(p), r.rtitle !== null ? { id: r.id, ns: r.rns!, dbkey: r.rtitle } : { id: r.id, ns: p.ns!, dbkey: p.dbkey! });
      }
    }
    const classes = new Map<string, string[]>();
    if (cats.size > 0) {
      const subc = this.stmt("SELECT sp_id FROM smw_property WHERE sp_key = '_SUBC'", true).get() as number | undefined;
      // one statement per level of the tree: the subcategories of all categories of the level
      const children = this.stmt(
        `SELECT s.ss_title AS t FROM json_each(?) j JOIN smw_value v ON v.sv_property = ? AND v.sv_item = j.value
         JOIN smw_subject s ON s.ss_id = v.sv_subject WHERE s.ss_subobject = '' LIMIT ?`,
        true,
      );
      for (const cat of cats) {
        // Q_CLASS_HIERARCHY: the category and its subcategories down to $smwgQSubcategoryDepth levels
        const seen = new Set([cat]);
        let level = [cat];
        for (let depth = 0; depth < SMW_QSUBCATEGORY_DEPTH && level.length > 0 && subc !== undefined && seen.size < MAX_CATEGORIES; depth++) {
          const next: string[] = [];
          for (const t of children.all(JSON.stringify(level.map((c) => `${c}#14#`)), subc, MAX_CATEGORIES) as string[]) {
            if (!seen.has(t) && seen.size < MAX_CATEGORIES) {
              seen.add(t);
              next.push(t);
            }
          }
          level = next;
        }
        classes.set(cat, [...seen].map((c) => `${c}#14#`));
      }
    }
    return { props, pages: resolvedPages, classes };
  }

  ask(req: AskRequest): AskAnswer {
    const sortKeys = req.sort.map(([k]) => k);
    const r = this.resolve(req.description, sortKeys);
    const top = req.description.k === 'and' ? [...req.description.items] : req.description.k === 'thing' ? [] : [req.description];
    // sorting by a property: SMW adds [[P::+]] to the query (pages without a value drop out)
    const sortExprs: string[] = [];
    const sortParams: unknown[] = [];
    for (const [key, order] of req.sort) {
      if (key === '') continue;
      const type = req.sortTypes[key] ?? '_wpg';
      top.push({ k: 'some', prop: { key, inverse: false, type }, desc: { k: 'thing' } });
    }
    for (const [key, order] of req.sort) {
      if (order === 'RANDOM') {
        sortExprs.push('random()');
        continue;
      }
      if (key === '') {
        sortExprs.push(`s.ss_sortkey ${order}`);
        continue;
      }
      const info = r.props.get(key);
      if (!info) continue;
      const type = req.sortTypes[key] ?? '_wpg';
      const agg = order === 'DESC' ? 'MAX' : 'MIN';
      let expr: string;
      if (isPageType(type) && info.user) {
        expr = `(SELECT ${agg}(o.ss_sortkey) FROM smw_value v JOIN smw_subject o ON o.ss_namespace = v.sv_ns AND o.ss_title = v.sv_key AND o.ss_subobject = '' WHERE v.sv_subject = s.ss_id AND v.sv_property = ?)`;
      } else {
        const col = ['_num', '_qty', '_tem', '_dat', '_boo'].includes(type) ? 'v.sv_num' : info.user ? 'v.sv_key' : 'v.sv_item';
        expr = `(SELECT ${agg}(${col}) FROM smw_value v WHERE v.sv_subject = s.ss_id AND v.sv_property = ?)`;
      }
      sortParams.push(info.id);
      sortExprs.push(`${expr} ${order}`);
    }
    const pageOrder = req.sort.length > 0 && req.sort[0][0] === '' && req.sort[0][1] !== 'RANDOM' ? req.sort[0][1] : 'ASC';
    const tie = ['s.ss_namespace', 's.ss_title', 's.ss_subobject'].map((x) => `${x} ${pageOrder}`);
    if (!req.sort.some(([k]) => k === '')) tie.unshift(`s.ss_sortkey ${pageOrder}`);
    const orderBy = [...sortExprs, ...tie].join(', ');

    // choose the driving condition: the smallest set, counted up to PROBE_CAP -- likely small ones first,
    // each later one only up to the best count so far
    let driver = -1;
    let best = Infinity;
    const candidates = top.map((d, i) => ({ d, i })).filter((x) => x.d.k !== 'thing');
    candidates.sort((a, b) => rank(a.d) - rank(b.d));
    for (const { d, i } of candidates) {
      const cap = Math.min(this.probeCap, best);
      const pc = new Compiler(r);
      const sql = `SELECT count(*) FROM (${pc.set(d)} LIMIT ${cap + 1})`;
      const n = this.stmt(sql, true).get(...pc.params) as number;
      if (n < best) {
        best = n;
        driver = i;
      }
      if (n === 0) break;
    }
    type Row = { id: number; ns: number; title: string; subobject: string; ex: number };
    const run = (walk: boolean): Row[] => {
      const c = new Compiler(r);
      const where: string[] = [];
      if (!walk && driver >= 0) where.push(`s.ss_id IN (${c.set(top[driver])})`);
      for (let i = 0; i < top.length; i++) if (walk || i !== driver) where.push(c.check(top[i], 's.ss_id', 's'));
      // walking: the first WALK_BUDGET subjects in smw_subject_sort's order, checked until the page is full;
      // the rows come in the co-routine's order (an outer ORDER BY would make SQLite sort the whole budget
      // instead of stopping at the page's end; the walk-vs-probe test checks the order)
      const from = walk
        ? `(SELECT * FROM smw_subject INDEXED BY smw_subject_sort ORDER BY ${walkOrder('')} LIMIT ${WALK_BUDGET + req.offset}) s`
        : 'smw_subject s';
      const sql = `SELECT s.ss_id AS id, s.ss_namespace AS ns, s.ss_title AS title, s.ss_subobject AS subobject,
          EXISTS (SELECT 1 FROM page WHERE page_namespace = s.ss_namespace AND page_title = s.ss_title) AS ex
        FROM ${from} ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ${walk ? '' : `ORDER BY ${orderBy}`} LIMIT ? OFFSET ?`;
      return this.stmt(sql).all(...c.params, ...(walk ? [] : sortParams), req.limit + 1, req.offset) as Row[];
    };
    const walkOrder = (p: string) => ['ss_sortkey', 'ss_namespace', 'ss_title', 'ss_subobject'].map((x) => `${p}${x} ${pageOrder}`).join(', ');
    // every condition large and the order the page's: walk the sort-key order; when the walk's budget does
    // not fill the page (rare matches, or fewer than asked), the smallest set drives after all
    const walkable = driver < 0 || (best > this.probeCap && req.sort.every(([k, o]) => k === '' && o !== 'RANDOM'));
    let rows = walkable ? run(true) : [];
    if (!walkable || (rows.length <= req.limit && driver >= 0)) rows = run(false);
    const further = rows.length > req.limit;
    const subjects: AskSubject[] = rows.slice(0, req.limit).map((x) => ({ id: x.id, ns: x.ns, dbkey: x.title, subobject: x.subobject, exists: x.ex === 1 }));
    return { subjects, further };
  }

  printouts(subjects: number[], specs: AskPrintoutSpec[]): AskPrintValue[][][] {
    const ids = JSON.stringify(subjects);
    const index = new Map(subjects.map((id, i) => [id, i]));
    const out: AskPrintValue[][][] = specs.map(() => subjects.map(() => []));
    const pagesToCheck: AskPrintValue[] = [];
    specs.forEach((spec, si) => {
      const key = spec.kind === 'cats' ? '_INST' : spec.key;
      const pid = this.stmt('SELECT sp_id FROM smw_property WHERE sp_key = ?', true).get(key) as number | undefined;
      if (pid === undefined) return;
      if (spec.kind === 'prop' && spec.inverse) {
        if (key.startsWith('_')) return;
        const rows = this.stmt(
          `SELECT j.value AS subject, o.ss_namespace AS ns, o.ss_title AS title, o.ss_subobject AS so
           FROM json_each(?) j JOIN smw_subject x ON x.ss_id = j.value
           JOIN smw_value v ON v.sv_property = ? AND v.sv_key = x.ss_title AND v.sv_ns = x.ss_namespace
           JOIN smw_subject o ON o.ss_id = v.sv_subject
           WHERE x.ss_subobject = '' ORDER BY j.key, o.ss_sortkey, o.ss_title`,
        ).all(ids, pid) as Array<{ subject: number; ns: number; title: string; so: string }>;
        for (const row of rows) {
          const v: AskPrintValue = { di: DI.WIKIPAGE, item: `${row.title}#${row.ns}#${row.so ? '#' + row.so : ''}`, ns: row.ns, dbkey: row.title, subobject: row.so };
          out[si][index.get(row.subject)!].push(v);
          pagesToCheck.push(v);
        }
        return;
      }
      const rows = this.stmt(
        `SELECT v.sv_subject AS subject, v.sv_type AS di, ${SEMANTIC_ITEM.replace(/sv_/g, 'v.sv_')} AS item
         FROM json_each(?) j JOIN smw_value v ON v.sv_subject = j.value AND v.sv_property = ? ORDER BY j.key, v.sv_seq`,
      ).all(ids, pid) as Array<{ subject: number; di: number; item: string }>;
      for (const row of rows) {
        const v: AskPrintValue = { di: row.di, item: row.item };
        if (row.di === DI.WIKIPAGE) {
          const parts = row.item.split('#');
          v.dbkey = parts[0];
          v.ns = Number(parts[1]);
          v.subobject = parts.slice(3).join('#');
          pagesToCheck.push(v);
        }
        out[si][index.get(row.subject)!].push(v);
      }
    });
    if (pagesToCheck.length > 0) {
      const keys = [...new Set(pagesToCheck.map((v) => `${v.ns}|${v.dbkey}`))];
      const existing = new Set(
        (this.stmt(
          `SELECT j.value FROM json_each(?) j JOIN page ON page_namespace = CAST(substr(j.value, 1, instr(j.value, '|') - 1) AS INTEGER)
             AND page_title = substr(j.value, instr(j.value, '|') + 1)`,
          true,
        ).all(JSON.stringify(keys)) as string[]),
      );
      for (const v of pagesToCheck) v.exists = existing.has(`${v.ns}|${v.dbkey}`);
    }
    return out;
  }
}
