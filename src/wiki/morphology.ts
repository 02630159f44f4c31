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
 * Loaded once per process (or thread) on first use: about 340,000 entries, mapped one first letter at a
 * time as words of that letter are looked up.
 */
import { readFileSync } from 'node:fs';
import { parseAff } from 'hunspell-reader';
import { APOSTROPHE } from './search-text.js';

/** The rules that append one ending and strip one text from the lemma: one dictionary look-up for all. */
interface RuleGroup {
  /** what the rules strip from the lemma (and the form gets back) */
  strip: string;
  flags: string[];
  /** each rule's condition on the lemma's ending */
  conditions: RegExp[];
}

/**
 * The `.dic` file, read into look-up maps one first letter at a time when a word of that letter is first
 * looked up: a form's lemmas share its first letter (the rules are suffixes), so a server answering a
 * few words builds a few letters' maps, not the whole dictionary's. Kept as its UTF-8 bytes until then:
 * decoding the 8 MB file and walking its 340,000 lines as text cost a serving process a fifth of a CPU
 * second at start-up; the lines are indexed by the bytes of their first character.
 */
class Entries {
  private readonly bytes: Buffer;
  /** lowercase first letter (a UTF-16 unit, as a word's [0]) → the offsets of its lines */
  private readonly lines = new Map<string, number[]>();
  private readonly maps = new Map<string, Map<string, string>>();

  constructor(bytes: Buffer) {
    this.bytes = bytes;
    /** the UTF-8 bytes of a line's first character, as one number → its letter's list of lines */
    const byFirst = new Map<number, number[]>();
    // the first line is the entry count
    let at = bytes.indexOf(NEWLINE) + 1;
    while (at > 0 && at < bytes.length) {
      const lead = bytes[at];
      const length = lead < 0xc0 ? 1 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : 4;
      let first = lead;
      for (let i = 1; i < length && at + i < bytes.length; i++) first = first * 256 + bytes[at + i];
      let list = byFirst.get(first);
      if (list === undefined) {
        const letter = bytes.toString('utf8', at, Math.min(at + length, bytes.length))[0].toLowerCase();
        list = this.lines.get(letter);
        if (list === undefined) this.lines.set(letter, (list = []));
        byFirst.set(first, list);
      }
      list.push(at);
      const end = bytes.indexOf(NEWLINE, at);
      at = end < 0 ? bytes.length : end + 1;
    }
  }

  /** the flags of a lowercase lemma's entries (homonyms' together; ' ' for an entry without flags) */
  get(word: string): string | undefined {
    if (word === '') return undefined;
    const letter = word[0];
    let map = this.maps.get(letter);
    if (map === undefined) {
      map = this.build(letter);
      this.maps.set(letter, map);
    }
    return map.get(word);
  }

  private build(letter: string): Map<string, string> {
    const map = new Map<string, string>();
    for (const at of this.lines.get(letter) ?? []) {
      let end = this.bytes.indexOf(NEWLINE, at);
      if (end < 0) end = this.bytes.length;
      const line = this.bytes.toString('utf8', at, end).trim();
      if (line === '') continue;
      const slash = line.indexOf('/');
      const word = (slash < 0 ? line : line.slice(0, slash)).toLowerCase();
      const flags = slash < 0 ? ' ' : line.slice(slash + 1);
      const had = map.get(word);
      map.set(word, had === undefined ? flags : had + flags);
    }
    return map;
  }
}

const NEWLINE = 0x0a;

interface Dictionary {
  entries: Entries;
  /** appended ending → the rules that append it, by what they strip */
  byEnding: Map<string, RuleGroup[]>;
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
  const byEnding = new Map<string, RuleGroup[]>();
  let longestEnding = 0;
  for (const [flag, fx] of aff.SFX ?? []) {
    for (const set of fx.substitutionsForRegExps) {
      for (const s of set.substitutions) {
        // hunspell writes an empty strip or ending as 0
        const ending = s.attach === '0' ? '' : s.attach.toLowerCase();
        const strip = s.remove === '0' ? '' : s.remove.toLowerCase();
        let groups = byEnding.get(ending);
        if (!groups) byEnding.set(ending, (groups = []));
        let group = groups.find((g) => g.strip === strip);
        if (!group) groups.push((group = { strip, flags: [], conditions: [] }));
        group.flags.push(flag);
        group.conditions.push(set.match);
        if (ending.length > longestEnding) longestEnding = ending.length;
      }
    }
  }
  const entries = new Entries(readFileSync(packageFile('index.dic')));
  const notWords = (aff.NEEDAFFIX ?? '') + (aff.FORBIDDENWORD ?? '');
  return { entries, byEnding, longestEnding, notWords };
}

function dict(): Dictionary {
  if (dictionary === null) dictionary = load();
  return dictionary;
}

/** Read the dictionary now rather than on the first look-up (a server, before it listens). */
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
  const own = d.entries.get(word);
  if (own !== undefined && isWordByItself(own, d.notWords)) out = [word];
  const n = word.length;
  for (let len = Math.min(n - 1, d.longestEnding); len >= 0; len--) {
    const groups = d.byEnding.get(word.slice(n - len));
    if (groups === undefined) continue;
    const base = word.slice(0, n - len);
    for (const g of groups) {
      const lemma = base + g.strip;
      const flags = d.entries.get(lemma);
      if (flags === undefined) continue;
      for (let i = 0; i < g.flags.length; i++) {
        if (!flags.includes(g.flags[i]) || !g.conditions[i].test(lemma)) continue;
        if (out === null) out = [lemma];
        else if (!out.includes(lemma)) out.push(lemma);
        break;
      }
    }
  }
  if (out === null) return NO_LEMMAS;
  const sorted = out.sort();
  return sorted.map((l) => (l.includes("'") ? l.replaceAll("'", APOSTROPHE) : l));
}

/**
 * lemmasOf with its answers kept, up to `max` tokens at a time (then forgotten together): a text's
 * vocabulary repeats, so most look-ups are answered from it. One per import thread, or per request.
 */
export class LemmaMemo {
  private readonly known = new Map<string, readonly string[]>();
  constructor(private readonly max = 50_000) {}

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
