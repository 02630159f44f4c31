/**
 * CategoryResultPrinter: the rows grouped by the first letter of their sort keys, in columns
 * (HtmlColumnListRenderer).
 */
import { escapeElementText } from '../../wiki/html.js';
import { ucfirst } from '../../wiki/language.js';
import { itemSortKey } from '../datavalues/sort-key.js';
import { valueText, type PrintValue } from '../datavalues/wiki-text.js';
import { phpFloatToString } from '../../php/numbers.js';
import { strnatcmp } from '../../php/compare.js';
import { DI } from '../types.js';
import { PRINT_THIS } from '../query/print-requests.js';
import { boolParam, intParam } from './parameters.js';
import {
  PRINTER_MESSAGES,
  displayValues,
  furtherResultsLink,
  headersMode,
  linkFurther,
  linking,
  printRequestText,
  templateCall,
  truthy,
  typeOf,
  type PrintInput,
  type PrintOutput,
  type ResultRow,
} from './result-printer.js';

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
      // biome-ignore lint/suspicious/noDoubleEquals: PHP compares phpMod's false loosely: false == 0
      if (phpMod(numRows, rowsPerColumn) == 0) {
        result += `<div class="smw-column" style="width:${width}%;">`;
        if (same(prev))
          result += (key !== '' ? letterHeader(key + ' ' + PRINTER_MESSAGES.listContinues) : '') + `<ul start=${numRows + 1}>`;
      }
      if (!same(prev)) {
        const m = phpMod(numRows, rowsPerColumn);
        result += m !== false && m > 0 ? '</ul>' : '';
        result += (key !== '' ? letterHeader(key) : '') + '<ul>';
      }
      prev = key;
      result += '<li>' + item + '</li>';
      usedCloser = false;
      // biome-ignore lint/suspicious/noDoubleEquals: PHP compares phpMod's false loosely: false == 0
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
export function printCategory(o: PrintInput): PrintOutput {
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
    o.errors.push(PRINTER_MESSAGES.emptyData);
    return { text: '', templates: false };
  }
  if (linkFurther(o)) groups.get(lastKey)!.push(furtherResultsLink(o, o.rows.length));
  return { text: columnList(groups, intParam(o, 'columns', 3)), templates };
}
