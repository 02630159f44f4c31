/**
 * What every result printer shares (SMW 2.2's ResultPrinter): the input a printer gets (the print
 * requests and the result rows), the further-results link (SMWQueryResult::getLink, SMWInfolink in
 * wiki mode), the headers and link parameters, the error box (smwfEncodeMessages + Highlighter) and
 * the template calls of the template-using printers.
 */
import { htmlspecialchars } from '../../wiki/html.js';
import { decodeCharReferences, type TitleCodec } from '../../wiki/titles.js';
import { DI } from '../types.js';
import type { PrintValue } from '../datavalues/wiki-text.js';
import { PRINT_CCAT, PRINT_PROP, PRINT_THIS, type PrintRequest } from '../query/print-requests.js';

/** the printers' messages in the content language */
export const PRINTER_MESSAGES = {
  moreresults: '... подальші результати', // smw_iq_moreresults (uk)
  emptyData: 'Запитані дані не можуть відображатися через деякі недостатні критерії відбору.', // smw-qp-empty-data (uk)
  listContinues: '(прод.)', // listingcontinuesabbrev (MediaWiki, uk)
  notemplategiven: 'Щоб цей формат запиту спрацював, потрібно вказати значення параметра «template».', // smw_notemplategiven (uk)
  warningTitle: 'Помилка', // smw-ui-tooltip-title-warning (uk)
};

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

/** What a printer makes: wikitext, and whether it calls templates (SMW then turns annotations off in it). */
export interface PrintOutput {
  text: string;
  templates: boolean;
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
  return element(
    'span',
    [
      ['class', 'smw-highlighter'],
      ['data-type', '4'],
      ['data-state', 'inline'],
      ['data-title', PRINTER_MESSAGES.warningTitle],
    ],
    element('span', [['class', 'smwtticon warning']], '') + element('div', [['class', 'smwttcontent']], list),
  );
}

/** PrintRequest::getWikiText, linked or not. */
export function printRequestText(pr: PrintRequest, linked: boolean, codec: TitleCodec): string {
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
export function element(name: string, attrs: Array<[string, string]>, content: string): string {
  let out = '<' + name;
  for (const [k, raw] of attrs) {
    let v = raw;
    if (k === 'class') {
      v = [...new Set(raw.split(' ').filter((x) => x !== ''))].join(' ');
      if (v === '') continue;
    }
    const escaped = v.replace(
      /[&"<\n\r\t]/g,
      (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '\n': '&#10;', '\r': '&#13;', '\t': '&#9;' })[c]!,
    );
    out += ` ${k}="${escaped}"`;
  }
  return out + '>' + content + '</' + name + '>';
}

/** SMWInfolink::encodeParameters for a title. */
export function encodeTitleParam(value: string): string {
  const map: Array<[string, string]> = [
    ['-', '-2D'],
    ['#', '-23'],
    ['\n', '-0A'],
    [' ', '-20'],
    ['/', '-2F'],
    ['[', '-5B'],
    [']', '-5D'],
    ['<', '-3C'],
    ['>', '-3E'],
    ['&lt;', '-3C'],
    ['&gt;', '-3E'],
    ['&amp;', '-26'],
    ["''", '-27-27'],
    ['|', '-7C'],
    ['&', '-26'],
    ['%', '-25'],
    ['?', '-3F'],
    ['$', '-24'],
    ['\\', '-5C'],
    [';', '-3B'],
  ];
  // str_replace with arrays: each pair in turn over the whole string
  let out = value;
  for (const [from, to] of map) out = out.split(from).join(to);
  return out;
}

/** ResultPrinter::getFurtherResultsLink → SMWInfolink::getText(SMW_OUTPUT_WIKI). */
export function furtherResultsLink(o: PrintInput, count: number): string {
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

export function searchLabel(o: PrintInput): string {
  return o.params.has('searchlabel') ? o.params.get('searchlabel')! : (EXPORT_LABELS[o.format] ?? PRINTER_MESSAGES.moreresults);
}

export function linkFurther(o: PrintInput): boolean {
  return o.further && searchLabel(o) !== '';
}

/** headers=show|hide|plain */
export function headersMode(o: PrintInput): 'show' | 'hide' | 'plain' {
  const h = (o.params.get('headers') ?? 'show').trim().toLowerCase();
  return h === 'hide' || h === 'plain' ? h : 'show';
}

/** link=all|subject|none: [linkFirst, linkOthers] */
export function linking(o: PrintInput): [boolean, boolean] {
  const l = (o.params.get('link') ?? 'all').trim().toLowerCase();
  if (l === 'none') return [false, false];
  if (l === 'subject' || l === 'head') return [true, false];
  return [true, true];
}

export function fieldValues(o: PrintInput, row: ResultRow, i: number): PrintValue[] {
  return o.printRequests[i].mode === PRINT_THIS ? [row.subject] : row.fields[i];
}

export function typeOf(o: PrintInput, i: number): string {
  const pr = o.printRequests[i];
  return pr.mode === PRINT_PROP ? o.types[i] : pr.mode === PRINT_CCAT ? '_boo' : '_wpg';
}

/** a category printout's values: the categories (pages); a category check: 'true'/'false'-like 'X' marks */
export function displayValues(o: PrintInput, row: ResultRow, i: number): PrintValue[] {
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
export function stripAllTags(text: string): string {
  return decodeCharReferences(text.replace(/<[^>]*>/g, '')).replace(/\r\n|[\x20\r\n\t]/g, ' ');
}

/**
 * WikitextTemplateRenderer::packFieldsForTemplate: {{name|key=value…}}, the keys in the order first
 * added (a key added again keeps its place and takes the new value).
 */
export function templateCall(name: string, fields: Map<string, string>): string {
  let call = '{{' + name;
  for (const [k, v] of fields) call += `|${k}=${v}`;
  return call + '}}';
}

/** ListResultPrinter::addCommonTemplateFields */
export function commonTemplateFields(o: PrintInput, fields: Map<string, string>): void {
  const userparam = (o.params.get('userparam') ?? '').trim();
  if (truthy(userparam)) fields.set('userparam', userparam);
  fields.set('smw-resultquerycondition', o.queryString);
  fields.set('smw-resultquerylimit', String(o.limit));
  fields.set('smw-resultqueryoffset', String(o.offset));
}

/** PHP's truthiness of a string: '' and '0' are false */
export function truthy(s: string): boolean {
  return s !== '' && s !== '0';
}
