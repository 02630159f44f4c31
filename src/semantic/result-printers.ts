/**
 * Semantic MediaWiki 2.2's result printers for inline queries ({{#ask:}}, {{#show:}}), without I/O: the
 * wikitext SMW's printers return in SMW_OUTPUT_WIKI mode, which the page's parse then turns into HTML
 * (TableResultPrinter + HtmlTableRenderer, ListResultPrinter for list/ul/ol/template, the count mode of
 * SMWQueryProcessor::getResultFromQuery), the further-results link (SMWQueryResult::getLink,
 * SMWInfolink in wiki mode), the error box (smwfEncodeMessages + Highlighter) and the values' short
 * wiki texts (SMWDataValue::getShortWikiText with or without a linker).
 */
import { htmlspecialchars } from '../wiki/html.js';
import type { TitleCodec } from '../wiki/titles.js';
import { DI } from './types.js';
import { PRINT_CCAT, PRINT_PROP, PRINT_THIS, itemSortKey, type PrintRequest } from './ask.js';
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
export const PRINTED_FORMATS = new Set(['table', 'broadtable', 'list', 'ol', 'ul', 'template', 'count']);

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

/** One result row: the subject and, per print request, its values. */
export interface ResultRow {
  subject: PrintValue;
  /** the first character of the subject's sort key (ul/ol write it as data-sortkey) */
  sortKeyInitial: string;
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
}

/** smwfEncodeMessages: the warning highlighter around the (escaped) messages. */
export function encodeMessages(messages: string[]): string {
  if (messages.length === 0) return '';
  const escaped = messages.map((m) => htmlspecialchars(m, 'both'));
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
  named.set('offset', String(o.offset + count));
  const parts = [...positional, ...[...named].map(([k, v]) => `${k}=${v}`)].map(encodeTitleParam);
  const style = `smw-${o.format}-furtherresults`;
  return `<span class="${style}">[[:Special:Ask/${parts.join('/')}|${searchLabel(o)}]]</span>`;
}

function searchLabel(o: PrintInput): string {
  return o.params.has('searchlabel') ? o.params.get('searchlabel')! : MESSAGES.moreresults;
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
    // a category check prints a boolean; its default format 'x' shows X or nothing
    const caption = pr.format === 'x' ? (has ? 'X' : '') : undefined;
    return [{ di: DI.BOOLEAN, item: has ? 't' : 'f', caption }];
  }
  return fieldValues(o, row, i);
}

function printTable(o: PrintInput): string {
  const headers = headersMode(o);
  const [linkFirst, linkOthers] = linking(o);
  const sep = o.params.get('sep') ?? '';
  const cellSep = sep === '' ? '<br>' : sep;
  const columnClasses: string[] = [];
  const ths: string[] = [];
  if (headers !== 'hide') {
    for (const pr of o.printRequests) {
      const cls = printRequestText(pr, false, o.codec).replace(/<[^>]*>/g, '').replace(/[ _]/g, '-');
      columnClasses.push(cls);
      const text = printRequestText(pr, headers === 'show', o.codec);
      ths.push(element('th', [['class', cls]], text === '' ? '&nbsp;' : text));
    }
  }
  const trs: string[] = [];
  const tr = (cells: string, cls?: string) => {
    const alt = trs.length % 2 === 0 ? 'row-odd' : 'row-even';
    trs.push(element('tr', [['class', cls ? cls + ' ' + alt : alt]], cells));
  };
  for (const row of o.rows) {
    let cells = '';
    o.printRequests.forEach((pr, i) => {
      const vals = displayValues(o, row, i);
      const attrs: Array<[string, string]> = [];
      let content = '';
      if (vals.length > 0) {
        const sk = numericSortKey(vals[0]);
        if (sk !== undefined) attrs.push(['data-sort-value', sk]);
        const t = typeOf(o, i);
        attrs.push(['class', (columnClasses[i] ?? '') + (t !== '' ? ' smwtype' + t : '')]);
        const linked = pr.mode === PRINT_THIS ? linkFirst : linkOthers;
        content = vals.map((v) => valueText(v, typeOf(o, i), linked, o.codec)).join(cellSep);
      }
      cells += element('td', attrs, content);
    });
    tr(cells);
  }
  if (linkFurther(o)) {
    tr(element('td', [['class', 'sortbottom'], ['colspan', String(o.printRequests.length)]], furtherResultsLink(o, o.rows.length)), 'smwfooter');
  }
  const body = ths.join('') + trs.join('');
  if (body === '') return '';
  const attrs: Array<[string, string]> = [['class', o.params.get('class') ?? 'sortable wikitable smwtable']];
  if (o.format === 'broadtable') attrs.push(['width', '100%']);
  return element('table', attrs, body);
}

function printList(o: PrintInput): string {
  const format = o.format;
  const template = (o.params.get('template') ?? '').trim();
  if (format === 'template' && template === '') {
    o.errors.push(MESSAGES.notemplategiven);
    return '';
  }
  const plain = format !== 'ul' && format !== 'ol';
  const headers = headersMode(o);
  const [linkFirst, linkOthers] = linking(o);
  const sepParam = o.params.get('sep') ?? ',';
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
  const namedArgs = /^(?:1|true|yes|on)$/i.test((o.params.get('named args') ?? '').trim());
  let result = header;
  o.rows.forEach((row, n) => {
    let rowSortkey = '';
    let content = '';
    if (template !== '') {
      let call = '{{' + template;
      o.printRequests.forEach((pr, i) => {
        let name = namedArgs ? '?' + pr.label : '';
        if (name === '' || name === '?') name = name + String(i + 1);
        const vals = displayValues(o, row, i).map((v) => valueText(v, typeOf(o, i), i === 0 ? linkFirst : linkOthers, o.codec));
        call += `|${name}=${vals.join(sepParam + ' ')}`;
      });
      call += `|#=${n}`;
      if (o.params.has('userparam') && o.params.get('userparam')!.trim() !== '') call += `|userparam=${o.params.get('userparam')!.trim()}`;
      call += `|smw-resultquerycondition=${o.queryString}|smw-resultquerylimit=${o.limit}|smw-resultqueryoffset=${o.offset}`;
      content = call + '}}';
    } else {
      let firstField = true;
      let extraFields = false;
      o.printRequests.forEach((pr, i) => {
        let firstValue = true;
        for (const v of displayValues(o, row, i)) {
          if (firstField && format !== 'list' && v.di === DI.WIKIPAGE) rowSortkey = row.sortKeyInitial;
          const text = valueText(v, typeOf(o, i), firstField ? linkFirst : linkOthers, o.codec);
          if (!firstField && !extraFields) {
            content += ' (';
            extraFields = true;
          } else if (extraFields || !firstValue) content += listsep + ' ';
          if (firstValue) {
            firstValue = false;
            if (headers !== 'hide' && pr.label !== '') content += printRequestText(pr, headers === 'show', o.codec) + ' ';
          }
          content += typeOf(o, i) === '_qty' || plain ? text : text.replace(/<[^>]*>/g, '');
        }
        firstField = false;
      });
      if (extraFields) content += ')';
    }
    let start: string;
    if (n > 0 && plain) start = listsep;
    else if (rowSortkey !== '') start = '\t' + element('li', [['data-sortkey', rowSortkey]], '').slice(0, -'</li>'.length);
    else start = rowstart;
    result += start + content + rowend;
  });
  if (linkFurther(o) && (format !== 'ol' || searchLabel(o) !== '')) {
    result += (rowstart + ' ' + furtherResultsLink(o, o.rows.length) + rowend).trim();
  }
  result += footer;
  if (result === '') result = o.params.get('default') ?? '';
  return result;
}

/**
 * The wikitext of an inline query's answer (ResultPrinter::getResult in SMW_OUTPUT_WIKI): the empty
 * result's default or further-results link, the printer's text, its errors, intro and outro.
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
  const isTable = o.format === 'table' || o.format === 'broadtable';
  let text = isTable ? printTable(o) : printList(o);
  const templates = !isTable && (o.params.get('template') ?? '').trim() !== '';
  text += encodeMessages(o.errors);
  if (intro !== '') text = intro + text;
  if (outro !== '') text = text + outro;
  return { text, templates };
}

