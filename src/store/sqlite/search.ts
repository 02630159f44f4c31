/**
 * Search on the FTS5 index `search_index` (see import/search-writer.ts for what it holds). User input never
 * reaches FTS5's parser as syntax: every term is a quoted string of folded tokens (letters and digits
 * only), joined here with FTS5's own operators, so no input can make MATCH fail.
 */
import type { Db, Statement } from './db.js';
import { prefixEnd } from '../sql/prefix-range.js';
import {
  ANALYSED_PREFIX_SCAN,
  distinctPages,
  RANK_CANDIDATES,
  type FullTextResult,
  type FullTextSearch,
  type SearchDocument,
  type SearchStore,
  type TitlePrefixRow,
  type VocabularyTerm,
} from '../search-store.js';
import type { ParsedSearch, SearchTerm } from '../../wiki/search-query.js';
import { SqliteTopK, topKEligible } from './search-topk.js';

/**
 * BM25 column weights (ns, title, redirects, text, and the lemmas of title, redirects and text): a title
 * word counts ten text words, a redirect's six (CirrusSearch's boosts); a word matched through its lemma
 * counts half the word itself. A page holding the very form of the query word also holds its lemmas, so
 * it ranks above one holding another form of the word where it is.
 */
const RANK = 'bm25(search_index, 0.0, 10.0, 6.0, 1.0, 5.0, 3.0, 0.5)';

export function nsToken(ns: number): string {
  return `n${ns}`;
}

function phrase(t: SearchTerm): string {
  return `"${t.tokens.join(' ').replace(/"/g, '""')}"${t.prefix ? ' *' : ''}`;
}

/** The MATCH expression of a query, or null when nothing can match. */
export function compileMatch(q: ParsedSearch, fields: FullTextSearch['fields'], namespaces: number[]): string | null {
  const words = compileWords(q, fields);
  const ns = namespaces.filter((n) => n >= 0).map(nsToken);
  if (words === null || ns.length === 0) return null;
  return `{ns} : (${ns.join(' OR ')}) AND ${words}`;
}

/** A term: its phrase in columns `cols`, or any of its lemmas in their lemma columns. */
function term(t: SearchTerm, cols: string, lemmaCols: string): string {
  const exact = `${cols} : ${phrase(t)}`;
  if (t.lemmas.length === 0) return exact;
  return `(${exact}${t.lemmas.map((l) => ` OR ${lemmaCols} : "${l}"`).join('')})`;
}

/** The MATCH expression of the words alone (no namespace phrase), or null when nothing can match. */
function compileWords(q: ParsedSearch, fields: FullTextSearch['fields']): string | null {
  const cols = fields === 'title' ? '{title redirects}' : fields === 'text' ? '{text}' : '{title redirects text}';
  const lemmaCols = fields === 'title' ? '{ltitle lredirects}' : fields === 'text' ? '{ltext}' : '{ltitle lredirects ltext}';
  const mustTerm = (t: SearchTerm) => (t.titleOnly ? term(t, '{title redirects}', '{ltitle lredirects}') : term(t, cols, lemmaCols));
  const groups = q.groups.map((g) => {
    const must = g.must.map(mustTerm).join(' AND ');
    // a page is excluded by an excluded word (or another form of it) anywhere in it
    const not = g.not.map((t) => term(t, '{title redirects text}', '{ltitle lredirects ltext}'));
    return not.length ? `((${must}) NOT (${not.join(' OR ')}))` : `(${must})`;
  });
  return groups.length === 0 ? null : `(${groups.join(' OR ')})`;
}

export class SqliteSearchStore implements SearchStore {
  private readonly ranked: Statement;
  private readonly rankedWithTitle: Statement;
  private readonly rankedWithLemmaTitle: Statement;
  private readonly count: Statement;
  private readonly titleKey: Statement;
  private readonly doc: Statement<[number]>;
  private readonly redirectsTo: Statement<[number, string]>;
  private readonly prefix: Statement;
  private readonly vocab: Statement;
  private readonly foldedPrefix: Statement;
  private readonly lemmaPrefix: Statement;
  private readonly topK: SqliteTopK | null;

  /** `topK` false: every query through FTS5's MATCH and bm25() (what the top-k path must answer alike) */
  constructor(db: Db, opts: { topK?: boolean } = {}) {
    this.topK = opts.topK === false ? null : new SqliteTopK(db);
    // The namespace filter is the page row's, not a phrase of the MATCH: bm25() reads the whole posting
    // list of every phrase of the query (for its IDF) on each request, and a namespace token is on nearly
    // every page (a million-entry list at 1M pages, ~20 ms). The ns column weighs 0.0, so that phrase
    // adds exactly 0 to every score: leaving it out changes no score and no order. The candidates are
    // still the first RANK_CANDIDATES matches by page id (FTS5 walks in rowid order, the LIMIT follows
    // the filter), and their count is the total when it is below the bound (one MATCH per request).
    const candidates = `SELECT s.rowid AS id, ${RANK} AS score FROM search_index s CROSS JOIN page n ON n.page_id = s.rowid
         WHERE search_index MATCH @match AND n.page_namespace IN (SELECT value FROM json_each(@namespaces)) LIMIT ${RANK_CANDIDATES}`;
    this.ranked = db.prepare(
      'SearchStore.fullText',
      `SELECT h.id AS pageid, p.page_namespace AS ns, p.page_title AS title, h.total FROM (
         SELECT id, score, count(*) OVER () AS total FROM (${candidates})
         ORDER BY score, id LIMIT @limit OFFSET @offset) h
       JOIN page p ON p.page_id = h.id ORDER BY h.score, h.id`,
    );
    // pages whose title (or a redirect's) is the whole query come first
    this.rankedWithTitle = db.prepare(
      'SearchStore.fullText',
      `SELECT h.id AS pageid, p.page_namespace AS ns, p.page_title AS title, h.total FROM (
         SELECT id, score, id IN (SELECT st_page FROM search_title WHERE st_key = @key) AS exact, count(*) OVER () AS total
         FROM (${candidates})
         ORDER BY exact DESC, score, id LIMIT @limit OFFSET @offset) h
       JOIN page p ON p.page_id = h.id ORDER BY h.exact DESC, h.score, h.id`,
    );
    // then pages whose title (or a redirect's) is the query in other forms of its words
    this.rankedWithLemmaTitle = db.prepare(
      'SearchStore.fullText',
      `SELECT h.id AS pageid, p.page_namespace AS ns, p.page_title AS title, h.total FROM (
         SELECT id, score, CASE WHEN id IN (SELECT st_page FROM search_title WHERE st_key = @key) THEN 2
             WHEN id IN (SELECT stl_page FROM search_title_lemma WHERE stl_key IN (SELECT value FROM json_each(@lemmaKeys))) THEN 1
             ELSE 0 END AS exact, count(*) OVER () AS total
         FROM (${candidates})
         ORDER BY exact DESC, score, id LIMIT @limit OFFSET @offset) h
       JOIN page p ON p.page_id = h.id ORDER BY h.exact DESC, h.score, h.id`,
    );
    // no bm25() here: the namespace phrase costs a walk of the matches only
    this.count = db.prepare('SearchStore.fullText', 'SELECT count(*) FROM search_index WHERE search_index MATCH ?', true);
    this.titleKey = db.prepare(
      'SearchStore.titleKeyMatches',
      'SELECT st_ns AS ns, st_page AS page FROM search_title WHERE st_key = ? ORDER BY st_ns, st_page LIMIT ?',
    );
    this.doc = db.prepare(
      'SearchStore.documents',
      `SELECT p.page_id AS pageid, p.page_namespace AS ns, p.page_title AS title, p.page_len AS length,
         p.page_touched AS touched, p.page_content_model AS contentModel, t.old_text AS text
       FROM page p JOIN page_text t ON t.page_id = p.page_id WHERE p.page_id = ?`,
    );
    this.redirectsTo = db.prepare(
      'SearchStore.documents',
      `SELECT p.page_namespace AS ns, p.page_title AS dbkey FROM redirect r JOIN page p ON p.page_id = r.rd_from
       WHERE r.rd_namespace = ? AND r.rd_title = ? ORDER BY r.rd_from LIMIT 100`,
    );
    this.vocab = db.prepare(
      'SearchStore.vocabulary',
      'SELECT sv_term AS term, sv_docs AS docs FROM search_vocab WHERE sv_term >= @prefix AND sv_term < @end ORDER BY sv_term LIMIT @limit',
    );
    this.foldedPrefix = db.prepare(
      'SearchStore.analysedTitlePrefix',
      `SELECT p.page_id AS pageid, p.page_namespace AS ns, p.page_title AS title FROM (
         SELECT st_key, st_page FROM search_title WHERE st_key >= @prefix AND st_key < @end AND st_ns = @ns ORDER BY st_key, st_ns, st_page LIMIT @scan) s
       JOIN page p ON p.page_id = s.st_page ORDER BY s.st_key, s.st_page`,
    );
    this.lemmaPrefix = db.prepare(
      'SearchStore.analysedTitlePrefix',
      `SELECT p.page_id AS pageid, p.page_namespace AS ns, p.page_title AS title FROM (
         SELECT stl_key, stl_page FROM search_title_lemma WHERE stl_key >= @prefix AND stl_key < @end ORDER BY stl_key, stl_page LIMIT @scan) s
       JOIN page p ON p.page_id = s.stl_page WHERE p.page_namespace = @ns ORDER BY s.stl_key, s.stl_page`,
    );
    this.prefix = db.prepare(
      'SearchStore.titlePrefix',
      `SELECT page_id AS pageid, page_namespace AS ns, page_title AS title FROM page
       WHERE page_namespace = @ns AND page_title >= @prefix AND page_title < @end ORDER BY page_title LIMIT @limit OFFSET @offset`,
    );
  }

  async analysedTitlePrefix(
    ns: number,
    prefix: string,
    lemmaKeys: readonly string[],
    offset: number,
    limit: number,
  ): Promise<TitlePrefixRow[]> {
    const scan = (offset + limit) * ANALYSED_PREFIX_SCAN;
    if (prefix !== '') {
      const folded = this.foldedPrefix.all({ prefix, end: prefixEnd(prefix), ns, scan }) as TitlePrefixRow[];
      if (folded.length > 0) return distinctPages(folded, offset, limit);
    }
    const rows: TitlePrefixRow[] = [];
    // each key's pages in key order, the keys' lists one after another
    for (const key of lemmaKeys) rows.push(...(this.lemmaPrefix.all({ prefix: key, end: prefixEnd(key), ns, scan }) as TitlePrefixRow[]));
    return distinctPages(rows, offset, limit);
  }

  async vocabulary(prefixes: readonly string[], limit: number): Promise<VocabularyTerm[][]> {
    return prefixes.map((prefix) => this.vocab.all({ prefix, end: prefixEnd(prefix), limit }) as VocabularyTerm[]);
  }

  async fullText(req: FullTextSearch): Promise<FullTextResult> {
    // plain words: their best pages from the top-k postings, without a walk of every match
    if (this.topK !== null && topKEligible(req.query)) return this.topK.fullText(req);
    const words = compileWords(req.query, req.fields);
    const namespaces = [...new Set(req.namespaces.filter((n) => n >= 0))];
    if (words === null || namespaces.length === 0) return { hits: [], totalHits: req.countHits ? 0 : undefined };
    const key = req.query.titleKey;
    const params = { match: words, namespaces: JSON.stringify(namespaces), limit: req.limit, offset: req.offset };
    const lemmaKeys = req.query.titleLemmaKeys;
    const rows = (
      key === null || req.fields === 'text'
        ? this.ranked.all(params)
        : lemmaKeys.length === 0
          ? this.rankedWithTitle.all({
              match: params.match,
              namespaces: params.namespaces,
              limit: params.limit,
              offset: params.offset,
              key,
            })
          : this.rankedWithLemmaTitle.all({
              match: params.match,
              namespaces: params.namespaces,
              limit: params.limit,
              offset: params.offset,
              key,
              lemmaKeys: JSON.stringify(lemmaKeys),
            })
    ) as Array<TitlePrefixRow & { total: number }>;
    const out: FullTextResult = { hits: rows.map((r) => ({ pageid: r.pageid, ns: r.ns, title: r.title })) };
    if (req.countHits) {
      // the candidates are every match when they are fewer than the bound; past it (or past the last
      // candidate) the matches are counted
      const total = rows.length > 0 ? rows[0].total : RANK_CANDIDATES;
      out.totalHits = total < RANK_CANDIDATES ? total : (this.count.get(compileMatch(req.query, req.fields, namespaces)) as number);
    }
    return out;
  }

  async titleKeyMatches(key: string, namespaces: number[], limit: number): Promise<number[]> {
    const want = new Set(namespaces);
    // one title key has few pages (case variants, redirects): the namespace filter is applied to them
    const rows = this.titleKey.all(key, 500) as Array<{ ns: number; page: number }>;
    return rows
      .filter((r) => want.has(r.ns))
      .slice(0, limit)
      .map((r) => r.page);
  }

  async documents(ids: readonly number[]): Promise<SearchDocument[]> {
    const out: SearchDocument[] = [];
    for (const id of ids) {
      const d = this.doc.get(id) as Omit<SearchDocument, 'redirects'> | undefined;
      if (!d) continue;
      (d as SearchDocument).redirects = this.redirectsTo.all(d.ns, d.title) as SearchDocument['redirects'];
      out.push(d as SearchDocument);
    }
    return out;
  }

  async titlePrefix(ns: number, prefix: string, offset: number, limit: number): Promise<TitlePrefixRow[]> {
    return this.prefix.all({ ns, prefix, end: prefixEnd(prefix), limit, offset }) as TitlePrefixRow[];
  }
}
