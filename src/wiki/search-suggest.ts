/**
 * srinfo=suggestion's "did you mean" from the index's own vocabulary: a query of plain words that found
 * nothing gets the query with each word the index lacks (in any of its forms) replaced by the closest
 * term of the index that starts like it -- fewest edits (Levenshtein), then the most pages, then term
 * order. Words are compared folded and analysed as the index holds them (search-text.ts, morphology.ts).
 */
import { distance } from 'fastest-levenshtein';
import type { LemmaMemo } from './morphology.js';

/** a term of the index's vocabulary and the number of pages holding it */
export interface VocabularyTerm {
  term: string;
  docs: number;
}

/** candidates of a word: the vocabulary terms sharing its first characters */
export const SUGGEST_PREFIX_CHARS = 2;
/** at most this many candidates a word (a bounded range of the vocabulary) */
export const SUGGEST_CANDIDATES = 2000;

/** The vocabulary prefix whose terms are a word's candidates. */
export function suggestionPrefix(word: string): string {
  return [...word].slice(0, SUGGEST_PREFIX_CHARS).join('');
}

/** the most edits a suggestion may make in a word of this many characters */
function maxEdits(length: number): number {
  return length <= 4 ? 1 : 2;
}

/**
 * The suggested query: `words` (the query's folded tokens) with the unknown ones replaced, or null when
 * every word is known or an unknown one has no close term. `candidates[i]` are the vocabulary terms
 * starting with suggestionPrefix(words[i]).
 */
export function suggestQuery(words: readonly string[], candidates: readonly VocabularyTerm[][], memo: LemmaMemo): string | null {
  let changed = false;
  const out: string[] = [];
  for (const [i, word] of words.entries()) {
    const terms = candidates[i] ?? [];
    const lemmas = memo.lemmas(word);
    // a word the index holds, or holds in another form (which shares the word's stem), stays
    const stem = word.slice(0, Math.max(SUGGEST_PREFIX_CHARS, word.length - 3));
    const known = terms.some(
      (t) => t.term === word || (lemmas.length > 0 && t.term.startsWith(stem) && memo.lemmas(t.term).some((l) => lemmas.includes(l))),
    );
    if (known) {
      out.push(word);
      continue;
    }
    const limit = maxEdits([...word].length);
    let best: VocabularyTerm | null = null;
    let bestEdits = limit + 1;
    for (const t of terms) {
      const d = distance(word, t.term);
      if (d < bestEdits || (d === bestEdits && best !== null && t.docs > best.docs)) {
        best = t;
        bestEdits = d;
      }
    }
    if (best === null) return null;
    out.push(best.term);
    changed = true;
  }
  return changed ? out.join(' ') : null;
}
