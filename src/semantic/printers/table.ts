/**
 * TableResultPrinter (table, broadtable) with HtmlTableRenderer in the wiki context.
 */
import { itemSortKey } from '../datavalues/sort-key.js';
import { valueText, type PrintValue } from '../datavalues/wiki-text.js';
import { phpFloatToString } from '../../php/numbers.js';
import { DI } from '../types.js';
import { PRINT_THIS } from '../query/print-requests.js';
import { boolParam } from './parameters.js';
import {
  displayValues,
  element,
  furtherResultsLink,
  headersMode,
  linkFurther,
  linking,
  printRequestText,
  typeOf,
  type PrintInput,
  type PrintOutput,
} from './result-printer.js';

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

export function printTable(o: PrintInput): PrintOutput {
  const headers = headersMode(o);
  const [linkFirst, linkOthers] = linking(o);
  const sep = o.params.get('sep') ?? '';
  const cellSep = sep === '' ? '<br>' : sep;
  const table = new TableRenderer();
  const columnClasses: string[] = [];
  if (headers !== 'hide') {
    for (const pr of o.printRequests) {
      const cls = printRequestText(pr, false, o.codec)
        .replace(/<[^>]*>/g, '')
        .replace(/[ _]/g, '-');
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
    table.addCell(furtherResultsLink(o, o.rows.length), [
      ['class', 'sortbottom'],
      ['colspan', String(o.printRequests.length)],
    ]);
    table.addRow('smwfooter');
  }
  const attrs: Array<[string, string]> = [['class', o.params.get('class') ?? 'sortable wikitable smwtable']];
  if (o.format === 'broadtable') attrs.push(['width', '100%']);
  return { text: table.html(attrs, headers !== 'hide' && boolParam(o, 'transpose')), templates: false };
}
