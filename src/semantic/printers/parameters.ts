/**
 * The parameters of the result printers as ParamProcessor validates them (SMWQueryProcessor::getParameters
 * and each printer's getParamDefinitions); an invalid value is the parameter's default.
 */
import type { PrintInput } from './result-printer.js';

/** How ParamProcessor validates a parameter; an invalid value is the default (and leaves the link). */
export type ParamSpec =
  | { name: string; kind: 'string'; aliases?: string[] }
  | { name: string; kind: 'int'; min?: number; max?: number; aliases?: string[] }
  | { name: string; kind: 'bool'; aliases?: string[] }
  | { name: string; kind: 'values'; values: readonly string[]; aliases?: string[] };

const str = (name: string, aliases?: string[]): ParamSpec => ({ name, kind: 'string', aliases });
const bool = (name: string): ParamSpec => ({ name, kind: 'bool' });

/** the parameters of SMWQueryProcessor::getParameters, in their order */
const COMMON_PARAMS: ParamSpec[] = [
  str('format'),
  str('source'),
  str('limit'),
  str('offset'),
  { name: 'link', kind: 'values', values: ['all', 'subject', 'none'] },
  str('sort'),
  str('order'),
  { name: 'headers', kind: 'values', values: ['show', 'hide', 'plain'] },
  str('mainlabel'),
  str('intro'),
  str('outro'),
  str('searchlabel'),
  str('default'),
];
const LIST_PARAMS = (columns: boolean): ParamSpec[] => [
  str('sep'),
  str('template'),
  bool('named args'),
  ...(columns ? [{ name: 'columns', kind: 'int', min: 1, max: 10 } as ParamSpec] : []),
  str('userparam'),
  str('introtemplate'),
  str('outrotemplate'),
];
/** each printer's own parameters (getParamDefinitions), in their order */
const PRINTER_PARAMS: Record<string, ParamSpec[]> = {
  table: [str('class'), bool('transpose'), str('sep')],
  broadtable: [str('class'), bool('transpose'), str('sep')],
  list: LIST_PARAMS(false),
  template: LIST_PARAMS(false),
  ul: LIST_PARAMS(true),
  ol: LIST_PARAMS(true),
  category: [{ name: 'columns', kind: 'int' }, str('delim'), str('template'), str('userparam'), bool('named args')],
  embedded: [{ name: 'embedformat', kind: 'values', values: ['h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'ol', 'ul'] }, bool('embedonly')],
  csv: [str('sep'), bool('showsep'), str('filename')],
  dsv: [str('separator', ['sep']), str('filename')],
  json: [bool('prettyprint')],
  rdf: [{ name: 'syntax', kind: 'values', values: ['rdfxml', 'turtle'] }],
  feed: [
    { name: 'type', kind: 'values', values: ['rss', 'atom'] },
    str('title', ['rsstitle']),
    str('description', ['rssdescription']),
    { name: 'page', kind: 'values', values: ['none', 'full'] },
  ],
};

/** the parameter definitions of a format's printer: the common ones, then the printer's */
export function paramSpecs(format: string): ParamSpec[] {
  return [...COMMON_PARAMS, ...(PRINTER_PARAMS[format] ?? [])];
}

/** ParamProcessor's boolean (BoolParser): yes/on/1/true, no/off/0/false, any case */
export function parseBool(v: string): boolean | undefined {
  const t = v.trim().toLowerCase();
  if (t === 'yes' || t === 'on' || t === '1' || t === 'true') return true;
  if (t === 'no' || t === 'off' || t === '0' || t === 'false') return false;
  return undefined;
}

/** ParamProcessor's integer (IntParser: optional '-', digits), within the definition's range */
function parseInt10(v: string, min?: number, max?: number): number | undefined {
  const t = v.trim();
  if (!/^-?\d+$/.test(t)) return undefined;
  const n = Number(t);
  if ((min !== undefined && n < min) || (max !== undefined && n > max)) return undefined;
  return n;
}

/** whether ParamProcessor keeps a given value (else the parameter is set to its default) */
export function validParam(spec: ParamSpec, v: string): boolean {
  switch (spec.kind) {
    case 'bool':
      return parseBool(v) !== undefined;
    case 'int':
      return parseInt10(v, spec.min, spec.max) !== undefined;
    case 'values':
      return spec.values.includes(v.trim());
    default:
      return true;
  }
}

/**
 * The value of a printer parameter under its name or an alias (the parameters are given trimmed), or
 * undefined when missing or invalid.
 */
export function given(o: PrintInput, name: string): string | undefined {
  const spec = paramSpecs(o.format).find((p) => p.name === name);
  for (const key of [name, ...(spec?.aliases ?? [])]) {
    const v = o.params.get(key);
    if (v !== undefined) return spec && !validParam(spec, v) ? undefined : v;
  }
  return undefined;
}

export function intParam(o: PrintInput, name: string, deflt: number): number {
  const v = given(o, name);
  return v === undefined ? deflt : Number(v.trim());
}

export function boolParam(o: PrintInput, name: string): boolean {
  const v = given(o, name);
  return v !== undefined && parseBool(v) === true;
}
