/**
 * The search syntax MediaWiki users type (CirrusSearch's basics): words (all must match), "phrases",
 * -exclusion (or !exclusion), word* prefixes, intitle:word / intitle:"phrase", and OR between groups.
 * Parsed into engine-neutral terms of folded tokens (see search-text.ts); a store compiles them into
 * its own full-text syntax, so nothing the user types ever reaches an engine's parser as syntax.
 *
 * Anything unusual is read leniently, as a search box does: an unbalanced quote runs to the end, a lone
 * operator or `*` is no term, characters that are not letters or digits separate words.
 *
 * A word typed as it is (not quoted, not a prefix) also matches the other forms of its lemmas
 * (morphology.ts): `Києві` finds Київ, `містом` місто and міста; quoted words and phrases match as typed.
 */
import { searchTokens } from './search-text.js';
import { LemmaMemo, lemmaKeys } from './morphology.js';

export interface SearchTerm {
  /** folded tokens; several make a phrase */
  tokens: string[];
  /** the last token is a prefix (`word*`) */
  prefix: boolean;
  /** intitle: searches titles and redirect titles only */
  titleOnly: boolean;
  /** the lemmas whose other forms the term also matches (sorted; none for phrases, prefixes and quoted words) */
  lemmas: readonly string[];
}

/** Terms that must all match, and terms none of which may match. */
export interface SearchGroup {
  must: SearchTerm[];
  not: SearchTerm[];
}

export interface ParsedSearch {
  /** alternatives joined by OR; a group without a `must` term matches nothing and is left out */
  groups: SearchGroup[];
  /** folded text of the whole query when it is plain words (exact-title boost and near match), else null */
  titleKey: string | null;
  /** the lemma keys of titleKey (morphology.ts lemmaKeys): titles of other forms of its words come next */
  titleLemmaKeys: string[];
}

/** Longer queries (a pasted page) are answered with nothing rather than an unbounded index walk. */
export const MAX_TERMS = 64;
export const MAX_PHRASE_TOKENS = 64;

interface RawTerm {
  text: string;
  negated: boolean;
  titleOnly: boolean;
  quoted: boolean;
}

function scan(query: string): Array<RawTerm | 'OR'> {
  const out: Array<RawTerm | 'OR'> = [];
  let i = 0;
  const n = query.length;
  const isSpace = (c: string) => /\s/u.test(c);
  while (i < n) {
    while (i < n && isSpace(query[i])) i++;
    if (i >= n) break;
    let negated = false;
    let titleOnly = false;
    if ((query[i] === '-' || query[i] === '!') && i + 1 < n && !isSpace(query[i + 1])) {
      negated = true;
      i++;
    }
    if (query.slice(i, i + 8).toLowerCase() === 'intitle:' && i + 8 < n && !isSpace(query[i + 8])) {
      titleOnly = true;
      i += 8;
    }
    if (query[i] === '"') {
      const close = query.indexOf('"', i + 1);
      const end = close < 0 ? n : close;
      let text = query.slice(i + 1, end);
      i = close < 0 ? n : close + 1;
      // "phrase"* : the phrase's last word is a prefix
      if (query[i] === '*') {
        text += '*';
        i++;
      }
      out.push({ text, negated, titleOnly, quoted: true });
      continue;
    }
    const start = i;
    while (i < n && !isSpace(query[i])) i++;
    const text = query.slice(start, i);
    if (!negated && !titleOnly && text === 'OR') out.push('OR');
    else if (!negated && !titleOnly && text === 'AND') continue;
    else out.push({ text, negated, titleOnly, quoted: false });
  }
  return out;
}

function toTerm(raw: RawTerm, memo: LemmaMemo): SearchTerm | null {
  const prefix = raw.text.endsWith('*');
  const tokens = searchTokens(raw.text);
  if (tokens.length === 0 || tokens.length > MAX_PHRASE_TOKENS) return null;
  const lemmas = !raw.quoted && !prefix && tokens.length === 1 ? memo.lemmas(tokens[0]) : [];
  return { tokens, prefix, titleOnly: raw.titleOnly, lemmas };
}

/** Parse a query; `null` when it holds more than MAX_TERMS terms. */
export function parseSearch(query: string): ParsedSearch | null {
  const groups: SearchGroup[] = [];
  let current: SearchGroup = { must: [], not: [] };
  let count = 0;
  let plain = true;
  let quoted = false;
  const memo = new LemmaMemo();
  for (const item of scan(query)) {
    if (item === 'OR') {
      plain = false;
      if (current.must.length) groups.push(current);
      current = { must: [], not: [] };
      continue;
    }
    const term = toTerm(item, memo);
    if (!term) continue;
    if (++count > MAX_TERMS) return null;
    if (item.quoted) quoted = true;
    if (item.negated || term.prefix || term.titleOnly) plain = false;
    (item.negated ? current.not : current.must).push(term);
  }
  if (current.must.length) groups.push(current);
  const titleKey = plain && groups.length === 1 ? groups[0].must.flatMap((t) => t.tokens).join(' ') : null;
  // a quoted query asks for its words as typed
  const titleLemmaKeys = titleKey === null || quoted ? [] : lemmaKeys(titleKey, memo).filter((k) => k !== titleKey);
  return { groups, titleKey, titleLemmaKeys };
}

/** Every positive term of the query: what snippets highlight. */
export function highlightTerms(q: ParsedSearch): Array<{ token: string; prefix: boolean }> {
  const out: Array<{ token: string; prefix: boolean }> = [];
  for (const g of q.groups) {
    for (const t of g.must) t.tokens.forEach((token, i) => out.push({ token, prefix: t.prefix && i === t.tokens.length - 1 }));
  }
  return out;
}

/** The lemmas of the query's positive words: snippets mark their other forms too. */
export function highlightLemmas(q: ParsedSearch): Set<string> {
  const out = new Set<string>();
  for (const g of q.groups) for (const t of g.must) for (const l of t.lemmas) out.add(l);
  return out;
}
