/**
 * SemanticStore over the semantic tables (sqlite/semantic-schema.ts; PostgreSQL's are copies), for both stores: the statements
 * are written once and differ only through the SemanticDialect (placeholders, lists bound as one
 * parameter). Every method is index seeks plus bounded range scans, one statement per batch:
 *  - subjectData: a seek in smw_subject_name per subject (with its subobjects: the page's range there),
 *    a range of smw_value's primary key each;
 *  - autocompletion, one statement: a seek in smw_property (the property source), one in smw_ac_node_key
 *    that reads a heavy prefix's whole answer (one JSON list), or else ≤ HEAVY_ROWS (LONG_QUERY_SCAN for a
 *    query longer than the keys) rows of smw_ac_word and a seek into smw_ac_value per value (see
 *    sqlite/semantic-schema.ts);
 *  - the dependent (baseprop) form: a range of smw_value_key, then a primary-key range per subject;
 *  - the category source: the members of the category tree, one statement per level, through
 *    categorylinks' (cl_to, cl_sortkey, cl_from) index.
 * A database imported without the semantic hook has none of these tables: everything is empty then.
 */
import type {
  AnswerForm,
  AskAnswer,
  AskPrintoutSpec,
  AskPrintValue,
  AskRequest,
  PrintedAnswer,
  SemanticPropertyValues,
  SemanticStatistics,
  SemanticStore,
  SemanticSubjectData,
  SubjectKey,
} from './semantic-store.js';
import { Params, hasNul, semanticItem, type ParamType, type SemanticDialect, type SemanticQueryEngine } from './semantic-query.js';
import { KEY_CHARS, cutChars, matchesFolded } from '../semantic/fold.js';
import { BLOB_TYPES } from '../semantic/types.js';
import { compareBytes } from '../wiki/collation.js';
import { prefixEnd } from './sql/prefix-range.js';
import { transcode } from 'node:buffer';
import { COMPLETION_LIST_VALUES, completionAnswerValues } from '../semantic/completion-answer.js';

/** Word rows read for a query longer than the stored keys under a precomputed prefix (then checked). */
const LONG_QUERY_SCAN = 10000;
/** Subjects read for the baseprop/basevalue form. */
const DEPENDENT_SUBJECTS = 50000;
/** Category members read for the category source. */
const CATEGORY_SCAN = 200000;
/** The namespace source of autocompletion, stored next to the properties (ids > 0): see sqlite/semantic-schema.ts. */
const namespaceSource = (ns: number) => -1 - ns;
/** Property types whose values autocompletion indexes (Page and text-like ones). */
const AC_TYPES = ['_wpg', ...BLOB_TYPES];

/** A statement runner of one store: `name` is what debuginfo shows as the calling function. */
export interface SemanticSql {
  all(name: string, sql: string, params: unknown[]): Promise<any[]>;
  /** does the database have the semantic tables (checked once) */
  hasTables(): Promise<boolean>;
  /**
   * The pages and subcategories in these categories, category by category, each in (cl_sortkey,
   * cl_from) order, at most `limit` in all (where the stores' SQL differs most: SQLite has no LATERAL).
   */
  members(categories: string[], limit: number): Promise<Array<{ ns: number; dbkey: string }>>;
  /**
   * A statement whose text never changes, prepared once (a store that keeps statements; without this,
   * `all` runs the text each time): the runner takes the parameters in text order; `pluck`: each row's
   * first column instead of the row; 'raw': each row as an array of its columns in SELECT order.
   */
  prepare?(name: string, sql: string, pluck: boolean | 'raw'): (params: unknown[]) => unknown[] | Promise<unknown[]>;
}

type Runner<R> = (params: unknown[]) => R[] | Promise<R[]>;

/** what an autocompletion looks up: the folded query, the prefix of the stored keys it seeks, the answer's size and form */
interface LookupKey {
  folded: string;
  /** the query cut to the stored keys' length */
  q: string;
  /** the query is the prefix (else the stored keys are shorter than the query: each value is checked) */
  exact: boolean;
  limit: number;
  printed: AnswerForm | undefined;
}

/** an autocompletion's lookup, or null when nothing can match: an empty query, or one with U+0000 (no stored key holds it) */
function lookupKey(folded: string, limit: number, printed: AnswerForm | undefined): LookupKey | null {
  if (folded === '') return null;
  const q = cutChars(folded, KEY_CHARS);
  return hasNul(q) ? null : { folded, q, exact: q === folded, limit, printed };
}

/** The statements of the chain of seeks (lookupSteps) and of the property seek: fixed texts. */
interface FixedStatements {
  property: Runner<{ id: number; type: string }>;
  /** the heavy node's answer in UTF-8 (an_values), and printed with every non-ASCII character escaped (an_json) */
  node: Runner<{ key: string; list: Uint8Array | null }>;
  nodeAscii: Runner<{ key: string; list: string | null }>;
  words: Runner<number>;
  heavyWords: Runner<number>;
  values: Runner<string>;
  /** lookupSteps' light exact path: the values as one JSON array in UTF-8 bytes, and their ids comma-separated */
  lightValues: Runner<{ ids: string | null; v: Uint8Array | null }>;
  /** subjectData of one subject (browsebysubject), without and with its subobjects */
  subject: Runner<SubjectRow>;
  subjectWithSubs: Runner<SubjectRow>;
  statistics: Runner<{ k: string; n: number | string }>;
}

/** the names of SemanticStatistics.counts (sqlite/semantic-statistics.ts counts them into smw_statistics) */
const STATISTIC_NAMES = ['PROPUSES', 'ERRORUSES', 'USEDPROPS', 'DECLPROPS', 'OWNPAGE', 'QUERY', 'QUERYSIZE', 'CONCEPTS', 'SUBOBJECTS'];
/** smw_statistics keeps a result format's count under this prefix and the format's name */
export const QUERY_FORMAT_PREFIX = 'QUERYFORMATS:';

type SubjectRow = { i: number; so: string; sortkey: string; property: string | null; type: number; item: string };

/** the first heavy node at or after a key, and its list (`column`) only when it lies before the prefix's end */
function nodeSql(p: Params, column: 'an_values' | 'an_json'): string {
  return `SELECT an_key AS key, CASE WHEN an_key < ${p.add('', 'text')} THEN ${column} END AS list FROM smw_ac_node WHERE an_source = ${p.add(0, 'int')} AND an_key >= ${p.add('', 'text')} ORDER BY an_key LIMIT 1`;
}

/** subjectData's statement: `from` yields the subjects (j.key, j.ns, j.dbkey, j.sub), or none for one subject bound directly */
function subjectSql(d: SemanticDialect, withSubs: boolean, one: { ns: string; dbkey: string; sub: string } | null, from: string): string {
  const [ns, dbkey, sub] = one ? [one.ns, one.dbkey, one.sub] : ['j.ns', 'j.dbkey', 'j.sub'];
  return `SELECT ${one ? String(d.keyBase) : 'j.key'} AS i, s.ss_subobject AS so, s.ss_sortkey AS sortkey, sp.sp_key AS property, v.sv_type AS type, ${semanticItem(d, 'v.')} AS item
        FROM ${one ? 'smw_subject s' : `${from} JOIN smw_subject s ON s.ss_namespace = ${ns} AND s.ss_title = ${dbkey} AND ${withSubs ? `(s.ss_subobject = ${sub} OR s.ss_subobject <> '')` : `s.ss_subobject = ${sub}`}`}
        LEFT JOIN smw_value v ON v.sv_subject = s.ss_id
        LEFT JOIN smw_property sp ON sp.sp_id = v.sv_property${
          one
            ? `
        WHERE s.ss_namespace = ${ns} AND s.ss_title = ${dbkey} AND ${withSubs ? `(s.ss_subobject = ${sub} OR s.ss_subobject <> '')` : `s.ss_subobject = ${sub}`}`
            : ''
        }
        ORDER BY ${one ? '' : 'j.key, '}${withSubs ? 's.ss_id, ' : ''}v.sv_property, v.sv_seq`;
}

export class SqlSemanticStore implements SemanticStore {
  private present: Promise<boolean> | undefined;

  /** @param engine the query engine on the same database (each store decides how its statements are kept) */
  constructor(
    private readonly dialect: SemanticDialect,
    private readonly sql: SemanticSql,
    private readonly engine: SemanticQueryEngine,
  ) {}

  private fixedStatements: FixedStatements | undefined;

  /**
   * The fixed statements, their texts built once through the dialect (with stand-in values: only the
   * placeholders matter) and prepared once where the store can.
   */
  private get fixed(): FixedStatements {
    if (this.fixedStatements) return this.fixedStatements;
    const d = this.dialect;
    const make = <R>(name: string, pluck: boolean, build: (p: Params) => string): Runner<R> => {
      const text = build(new Params(d));
      const label = `SemanticStore.${name}`;
      if (this.sql.prepare) return this.sql.prepare(label, text, pluck) as Runner<R>;
      return pluck
        ? async (values) => (await this.sql.all(label, text, values)).map((r) => Object.values(r)[0] as R)
        : (values) => this.sql.all(label, text, values);
    };
    // rows as arrays where the store can (an object per row cost better-sqlite3 about twice as much)
    const subjectRunner = (build: (p: Params) => string): Runner<SubjectRow> => {
      if (!this.sql.prepare) return make('subjectData', false, build);
      const run = this.sql.prepare('SemanticStore.subjectData', build(new Params(d)), 'raw');
      return async (values) =>
        ((await run(values)) as unknown[][]).map(
          (a) => ({ i: a[0], so: a[1], sortkey: a[2], property: a[3], type: a[4], item: a[5] }) as SubjectRow,
        );
    };
    return (this.fixedStatements = {
      property: make(
        'autocomplete',
        false,
        (p) => `SELECT sp_id AS id, sp_type AS type FROM smw_property WHERE sp_key = ${p.add('', 'text')}`,
      ),
      // the list only of a node that lies in the prefix's range (the answer), not of the next one
      node: make('autocomplete', false, (p) => nodeSql(p, 'an_values')),
      nodeAscii: make('autocomplete', false, (p) => nodeSql(p, 'an_json')),
      words: make(
        'autocomplete',
        true,
        (p) =>
          `SELECT aw_value AS v FROM smw_ac_word WHERE aw_source = ${p.add(0, 'int')} AND aw_key >= ${p.add('', 'text')} AND aw_key < ${p.add('', 'text')}`,
      ),
      heavyWords: make(
        'autocomplete',
        true,
        (p) =>
          `SELECT aw_value AS v FROM smw_ac_word WHERE aw_source = ${p.add(0, 'int')} AND aw_key >= ${p.add('', 'text')} AND aw_key < ${p.add('', 'text')} ORDER BY aw_key, aw_value LIMIT ${p.add(0, 'int')}`,
      ),
      values: make(
        'autocomplete',
        true,
        (p) =>
          `SELECT av_value AS v FROM ${d.listTable(p.list([], 'int'), 'int', 'j')} CROSS JOIN smw_ac_value WHERE av_id = j.value ORDER BY j.key`,
      ),
      // SQLite only (lookupSteps): the prefix's values as one JSON array (bytes), with their ids: a row
      // per value cost the reader an object and a UTF-8 decoding each, three quarters of the light path.
      // The IN list is distinct and walked in id order, which an aggregate does not promise: the ids say
      // whether it was (an ORDER BY costs a sorter)
      lightValues: make(
        'autocomplete',
        false,
        (p) =>
          `SELECT group_concat(av_id) AS ids, CAST(json_group_array(av_value) AS BLOB) AS v FROM smw_ac_value WHERE av_id IN (SELECT aw_value FROM smw_ac_word WHERE aw_source = ${p.add(0, 'int')} AND aw_key >= ${p.add('', 'text')} AND aw_key < ${p.add('', 'text')})`,
      ),
      // the same text as subjectData's batch, with the one subject's key bound as three parameters
      subject: subjectRunner((p) => subjectSql(d, false, { ns: p.add(0, 'int'), dbkey: p.add('', 'text'), sub: p.add('', 'text') }, '')),
      subjectWithSubs: subjectRunner((p) =>
        subjectSql(d, true, { ns: p.add(0, 'int'), dbkey: p.add('', 'text'), sub: p.add('', 'text') }, ''),
      ),
      // a few rows: the statistics and one per result format in use
      statistics: make('statistics', false, () => 'SELECT st_key AS k, st_count AS n FROM smw_statistics'),
    });
  }

  async statistics(): Promise<SemanticStatistics> {
    const counts: Record<string, number> = {};
    for (const name of STATISTIC_NAMES) counts[name] = 0;
    const formats: Array<[string, number]> = [];
    // a wiki imported without semantic data has none to count
    if (!(await this.has())) return { counts, formats };
    for (const row of await this.fixed.statistics([])) {
      const n = Number(row.n);
      if (row.k.startsWith(QUERY_FORMAT_PREFIX)) formats.push([row.k.slice(QUERY_FORMAT_PREFIX.length), n]);
      else counts[row.k] = n;
    }
    // SMW orders by count (descending) alone; equal counts in byte order, so the answer does not vary
    formats.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    return { counts, formats };
  }

  private has(): Promise<boolean> {
    return (this.present ??= this.sql.hasTables());
  }

  /** Rows of a statement built with a parameter collector. */
  private async q<R = any>(name: string, build: (p: Params, d: SemanticDialect) => string): Promise<R[]> {
    const p = new Params(this.dialect);
    const text = build(p, this.dialect);
    return (await this.sql.all(`SemanticStore.${name}`, text, p.values)) as R[];
  }

  async propertyTypes(keys: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (keys.length === 0 || !(await this.has())) return out;
    const rows = await this.q<{ key: string; type: string }>(
      'propertyTypes',
      (p, d) =>
        `SELECT sp_key AS key, sp_type AS type FROM ${d.listTable(
          p.list(
            keys.filter((k) => !hasNul(k)),
            'text',
          ),
          'text',
          'j',
        )} JOIN smw_property ON sp_key = j.value`,
    );
    for (const r of rows) out.set(r.key, r.type);
    return out;
  }

  async askQuery(req: AskRequest): Promise<AskAnswer> {
    if (!(await this.has())) return { subjects: [], further: false };
    return this.engine.ask(req);
  }

  async askPrintouts(subjects: readonly number[], printouts: readonly AskPrintoutSpec[]): Promise<AskPrintValue[][][]> {
    if (subjects.length === 0 || !(await this.has())) return printouts.map(() => subjects.map(() => []));
    return this.engine.printouts([...subjects], [...printouts]);
  }

  async subjectData(
    subjects: readonly SubjectKey[],
    options: { subobjects?: boolean } = {},
  ): Promise<Array<SemanticSubjectData | undefined>> {
    const out: Array<SemanticSubjectData | undefined> = subjects.map(() => undefined);
    if (subjects.length === 0 || !(await this.has())) return out;
    const withSubs = options.subobjects === true;
    const cols: Array<[string, ParamType]> = [
      ['ns', 'int'],
      ['dbkey', 'text'],
      ['sub', 'text'],
    ];
    // one row per subject without values (the LEFT JOIN's NULLs), else one per value in storage order
    // (no subject has U+0000 in its name: hasNul). The page's subobjects lie next to the subject in
    // smw_subject_name (same namespace and title): the same range, grouped by subject id.
    const known = subjects.map((k, i) => ({ k, i })).filter(({ k }) => !hasNul(k.dbkey) && !hasNul(k.subobject));
    // one subject (browsebysubject): a statement prepared once, its key bound directly
    const one = known.length === 1 ? known[0]!.k : undefined;
    const rows: SubjectRow[] = one
      ? await (withSubs ? this.fixed.subjectWithSubs : this.fixed.subject)([one.ns, one.dbkey, one.subobject])
      : await this.q<SubjectRow>('subjectData', (p, d) =>
          subjectSql(
            d,
            withSubs,
            null,
            d.rowsTable(
              p.rows(
                known.map(({ k }) => [k.ns, k.dbkey, k.subobject]),
                cols,
              ),
              cols,
              'j',
            ),
          ),
        );
    const subs: Array<Map<string, SemanticSubjectData> | undefined> = [];
    let data: SemanticSubjectData | undefined;
    let lastI = -1;
    let lastSo = '';
    for (const r of rows) {
      if (r.i !== lastI || r.so !== lastSo) {
        const { k, i } = known[r.i - this.dialect.keyBase];
        data = { sortkey: r.sortkey, properties: [] };
        if (r.so === k.subobject) out[i] = data;
        else (subs[i] ??= new Map()).set(r.so, data);
        lastI = r.i;
        lastSo = r.so;
      }
      if (r.property === null) continue;
      const props: SemanticPropertyValues[] = data!.properties;
      let last = props[props.length - 1];
      if (!last || last.property !== r.property) props.push((last = { property: r.property, values: [] }));
      last.values.push({ type: r.type, item: r.item });
    }
    if (withSubs) for (const [i, d] of out.entries()) if (d) d.subobjects = subs[i] ?? new Map();
    return out;
  }

  private async property(key: string): Promise<{ id: number; type: string } | undefined> {
    if (hasNul(key)) return undefined;
    return (await this.fixed.property([key]))[0];
  }

  autocompleteProperty(property: string, foldedSubstr: string, limit: number): Promise<string[]>;
  autocompleteProperty(
    property: string,
    foldedSubstr: string,
    limit: number,
    printed: AnswerForm | undefined,
  ): Promise<string[] | PrintedAnswer>;
  async autocompleteProperty(
    property: string,
    foldedSubstr: string,
    limit: number,
    printed?: AnswerForm,
  ): Promise<string[] | PrintedAnswer> {
    if (!(await this.has()) || property.startsWith('_') || hasNul(property)) return [];
    const key = lookupKey(foldedSubstr, limit, printed);
    if (key === null) return [];
    // only Page and text-like properties have values in the index
    if (this.dialect.inProcess) {
      const p = await this.property(property);
      return p && (p.type === '_wpg' || BLOB_TYPES.has(p.type)) ? this.lookupSteps(p.id, key) : [];
    }
    return this.lookup(
      (p, d) =>
        `SELECT sp_id AS id FROM smw_property WHERE sp_key = ${p.add(property, 'text')} AND ${d.inTextList('sp_type', p.list(AC_TYPES, 'text'))}`,
      key,
    );
  }

  autocompleteNamespace(ns: number, foldedSubstr: string, limit: number): Promise<string[]>;
  autocompleteNamespace(
    ns: number,
    foldedSubstr: string,
    limit: number,
    printed: AnswerForm | undefined,
  ): Promise<string[] | PrintedAnswer>;
  async autocompleteNamespace(ns: number, foldedSubstr: string, limit: number, printed?: AnswerForm): Promise<string[] | PrintedAnswer> {
    if (!(await this.has())) return [];
    const key = lookupKey(foldedSubstr, limit, printed);
    if (key === null) return [];
    if (this.dialect.inProcess) return this.lookupSteps(namespaceSource(ns), key);
    return this.lookup((p) => `SELECT ${p.add(namespaceSource(ns), 'int')} AS id`, key);
  }

  /**
   * The word-prefix index lookup (see sqlite/semantic-schema.ts), in one statement: `source` (a
   * statement of the source id, no row when there is none) and the heavy-node seek are CTEs that decide,
   * through the source id each branch seeks with (NULL: an empty seek), which of the bounded reads runs:
   * the node's list (the answer), the first LONG_QUERY_SCAN word rows under a heavy node (a query longer
   * than the stored keys, checked here on the values), or the ≤ heavy-rows word rows of a prefix without one.
   */
  private async lookup(source: (p: Params, d: SemanticDialect) => string, key: LookupKey): Promise<string[] | PrintedAnswer> {
    const { q, exact, folded, limit, printed } = key;
    const rows = await this.q<{ list: Uint8Array | string | null; v: string }>('autocomplete', (p, d) => {
      const words = (when: string) =>
        `SELECT aw_value AS v FROM smw_ac_word WHERE aw_source = (SELECT id FROM src WHERE ${when} EXISTS (SELECT 1 FROM heavy)) AND aw_key >= ${p.add(q, 'text')} AND aw_key < ${p.add(prefixEnd(q), 'text')}`;
      const head = `WITH src AS (${source(p, d)}),
        node AS (SELECT an_key AS k, ${printed === 'ascii' ? 'an_json' : 'an_values'} AS list FROM smw_ac_node WHERE an_source = (SELECT id FROM src) AND an_key >= ${p.add(q, 'text')} ORDER BY an_key LIMIT 1),
        heavy AS (SELECT list FROM node WHERE k < ${p.add(prefixEnd(q), 'text')})`;
      // a value seek per id, as a correlated subquery so that no plan (PostgreSQL's generic ones guess
      // ranges' sizes) turns it into a scan of smw_ac_value
      const seek = (ids: string) =>
        `SELECT NULL AS list, (SELECT av_value FROM smw_ac_value WHERE av_id = i.v) AS v, i.v AS i FROM ${ids} i`;
      if (exact)
        return `${head} SELECT list, NULL AS v, NULL AS i FROM heavy UNION ALL ${seek(`(SELECT DISTINCT v FROM (${words('NOT')}) w ORDER BY v LIMIT ${p.add(limit, 'int')})`)} ORDER BY i`;
      return `${head}, ids AS (SELECT v FROM (${words('')} ORDER BY aw_key, aw_value LIMIT ${p.add(LONG_QUERY_SCAN, 'int')}) l UNION ${words('NOT')})
        ${seek('ids')} ORDER BY i`;
    });
    if (rows.length > 0 && rows[0]!.list !== null) return nodeAnswer(rows[0]!.list, limit, printed);
    const values = rows.map((r) => r.v);
    return exact ? values : values.filter((v) => matchesFolded(v, folded)).slice(0, limit);
  }

  /**
   * lookup() as a chain of seeks, for a store whose statements cost no round trip (SQLite runs the one
   * composite statement three times slower than these): the word-prefix node of a source (a property
   * id or a namespace's) with its list when it lies in the prefix's range, else the words' values.
   */
  private async lookupSteps(source: number, key: LookupKey): Promise<string[] | PrintedAnswer> {
    const { q, exact, folded, limit, printed } = key;
    const st = this.fixed;
    const end = prefixEnd(q);
    const [node] = await (printed === 'ascii' ? st.nodeAscii : st.node)([end, source, q]);
    const heavy = node !== undefined && node.list !== null;
    if (heavy && exact) return nodeAnswer(node.list!, limit, printed);
    // no heavy node in the prefix's range: it has at most HEAVY_ROWS word rows
    if (exact) {
      const [row] = await st.lightValues([source, q, end]);
      if (row === undefined || row.v === null || row.ids === null) return [];
      if (ascending(row.ids)) return arrayValues(row.v, limit);
    }
    const words = heavy ? await st.heavyWords([source, q, end, LONG_QUERY_SCAN]) : await st.words([source, q, end]);
    const ids = distinctSorted(words);
    const chosen = exact ? ids.slice(0, limit) : ids;
    if (chosen.length === 0) return [];
    const values = await st.values(this.dialect.bindList(chosen, 'int'));
    return exact ? values : values.filter((v) => matchesFolded(v, folded)).slice(0, limit);
  }

  async autocompleteDependent(property: string, baseProperty: string, baseValue: string, limit: number): Promise<string[]> {
    if (!(await this.has())) return [];
    const p = await this.property(property);
    const b = await this.property(baseProperty);
    if (!p || !b || !(p.type === '_wpg' || BLOB_TYPES.has(p.type))) return [];
    const key = b.type === '_wpg' ? baseValue.replace(/ /g, '_') : baseValue;
    if (hasNul(key)) return [];
    // the first DEPENDENT_SUBJECTS subjects (in id order, smw_value_key's) with the base value, then a
    // primary-key range per subject: the NULLs are dropped here, as `sv_key IS NOT NULL` would let SQLite
    // read every value of the property through the partial index smw_value_key for each subject
    const rows = await this.q<{ v: string | null }>(
      'autocompleteDependent',
      (q) =>
        `SELECT DISTINCT v.sv_key AS v FROM (SELECT sv_subject FROM smw_value WHERE sv_property = ${q.add(b.id, 'int')} AND sv_key = ${q.add(key, 'text')} ORDER BY sv_subject LIMIT ${q.add(DEPENDENT_SUBJECTS, 'int')}) b
         CROSS JOIN smw_value v WHERE v.sv_subject = b.sv_subject AND v.sv_property = ${q.add(p.id, 'int')}`,
    );
    return rows
      .map((r) => r.v)
      .filter((v): v is string => v !== null)
      .sort(compareBytes)
      .slice(0, limit);
  }

  async autocompleteCategory(category: string, levels: number, foldedSubstr: string): Promise<Array<{ ns: number; dbkey: string }>> {
    const top = category.replace(/ /g, '_');
    const seenCats = new Set([top]);
    const seenPages = new Set<string>();
    const pages: Array<{ ns: number; dbkey: string }> = [];
    let check = [top];
    let budget = CATEGORY_SCAN;
    for (let level = levels; level > 0 && budget > 0; level--) {
      const rows = await this.sql.members(
        check.filter((c) => !hasNul(c)),
        budget,
      );
      budget -= rows.length;
      const next: string[] = [];
      for (const r of rows) {
        if (r.ns === 14) {
          if (!seenCats.has(r.dbkey)) {
            seenCats.add(r.dbkey);
            next.push(r.dbkey);
          }
        } else if (foldedSubstr === '' || matchesFolded(r.dbkey, foldedSubstr)) {
          const k = `${r.ns}|${r.dbkey}`;
          if (!seenPages.has(k)) {
            seenPages.add(k);
            pages.push(r);
          }
        }
      }
      if (next.length === 0) break;
      check = next;
    }
    return pages;
  }
}

/**
 * A heavy prefix's answer, cut to `limit`: its printed list (an_values' UTF-8 or an_json, as `printed`
 * says) as it is when no cut is needed (it holds the first COMPLETION_LIST_VALUES values), else its values.
 */
function nodeAnswer(list: Uint8Array | string, limit: number, printed: AnswerForm | undefined): string[] | PrintedAnswer {
  if (printed !== undefined && limit >= COMPLETION_LIST_VALUES) return { form: printed, json: list };
  const values = completionAnswerValues(list);
  return values.length > limit ? values.slice(0, limit) : values;
}

/**
 * lightValues' JSON array, decoded through UTF-16 (ICU's transcoding is 6× faster than V8's UTF-8
 * decoder on Cyrillic); JSON.parse makes flat strings, which the JSON writer reads faster than a split's.
 */
function arrayValues(bytes: Uint8Array, limit: number): string[] {
  const values = JSON.parse(transcode(bytes, 'utf8', 'utf16le').toString('utf16le')) as string[];
  return values.length > limit ? values.slice(0, limit) : values;
}

/** Are these comma-separated decimal ids strictly ascending? */
function ascending(ids: string): boolean {
  let last = -1;
  let cur = 0;
  for (let i = 0; i < ids.length; i++) {
    const c = ids.charCodeAt(i);
    if (c !== 44) cur = cur * 10 + (c - 48);
    else if (cur <= last) return false;
    else {
      last = cur;
      cur = 0;
    }
  }
  return cur > last;
}

/** The distinct ids ascending (a typed array's numeric sort: 3× faster than a comparator's). */
function distinctSorted(ids: number[]): number[] {
  const sorted = Float64Array.from(ids).sort();
  const out: number[] = [];
  for (let i = 0; i < sorted.length; i++) if (i === 0 || sorted[i] !== sorted[i - 1]) out.push(sorted[i]!);
  return out;
}
