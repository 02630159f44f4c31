/**
 * Inline queries of a rendered page ({{#ask:}}, {{#show:}}), evaluated as SMW 2.2's AskParserFunction
 * and ShowParserFunction do (SMWQueryProcessor::getQueryAndParamsFromFunctionParams in the inline
 * context, then getResultFromQuery in SMW_OUTPUT_WIKI mode): the same parser and query engine as
 * action=ask (src/semantic/ask.ts, SemanticStore.askQuery/askPrintouts), printed by
 * src/semantic/result-printers.ts. The page renderer hands this to the wikitext engine as its
 * inline-query source, as it hands it the template fetcher.
 */
import type { Store } from '../../store/store.js';
import type { Wiki } from '../../wiki/wiki.js';
import type { InlineQueryCall, InlineQueryOutput } from '../../wikitext/preprocess.js';
import {
  PRINT_CATS,
  PRINT_CCAT,
  PRINT_PROP,
  PRINT_THIS,
  SMW_QMAX_LIMIT,
  SMW_QUPPERBOUND,
  componentsFromParams,
  parseConditions,
  printRequestFromString,
  propertyNames,
  queryOptions,
  typeOfKey,
  userProperty,
  type LanguageContext,
  type PrintRequest,
} from '../../semantic/ask.js';
import { PRINTED_FORMATS, SMW_QMAX_INLINE_LIMIT, SRF_FORMATS, printResult, resolveFormat, type PrintValue, type ResultRow } from '../../semantic/result-printers.js';
import type { AskPrintoutSpec } from '../../store/semantic-store.js';

/** SMW's parameter definitions in their order (SMWQueryProcessor::getParameters, then the printer's): the further-results link lists the ones given in it */
const COMMON_PARAMS = ['format', 'source', 'limit', 'offset', 'link', 'sort', 'order', 'headers', 'mainlabel', 'intro', 'outro', 'searchlabel', 'default'];
const TABLE_PARAMS = ['class', 'transpose', 'sep'];
const LIST_PARAMS = ['sep', 'template', 'named args', 'columns', 'userparam', 'introtemplate', 'outrotemplate'];

/** PrintRequest::getSerialisation (the further-results link repeats the printouts). */
function serialisation(pr: PrintRequest, codec: Wiki['codec']): string {
  const fmt = pr.format === false || pr.format === '' ? '' : '#' + pr.format;
  switch (pr.mode) {
    case PRINT_CATS: {
      const cat = codec.nsName(14) ?? 'Category';
      return '?' + cat + (pr.label !== cat ? '=' + pr.label : '');
    }
    case PRINT_CCAT: {
      const name = codec.prefixedText(14, pr.category!);
      return '?' + name + (pr.format !== 'x' ? fmt : '') + (pr.label !== pr.category!.replace(/_/g, ' ') ? '=' + pr.label : '');
    }
    case PRINT_PROP: {
      const name = pr.prop!.key.startsWith('_') ? pr.label : (pr.prop!.inverse ? '-' : '') + pr.prop!.key.replace(/_/g, ' ');
      return '?' + name + fmt + (pr.label !== name ? '=' + pr.label : '');
    }
    default:
      return '?' + fmt + (pr.label !== '' ? '=' + pr.label : '');
  }
}

/** SMWQuery::setOffset/setLimit of an inline query: both bounded by $smwgQMaxInlineLimit; count asks for all. */
export function inlineBounds(offset: number, limit: number, format: string): { offset: number; limit: number } {
  if (format === 'count') return { offset: 0, limit: SMW_QMAX_LIMIT };
  const o = Math.min(SMW_QMAX_INLINE_LIMIT, offset);
  return { offset: o, limit: Math.min(SMW_QMAX_INLINE_LIMIT - o, limit) };
}

/** ParamProcessor's non-negative integer (trimmed), within its upper bound */
function validCount(v: string, upper?: number): boolean {
  const t = v.trim();
  return /^\+?\d+$/.test(t) && (upper === undefined || Number(t) <= upper);
}

/**
 * A format printed here is not: the call is shown as written, its characters as references so that its
 * conditions do not turn into links or categories of the page (as the literal call would).
 */
function literal(call: InlineQueryCall): InlineQueryOutput {
  const text = '{{#' + call.fn + ':' + call.args.join('|') + '}}';
  return { text: text.replace(/[\[\]{}|<>&'_=*#:;~]/g, (c) => '&#' + c.charCodeAt(0) + ';'), expand: false };
}

async function evaluate(store: Store, wiki: Wiki, call: InlineQueryCall): Promise<InlineQueryOutput> {
  const codec = wiki.codec;
  const showMode = call.fn === 'show';
  const { queryString, parameters, printouts } = componentsFromParams(call.args, showMode);

  // the properties' types decide how values are read and printed: one store call for every name
  const names = new Set(propertyNames(queryString, codec));
  for (const p of printouts) {
    const u = userProperty(p.split('=')[0].split('#')[0].trim());
    if (!('error' in u)) names.add(u.key);
  }
  for (const s of (parameters.get('sort') ?? '').split(',')) {
    const u = userProperty(s.trim());
    if (s.trim() !== '' && !('error' in u)) names.add(u.key);
  }
  const userNames = [...names].filter((n) => !n.startsWith('_'));
  const types = userNames.length > 0 ? await store.semantic.propertyTypes(userNames) : new Map<string, string>();
  const lang: LanguageContext = { codec, typeOf: (key) => types.get(key) ?? '_wpg' };

  const written: PrintRequest[] = [];
  for (const p of printouts) {
    const pr = printRequestFromString(p, lang, showMode);
    if (pr) written.push(pr);
  }
  const printRequests = [...written];
  // SMWQueryProcessor::addThisPrintout (not for #show)
  if (!showMode && (!parameters.has('mainlabel') || parameters.get('mainlabel')!.trim() !== '-')) {
    printRequests.unshift({ mode: PRINT_THIS, label: parameters.get('mainlabel') ?? '', format: false });
  }
  const format = resolveFormat(parameters.get('format'), printRequests.length, SRF_FORMATS);
  if (!PRINTED_FORMATS.has(format)) return literal(call);

  const options = queryOptions(parameters);
  const { offset, limit } = inlineBounds(options.offset, options.limit, format);
  const parsed = parseConditions(queryString, lang);
  const errors = [...parsed.errors, ...options.errors];

  // with errors SMW runs what is left of the query ($smwgIgnoreQueryErrors), unless nothing is
  let subjects: Array<{ id: number; ns: number; dbkey: string; subobject: string }> = [];
  let further = false;
  if (!(errors.length > 0 && parsed.description.k === 'thing')) {
    const sortTypes: Record<string, string> = {};
    for (const [k] of options.sort) if (k !== '') sortTypes[k] = typeOfKey(lang, k);
    const answer = await store.semantic.askQuery({ description: parsed.description, sort: options.sort, sortTypes, limit, offset });
    subjects = answer.subjects;
    further = answer.further;
  }

  const specs: AskPrintoutSpec[] = [];
  const specIndex: number[] = [];
  for (const pr of printRequests) {
    if (pr.mode === PRINT_PROP) {
      specIndex.push(specs.length);
      specs.push({ kind: 'prop', key: pr.prop!.key, inverse: pr.prop!.inverse });
    } else if (pr.mode === PRINT_CATS || pr.mode === PRINT_CCAT) {
      specIndex.push(specs.length);
      specs.push({ kind: 'cats' });
    } else specIndex.push(-1);
  }
  const ids = subjects.map((s) => s.id);
  const needValues = format !== 'count' && ids.length > 0;
  const [values, sortData] = await Promise.all([
    needValues && specs.length > 0 ? store.semantic.askPrintouts(ids, specs) : Promise.resolve([]),
    // ul/ol mark each item with the first letter of its sort key
    needValues && (format === 'ul' || format === 'ol') ? store.semantic.subjectData(subjects) : Promise.resolve([]),
  ]);
  const rows: ResultRow[] = subjects.map((s, i) => {
    const subject: PrintValue = { di: 9, item: '', ns: s.ns, dbkey: s.dbkey, subobject: s.subobject };
    const sortkey = sortData[i]?.sortkey ?? s.dbkey.replace(/_/g, ' ');
    return {
      subject,
      sortKeyInitial: [...sortkey][0] ?? '',
      fields: printRequests.map((_pr, p) => (specIndex[p] < 0 || !needValues ? [] : values[specIndex[p]][i])),
    };
  });

  const printerParams = format === 'table' || format === 'broadtable' ? TABLE_PARAMS : LIST_PARAMS;
  const linkParams: Array<[string, string]> = [];
  for (const name of [...COMMON_PARAMS, ...printerParams]) {
    const v = parameters.get(name);
    if (v === undefined) continue;
    // ParamProcessor sets an invalid limit/offset to its default, and the link leaves defaults out
    if ((name === 'limit' || name === 'offset') && !validCount(v, name === 'offset' ? SMW_QUPPERBOUND : undefined)) continue;
    linkParams.push([name, v]);
  }

  const printed = printResult({
    codec,
    format,
    params: parameters,
    printRequests,
    types: printRequests.map((pr) => (pr.mode === PRINT_PROP ? pr.prop!.type : '_wpg')),
    rows,
    further,
    errors,
    queryString,
    offset,
    limit,
    linkParams,
    printoutSerialisations: written.map((pr) => serialisation(pr, codec)),
  });
  // SMW wraps a template printer's expanded output in [[SMW::off]]…[[SMW::on]] (no annotations from it)
  return printed.templates ? { text: '[[SMW::off]]' + printed.text + '[[SMW::on]]', expand: true } : { text: printed.text, expand: false };
}

/** The output of each call, in the order given. */
export async function evaluateInlineQueries(store: Store, wiki: Wiki, calls: readonly InlineQueryCall[]): Promise<InlineQueryOutput[]> {
  return Promise.all(calls.map((c) => evaluate(store, wiki, c)));
}
