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
import { phpJsonEncode, PhpMap, type PhpValue } from '../php/json.js';
import { md5 } from '../php/strings.js';
import { propertyKeyFromLabel } from './types.js';
import { queryString } from './query/descriptions.js';
import { SMW_QDEFAULT_LIMIT, SMW_QMAX_INLINE_LIMIT, SMW_QMAX_LIMIT } from './query/limits.js';
import { setSortKey, sortOrder, type SortOrder } from './query/parameters.js';
import { parseConditions } from './query/parser.js';
import type { LanguageContext } from './query/properties.js';
import { SRF_FORMATS, resolveFormat } from './printers/registry.js';

export interface QueryInfo {
  /** '_QUERY' + md5 */
  name: string;
  /** the conditions as written (the raw query string) */
  conditions: string;
  format: string;
  size: number;
  depth: number;
}

interface Printout {
  serialisation: string;
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
    return { serialisation: result };
  }
  const ucName = ucfirst(name);
  if (ucName === catName || ucName === 'Category') {
    label = eq < 0 ? catName : raw.slice(eq + 1).trim();
    result = '?' + catName + (label !== catName ? '=' + label : '');
    return { serialisation: result };
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
  return { serialisation: result };
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
    const raw = a
      .trim()
      .replace(/&#x005B;/g, '[')
      .replace(/&#x005D;/g, ']');
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
  // size and depth do not depend on the properties' types (not known while a page is analysed)
  const parsed = parseConditions(querystring, { codec, typeOf: () => '_wpg' });

  // SMWQueryProcessor::addThisPrintout counts too when the default format is chosen
  const mainlabel = params.get('mainlabel');
  const requests = printouts.length + (mainlabel === undefined || mainlabel.trim() !== '-' ? 1 : 0);
  const format = resolveFormat(params.get('format'), requests, SRF_FORMATS);
  const querymode = format === 'count' ? 2 : format === 'debug' ? 3 : 1;
  let offset = Math.min(SMW_QMAX_LIMIT, Math.max(0, intParam(params.get('offset'), 0)));
  let limit: number;
  let mode = querymode;
  if (querymode === 2) {
    offset = 0;
    limit = SMW_QMAX_LIMIT;
  } else {
    const requested = intParam(params.get('limit'), SMW_QDEFAULT_LIMIT);
    limit = Math.min(SMW_QMAX_LIMIT - offset, Math.max(0, requested), SMW_QMAX_INLINE_LIMIT);
    if (requested < 0) mode = 4;
  }

  const split = (v: string | undefined) => (v === undefined ? [] : v.split(','));
  const orders = split(params.get('order')).map((o) => sortOrder(o.trim()));
  const sortkeys: Array<[string, SortOrder]> = [];
  for (const s of split(params.get('sort'))) {
    let key: string | null;
    if (s.trim() === '') key = '';
    else key = propertyKeyFromLabel(s.trim());
    if (key === null) continue;
    setSortKey(sortkeys, key, orders.length ? orders.shift()! : 'ASC');
  }
  if (orders.length > 0) setSortKey(sortkeys, '', orders.shift()!);

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
  return { name, conditions: querystring, format, size: parsed.size, depth: parsed.depth };
}

// ---------------------------------------------------------------------------------------------------
// Conditions: the one SMW query parser (src/semantic/query/parser.ts) reads them
// ---------------------------------------------------------------------------------------------------

/** The `_ASKST` value of a query: its description's normalised string (Description::getQueryString). */
export function normalizedQueryString(conditions: string, ctx: LanguageContext): string {
  return queryString(parseConditions(conditions, ctx).description, false, ctx.codec);
}
