/**
 * SemanticStore over the semantic tables (sqlite/semantic-schema.ts; PostgreSQL's are copies), for both stores: the statements
 * are written once and differ only through the SemanticDialect (placeholders, lists bound as one
 * parameter). Every method is index seeks plus bounded range scans, one statement per batch:
 *  - subjectData: a seek in smw_subject_name per subject, a range of smw_value's primary key each;
 *  - autocompletion: one seek in smw_ac_node_key, then either ≤1000 rows of smw_ac_top or ≤ HEAVY_ROWS
 *    rows of smw_ac_word, and ≤1000 seeks into smw_ac_value (see sqlite/semantic-schema.ts);
 *  - the dependent (baseprop) form: a range of smw_value_key, then a primary-key range per subject;
 *  - the category source: the members of the category tree, one statement per level, through
 *    categorylinks' (cl_to, cl_sortkey, cl_from) index.
 * A database imported without the semantic hook has none of these tables: everything is empty then.
 */
import type { AskAnswer, AskPrintoutSpec, AskPrintValue, AskRequest, SemanticPropertyValues, SemanticStore, SemanticSubjectData, SubjectKey } from './semantic-store.js';
import { Params, hasNul, semanticItem, type ParamType, type SemanticDialect, type SemanticQueryEngine } from './semantic-query.js';
import { KEY_CHARS, cutChars, matchesFolded } from '../semantic/fold.js';
import { BLOB_TYPES } from '../semantic/types.js';
import { compareBytes } from '../wiki/collation.js';
import { prefixEnd } from './prefix-range.js';

/** Word rows read for a query longer than the stored keys under a precomputed prefix (then checked). */
const LONG_QUERY_SCAN = 10000;
/** Subjects read for the baseprop/basevalue form. */
const DEPENDENT_SUBJECTS = 50000;
/** Category members read for the category source. */
const CATEGORY_SCAN = 200000;
/** The namespace source of autocompletion, stored next to the properties (ids > 0): see sqlite/semantic-schema.ts. */
const namespaceSource = (ns: number) => -1 - ns;

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
}

export class SqlSemanticStore implements SemanticStore {
  private present: Promise<boolean> | undefined;

  /** @param engine the query engine on the same database (each store decides how its statements are kept) */
  constructor(
    private readonly dialect: SemanticDialect,
    private readonly sql: SemanticSql,
    private readonly engine: SemanticQueryEngine,
  ) {}

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
      (p, d) => `SELECT sp_key AS key, sp_type AS type FROM ${d.listTable(p.list(keys.filter((k) => !hasNul(k)), 'text'), 'text', 'j')} JOIN smw_property ON sp_key = j.value`,
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

  async subjectData(subjects: readonly SubjectKey[]): Promise<Array<SemanticSubjectData | undefined>> {
    const out: Array<SemanticSubjectData | undefined> = subjects.map(() => undefined);
    if (subjects.length === 0 || !(await this.has())) return out;
    const cols: Array<[string, ParamType]> = [
      ['ns', 'int'],
      ['dbkey', 'text'],
      ['sub', 'text'],
    ];
    // one row per subject without values (the LEFT JOIN's NULLs), else one per value in storage order
    // (no subject has U+0000 in its name: hasNul)
    const known = subjects.map((k, i) => ({ k, i })).filter(({ k }) => !hasNul(k.dbkey) && !hasNul(k.subobject));
    const rows = await this.q<{ i: number; sortkey: string; property: string | null; type: number; item: string }>(
      'subjectData',
      (p, d) => `SELECT j.key AS i, s.ss_sortkey AS sortkey, sp.sp_key AS property, v.sv_type AS type, ${semanticItem(d, 'v.')} AS item
        FROM ${d.rowsTable(p.rows(known.map(({ k }) => [k.ns, k.dbkey, k.subobject]), cols), cols, 'j')}
        JOIN smw_subject s ON s.ss_namespace = j.ns AND s.ss_title = j.dbkey AND s.ss_subobject = j.sub
        LEFT JOIN smw_value v ON v.sv_subject = s.ss_id
        LEFT JOIN smw_property sp ON sp.sp_id = v.sv_property
        ORDER BY j.key, v.sv_property, v.sv_seq`,
    );
    for (const r of rows) {
      const at = known[r.i - this.dialect.keyBase].i;
      const data = (out[at] ??= { sortkey: r.sortkey, properties: [] });
      if (r.property === null) continue;
      const props: SemanticPropertyValues[] = data.properties;
      let last = props[props.length - 1];
      if (!last || last.property !== r.property) props.push((last = { property: r.property, values: [] }));
      last.values.push({ type: r.type, item: r.item });
    }
    return out;
  }

  private async property(key: string): Promise<{ id: number; type: string } | undefined> {
    if (hasNul(key)) return undefined;
    return (await this.q('autocomplete', (p) => `SELECT sp_id AS id, sp_type AS type FROM smw_property WHERE sp_key = ${p.add(key, 'text')}`))[0];
  }

  async autocompleteProperty(property: string, foldedSubstr: string, limit: number): Promise<string[]> {
    if (!(await this.has())) return [];
    const p = await this.property(property);
    if (!p || property.startsWith('_') || !(p.type === '_wpg' || BLOB_TYPES.has(p.type))) return [];
    return this.lookup(p.id, foldedSubstr, limit);
  }

  async autocompleteNamespace(ns: number, foldedSubstr: string, limit: number): Promise<string[]> {
    if (!(await this.has())) return [];
    return this.lookup(namespaceSource(ns), foldedSubstr, limit);
  }

  /** word rows (value ids) of `source` whose key starts with q, at most `limit` */
  private async words(source: number, q: string, limit: number): Promise<number[]> {
    const rows = await this.q<{ v: number }>(
      'autocomplete',
      (p) =>
        `SELECT aw_value AS v FROM smw_ac_word WHERE aw_source = ${p.add(source, 'int')} AND aw_key >= ${p.add(q, 'text')} AND aw_key < ${p.add(prefixEnd(q), 'text')} LIMIT ${p.add(limit, 'int')}`,
    );
    return rows.map((r) => r.v);
  }

  /** values of these ids, in id (= byte) order */
  private async valuesById(ids: number[]): Promise<string[]> {
    if (ids.length === 0) return [];
    const rows = await this.q<{ v: string }>(
      'autocomplete',
      (p, d) => `SELECT av_value AS v FROM ${d.listTable(p.list(ids, 'int'), 'int', 'j')} CROSS JOIN smw_ac_value WHERE av_id = j.value ORDER BY j.key`,
    );
    return rows.map((r) => r.v);
  }

  /** The word-prefix index lookup (see sqlite/semantic-schema.ts). */
  private async lookup(source: number, folded: string, limit: number): Promise<string[]> {
    if (folded === '') return [];
    const q = cutChars(folded, KEY_CHARS);
    const exact = q === folded; // else the stored keys are shorter than the query: check each value
    // no stored key holds U+0000: nothing lies in the range of a prefix with one (hasNul)
    if (hasNul(q)) return [];
    const [node] = await this.q<{ id: number; key: string }>(
      'autocomplete',
      (p) => `SELECT an_id AS id, an_key AS key FROM smw_ac_node WHERE an_source = ${p.add(source, 'int')} AND an_key >= ${p.add(q, 'text')} ORDER BY an_key LIMIT 1`,
    );
    if (node && node.key.startsWith(q)) {
      if (exact) {
        const rows = await this.q<{ v: string }>(
          'autocomplete',
          (p) => `SELECT av_value AS v FROM smw_ac_top JOIN smw_ac_value ON av_id = at_value WHERE at_node = ${p.add(node.id, 'int')} ORDER BY at_value LIMIT ${p.add(limit, 'int')}`,
        );
        return rows.map((r) => r.v);
      }
      return this.checked(await this.words(source, q, LONG_QUERY_SCAN), folded, limit);
    }
    const ids = await this.words(source, q, Number.MAX_SAFE_INTEGER);
    if (!exact) return this.checked(ids, folded, limit);
    return this.valuesById(sortedDistinct(ids).slice(0, limit));
  }

  private async checked(ids: number[], folded: string, limit: number): Promise<string[]> {
    const values = await this.valuesById(sortedDistinct(ids));
    const out: string[] = [];
    for (const v of values) {
      if (!matchesFolded(v, folded)) continue;
      out.push(v);
      if (out.length === limit) break;
    }
    return out;
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

function sortedDistinct(ids: number[]): number[] {
  ids.sort((a, b) => a - b);
  const out: number[] = [];
  for (const v of ids) if (out.length === 0 || out[out.length - 1] !== v) out.push(v);
  return out;
}
