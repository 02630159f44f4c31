/**
 * Semantic annotations of one page's expanded wikitext, as SMW 2.2 finds them:
 *
 *  - the parser functions first, in document order (MediaWiki runs them while preprocessing):
 *    `{{#set:P=V|P=V2|…}}`, `{{#subobject:name|P=V|…}}` and `{{#ask:…}}` (the preprocessor leaves them
 *    in its output with their arguments expanded);
 *  - then the in-text annotations `[[P::V]]`, `[[P::V|label]]`, `[[P1::P2::V]]` (`:=` too), with
 *    `[[SMW::off]]` / `[[SMW::on]]` — InTextAnnotationParser's pattern, matched by a linear scan.
 *
 * Property names and values are kept as written here; types are only known once every Property: page
 * has been seen, so typing happens later (semantic-hook.ts).
 */
import type { TitleCodec } from '../wiki/titles.js';
import { TagScanner } from '../wiki/tag-scan.js';
import { phpJsonEncode, PhpMap, type PhpValue } from '../php/json.js';
import { md5 } from '../php/strings.js';
import { describeQuery, type QueryInfo } from './query-profile.js';

export interface RawAnnotation {
  /** property label as written */
  prop: string;
  value: string;
  /** a predefined property set by a special parameter (@category → _INST) */
  key?: string;
}

export interface SubobjectAnnotations {
  /** the subobject name: as given (spaces → '_') or '_' + md5 of its parameters */
  name: string;
  annotations: RawAnnotation[];
  /** @sortkey */
  sortkey?: string;
}

export interface PageAnnotations {
  /** values of the page itself, in the order SMW adds them */
  annotations: RawAnnotation[];
  /** #subobject containers in document order (a repeated name merges into the first) */
  subobjects: SubobjectAnnotations[];
  /** #ask query profiles in document order */
  queries: QueryInfo[];
  /** `{{#concept:query|docu}}` calls in document order (arguments trimmed, as MediaWiki passes them) */
  concepts: Array<{ query: string; docu?: string }>;
}

/** Tags whose content MediaWiki does not parse: annotations inside them are text. */
const STRIP_TAG_NAMES = [
  'nowiki',
  'pre',
  'source',
  'syntaxhighlight',
  'math',
  'score',
  'templatedata',
  'graph',
  'timeline',
  'hiero',
  'chem',
  'ce',
];
const STRIP_TAGS = new Set(STRIP_TAG_NAMES);

/**
 * Blank out the content of nowiki-like tags (keeping offsets stable is not needed); an unclosed one runs
 * to the end. One linear pass (TagScanner), whatever the page holds.
 */
function stripUnparsed(text: string): string {
  if (!text.includes('<')) return text;
  const scan = new TagScanner(text);
  let out = '';
  let last = 0;
  let pos = text.indexOf('<');
  while (pos >= 0) {
    const tag = scan.openingTag(pos, STRIP_TAGS);
    if (tag === null) {
      pos = text.indexOf('<', pos + 1);
      continue;
    }
    const end = tag.selfClosing ? tag.end : (scan.closingTag(tag.name, tag.end)?.end ?? text.length);
    out += text.slice(last, pos) + ' ';
    last = end;
    pos = text.indexOf('<', end);
  }
  return out + text.slice(last);
}

interface ParserFunctionCall {
  name: string;
  /** arguments after the first ':' split on top-level '|' */
  args: string[];
  start: number;
  end: number;
}

/**
 * The SMW parser-function calls of the text: `{{#set:`, `{{#subobject:`, `{{#ask:` (names are
 * case-insensitive, blanks allowed after `{{`), with their arguments split at '|' outside nested
 * `{{…}}` and `[[…]]`.
 */
export function findParserFunctions(text: string, names: readonly string[]): ParserFunctionCall[] {
  const out: ParserFunctionCall[] = [];
  const head = new RegExp(`\\{\\{\\s*#(${names.join('|')})\\s*:`, 'giy');
  // Where each inner "{{" closes (the position after its "}}"), or -1 when it never does: a brace's match
  // does not depend on what encloses it, so it is worked out once, and nested unclosed calls cost one
  // pass instead of one pass each.
  const closeOf = new Map<number, number>();
  let i = text.indexOf('{{');
  while (i >= 0) {
    head.lastIndex = i;
    const m = closeOf.get(i) === -1 ? null : head.exec(text);
    if (!m) {
      i = text.indexOf('{{', i + 1);
      continue;
    }
    let pos = head.lastIndex;
    const args: string[] = [];
    let argStart = pos;
    const stack: Array<{ two: string; at: number }> = [];
    let end = -1;
    while (pos < text.length) {
      const c = text[pos];
      const two = text.startsWith('{{', pos)
        ? '{{'
        : text.startsWith('}}', pos)
          ? '}}'
          : text.startsWith('[[', pos)
            ? '[['
            : text.startsWith(']]', pos)
              ? ']]'
              : '';
      if (two === '{{') {
        const known = closeOf.get(pos);
        if (known === -1) break;
        if (known !== undefined) {
          pos = known;
          continue;
        }
        stack.push({ two, at: pos });
        pos += 2;
      } else if (two === '[[') {
        stack.push({ two, at: pos });
        pos += 2;
      } else if (two === '}}') {
        // a stray '[[' inside: MediaWiki's preprocessor would not have closed it either
        while (stack.length && stack[stack.length - 1].two === '[[') stack.pop();
        if (stack.length === 0) {
          end = pos;
          break;
        }
        closeOf.set(stack.pop()!.at, pos + 2);
        pos += 2;
      } else if (two === ']]') {
        if (stack.length && stack[stack.length - 1].two === '[[') stack.pop();
        pos += 2;
      } else {
        if (c === '|' && stack.length === 0) {
          args.push(text.slice(argStart, pos));
          argStart = pos + 1;
        }
        pos++;
      }
    }
    if (end < 0) {
      // unclosed: MediaWiki leaves it as text; so do the braces still open inside it
      for (const f of stack) if (f.two === '{{') closeOf.set(f.at, -1);
      closeOf.set(i, -1);
      i = text.indexOf('{{', i + 2);
      continue;
    }
    args.push(text.slice(argStart, end));
    out.push({ name: m[1].toLowerCase(), args, start: i, end: end + 2 });
    i = text.indexOf('{{', end + 2);
  }
  return out;
}

/**
 * SMW's ParserParameterProcessor: `P=V` pairs; a bare value after a pair is another value of the
 * same property; `|+sep=,` splits the preceding value; empty values are dropped. The first bare
 * element (the subobject name) is returned as `first`.
 */
export function mapParameters(params: string[]): { first: string | null; map: Array<[string, string[]]> } {
  const results = new Map<string, string[]>();
  let first: string | null = null;
  let previous: string | null = null;
  for (let i = 0; i < params.length; i++) {
    const raw = params[i].trim();
    const eq = raw.indexOf('=');
    let key: string;
    let value: string | undefined;
    if (eq < 0) {
      if (previous === null) {
        first = raw.replace(/ /g, '_');
        key = raw;
        previous = key;
        continue;
      }
      key = previous;
      value = raw;
    } else {
      key = raw.slice(0, eq);
      value = raw.slice(eq + 1);
      previous = key;
    }
    let separator = '';
    const next = params[i + 1];
    if (next !== undefined) {
      const nt = next.trim();
      const ne = nt.indexOf('=');
      const nk = ne < 0 ? nt : nt.slice(0, ne);
      if (nk.endsWith('+sep')) {
        const sv = ne < 0 ? '' : nt.slice(ne + 1);
        separator = sv !== '' ? sv : ',';
        i++;
      }
    }
    const values = separator !== '' ? value.split(separator) : [value];
    for (const v of values) {
      if (v === '') continue;
      let list = results.get(key);
      if (!list) results.set(key, (list = []));
      list.push(v.trim());
    }
  }
  return { first, map: [...results] };
}

function mapToPhp(map: Array<[string, string[]]>): PhpValue {
  return new PhpMap(map.map(([k, vs]) => [k, vs]));
}

/** HashBuilder::createHashIdForContent($parameters->toArray(), '_') */
export function anonymousSubobjectName(map: Array<[string, string[]]>): string {
  return '_' + md5(phpJsonEncode(mapToPhp(map)));
}

/**
 * In-text annotations, InTextAnnotationParser without links in values: `[[` + properties separated
 * by `::` or `:=` + a value without '[' + `]]`, where nothing between `[[` and `]]` is ']'. The last
 * separator ends the property part (the regex's greedy first group), the first '|' of the value
 * starts the caption.
 */
export function inTextAnnotations(text: string, out: RawAnnotation[]): void {
  let enabled = true;
  let i = text.indexOf('[[');
  let close = -1; // first ']' at or after i + 2
  // Facts about the stretch before `close` (no ']' in it), the same for every '[[' that ends there: the
  // last ':'/'::'/':=' separator, whether the value after it holds a '[', the last '|' before it. Worked
  // out once per ']', so "[[[[[[…]]" costs one pass, not one per '[['.
  let sepAt = -1;
  let valueHasBracket = false;
  let lastBarBeforeSep = -1;
  while (i >= 0) {
    if (close < i + 2) {
      close = text.indexOf(']', i + 2);
      if (close < 0) break;
      sepAt = -1;
      let k = close - 2;
      for (; k >= i + 3; k--) {
        if (text.charCodeAt(k) === 58 /* : */ && (text[k + 1] === ':' || text[k + 1] === '=')) {
          sepAt = k;
          break;
        }
      }
      valueHasBracket = sepAt >= 0 && text.slice(sepAt + 2, close).includes('[');
      lastBarBeforeSep = -1;
      for (k = sepAt - 1; sepAt >= 0 && k >= i + 2; k--) {
        if (text.charCodeAt(k) === 124 /* | */) {
          lastBarBeforeSep = k;
          break;
        }
      }
    }
    if (text[close + 1] !== ']') {
      i = text.indexOf('[[', i + 1);
      continue;
    }
    // the separator must leave a property of at least one character after this '[['
    if (sepAt < i + 3 || text[i + 2] === ':' || valueHasBracket) {
      i = text.indexOf('[[', i + 1);
      continue;
    }
    const i0 = i;
    const sep = sepAt - (i + 2);
    const inner = text.slice(i + 2, close);
    const propPart = inner.slice(0, sep);
    const valuePart = inner.slice(sep + 2);
    i = text.indexOf('[[', close + 2);
    if (lastBarBeforeSep >= i0 + 2) continue; // [[Foo|Bar::Baz]] is a link, not an annotation
    const bar = valuePart.indexOf('|');
    const value = bar < 0 ? valuePart : valuePart.slice(0, bar);
    if (value === '') continue;
    const props = propPart.split(/:[=:]/);
    if (props.length === 1 && props[0].trim() === 'SMW') {
      if (value.trim() === 'off') enabled = false;
      else if (value.trim() === 'on') enabled = true;
      continue;
    }
    if (!enabled) continue;
    for (const p of props) out.push({ prop: p, value });
  }
}

/** Everything SMW would annotate on a page, from its expanded text. */
export function extractAnnotations(expandedText: string, codec: TitleCodec): PageAnnotations {
  const text = stripUnparsed(expandedText);
  const result: PageAnnotations = { annotations: [], subobjects: [], queries: [], concepts: [] };
  const calls = findParserFunctions(text, ['set', 'subobject', 'ask', 'concept']);
  const subByName = new Map<string, SubobjectAnnotations>();
  let rest = '';
  let last = 0;
  for (const call of calls) {
    rest += text.slice(last, call.start) + ' ';
    last = call.end;
    if (call.name === 'set') {
      for (const [prop, values] of mapParameters(call.args).map) for (const v of values) result.annotations.push({ prop, value: v });
    } else if (call.name === 'subobject') {
      const { first, map } = mapParameters(call.args);
      const anonymous = first === null || first === '' || first === '-';
      if (!anonymous && first!.slice(0, 5).includes('.')) continue; // reserved for extensions
      const name = anonymous ? anonymousSubobjectName(map) : first!;
      const annotations: RawAnnotation[] = [];
      let sortkey: string | undefined;
      for (const [prop, values] of map) {
        for (const v of values) {
          if (prop.trim() === '@sortkey') sortkey = v;
          else if (prop.trim() === '@category') annotations.push({ prop, key: '_INST', value: v });
          else annotations.push({ prop, value: v });
        }
      }
      if (annotations.length === 0 && sortkey === undefined) continue; // an empty container is not added
      const existing = subByName.get(name);
      if (existing) {
        existing.annotations.push(...annotations);
        if (sortkey !== undefined) existing.sortkey = sortkey;
      } else {
        const s: SubobjectAnnotations = { name, annotations, sortkey };
        subByName.set(name, s);
        result.subobjects.push(s);
      }
    } else if (call.name === 'concept') {
      result.concepts.push({ query: (call.args[0] ?? '').trim(), docu: call.args.length > 1 ? call.args[1].trim() : undefined });
    } else {
      const q = describeQuery(call.args, codec);
      if (q && !result.queries.some((x) => x.name === q.name)) result.queries.push(q);
    }
  }
  rest += text.slice(last);
  inTextAnnotations(rest, result.annotations);
  return result;
}
