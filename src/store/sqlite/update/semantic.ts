/**
 * Semantic MediaWiki's data on the live tables, kept page by page (the import's are made set-based:
 * sqlite/import/semantic.ts): a page's subjects and values replaced, properties typed again, the
 * autocompletion values kept in their order and their precomputed answers made again by source.
 */
import type Database from 'better-sqlite3';
import type { SemanticValue, TitleRef } from '../../import-writer.js';
import type { SemanticUpdateWriter } from '../../update-writer.js';
import { AC_ID_STRIDE, HEAVY_ROWS } from '../semantic-schema.js';
import { refreshSemanticStatistics } from '../semantic-statistics.js';
import { wordKeys } from '../../../semantic/fold.js';
import { BLOB_TYPES } from '../../../semantic/types.js';
import { printCompletionAnswer } from '../../../semantic/completion-answer.js';
import { compareBytes } from '../../../wiki/collation.js';

/** the autocompletion sources whose precomputed answers wait to be made again */
const AC_DIRTY_SQL = 'CREATE TABLE IF NOT EXISTS smw_ac_dirty (ad_source INTEGER PRIMARY KEY)';

/** SMW's tables kept page by page (the import's are made set-based: sqlite/import/semantic.ts) */
export class SqliteSemanticUpdateWriter implements SemanticUpdateWriter {
  private readonly s: Record<string, Database.Statement>;

  constructor(private readonly db: Database.Database) {
    db.exec(AC_DIRTY_SQL);
    const p = (sql: string) => db.prepare(sql);
    this.s = {
      declared: p("SELECT sp_key, sp_type FROM smw_property WHERE substr(sp_key, 1, 1) <> '_'").raw(),
      propId: p('SELECT sp_id FROM smw_property WHERE sp_key = ?').pluck(),
      propAdd: p('INSERT INTO smw_property (sp_key, sp_type) VALUES (?, ?)'),
      propType: p('SELECT sp_type FROM smw_property WHERE sp_id = ?').pluck(),
      setType: p('UPDATE smw_property SET sp_type = ? WHERE sp_id = ? AND sp_type <> ?'),
      subjectsOf: p('SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?').pluck(),
      clear: p('DELETE FROM smw_value WHERE sv_subject = ?'),
      dropSubject: p('DELETE FROM smw_subject WHERE ss_id = ?'),
      // a page some value names (its title, or for a category, an _INST/_SUBC item): one seek per property
      usedAsValue: p(
        `SELECT 1 FROM smw_property WHERE EXISTS (SELECT 1 FROM smw_value INDEXED BY smw_value_key WHERE sv_property = sp_id AND sv_key = @key AND sv_ns = @ns)
           OR EXISTS (SELECT 1 FROM smw_value INDEXED BY smw_value_item WHERE sv_property = sp_id AND sv_item = @item) LIMIT 1`,
      ).pluck(),
      valueSubjectSort: p(
        "UPDATE smw_subject SET ss_sortkey = replace(ss_title, '_', ' ') WHERE ss_namespace = ? AND ss_title = ? AND ss_subobject = ''",
      ),
      subjectGet: p('SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ? AND ss_subobject = ?').pluck(),
      subjectAdd: p('INSERT INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey) VALUES (?, ?, ?, ?)'),
      subjectSort: p('UPDATE smw_subject SET ss_sortkey = ? WHERE ss_id = ? AND ss_sortkey <> ?'),
      value: p(
        'INSERT OR REPLACE INTO smw_value (sv_subject, sv_property, sv_seq, sv_type, sv_item, sv_ns, sv_key, sv_num) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      valuePages: p(
        `INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
         SELECT sv_ns, sv_key, '', replace(sv_key, '_', ' ') FROM smw_value
         WHERE sv_subject IN (SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?) AND sv_ns IS NOT NULL`,
      ),
      valueCategories: p(
        `INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
         SELECT 14, t, '', replace(t, '_', ' ') FROM (SELECT substr(sv_item, 1, instr(sv_item, '#') - 1) AS t FROM smw_value
           WHERE sv_subject IN (SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?)
             AND sv_property IN (SELECT sp_id FROM smw_property WHERE sp_key IN ('_INST', '_SUBC')))`,
      ),
      namedBy: p(
        `SELECT sv_ns, sv_key FROM smw_value WHERE sv_subject = @id AND sv_ns IS NOT NULL
         UNION SELECT 14, substr(sv_item, 1, instr(sv_item, '#') - 1) FROM smw_value
           WHERE sv_subject = @id AND sv_property IN (SELECT sp_id FROM smw_property WHERE sp_key IN ('_INST', '_SUBC'))`,
      ).raw(),
      hasValues: p('SELECT 1 FROM smw_value WHERE sv_subject = ? LIMIT 1').pluck(),
      conditions: p(
        `SELECT ss_namespace AS ns, ss_title AS dbkey, sv_item AS conditions FROM smw_value INDEXED BY smw_value_item JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = (SELECT sp_id FROM smw_property WHERE sp_key = '_ASKST') AND sv_item IS NOT NULL`,
      ),
      concept: p(
        `SELECT sv_item FROM smw_subject JOIN smw_value ON sv_subject = ss_id
         WHERE ss_namespace = 108 AND ss_title = ? AND ss_subobject = '' AND sv_property = (SELECT sp_id FROM smw_property WHERE sp_key = '_CONC')`,
      ).pluck(),
      valuesOf: p(
        `SELECT sp_key, ss_subobject, sv_type, sv_item, sv_ns, sv_key, sv_num FROM smw_subject JOIN smw_value ON sv_subject = ss_id
         JOIN smw_property ON sp_id = sv_property WHERE ss_namespace = ? AND ss_title = ?`,
      ).raw(),
      acFind: p(
        'SELECT av_id FROM smw_ac_word JOIN smw_ac_value ON av_id = aw_value WHERE aw_source = ? AND aw_key = ? AND av_value = ?',
      ).pluck(),
      acInsert: p('INSERT INTO smw_ac_value (av_id, av_source, av_value) VALUES (?, ?, ?)'),
      acDelete: p('DELETE FROM smw_ac_value WHERE av_id = ?'),
      acWordInsert: p('INSERT OR IGNORE INTO smw_ac_word (aw_source, aw_key, aw_value) VALUES (?, ?, ?)'),
      acWordDelete: p('DELETE FROM smw_ac_word WHERE aw_source = ? AND aw_key = ? AND aw_value = ?'),
      acMax: p('SELECT MAX(av_id) FROM smw_ac_value').pluck(),
      acAtOrAfter: p(
        'SELECT av_id AS id, av_source AS source, av_value AS value FROM smw_ac_value WHERE av_id >= ? ORDER BY av_id LIMIT 1',
      ),
      acBefore: p('SELECT av_id FROM smw_ac_value WHERE av_id < ? ORDER BY av_id DESC LIMIT 1').pluck(),
      acDirty: p('INSERT OR IGNORE INTO smw_ac_dirty (ad_source) VALUES (?)'),
      acDirtyAll: p('SELECT ad_source FROM smw_ac_dirty ORDER BY ad_source').pluck(),
      acClean: p('DELETE FROM smw_ac_dirty WHERE ad_source = ?'),
      acWordsFirst: p('SELECT aw_key, aw_value FROM smw_ac_word WHERE aw_source = ? ORDER BY aw_key, aw_value LIMIT ?').raw(),
      acWords: p(
        'SELECT aw_key, aw_value FROM smw_ac_word WHERE aw_source = ? AND (aw_key, aw_value) > (?, ?) ORDER BY aw_key, aw_value LIMIT ?',
      ).raw(),
      acNodesDelete: p('DELETE FROM smw_ac_node WHERE an_source = ?'),
      acNodeInsert: p('INSERT INTO smw_ac_node (an_source, an_key, an_values, an_json) VALUES (?, ?, ?, ?)'),
      acTop: p('SELECT av_value FROM json_each(?) j JOIN smw_ac_value ON av_id = j.value ORDER BY j.key').pluck(),
      // the completion values of a page's user properties: pages (Page type) and texts (text types)
      acOfPage: p(
        `SELECT sv_property, sv_key FROM smw_value JOIN smw_property ON sp_id = sv_property
         WHERE sv_subject IN (SELECT ss_id FROM smw_subject WHERE ss_namespace = ? AND ss_title = ?) AND sv_key IS NOT NULL
           AND substr(sp_key, 1, 1) <> '_' AND ((sp_type = '_wpg' AND sv_ns IS NOT NULL) OR (sp_type IN (${[...BLOB_TYPES].map((t) => `'${t}'`).join(', ')}) AND sv_ns IS NULL))`,
      ).raw(),
      valueUsed: p('SELECT 1 FROM smw_value INDEXED BY smw_value_key WHERE sv_property = ? AND sv_key = ? LIMIT 1').pluck(),
      using: p(
        `SELECT DISTINCT ss_namespace AS ns, ss_title AS dbkey FROM smw_value INDEXED BY smw_value_key JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = ? AND sv_key IS NOT NULL
         UNION SELECT DISTINCT ss_namespace, ss_title FROM smw_value INDEXED BY smw_value_item JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = ? AND sv_item IS NOT NULL
         UNION SELECT DISTINCT ss_namespace, ss_title FROM smw_value INDEXED BY smw_value_num JOIN smw_subject ON ss_id = sv_subject
         WHERE sv_property = ? AND sv_num IS NOT NULL`,
      ),
    };
  }

  refreshStatistics(): void {
    refreshSemanticStatistics(this.db);
  }

  declaredTypes(): Array<[string, string]> {
    return this.s.declared.all() as Array<[string, string]>;
  }

  propertyId(key: string): number | undefined {
    return this.s.propId.get(key) as number | undefined;
  }

  addProperty(key: string, type: string): number {
    return Number(this.s.propAdd.run(key, type).lastInsertRowid);
  }

  propertyType(id: number): string | undefined {
    return this.s.propType.get(id) as string | undefined;
  }

  setType(property: number, type: string): boolean {
    return this.s.setType.run(type, property, type).changes > 0;
  }

  /**
   * A page's semantic data gone: its values, and its subjects -- SMW knows a page that is only named by
   * values as a subject of its own (sorted by its title), as the import's valueSubjects() makes it.
   */
  clearPage(t: TitleRef): void {
    const named = this.s.usedAsValue.get({ ns: t.ns, key: t.dbkey, item: `${t.dbkey}#${t.ns}#` }) !== undefined;
    for (const id of this.s.subjectsOf.all(t.ns, t.dbkey) as number[]) {
      // the pages and categories its values named: their subjects may be left unused
      for (const [ns, dbkey] of this.s.namedBy.all({ id }) as Array<[number, string]>)
        this.maybeUnused.set(`${ns}:${dbkey}`, { ns, dbkey });
      this.s.clear.run(id);
      if (!named) this.s.dropSubject.run(id);
    }
    if (named) this.s.valueSubjectSort.run(t.ns, t.dbkey);
  }

  /** subjects a cleared page's values named, to drop once the batch has written its values if nothing uses them */
  private readonly maybeUnused = new Map<string, TitleRef>();

  dropUnusedSubjects(): void {
    for (const t of this.maybeUnused.values()) {
      if (this.s.usedAsValue.get({ ns: t.ns, key: t.dbkey, item: `${t.dbkey}#${t.ns}#` }) !== undefined) continue;
      for (const id of this.s.subjectsOf.all(t.ns, t.dbkey) as number[])
        if (this.s.hasValues.get(id) === undefined) this.s.dropSubject.run(id);
    }
    this.maybeUnused.clear();
  }

  subject(ns: number, dbkey: string, subobject: string, sortkey: string): number {
    const id = this.s.subjectGet.get(ns, dbkey, subobject) as number | undefined;
    if (id === undefined) return Number(this.s.subjectAdd.run(ns, dbkey, subobject, sortkey).lastInsertRowid);
    this.s.subjectSort.run(sortkey, id, sortkey);
    return id;
  }

  addValue(...value: SemanticValue): void {
    this.s.value.run(...value);
  }

  valueSubjects(t: TitleRef): void {
    this.s.valuePages.run(t.ns, t.dbkey);
    this.s.valueCategories.run(t.ns, t.dbkey);
  }

  queryConditions(): Array<{ ns: number; dbkey: string; conditions: string }> {
    return this.s.conditions.all() as Array<{ ns: number; dbkey: string; conditions: string }>;
  }

  conceptConditions(dbkey: string): string | undefined {
    const stored = this.s.concept.get(dbkey) as string | undefined;
    if (stored === undefined) return undefined;
    try {
      const v = JSON.parse(stored) as unknown;
      return Array.isArray(v) && typeof v[0] === 'string' ? v[0] : undefined;
    } catch {
      return undefined;
    }
  }

  valuesOf(t: TitleRef): string[] {
    const out: string[] = [];
    for (const [key, subobject, type, item, ns, vkey, num] of this.s.valuesOf.all(t.ns, t.dbkey) as unknown[][]) {
      // a category by its DB key (the item is `Dbkey#14#`); any other value by everything it stores
      if (key === '_INST' && typeof item === 'string') out.push(`_INST\t${item.slice(0, item.indexOf('#'))}\t${subobject}`);
      else out.push(`${key}\t${subobject}\t${type}\t${item}\t${ns}\t${vkey}\t${num}`);
    }
    return out;
  }

  pagesUsing(property: number): TitleRef[] {
    return this.s.using.all(property, property, property) as TitleRef[];
  }

  readonly heavyRows = HEAVY_ROWS;

  /**
   * A new value gets the id halfway between its neighbours in (source, value) byte order (the import
   * leaves AC_ID_STRIDE between ids): found by bisecting the ids, a seek each. Its word keys go in at once
   * (a light prefix answers with it); the source's precomputed answers are made again by
   * rebuildCompletion() (the follower's periodic job, and the end of import --update).
   */
  addCompletionValue(source: number, value: string): void {
    const shown = value.replace(/_/g, ' ');
    const keys = wordKeys(shown);
    // a value without a word key is never offered
    if (keys.length === 0 || this.completionId(source, shown, keys[0]) !== undefined) return;
    let id = this.idBetween(source, value);
    if (id === null) {
      this.respace();
      id = this.idBetween(source, value)!;
    }
    this.s.acInsert.run(id, source, shown);
    for (const k of keys) this.s.acWordInsert.run(source, k, id);
    this.s.acDirty.run(source);
  }

  completionValuesOf(t: TitleRef): Array<[number, string]> {
    return this.s.acOfPage.all(t.ns, t.dbkey) as Array<[number, string]>;
  }

  removeCompletionValue(source: number, value: string, always: boolean): void {
    if (!always && source >= 0 && this.s.valueUsed.get(source, value) !== undefined) return;
    const shown = value.replace(/_/g, ' ');
    const keys = wordKeys(shown);
    if (keys.length === 0) return;
    const id = this.completionId(source, shown, keys[0]);
    if (id === undefined) return;
    for (const k of keys) this.s.acWordDelete.run(source, k, id);
    this.s.acDelete.run(id);
    this.s.acDirty.run(source);
  }

  private completionId(source: number, shown: string, key: string): number | undefined {
    return this.s.acFind.get(source, key, shown) as number | undefined;
  }

  /** the value as the import ordered it: page values and titles with underscores, texts as they are */
  private rawOf(source: number, shown: string): string {
    if (source < 0) return shown.replace(/ /g, '_');
    let type = this.types.get(source);
    if (type === undefined) this.types.set(source, (type = (this.s.propType.get(source) as string | undefined) ?? '_wpg'));
    return type === '_wpg' ? shown.replace(/ /g, '_') : shown;
  }

  private readonly types = new Map<number, string>();

  private before(row: { id: number; source: number; value: string }, source: number, raw: string): boolean {
    return row.source < source || (row.source === source && compareBytes(this.rawOf(row.source, row.value), raw) < 0);
  }

  /** an id between the value's neighbours in (source, value) order; null when they are adjacent */
  private idBetween(source: number, raw: string): number | null {
    const max = (this.s.acMax.get() as number | null) ?? 0;
    let lo = 1;
    let hi = max;
    let next: number | null = null;
    while (lo <= hi) {
      const mid = Math.floor((lo + hi) / 2);
      const row = this.s.acAtOrAfter.get(mid) as { id: number; source: number; value: string } | undefined;
      if (row === undefined || row.id > hi) {
        hi = mid - 1;
        continue;
      }
      if (this.before(row, source, raw)) lo = row.id + 1;
      else {
        next = row.id;
        hi = mid - 1;
      }
    }
    if (next === null) return max + AC_ID_STRIDE;
    const prev = (this.s.acBefore.get(next) as number | undefined) ?? 0;
    return next - prev > 1 ? prev + Math.floor((next - prev) / 2) : null;
  }

  /** every value's id spread AC_ID_STRIDE apart again, in their order (the gaps between two were used up) */
  private respace(): void {
    const db = this.db;
    db.exec(`CREATE TEMP TABLE ac_map AS SELECT av_id AS old, ROW_NUMBER() OVER (ORDER BY av_id) * ${AC_ID_STRIDE} AS new FROM smw_ac_value;
      CREATE UNIQUE INDEX temp.ac_map_old ON ac_map (old);
      CREATE TEMP TABLE ac_v AS SELECT m.new AS id, av_source AS source, av_value AS value FROM smw_ac_value JOIN ac_map m ON m.old = av_id;
      CREATE TEMP TABLE ac_w AS SELECT aw_source AS source, aw_key AS key, m.new AS value FROM smw_ac_word JOIN ac_map m ON m.old = aw_value;
      DELETE FROM smw_ac_value; INSERT INTO smw_ac_value SELECT * FROM ac_v ORDER BY id;
      DELETE FROM smw_ac_word; INSERT INTO smw_ac_word SELECT * FROM ac_w ORDER BY 1, 2, 3;
      DROP TABLE ac_map; DROP TABLE ac_v; DROP TABLE ac_w;`);
  }

  changedCompletionSources(): number[] {
    return this.s.acDirtyAll.all() as number[];
  }

  wordKeys(source: number, after: [string, number] | null, limit: number): Array<[string, number]> {
    return (after === null ? this.s.acWordsFirst.all(source, limit) : this.s.acWords.all(source, after[0], after[1], limit)) as Array<
      [string, number]
    >;
  }

  clearHeavyPrefixes(source: number): void {
    this.s.acNodesDelete.run(source);
  }

  addHeavyPrefix(source: number, key: string, topValues: number[]): void {
    const texts = this.s.acTop.all(JSON.stringify(topValues)) as string[];
    const printed = printCompletionAnswer(texts);
    this.s.acNodeInsert.run(source, key, printed.utf8, printed.ascii);
  }

  completionSourceDone(source: number): void {
    this.s.acClean.run(source);
  }
}
