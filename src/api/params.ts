/**
 * Parameter validation from declarations (ApiBase::getParameterFromSettings, parseMultiValue and
 * validateLimit of 1.25): the module says what it takes, this file turns the raw request into typed
 * values and produces the standard errors and warnings.
 */
import { ApiError, texts } from './errors.js';
import type { ParamDecl, ParamDecls, Params } from './types.js';
import { parseTimestamp } from '../wiki/timestamps.js';

/** Values per multi-value parameter for users without apihighlimits. */
export const MULTI_VALUE_LIMIT = 50;

export interface ParamSource {
  /** raw request parameters */
  raw: Record<string, string>;
  /** names of the request's parameters some module has read (for the "Unrecognized parameter" warning) */
  used: Set<string>;
  /** the values a 'namespace' parameter accepts: the wiki's namespace ids ≥ 0 (MWNamespace::getValidNamespaces) */
  namespaces?: readonly string[];
}

export interface ValidationSink {
  warn(text: string): void;
  /** record `limits.<module>` when limit=max was asked */
  setLimit(value: number): void;
}

/** PHP intval: leading optional sign and digits, else 0. */
export function intval(s: string): number {
  const m = /^\s*([+-]?\d+)/.exec(s);
  if (!m) return 0;
  const n = Number(m[1]);
  return Number.isSafeInteger(n) ? n : n > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}

export function splitMulti(value: string): string[] {
  return value.startsWith('\x1f') ? value.slice(1).split('\x1f') : value.split('|');
}

/**
 * Validate all declared parameters of one module.
 * @param encPrefix the prefix as the client sees it ('ac', or 'gac' in generator mode)
 * @param codePrefix the prefix that error codes get (same as encPrefix)
 */
export function extractParams(decls: ParamDecls, encPrefix: string, src: ParamSource, sink: ValidationSink): Params {
  const c = compiled(decls, encPrefix);
  // every parameter the request does not send gets its value from the template; only the few the
  // request names (and required ones, which fail when absent) are validated
  const out: Params = { ...c.template };
  const raw = src.raw;
  let todo: number[] | null = null;
  for (const k in raw) {
    const i = c.byEnc.get(k);
    if (i !== undefined) (todo ??= []).push(i);
  }
  // a list default is a fresh array per request: modules may change what they get
  for (let j = 0; j < c.listDefaults.length; j++) {
    const d = c.listDefaults[j]!;
    if (raw[d.enc] === undefined) out[d.name] = d.values.slice();
  }
  if (c.required.length) todo = todo ? todo.concat(c.required) : c.required.slice();
  if (todo === null) return out;
  // declaration order, as the errors and warnings of 1.25 come
  // (insertion sort: a few entries, mostly in order already)
  for (let a = 1; a < todo.length; a++) {
    const x = todo[a]!;
    let b = a - 1;
    for (; b >= 0 && todo[b]! > x; b--) todo[b + 1] = todo[b]!;
    todo[b + 1] = x;
  }
  const namespaces = src.namespaces ?? null;
  let last = -1;
  for (const i of todo) {
    if (i === last) continue;
    last = i;
    const { name, enc, decl } = c.list[i]!;
    const value = raw[enc];
    // only the request's own names are ever looked up in `used`: the set stays a few entries long
    if (value !== undefined) src.used.add(enc);
    out[name] = extractOne(name, enc, encPrefix, decl, value, sink, namespaces);
    // ApiBase::getParameterFromSettings: a deprecated parameter that is given (a boolean: set) is warned about
    if (decl.deprecated && value !== undefined) sink.warn(`The ${enc} parameter has been deprecated.`);
  }
  return out;
}

interface Declared {
  name: string;
  /** the name as the client sends it (with the prefix) */
  enc: string;
  decl: ParamDecl;
}

interface Compiled {
  /** in declaration order */
  list: Declared[];
  /** prefixed name → index in `list` */
  byEnc: Map<string, number>;
  /** every parameter with its value when the request does not send it, in declaration order */
  template: Params;
  /** required parameters: their absence is an error, in declaration order among the others' */
  required: number[];
  /** multi-value parameters with a default: its values */
  listDefaults: Array<{ name: string; enc: string; values: readonly string[] }>;
}

/** per declarations and prefix, built once rather than per request */
const compiledCache = new WeakMap<ParamDecls, Map<string, Compiled>>();

function compiled(decls: ParamDecls, prefix: string): Compiled {
  let byPrefix = compiledCache.get(decls);
  if (!byPrefix) compiledCache.set(decls, (byPrefix = new Map()));
  let c = byPrefix.get(prefix);
  if (!c) byPrefix.set(prefix, (c = compile(decls, prefix)));
  return c;
}

function compile(decls: ParamDecls, prefix: string): Compiled {
  const list = Object.entries(decls).map(([name, decl]) => ({ name, enc: prefix + name, decl }));
  const byEnc = new Map<string, number>();
  const template: Params = {};
  const required: number[] = [];
  const listDefaults: Compiled['listDefaults'] = [];
  list.forEach(({ name, enc, decl }, i) => {
    byEnc.set(enc, i);
    if (decl.type === 'boolean') template[name] = false;
    else if (decl.required) {
      template[name] = undefined;
      required.push(i);
    } else if (decl.multi && typeof decl.default === 'string') {
      template[name] = undefined;
      listDefaults.push({ name, enc, values: decl.default === '' ? [] : splitMulti(decl.default) });
    } else template[name] = decl.default;
  });
  return { list, byEnc, template, required, listDefaults };
}

function extractOne(
  name: string,
  enc: string,
  prefix: string,
  decl: ParamDecl,
  raw: string | undefined,
  sink: ValidationSink,
  namespaces: readonly string[] | null,
): unknown {
  const { type } = decl;
  if (type === 'boolean') return raw !== undefined;
  if (raw === undefined) {
    if (decl.required) throw new ApiError(prefix + 'no' + name, texts.missingParam(name));
    if (decl.default === undefined) return decl.multi ? undefined : undefined;
    if (decl.multi && typeof decl.default === 'string') return decl.default === '' ? [] : splitMulti(decl.default);
    return decl.default;
  }
  if (decl.required && raw === '' && (type === 'string' || type === 'text')) {
    throw new ApiError(prefix + 'no' + name, texts.missingParam(name));
  }
  // a 'namespace' parameter is an enum of the wiki's namespace ids, with the enum's errors and warnings
  const allowed = Array.isArray(type) ? (type as readonly string[]) : type === 'namespace' ? namespaces : null;
  let values: string[];
  if (decl.multi || allowed) {
    values = parseMultiValue(enc, prefix, raw, !!decl.multi, allowed, !!decl.allowDuplicates, sink);
  } else {
    values = [raw];
  }
  if (decl.multi) return values.map((v) => convertValue(v, enc, prefix, decl, sink));
  return convertValue(values[0]!, enc, prefix, decl, sink);
}

function convertValue(v: string, enc: string, prefix: string, decl: ParamDecl, sink: ValidationSink): unknown {
  switch (decl.type) {
    case 'integer':
    case 'limit':
      return validateInteger(enc, v, decl, sink);
    case 'namespace':
      return intval(v);
    case 'timestamp': {
      const ts = parseTimestamp(v);
      if (ts === null) throw new ApiError(prefix + 'badtimestamp_' + enc, texts.badTimestamp(enc, v));
      return ts;
    }
    case 'user': {
      // ApiBase::validateUser: the text of Title::makeTitleSafe(NS_USER, value), first letter up
      const t = v.replace(/_/g, ' ').trim();
      return t.charAt(0).toLocaleUpperCase('uk') + t.slice(1);
    }
    default:
      return v;
  }
}

function validateInteger(enc: string, v: string, decl: ParamDecl, sink: ValidationSink): number {
  if (decl.type === 'limit' && v === 'max') {
    const max = decl.max ?? 500;
    sink.setLimit(max);
    return max;
  }
  const orig = intval(v);
  let value = orig;
  if (decl.min !== undefined && value < decl.min) {
    sink.warn(texts.lessThan(enc, decl.min, orig));
    value = decl.min;
  }
  if (decl.max !== undefined && value > decl.max) {
    sink.warn(texts.overForUsers(enc, decl.max, orig));
    value = decl.max;
  }
  return value;
}

/** the values of an enum parameter as a set, made once per list */
const allowedSets = new WeakMap<readonly string[], Set<string>>();

/**
 * Is `value` one of `allowed`? A set's lookup: Array.includes compared the request's value (a string of
 * its own, never internalized) with every allowed name of its length, each in a call to the runtime
 * (action= and list= have dozens).
 */
function allows(allowed: readonly string[], value: string): boolean {
  let set = allowedSets.get(allowed);
  if (set === undefined) allowedSets.set(allowed, (set = new Set(allowed)));
  return set.has(value);
}

/** ApiBase::parseMultiValue: split, cap at 50, drop duplicates, check enum values. */
function parseMultiValue(
  enc: string,
  prefix: string,
  value: string,
  allowMultiple: boolean,
  allowed: readonly string[] | null,
  allowDuplicates: boolean,
  sink: ValidationSink,
): string[] {
  if (value.trim() === '' && allowMultiple) return [];
  // one allowed value (most requests' every value): what the steps below would give, without their lists
  if (!value.includes('|') && value.charCodeAt(0) !== 0x1f && (allowed === null || allows(allowed, value))) return [value];
  let list = splitMulti(value);
  if (list.length > MULTI_VALUE_LIMIT) {
    list = list.slice(0, MULTI_VALUE_LIMIT);
    sink.warn(texts.tooManyValues(enc, MULTI_VALUE_LIMIT));
  }
  if (!allowMultiple && list.length !== 1) {
    const possible = allowed ? allowed : list;
    throw new ApiError(prefix + 'multival_' + enc, texts.multiValue(enc, [...possible]));
  }
  if (allowed) {
    const unknown = list.filter((v) => !allowed.includes(v));
    if (unknown.length) {
      if (!allowMultiple) throw new ApiError(prefix + 'unknown_' + enc, texts.unknownValue(enc, list[0]));
      sink.warn(texts.unknownValues(enc, unknown));
      list = list.filter((v) => allowed.includes(v));
    }
  }
  if (!allowDuplicates) list = [...new Set(list)];
  return list;
}
