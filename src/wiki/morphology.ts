/**
 * Ukrainian morphology for search: the lemmas (dictionary forms) of a folded search token, read from the
 * Ukrainian hunspell dictionary (`dictionary-uk`, generated from brown-uk/dict_uk, the dictionary behind
 * VESUM and LanguageTool's Ukrainian). Every entry of its `.dic` is a lemma with the flags of the suffix
 * rules that make its other forms (місто/QSr: міста, місту, містом, …); a form's lemmas are found as
 * hunspell's stemmer finds them: for each rule whose appended ending the form has, the form with the ending
 * replaced by the rule's stripped text is a lemma when the dictionary holds it with that rule's flag and
 * the rule's condition holds on it. The `.aff` file is parsed by `hunspell-reader`.
 *
 * The dictionary's suffix rules carry no continuation classes and it has no prefix rules, so one rule
 * per form is all there is to undo. Tokens are folded (search-text.ts): lowercase, ʼ inside words; the
 * dictionary writes the apostrophe as ' and proper names capitalised, so both are mapped for look-ups.
 * Loaded once per process (or thread) on first use: about 340,000 entries.
 */
import { readFileSync } from 'node:fs';
import { parseAff } from 'hunspell-reader';
import { APOSTROPHE } from './search-text.js';

interface SuffixRule {
  flag: string;
  /** what the rule strips from the lemma (and the form gets back) */
  strip: string;
  /** the condition on the lemma's ending */
  condition: RegExp;
}

interface Dictionary {
  /** lowercase lemma → the flags of its entries (homonyms' flags together) */
  entries: Map<string, string>;
  /** appended ending → the rules that append it */
  byEnding: Map<string, SuffixRule[]>;
  longestEnding: number;
  /** flags of entries that are not words by themselves (NEEDAFFIX) or not words at all (FORBIDDENWORD) */
  notWords: string;
}

let dictionary: Dictionary | null = null;

function packageFile(name: string): string {
  return new URL(name, import.meta.resolve('dictionary-uk')).pathname;
}

function load(): Dictionary {
  const aff = parseAff(readFileSync(packageFile('index.aff'), 'utf8'));
  const byEnding = new Map<string, SuffixRule[]>();
  let longestEnding = 0;
  for (const [flag, fx] of aff.SFX ?? []) {
    for (const set of fx.substitutionsForRegExps) {
      for (const s of set.substitutions) {
        // hunspell writes an empty strip or ending as 0
        const ending = s.attach === '0' ? '' : s.attach.toLowerCase();
        let list = byEnding.get(ending);
        if (!list) byEnding.set(ending, (list = []));
        list.push({ flag, strip: s.remove === '0' ? '' : s.remove.toLowerCase(), condition: set.match });
        if (ending.length > longestEnding) longestEnding = ending.length;
      }
    }
  }
  const entries = new Map<string, string>();
  const dic = readFileSync(packageFile('index.dic'), 'utf8');
  // the first line is the entry count
  let at = dic.indexOf('\n') + 1;
  while (at < dic.length) {
    let end = dic.indexOf('\n', at);
    if (end < 0) end = dic.length;
    const line = dic.slice(at, end).trim();
    at = end + 1;
    if (line === '') continue;
    const slash = line.indexOf('/');
    const word = (slash < 0 ? line : line.slice(0, slash)).toLowerCase();
    const flags = slash < 0 ? '' : line.slice(slash + 1);
    const had = entries.get(word);
    // a word listed without flags is a word by itself: ' ' stands for "a form of its own"
    entries.set(word, (had ?? '') + (flags === '' ? ' ' : flags));
  }
  const notWords = (aff.NEEDAFFIX ?? '') + (aff.FORBIDDENWORD ?? '');
  return { entries, byEnding, longestEnding, notWords };
}

function dict(): Dictionary {
  if (dictionary === null) dictionary = load();
  return dictionary;
}

/** Load the dictionary now rather than on the first look-up (a server before it listens). */
export function loadMorphology(): void {
  dict();
}

function isWordByItself(flags: string, notWords: string): boolean {
  if (notWords === '') return true;
  for (const f of notWords) if (flags.includes(f)) return false;
  return true;
}

const NO_LEMMAS: readonly string[] = Object.freeze([]);

/**
 * The lemmas of a folded token (sorted, each once): the dictionary entries it is a form of, the token
 * itself when it is an entry. Empty for words the dictionary does not know (and digits, Latin words).
 */
export function lemmasOf(token: string): readonly string[] {
  const d = dict();
  const word = token.includes(APOSTROPHE) ? token.replaceAll(APOSTROPHE, "'") : token;
  let out: string[] | null = null;
  const add = (lemma: string) => {
    const folded = lemma.includes("'") ? lemma.replaceAll("'", APOSTROPHE) : lemma;
    if (out === null) out = [folded];
    else if (!out.includes(folded)) out.push(folded);
  };
  const own = d.entries.get(word);
  if (own !== undefined && isWordByItself(own, d.notWords)) add(word);
  const n = word.length;
  for (let len = Math.min(n - 1, d.longestEnding); len >= 0; len--) {
    const rules = d.byEnding.get(word.slice(n - len));
    if (rules === undefined) continue;
    const base = word.slice(0, n - len);
    for (const r of rules) {
      const lemma = base + r.strip;
      const flags = d.entries.get(lemma);
      if (flags === undefined || !flags.includes(r.flag) || !r.condition.test(lemma)) continue;
      add(lemma);
    }
  }
  if (out === null) return NO_LEMMAS;
  return (out as string[]).sort();
}

/**
 * lemmasOf with its answers kept, up to `max` tokens at a time (then forgotten together): a text's
 * vocabulary repeats, so most look-ups are answered from it. One per import thread, or per request.
 */
export class LemmaMemo {
  private readonly known = new Map<string, readonly string[]>();
  constructor(private readonly max = 200_000) {}

  lemmas(token: string): readonly string[] {
    let l = this.known.get(token);
    if (l === undefined) {
      l = lemmasOf(token);
      if (this.known.size >= this.max) this.known.clear();
      this.known.set(token, l);
    }
    return l;
  }
}

/** The lemmas of each token of a folded text, space-separated, in token order (what the lemma columns index). */
export function lemmaText(folded: string, memo: LemmaMemo): string {
  if (folded === '') return '';
  let out = '';
  for (const token of folded.split(' ')) {
    for (const l of memo.lemmas(token)) out = out === '' ? l : `${out} ${l}`;
  }
  return out;
}

/** Titles of more words than this have no lemma keys (their readings multiply). */
const MAX_KEY_TOKENS = 8;
/** at most this many readings of one title */
export const MAX_LEMMA_KEYS = 8;

/**
 * A folded title's lemma keys: its tokens each replaced by one of its lemmas (a token the dictionary does
 * not know stays as it is), every combination up to MAX_LEMMA_KEYS. A query whose lemma keys meet a
 * title's names that title in other forms of its words (`Києві` → Київ).
 */
export function lemmaKeys(folded: string, memo: LemmaMemo): string[] {
  if (folded === '') return [];
  const tokens = folded.split(' ');
  if (tokens.length > MAX_KEY_TOKENS) return [];
  let keys = [''];
  for (const token of tokens) {
    const lemmas = memo.lemmas(token);
    const choices = lemmas.length === 0 ? [token] : lemmas;
    const next: string[] = [];
    for (const k of keys) {
      for (const c of choices) {
        if (next.length < MAX_LEMMA_KEYS) next.push(k === '' ? c : `${k} ${c}`);
      }
    }
    keys = next;
  }
  return keys;
}
