/**
 * Full-text search on the tables search-index.ts builds from the staging file's FTS5 index, answering
 * exactly as the SQLite store's `search_index MATCH … bm25(search_index, 0.0, 10.0, 6.0, 1.0, 5.0, 3.0, 0.5)` does:
 *
 *  - matching: the same expression compileMatch (sqlite/search.ts) gives FTS5, as SQL over postings:
 *    a term is a phrase of tokens adjacent in one column of its column filter, the last token maybe a
 *    prefix (binary, as FTS5 compares terms), or any of its lemmas in the lemma columns; groups are AND
 *    of terms minus any excluded term, OR'ed; the namespace filter is the page's `n<ns>` token;
 *  - ranking: the first RANK_CANDIDATES matches by page id, scored with FTS5's BM25 (fts5_aux.c): per
 *    phrase idf = ln((N - n + 0.5) / (n + 0.5)) (at least 1e-6), n the pages holding the phrase within
 *    its column filter (xQueryPhrase); f the column-weighted count of its instances in the page (a
 *    term's phrase and each of its lemmas are phrases of their own);
 *    score = -sum(idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))) in phrase order, D the page's
 *    tokens over all columns. FTS5 reports a phrase's instances only when the phrase's node sits on the
 *    row: the terms of a group that matches the page; a group that does not match (an AND that failed,
 *    a NOT whose exclusion hit) and excluded terms contribute nothing, nor the weight-0 namespace tokens.
 *    All of it is one statement: f is read from the candidates' postings only, and the score is float8
 *    arithmetic in the same IEEE operations and order as the C code (ln() is the C library's log, as
 *    SQLite's); ties order by page id as SQLite's ORDER BY score, id.
 */
import type { PgDb } from './db.js';
import { prefixEnd } from '../sql/prefix-range.js';
import { POS_COLUMN } from './search-index.js';

/** a position's column: position >> COLUMN_SHIFT (search-index.ts) */
const COLUMN_SHIFT = Math.log2(POS_COLUMN);
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
import type { SearchTerm } from '../../wiki/search-query.js';

/** bm25(search_index, 0.0, 10.0, 6.0, 1.0, 5.0, 3.0, 0.5): weights of the columns ns, title, redirects, text, ltitle, lredirects, ltext */
const WEIGHT = [0, 10, 6, 1, 5, 3, 0.5];
const MASK_TITLES = (1 << 1) | (1 << 2);
const MASK_TEXT = 1 << 3;
const MASK_ALL = MASK_TITLES | MASK_TEXT;
/** the lemma columns of a mask's columns */
const LEMMA_SHIFT = 3;
/** FTS5_MAX_TOKEN_SIZE: longer tokens are cut to this many bytes, in the index and in queries */
const MAX_TOKEN_BYTES = 32768;

function fts5Token(t: string): string {
  if (t.length * 3 <= MAX_TOKEN_BYTES) return t;
  const b = Buffer.from(t, 'utf8');
  return b.length <= MAX_TOKEN_BYTES ? t : b.subarray(0, MAX_TOKEN_BYTES).toString('utf8');
}

/** One phrase of the query as FTS5 sees it. */
interface Phrase {
  tokens: string[];
  prefix: boolean;
  /** column filter: bits of columns 1..3 */
  mask: number;
}

/** A term of the query: its phrase, or any of its lemmas (each a phrase of one token in the lemma columns). */
type Term = Phrase[];

interface Group {
  must: Term[];
  not: Term[];
}

/** Parameters collected while the SQL text is written. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown, type: string): string {
    this.values.push(v);
    return `$${this.values.length}::${type}`;
  }
}

/** The condition on posting alias `alias` that it holds the phrase's token `i` (its last a prefix, when the phrase ends in one). */
function phraseTermCondition(p: Phrase, params: Params): (alias: string, i: number) => string {
  const last = p.tokens.length - 1;
  return (alias, i) => {
    if (i === last && p.prefix) {
      const tok = p.tokens[i];
      return `${alias}.sp_term >= ${params.add(tok, 'text')} AND ${alias}.sp_term < ${params.add(prefixEnd(tok), 'text')}`;
    }
    return `${alias}.sp_term = ${params.add(p.tokens[i], 'text')}`;
  };
}

/** SQL yielding the distinct pages (`page`) holding a phrase within its column filter. */
function phrasePages(p: Phrase, params: Params): string {
  const m = params.add(p.mask, 'integer');
  const last = p.tokens.length - 1;
  const termCond = phraseTermCondition(p, params);
  if (p.tokens.length === 1) {
    return `SELECT ${p.prefix ? 'DISTINCT ' : ''}a0.sp_page AS page FROM search_posting a0 WHERE ${termCond('a0', 0)} AND (a0.sp_cols & ${m}) <> 0`;
  }
  const joins: string[] = [];
  const adjacent: string[] = [];
  const cols: string[] = ['a0.sp_cols'];
  for (let i = 1; i <= last; i++) {
    joins.push(`JOIN search_posting a${i} ON a${i}.sp_page = a0.sp_page AND ${termCond(`a${i}`, i)}`);
    adjacent.push(`p + ${i} = ANY(a${i}.sp_pos)`);
    cols.push(`a${i}.sp_cols`);
  }
  return `SELECT DISTINCT a0.sp_page AS page FROM search_posting a0 ${joins.join(' ')}
    WHERE ${termCond('a0', 0)} AND (${cols.join(' & ')} & ${m}) <> 0
      AND EXISTS (SELECT 1 FROM unnest(a0.sp_pos) AS p WHERE ((${m} >> (p >> ${COLUMN_SHIFT})) & 1) = 1 AND ${adjacent.join(' AND ')})`;
}

/** The weight of a position's column (WEIGHT), as SQL over an integer position `x`. */
const WEIGHT_SQL = `CASE x >> ${COLUMN_SHIFT} ${WEIGHT.map((w, col) => `WHEN ${col} THEN ${w}`).join(' ')} END`;

/**
 * SQL yielding, for each candidate page (`c`) holding the phrase within its column filter, the phrase's
 * column-weighted instance count `f`: the positions of its first token in the filter's columns that the
 * other tokens follow, each counted with its column's weight (exact integers: the order of the sum does
 * not matter). Positions of different terms never coincide, so a prefix's several terms count once each.
 */
function phraseFreq(p: Phrase, params: Params): string {
  const m = params.add(p.mask, 'integer');
  const last = p.tokens.length - 1;
  const termCond = phraseTermCondition(p, params);
  const joins: string[] = [];
  const adjacent: string[] = [];
  for (let i = 1; i <= last; i++) {
    joins.push(` JOIN search_posting a${i} ON a${i}.sp_page = a0.sp_page AND ${termCond(`a${i}`, i)}`);
    adjacent.push(` AND x + ${i} = ANY(a${i}.sp_pos)`);
  }
  return `SELECT a0.sp_page AS page, sum(${WEIGHT_SQL}) AS f
    FROM c JOIN search_posting a0 ON a0.sp_page = c.page AND ${termCond('a0', 0)}${joins.join('')} CROSS JOIN unnest(a0.sp_pos) AS x
    WHERE ((${m} >> (x >> ${COLUMN_SHIFT})) & 1) = 1${adjacent.join('')}
    GROUP BY a0.sp_page`;
}

export class PostgresSearchStore implements SearchStore {
  constructor(private readonly db: PgDb) {}

  async fullText(req: FullTextSearch): Promise<FullTextResult> {
    const namespaces = req.namespaces.filter((n) => n >= 0);
    const groups: Group[] = req.query.groups.map((g) => ({
      must: g.must.map((t) =>
        this.term(t, t.titleOnly ? MASK_TITLES : req.fields === 'title' ? MASK_TITLES : req.fields === 'text' ? MASK_TEXT : MASK_ALL),
      ),
      // a page is excluded by an excluded word (or another form of it) anywhere in it
      not: g.not.map((t) => this.term(t, MASK_ALL)),
    }));
    if (groups.length === 0 || namespaces.length === 0) return { hits: [], totalHits: req.countHits ? 0 : undefined };
    const key = req.query.titleKey !== null && req.fields !== 'text' ? req.query.titleKey : null;

    // One statement: the matches (m), their count, the first RANK_CANDIDATES by page id (c), each must
    // phrase's weighted instance count in each candidate (f<i>, read from the candidates' postings only),
    // BM25 over them in SQL, and the requested slice of the order with its page rows.
    const params = new Params();
    // the must phrases in the order of the MATCH expression (BM25 sums them in that order)
    const must = groups.flatMap((g) => g.must.flat());
    const ctes = must.map((p, i) => `s${i} AS MATERIALIZED (${phrasePages(p, params)})`);
    /** a term's absence from page `page` (of alias g) */
    const absent = (t: Term, alias: string) =>
      `NOT EXISTS (SELECT 1 FROM (${t.map((p) => phrasePages(p, params)).join(' UNION ALL ')}) x WHERE x.page = ${alias}.page)`;
    /** per group, per must term: the indexes of its phrases in `must` */
    let k = 0;
    const phraseIds = groups.map((g) => g.must.map((t) => t.map(() => k++)));
    const termPages = (ids: number[]) => ids.map((i) => `SELECT page FROM s${i}`).join(' UNION ');
    const groupSql = groups.map((g, gi) => {
      const own = phraseIds[gi];
      const conds = own.slice(1).map((ids) => `g.page IN (${termPages(ids)})`);
      for (const t of g.not) conds.push(absent(t, 'g'));
      return `SELECT g.page FROM (${termPages(own[0])}) g${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''}`;
    });
    const ns = params.add(namespaces, 'bigint[]');
    // FTS5's idf: ln((N - n + 0.5) / (n + 0.5)), n the pages holding the phrase within its filter, at least 1e-6
    const idf = must.map((_p, i) => {
      const v = `(SELECT ln((((SELECT ss_rows FROM search_size) - count(*))::float8 + 0.5) / (count(*)::float8 + 0.5)) FROM s${i})`;
      return `(SELECT CASE WHEN v <= 0.0 THEN 1e-6::float8 ELSE v END FROM (SELECT ${v} AS v) y) AS idf${i}`;
    });
    // per candidate: the weighted instance counts, and whether each group matches it (FTS5 reports the
    // instances of a phrase only when its group matches the row)
    const matchCols = groups.map((g, gi) => {
      const found = phraseIds[gi].map((ids) => `(${ids.map((i) => `COALESCE(f${i}.f, 0) > 0`).join(' OR ')})`).join(' AND ');
      return g.not.length
        ? `CASE WHEN ${found} THEN ${g.not.map((t) => absent(t, 'c')).join(' AND ')} ELSE false END AS g${gi}`
        : `${found} AS g${gi}`;
    });
    const groupOf = phraseIds.flatMap((terms, gi) => terms.flat().map(() => gi));
    // score = -sum(idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))) in phrase order, in the
    // same IEEE operations as fts5_aux.c (k1 = 1.2, b = 0.75); a phrase of a group that does not match adds 0
    const K1 = '1.2::float8';
    const B = '0.75::float8';
    const terms = must.map(
      (_p, i) =>
        `CASE WHEN g${groupOf[i]} THEN idf${i} * ((f${i} * (${K1} + 1.0::float8)) / (f${i} + ${K1} * (1.0::float8 - ${B} + ${B} * d / avgdl))) ELSE 0.0::float8 END`,
    );
    const score = terms.reduce((acc, t) => `(${acc} + ${t})`, '0.0::float8');
    const lemmaKeys = key !== null ? req.query.titleLemmaKeys : [];
    const exact =
      key === null
        ? '0'
        : `CASE WHEN c.page IN (SELECT st_page FROM search_title WHERE st_key = ${params.add(key, 'text')}) THEN 2${
            lemmaKeys.length
              ? ` WHEN c.page IN (SELECT stl_page FROM search_title_lemma WHERE stl_key = ANY(${params.add(lemmaKeys, 'text[]')})) THEN 1`
              : ''
          } ELSE 0 END`;
    const text = `WITH ${ctes.join(', ')},
      m AS MATERIALIZED (SELECT u.page, d.sd_len AS len FROM (${groupSql.join(' UNION ')}) u JOIN search_doc d ON d.sd_page = u.page WHERE d.sd_ns = ANY(${ns})),
      c AS MATERIALIZED (SELECT page, len FROM m ORDER BY page LIMIT ${RANK_CANDIDATES}),
      ${must.map((p, i) => `f${i} AS MATERIALIZED (${phraseFreq(p, params)})`).join(',\n      ')},
      kk AS MATERIALIZED (SELECT ${idf.join(', ')}, (SELECT ss_tokens::float8 / ss_rows::float8 FROM search_size) AS avgdl),
      r AS (SELECT c.page, c.len::float8 AS d, ${exact} AS exact, ${must.map((_p, i) => `COALESCE(f${i}.f, 0)::float8 AS f${i}`).join(', ')}, ${matchCols.join(', ')}
        FROM c ${must.map((_p, i) => `LEFT JOIN f${i} ON f${i}.page = c.page`).join(' ')}),
      h AS (SELECT r.page, r.exact, -1.0::float8 * ${score} AS score FROM r CROSS JOIN kk)
      SELECT ${req.countHits ? '(SELECT count(*) FROM m)' : 'NULL::bigint'} AS total, p.page_id AS pageid, p.page_namespace AS ns, p.page_title AS title
      FROM (SELECT 1) one
        LEFT JOIN LATERAL (SELECT page, exact, score FROM h ORDER BY exact DESC, score, page LIMIT ${params.add(Math.max(0, req.limit), 'bigint')} OFFSET ${params.add(Math.max(0, req.offset), 'bigint')}) x ON true
        LEFT JOIN page p ON p.page_id = x.page
      ORDER BY x.exact DESC, x.score, x.page`;
    const rows = await this.db.all<{ total: number | null; pageid: number | null; ns: number; title: string }>(
      'SearchStore.fullText',
      text,
      params.values,
    );
    const out: FullTextResult = {
      hits: rows.filter((r) => r.pageid !== null).map((r) => ({ pageid: r.pageid!, ns: r.ns, title: r.title })),
    };
    if (req.countHits) out.totalHits = Number(rows[0].total);
    return out;
  }

  /** A term's phrase within `mask`, then each of its lemmas within the lemma columns of `mask`. */
  private term(t: SearchTerm, mask: number): Term {
    const out: Term = [this.phrase(t, mask)];
    for (const l of t.lemmas) out.push({ tokens: [fts5Token(l)], prefix: false, mask: mask << LEMMA_SHIFT });
    return out;
  }

  private phrase(t: SearchTerm, mask: number): Phrase {
    return { tokens: t.tokens.map(fts5Token), prefix: t.prefix, mask };
  }

  async titleKeyMatches(key: string, namespaces: number[], limit: number): Promise<number[]> {
    const want = new Set(namespaces);
    // one title key has few pages (case variants, redirects): the namespace filter is applied to them
    const rows = await this.db.all<{ ns: number; page: number }>(
      'SearchStore.titleKeyMatches',
      'SELECT st_ns AS ns, st_page AS page FROM search_title WHERE st_key = $1 ORDER BY st_ns, st_page LIMIT 500',
      [key],
    );
    return rows
      .filter((r) => want.has(r.ns))
      .slice(0, limit)
      .map((r) => r.page);
  }

  async documents(ids: readonly number[]): Promise<SearchDocument[]> {
    if (ids.length === 0) return [];
    const [docs, redirects] = await Promise.all([
      this.db.all(
        'SearchStore.documents',
        `SELECT x.ord, p.page_id AS pageid, p.page_namespace AS ns, p.page_title AS title, p.page_len AS length,
           p.page_touched AS touched, p.page_content_model AS "contentModel", t.old_text AS text
         FROM unnest($1::bigint[]) WITH ORDINALITY AS x(id, ord) JOIN page p ON p.page_id = x.id JOIN page_text t ON t.page_id = p.page_id
         ORDER BY x.ord`,
        [ids],
      ),
      this.db.all<{ target: number; ns: number; dbkey: string }>(
        'SearchStore.documents',
        `SELECT p.page_id AS target, r.ns, r.dbkey FROM page p CROSS JOIN LATERAL (
           SELECT rp.page_namespace AS ns, rp.page_title AS dbkey, rd.rd_from FROM redirect rd JOIN page rp ON rp.page_id = rd.rd_from
           WHERE rd.rd_namespace = p.page_namespace AND rd.rd_title = p.page_title ORDER BY rd.rd_from LIMIT 100) r
         WHERE p.page_id = ANY($1::bigint[]) ORDER BY p.page_id, r.rd_from`,
        [[...new Set(ids)]],
      ),
    ]);
    const redirectsOf = new Map<number, SearchDocument['redirects']>();
    for (const r of redirects) {
      let list = redirectsOf.get(r.target);
      if (!list) redirectsOf.set(r.target, (list = []));
      list.push({ ns: r.ns, dbkey: r.dbkey });
    }
    return docs.map((d) => ({
      pageid: d.pageid,
      ns: d.ns,
      title: d.title,
      length: d.length,
      touched: d.touched,
      contentModel: d.contentModel,
      text: d.text,
      redirects: redirectsOf.get(d.pageid) ?? [],
    }));
  }

  async analysedTitlePrefix(
    ns: number,
    prefix: string,
    lemmaKeys: readonly string[],
    offset: number,
    limit: number,
  ): Promise<TitlePrefixRow[]> {
    const scan = (offset + limit) * ANALYSED_PREFIX_SCAN;
    const keys = prefix === '' ? [] : [prefix];
    // the folded keys' rows (tier 1) and the lemma keys' (tier 2, each key's in key order) in one statement
    const rows = await this.db.all<TitlePrefixRow & { tier: number }>(
      'SearchStore.analysedTitlePrefix',
      `SELECT 1 AS tier, 0::bigint AS i, s.st_key AS k, p.page_id AS pageid, p.page_namespace AS ns, p.page_title AS title FROM (
         SELECT st_key, st_page FROM search_title WHERE st_key >= $1 AND st_key < $2 AND st_ns = $3 AND $1 <> '' ORDER BY st_key, st_ns, st_page LIMIT $4) s
       JOIN page p ON p.page_id = s.st_page
       UNION ALL
       SELECT 2 AS tier, x.i, l.stl_key AS k, p.page_id AS pageid, p.page_namespace AS ns, p.page_title AS title
       FROM unnest($5::text[], $6::text[]) WITH ORDINALITY AS x(prefix, stop, i)
       CROSS JOIN LATERAL (SELECT stl_key, stl_page FROM search_title_lemma WHERE stl_key >= x.prefix AND stl_key < x.stop ORDER BY stl_key, stl_page LIMIT $4) l
       JOIN page p ON p.page_id = l.stl_page WHERE p.page_namespace = $3
       ORDER BY tier, i, k, pageid`,
      [keys[0] ?? '', prefixEnd(keys[0] ?? ''), ns, scan, [...lemmaKeys], lemmaKeys.map(prefixEnd)],
    );
    const folded = rows.filter((r) => r.tier === 1);
    const chosen = folded.length > 0 ? folded : rows.filter((r) => r.tier === 2);
    return distinctPages(
      chosen.map((r) => ({ pageid: r.pageid, ns: r.ns, title: r.title })),
      offset,
      limit,
    );
  }

  async vocabulary(prefixes: readonly string[], limit: number): Promise<VocabularyTerm[][]> {
    if (prefixes.length === 0) return [];
    const rows = await this.db.all<{ i: number; term: string; docs: number }>(
      'SearchStore.vocabulary',
      `SELECT x.i::int AS i, v.sv_term AS term, v.sv_docs AS docs
       FROM unnest($1::text[], $2::text[]) WITH ORDINALITY AS x(prefix, stop, i)
       CROSS JOIN LATERAL (SELECT sv_term, sv_docs FROM search_vocab WHERE sv_term >= x.prefix AND sv_term < x.stop ORDER BY sv_term LIMIT $3) v
       ORDER BY x.i, v.sv_term`,
      [prefixes, prefixes.map(prefixEnd), limit],
    );
    const out: VocabularyTerm[][] = prefixes.map(() => []);
    for (const r of rows) out[r.i - 1].push({ term: r.term, docs: Number(r.docs) });
    return out;
  }

  async titlePrefix(ns: number, prefix: string, offset: number, limit: number): Promise<TitlePrefixRow[]> {
    // a plain array (the client's result is a subclass)
    return [
      ...(await this.db.all<TitlePrefixRow>(
        'SearchStore.titlePrefix',
        `SELECT page_id AS pageid, page_namespace AS ns, page_title AS title FROM page
       WHERE page_namespace = $1 AND page_title >= $2 AND page_title < $3 ORDER BY page_title LIMIT $4 OFFSET $5`,
        [ns, prefix, prefixEnd(prefix), limit, offset],
      )),
    ];
  }
}
