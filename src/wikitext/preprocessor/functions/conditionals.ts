/** The ParserFunctions extension's conditionals: #if, #ifeq, #iferror, #ifexist, #switch. */
import { NS_MAIN } from '../../../wiki/namespaces.js';
import { decodeCharReferences } from '../../../wiki/titles.js';
import { phpLooseEquals } from '../../../php/compare.js';
import { phpTrim } from '../../../php/strings.js';
import type { PNode } from '../tree.js';
import type { ParserFunctionTable } from './table.js';

export function registerConditionalFunctions(table: ParserFunctionTable): void {
  table.registerCaseInsensitive(['#if'], (ex, c) => ex.trimmedArg(c, c.first !== '' ? 1 : 2));

  table.registerCaseInsensitive(['#ifeq'], (ex, c) => {
    const left = decodeCharReferences(c.first);
    const right = decodeCharReferences(ex.trimmedArg(c, 1));
    return ex.trimmedArg(c, phpLooseEquals(left, right) ? 2 : 3);
  });

  table.registerCaseInsensitive(['#iferror'], (ex, c) => {
    if (isErrorText(c.first)) return ex.trimmedArg(c, 1);
    return ex.hasArg(c, 2) ? ex.trimmedArg(c, 2) : c.first;
  });

  table.registerCaseInsensitive(['#ifexist'], (ex, c) => {
    const target = c.first;
    const t = target === '' ? null : ex.resolve(target, NS_MAIN);
    if (!t) return ex.trimmedArg(c, 2);
    ex.recordLink(t.ns, t.dbkey);
    ex.countExpensive(`${t.ns}:${t.dbkey}`);
    return ex.trimmedArg(c, ex.ctx.pageExists(target) ? 1 : 2);
  });

  table.registerCaseInsensitive(['#switch'], (ex, c) => {
    const primary = decodeCharReferences(c.first);
    let found = false;
    let defaultFound = false;
    let defaultValue: PNode[] | null = null;
    let lastItemHadNoEquals = false;
    let lastItem = '';
    const isDefault = (s: string): boolean => s.toLowerCase() === '#default';
    for (const part of c.node.parts) {
      if (part.name !== null) {
        lastItemHadNoEquals = false;
        // "a|b=x": a match on an earlier bare value falls through to the next value.
        if (found) return phpTrim(ex.expand(part.value, c.frame));
        const test = decodeCharReferences(phpTrim(ex.expand(part.name, c.frame)));
        if (phpLooseEquals(test, primary)) return phpTrim(ex.expand(part.value, c.frame));
        if (defaultFound || isDefault(test)) {
          defaultValue = part.value;
          defaultFound = false;
        }
      } else {
        lastItemHadNoEquals = true;
        lastItem = phpTrim(ex.expand(part.value, c.frame));
        const test = decodeCharReferences(lastItem);
        if (phpLooseEquals(test, primary)) found = true;
        else if (isDefault(test)) defaultFound = true;
      }
    }
    // A last value without "=" is the default.
    if (lastItemHadNoEquals) return lastItem;
    return defaultValue ? phpTrim(ex.expand(defaultValue, c.frame)) : '';
  });
}

/** The error markup #iferror looks for. */
function isErrorText(s: string): boolean {
  return /<(?:strong|span|p|div)\s(?:[^\s>]*\s+)*?class="(?:[^"\s>]*\s+)*?error(?:\s[^">]*)?"/.test(s);
}
