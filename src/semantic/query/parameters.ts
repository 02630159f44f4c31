/**
 * The parameters of a query (SMWQueryProcessor): an #ask call's or an API query's arguments divided into
 * conditions, parameters and printouts, and the limit, offset, sort, order and mainlabel they give.
 */
import { SMW_QDEFAULT_LIMIT, SMW_QMAX_LIMIT, SMW_QUPPERBOUND } from './limits.js';
import { userProperty } from './properties.js';

export interface AskComponents {
  queryString: string;
  /** raw parameters, keys lowercased */
  parameters: Map<string, string>;
  /** printout strings after '?' (with their raw text) */
  printouts: string[];
}

/** SMWQueryProcessor::getComponentsFromFunctionParams; in show mode (#show) the conditions are one page. */
export function componentsFromParams(rawParams: string[], showMode = false): AskComponents {
  let queryString = '';
  const parameters = new Map<string, string>();
  const printouts: string[] = [];
  for (let raw of rawParams) {
    // '=' inside [[…::…]] is not a parameter separator (bug 32955)
    raw = raw.replace(/\[\[(?:([^:][^\]]*):[=:])+([^[\]]*)\]\]/gu, (m) => m.replace(/=/g, '-3D'));
    if (raw === '') continue;
    if (raw[0] === '?') printouts.push(raw.slice(1));
    else if (raw[0] === '+')
      continue; // a parameter of the previous printout (no effect on the API output)
    else {
      const eq = raw.indexOf('=');
      if (eq >= 0) parameters.set(raw.slice(0, eq).trim().toLowerCase(), raw.slice(eq + 1));
      else queryString += raw;
    }
  }
  queryString = queryString.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/-3D/g, '=');
  if (showMode) queryString = `[[:${queryString}]]`;
  return { queryString, parameters, printouts };
}

/** ApiRequestParameterFormatter::getAskApiParameters: split at single '|' (not '||'). */
export function splitAskQuery(query: string): string[] {
  const out: string[] = [];
  let last = 0;
  for (let i = 1; i < query.length - 1; i++) {
    if (query[i] === '|' && query[i - 1] !== '|' && query[i + 1] !== '|') {
      out.push(query.slice(last, i));
      last = i + 1;
    }
  }
  out.push(query.slice(last));
  return out;
}

export type SortOrder = 'ASC' | 'DESC' | 'RANDOM';

export interface QueryOptions {
  limit: number;
  offset: number;
  /** [property key ('' = the page), order], in the order given */
  sort: Array<[string, SortOrder]>;
  mainlabel: string | null;
  errors: string[];
}

/** ParamProcessor's integer with 'negatives' => false (and an upper bound): invalid → the default. */
function intParam(v: string | undefined, dflt: number, upper?: number): number {
  if (v === undefined) return dflt;
  const t = v.trim();
  if (!/^\+?\d+$/.test(t)) return dflt;
  const n = Number(t);
  if (upper !== undefined && n > upper) return dflt;
  return n;
}

/** ParamProcessor's list: comma-separated, trimmed. */
function listParam(v: string | undefined): string[] | undefined {
  if (v === undefined) return undefined;
  return v.split(',').map((x) => x.trim());
}

/** An order parameter's word (any case): descending/reverse/desc, random/rand, else ascending. */
export function sortOrder(word: string): SortOrder {
  const x = word.toLowerCase();
  return x === 'descending' || x === 'reverse' || x === 'desc' ? 'DESC' : x === 'random' || x === 'rand' ? 'RANDOM' : 'ASC';
}

/** Sort keys as SMWQueryProcessor collects them: a key given again keeps its place and takes the new order. */
export function setSortKey(sort: Array<[string, SortOrder]>, key: string, order: SortOrder): void {
  const i = sort.findIndex(([k]) => k === key);
  if (i >= 0) sort[i][1] = order;
  else sort.push([key, order]);
}

/** createQuery's limit/offset/sort handling for the special-page context of the API. */
export function queryOptions(parameters: Map<string, string>): QueryOptions {
  const errors: string[] = [];
  const offset = Math.min(SMW_QMAX_LIMIT, intParam(parameters.get('offset'), 0, SMW_QUPPERBOUND));
  const limit = Math.min(SMW_QMAX_LIMIT - offset, intParam(parameters.get('limit'), SMW_QDEFAULT_LIMIT), SMW_QMAX_LIMIT);
  const sortParam = listParam(parameters.get('sort')) ?? [''];
  const orderParam = (listParam(parameters.get('order')) ?? []).filter((o) => o !== '');
  const orders = orderParam.map(sortOrder);
  const sort: Array<[string, SortOrder]> = [];
  for (const s of sortParam) {
    let key: string;
    if (s.trim() === '') key = '';
    else {
      const p = userProperty(s.trim());
      if ('error' in p) {
        errors.push(p.error);
        continue;
      }
      key = p.key;
    }
    setSortKey(sort, key, orders.length ? orders.shift()! : 'ASC');
  }
  if (!sort.some(([k]) => k === '') && orders.length > 0) setSortKey(sort, '', orders.shift()!);
  const mainlabel = parameters.has('mainlabel') ? parameters.get('mainlabel')! : null;
  return { limit, offset, sort, mainlabel, errors };
}
