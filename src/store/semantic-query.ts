/**
 * SMW's query engine, for both stores: a query description (semantic/query/descriptions.ts) compiled to one SQL
 * statement over smw_subject and smw_value, as SMW's SQLStore3 QueryEngine does over its property tables.
 * The plan (which condition drives, the sort-order walk, the statement's shape) is the same on SQLite and
 * PostgreSQL; the few places where their SQL differs (placeholders, lists bound as one parameter, pattern
 * matching, NULL ordering, numbers in text concatenation) go through a SemanticDialect; texts with
 * U+0000, which PostgreSQL cannot bind, are decided here (hasNul).
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
import { BLOB_TYPES, DI } from '../semantic/types.js';
import type { Comparator, Description, PropertyRef, QueryItem } from '../semantic/query/descriptions.js';
import { SMW_QSUBCATEGORY_DEPTH, SMW_QSUBPROPERTY_DEPTH } from '../semantic/query/limits.js';
import type { AskAnswer, AskPrintValue, AskRequest, AskSubject, AskPrintoutSpec } from './semantic-store.js';

/** Rows a condition's set is counted to when choosing the one that drives. */
const PROBE_CAP = 2000;
/** Subjects a sort-order walk reads (beyond the offset) before the smallest condition drives instead. */
const WALK_BUDGET = 20000;
/** Properties a property condition expands to at most (with subproperties). */
const MAX_SUBPROPERTIES = 1000;
/** Categories a class condition expands to at most (with subcategories). */
const MAX_CATEGORIES = 5000;

const SQL_OP: Record<Exclude<Comparator, 'like' | 'nlike'>, string> = { eq: '=', lt: '<', gt: '>', le: '<=', ge: '>=', ne: '!=' };

export type ParamType = 'int' | 'real' | 'text';

/** The SQL that differs between the stores. */
export interface SemanticDialect {
  /** the placeholder of the n-th parameter (1-based), of this type (none: a list or rows' column) */
  placeholder(n: number, type?: ParamType): string;
  /** a list bound as parameters (for `listTable`, `inTextList`) */
  bindList(values: readonly unknown[], type: ParamType): unknown[];
  /** FROM item of a bound list: columns `value` and `key` (its position, from `keyBase`) */
  listTable(ph: string[], type: ParamType, alias: string): string;
  /** FROM item of bound rows (`columns` names and types, in order), with `key` as listTable's */
  rowsTable(ph: string[], columns: Array<[string, ParamType]>, alias: string): string;
  /** the rows' values, bound (rowsTable's parameters) */
  bindRows(rows: unknown[][], columns: Array<[string, ParamType]>): unknown[];
  /** the first `key` of listTable/rowsTable */
  readonly keyBase: number;
  /** `expr` is in a bound list of texts */
  inTextList(expr: string, ph: string[]): string;
  /** `expr` is in a bound list of integers */
  inIntList(expr: string, ph: string[]): string;
  /** SMW's `~` pattern (* any characters, ? one character, everything else literal; case-sensitive) */
  matches(expr: string, negate: boolean, pattern: (v: string) => string, smwPattern: string): string;
  /** an integer expression as text, for concatenation */
  intText(expr: string): string;
  /** an ORDER BY term sorting NULLs as SQLite does (first ascending, last descending) */
  orderTerm(expr: string, order: 'ASC' | 'DESC'): string;
  /** the sort-order walk's source: smw_subject in `order`, at most `limitPh` rows, as alias s */
  walkSource(order: string, limitPh: string): string;
  /** the walk's rows need an outer ORDER BY (SQLite's co-routine keeps the source's order without one) */
  readonly walkOuterOrder: boolean;
  /**
   * Statements run in this process (SQLite): a chain of simple seeks costs less than one composite
   * statement doing the same. Otherwise (a server database) each statement waits a round trip, and the
   * chain is one statement.
   */
  readonly inProcess: boolean;
}

/** Runs a statement of the engine. */
export interface SemanticSqlRunner {
  /** `shaped`: the text follows the query's structure (unboundedly many texts), else one of a few fixed ones */
  all(sql: string, params: unknown[], shaped?: boolean): Promise<any[]>;
}

/** Parameters of one statement, numbered in text order (SQLite's `?` are positional). */
export class Params {
  readonly values: unknown[] = [];
  constructor(readonly dialect: SemanticDialect) {}

  add(v: unknown, type?: ParamType): string {
    this.values.push(v);
    return this.dialect.placeholder(this.values.length, type);
  }

  list(values: readonly unknown[], type: ParamType): string[] {
    return this.dialect.bindList(values, type).map((v) => this.add(v));
  }

  rows(rows: unknown[][], columns: Array<[string, ParamType]>): string[] {
    return this.dialect.bindRows(rows, columns).map((v) => this.add(v));
  }
}

interface PropInfo {
  id: number;
  /**
   * the property and its subproperties ([[Subproperty of::…]], to $smwgQSubpropertyDepth levels): a
   * condition on the property holds for values of any of them, as SMW's Q_PROP_HIERARCHY segments make it
   */
  ids: number[];
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

/**
 * No stored text holds U+0000 (an XML dump cannot carry it), but a request's can, and PostgreSQL's
 * text cannot: such values are decided here, as SQLite decides them (compared byte-wise, GLOB on the
 * C string up to the NUL), without sending them.
 */
export const hasNul = (s: string) => s.includes('\0');

/** a set that holds no subject */
const NO_SUBJECT = 'SELECT 0 AS id WHERE FALSE';

/**
 * The serialization of a smw_value row (alias prefix `p`, e.g. 'v.'): user properties' page and text
 * values keep only their title / text (sqlite/semantic-schema.ts).
 */
export function semanticItem(d: Pick<SemanticDialect, 'intText'>, p = ''): string {
  return `COALESCE(${p}sv_item, CASE ${p}sv_type WHEN 9 THEN ${p}sv_key || '#' || ${d.intText(`${p}sv_ns`)} || '#' ELSE ${p}sv_key END)`;
}

class Compiler {
  private n = 0;
  private readonly d: SemanticDialect;

  constructor(
    private readonly r: Resolved,
    readonly params: Params,
  ) {
    this.d = params.dialect;
  }

  private p(v: unknown, type: ParamType): string {
    return this.params.add(v, type);
  }

  private alias(base: string): string {
    return `${base}${this.n++}`;
  }

  private prop(p: PropertyRef): PropInfo | undefined {
    return this.r.props.get(p.key);
  }

  /** `col` names the property or one of its subproperties (`=` when it has none: the statement as before) */
  private propIs(col: string, info: PropInfo): string {
    return propIs(this.params, col, info);
  }

  /** SQL of one page's item serialization from a smw_subject alias (for predefined page properties). */
  private itemOf(o: string): string {
    return `${o}.ss_title || '#' || ${this.d.intText(`${o}.ss_namespace`)} || '#' || CASE WHEN ${o}.ss_subobject = '' THEN '' ELSE '#' || ${o}.ss_subobject END`;
  }

  /** value row v holds the page of subject row o */
  private valueIsSubject(v: string, o: string, info: PropInfo): string {
    if (info.user) return `${o}.ss_namespace = ${v}.sv_ns AND ${o}.ss_title = ${v}.sv_key AND ${o}.ss_subobject = ''`;
    return `${v}.sv_item = ${this.itemOf(o)}`;
  }

  private classItems(d: { cats: string[] }): string[] {
    const items = new Set<string>();
    for (const c of d.cats) for (const i of this.r.classes.get(c) ?? []) if (!hasNul(i)) items.add(i);
    return this.params.list([...items], 'text');
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
        return 'TRUE';
      case 'concept':
        // a concept the caller could not expand (missing, circular, too large): it holds no page
        return 'FALSE';
      case 'ns':
        if (row) return `${row}.ss_namespace = ${this.p(d.ns, 'int')}`;
        return `EXISTS (SELECT 1 FROM smw_subject c WHERE c.ss_id = ${x} AND c.ss_namespace = ${this.p(d.ns, 'int')})`;
      case 'class': {
        const inst = this.r.props.get('_INST');
        if (!inst) return 'FALSE';
        const c = this.alias('c');
        return `EXISTS (SELECT 1 FROM smw_value ${c} WHERE ${c}.sv_subject = ${x} AND ${c}.sv_property = ${this.p(inst.id, 'int')} AND ${this.d.inTextList(`${c}.sv_item`, this.classItems(d))})`;
      }
      case 'value':
        if (d.cmp === 'eq') return `${x} = ${this.p(this.pageId(d.item), 'int')}`;
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
    if (d.cmp === 'like' || d.cmp === 'nlike') return this.matches(col, d.cmp === 'nlike', text);
    return this.compareText(col, d.cmp, text);
  }

  /** `col op value` on texts; a value with U+0000 sorts right after its part before the NUL (hasNul) */
  private compareText(col: string, cmp: Exclude<Comparator, 'like' | 'nlike'>, value: string): string {
    const nul = value.indexOf('\0');
    if (nul < 0) return `${col} ${SQL_OP[cmp]} ${this.p(value, 'text')}`;
    const before = () => this.p(value.slice(0, nul), 'text');
    switch (cmp) {
      case 'eq':
        return 'FALSE';
      case 'ne':
        return `${col} IS NOT NULL`;
      case 'lt':
      case 'le':
        return `${col} <= ${before()}`;
      case 'gt':
      case 'ge':
        return `${col} > ${before()}`;
    }
  }

  /** SMW's pattern: SQLite's GLOB reads it as a C string, up to a NUL */
  private matches(col: string, negate: boolean, pattern: string): string {
    const nul = pattern.indexOf('\0');
    return this.d.matches(col, negate, (v) => this.p(v, 'text'), nul < 0 ? pattern : pattern.slice(0, nul));
  }

  private someCheck(prop: PropertyRef, inner: Description, x: string): string {
    const info = this.prop(prop);
    if (!info) return 'FALSE';
    const v = this.alias('v');
    if (prop.inverse) {
      if (!info.user) return 'FALSE';
      const xs = this.alias('xs');
      return `EXISTS (SELECT 1 FROM smw_subject ${xs} JOIN smw_value ${v} ON ${this.propIs(`${v}.sv_property`, info)} AND ${v}.sv_key = ${xs}.ss_title AND ${v}.sv_ns = ${xs}.ss_namespace
        WHERE ${xs}.ss_id = ${x} AND ${xs}.ss_subobject = '' AND ${this.check(inner, `${v}.sv_subject`)})`;
    }
    // parameters are collected in text order: the property's before the value condition's
    const pid = this.propIs(`${v}.sv_property`, info);
    const cond = isPageType(prop.type) ? this.pageValueCondition(inner, v, info) : this.valueCondition(inner, v, info);
    return `EXISTS (SELECT 1 FROM smw_value ${v} WHERE ${v}.sv_subject = ${x} AND ${pid} AND ${cond})`;
  }

  /** the page value in row v satisfies d */
  private pageValueCondition(d: Description, v: string, info: PropInfo): string {
    switch (d.k) {
      case 'thing':
        return 'TRUE';
      case 'value':
        if (d.cmp === 'eq') {
          const it = this.target(d.item);
          if (info.user) {
            if (d.item.subobject || hasNul(it.dbkey)) return 'FALSE';
            return `${v}.sv_key = ${this.p(it.dbkey, 'text')} AND ${v}.sv_ns = ${this.p(it.ns, 'int')}`;
          }
          return this.compareText(`${v}.sv_item`, 'eq', it.item);
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
        return 'TRUE';
      case 'or':
        return '(' + d.items.map((i) => this.valueCondition(i, v, info)).join(' OR ') + ')';
      case 'and':
        return '(' + d.items.map((i) => this.valueCondition(i, v, info)).join(' AND ') + ')';
      case 'value':
        return this.valueComparison(d.item, d.cmp, v, info);
      default:
        return 'FALSE';
    }
  }

  private valueComparison(item: QueryItem, cmp: Comparator, v: string, info: PropInfo): string {
    if (cmp === 'like' || cmp === 'nlike') {
      let pattern = item.text ?? item.item;
      let col = `${v}.sv_item`;
      if (item.di === DI.BLOB) col = info.user ? `${v}.sv_key` : `${v}.sv_item`;
      else if (item.di === DI.URI) pattern = pattern.replace(/https?:\/\//g, '').replace(/%2A/g, '*');
      else col = semanticItem(this.d, `${v}.`);
      return this.matches(col, cmp === 'nlike', pattern);
    }
    if (item.num !== undefined) return `${v}.sv_num ${SQL_OP[cmp]} ${this.p(item.num, 'real')}`;
    if (item.di === DI.BLOB) return this.compareText(info.user ? `${v}.sv_key` : `${v}.sv_item`, cmp, item.text ?? item.item);
    return this.compareText(`${v}.sv_item`, cmp, item.item);
  }

  // ---- sets: a SELECT of the ids (column `id`) of the subjects satisfying d ----

  set(d: Description): string {
    switch (d.k) {
      case 'thing':
        return 'SELECT ss_id AS id FROM smw_subject';
      case 'concept':
        return NO_SUBJECT;
      case 'ns':
        return `SELECT ss_id AS id FROM smw_subject WHERE ss_namespace = ${this.p(d.ns, 'int')}`;
      case 'class': {
        const inst = this.r.props.get('_INST');
        if (!inst) return NO_SUBJECT;
        return `SELECT sv_subject AS id FROM smw_value WHERE sv_property = ${this.p(inst.id, 'int')} AND ${this.d.inTextList('sv_item', this.classItems(d))}`;
      }
      case 'value': {
        if (d.cmp === 'eq') return `SELECT ${this.p(this.pageId(d.item), 'int')} AS id`;
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
    if (!info) return NO_SUBJECT;
    const v = this.alias('v');
    if (prop.inverse) {
      if (!info.user) return NO_SUBJECT;
      const xs = this.alias('xs');
      const pid = this.propIs(`${v}.sv_property`, info);
      const innerCond = inner.k === 'thing' ? '' : ` AND ${v}.sv_subject IN (${this.set(inner)})`;
      return `SELECT DISTINCT ${xs}.ss_id AS id FROM smw_value ${v} JOIN smw_subject ${xs} ON ${xs}.ss_namespace = ${v}.sv_ns AND ${xs}.ss_title = ${v}.sv_key AND ${xs}.ss_subobject = ''
        WHERE ${pid} AND ${v}.sv_key IS NOT NULL${innerCond}`;
    }
    const pid = this.propIs(`${v}.sv_property`, info);
    if (isPageType(prop.type) && !simplePageCondition(inner)) {
      const o = this.alias('o');
      return `SELECT ${v}.sv_subject AS id FROM smw_subject ${o} JOIN smw_value ${v} ON ${pid} AND ${this.valueIsSubject(v, o, info)}
        WHERE ${o}.ss_id IN (${this.set(inner)})`;
    }
    const cond = isPageType(prop.type) ? this.pageValueCondition(inner, v, info) : this.valueCondition(inner, v, info);
    return `SELECT ${v}.sv_subject AS id FROM smw_value ${v} WHERE ${pid} AND ${cond}`;
  }
}

function propIs(params: Params, col: string, info: PropInfo): string {
  if (info.ids.length === 1) return `${col} = ${params.add(info.id, 'int')}`;
  return params.dialect.inIntList(col, params.list(info.ids, 'int'));
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
  /** @param probeCap rows a condition's set is counted to (tests lower it to exercise the sort-order walk) */
  constructor(
    private readonly dialect: SemanticDialect,
    private readonly run: SemanticSqlRunner,
    private readonly probeCap = PROBE_CAP,
  ) {}

  private params(): Params {
    return new Params(this.dialect);
  }

  private async resolve(d: Description, sortKeys: string[]): Promise<Resolved> {
    let pages: QueryItem[] = [];
    const cats = new Set<string>();
    const propKeys = new Set<string>(sortKeys.filter((k) => k !== ''));
    collect(d, pages, cats, propKeys);
    for (const k of propKeys) if (hasNul(k)) propKeys.delete(k);
    const props = new Map<string, PropInfo>();
    const dl = this.dialect;
    if (propKeys.size > 0) {
      const p = this.params();
      const sql = `SELECT sp_id AS id, sp_key AS key FROM ${dl.listTable(p.list([...propKeys], 'text'), 'text', 'j')} JOIN smw_property ON sp_key = j.value`;
      for (const r of (await this.run.all(sql, p.values)) as Array<{ id: number; key: string }>)
        props.set(r.key, { id: r.id, ids: [r.id], user: !r.key.startsWith('_') });
      await this.subproperties(props);
    }
    const resolvedPages = new Map<string, { id: number; ns: number; dbkey: string }>();
    // no page or subject has U+0000 in its title: SMW has no id for such a page (the statement's 0)
    for (const x of pages)
      if (hasNul(x.dbkey!) || hasNul(x.subobject ?? '')) resolvedPages.set(pageKey(x), { id: 0, ns: x.ns!, dbkey: x.dbkey! });
    pages = pages.filter((x) => !resolvedPages.has(pageKey(x)));
    if (pages.length > 0) {
      // SMW's getSMWPageID answers a redirect's id with its target's (SMW_EQ_SOME)
      const p = this.params();
      const cols: Array<[string, ParamType]> = [
        ['ns', 'int'],
        ['dbkey', 'text'],
        ['sub', 'text'],
      ];
      const list = dl.rowsTable(
        p.rows(
          pages.map((x) => [x.ns, x.dbkey, x.subobject ?? '']),
          cols,
        ),
        cols,
        'j',
      );
      const rows = (await this.run.all(
        `SELECT j.key AS i, COALESCE(t.ss_id, s.ss_id, 0) AS id, r.rd_namespace AS rns, r.rd_title AS rtitle FROM ${list}
           LEFT JOIN page p ON p.page_namespace = j.ns AND p.page_title = j.dbkey AND p.page_is_redirect = 1
           LEFT JOIN redirect r ON r.rd_from = p.page_id
           LEFT JOIN smw_subject t ON t.ss_namespace = r.rd_namespace AND t.ss_title = r.rd_title AND t.ss_subobject = j.sub
           LEFT JOIN smw_subject s ON s.ss_namespace = j.ns AND s.ss_title = j.dbkey AND s.ss_subobject = j.sub`,
        p.values,
      )) as Array<{ i: number; id: number; rns: number | null; rtitle: string | null }>;
      for (const r of rows) {
        const pg = pages[r.i - dl.keyBase];
        resolvedPages.set(
          pageKey(pg),
          r.rtitle !== null ? { id: r.id, ns: r.rns!, dbkey: r.rtitle } : { id: r.id, ns: pg.ns!, dbkey: pg.dbkey! },
        );
      }
    }
    const classes = new Map<string, string[]>();
    if (cats.size > 0) {
      const subc = ((await this.run.all("SELECT sp_id AS id FROM smw_property WHERE sp_key = '_SUBC'", [])) as Array<{ id: number }>)[0]
        ?.id;
      for (const cat of cats) {
        // Q_CLASS_HIERARCHY: the category and its subcategories down to $smwgQSubcategoryDepth levels
        const seen = new Set([cat]);
        let level = [cat];
        for (
          let depth = 0;
          depth < SMW_QSUBCATEGORY_DEPTH && level.length > 0 && subc !== undefined && seen.size < MAX_CATEGORIES;
          depth++
        ) {
          // one statement per level of the tree: the subcategories of all categories of the level
          const p = this.params();
          const list = dl.listTable(
            p.list(
              level.filter((c) => !hasNul(c)).map((c) => `${c}#14#`),
              'text',
            ),
            'text',
            'j',
          );
          const sql = `SELECT s.ss_title AS t FROM ${list} JOIN smw_value v ON v.sv_property = ${p.add(subc, 'int')} AND v.sv_item = j.value
             JOIN smw_subject s ON s.ss_id = v.sv_subject WHERE s.ss_subobject = '' LIMIT ${p.add(MAX_CATEGORIES, 'int')}`;
          const next: string[] = [];
          for (const { t } of (await this.run.all(sql, p.values)) as Array<{ t: string }>) {
            if (!seen.has(t) && seen.size < MAX_CATEGORIES) {
              seen.add(t);
              next.push(t);
            }
          }
          level = next;
        }
        classes.set(
          cat,
          [...seen].map((c) => `${c}#14#`),
        );
      }
    }
    return { props, pages: resolvedPages, classes };
  }

  /**
   * The lower closure of each user property under _SUBP, one statement per level for all of them:
   * the property pages whose [[Subproperty of::…]] names a property of the level (smw_value_item).
   */
  private async subproperties(props: Map<string, PropInfo>): Promise<void> {
    const user = [...props.entries()].filter(([key, info]) => info.user && !hasNul(key));
    if (user.length === 0) return;
    const subp = ((await this.run.all("SELECT sp_id AS id FROM smw_property WHERE sp_key = '_SUBP'", [])) as Array<{ id: number }>)[0]?.id;
    if (subp === undefined) return;
    for (const [key, info] of user) {
      const seen = new Set([key]);
      let level = [key];
      for (let depth = 0; depth < SMW_QSUBPROPERTY_DEPTH && level.length > 0 && seen.size < MAX_SUBPROPERTIES; depth++) {
        const p = this.params();
        const list = this.dialect.listTable(
          p.list(
            level.map((k) => `${k}#102#`),
            'text',
          ),
          'text',
          'j',
        );
        const sql = `SELECT s.ss_title AS t, sp.sp_id AS id FROM ${list} JOIN smw_value v ON v.sv_property = ${p.add(subp, 'int')} AND v.sv_item = j.value
           JOIN smw_subject s ON s.ss_id = v.sv_subject JOIN smw_property sp ON sp.sp_key = s.ss_title
           WHERE s.ss_namespace = 102 AND s.ss_subobject = '' ORDER BY sp.sp_id LIMIT ${p.add(MAX_SUBPROPERTIES, 'int')}`;
        const next: string[] = [];
        for (const r of (await this.run.all(sql, p.values)) as Array<{ t: string; id: number }>) {
          if (seen.has(r.t) || seen.size >= MAX_SUBPROPERTIES) continue;
          seen.add(r.t);
          next.push(r.t);
          info.ids.push(r.id);
        }
        level = next;
      }
    }
  }

  async ask(req: AskRequest): Promise<AskAnswer> {
    const dl = this.dialect;
    const sortKeys = req.sort.map(([k]) => k);
    const r = await this.resolve(req.description, sortKeys);
    const top = req.description.k === 'and' ? [...req.description.items] : req.description.k === 'thing' ? [] : [req.description];
    // sorting by a property: SMW adds [[P::+]] to the query (pages without a value drop out)
    for (const [key] of req.sort) {
      if (key === '') continue;
      const type = req.sortTypes[key] ?? '_wpg';
      top.push({ k: 'some', prop: { key, inverse: false, type }, desc: { k: 'thing' } });
    }
    // ORDER BY, with its parameters in the statement's collector (they follow the WHERE clause's)
    const orderBy = (p: Params): string => {
      const sortExprs: string[] = [];
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
          expr = `(SELECT ${agg}(o.ss_sortkey) FROM smw_value v JOIN smw_subject o ON o.ss_namespace = v.sv_ns AND o.ss_title = v.sv_key AND o.ss_subobject = '' WHERE v.sv_subject = s.ss_id AND ${propIs(p, 'v.sv_property', info)})`;
        } else {
          // user properties keep texts in sv_key; URIs, codes and the like of every property in sv_item
          const col = ['_num', '_qty', '_tem', '_dat', '_boo'].includes(type)
            ? 'v.sv_num'
            : info.user && BLOB_TYPES.has(type)
              ? 'v.sv_key'
              : 'v.sv_item';
          expr = `(SELECT ${agg}(${col}) FROM smw_value v WHERE v.sv_subject = s.ss_id AND ${propIs(p, 'v.sv_property', info)})`;
        }
        // a value page SMW has no subject for has no sort key: NULL, sorted as SQLite sorts it
        sortExprs.push(dl.orderTerm(expr, order));
      }
      return [...sortExprs, ...tie].join(', ');
    };
    const pageOrder = req.sort.length > 0 && req.sort[0][0] === '' && req.sort[0][1] !== 'RANDOM' ? req.sort[0][1] : 'ASC';
    const tie = ['s.ss_namespace', 's.ss_title', 's.ss_subobject'].map((x) => `${x} ${pageOrder}`);
    if (!req.sort.some(([k]) => k === '')) tie.unshift(`s.ss_sortkey ${pageOrder}`);

    // choose the driving condition: the smallest set, counted up to PROBE_CAP -- likely small ones first,
    // each later one only up to the best count so far
    let driver = -1;
    let best = Infinity;
    const candidates = top.map((d, i) => ({ d, i })).filter((x) => x.d.k !== 'thing');
    candidates.sort((a, b) => rank(a.d) - rank(b.d));
    for (const { d, i } of candidates) {
      const cap = Math.min(this.probeCap, best);
      const p = this.params();
      const pc = new Compiler(r, p);
      const set = pc.set(d);
      const sql = `SELECT count(*) AS n FROM (${set} LIMIT ${p.add(cap + 1, 'int')}) probe`;
      const n = ((await this.run.all(sql, p.values, true)) as Array<{ n: number }>)[0].n;
      if (n < best) {
        best = n;
        driver = i;
      }
      if (n === 0) break;
    }
    type Row = { id: number; ns: number; title: string; subobject: string; ex: number | boolean };
    const walkOrder = (prefix: string) =>
      ['ss_sortkey', 'ss_namespace', 'ss_title', 'ss_subobject'].map((x) => `${prefix}${x} ${pageOrder}`).join(', ');
    const run = async (walk: boolean): Promise<Row[]> => {
      const p = this.params();
      const c = new Compiler(r, p);
      // walking: the first WALK_BUDGET subjects in smw_subject_sort's order, checked until the page is full;
      // on SQLite the rows come in the co-routine's order (an outer ORDER BY would make SQLite sort the
      // whole budget instead of stopping at the page's end; the walk-vs-probe test checks the order)
      const from = walk ? dl.walkSource(walkOrder(''), p.add(WALK_BUDGET + req.offset, 'int')) : 'smw_subject s';
      const where: string[] = [];
      if (!walk && driver >= 0) where.push(`s.ss_id IN (${c.set(top[driver])})`);
      for (let i = 0; i < top.length; i++) if (walk || i !== driver) where.push(c.check(top[i], 's.ss_id', 's'));
      const order = walk ? (dl.walkOuterOrder ? `ORDER BY ${walkOrder('s.')}` : '') : `ORDER BY ${orderBy(p)}`;
      const sql = `SELECT s.ss_id AS id, s.ss_namespace AS ns, s.ss_title AS title, s.ss_subobject AS subobject,
          EXISTS (SELECT 1 FROM page WHERE page_namespace = s.ss_namespace AND page_title = s.ss_title) AS ex
        FROM ${from} ${where.length ? 'WHERE ' + where.join(' AND ') : ''}
        ${order} LIMIT ${p.add(req.limit + 1, 'int')} OFFSET ${p.add(req.offset, 'int')}`;
      return (await this.run.all(sql, p.values, true)) as Row[];
    };
    // every condition large and the order the page's: walk the sort-key order; when the walk's budget does
    // not fill the page (rare matches, or fewer than asked), the smallest set drives after all
    const walkable = driver < 0 || (best > this.probeCap && req.sort.every(([k, o]) => k === '' && o !== 'RANDOM'));
    let rows = walkable ? await run(true) : [];
    if (!walkable || (rows.length <= req.limit && driver >= 0)) rows = await run(false);
    const further = rows.length > req.limit;
    // EXISTS is an integer 0/1 on SQLite, a boolean on PostgreSQL
    const subjects: AskSubject[] = rows
      .slice(0, req.limit)
      .map((x) => ({ id: x.id, ns: x.ns, dbkey: x.title, subobject: x.subobject, exists: x.ex === 1 || x.ex === true }));
    return { subjects, further };
  }

  async printouts(subjects: number[], specs: AskPrintoutSpec[]): Promise<AskPrintValue[][][]> {
    const dl = this.dialect;
    const index = new Map(subjects.map((id, i) => [id, i]));
    const out: AskPrintValue[][][] = specs.map(() => subjects.map(() => []));
    const pagesToCheck: AskPrintValue[] = [];
    const keys = [...new Set(specs.map((spec) => (spec.kind === 'cats' ? '_INST' : spec.key)))].filter((k) => !hasNul(k));
    const pids = new Map<string, number>();
    {
      const p = this.params();
      const sql = `SELECT sp_id AS id, sp_key AS key FROM ${dl.listTable(p.list(keys, 'text'), 'text', 'j')} JOIN smw_property ON sp_key = j.value`;
      for (const row of (await this.run.all(sql, p.values)) as Array<{ id: number; key: string }>) pids.set(row.key, row.id);
    }
    for (let si = 0; si < specs.length; si++) {
      const spec = specs[si];
      const key = spec.kind === 'cats' ? '_INST' : spec.key;
      const pid = pids.get(key);
      if (pid === undefined) continue;
      const p = this.params();
      if (spec.kind === 'prop' && spec.inverse) {
        if (key.startsWith('_')) continue;
        const list = dl.listTable(p.list(subjects, 'int'), 'int', 'j');
        const rows = (await this.run.all(
          `SELECT j.value AS subject, o.ss_namespace AS ns, o.ss_title AS title, o.ss_subobject AS so
           FROM ${list} JOIN smw_subject x ON x.ss_id = j.value
           JOIN smw_value v ON v.sv_property = ${p.add(pid, 'int')} AND v.sv_key = x.ss_title AND v.sv_ns = x.ss_namespace
           JOIN smw_subject o ON o.ss_id = v.sv_subject
           WHERE x.ss_subobject = '' ORDER BY j.key, o.ss_sortkey, o.ss_title`,
          p.values,
        )) as Array<{ subject: number; ns: number; title: string; so: string }>;
        for (const row of rows) {
          const v: AskPrintValue = {
            di: DI.WIKIPAGE,
            item: `${row.title}#${row.ns}#${row.so ? '#' + row.so : ''}`,
            ns: row.ns,
            dbkey: row.title,
            subobject: row.so,
          };
          out[si][index.get(row.subject)!].push(v);
          pagesToCheck.push(v);
        }
        continue;
      }
      const list = dl.listTable(p.list(subjects, 'int'), 'int', 'j');
      const rows = (await this.run.all(
        `SELECT v.sv_subject AS subject, v.sv_type AS di, ${semanticItem(dl, 'v.')} AS item
         FROM ${list} JOIN smw_value v ON v.sv_subject = j.value AND v.sv_property = ${p.add(pid, 'int')} ORDER BY j.key, v.sv_seq`,
        p.values,
      )) as Array<{ subject: number; di: number; item: string }>;
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
    }
    if (pagesToCheck.length > 0) {
      const wanted = new Map<string, [number, string]>();
      for (const v of pagesToCheck) wanted.set(`${v.ns}|${v.dbkey}`, [v.ns!, v.dbkey!]);
      const titles = [...wanted.values()];
      const p = this.params();
      const cols: Array<[string, ParamType]> = [
        ['ns', 'int'],
        ['dbkey', 'text'],
      ];
      const list = dl.rowsTable(p.rows(titles, cols), cols, 'j');
      const existing = new Set<string>();
      for (const { i } of (await this.run.all(
        `SELECT j.key AS i FROM ${list} JOIN page ON page_namespace = j.ns AND page_title = j.dbkey`,
        p.values,
      )) as Array<{ i: number }>) {
        const [ns, dbkey] = titles[i - dl.keyBase];
        existing.add(`${ns}|${dbkey}`);
      }
      for (const v of pagesToCheck) v.exists = existing.has(`${v.ns}|${v.dbkey}`);
    }
    return out;
  }
}
