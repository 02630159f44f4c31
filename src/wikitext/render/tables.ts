/** Parser::doTableStuff of MediaWiki 1.25: {| |+ |- ! | |} lines → <table> markup. */
import { fixTagAttributes } from '../sanitizer.js';

export function doTableStuff(text: string): string {
  const lines = text.split('\n');
  let out = '';
  const tdHistory: boolean[] = [];
  const lastTagHistory: string[] = [];
  const trHistory: boolean[] = [];
  const trAttributes: string[] = [];
  const hasOpenedTr: boolean[] = [];
  let indentLevel = 0;
  for (let outLine of lines) {
    let line = outLine.trim();
    if (line === '') {
      out += outLine + '\n';
      continue;
    }
    let first = line[0];
    const m = /^(:*)\s*\{\|(.*)$/.exec(line);
    if (m) {
      indentLevel = m[1].length;
      outLine = '<dl><dd>'.repeat(indentLevel) + `<table${fixTagAttributes(m[2], 'table')}>`;
      tdHistory.push(false);
      lastTagHistory.push('');
      trHistory.push(false);
      trAttributes.push('');
      hasOpenedTr.push(false);
    } else if (tdHistory.length === 0) {
      out += outLine + '\n';
      continue;
    } else if (line.startsWith('|}')) {
      line = '</table>' + line.slice(2);
      const lastTag = lastTagHistory.pop()!;
      if (!hasOpenedTr.pop()) line = '<tr><td></td></tr>' + line;
      if (trHistory.pop()) line = '</tr>' + line;
      if (tdHistory.pop()) line = `</${lastTag}>` + line;
      trAttributes.pop();
      outLine = line + '</dd></dl>'.repeat(indentLevel);
    } else if (line.startsWith('|-')) {
      trAttributes.pop();
      trAttributes.push(fixTagAttributes(line.replace(/^\|-+/, ''), 'tr'));
      line = '';
      const lastTag = lastTagHistory.pop()!;
      hasOpenedTr.pop();
      hasOpenedTr.push(true);
      if (trHistory.pop()) line = '</tr>';
      if (tdHistory.pop()) line = `</${lastTag}>` + line;
      outLine = line;
      trHistory.push(false);
      tdHistory.push(false);
      lastTagHistory.push('');
    } else if (first === '|' || first === '!' || line.startsWith('|+')) {
      if (line.startsWith('|+')) {
        first = '+';
        line = line.slice(1);
      }
      line = line.slice(1);
      if (first === '!') line = line.replace(/!!/g, '||');
      outLine = '';
      for (const cell of line.split('||')) {
        let previous = '';
        if (first !== '+') {
          const trAfter = trAttributes.pop()!;
          if (!trHistory.pop()) previous = `<tr${trAfter}>\n`;
          trHistory.push(true);
          trAttributes.push('');
          hasOpenedTr.pop();
          hasOpenedTr.push(true);
        }
        const lastTag = lastTagHistory.pop()!;
        if (tdHistory.pop()) previous = `</${lastTag}>\n` + previous;
        const tag = first === '|' ? 'td' : first === '!' ? 'th' : 'caption';
        lastTagHistory.push(tag);
        const bar = cell.indexOf('|');
        // a "|" inside an unfinished [[link|text]] does not end the attributes (bug 553)
        if (bar < 0 || cell.slice(0, bar).includes('[[')) outLine += `${previous}<${tag}>${cell}`;
        else outLine += `${previous}<${tag}${fixTagAttributes(cell.slice(0, bar), tag)}>${cell.slice(bar + 1)}`;
        tdHistory.push(true);
      }
    }
    out += outLine + '\n';
  }
  while (tdHistory.length) {
    if (tdHistory.pop()) out += '</td>\n';
    if (trHistory.pop()) out += '</tr>\n';
    if (!hasOpenedTr.pop()) out += '<tr><td></td></tr>\n';
    out += '</table>\n';
  }
  if (out.endsWith('\n')) out = out.slice(0, -1);
  if (out === '<table>\n<tr><td></td></tr>\n</table>') out = '';
  return out;
}
