/**
 * Inline queries of a rendered page ({{#ask:}}, {{#show:}}), evaluated as SMW 2.2's AskParserFunction
 * and ShowParserFunction do (SMWQueryProcessor::getQueryAndParamsFromFunctionParams in the inline
 * context, then getResultFromQuery in SMW_OUTPUT_WIKI mode): the same parser and query engine as
 * action=ask (src/semantic/query/, SemanticStore.askQuery/askPrintouts), printed by
 * src/semantic/printers/. The page renderer hands this to the wikitext engine as its
 * inline-query source, as it hands it the template fetcher.
 */
import { conceptCallOutput } from './concepts.js';
import type { Store } from '../../store/store.js';
import type { SubjectKey } from '../../store/semantic-store.js';
import type { Wiki } from '../../wiki/wiki.js';
import type { InlineQueryCall, InlineQueryOutput, TitleRef } from '../../wikitext/expansion-rounds.js';
import { DI } from '../../semantic/types.js';
import { SMW_QMAX_INLINE_LIMIT, SMW_QMAX_LIMIT, SMW_QUPPERBOUND } from '../../semantic/query/limits.js';
import { componentsFromParams, queryOptions } from '../../semantic/query/parameters.js';
import { parseConditions } from '../../semantic/query/parser.js';
import {
  PRINT_PROP,
  PRINT_THIS,
  addThisPrintout,
  printRequestFromString,
  printRequestSerialisation,
  type PrintRequest,
} from '../../semantic/query/print-requests.js';
import { expandConcepts } from '../../semantic/engine/concept-expansion.js';
import { answerConditions, printoutSpecs, queryLanguage } from '../../semantic/engine/query-engine.js';
import type { PrintValue } from '../../semantic/datavalues/wiki-text.js';
import { EXPORT_FORMATS, PRINTED_FORMATS, SRF_FORMATS, printResult, resolveFormat } from '../../semantic/printers/registry.js';
import { paramSpecs, validParam } from '../../semantic/printers/parameters.js';
import type { ResultRow } from '../../semantic/printers/result-printer.js';

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
  return { text: text.replace(/[[\]{}|<>&'_=*#:;~]/g, (c) => '&#' + c.charCodeAt(0) + ';'), expand: false };
}

async function evaluate(store: Store, wiki: Wiki, call: InlineQueryCall, page: TitleRef): Promise<InlineQueryOutput> {
  const codec = wiki.codec;
  if (call.fn === 'concept' || call.fn === 'concept-again') return conceptCallOutput(store, codec, call, page);
  const showMode = call.fn === 'show';
  const { queryString, parameters, printouts } = componentsFromParams(call.args, showMode);

  const lang = await queryLanguage(store.semantic, codec, { queryString, printouts, sort: parameters.get('sort') });

  const written: PrintRequest[] = [];
  for (const p of printouts) {
    const pr = printRequestFromString(p, lang, showMode);
    if (pr) written.push(pr);
  }
  const printRequests = [...written];
  // the subject is printed first, except by #show
  if (!showMode) addThisPrintout(printRequests, parameters.has('mainlabel') ? parameters.get('mainlabel')! : null);
  const format = resolveFormat(parameters.get('format'), printRequests.length, SRF_FORMATS);
  if (!PRINTED_FORMATS.has(format)) return literal(call);

  const options = queryOptions(parameters);
  const { offset, limit } = inlineBounds(options.offset, options.limit, format);
  const parsed = parseConditions(queryString, lang);
  const errors = [...parsed.errors, ...options.errors];

  // with errors SMW runs what is left of the query ($smwgIgnoreQueryErrors), unless nothing is
  let subjects: Array<{ id: number; ns: number; dbkey: string; subobject: string }> = [];
  let further = false;
  if (errors.length > 0 && parsed.description.k === 'thing') {
    // SMW answers an empty result without further results
  } else if (EXPORT_FORMATS.has(format)) {
    // MODE_NONE: nothing is queried, the printer is told there are further results
    further = true;
  } else {
    // the engine's own errors (concepts) join the parser's
    const description = await expandConcepts(parsed.description, codec, store.semantic, errors);
    const answer = await answerConditions(store.semantic, lang, { description, sort: options.sort, limit, offset });
    subjects = answer.subjects;
    further = answer.further;
  }

  const { specs, specIndex } = printoutSpecs(printRequests);
  const ids = subjects.map((s) => s.id);
  // the embedded format prints the pages only
  const needValues = format !== 'count' && format !== 'embedded' && ids.length > 0;
  // ul/ol mark each item with the first letter of its sort key, the category format groups by it
  const needSortKeys = ids.length > 0 && (format === 'ul' || format === 'ol' || format === 'category');
  const [values, sortData] = await Promise.all([
    needValues && specs.length > 0 ? store.semantic.askPrintouts(ids, specs) : Promise.resolve([]),
    needSortKeys ? store.semantic.subjectData(subjects) : Promise.resolve([]),
  ]);
  const rows: ResultRow[] = subjects.map((s, i) => {
    const subject: PrintValue = { di: DI.WIKIPAGE, item: '', ns: s.ns, dbkey: s.dbkey, subobject: s.subobject };
    return {
      subject,
      sortKey: sortData[i]?.sortkey ?? s.dbkey.replace(/_/g, ' '),
      fields: printRequests.map((_pr, p) => (specIndex[p] < 0 || !needValues ? [] : values[specIndex[p]][i])),
    };
  });
  if (format === 'category' && rows.length > 0 && printRequests[0].mode !== PRINT_THIS) {
    // a row that does not start with its subject is grouped by the first value's letter: a page's sort key
    const leads = rows.map((r) => r.fields[0]?.[0]).filter((v): v is PrintValue => v !== undefined && v.di === DI.WIKIPAGE);
    const keys: SubjectKey[] = leads.map((v) => ({ ns: v.ns!, dbkey: v.dbkey!, subobject: v.subobject ?? '' }));
    const data = keys.length > 0 ? await store.semantic.subjectData(keys) : [];
    let k = 0;
    for (const r of rows) {
      const v = r.fields[0]?.[0];
      if (v !== undefined && v.di === DI.WIKIPAGE) r.leadSortKey = data[k++]?.sortkey ?? v.dbkey!.replace(/_/g, ' ');
    }
  }

  const linkParams: Array<[string, string]> = [];
  for (const spec of paramSpecs(format)) {
    let v: string | undefined;
    for (const key of [spec.name, ...(spec.aliases ?? [])]) if (v === undefined) v = parameters.get(key);
    if (v === undefined) continue;
    // ParamProcessor sets an invalid value to its default, and the link leaves defaults out
    if ((spec.name === 'limit' || spec.name === 'offset') && !validCount(v, spec.name === 'offset' ? SMW_QUPPERBOUND : undefined)) continue;
    if (!validParam(spec, v)) continue;
    linkParams.push([spec.name, v]);
  }
  // ParamProcessor trims what the printers read
  const trimmed = new Map([...parameters].map(([k, v]) => [k, v.trim()]));

  const printed = printResult({
    codec,
    format,
    params: trimmed,
    printRequests,
    types: printRequests.map((pr) => (pr.mode === PRINT_PROP ? pr.prop!.type : '_wpg')),
    rows,
    further,
    errors,
    queryString,
    offset,
    limit,
    linkParams,
    printoutSerialisations: written.map((pr) => printRequestSerialisation(pr, codec)),
    paramOffset: options.offset,
    pageTitle: codec.prefixedText(page.ns, page.dbkey),
  });
  // SMW wraps a template printer's expanded output in [[SMW::off]]…[[SMW::on]] (no annotations from it)
  return printed.templates ? { text: '[[SMW::off]]' + printed.text + '[[SMW::on]]', expand: true } : { text: printed.text, expand: false };
}

/** The output of each call on the page `page`, in the order given. */
export async function evaluateInlineQueries(
  store: Store,
  wiki: Wiki,
  calls: readonly InlineQueryCall[],
  page: TitleRef,
): Promise<InlineQueryOutput[]> {
  return Promise.all(calls.map((c) => evaluate(store, wiki, c, page)));
}
