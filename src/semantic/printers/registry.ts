/**
 * The result formats of SMW 2.2 ($smwgResultFormats) and the printer each one has here
 * (ResultPrinter::getResult in SMW_OUTPUT_WIKI, as SMWQueryProcessor::getResultFromQuery calls it).
 */
import { encodeMessages, furtherResultsLink, linkFurther, truthy, type PrintInput, type PrintOutput } from './result-printer.js';
import { printTable } from './table.js';
import { printList } from './list.js';
import { printCategory } from './category.js';
import { printEmbedded } from './embedded.js';

/** Formats of SMW 2.2's $smwgResultFormats (and $smwgResultAliases). */
const KNOWN_FORMATS = new Set([
  'table',
  'list',
  'ol',
  'ul',
  'broadtable',
  'category',
  'embedded',
  'template',
  'count',
  'debug',
  'feed',
  'csv',
  'dsv',
  'json',
  'rdf',
]);
const FORMAT_ALIASES: Record<string, string> = Object.assign(Object.create(null), { rss: 'feed' });
/**
 * Formats of the usual Semantic Result Formats, which a wiki's pages may name: recorded as written
 * (_ASKFO) and, not being printed here, shown inert like SMW's export formats.
 */
export const SRF_FORMATS: readonly string[] = [
  'map',
  'googlemaps',
  'googlemaps3',
  'openlayers',
  'leaflet',
  'timeline',
  'eventline',
  'calendar',
  'gallery',
  'tagcloud',
  'sum',
  'average',
  'max',
  'min',
  'product',
  'median',
  'graph',
  'bibtex',
  'vcard',
  'icalendar',
  'excel',
  'outline',
  'datatables',
  'filtered',
  'tree',
  'ultree',
  'oltree',
  'jqplotchart',
  'jqplotseries',
  'sparkline',
];
/** what is printed here; the other formats leave the call as written */
export const PRINTED_FORMATS = new Set([
  'table',
  'broadtable',
  'list',
  'ol',
  'ul',
  'template',
  'count',
  'category',
  'embedded',
  'csv',
  'dsv',
  'json',
  'rdf',
  'feed',
]);

/**
 * SMW's file export printers: outside Special:Ask their query mode is MODE_NONE (the query is not run)
 * and, having no results and "further results", they print only the link to Special:Ask with the format.
 */
export const EXPORT_FORMATS = new Set(['csv', 'dsv', 'json', 'rdf', 'feed']);

/**
 * SMWParamFormat: an alias becomes its format, an unknown format the default (one print request: list,
 * else table). `extra`: formats of other extensions the wiki is taken to have.
 */
export function resolveFormat(raw: string | undefined, printRequests: number, extra: readonly string[] = []): string {
  const v = (raw ?? 'auto').trim().toLowerCase();
  if (KNOWN_FORMATS.has(v) || extra.includes(v)) return v;
  if (FORMAT_ALIASES[v]) return FORMAT_ALIASES[v];
  return printRequests === 1 ? 'list' : 'table';
}

/** The printer of each format printed here (PRINTED_FORMATS). */
const PRINTERS: Record<string, (o: PrintInput) => PrintOutput> = {
  table: printTable,
  broadtable: printTable,
  list: printList,
  ul: printList,
  ol: printList,
  template: printList,
  category: printCategory,
  embedded: printEmbedded,
};

/**
 * The wikitext of an inline query's answer (ResultPrinter::getResult in SMW_OUTPUT_WIKI): the empty
 * result's default or further-results link (all an export format prints outside Special:Ask), the
 * printer's text, its errors, intro and outro.
 */
export function printResult(o: PrintInput): PrintOutput {
  const intro = (o.params.get('intro') ?? '').replace(/_/g, ' ');
  const outro = (o.params.get('outro') ?? '').replace(/_/g, ' ');
  const deflt = (o.params.get('default') ?? '').replace(/_/g, ' ');
  if (o.format === 'count') {
    return { text: intro + String(o.rows.length) + outro + encodeMessages(o.errors), templates: false };
  }
  if (o.rows.length === 0) {
    if (!o.further) return { text: deflt + encodeMessages(o.errors), templates: false };
    if (!linkFurther(o)) return { text: '', templates: false };
    return { text: furtherResultsLink(o, 0) + encodeMessages(o.errors), templates: false };
  }
  // the export formats print nothing but their link (no rows): the list printer stands in for them
  const printed = (PRINTERS[o.format] ?? printList)(o);
  let text = printed.text + encodeMessages(o.errors);
  if (truthy(intro)) text = intro + text;
  if (truthy(outro)) text = text + outro;
  return { text, templates: printed.templates };
}
