/** Semantic Forms' parser functions that expand here: #arraymap and #arraymaptemplate. */
import { phpTrim } from '../../../php/strings.js';
import type { ParserFunctionTable } from './table.js';

export function registerFormsFunctions(table: ParserFunctionTable): void {
  /** {{#arraymap:value|delimiter|var|formula|new delimiter|conjunction}} */
  table.registerCaseInsensitive(['#arraymap'], (ex, c) => {
    const parts = c.node.parts;
    const value = c.first;
    const delimiter = ex.hasArg(c, 1) ? unescapeNewlines(ex.trimmedArg(c, 1)) : ',';
    const variable = parts[1] ? phpTrim(stripComments(parts[1].raw)) : 'x';
    const formula = parts[2] ? parts[2].raw : 'x';
    const newDelimiter = ex.hasArg(c, 4) ? unescapeNewlines(ex.trimmedArg(c, 4)) : ', ';
    let conjunction = ex.hasArg(c, 5) ? unescapeNewlines(ex.trimmedArg(c, 5)) : newDelimiter;
    const values = delimiter === '' ? Array.from(value) : value.split(delimiter);
    const results: string[] = [];
    for (const raw of values) {
      if (ex.isStopped) break;
      const v = phpTrim(raw);
      if (v === '') continue;
      // The formula's source with the variable replaced, then preprocessed and expanded afresh.
      const source = variable === '' ? formula : formula.split(variable).join(v);
      const r = phpTrim(ex.expandGenerated(source, c.frame, c.frame.isTemplate));
      if (r !== '') results.push(r);
    }
    if (conjunction !== newDelimiter) conjunction = ' ' + phpTrim(conjunction) + ' ';
    let out = '';
    results.forEach((r, idx) => {
      if (idx === 0) out += r;
      else if (idx === results.length - 1) out += conjunction + r;
      else out += newDelimiter + r;
    });
    return out;
  });

  /** {{#arraymaptemplate:value|template|delimiter|new delimiter}} */
  table.registerCaseInsensitive(['#arraymaptemplate'], (ex, c) => {
    const value = c.first;
    const template = ex.trimmedArg(c, 1);
    const delimiter = ex.hasArg(c, 2) ? unescapeNewlines(ex.trimmedArg(c, 2)) : ',';
    const newDelimiter = ex.hasArg(c, 3) ? unescapeNewlines(ex.trimmedArg(c, 3)) : ', ';
    const results: string[] = [];
    for (const raw of delimiter === '' ? [value] : value.split(delimiter)) {
      if (ex.isStopped) break;
      const v = phpTrim(raw);
      if (v === '') continue;
      results.push(ex.expandGenerated(`{{${template}|1=${v}}}`, c.frame, false));
    }
    return results.join(newDelimiter);
  });
}

function stripComments(s: string): string {
  return s.replace(/<!--[\s\S]*?(?:-->|$)/g, '');
}

/** Semantic Forms lets "\n" stand for a newline in delimiters. */
function unescapeNewlines(s: string): string {
  return s.replace(/\\n/g, '\n');
}
