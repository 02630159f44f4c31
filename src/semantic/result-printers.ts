/**
 * Semantic MediaWiki 2.2's result printers for inline queries ({{#ask:}}, {{#show:}}), without I/O: the
 * wikitext SMW's printers return in SMW_OUTPUT_WIKI mode, which the page's parse then turns into HTML
 * (TableResultPrinter + HtmlTableRenderer, ListResultPrinter for list/ul/ol/template, the count mode of
 * SMWQueryProcessor::getResultFromQuery), the further-results link (SMWQueryResult::getLink,
 * SMWInfolink in wiki mode), the error box (smwfEncodeMessages + Highlighter) and the values' short
 * wiki texts (SMWDataValue::getShortWikiText with or without a linker).
 */
import { escapeElementText, htmlspecialchars } from '../wiki/html.js';
import { ucfirst } from '../wiki/language.js';
import { decodeCharReferences, type TitleCodec } from '../wiki/titles.js';
import { DI } from './types.js';
import { PRINT_CCAT, PRINT_PROP, PRINT_THIS, type PrintRequest } from './query/print-requests.js';
import { itemSortKey } from './datavalues/sort-key.js';
import { phpFloatToString } from './php.js';

/** $smwgQMaxInlineLimit */
export const SMW_QMAX_INLINE_LIMIT = 500;

/** Formats of SMW 2.2's $smwgResultFormats (and $smwgResultAliases). */
const KNOWN_FORMATS = new Set(['table', 'list', 'ol', 'ul', 'broadtable', 'category', 'embedded', 'template', 'count', 'debug', 'feed', 'csv', 'dsv', 'json', 'rdf']);
const FORMAT_ALIASES: Record<string, string> = Object.assign(Object.create(null), { rss: 'feed' });
/**
 * Formats of the usual Semantic Result Formats, which a wiki's pages may name: recorded as written
 * (_ASKFO) and, not being printed here, shown inert like SMW's export formats.
 */
export const SRF_FORMATS: readonly string[] = [
  'map', 'googlemaps', 'googlemaps3', 'openlayers', 'leaflet', 'timeline', 'eventline', 'calendar', 'gallery', 'tagcloud',
  'sum', 'average', 'max', 'min', 'product', 'median', 'graph', 'bibtex', 'vcard', 'icalendar', 'excel', 'outline',
  'datatables', 'filtered', 'tree', 'ultree', 'oltree', 'jqplotchart', 'jqplotseries', 'sparkline',
];
/** what is printed here; the other formats leave the call as written */
export const PRINTED_FORMATS = new Set(['table', 'broadtable', 'list', 'ol', 'ul', 'template', 'count', 'category', 'embedded', 'csv', 'dsv', 'json', 'rdf', 'feed']);

/**
 * SMW's file export printers: outside Special:Ask their query mode is MODE_NONE (the query is not run)
 * and, having no results and "further results", they print only the link to Special:Ask with the format.
 */
export const EXPORT_FORMATS = new Set(['csv', 'dsv', 'json', 'rdf', 'feed']);

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
  str('format'), str('source'), str('limit'), str('offset'), { name: 'link', kind: 'values', values: ['all', 'subject', 'none'] },
  str('sort'), str('order'), { name: 'headers', kind: 'values', values: ['show', 'hide', 'plain'] }, str('mainlabel'),
  str('intro'), str('outro'), str('searchlabel'), str('default'),
];
const LIST_PARAMS = (columns: boolean): ParamSpec[] => [
  str('sep'), str('template'), bool('named args'),
  ...(columns ? [{ name: 'columns', kind: 'int', min: 1, max: 10 } as ParamSpec] : []),
  str('userparam'), str('introtemplate'), str('outrotemplate'),
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
    { name: 'type', kind: 'values', values: ['rss', 'atom'] }, str('title', ['rsstitle']), str('description', ['rssdescription']),
    { name: 'page', kind: 'values', values: ['none', 'full'] },
  ],
};

/** the parameter definitions of a format's printer: the common ones, then the printer's */
export function paramSpecs(format: string): ParamSpec[] {
  return [...COMMON_PARAMS, ...(PRINTER_PARAMS[format] ?? [])];
}

/** ParamProcessor's boolean (BoolParser): yes/on/1/true, no/off/0/false, any case */
function parseBool(v: string): boolean | undefined {
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
function given(o: PrintInput, name: string): string | undefined {
  const spec = paramSpecs(o.format).find((p) => p.name === name);
  for (const key of [name, ...(spec?.aliases ?? [])]) {
    const v = o.params.get(key);
    if (v !== undefined) return spec && !validParam(spec, v) ? undefined : v;
  }
  return undefined;
}

function intParam(o: PrintInput, name: string, deflt: number): number {
  const v = given(o, name);
  return v === undefined ? deflt : Number(v.trim());
}

function boolParam(o: PrintInput, name: string): boolean {
  const v = given(o, name);
  return v !== undefined && parseBool(v) === true;
}

/** PHP's truthiness of a string: '' and '0' are false */
function truthy(s: string): boolean {
  return s !== '' && s !== '0';
}

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

const MESSAGES = {
  moreresults: '... подальші результати', // smw_iq_moreresults (uk)
  emptyData: 'Запитані дані не можуть відображатися через деякі недостатні критерії відбору.', // smw-qp-empty-data (uk)
  listContinues: '(прод.)', // listingcontinuesabbrev (MediaWiki, uk)
  notemplategiven: 'Щоб цей формат запиту спрацював, потрібно вказати значення параметра «template».', // smw_notemplategiven (uk)
  warningTitle: 'Помилка', // smw-ui-tooltip-title-warning (uk)
};

/** One value of a printout, as the store gives it. */
export interface PrintValue {
  di: number;
  item: string;
  ns?: number;
  dbkey?: string;
  subobject?: string;
  /** a caption fixed by the print request's format (a category check's 'X') */
  caption?: string;
}

/**
 * The export printers' link captions (their searchlabel defaults: smw_csv_link, smw_dsv_link,
 * smw_json_link, smw_rdf_link, smw-label-feed-link), which SMW 2.2 has in English only.
 */
const EXPORT_LABELS: Record<string, string> = { csv: 'CSV', dsv: 'DSV', json: 'JSON', rdf: 'RDF', feed: 'RSS' };

/** One result row: the subject and, per print request, its values. */
export interface ResultRow {
  subject: PrintValue;
  /** the subject's sort key (Store::getWikiPageSortKey: DEFAULTSORT, else the title text) */
  sortKey: string;
  /** the sort key of the page that is the first value of the first field, when that is not the subject (category format) */
  leadSortKey?: string;
  /** per print request (PRINT_THIS gets the subject) */
  fields: PrintValue[][];
}

export interface PrintInput {
  codec: TitleCodec;
  format: string;
  /** raw parameters, keys lowercased */
  params: Map<string, string>;
  printRequests: PrintRequest[];
  /** property type id per PRINT_PROP request index */
  types: string[];
  rows: ResultRow[];
  further: boolean;
  errors: string[];
  /** for the further-results link */
  queryString: string;
  offset: number;
  limit: number;
  /** params given by the user, in the order SMW's parameter definitions list them: [name, raw value] */
  linkParams: Array<[string, string]>;
  /** PrintRequest::getSerialisation of each printout the user wrote */
  printoutSerialisations: string[];
  /** the offset parameter as given (valid), which the further-results link counts from */
  paramOffset: number;
  /** prefixed text of the page being parsed (the embedded format does not embed it) */
  pageTitle: string;
}

/**
 * smwfEncodeMessages: the warning highlighter around the (escaped) messages. MessageFormatter::getHtml
 * makes the same, its messages escaped with htmlspecialchars' default flags (`quotes` 'double').
 */
export function encodeMessages(messages: string[], quotes: 'double' | 'both' = 'both'): string {
  if (messages.length === 0) return '';
  const escaped = messages.map((m) => htmlspecialchars(m, quotes));
  // SMW joins the items with ' <!--br-->'; the parse that follows removes the comment (Sanitizer::removeHTMLcomments)
  const list = escaped.length === 1 ? escaped[0] : '<ul>' + escaped.map((m) => '<li>' + m + '</li>').join(' ') + '</ul>';
  return (
    element('span', [['class', 'smw-highlighter'], ['data-type', '4'], ['data-state', 'inline'], ['data-title', MESSAGES.warningTitle]],
      element('span', [['class', 'smwtticon warning']], '') + element('div', [['class', 'smwttcontent']], list))
  );
}

/** SMW\NumberFormatter::formatNumberToLocalizedText with uk's (English fallback) separators '.' and ','. */
export function formatNumber(value: number, decplaces = 3): string {
  let places = decplaces;
  let scientific = false;
  if (places > 0 && value !== 0) {
    const abs = Math.abs(value);
    if (abs >= 1e12 || abs <= Math.pow(10, -places)) scientific = true;
    else if (abs < 1) for (let i = 0.1; abs <= i; i *= 0.1) places++;
  }
  if (scientific) {
    // sprintf('%1.6e'): PHP writes the exponent with its sign and no padding
    const [m, e] = value.toExponential(6).split('e');
    return m.replace(/(\.\d+?)0*$/, '$1') + 'e' + (e[0] === '-' ? '' : '+') + e.replace(/^\+/, '');
  }
  const fixed = Math.abs(value).toFixed(places);
  let [int, frac] = fixed.split('.');
  int = int.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  let s = (value < 0 && Number(fixed) !== 0 ? '-' : '') + int + (frac !== undefined ? '.' + frac : '');
  const end = '.' + '0'.repeat(places);
  if (places > 0 && s.endsWith(end)) s = s.slice(0, -end.length);
  else s = s.replace(/(\.\d+?)0*$/, '$1');
  return s;
}

/** SMWDataValue::getShortWikiText of a stored value, linked (a linker given) or not. */
export function valueText(v: PrintValue, type: string, linked: boolean, codec: TitleCodec): string {
  if (v.caption !== undefined) return v.caption;
  switch (v.di) {
    case DI.WIKIPAGE: {
      const prefixed = codec.prefixedText(v.ns!, v.dbkey!);
      const fragment = v.subobject ?? '';
      if (!linked) return prefixed + (fragment !== '' ? '#' + fragment : '');
      const text = v.dbkey!.replace(/_/g, ' ') + (fragment !== '' && fragment[0] !== '_' ? '#' + fragment : '');
      const target = prefixed.replace(/'/g, '&#x0027;') + (fragment !== '' ? '#' + fragment : '');
      if (v.ns === 6) return `[[${target}|${text}|frameless|border|text-top]]`;
      return `[[:${target}|${text}]]`;
    }
    case DI.NUMBER:
      return formatNumber(Number(v.item));
    case DI.TIME:
      return timeCaption(v.item);
    case DI.URI: {
      // SMWURIValue: an e-mail address or telephone number shows without its scheme
      const caption = type === '_ema' && v.item.startsWith('mailto:') ? v.item.slice(7) : type === '_tel' && v.item.startsWith('tel:') ? v.item.slice(4) : v.item;
      const scheme = /^([a-z][a-z0-9+.-]*):(\/\/)?/i.exec(v.item);
      const url = scheme && URL_PROTOCOLS.has(scheme[1].toLowerCase() + ':' + (scheme[2] ?? '')) ? v.item : '';
      return linked && url !== '' && caption !== '' ? `[${url} ${caption}]` : caption;
    }
    case DI.BOOLEAN:
      // the first of smw_true_words / smw_false_words (uk)
      return v.item === 't' ? 'true' : 'false';
    default:
      // texts, codes, URLs, e-mail addresses, telephone numbers: their stored string
      return v.item;
  }
}

/** $wgUrlProtocols of MediaWiki 1.25: a URI value links only with one of these schemes */
const URL_PROTOCOLS = new Set(['bitcoin:', 'ftp://', 'ftps://', 'geo:', 'git://', 'gopher://', 'http://', 'https://', 'irc://', 'ircs://', 'magnet:', 'mailto:', 'mms://', 'news:', 'nntp://', 'redis://', 'sftp://', 'sip:', 'sips:', 'sms:', 'ssh://', 'svn://', 'tel:', 'telnet://', 'urn:', 'worldwind://', 'xmpp:']);

/** SMW 2.2 has no Ukrainian language class: month labels come from SMWLanguageEn. */
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * SMWTimeValue::getCaptionFromDataitem (the preferred caption of a stored date): "day Month year" to the
 * item's precision, "BC" after a year before 1, the time as H:i:s. Items keep the calendar model SMW
 * prefers for their date (Julian before 1582), so no conversion happens here.
 */
function timeCaption(item: string): string {
  const [, y, mo, d, h, mi, sec] = item.split('/');
  const year = Number(y);
  let out = year > 0 ? String(Math.trunc(year)) : String(Math.trunc(-year)) + ' BC';
  if (mo !== undefined) out = MONTHS[Number(mo) - 1] + ' ' + out;
  if (d !== undefined) out = Number(d) + ' ' + out;
  if (h !== undefined) {
    const two = (x: string | undefined) => String(Math.trunc(Number(x ?? 0))).padStart(2, '0');
    out += ' ' + two(h) + ':' + two(mi) + ':' + two(sec);
  }
  return out;
}

/** PHP's is_numeric on a string */
const NUMERIC = /^[ \t\n\r\v\f]*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** SMWDataItem::getSortKey, when PHP's is_numeric takes it (a table cell's data-sort-value). */
function numericSortKey(v: PrintValue): string | undefined {
  const n = itemSortKey(v.di, v.item);
  if (n !== undefined) return phpFloatToString(n);
  // a page's sort key is its DB key, a text's the text: numeric-looking ones count too
  const text = v.di === DI.WIKIPAGE ? v.dbkey! : v.di === DI.BLOB ? v.item : undefined;
  return text !== undefined && NUMERIC.test(text) ? text : undefined;
}

/** PrintRequest::getWikiText, linked or not. */
function printRequestText(pr: PrintRequest, linked: boolean, codec: TitleCodec): string {
  if (!linked || pr.label === '') return pr.label;
  if (pr.mode === PRINT_PROP && !pr.prop!.key.startsWith('_')) {
    return `[[:${codec.prefixedText(102, pr.prop!.key)}|${pr.label}]]`;
  }
  if (pr.mode === PRINT_CCAT) return `[[:${codec.prefixedText(14, pr.category!)}|${pr.label}]]`;
  return pr.label;
}

/**
 * Html::rawElement of MediaWiki 1.25 ($wgWellFormedXml): attributes in the order given, a class list
 * split on spaces with empty and repeated names dropped (an empty class is left out), values escaped
 * for & " < and the three whitespace controls.
 */
function element(name: string, attrs: Array<[string, string]>, content: string): string {
  let out = '<' + name;
  for (const [k, raw] of attrs) {
    let v = raw;
    if (k === 'class') {
      v = [...new Set(raw.split(' ').filter((x) => x !== ''))].join(' ');
      if (v === '') continue;
    }
    const escaped = v.replace(/[&"<\n\r\t]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c]!);
    out += ` ${k}="${escaped}"`;
  }
  return out + '>' + content + '</' + name + '>';
}

/** SMWInfolink::encodeParameters for a title. */
function encodeTitleParam(value: string): string {
  const map: Array<[string, string]> = [
    ['-', '-2D'], ['#', '-23'], ['\n', '-0A'], [' ', '-20'], ['/', '-2F'], ['[', '-5B'], [']', '-5D'], ['<', '-3C'], ['>', '-3E'],
    ['&lt;', '-3C'], ['&gt;', '-3E'], ['&amp;', '-26'], ["''", '-27-27'], ['|', '-7C'], ['&', '-26'], ['%', '-25'], ['?', '-3F'],
    ['$', '-24'], ['\\', '-5C'], [';', '-3B'],
  ];
  // str_replace with arrays: each pair in turn over the whole string
  let out = value;
  for (const [from, to] of map) out = out.split(from).join(to);
  return out;
}

/** ResultPrinter::getFurtherResultsLink → SMWInfolink::getText(SMW_OUTPUT_WIKI). */
function furtherResultsLink(o: PrintInput, count: number): string {
  const positional = [o.queryString.trim(), ...o.printoutSerialisations.filter((s) => s !== '?#')];
  const named = new Map<string, string>();
  for (const [name, value] of o.linkParams) {
    if (name === 'limit' && value.trim() === '0') continue;
    named.set(name, value);
  }
  named.set('offset', String(o.paramOffset + count));
  const parts = [...positional, ...[...named].map(([k, v]) => `${k}=${v}`)].map(encodeTitleParam);
  const style = `smw-${o.format}-furtherresults`;
  return `<span class="${style}">[[:Special:Ask/${parts.join('/')}|${searchLabel(o)}]]</span>`;
}

function searchLabel(o: PrintInput): string {
  return o.params.has('searchlabel') ? o.params.get('searchlabel')! : EXPORT_LABELS[o.format] ?? MESSAGES.moreresults;
}

function linkFurther(o: PrintInput): boolean {
  return o.further && searchLabel(o) !== '';
}

/** headers=show|hide|plain */
function headersMode(o: PrintInput): 'show' | 'hide' | 'plain' {
  const h = (o.params.get('headers') ?? 'show').trim().toLowerCase();
  return h === 'hide' || h === 'plain' ? h : 'show';
}

/** link=all|subject|none: [linkFirst, linkOthers] */
function linking(o: PrintInput): [boolean, boolean] {
  const l = (o.params.get('link') ?? 'all').trim().toLowerCase();
  if (l === 'none') return [false, false];
  if (l === 'subject' || l === 'head') return [true, false];
  return [true, true];
}

function fieldValues(o: PrintInput, row: ResultRow, i: number): PrintValue[] {
  return o.printRequests[i].mode === PRINT_THIS ? [row.subject] : row.fields[i];
}

function typeOf(o: PrintInput, i: number): string {
  const pr = o.printRequests[i];
  return pr.mode === PRINT_PROP ? o.types[i] : pr.mode === PRINT_CCAT ? '_boo' : '_wpg';
}

/** a category printout's values: the categories (pages); a category check: 'true'/'false'-like 'X' marks */
function displayValues(o: PrintInput, row: ResultRow, i: number): PrintValue[] {
  const pr = o.printRequests[i];
  if (pr.mode === PRINT_CCAT) {
    const item = `${pr.category}#14#`;
    const has = row.fields[i].some((v) => v.item === item);
    // a category check prints a boolean; its default format 'x' (SMWBoolValue::setOutputFormat)
    const caption = pr.format === 'x' ? (has ? '<span style="font-family: sans-serif; ">X</span>' : '&nbsp;') : undefined;
    return [{ di: DI.BOOLEAN, item: has ? 't' : 'f', caption }];
  }
  return fieldValues(o, row, i);
}

/** Sanitizer::stripAllTags of MediaWiki 1.25: tags out, character references decoded, whitespace made spaces. */
function stripAllTags(text: string): string {
  return decodeCharReferences(text.replace(/<[^>]*>/g, '')).replace(/\r\n|[\x20\r\n\t]/g, ' ');
}

/** HtmlTableRenderer (wiki context: no thead/tbody), standard or transposed. */
class TableRenderer {
  private readonly headers: string[] = [];
  private readonly rows: Array<{ cells: string[]; cls?: string }> = [];
  private cells: string[] = [];

  addHeader(content: string, cls: string): void {
    if (content !== '') this.headers.push(element('th', [['class', cls]], content));
  }

  addCell(content: string | null, attrs: Array<[string, string]>): void {
    if (content !== '') this.cells.push(element('td', attrs, content ?? ''));
  }

  addRow(cls?: string): void {
    if (this.cells.length > 0) this.rows.push({ cells: this.cells, cls });
    this.cells = [];
  }

  html(attrs: Array<[string, string]>, transpose: boolean): string {
    const trs: string[] = [];
    const tr = (content: string, cls?: string) => {
      const alt = trs.length % 2 === 0 ? 'row-odd' : 'row-even';
      trs.push(element('tr', [['class', cls ? cls + ' ' + alt : alt]], content));
    };
    let head = '';
    if (transpose) {
      // one row per header: the header, then that column's cell of every row (an empty cell where a row has none)
      this.headers.forEach((th, i) => tr(th + this.rows.map((r) => r.cells[i] ?? '<td></td>').join('')));
    } else {
      head = this.headers.join('');
      for (const r of this.rows) tr(r.cells.join(''), r.cls);
    }
    const body = head + trs.join('');
    return body === '' ? '' : element('table', attrs, body);
  }
}

function printTable(o: PrintInput): string {
  const headers = headersMode(o);
  const [linkFirst, linkOthers] = linking(o);
  const sep = o.params.get('sep') ?? '';
  const cellSep = sep === '' ? '<br>' : sep;
  const table = new TableRenderer();
  const columnClasses: string[] = [];
  if (headers !== 'hide') {
    for (const pr of o.printRequests) {
      const cls = printRequestText(pr, false, o.codec).replace(/<[^>]*>/g, '').replace(/[ _]/g, '-');
      columnClasses.push(cls);
      const text = printRequestText(pr, headers === 'show', o.codec);
      table.addHeader(text === '' ? '&nbsp;' : text, cls);
    }
  }
  for (const row of o.rows) {
    o.printRequests.forEach((pr, i) => {
      const vals = displayValues(o, row, i);
      const attrs: Array<[string, string]> = [];
      let content: string | null = null;
      if (vals.length > 0) {
        const sk = numericSortKey(vals[0]);
        if (sk !== undefined) attrs.push(['data-sort-value', sk]);
        const t = typeOf(o, i);
        attrs.push(['class', (columnClasses[i] ?? '') + (t !== '' ? ' smwtype' + t : '')]);
        const linked = pr.mode === PRINT_THIS ? linkFirst : linkOthers;
        content = vals.map((v) => valueText(v, typeOf(o, i), linked, o.codec)).join(cellSep);
      }
      table.addCell(content, attrs);
    });
    table.addRow();
  }
  if (linkFurther(o)) {
    table.addCell(furtherResultsLink(o, o.rows.length), [['class', 'sortbottom'], ['colspan', String(o.printRequests.length)]]);
    table.addRow('smwfooter');
  }
  const attrs: Array<[string, string]> = [['class', o.params.get('class') ?? 'sortable wikitable smwtable']];
  if (o.format === 'broadtable') attrs.push(['width', '100%']);
  return table.html(attrs, headers !== 'hide' && boolParam(o, 'transpose'));
}

/**
 * WikitextTemplateRenderer::packFieldsForTemplate: {{name|key=value…}}, the keys in the order first
 * added (a key added again keeps its place and takes the new value).
 */
function templateCall(name: string, fields: Map<string, string>): string {
  let call = '{{' + name;
  for (const [k, v] of fields) call += `|${k}=${v}`;
  return call + '}}';
}

/** ListResultPrinter::addCommonTemplateFields */
function commonTemplateFields(o: PrintInput, fields: Map<string, string>): void {
  const userparam = (o.params.get('userparam') ?? '').trim();
  if (truthy(userparam)) fields.set('userparam', userparam);
  fields.set('smw-resultquerycondition', o.queryString);
  fields.set('smw-resultquerylimit', String(o.limit));
  fields.set('smw-resultqueryoffset', String(o.offset));
}

function printList(o: PrintInput): { text: string; templates: boolean } {
  const format = o.format;
  const template = (o.params.get('template') ?? '').trim();
  if (format === 'template' && template === '') {
    o.errors.push(MESSAGES.notemplategiven);
    return { text: '', templates: false };
  }
  const plain = format !== 'ul' && format !== 'ol';
  const headers = headersMode(o);
  const [linkFirst, linkOthers] = linking(o);
  const sepParam = o.params.get('sep') ?? ',';
  const columns = plain ? 1 : intParam(o, 'columns', 1);
  const introTemplate = o.params.get('introtemplate') ?? '';
  const outroTemplate = o.params.get('outrotemplate') ?? '';
  const columnWidth = Math.floor(100 / columns);
  const rowsPerColumn = Math.ceil(o.rows.length / columns);
  let header = '';
  let footer = '';
  let rowstart = '';
  let rowend = '';
  if (!plain) {
    header = `<${format}>\n`;
    footer = `</${format}>\n`;
    rowstart = '\t<li>';
    rowend = '</li>\n';
  }
  let listsep = '';
  if (format !== 'template') listsep = format === 'list' && sepParam === ',' ? ', ' : sepParam.replace(/_/g, ' ');
  const namedArgs = boolParam(o, 'named args');
  let templates = false;
  let result = columns > 1 ? `<div style="float: left; width: ${columnWidth}%">\n` : '';
  result += header;
  if (introTemplate !== '') {
    const fields = new Map<string, string>();
    commonTemplateFields(o, fields);
    result += templateCall(introTemplate, fields);
  }
  let inColumn = 0;
  o.rows.forEach((row, n) => {
    if (inColumn === rowsPerColumn) {
      // a new column; a numbered list goes on counting
      inColumn = 0;
      result += footer + '</div>' + `<div style="float: left; width: ${columnWidth}%">` + (format === 'ol' ? `<ol start="${n + 1}">` : header);
    }
    let rowSortkey = '';
    let content = '';
    if (template !== '') {
      templates = true;
      const fields = new Map<string, string>();
      o.printRequests.forEach((pr, i) => {
        // PHP evaluates `$fieldName . $i + 1` as `($fieldName . $i) + 1`: '' gives i+1, '?' (an empty label) gives 1
        let name = namedArgs ? '?' + pr.label : '';
        if (name === '') name = String(i + 1);
        else if (name === '?') name = '1';
        const vals = displayValues(o, row, i).map((v) => valueText(v, typeOf(o, i), i === 0 ? linkFirst : linkOthers, o.codec));
        fields.set(name, vals.join(sepParam + ' '));
      });
      fields.set('#', String(n));
      commonTemplateFields(o, fields);
      content = templateCall(template, fields);
    } else {
      let firstField = true;
      let extraFields = false;
      o.printRequests.forEach((pr, i) => {
        let firstValue = true;
        for (const v of displayValues(o, row, i)) {
          if (firstField && format !== 'list' && v.di === DI.WIKIPAGE) rowSortkey = row.sortKey;
          const text = valueText(v, typeOf(o, i), firstField ? linkFirst : linkOthers, o.codec);
          if (!firstField && !extraFields) {
            content += ' (';
            extraFields = true;
          } else if (extraFields || !firstValue) content += listsep + ' ';
          if (firstValue) {
            firstValue = false;
            if (headers !== 'hide' && pr.label !== '') content += printRequestText(pr, headers === 'show', o.codec) + ' ';
          }
          content += typeOf(o, i) === '_qty' || plain ? text : stripAllTags(text);
        }
        firstField = false;
      });
      if (extraFields) content += ')';
    }
    let start: string;
    if (n > 0 && plain) start = listsep;
    else if (rowSortkey !== '') start = '\t' + element('li', [['data-sortkey', [...rowSortkey][0]]], '').slice(0, -'</li>'.length);
    else start = rowstart;
    result += start + content + rowend;
    inColumn++;
  });
  if (outroTemplate !== '') {
    const fields = new Map<string, string>();
    commonTemplateFields(o, fields);
    result += templateCall(outroTemplate, fields);
  }
  if (linkFurther(o) && (format !== 'ol' || searchLabel(o) !== '')) {
    result += (rowstart + ' ' + furtherResultsLink(o, o.rows.length) + rowend).trim();
  }
  result += footer;
  if (columns > 1) result += '</div>\n<br style="clear: both" />\n';
  if (result === '') result = o.params.get('default') ?? '';
  return { text: result, templates };
}

/** PHP's strnatcmp (natural order, byte-wise, case-sensitive), as natsort uses it. */
export function strnatcmp(x: string, y: string): number {
  const a = Buffer.from(x, 'utf8');
  const b = Buffer.from(y, 'utf8');
  if (a.length === 0 || b.length === 0) return a.length === b.length ? 0 : a.length > b.length ? 1 : -1;
  const at = (buf: Buffer, i: number) => (i < buf.length ? buf[i] : 0);
  const digit = (c: number) => c >= 0x30 && c <= 0x39;
  const space = (c: number) => c === 0x20 || (c >= 0x09 && c <= 0x0d);
  let ai = 0;
  let bi = 0;
  let leading = true;
  for (;;) {
    let ca = at(a, ai);
    let cb = at(b, bi);
    // leading zeros of the strings are skipped
    while (leading && ca === 0x30 && ai + 1 < a.length && digit(a[ai + 1])) ca = at(a, ++ai);
    while (leading && cb === 0x30 && bi + 1 < b.length && digit(b[bi + 1])) cb = at(b, ++bi);
    leading = false;
    while (space(ca)) ca = at(a, ++ai);
    while (space(cb)) cb = at(b, ++bi);
    if (digit(ca) && digit(cb)) {
      // a run starting with 0 compares left-aligned (a fraction), others by magnitude
      const fractional = ca === 0x30 || cb === 0x30;
      let result = 0;
      for (;; ai++, bi++) {
        const da = ai < a.length && digit(a[ai]);
        const db = bi < b.length && digit(b[bi]);
        if (!da && !db) break;
        if (!da) {
          result = -1;
          break;
        }
        if (!db) {
          result = 1;
          break;
        }
        if (a[ai] !== b[bi]) {
          if (fractional) {
            result = a[ai] < b[bi] ? -1 : 1;
            break;
          }
          if (result === 0) result = a[ai] < b[bi] ? -1 : 1;
        }
      }
      if (result !== 0) return result;
      if (ai === a.length && bi === b.length) return 0;
      if (ai === a.length) return -1;
      if (bi === b.length) return 1;
      ca = a[ai];
      cb = b[bi];
    }
    if (ca < cb) return -1;
    if (ca > cb) return 1;
    ai++;
    bi++;
    if (ai >= a.length && bi >= b.length) return 0;
    if (ai >= a.length) return -1;
    if (bi >= b.length) return 1;
  }
}

/**
 * ByLanguageCollationMapper::findFirstLetterForCategory with MediaWiki's default 'uppercase'
 * collation: the first character (Language::firstChar), uppercased.
 */
function categoryLetter(sortKey: string): string {
  const cp = sortKey.codePointAt(0);
  return cp === undefined ? '' : ucfirst(String.fromCodePoint(cp));
}

/** PHP 5's `$x % $n`: false (equal to 0, not above it) when $n is 0 */
function phpMod(x: number, n: number): number | false {
  return n === 0 ? false : x % n;
}

/**
 * HtmlColumnListRenderer::getHtml: the items in columns of equal length, each letter's items under a
 * header (repeated with "(cont.)" when a column starts inside a letter).
 */
function columnList(groups: Map<string, string[]>, columns: number): string {
  let total = 0;
  for (const items of groups.values()) total += items.length;
  // PHP 5 divides by zero to false, which floor/ceil make 0
  const rowsPerColumn = columns === 0 ? 0 : Math.ceil(total / columns);
  const width = columns === 0 ? 0 : Math.floor(100 / columns);
  const letterHeader = (text: string) => '<div class="smw-column-header">' + escapeElementText(text) + '</div>';
  let result = '';
  let numRows = 0;
  let usedCloser = false;
  for (const [key, items] of groups) {
    // PHP array keys: '0' is the integer 0, which equals '' (the previous key of a letter's first item)
    const same = (prev: string) => key === prev || (prev === '' && key === '0');
    let prev = '';
    for (const item of items) {
      if (phpMod(numRows, rowsPerColumn) == 0) {
        result += `<div class="smw-column" style="width:${width}%;">`;
        if (same(prev)) result += (key !== '' ? letterHeader(key + ' ' + MESSAGES.listContinues) : '') + `<ul start=${numRows + 1}>`;
      }
      if (!same(prev)) {
        const m = phpMod(numRows, rowsPerColumn);
        result += m !== false && m > 0 ? '</ul>' : '';
        result += (key !== '' ? letterHeader(key) : '') + '<ul>';
      }
      prev = key;
      result += '<li>' + item + '</li>';
      usedCloser = false;
      if (phpMod(numRows + 1, rowsPerColumn) == 0 && numRows + 1 < total) {
        result += '</ul></div> <!-- end column -->';
        usedCloser = true;
      }
      numRows++;
    }
  }
  if (!usedCloser) result += '</ul></div> <!-- end column -->';
  return '<div class="smw-columnlist-container">' + result + '\n<br style="clear: both;"/></div>';
}

/** the sort key of a value that leads a row (SMWDataItem::getSortKey; a page's from the store) */
function leadKey(row: ResultRow, v: PrintValue): string {
  if (v.di === DI.WIKIPAGE) return row.leadSortKey ?? v.dbkey!.replace(/_/g, ' ');
  const n = itemSortKey(v.di, v.item);
  return n !== undefined ? phpFloatToString(n) : v.item;
}

/** CategoryResultPrinter: the rows grouped by the first letter of their sort keys, in columns. */
function printCategory(o: PrintInput): { text: string; templates: boolean } {
  const delim = (o.params.get('delim') ?? '').trim();
  const template = o.params.get('template') ?? '';
  const userparam = (o.params.get('userparam') ?? '').trim();
  const namedArgs = boolParam(o, 'named args');
  const headers = headersMode(o);
  const [linkFirst, linkOthers] = linking(o);
  const groups = new Map<string, string[]>();
  let lastKey = '';
  let rowIndex = 0;
  let templates = false;
  for (const row of o.rows) {
    if (o.printRequests.length === 0) continue;
    const lead = displayValues(o, row, 0);
    if (lead.length === 0) continue;
    const letter = categoryLetter(o.printRequests[0].mode === PRINT_THIS ? row.sortKey : leadKey(row, lead[0]));
    if (!groups.has(letter)) {
      groups.set(letter, []);
      lastKey = letter;
    }
    // the item goes under its subject's letter (the same unless the first column is not the subject)
    const columnIndex = categoryLetter(row.sortKey);
    let item: string;
    if (template !== '') {
      templates = true;
      const fields = new Map<string, string>();
      if (truthy(userparam)) fields.set('userparam', userparam);
      o.printRequests.forEach((pr, i) => {
        let name = namedArgs ? pr.label : '';
        if (name === '' || name === '?') name = name + String(i + 1);
        const vals = displayValues(o, row, i).map((v) => valueText(v, typeOf(o, i), i === 0 ? linkFirst : linkOthers, o.codec));
        fields.set(name, vals.sort(strnatcmp).join(delim + ' '));
      });
      fields.set('#', String(rowIndex));
      item = templateCall(template, fields);
    } else {
      let text = '';
      let found = false;
      o.printRequests.forEach((pr, i) => {
        const vals: string[] = [];
        displayValues(o, row, i).forEach((v, k) => {
          if (i > 0 && !found) {
            text += '(';
            found = true;
          }
          if (k === 0 && headers !== 'hide' && pr.label !== '') text += printRequestText(pr, headers === 'show', o.codec) + ' ';
          vals.push(valueText(v, typeOf(o, i), i === 0 ? linkFirst : linkOthers, o.codec));
        });
        text += vals.sort(strnatcmp).join((truthy(delim) ? delim : ',') + ' ') + ' ';
      });
      if (found) text = text.trim() + ')';
      item = text;
    }
    let group = groups.get(columnIndex);
    if (!group) groups.set(columnIndex, (group = []));
    group.push(item);
    rowIndex++;
  }
  if (groups.size === 0) {
    o.errors.push(MESSAGES.emptyData);
    return { text: '', templates: false };
  }
  if (linkFurther(o)) groups.get(lastKey)!.push(furtherResultsLink(o, o.rows.length));
  return { text: columnList(groups, intParam(o, 'columns', 3)), templates };
}

/** SMWWikiPageValue::getLongWikiText of a result page (no property: the namespace is shown), linked or not. */
function longPageText(v: PrintValue, linked: boolean, codec: TitleCodec): string {
  const prefixed = codec.prefixedText(v.ns!, v.dbkey!);
  const fragment = v.subobject ?? '';
  if (!linked) return prefixed + (fragment !== '' ? '#' + fragment : '');
  const caption = prefixed + (fragment !== '' && fragment[0] !== '_' ? '#' + fragment : '');
  const target = prefixed.replace(/'/g, '&#x0027;') + (fragment !== '' ? '#' + fragment : '');
  return v.ns === 6 ? `[[${target}|${caption}|frameless|border|text-top]]` : `[[:${target}|${caption}]]`;
}

/** EmbeddedResultPrinter: each result page transcluded (not the page being parsed), under its title. */
function printEmbedded(o: PrintInput): { text: string; templates: boolean } {
  const format = given(o, 'embedformat') ?? 'h1';
  const showHead = !boolParam(o, 'embedonly');
  let result = '';
  let footer = '';
  let embStart = '';
  let embEnd = '';
  let headStart = '';
  let headEnd = '';
  if (format === 'ol' || format === 'ul') {
    result += `<${format}>`;
    footer = `</${format}>`;
    embStart = '<li>';
    headEnd = '<br />\n';
    embEnd = '</li>\n';
  } else {
    headStart = `<${format}>`;
    headEnd = `</${format}>\n`;
  }
  for (const row of o.rows) {
    const page = row.subject;
    result += embStart;
    if (showHead) result += headStart + longPageText(page, true, o.codec) + headEnd;
    const plain = longPageText(page, false, o.codec);
    if (plain === o.pageTitle) result += '<b>' + plain + '</b>';
    else result += page.ns === 0 ? '{{:' + page.dbkey + '}}' : '{{' + plain + '}}';
    result += embEnd;
  }
  if (linkFurther(o)) result += embStart + furtherResultsLink(o, o.rows.length) + embEnd;
  return { text: result + footer, templates: true };
}

/**
 * The wikitext of an inline query's answer (ResultPrinter::getResult in SMW_OUTPUT_WIKI): the empty
 * result's default or further-results link (all an export format prints outside Special:Ask), the
 * printer's text, its errors, intro and outro.
 */
export function printResult(o: PrintInput): { text: string; templates: boolean } {
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
  const printed =
    o.format === 'table' || o.format === 'broadtable'
      ? { text: printTable(o), templates: false }
      : o.format === 'category'
        ? printCategory(o)
        : o.format === 'embedded'
          ? printEmbedded(o)
          : printList(o);
  let text = printed.text + encodeMessages(o.errors);
  if (truthy(intro)) text = intro + text;
  if (truthy(outro)) text = text + outro;
  return { text, templates: printed.templates };
}
