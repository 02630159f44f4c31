/** Semantic Forms' parser functions that expand here: #arraymap and #arraymaptemplate. */
import { phpTrim } from '../../../php/strings.js';
import type { ParserFunctionTable } from './table.js';

export function registerFormsFunctions(table: ParserFunctionTable): void {
  /** {{#arraymap:value|delimiter|var|formula|new delimiter|conjunction}} */
  table.registerCaseInsensitive(['#arraymap'], (expander, call) => {
    const parts = call.node.parts;
    const value = call.first;
    const delimiter = expander.hasArg(call, 1) ? unescapeNewlines(expander.trimmedArg(call, 1)) : ',';
    const variable = parts[1] ? phpTrim(stripComments(parts[1].raw)) : 'x';
    const formula = parts[2] ? parts[2].raw : 'x';
    const newDelimiter = expander.hasArg(call, 4) ? unescapeNewlines(expander.trimmedArg(call, 4)) : ', ';
    let conjunction = expander.hasArg(call, 5) ? unescapeNewlines(expander.trimmedArg(call, 5)) : newDelimiter;
    const values = delimiter === '' ? Array.from(value) : value.split(delimiter);
    const results: string[] = [];
    for (const raw of values) {
      if (expander.isStopped) break;
      const v = phpTrim(raw);
      if (v === '') continue;
      // The formula's source with the variable replaced, then preprocessed and expanded afresh.
      const source = variable === '' ? formula : formula.split(variable).join(v);
      const r = phpTrim(expander.expandGenerated(source, call.frame, call.frame.isTemplate));
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
  table.registerCaseInsensitive(['#arraymaptemplate'], (expander, call) => {
    const value = call.first;
    const template = expander.trimmedArg(call, 1);
    const delimiter = expander.hasArg(call, 2) ? unescapeNewlines(expander.trimmedArg(call, 2)) : ',';
    const newDelimiter = expander.hasArg(call, 3) ? unescapeNewlines(expander.trimmedArg(call, 3)) : ', ';
    const results: string[] = [];
    for (const raw of delimiter === '' ? [value] : value.split(delimiter)) {
      if (expander.isStopped) break;
      const v = phpTrim(raw);
      if (v === '') continue;
      results.push(expander.expandGenerated(`{{${template}|1=${v}}}`, call.frame, false));
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
