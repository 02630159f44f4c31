/**
 * action=opensearch (ApiOpenSearch of 1.25): title suggestions in the OpenSearch JSON form
 * `[query, [titles], [descriptions], [urls]]`, or with format=xml the OpenSearch XML of Internet
 * Explorer's search providers (`<SearchSuggestion>` with a `<Section>` of `<Item>`s), from the same
 * prefix search as list=prefixsearch. Its `format` defaults to json (not jsonfm), and warnings cannot be
 * shown in the JSON form: they are dropped, or with `warningsaserror` end the request with the
 * `warnings` error.
 */
import type { ActionModule, CustomPrinter, ModuleContext } from '../api/types.js';
import { ApiError } from '../api/errors.js';
import { FORMATS, printerOptions, printerParamSet, render, type FormatName, type PrinterOptions } from '../api/format/printer.js';
import { pageUrl, serverOf } from '../wiki/files.js';
import { limitParam, namespaceParam } from '../api/param-presets.js';
import { prefixSearchTitles, type PrefixMatch } from './query/prefixsearch.js';
import { namespaceList } from './query/search.js';

export const opensearchModule: ActionModule = {
  kind: 'action',
  name: 'opensearch',
  prefix: '',
  description: 'Search the wiki using the OpenSearch protocol.',
  customPrinter: openSearchPrinter,
  params: {
    search: { type: 'string', help: 'Search string.' },
    limit: limitParam(10, 'Maximum number of results to return.', 100, 100),
    namespace: namespaceParam('Namespaces to search.', { multi: true, default: 0 }),
    suggest: { type: 'boolean', default: false, help: 'Do nothing if $wgEnableOpenSearchSuggest is false.' },
    redirects: {
      type: ['return', 'resolve'],
      help: 'How to handle redirects: return the redirect itself, or resolve it to its target (default: return for json, as 1.25 keeps it for compatibility).',
    },
    format: { type: ['json', 'jsonfm', 'xml', 'xmlfm'], default: 'json', help: 'The format of the output.' },
    warningsaserror: {
      type: 'boolean',
      default: false,
      help: 'If warnings are raised with format=json, return an API error instead of ignoring them.',
    },
  },
  examples: ['action=opensearch&search=Ки'],
  async run(ctx) {
    const p = ctx.params;
    const search = (p.search as string | undefined) ?? '';
    const xml = p.format === 'xml' || p.format === 'xmlfm';
    // redirects are resolved by default only in formats other than json (for compatibility)
    const resolve = p.redirects === undefined ? xml : p.redirects === 'resolve';
    let titles: PrefixMatch[] = await prefixSearchTitles(ctx, search, p.limit as number, namespaceList(p.namespace), 0);
    if (resolve && titles.length) {
      const targets = await ctx.store.pages.redirectTargets(titles.filter((t) => t.pageid !== null).map((t) => t.pageid!));
      const seen = new Set<string>();
      const resolved: PrefixMatch[] = [];
      for (const t of titles) {
        const r = t.pageid !== null ? targets.get(t.pageid) : undefined;
        const to = r ? { ns: r.ns, dbkey: r.dbkey, pageid: null } : t;
        const key = `${to.ns}|${to.dbkey}`;
        if (seen.has(key)) continue;
        seen.add(key);
        resolved.push(to);
      }
      titles = resolved;
    }
    const server = serverOf(ctx.request.apiUrl);
    if (xml) {
      // ApiOpenSearch::populateResult's xml form: no extracts or images here (no TextExtracts/PageImages)
      ctx.result.set('version', '2.0');
      ctx.result.set('xmlns', 'http://opensearch.org/searchsuggest2');
      ctx.result.set('Query', search);
      ctx.result.set(
        'Section',
        titles.map((t) => ({ Text: ctx.wiki.titleText(t.ns, t.dbkey), Url: pageUrl(server, ctx.wiki.codec.prefixedDbKey(t.ns, t.dbkey)) })),
      );
      return;
    }
    ctx.result.setRoot([
      search,
      titles.map((t) => ctx.wiki.titleText(t.ns, t.dbkey)),
      titles.map(() => ''),
      titles.map((t) => pageUrl(server, ctx.wiki.codec.prefixedDbKey(t.ns, t.dbkey))),
    ]);
  },
};

/**
 * ApiOpenSearchFormatJson: the bare array in json (the default here, not jsonfm) or jsonfm, with the
 * printer's own parameters (utf8, callback, formatversion) as any json answer.
 */
function openSearchPrinter(ctx: ModuleContext): CustomPrinter | null {
  const raw = ctx.request.raw;
  const format = (raw.format ?? 'json') as FormatName;
  if (!(FORMATS as readonly string[]).includes(format)) return null;
  if (format === 'xml' || format === 'xmlfm') return openSearchXmlPrinter(ctx, format);
  let printer;
  try {
    printer = printerOptions(format, raw);
  } catch {
    // a bad printer parameter: the format= printer reports it
    return null;
  }
  const query = ctx.request.url.includes('?') ? ctx.request.url.slice(ctx.request.url.indexOf('?') + 1) : '';
  // jsonfm is an HTML page even with a callback (render() wraps the JSONP in it): its type first
  const contentType =
    format === 'jsonfm'
      ? 'text/html; charset=utf-8'
      : printer.callback !== undefined
        ? 'text/javascript; charset=utf-8'
        : 'application/json; charset=utf-8';
  return {
    contentType,
    render(result) {
      // warnings have no place in the array: dropped, or the request fails with them when asked
      const warnings = result.get('warnings');
      if (warnings && raw.warningsaserror !== undefined) {
        throw new ApiError('warnings', 'Warnings cannot be represented in OpenSearch JSON format', { warnings });
      }
      return render(result.root ?? [], printer, ctx.request.apiUrl, query).body;
    },
  };
}

/** format=xml: ApiFormatXml with the root element SearchSuggestion (warnings are printed, as there). */
function openSearchXmlPrinter(ctx: ModuleContext, format: 'xml' | 'xmlfm'): CustomPrinter {
  const raw = ctx.request.raw;
  const printer: PrinterOptions = Object.assign(printerOptions(format, raw), { xmlRoot: 'SearchSuggestion' });
  const query = ctx.request.url.includes('?') ? ctx.request.url.slice(ctx.request.url.indexOf('?') + 1) : '';
  const html = format === 'xmlfm';
  return {
    contentType: html ? 'text/html; charset=utf-8' : 'text/xml; charset=utf-8',
    headers: html ? {} : { 'Content-Disposition': 'inline; filename=api-result.xml' },
    params: printerParamSet(format),
    render(result) {
      return render(result.entries(), printer, ctx.request.apiUrl, query).body;
    },
  };
}
