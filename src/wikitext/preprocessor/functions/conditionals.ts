/** The ParserFunctions extension's conditionals: #if, #ifeq, #iferror, #ifexist, #switch. */
import { NS_MAIN } from '../../../wiki/namespaces.js';
import { decodeCharReferences } from '../../../wiki/titles.js';
import { phpLooseEquals } from '../../../php/compare.js';
import { phpTrim } from '../../../php/strings.js';
import type { PNode } from '../tree.js';
import type { ParserFunctionTable } from './table.js';

export function registerConditionalFunctions(table: ParserFunctionTable): void {
  table.registerCaseInsensitive(['#if'], (expander, call) => expander.trimmedArg(call, call.first !== '' ? 1 : 2));

  table.registerCaseInsensitive(['#ifeq'], (expander, call) => {
    const left = decodeCharReferences(call.first);
    const right = decodeCharReferences(expander.trimmedArg(call, 1));
    return expander.trimmedArg(call, phpLooseEquals(left, right) ? 2 : 3);
  });

  table.registerCaseInsensitive(['#iferror'], (expander, call) => {
    if (isErrorText(call.first)) return expander.trimmedArg(call, 1);
    return expander.hasArg(call, 2) ? expander.trimmedArg(call, 2) : call.first;
  });

  table.registerCaseInsensitive(['#ifexist'], (expander, call) => {
    const target = call.first;
    const t = target === '' ? null : expander.resolve(target, NS_MAIN);
    if (!t) return expander.trimmedArg(call, 2);
    expander.recordLink(t.ns, t.dbkey);
    expander.countExpensive(`${t.ns}:${t.dbkey}`);
    return expander.trimmedArg(call, expander.ctx.pageExists(target) ? 1 : 2);
  });

  table.registerCaseInsensitive(['#switch'], (expander, call) => {
    const primary = decodeCharReferences(call.first);
    let found = false;
    let defaultFound = false;
    let defaultValue: PNode[] | null = null;
    let lastItemHadNoEquals = false;
    let lastItem = '';
    const isDefault = (s: string): boolean => s.toLowerCase() === '#default';
    for (const part of call.node.parts) {
      if (part.name !== null) {
        lastItemHadNoEquals = false;
        // "a|b=x": a match on an earlier bare value falls through to the next value.
        if (found) return phpTrim(expander.expand(part.value, call.frame));
        const test = decodeCharReferences(phpTrim(expander.expand(part.name, call.frame)));
        if (phpLooseEquals(test, primary)) return phpTrim(expander.expand(part.value, call.frame));
        if (defaultFound || isDefault(test)) {
          defaultValue = part.value;
          defaultFound = false;
        }
      } else {
        lastItemHadNoEquals = true;
        lastItem = phpTrim(expander.expand(part.value, call.frame));
        const test = decodeCharReferences(lastItem);
        if (phpLooseEquals(test, primary)) found = true;
        else if (isDefault(test)) defaultFound = true;
      }
    }
    // A last value without "=" is the default.
    if (lastItemHadNoEquals) return lastItem;
    return defaultValue ? phpTrim(expander.expand(defaultValue, call.frame)) : '';
  });
}

/** The error markup #iferror looks for. */
function isErrorText(s: string): boolean {
  return /<(?:strong|span|p|div)\s(?:[^\s>]*\s+)*?class="(?:[^"\s>]*\s+)*?error(?:\s[^">]*)?"/.test(s);
}
