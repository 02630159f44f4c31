/**
 * `{{#ask:…}}` as SMW 2.2 records it: a query subobject `_QUERY<md5>` on the page (value of `_ASK`)
 * carrying the query string `_ASKST` (the description's normalised string), the result format
 * `_ASKFO`, and the description's size `_ASKSI` and depth `_ASKDE`.
 *
 * The subobject's name is the md5 of the json_encode()d Query::toArray(): the raw condition string,
 * limit, offset, sort keys, main label, query mode and the printouts' serialisations
 * (NullProfile + Query::getHash). The normalised query string needs the properties' types (a page
 * value is written as its title, a number as a number), so it is computed once types are known.
 */
import type { TitleCodec } from '../wiki/titles.js';
import { NS_CATEGORY } from '../wiki/namespaces.js';
import { ucfirst } from '../wiki/language.js';
import { md5, phpJsonEncode, PhpMap, type PhpValue } from './php.js';
import { propertyKeyFromLabel } from './types.js';
import { numberItem, parseNumberText } from './values.js';

export interface QueryInfo {
  /** '_QUERY' + md5 */
  name: string;
  /** the conditions as written (the raw query string) */
  conditions: string;
  format: string;
  size: number;
  depth: number;
}

/** Result formats SMW 2.2 (and the usual Semantic Result Formats) know; others fall back to the default. */
const FORMATS = new Set([
  'table', 'list', 'ol', 'ul', 'broadtable', 'category', 'embedded', 'template', 'count', 'debug', 'feed', 'csv', 'dsv',
  'json', 'rdf', 'map', 'googlemaps', 'googlemaps3', 'openlayers', 'leaflet', 'timeline', 'eventline', 'calendar',
  'gallery', 'tagcloud', 'sum', 'average', 'max', 'min', 'product', 'median', 'graph', 'bibtex', 'vcard', 'icalendar',
  'excel', 'outline', 'datatables', 'filtered', 'tree', 'ultree', 'oltree', 'jqplotchart', 'jqplotseries', 'sparkline',
]);
const FORMAT_ALIASES: Record<string, string> = Object.assign(Object.create(null), { rss: 'feed', atom: 'feed' });

const QMAX_LIMIT = 10000; // $smwgQMaxLimit
const QMAX_INLINE_LIMIT = 500; // $smwgQMaxInlineLimit
const QDEFAULT_LIMIT = 50; // $smwgQDefaultLimit

interface Printout {
  serialisation: string;
  isThis: boolean;
}

/** SMWQueryProcessor::getSMWPrintRequestFromString + PrintRequest::getSerialisation */
function printout(raw: string, codec: TitleCodec): Printout | null {
  const eq = raw.indexOf('=');
  const head = eq < 0 ? raw : raw.slice(0, eq);
  const hash = head.indexOf('#');
  const name = (hash < 0 ? head : head.slice(0, hash)).trim();
  const outputFormat = hash < 0 ? '' : head.slice(hash + 1).trim();
  const catName = codec.nsName(NS_CATEGORY) ?? 'Category';
  let printname: string;
  let label: string;
  let result: string;
  if (name === '') {
    label = eq < 0 ? '' : raw.slice(eq + 1).trim();
    result = '?' + (outputFormat !== '' ? '#' + outputFormat : '') + (label !== '' ? '=' + label : '');
    return { serialisation: result, isThis: true };
  }
  const ucName = ucfirst(name);
  if (ucName === catName || ucName === 'Category') {
    label = eq < 0 ? catName : raw.slice(eq + 1).trim();
    result = '?' + catName + (label !== catName ? '=' + label : '');
    return { serialisation: result, isThis: false };
  }
  const t = codec.parse(name, 102);
  if (t === null) return null;
  if (t.ns === NS_CATEGORY) {
    printname = codec.prefixedText(t.ns, t.dbkey);
    label = eq < 0 ? t.dbkey.replace(/_/g, ' ') : raw.slice(eq + 1).trim();
    result = '?' + printname + (outputFormat !== 'x' ? '#' + outputFormat : '');
  } else {
    const key = propertyKeyFromLabel(name);
    if (key === null) return null;
    printname = key.startsWith('_') ? name : key.replace(/_/g, ' ');
    label = eq < 0 ? printname : raw.slice(eq + 1).trim();
    result = '?' + printname + (outputFormat !== '' ? '#' + outputFormat : '');
  }
  if (printname !== label) result += '=' + label;
  return { serialisation: result, isThis: false };
}

function intParam(v: string | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  const t = v.trim();
  return /^[+-]?\d+$/.test(t) ? Number(t) : dflt;
}

/** The query profile of one #ask call (its arguments after the ':'). */
export function describeQuery(args: string[], codec: TitleCodec): QueryInfo | null {
  let querystring = '';
  const params = new Map<string, string>();
  const printouts: Printout[] = [];
  for (const a of args) {
    const raw = a.trim().replace(/&#x005B;/g, '[').replace(/&#x005D;/g, ']');
    if (raw === '') continue;
    if (raw[0] === '?') {
      const p = printout(raw.slice(1), codec);
      if (p) printouts.push(p);
    } else if (raw[0] === '+') {
      // a parameter of the previous printout
    } else {
      const eq = raw.indexOf('=');
      if (eq >= 0) params.set(raw.slice(0, eq).trim().toLowerCase(), raw.slice(eq + 1));
      else querystring += raw;
    }
  }
  querystring = querystring.replace(/&lt;/g, '<').replace(/&gt;/g, '>');
  const desc = parseQuery(querystring, codec);

  let format = (params.get('format') ?? 'auto').trim().toLowerCase();
  format = FORMAT_ALIASES[format] ?? format;
  if (!FORMATS.has(format)) format = printouts.some((p) => !p.isThis) ? 'table' : 'list';
  const querymode = format === 'count' ? 2 : format === 'debug' ? 3 : 1;
  let offset = Math.min(QMAX_LIMIT, Math.max(0, intParam(params.get('offset'), 0)));
  let limit: number;
  let mode = querymode;
  if (querymode === 2) {
    offset = 0;
    limit = QMAX_LIMIT;
  } else {
    const requested = intParam(params.get('limit'), QDEFAULT_LIMIT);
    limit = Math.min(QMAX_LIMIT - offset, Math.max(0, requested), QMAX_INLINE_LIMIT);
    if (requested < 0) mode = 4;
  }

  const split = (v: string | undefined) => (v === undefined ? [] : v.split(','));
  const orders = split(params.get('order')).map((o) => {
    const x = o.trim().toLowerCase();
    return x === 'descending' || x === 'reverse' || x === 'desc' ? 'DESC' : x === 'random' || x === 'rand' ? 'RANDOM' : 'ASC';
  });
  const sortkeys: Array<[string, PhpValue]> = [];
  const setSort = (k: string, o: string) => {
    const i = sortkeys.findIndex(([x]) => x === k);
    if (i >= 0) sortkeys[i][1] = o;
    else sortkeys.push([k, o]);
  };
  for (const s of split(params.get('sort'))) {
    let key: string | null;
    if (s.trim() === '') key = '';
    else key = propertyKeyFromLabel(s.trim());
    if (key === null) continue;
    setSort(key, orders.length ? orders.shift()! : 'ASC');
  }
  if (orders.length > 0) setSort('', orders.shift()!);

  const array: Array<[string, PhpValue]> = [
    ['conditions', querystring],
    [
      'parameters',
      new PhpMap([
        ['limit', limit],
        ['offset', offset],
        ['sortkeys', new PhpMap(sortkeys)],
        ['mainlabel', params.get('mainlabel') ?? ''],
        ['querymode', mode],
      ]),
    ],
  ];
  const po = printouts.map((p) => p.serialisation).filter((s) => s !== '?#');
  if (po.length) array.push(['printouts', po]);
  const name = '_QUERY' + md5(phpJsonEncode(new PhpMap(array)));
  return { name, conditions: querystring, format, size: size(desc), depth: depth(desc) };
}

// ---------------------------------------------------------------------------------------------------
// Query descriptions (SMWQueryParser, reduced to what wikis write) and their normalised strings
// ---------------------------------------------------------------------------------------------------

type Desc =
  | { k: 'thing' }
  | { k: 'class'; cats: string[] }
  | { k: 'ns'; ns: number }
  | { k: 'page'; comparator: string; text: string }
  | { k: 'value'; comparator: string; text: string }
  | { k: 'some'; prop: string; desc: Desc }
  | { k: 'and'; items: Desc[] }
  | { k: 'or'; items: Desc[] };

function size(d: Desc): number {
  switch (d.k) {
    case 'thing':
      return 0;
    case 'class':
    case 'ns':
    case 'page':
    case 'value':
      return 1;
    case 'some':
      return 1 + size(d.desc);
    default:
      return d.items.reduce((n, x) => n + size(x), 0);
  }
}

function depth(d: Desc): number {
  switch (d.k) {
    case 'some':
      return 1 + depth(d.desc);
    case 'and':
    case 'or':
      return d.items.reduce((n, x) => Math.max(n, depth(x)), 0);
    default:
      return 0;
  }
}

const COMPARATORS = ['!~', '<<', '>>', '~', '!', '<', '>', '≤', '≥'];

function splitComparator(v: string): [string, string] {
  for (const c of COMPARATORS) if (v.startsWith(c)) return [c, v.slice(c.length)];
  return ['', v];
}

/** Tokens: '[[', ']]', '<q>', '</q>', '||', 'OR', text. */
function tokenize(s: string): string[] {
  const out: string[] = [];
  const re = /\[\[|\]\]|<q>|<\/q>|\|\||\bOR\b/gi;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(s))) {
    if (m.index > last) out.push(s.slice(last, m.index));
    out.push(m[0].toUpperCase() === 'OR' ? 'OR' : m[0].toLowerCase());
    last = re.lastIndex;
  }
  if (last < s.length) out.push(s.slice(last));
  return out;
}

function combine(k: 'and' | 'or', items: Desc[]): Desc {
  const flat = items.filter((x) => x.k !== 'thing' || items.length === 1);
  if (flat.length === 0) return { k: 'thing' };
  if (flat.length === 1) return flat[0];
  return { k, items: flat };
}

export function parseQuery(querystring: string, codec: TitleCodec): Desc {
  const tokens = tokenize(querystring);
  let pos = 0;

  const parseLink = (): Desc => {
    // after '[[': collect until the matching ']]', with nested <q>…</q> in property values
    let chunk = '';
    while (pos < tokens.length && tokens[pos] !== ']]' && tokens[pos] !== '<q>') chunk += tokens[pos++];
    if (tokens[pos] === '<q>') {
      pos++;
      const sub = parseSequence('</q>');
      if (tokens[pos] === '</q>') pos++;
      while (pos < tokens.length && tokens[pos] !== ']]') pos++;
      pos++;
      const sep = chunk.search(/::|:=/);
      if (sep < 0) return sub;
      return someProperty(chunk.slice(0, sep), sub);
    }
    pos++; // ']]'
    return linkDescription(chunk);
  };

  const someProperty = (props: string, inner: Desc): Desc => {
    const chain = props.split('.').map((p) => p.trim());
    let d = inner;
    for (let i = chain.length - 1; i >= 0; i--) {
      const key = propertyKeyFromLabel(chain[i]);
      d = { k: 'some', prop: key ?? chain[i], desc: d };
    }
    return d;
  };

  const linkDescription = (chunk: string): Desc => {
    const sep = chunk.search(/::|:=/);
    if (sep >= 0) {
      const props = chunk.slice(0, sep);
      const values = chunk.slice(sep + 2).split('||');
      const descs: Desc[] = values.map((v) => {
        const t = v.trim();
        if (t === '+' || t === '') return { k: 'thing' } as Desc;
        const [comparator, text] = splitComparator(t);
        return { k: 'value', comparator, text: text.trim() } as Desc;
      });
      return someProperty(props, descs.length === 1 ? descs[0] : { k: 'or', items: descs });
    }
    const text = chunk.trim();
    const colon = text.indexOf(':', text.startsWith(':') ? 1 : 0);
    if (colon > 0 && !text.startsWith(':')) {
      const ns = codec.nsIdFromPrefix(text.slice(0, colon).trim());
      const rest = text.slice(colon + 1).trim();
      if (ns === NS_CATEGORY) return { k: 'class', cats: rest.split('||').map((c) => c.trim()) };
      if (ns !== undefined && rest === '+') return { k: 'ns', ns };
    }
    if (text === ':+' || text === '+') return text === ':+' ? { k: 'ns', ns: 0 } : { k: 'thing' };
    const [comparator, page] = splitComparator(text.replace(/^:/, ''));
    return { k: 'page', comparator, text: page.trim() };
  };

  const parseSequence = (end: string | null): Desc => {
    const disjuncts: Desc[] = [];
    let conj: Desc[] = [];
    while (pos < tokens.length && tokens[pos] !== end) {
      const t = tokens[pos++];
      if (t === '[[') conj.push(parseLink());
      else if (t === '<q>') {
        conj.push(parseSequence('</q>'));
        if (tokens[pos] === '</q>') pos++;
      } else if (t === 'OR' || t === '||') {
        disjuncts.push(combine('and', conj));
        conj = [];
      }
    }
    disjuncts.push(combine('and', conj));
    return combine('or', disjuncts);
  };

  return parseSequence(null);
}

export interface QueryTypes {
  codec: TitleCodec;
  /** type id of a property key ('_wpg' when undeclared) */
  typeOf(propKey: string): string;
}

function pageText(text: string, codec: TitleCodec, ns = 0): string {
  const t = codec.parse(text, ns);
  return t ? codec.prefixedText(t.ns, t.dbkey) : text;
}

function valueText(d: { comparator: string; text: string }, type: string, codec: TitleCodec): string {
  let v = d.text;
  if (type === '_wpg') v = pageText(v, codec);
  else if (type === '_num' || type === '_qty' || type === '_tem') {
    const n = parseNumberText(v);
    if (n && n.rest === '') v = numberItem(n.value);
  }
  return d.comparator + v;
}

/** Description::getQueryString($asValue) */
function queryString(d: Desc, asValue: boolean, ctx: QueryTypes, type = '_wpg'): string {
  const { codec } = ctx;
  switch (d.k) {
    case 'thing':
      return asValue ? '+' : '';
    case 'class': {
      const [first, ...rest] = d.cats;
      const s = '[[' + pageText(first, codec, NS_CATEGORY) + rest.map((c) => '||' + pageText(c, codec, NS_CATEGORY).replace(/^[^:]*:/, '')).join('') + ']]';
      return asValue ? ' <q>' + s + '</q> ' : s;
    }
    case 'ns': {
      const s = '[[' + (d.ns === 0 ? '' : codec.nsName(d.ns) ?? '') + ':+]]';
      return asValue ? ' <q>' + s + '</q> ' : s;
    }
    case 'page': {
      const v = d.comparator + pageText(d.text, codec);
      return asValue ? v : d.comparator === '' ? '[[:' + v + ']]' : '[[' + v + ']]';
    }
    case 'value':
      return valueText(d, type, codec);
    case 'some': {
      const names: string[] = [];
      let sub: Desc = d;
      let last = d.prop;
      while (sub.k === 'some') {
        names.push(sub.prop.startsWith('_') ? sub.prop : sub.prop.replace(/_/g, ' '));
        last = sub.prop;
        sub = sub.desc;
      }
      const s = '[[' + names.join('.') + '::' + queryString(sub, true, ctx, ctx.typeOf(last)) + ']]';
      return asValue ? '<q>' + s + '</q>' : s;
    }
    case 'and': {
      const s = d.items.map((x) => queryString(x, false, ctx, type)).filter((x) => x !== '').join(' ');
      if (s === '') return asValue ? '+' : '';
      return asValue ? ' <q>' + s + '</q> ' : s;
    }
    case 'or': {
      const sep = asValue ? '||' : ' OR ';
      const s = d.items
        .map((x) => {
          const sub = queryString(x, asValue, ctx, type);
          if (x.k === 'some') return asValue ? ' <q>[[' + sub + ']]</q> ' : ' <q>' + sub + '</q> ';
          return sub;
        })
        .join(sep);
      return asValue ? s : ' <q>' + s + '</q> ';
    }
  }
}

/** The `_ASKST` value of a query: its description's normalised string. */
export function normalizedQueryString(conditions: string, ctx: QueryTypes): string {
  return queryString(parseQuery(conditions, ctx.codec), false, ctx);
}
