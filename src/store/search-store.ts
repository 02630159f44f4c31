/**
 * Full-text and title-prefix search (list=search, list=prefixsearch, action=opensearch). The SQLite
 * store answers from an FTS5 index built at import; another database implements the same methods with
 * its own full-text search over the same folded text (src/wiki/search-text.ts).
 */
import type { ParsedSearch } from '../wiki/search-query.js';

/**
 * BM25 ranks at most this many matches, the first by page id (in both stores, so that they answer
 * alike): a word on most pages of a big wiki would otherwise be scored on every one of them per request.
 * Below it (nearly every query) the ranking is exact; above it, the best of the first RANK_CANDIDATES
 * matches are shown (totalhits stays exact). SQLite's top-k path (sqlite/search-topk.ts) ranks the
 * queries of plain words over all their matches instead.
 */
export const RANK_CANDIDATES = 10000;

export interface FullTextSearch {
  query: ParsedSearch;
  /** namespaces to search (at least one) */
  namespaces: number[];
  /** 'all': titles, redirect titles and text together; 'title': titles and redirect titles; 'text': text */
  fields: 'all' | 'title' | 'text';
  offset: number;
  limit: number;
  /** also count every match (searchinfo.totalhits) */
  countHits: boolean;
}

export interface FullTextResult {
  /** best first: pages whose title (or a redirect's) is the whole query, then by BM25 */
  hits: TitlePrefixRow[];
  totalHits?: number;
}

/** What a result's snippets and sizes are made from. */
export interface SearchDocument {
  pageid: number;
  ns: number;
  /** DB key */
  title: string;
  /** bytes of the latest text */
  length: number;
  /** TS_MW of the latest revision */
  touched: string;
  contentModel: string;
  text: string;
  /** redirects to this page */
  redirects: Array<{ ns: number; dbkey: string }>;
}

export interface TitlePrefixRow {
  pageid: number;
  ns: number;
  /** DB key */
  title: string;
}

export interface SearchStore {
  /** Ranked matches of a parsed query: an FTS index lookup, `limit` rows from `offset`. */
  fullText(req: FullTextSearch): Promise<FullTextResult>;
  /**
   * Pages (of these namespaces) whose title, or the title of a redirect to them, folds to `key`
   * (near match ignoring case, diacritics and apostrophe variants); an index seek, at most `limit`.
   */
  titleKeyMatches(key: string, namespaces: number[], limit: number): Promise<number[]>;
  /** The pages of these ids (missing ones left out), in the order given. */
  documents(ids: readonly number[]): Promise<SearchDocument[]>;
  /**
   * Pages of one namespace whose DB key starts with `prefix` (binary), in title order: `limit` rows
   * after skipping `offset` (TitlePrefixSearch's OFFSET, walked along the title index).
   */
  titlePrefix(ns: number, prefix: string, offset: number, limit: number): Promise<TitlePrefixRow[]>;
  /**
   * Terms of the index's vocabulary (titles, redirect titles, text) starting with each prefix, in term
   * order, at most `limit` a prefix, with the number of pages holding them: a bounded range each.
   */
  vocabulary(prefixes: readonly string[], limit: number): Promise<VocabularyTerm[][]>;
  /**
   * Pages of namespace `ns` whose title, or a redirect's, folds to a key starting with `prefix` -- or,
   * when none does, whose lemma key starts with one of `lemmaKeys` -- in key order, each page once:
   * `limit` rows after skipping `offset`, from a bounded walk of the key index (ANALYSED_PREFIX_SCAN).
   */
  analysedTitlePrefix(ns: number, prefix: string, lemmaKeys: readonly string[], offset: number, limit: number): Promise<TitlePrefixRow[]>;
}

/** how many index entries an analysed title prefix walks per row it answers (a page has few keys: title and redirects) */
export const ANALYSED_PREFIX_SCAN = 4;

/** The first occurrence of each page in key order, `limit` of them after `offset`. */
export function distinctPages(rows: readonly TitlePrefixRow[], offset: number, limit: number): TitlePrefixRow[] {
  const seen = new Set<number>();
  const out: TitlePrefixRow[] = [];
  for (const r of rows) {
    if (seen.has(r.pageid)) continue;
    seen.add(r.pageid);
    if (seen.size > offset) out.push(r);
    if (out.length === limit) break;
  }
  return out;
}

export interface VocabularyTerm {
  term: string;
  docs: number;
}
