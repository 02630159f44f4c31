/**
 * Full-text search on the tables search-index.ts builds from the staging file's FTS5 index, answering
 * exactly as the SQLite store's `search_index MATCH … bm25(search_index, 0.0, 10.0, 6.0, 1.0)` does:
 *
 *  - matching: the same expression compileMatch (sqlite/search.ts) gives FTS5, as SQL over postings:
 *    a term is a phrase of tokens adjacent in one column of its column filter, the last token maybe a
 *    prefix (binary, as FTS5 compares terms); groups are AND of terms minus any excluded term, OR'ed;
 *    the namespace filter is the page's `n<ns>` token;
 *  - ranking: the first RANK_CANDIDATES matches by page id, scored with FTS5's BM25 (fts5_aux.c): per
 *    phrase idf = ln((N - n + 0.5) / (n + 0.5)) (at least 1e-6), n the pages holding the phrase within
 *    its column filter (xQueryPhrase); f the column-weighted count of its instances in the page;
 *    score = -sum(idf * f * (k1 + 1) / (f + k1 * (1 - b + b * D / avgdl))) in phrase order, D the page's
 *    tokens over all columns. FTS5 reports a phrase's instances only when the phrase's node sits on the
 *    row: the terms of a group that matches the page; a group that does not match (an AND that failed,
 *    a NOT whose exclusion hit) and excluded terms contribute nothing, nor the weight-0 namespace tokens.
 *    The logarithm is PostgreSQL's ln() (the C library's log, as SQLite's), the rest is the same IEEE
 *    arithmetic in the same order in JS; ties order by page id as SQLite's ORDER BY score, id.
 */
import type { PgDb } from './db.js';
import { prefixEnd } from '../prefix-range.js';
import { POS_COLUMN } from './search-index.js';
import { RANK_CANDIDATES, type FullTextResult, type FullTextSearch, type SearchDocument, type SearchStore, type TitlePrefixRow } from '../search-store.js';
import type { SearchTerm } from '../../wiki/search-query.js';

/** bm25(search_index, 0.0, 10.0, 6.0, 1.0): weights of the columns ns, title, redirects, text */
const WEIGHT = [0, 10, 6, 1];
const MASK_TITLES = (1 << 1) | (1 << 2);
const MASK_TEXT = 1 << 3;
const MASK_ALL = MASK_TITLES | MASK_TEXT;
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

interface Group {
  must: Phrase[];
  not: Phrase[];
}

/** Parameters collected while the SQL text is written. */
class Params {
  readonly values: unknown[] = [];
  add(v: unknown, type: string): string {
    this.values.push(v);
    return `$${this.values.length}::${type}`;
  }
}

/** SQL yielding the distinct pages (`page`) holding a phrase within its column filter. */
function phrasePages(p: Phrase, params: Params): string {
  const m = params.add(p.mask, 'integer');
  const last = p.tokens.length - 1;
  const termCond = (alias: string, i: number) => {
    if (i === last && p.prefix) {
      const tok = p.tokens[i];
      return `${alias}.sp_term >= ${params.add(tok, 'text')} AND ${alias}.sp_term < ${params.add(prefixEnd(tok), 'text')}`;
    }
    return `${alias}.sp_term = ${params.add(p.tokens[i], 'text')}`;
  };
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
      AND EXISTS (SELECT 1 FROM unnest(a0.sp_pos) AS p WHERE ((${m} >> (p >> 28)) & 1) = 1 AND ${adjacent.join(' AND ')})`;
}

/** The positions where a phrase starts within its column filter, from one page's postings. */
function instances(p: Phrase, positionsOf: (token: string, prefix: boolean) => number[]): number[] {
  const first = positionsOf(p.tokens[0], p.prefix && p.tokens.length === 1).filter((x) => (p.mask >> Math.floor(x / POS_COLUMN)) & 1);
  if (p.tokens.length === 1) return first;
  const next = p.tokens.slice(1).map((t, i) => new Set(positionsOf(t, p.prefix && i === p.tokens.length - 2)));
  return first.filter((x) => next.every((s, i) => s.has(x + i + 1)));
}

export class PostgresSearchStore implements SearchStore {
  constructor(private readonly db: PgDb) {}

  async fullText(req: FullTextSearch): Promise<FullTextResult> {
    const namespaces = req.namespaces.filter((n) => n >= 0);
    const groups: Group[] = req.query.groups.map((g) => ({
      must: g.must.map((t) => this.phrase(t, t.titleOnly ? MASK_TITLES : req.fields === 'title' ? MASK_TITLES : req.fields === 'text' ? MASK_TEXT : MASK_ALL)),
      // a page is excluded by an excluded word anywhere in it
      not: g.not.map((t) => this.phrase(t, MASK_ALL)),
    }));
    if (groups.length === 0 || namespaces.length === 0) return { hits: [], totalHits: req.countHits ? 0 : undefined };
    const key = req.query.titleKey !== null && req.fields !== 'text' ? req.query.titleKey : null;

    // 1. the matches: their count, the first RANK_CANDIDATES by page id, and each phrase's idf
    const params = new Params();
    const must = groups.flatMap((g) => g.must);
    const ctes = must.map((p, i) => `s${i} AS MATERIALIZED (${phrasePages(p, params)})`);
    let k = 0;
    const groupSql = groups.map((g) => {
      const own = g.must.map(() => k++);
      const conds = own.slice(1).map((i) => `g.page IN (SELECT page FROM s${i})`);
      for (const p of g.not) conds.push(`NOT EXISTS (SELECT 1 FROM (${phrasePages(p, params)}) x WHERE x.page = g.page)`);
      return `SELECT g.page FROM s${own[0]} g${conds.length ? ` WHERE ${conds.join(' AND ')}` : ''}`;
    });
    const ns = params.add(namespaces, 'bigint[]');
    const idf = must.map(
      (_p, i) => `(SELECT ln((((SELECT ss_rows FROM search_size) - count(*))::float8 + 0.5) / (count(*)::float8 + 0.5)) FROM s${i})`,
    );
    const text = `WITH ${ctes.join(', ')},
      m AS MATERIALIZED (SELECT u.page FROM (${groupSql.join(' UNION ')}) u JOIN search_doc d ON d.sd_page = u.page WHERE d.sd_ns = ANY(${ns}))
      SELECT ${req.countHits ? '(SELECT count(*) FROM m)' : 'NULL'} AS total,
        ARRAY(SELECT page FROM m ORDER BY page LIMIT ${RANK_CANDIDATES})::text[] AS candidates,
        ${key !== null ? `ARRAY(SELECT st_page FROM search_title WHERE st_key = ${params.add(key, 'text')})::text[]` : 'NULL'} AS exact,
        ARRAY[${idf.join(', ')}]::float8[] AS idf,
        (SELECT ss_tokens::float8 / ss_rows::float8 FROM search_size) AS avgdl`;
    const head = (await this.db.all('SearchStore.fullText', text, params.values))[0];
    const candidates = (head.candidates as string[]).map(Number);
    const out: FullTextResult = { hits: [] };
    if (req.countHits) out.totalHits = Number(head.total);
    if (candidates.length === 0 || req.limit <= 0) return out;
    const idfs = (head.idf as number[]).map((x) => (x <= 0.0 ? 1e-6 : x));
    const exact = new Set(((head.exact as string[] | null) ?? []).map(Number));

    // 2. the postings of the query's tokens in the candidates, and their lengths: BM25 in JS
    const exactTerms = new Set<string>();
    const prefixes: string[] = [];
    for (const g of groups) {
      for (const p of [...g.must, ...g.not]) {
        p.tokens.forEach((t, i) => (p.prefix && i === p.tokens.length - 1 ? prefixes.includes(t) || prefixes.push(t) : exactTerms.add(t)));
      }
    }
    const pp = new Params();
    const pages = pp.add(candidates, 'bigint[]');
    const parts = [`SELECT sp_term AS term, -1 AS r, sp_page AS page, sp_pos AS pos FROM search_posting WHERE sp_term = ANY(${pp.add([...exactTerms], 'text[]')}) AND sp_page = ANY(${pages})`];
    prefixes.forEach((t, i) =>
      parts.push(`SELECT NULL, ${i}, sp_page, sp_pos FROM search_posting WHERE sp_term >= ${pp.add(t, 'text')} AND sp_term < ${pp.add(prefixEnd(t), 'text')} AND sp_page = ANY(${pages})`),
    );
    const [postings, lengths] = await Promise.all([
      this.db.all<{ term: string | null; r: number; page: number; pos: number[] }>('SearchStore.fullText', parts.join(' UNION ALL '), pp.values),
      this.db.all<{ page: number; len: number }>('SearchStore.fullText', 'SELECT sd_page AS page, sd_len AS len FROM search_doc WHERE sd_page = ANY($1::bigint[])', [candidates]),
    ]);
    const byPage = new Map<number, { exact: Map<string, number[]>; prefix: Map<number, number[]> }>();
    for (const r of postings) {
      let e = byPage.get(r.page);
      if (!e) byPage.set(r.page, (e = { exact: new Map(), prefix: new Map() }));
      if (r.r < 0) e.exact.set(r.term!, r.pos);
      else e.prefix.set(r.r, [...(e.prefix.get(r.r) ?? []), ...r.pos].sort((a, b) => a - b));
    }
    const lengthOf = new Map(lengths.map((l) => [l.page, l.len]));
    const avgdl = head.avgdl as number;
    const k1 = 1.2;
    const b = 0.75;
    const scored = candidates.map((id) => {
      const e = byPage.get(id);
      const positionsOf = (t: string, prefix: boolean) => (prefix ? e?.prefix.get(prefixes.indexOf(t)) : e?.exact.get(t)) ?? [];
      const D = lengthOf.get(id) ?? 0;
      let score = 0.0;
      let i = 0;
      for (const g of groups) {
        const found = g.must.map((p) => instances(p, positionsOf));
        const matches = found.every((f) => f.length > 0) && !g.not.some((p) => instances(p, positionsOf).length > 0);
        for (const f of found) {
          const idf = idfs[i++];
          if (!matches) continue;
          let freq = 0.0;
          for (const x of f) freq += WEIGHT[Math.floor(x / POS_COLUMN)];
          score += idf * ((freq * (k1 + 1.0)) / (freq + k1 * (1 - b + (b * D) / avgdl)));
        }
      }
      return { id, score: -1.0 * score, exact: exact.has(id) };
    });
    scored.sort((x, y) => (x.exact !== y.exact ? (x.exact ? -1 : 1) : x.score < y.score ? -1 : x.score > y.score ? 1 : x.id - y.id));
    const slice = scored.slice(req.offset, req.offset + req.limit).map((s) => s.id);
    if (slice.length === 0) return out;
    const rows = await this.db.all<TitlePrefixRow>(
      'SearchStore.fullText',
      'SELECT page_id AS pageid, page_namespace AS ns, page_title AS title FROM page WHERE page_id = ANY($1::bigint[])',
      [slice],
    );
    const byId = new Map(rows.map((r) => [r.pageid, r]));
    out.hits = slice.map((id) => byId.get(id)).filter((r): r is TitlePrefixRow => r !== undefined);
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
    return rows.filter((r) => want.has(r.ns)).slice(0, limit).map((r) => r.page);
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
    return docs.map(({ ord: _ord, ...d }) => ({ ...d, redirects: redirectsOf.get(d.pageid) ?? [] }) as SearchDocument);
  }

  async titlePrefix(ns: number, prefix: string, offset: number, limit: number): Promise<TitlePrefixRow[]> {
    // a plain array (the client's result is a subclass)
    return [...(await this.db.all<TitlePrefixRow>(
      'SearchStore.titlePrefix',
      `SELECT page_id AS pageid, page_namespace AS ns, page_title AS title FROM page
       WHERE page_namespace = $1 AND page_title >= $2 AND page_title < $3 ORDER BY page_title LIMIT $4 OFFSET $5`,
      [ns, prefix, prefixEnd(prefix), limit, offset],
    ))];
  }
}
