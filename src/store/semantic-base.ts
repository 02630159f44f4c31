/**
 * SemanticStore on SQLite (tables: semantic-schema.ts). Every method is index seeks plus bounded range
 * scans:
 *  - subjectData: one seek in smw_subject_name, one range of smw_value's primary key;
 *  - autocompletion: one seek in smw_ac_node_key, then either ≤1000 rows of smw_ac_top or ≤ HEAVY_ROWS
 *    rows of smw_ac_word, and ≤1000 seeks into smw_ac_value (see semantic-schema.ts);
 *  - the dependent (baseprop) form: a range of smw_value_key, then a primary-key range per subject;
 *  - the category source: the members of the category tree, through categorylinks' cl_to index.
 * A database imported without the semantic hook has none of these tables: everything is empty then.
 */
import type { Db, Statement } from './db.js';
import type { AskAnswer, AskPrintoutSpec, AskPrintValue, AskRequest, SemanticPropertyValues, SemanticStore, SemanticSubjectData, SubjectKey } from '../semantic-store.js';
import { SemanticQueryEngine } from './semantic-query.js';
import { KEY_CHARS, cutChars, matchesFolded } from '../../semantic/fold.js';
import { BLOB_TYPES } from '../../semantic/types.js';
import { compareBytes } from '../../wiki/collation.js';
import { SEMANTIC_ITEM, namespaceSource } from './semantic-schema.js';

/** Upper bound of a prefix range in byte order (U+10FFFF sorts after every character a key holds). */
const PREFIX_END = '\u{10FFFF}';
/** Word rows read for a query longer than the stored keys under a precomputed prefix (then checked). */
const LONG_QUERY_SCAN = 10000;
/** Subjects read for the baseprop/basevalue form. */
const DEPENDENT_SUBJECTS = 50000;
/** Category members read for the category source. */
const CATEGORY_SCAN = 200000;

interface Statements {
  subject: Statement<[number, string, string], { id: number; sortkey: string }>;
  values: Statement<[number], { property: string; type: number; item: string }>;
  property: Statement<[string], { id: number; type: string }>;
  node: Statement<[number, string], { id: number; key: string }>;
  top: Statement<[number, number], string>;
  words: Statement<[number, string, string, number], number>;
  valuesById: Statement<[string], string>;
  subjectsWith: Statement<[number, string, number], number>;
  valuesOf: Statement<[number, number], string>;
}

export class SqliteSemanticStore implements SemanticStore {
  private st: Statements | null | undefined;
  private membersStmt: Statement<[string, number], { ns: number; dbkey: string }> | undefined;

  private engine: SemanticQueryEngine | undefined;
  private typesStmt: Statement<[string], { key: string; type: string }> | undefined;

  constructor(private readonly db: Db) {}

  async propertyTypes(keys: readonly string[]): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    if (!this.s || keys.length === 0) return out;
    this.typesStmt ??= this.db.prepare('SemanticStore.propertyTypes', 'SELECT sp_key AS key, sp_type AS type FROM json_each(?) j JOIN smw_property ON sp_key = j.value');
    const rows = this.typesStmt.all(JSON.stringify(keys)) as Array<{ key: string; type: string }>;
    for (const r of rows) out.set(r.key, r.type);
    return out;
  }

  async askQuery(req: AskRequest): Promise<AskAnswer> {
    if (!this.s) return { subjects: [], further: false };
    this.engine ??= new SemanticQueryEngine(this.db);
    return this.engine.ask(req);
  }

  async askPrintouts(subjects: readonly number[], printouts: readonly AskPrintoutSpec[]): Promise<AskPrintValue[][][]> {
    if (!this.s || subjects.length === 0) return printouts.map(() => subjects.map(() => []));
    this.engine ??= new SemanticQueryEngine(this.db);
    return this.engine.printouts([...subjects], [...printouts]);
  }

  /** Prepared on first use; null when the database has no semantic tables. */
  private get s(): Statements | null {
    if (this.st !== undefined) return this.st;
    const present = this.db.raw.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'smw_ac_top'").get();
    if (!present) return (this.st = null);
    const p = <P extends unknown[], R>(name: string, sql: string, pluck = false) => this.db.prepare<P, R>(`SemanticStore.${name}`, sql, pluck);
    this.st = {
      subject: p('subjectData', 'SELECT ss_id AS id, ss_sortkey AS sortkey FROM smw_subject WHERE ss_namespace = ? AND ss_title = ? AND ss_subobject = ?'),
      values: p(
        'subjectData',
        `SELECT sp_key AS property, sv_type AS type, ${SEMANTIC_ITEM} AS item FROM smw_value JOIN smw_property ON sp_id = sv_property
         WHERE sv_subject = ? ORDER BY sv_property, sv_seq`,
      ),
      property: p('autocomplete', 'SELECT sp_id AS id, sp_type AS type FROM smw_property WHERE sp_key = ?'),
      node: p('autocomplete', 'SELECT an_id AS id, an_key AS key FROM smw_ac_node WHERE an_source = ? AND an_key >= ? ORDER BY an_key LIMIT 1'),
      top: p(
        'autocomplete',
        'SELECT av_value FROM smw_ac_top JOIN smw_ac_value ON av_id = at_value WHERE at_node = ? ORDER BY at_value LIMIT ?',
        true,
      ),
      words: p('autocomplete', 'SELECT aw_value FROM smw_ac_word WHERE aw_source = ? AND aw_key >= ? AND aw_key < ? LIMIT ?', true),
      valuesById: p('autocomplete', 'SELECT av_value FROM json_each(?) AS j CROSS JOIN smw_ac_value ON av_id = j.value ORDER BY j.key', true),
      subjectsWith: p('autocompleteDependent', 'SELECT sv_subject FROM smw_value WHERE sv_property = ? AND sv_key = ? LIMIT ?', true),
      valuesOf: p('autocompleteDependent', 'SELECT sv_key FROM smw_value WHERE sv_subject = ? AND sv_property = ? AND sv_key IS NOT NULL', true),
    };
    return this.st;
  }

  async subjectData(subjects: readonly SubjectKey[]): Promise<Array<SemanticSubjectData | undefined>> {
    return subjects.map((k) => this.oneSubject(k));
  }

  private oneSubject({ ns, dbkey, subobject }: SubjectKey): SemanticSubjectData | undefined {
    const s = this.s;
    if (!s) return undefined;
    const subject = s.subject.get(ns, dbkey, subobject);
    if (!subject) return undefined;
    const properties: SemanticPropertyValues[] = [];
    for (const r of s.values.all(subject.id)) {
      let last = properties[properties.length - 1];
      if (!last || last.property !== r.property) properties.push((last = { property: r.property, values: [] }));
      last.values.push({ type: r.type, item: r.item });
    }
    return { sortkey: subject.sortkey, properties };
  }

  async autocompleteProperty(property: string, foldedSubstr: string, limit: number): Promise<string[]> {
    const s = this.s;
    if (!s) return [];
    const p = s.property.get(property);
    if (!p || property.startsWith('_') || !(p.type === '_wpg' || BLOB_TYPES.has(p.type))) return [];
    return this.lookup(s, p.id, foldedSubstr, limit);
  }

  async autocompleteNamespace(ns: number, foldedSubstr: string, limit: number): Promise<string[]> {
    const s = this.s;
    if (!s) return [];
    return this.lookup(s, namespaceSource(ns), foldedSubstr, limit);
  }

  /** The word-prefix index lookup (see semantic-schema.ts). */
  private lookup(s: Statements, source: number, folded: string, limit: number): string[] {
    if (folded === '') return [];
    const q = cutChars(folded, KEY_CHARS);
    const exact = q === folded; // else the stored keys are shorter than the query: check each value
    const node = s.node.get(source, q);
    if (node && node.key.startsWith(q)) {
      if (exact) return s.top.all(node.id, limit);
      return this.checked(s, s.words.all(source, q, q + PREFIX_END, LONG_QUERY_SCAN), folded, limit);
    }
    const ids = s.words.all(source, q, q + PREFIX_END, Number.MAX_SAFE_INTEGER);
    if (!exact) return this.checked(s, ids, folded, limit);
    return s.valuesById.all(JSON.stringify(sortedDistinct(ids).slice(0, limit)));
  }

  private checked(s: Statements, ids: number[], folded: string, limit: number): string[] {
    const values = s.valuesById.all(JSON.stringify(sortedDistinct(ids)));
    const out: string[] = [];
    for (const v of values) {
      if (!matchesFolded(v, folded)) continue;
      out.push(v);
      if (out.length === limit) break;
    }
    return out;
  }

  async autocompleteDependent(property: string, baseProperty: string, baseValue: string, limit: number): Promise<string[]> {
    const s = this.s;
    if (!s) return [];
    const p = s.property.get(property);
    const b = s.property.get(baseProperty);
    if (!p || !b || !(p.type === '_wpg' || BLOB_TYPES.has(p.type))) return [];
    const key = b.type === '_wpg' ? baseValue.replace(/ /g, '_') : baseValue;
    const found = new Set<string>();
    for (const subject of s.subjectsWith.all(b.id, key, DEPENDENT_SUBJECTS)) for (const v of s.valuesOf.all(subject, p.id)) found.add(v);
    return [...found].sort(compareBytes).slice(0, limit);
  }

  async autocompleteCategory(category: string, levels: number, foldedSubstr: string): Promise<Array<{ ns: number; dbkey: string }>> {
    this.membersStmt ??= this.db.prepare<[string, number], { ns: number; dbkey: string }>(
      'SemanticStore.autocompleteCategory',
      'SELECT page_namespace AS ns, page_title AS dbkey FROM categorylinks JOIN page ON page_id = cl_from WHERE cl_to = ? LIMIT ?',
    );
    const members = this.membersStmt;
    const top = category.replace(/ /g, '_');
    const seenCats = new Set([top]);
    const seenPages = new Set<string>();
    const pages: Array<{ ns: number; dbkey: string }> = [];
    let check = [top];
    let budget = CATEGORY_SCAN;
    for (let level = levels; level > 0 && budget > 0; level--) {
      const next: string[] = [];
      for (const cat of check) {
        const rows = members.all(cat, budget);
        budget -= rows.length;
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
        if (budget <= 0) break;
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
