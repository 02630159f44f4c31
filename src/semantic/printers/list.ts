/**
 * ListResultPrinter: the list, ul, ol and template formats.
 */
import { valueText } from '../datavalues/wiki-text.js';
import { DI } from '../types.js';
import { boolParam, intParam } from './parameters.js';
import {
  PRINTER_MESSAGES,
  commonTemplateFields,
  displayValues,
  element,
  furtherResultsLink,
  headersMode,
  linkFurther,
  linking,
  printRequestText,
  searchLabel,
  stripAllTags,
  templateCall,
  typeOf,
  type PrintInput,
  type PrintOutput,
} from './result-printer.js';

export function printList(o: PrintInput): PrintOutput {
  const format = o.format;
  const template = (o.params.get('template') ?? '').trim();
  if (format === 'template' && template === '') {
    o.errors.push(PRINTER_MESSAGES.notemplategiven);
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
      result +=
        footer + '</div>' + `<div style="float: left; width: ${columnWidth}%">` + (format === 'ol' ? `<ol start="${n + 1}">` : header);
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
