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
import type Database from 'better-sqlite3';
import type { HookContext, PageAnalysis, PageAnalysisHook } from './hooks.js';
import type { TitleCodec } from '../wiki/titles.js';
import { extractAnnotations, type RawAnnotation } from '../semantic/annotations.js';
import { normalizedQueryString } from '../semantic/query.js';
import { BLOB_TYPES, DI, PREDEFINED_BY_KEY, SEMANTIC_NAMESPACES, propertyKeyFromLabel, propertyPageKey, typeIdFromLabel, typeUri } from '../semantic/types.js';
import { isError, mwTimestampItem, numberItem, parseValue, wikiPageItem } from '../semantic/values.js';
import { wordKeys } from '../semantic/fold.js';
import { itemSortKey } from '../semantic/ask.js';
import { HEAVY_ROWS, SEMANTIC_INDEXES, SEMANTIC_SCHEMA, SEMANTIC_STAGING } from '../store/sqlite/semantic-schema.js';

/** How many values a precomputed list keeps: Semantic Forms' $sfgMaxAutocompleteValues. */
export const TOP_VALUES = 1000;
const BATCH = 10000;
const KIND_QUERY = -1;

export interface SemanticHookOptions {
  /** threshold of precomputed prefix lists (tests lower it to exercise both paths) */
  heavyRows?: number;
}

export function semanticImportHook(opts: SemanticHookOptions = {}): PageAnalysisHook {
  return new SemanticImportHook(opts.heavyRows ?? HEAVY_ROWS);
}

interface PropInfo {
  key: string;
  type: string;
  ns?: number;
}

class SemanticImportHook implements PageAnalysisHook {
  readonly name = 'semantic';
  private codec!: TitleCodec;
  private stmt!: {
    subject: Database.Statement;
    stage: Database.Statement;
    propGet: Database.Statement;
    propAdd: Database.Statement;
    typeDecl: Database.Statement;
  };
  private propIds = new Map<string, number>();
  private subjects = 0;
  private staged = 0;

  constructor(private readonly heavyRows: number) {}

  begin(db: Database.Database, ctx: HookContext): void {
    this.codec = ctx.codec;
    db.exec(SEMANTIC_SCHEMA);
    this.stmt = {
      subject: db.prepare('INSERT INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey) VALUES (?, ?, ?, ?)'),
      stage: db.prepare('INSERT INTO smw_stage (st_subject, st_property, st_kind, st_text) VALUES (?, ?, ?, ?)'),
      propGet: db.prepare('SELECT sp_id FROM smw_property WHERE sp_key = ?').pluck(),
      propAdd: db.prepare('INSERT INTO smw_property (sp_key, sp_type) VALUES (?, ?)'),
      typeDecl: db.prepare('INSERT OR REPLACE INTO smw_type_decl (sd_property, sd_type) VALUES (?, ?)'),
    };
  }

  /** The id of a property key, created on first use (bounded cache in front of the table). */
  private propId(key: string): number {
    let id = this.propIds.get(key);
    if (id !== undefined) return id;
    id = this.stmt.propGet.get(key) as number | undefined;
    if (id === undefined) {
      const type = PREDEFINED_BY_KEY.get(key)?.type ?? '_wpg';
      id = Number(this.stmt.propAdd.run(key, type).lastInsertRowid);
    }
    if (this.propIds.size > 50000) this.propIds.clear();
    this.propIds.set(key, id);
    return id;
  }

  private stage(subject: number, key: string, kind: number, text: string): void {
    this.stmt.stage.run(subject, this.propId(key), kind, text);
    this.staged++;
  }

  private addSubject(ns: number, dbkey: string, subobject: string, sortkey: string): number {
    this.subjects++;
    return Number(this.stmt.subject.run(ns, dbkey, subobject, sortkey).lastInsertRowid);
  }

  private stageAnnotations(subject: number, list: RawAnnotation[], page: PageAnalysis | null): void {
    for (const a of list) {
      const key = a.key ?? propertyKeyFromLabel(a.prop);
      if (key === null) continue;
      if (PREDEFINED_BY_KEY.get(key)?.type === '__fixed') continue; // set by SMW only
      if (key === '_TYPE' && page && page.ns === 102) {
        const type = typeIdFromLabel(a.value);
        if (type !== undefined) this.stmt.typeDecl.run(this.propId(page.dbkey), type);
      }
      this.stage(subject, key, 0, a.value);
    }
  }

  page(p: PageAnalysis, text: string): void {
    if (!SEMANTIC_NAMESPACES.has(p.ns) || p.isRedirect) return;
    const ann = extractAnnotations(text, this.codec);
    const titleText = p.dbkey.replace(/_/g, ' ');
    const subject = this.addSubject(p.ns, p.dbkey, '', p.defaultSort ?? titleText);
    this.stageAnnotations(subject, ann.annotations, p);
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

  finish(db: Database.Database, ctx: HookContext): void {
    const t0 = Date.now();
    const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
    // ---- property types: the last [[Has type::…]] of the property's page; Page when none
    db.exec(`UPDATE smw_property SET sp_type = (SELECT sd_type FROM smw_type_decl WHERE sd_property = sp_id)
             WHERE sp_id IN (SELECT sd_property FROM smw_type_decl) AND substr(sp_key, 1, 1) <> '_'`);
    const props = new Map<number, PropInfo>();
    for (const r of db.prepare('SELECT sp_id AS id, sp_key AS key, sp_type AS type FROM smw_property').all() as Array<{ id: number; key: string; type: string }>) {
      props.set(r.id, { key: r.key, type: r.type, ns: PREDEFINED_BY_KEY.get(r.key)?.ns });
    }
    const errp = this.propId('_ERRP');
    const values = this.typeValues(db, props, errp);
    ctx.log(`semantic: ${this.subjects} subjects, ${values} values of ${props.size} properties (${secs()} s)`);

    // ---- subjects that are only values (SMW has an id for every page it has seen)
    db.exec(SEMANTIC_INDEXES.split(';')[0]);
    db.exec(`INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
             SELECT DISTINCT sv_ns, sv_key, '', replace(sv_key, '_', ' ') FROM smw_value WHERE sv_ns IS NOT NULL`);
    const cats = db.prepare("SELECT sp_id FROM smw_property WHERE sp_key IN ('_INST', '_SUBC')").pluck().all() as number[];
    for (const c of cats) {
      db.prepare(
        `INSERT OR IGNORE INTO smw_subject (ss_namespace, ss_title, ss_subobject, ss_sortkey)
         SELECT DISTINCT 14, t, '', replace(t, '_', ' ') FROM (SELECT substr(sv_item, 1, instr(sv_item, '#') - 1) AS t FROM smw_value WHERE sv_property = ?)`,
      ).run(c);
    }

    // ---- autocompletion: distinct values per source in byte order, word keys, heavy prefixes
    db.exec('INSERT INTO smw_ac_stage (as_source, as_value) SELECT -1 - page_namespace, page_title FROM page');
    db.exec(`INSERT INTO smw_ac_value (av_source, av_value)
             SELECT as_source, as_value FROM smw_ac_stage GROUP BY as_source, as_value ORDER BY as_source, as_value`);
    db.exec('DROP TABLE smw_ac_stage');
    const words = this.buildWordKeys(db);
    const heavy = this.buildHeavyPrefixes(db);
    for (const sql of SEMANTIC_INDEXES.split(';').slice(1)) if (sql.trim()) db.exec(sql);
    for (const t of SEMANTIC_STAGING) db.exec(`DROP TABLE IF EXISTS ${t}`);
    ctx.log(`semantic: autocompletion index: ${words} word keys, ${heavy.nodes} precomputed prefixes (${heavy.rows} rows) (${secs()} s)`);
  }

  /** Staged rows → smw_value, in order, batch by batch. Returns the number of values written. */
  private typeValues(db: Database.Database, props: Map<number, PropInfo>, errp: number): number {
    const select = db.prepare(
      'SELECT rowid AS r, st_subject AS s, st_property AS p, st_kind AS k, st_text AS t FROM smw_stage WHERE rowid > ? ORDER BY rowid LIMIT ?',
    );
    const insert = db.prepare(
      'INSERT INTO smw_value (sv_subject, sv_property, sv_seq, sv_type, sv_item, sv_ns, sv_key, sv_num) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    );
    const acStage = db.prepare('INSERT INTO smw_ac_stage (as_source, as_value) VALUES (?, ?)');
    const redirect = db.prepare(
      `SELECT r.rd_namespace AS ns, r.rd_title AS dbkey FROM page p JOIN redirect r ON r.rd_from = p.page_id
       WHERE p.page_namespace = ? AND p.page_title = ? AND p.page_is_redirect = 1`,
    );
    const redirectCache = new Map<string, { ns: number; dbkey: string } | null>();
    const resolve = (ns: number, dbkey: string) => {
      const k = `${ns}|${dbkey}`;
      let t = redirectCache.get(k);
      if (t === undefined) {
        t = (redirect.get(ns, dbkey) as { ns: number; dbkey: string } | undefined) ?? null;
        if (redirectCache.size > 20000) redirectCache.clear();
        redirectCache.set(k, t);
      }
      return t;
    };
    const typeOf = (key: string) => {
      const id = this.propIds.get(key) ?? (this.stmt.propGet.get(key) as number | undefined);
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
      insert.run(subject, prop, seq++, di, derived ? null : item, ns, key, itemSortKey(di, item) ?? null);
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
      const rows = select.all(last, BATCH) as Array<{ r: number; s: number; p: number; k: number; t: string }>;
      if (rows.length === 0) break;
      last = rows[rows.length - 1].r;
      db.transaction(() => {
        for (const row of rows) {
          if (row.s !== subject) {
            subject = row.s;
            seq = 0;
            seen = new Set();
          }
          const prop = props.get(row.p)!;
          if (row.k === KIND_QUERY) {
            let text: string;
            try {
              text = normalizedQueryString(row.t, { codec, typeOf });
            } catch {
              text = row.t;
            }
            emit(row.p, DI.BLOB, text, null, null);
            continue;
          }
          if (row.k > 0) {
            emit(row.p, row.k, row.t, null, null);
            continue;
          }
          if (prop.type === '__typ') {
            const type = typeIdFromLabel(row.t);
            if (type === undefined) emitImproper(prop);
            else emit(row.p, DI.URI, typeUri(type), null, null);
            continue;
          }
          const v = parseValue(prop.type, row.t, codec, prop.ns);
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
              if (emit(row.p, DI.WIKIPAGE, wikiPageItem(ns, dbkey), ns, dbkey, true) && prop.type === '_wpg') acStage.run(row.p, dbkey);
            } else emit(row.p, DI.WIKIPAGE, wikiPageItem(ns, dbkey), null, null);
          } else if (v.di === DI.BLOB) {
            if (user) {
              if (emit(row.p, DI.BLOB, v.item, null, v.item, true) && BLOB_TYPES.has(prop.type)) acStage.run(row.p, v.item);
            } else emit(row.p, DI.BLOB, v.item, null, null);
          } else {
            emit(row.p, v.di, v.item, null, null);
          }
        }
      })();
    }
    db.exec('DROP TABLE smw_stage');
    return written;
  }

  /** smw_ac_word from smw_ac_value: word keys staged unordered, then inserted in key order. */
  private buildWordKeys(db: Database.Database): number {
    db.exec('CREATE TABLE smw_ac_word_stage (s INTEGER, k TEXT, v INTEGER)');
    const select = db.prepare('SELECT av_id AS id, av_source AS s, av_value AS v FROM smw_ac_value WHERE av_id > ? ORDER BY av_id LIMIT ?');
    const insert = db.prepare('INSERT INTO smw_ac_word_stage (s, k, v) VALUES (?, ?, ?)');
    let last = 0;
    for (;;) {
      const rows = select.all(last, BATCH) as Array<{ id: number; s: number; v: string }>;
      if (rows.length === 0) break;
      last = rows[rows.length - 1].id;
      db.transaction(() => {
        for (const r of rows) for (const k of wordKeys(r.v)) insert.run(r.s, k, r.id);
      })();
    }
    const n = db.prepare('INSERT OR IGNORE INTO smw_ac_word (aw_source, aw_key, aw_value) SELECT s, k, v FROM smw_ac_word_stage ORDER BY s, k, v').run().changes;
    db.exec('DROP TABLE smw_ac_word_stage');
    return n;
  }

  /**
   * One pass over the word keys in (source, key) order: the LCP intervals of the sorted keys are the
   * nodes of their compressed trie; each keeps the smallest TOP_VALUES value ids of its rows (children
   * pass their lists up); a node with more than heavyRows rows is written with its list.
   */
  private buildHeavyPrefixes(db: Database.Database): { nodes: number; rows: number } {
    const select = db.prepare(
      `SELECT aw_source AS s, aw_key AS k, aw_value AS v FROM smw_ac_word
       WHERE (aw_source, aw_key, aw_value) > (?, ?, ?) ORDER BY aw_source, aw_key, aw_value LIMIT ?`,
    );
    const insNode = db.prepare('INSERT INTO smw_ac_node (an_source, an_key) VALUES (?, ?)');
    const insTop = db.prepare('INSERT INTO smw_ac_top (at_node, at_value) VALUES (?, ?)');
    const pendingNodes: Array<{ source: number; key: string; ids: number[] }> = [];
    let nodes = 0;
    let topRows = 0;
    const flush = () => {
      if (pendingNodes.length === 0) return;
      db.transaction(() => {
        for (const n of pendingNodes) {
          const id = Number(insNode.run(n.source, n.key).lastInsertRowid);
          for (const v of n.ids) insTop.run(id, v);
          topRows += n.ids.length;
        }
      })();
      nodes += pendingNodes.length;
      pendingNodes.length = 0;
    };
    let source: number | null = null;
    const trie = new TopKTrie(this.heavyRows, TOP_VALUES, (key, ids) => pendingNodes.push({ source: source!, key, ids }));
    const selectFirst = db.prepare('SELECT aw_source AS s, aw_key AS k, aw_value AS v FROM smw_ac_word ORDER BY aw_source, aw_key, aw_value LIMIT ?');
    let cursor: [number, string, number] | null = null;
    for (;;) {
      const rows = (cursor === null ? selectFirst.all(BATCH) : select.all(cursor[0], cursor[1], cursor[2], BATCH)) as Array<{ s: number; k: string; v: number }>;
      if (rows.length === 0) break;
      for (const r of rows) {
        if (r.s !== source) {
          if (source !== null) trie.end();
          source = r.s;
        }
        trie.add(r.k, r.v);
      }
      const l = rows[rows.length - 1];
      cursor = [l.s, l.k, l.v];
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
