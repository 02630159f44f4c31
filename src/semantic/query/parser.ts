/**
 * SMW 2.2's query parser (SMWQueryParser), chunk by chunk as the original reads it, with its error
 * messages; the values of conditions as SMWDataValue::getQueryDescription reads them; and the parsed
 * conditions pruned to the size/depth limits (SMWQuery::applyRestrictions). No I/O: the properties'
 * types come from the caller's LanguageContext.
 */
import { htmlspecialchars } from '../../wiki/html.js';
import type { TitleCodec } from '../../wiki/titles.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { DI, PREDEFINED_BY_KEY } from '../types.js';
import { isError } from '../datavalues/data-item.js';
import { parseValue, wikiPageItem } from '../datavalues/values.js';
import { itemSortKey } from '../datavalues/sort-key.js';
import { SMW_QCONCEPT_MAX_DEPTH, SMW_QCONCEPT_MAX_SIZE, SMW_QMAX_DEPTH, SMW_QMAX_SIZE } from './limits.js';
import { smwMessage } from './messages.js';
import {
  COMPARATORS,
  THING,
  conjoin,
  descriptionDepth,
  descriptionSize,
  disjoin,
  prune,
  type Comparator,
  type Description,
  type PropertyRef,
  type QueryItem,
} from './descriptions.js';
import { isPageType, normalTitleText, typeOfKey, userProperty, type LanguageContext } from './properties.js';

/** Message->escaped(): the few messages SMW's parser escapes (htmlspecialchars with ENT_QUOTES) */
function escapeHtml(s: string): string {
  return htmlspecialchars(s, 'both');
}

// ---------------------------------------------------------------------------------------------------
// Values (SMWDataValue::getQueryDescription)
// ---------------------------------------------------------------------------------------------------

function errorText(code: string, value: string, type: string, codec: TitleCodec): string {
  if (code === 'smw_wrong_namespace') return smwMessage(code, codec.nsName(NS_CATEGORY) ?? '');
  if (code === 'smw_unitnotallowed' || code === 'smw_unsupportedunit') return smwMessage(code, value.replace(/^[\s\d.,+-]+/, ''));
  if (code === 'smw_emptystring') return smwMessage(code);
  void type;
  return smwMessage(code, value);
}

/** A page value as SMWWikiPageValue reads it (the fragment names a subobject). */
function pageItem(text: string, codec: TitleCodec, defaultNs: number): QueryItem | null {
  const v = text.replace(/^[\s[]+/, '').replace(/[\s\]]+$/, '');
  if (v === '') return null;
  const t = codec.parse(v, defaultNs);
  if (t === null || t.ns < 0 || t.dbkey === '') return null;
  const subobject = t.fragment.replace(/ /g, '_');
  return { di: DI.WIKIPAGE, item: wikiPageItem(t.ns, t.dbkey, subobject), ns: t.ns, dbkey: t.dbkey, subobject };
}

/** The value description of one value text of a property of type `type`; errors go to `errors`. */
function valueDescription(raw: string, prop: PropertyRef, ctx: LanguageContext, errors: string[]): Description {
  let cmp: Comparator = 'eq';
  let value = raw;
  for (const [s, c] of COMPARATORS) {
    if (value.startsWith(s)) {
      cmp = c;
      value = value.slice(s.length);
      break;
    }
  }
  const type = prop.inverse ? '_wpg' : prop.type;
  const fixedNs = PREDEFINED_BY_KEY.get(prop.key)?.ns;
  const dvErrors: string[] = [];
  let item: QueryItem | null = null;
  if (isPageType(type) || type === '__typ') {
    if (type === '__typ') {
      item = { di: DI.URI, item: value.trim() };
    } else {
      item = pageItem(value, ctx.codec, fixedNs ?? 0);
      if (item === null) dvErrors.push(smwMessage('smw_notitle', value.trim()));
      else if (fixedNs !== undefined && item.ns !== fixedNs) {
        dvErrors.push(errorText('smw_wrong_namespace', value, type, ctx.codec));
        item = null;
      }
    }
  } else if (cmp === 'like' || cmp === 'nlike') {
    // a pattern is not a value of the type: it is compared with the stored text or serialization
    const v = value.trim();
    if (v === '') dvErrors.push(smwMessage('smw_emptystring'));
    else item = { di: type === '_txt' || type === '_str' || type === '_cod' ? DI.BLOB : DI.URI, item: v, text: v };
  } else {
    const r = parseValue(type, value, ctx.codec, fixedNs);
    if (r === null) dvErrors.push(smwMessage('smw_notitle', value.trim()));
    else if (isError(r)) dvErrors.push(errorText(r.error, value.trim(), type, ctx.codec));
    else {
      item = { di: r.di, item: r.item };
      if (r.di === DI.BLOB) item.text = r.key ?? r.item;
      const n = itemSortKey(r.di, r.item);
      if (n !== undefined) item.num = n;
    }
  }
  // SMW merges the value's errors with PHP's array union (`$errors + $dvErrors`): only the value
  // errors at positions beyond the existing ones are kept
  for (let i = errors.length; i < dvErrors.length; i++) errors.push(dvErrors[i]);
  if (item === null) return THING;
  return { k: 'value', item, cmp, type };
}

// ---------------------------------------------------------------------------------------------------
// The parser (SMWQueryParser)
// ---------------------------------------------------------------------------------------------------

function escapeRegex(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** <q> levels the parser follows (far beyond what $smwgQMaxDepth and $smwgQMaxSize leave standing). */
const MAX_NESTING = 64;

class QueryParser {
  private rest = '';
  private stack: string[] = [];
  errors: string[] = [];
  private readonly defaultStop: RegExp;
  private readonly categoryPrefixes: string[];
  private readonly conceptPrefixes: string[];
  /** every property name met (for loading their types before the real parse) */
  readonly names = new Set<string>();

  constructor(private readonly ctx: LanguageContext) {
    const cat = (ctx.codec.nsName(NS_CATEGORY) ?? 'Category') + ':';
    const concept = (ctx.codec.nsName(108) ?? 'Concept') + ':';
    this.categoryPrefixes = [cat, 'Category:'];
    this.conceptPrefixes = [concept, 'Concept:'];
    const alts = [
      '\\[\\[',
      '\\]\\]',
      '::',
      ':=',
      '<q>',
      '<\\/q>',
      '^' + escapeRegex(cat),
      '^Category:',
      '^' + escapeRegex(concept),
      '^Concept:',
      '\\|\\|',
      '\\|',
    ];
    this.defaultStop = new RegExp('[\\s]*(' + alts.join('|') + ')', 'iu');
  }

  parse(queryString: string): Description {
    this.errors = [];
    this.rest = queryString;
    this.stack = [];
    const result = this.subquery();
    return result ?? THING;
  }

  /** readChunk: the text before the next delimiter, or the delimiter itself when the text starts with it */
  private readChunk(stop: RegExp | null = null, consume = true, trim = true): string {
    const re = stop ?? this.defaultStop;
    const m = re.exec(this.rest);
    let out: string;
    if (!m) {
      out = this.rest;
      if (consume) this.rest = '';
    } else if (m.index === 0) {
      out = m[1];
      if (consume) this.rest = this.rest.slice(m[0].length);
    } else {
      out = this.rest.slice(0, m.index);
      if (consume) this.rest = this.rest.slice(m.index + m[0].length - m[1].length);
    }
    return trim ? out.trim() : out;
  }

  private static readonly VALUE_STOP = /[\s]*(\[\[|\]\]|\|\||\|)/iu;
  private static readonly CLOSE_STOP = /[\s]*(\]\])/iu;

  private nesting = 0;

  private subquery(): Description | null {
    // SMW recurses without a bound; here a query nested deeper than any the size/depth limits would keep
    // ends with SMW's "too large" error instead of exhausting the stack
    if (++this.nesting > MAX_NESTING) {
      this.errors.push(smwMessage('smw_querytoolarge', this.rest.replace(/\[/g, '&#x005B;')));
      this.rest = '';
      this.nesting--;
      return null;
    }
    try {
      return this.subqueryBody();
    } finally {
      this.nesting--;
    }
  }

  private subqueryBody(): Description | null {
    let conjunction: Description | null = null;
    const disjuncts: Array<Description | null> = [];
    let chunk = this.readChunk();
    let go = chunk !== '';
    while (go) {
      // PHP's switch compares exactly: 'or' and '<Q>' are not understood
      switch (chunk) {
        case '[[': {
          const ld = this.linkDescription();
          if (ld !== null) conjunction = conjunction === null ? ld : conjoin([conjunction, ld]);
          break;
        }
        case 'AND':
        case '<q>': {
          this.stack.push('</q>');
          const sub = this.subquery();
          if (sub !== null) conjunction = conjunction === null ? sub : conjoin([conjunction, sub]);
          break;
        }
        case 'OR':
        case '||':
        case '':
        case '</q>':
          disjuncts.push(conjunction);
          conjunction = null;
          if (chunk === '</q>') {
            if (this.stack.pop() === '</q>') go = false;
            else {
              this.errors.push(smwMessage('smw_toomanyclosing', chunk));
              return null;
            }
          } else if (chunk === '') go = false;
          break;
        case '+':
          break;
        default:
          this.errors.push(smwMessage('smw_unexpectedpart', chunk));
      }
      if (go) chunk = this.readChunk();
    }
    if (disjuncts.length === 0) {
      this.errors.push(smwMessage('smw_emptysubquery'));
      return null;
    }
    const parts: Description[] = [];
    for (const d of disjuncts) {
      if (d === null) {
        this.errors.push(smwMessage('smw_emptysubquery'));
        return null;
      }
      parts.push(d);
    }
    return parts.length === 1 ? parts[0] : disjoin(parts);
  }

  private linkDescription(): Description | null {
    const chunk = this.readChunk(null, true, false);
    const norm = normalTitleText(chunk);
    if (this.categoryPrefixes.includes(norm)) return this.classDescription(true);
    if (this.conceptPrefixes.includes(norm)) return this.classDescription(false);
    const sep = this.readChunk(null, false);
    if (sep === '::' || sep === ':=') {
      if (chunk[0] !== ':') return this.propertyDescription(chunk);
      const full = chunk + this.readChunk(QueryParser.VALUE_STOP);
      return this.articleDescription(full.trim());
    }
    return this.articleDescription(chunk.trim());
  }

  private classDescription(category: boolean): Description | null {
    let result: Description | null = null;
    let chunk: string;
    let go = true;
    while (go) {
      chunk = this.readChunk();
      if (chunk !== '+') {
        const t = this.ctx.codec.parse((category ? this.categoryPrefixes[0] : this.conceptPrefixes[0]) + chunk, 0);
        if (t !== null && category) {
          const d: Description = { k: 'class', cats: [t.dbkey] };
          result = result === null ? d : disjoin([result, d]);
        }
        if (t !== null && !category)
          result = result === null ? { k: 'concept', dbkey: t.dbkey } : disjoin([result, { k: 'concept', dbkey: t.dbkey }]);
      }
      chunk = this.readChunk();
      go = chunk === '||' && category;
      if (!go) return this.finishLink(chunk, false, result);
    }
    return result;
  }

  private propertyDescription(propertyName: string): Description | null {
    this.readChunk(); // the separator
    const names = propertyName[0] === ' ' ? [propertyName] : propertyName.split('.');
    const props: PropertyRef[] = [];
    let type = '_wpg';
    let inverse = false;
    let lastLabel = '';
    for (const name of names) {
      if (!isPageType(type)) {
        this.errors.push(smwMessage('smw_valuesubquery', name));
        return null;
      }
      const p = userProperty(name);
      if ('error' in p) {
        this.errors.push(p.error);
        return null;
      }
      this.names.add(p.key);
      type = typeOfKey(this.ctx, p.key);
      inverse = p.inverse;
      lastLabel = p.label;
      props.push({ key: p.key, inverse: p.inverse, type });
    }
    const last = props[props.length - 1];
    let inner: Description | null = null;
    let chunk = '';
    let go = true;
    const addInner = (d: Description) => {
      inner = inner === null ? d : disjoin([inner, d]);
    };
    while (go) {
      chunk = this.readChunk();
      if (chunk === '+') {
        addInner(THING);
        chunk = this.readChunk();
      } else if (chunk === '<q>') {
        if (isPageType(type) || inverse) {
          this.stack.push('</q>');
          const sub = this.subquery();
          if (sub !== null) addInner(sub);
        } else {
          this.errors.push(smwMessage('smw_valuesubquery', names[names.length - 1]));
          addInner(THING);
        }
        chunk = this.readChunk();
      } else {
        let open = 1;
        let value = chunk;
        let go2 = true;
        while (open > 0 && go2) {
          chunk = this.readChunk(QueryParser.VALUE_STOP);
          switch (chunk) {
            case '[[':
              open++;
              break;
            case ']]':
              open--;
              break;
            case '|':
            case '||':
              if (open === 1) open = 0;
              break;
            case '':
              go2 = false;
              break;
          }
          if (open !== 0) value += chunk;
        }
        addInner(valueDescription(value, last, this.ctx, this.errors));
      }
      go = chunk === '||';
    }
    if (inner === null) {
      inner = THING;
      this.errors.push(smwMessage('smw_propvalueproblem', lastLabel));
    }
    let result: Description = inner;
    for (let i = props.length - 1; i >= 0; i--) result = { k: 'some', prop: props[i], desc: result };
    return this.finishLink(chunk, false, result);
  }

  private articleDescription(first: string): Description | null {
    let chunk = first;
    let result: Description | null = null;
    let go = true;
    while (go) {
      if (chunk === '<q>') {
        this.errors.push(smwMessage('smw_misplacedsubquery'));
        return null;
      }
      let list = splitLimit(chunk, ':', 3);
      if (list[0] === '' && list.length === 3) list = list.slice(1);
      if (list.length === 2 && list[1] === '+') {
        const ns = list[0] === '' ? 0 : this.ctx.codec.nsIdFromPrefix(list[0]);
        if (ns !== undefined && ns >= 0) result = result === null ? { k: 'ns', ns } : disjoin([result, { k: 'ns', ns }]);
      } else {
        // newTypeIDValue('_wpg', $chunk) reads the chunk as a plain title: comparators are no syntax here
        const item = pageItem(chunk, this.ctx.codec, 0);
        if (item !== null) {
          const d: Description = { k: 'value', item, cmp: 'eq', type: '_wpg' };
          result = result === null ? d : disjoin([result, d]);
        }
      }
      chunk = this.readChunk(QueryParser.VALUE_STOP);
      if (chunk === '||') {
        chunk = this.readChunk(QueryParser.VALUE_STOP);
        go = true;
      } else go = false;
    }
    return this.finishLink(chunk, true, result);
  }

  private finishLink(chunk: string, _hasNamespaces: boolean, result: Description | null): Description | null {
    if (result === null) this.errors.push(smwMessage('smw_badqueryatom'));
    if (chunk === '|') {
      chunk = this.readChunk(QueryParser.CLOSE_STOP);
      let label = '|';
      if (chunk !== ']]') {
        label += chunk;
        chunk = this.readChunk(QueryParser.CLOSE_STOP);
      }
      this.errors.push(escapeHtml(smwMessage('smw_unexpectedpart', label)));
    }
    if (chunk !== ']]') {
      if (chunk !== '') {
        this.errors.push(smwMessage('smw_misplacedsymbol', escapeHtml(chunk)));
        chunk = this.readChunk(QueryParser.CLOSE_STOP);
        if (chunk !== ']]') chunk = this.readChunk(QueryParser.CLOSE_STOP);
      }
      if (chunk === '') this.errors.push(smwMessage('smw_noclosingbrackets'));
    }
    return result;
  }
}

/** PHP explode/preg_split with a limit */
function splitLimit(s: string, sep: string, limit: number): string[] {
  const parts = s.split(sep);
  if (parts.length <= limit) return parts;
  return [...parts.slice(0, limit - 1), parts.slice(limit - 1).join(sep)];
}

/** Property keys a query string names (conditions, chains), for loading their types first. */
export function propertyNames(queryString: string, codec: TitleCodec): string[] {
  const p = new QueryParser({ codec, typeOf: () => '_wpg' });
  p.parse(queryString);
  return [...p.names];
}

export interface ParsedConditions {
  description: Description;
  errors: string[];
  size: number;
  depth: number;
}

/**
 * SMWQueryParser::getQueryDescription, then SMWQuery::applyRestrictions (a concept's definition is pruned
 * to $smwgQConceptMaxSize/$smwgQConceptMaxDepth instead).
 */
export function parseConditions(queryString: string, ctx: LanguageContext, forConcept = false): ParsedConditions {
  const p = new QueryParser(ctx);
  const parsed = p.parse(queryString);
  const errors = [...p.errors];
  const log: string[] = [];
  const budget = forConcept
    ? { size: SMW_QCONCEPT_MAX_SIZE, depth: SMW_QCONCEPT_MAX_DEPTH }
    : { size: SMW_QMAX_SIZE, depth: SMW_QMAX_DEPTH };
  const description = prune(parsed, budget, log, ctx.codec);
  if (log.length > 0) errors.push(smwMessage('smw_querytoolarge', log.join(', ').replace(/\[/g, '&#x005B;')));
  return { description, errors, size: descriptionSize(description), depth: descriptionDepth(description) };
}
