/**
 * Functions on titles and strings: case (lc, uc, lcfirst, ucfirst), URL and anchor encoding, padding,
 * namespaces (ns, nse, #special), {{PAGENAME:title}} and friends, and ParserFunctions' #titleparts.
 */
import { lcfirst, ucfirst } from '../../../wiki/language.js';
import { NS_MAIN } from '../../../wiki/namespaces.js';
import { wfUrlencode } from '../../../wiki/files.js';
import { decodeCharReferences } from '../../../wiki/titles.js';
import { fixSpecialName, resolveSpecialAlias } from '../../../wiki/special-pages.js';
import { phpLooseEquals } from '../../../php/compare.js';
import { phpIntval } from '../../../php/numbers.js';
import { phpArraySlice, phpExplodeLimit } from '../../../php/strings.js';
import { phpUrlencode, rawUrlEncode } from '../../../php/url.js';
import { NOT_FOUND, type Call, type Expander } from '../expander.js';
import { TITLE_WORDS, titleWord, type TitleWord } from '../magic-variables.js';
import type { ParserFunctionTable } from './table.js';

export function registerTitleAndStringFunctions(table: ParserFunctionTable): void {
  table.registerCaseInsensitive(['lc', 'НР', 'НИЖНІЙ_РЕГІСТР', 'МАЛИМИ_БУКВАМИ', 'МАЛЕНЬКИМИ_БУКВАМИ'], (_expander, call) =>
    call.first.toLowerCase(),
  );
  table.registerCaseInsensitive(['uc', 'ВР', 'ВЕРХНІЙ_РЕГІСТР', 'ВЕЛИКИМИ_БУКВАМИ', 'БОЛЬШИМИ_БУКВАМИ'], (_expander, call) =>
    call.first.toUpperCase(),
  );

  table.registerCaseInsensitive(['lcfirst', 'НР_ПЕРША', 'ПЕРША_БУКВА_МАЛА', 'ПЕРВАЯ_БУКВА_МАЛЕНЬКАЯ'], (_expander, call) =>
    lcfirst(call.first),
  );
  table.registerCaseInsensitive(['ucfirst', 'ВР_ПЕРША', 'ПЕРША_БУКВА_ВЕЛИКА', 'ПЕРВАЯ_БУКВА_БОЛЬШАЯ'], (_expander, call) =>
    ucfirst(call.first),
  );

  table.registerCaseInsensitive(['urlencode', 'ЗАКОДОВАНА_АДРЕСА', 'ЗАКОДИРОВАННЫЙ_АДРЕС'], (expander, call) => {
    const mode = expander.trimmedArg(call, 1).toUpperCase();
    if (mode === 'WIKI') return wfUrlencode(call.first.replace(/ /g, '_'));
    if (mode === 'PATH') return rawUrlEncode(call.first);
    return phpUrlencode(call.first);
  });

  table.registerCaseInsensitive(['anchorencode', 'КОДУВАТИ_МІТКУ', 'КОДИРОВАТЬ_МЕТКУ'], (_expander, call) => anchorEncode(call.first));
  table.registerCaseInsensitive(['padleft', 'ЗАПОВНИТИ_ЛІВОРУЧ', 'ЗАПОЛНИТЬ_СЛЕВА'], (expander, call) => pad(expander, call, true));

  table.registerCaseInsensitive(['padright', 'ЗАПОВНИТИ_ПРАВОРУЧ', 'ЗАПОЛНИТЬ_СПРАВА'], (expander, call) => pad(expander, call, false));

  table.registerCaseInsensitive(['ns', 'ПН', 'ПИ'], (expander, call) => {
    const ns = namespaceOf(expander, call.first);
    return ns === undefined ? NOT_FOUND : formattedNsText(expander, ns);
  });

  table.registerCaseInsensitive(['nse', 'ПН_2', 'ПИК'], (expander, call) => {
    const ns = namespaceOf(expander, call.first);
    return ns === undefined ? NOT_FOUND : wfUrlencode(formattedNsText(expander, ns).replace(/ /g, '_'));
  });

  table.registerCaseInsensitive(['#titleparts'], (expander, call) => {
    const [title, partsArg, offsetArg] = [call.first, expander.trimmedArg(call, 1), expander.trimmedArg(call, 2)];
    const t = expander.titleInfo(title);
    if (!t) return title;
    const parts = phpIntval(partsArg);
    let offset = phpIntval(offsetArg);
    const bits = phpExplodeLimit(expander.prefixedText(t.ns, t.text, t.nsText), '/', 25);
    if (offset > 0) offset--;
    return phpArraySlice(bits, offset, parts === 0 ? undefined : parts).join('/');
  });

  // {{PAGENAME:title}} and friends
  for (const [word, names] of Object.entries(TITLE_WORDS) as Array<[TitleWord, string[]]>) {
    table.registerCaseSensitive(names, (expander, call) => {
      const t = call.first === '' ? null : expander.titleInfo(call.first);
      return t ? titleWord(expander, word, t) : '';
    });
  }

  table.registerCaseInsensitive(['#special'], (expander, call) => specialTitle(expander, call.first));
  table.registerCaseInsensitive(['#speciale'], (expander, call) => wfUrlencode(specialTitle(expander, call.first).replace(/ /g, '_')));
}

function pad(expander: Expander, call: Call, left: boolean): string {
  const [s, lengthArg] = [call.first, expander.trimmedArg(call, 1)];
  const padding = expander.hasArg(call, 2) ? expander.trimmedArg(call, 2) : '0';
  const padChars = Array.from(padding);
  if (padChars.length === 0) return s;
  let remaining = Math.min(phpIntval(lengthArg), 500) - Array.from(s).length;
  let fill = '';
  while (remaining > 0) {
    fill += padChars.slice(0, remaining).join('');
    remaining -= padChars.length;
  }
  return left ? fill + s : s + fill;
}

/** CoreParserFunctions::ns's index: intval of a number (or "0"), else a namespace name or alias */
function namespaceOf(expander: Expander, arg: string): number | undefined {
  const n = phpIntval(arg);
  if (n !== 0 || phpLooseEquals(arg, '0')) return n;
  return expander.nsIndex(arg);
}

/** Language::getFormattedNsText: '' for a number no namespace has */
function formattedNsText(expander: Expander, ns: number): string {
  return ns === NS_MAIN ? '' : (expander.knownNsName(ns) ?? '');
}

/** CoreParserFunctions::special: the local name of a special page (an unknown one as written) */
function specialTitle(expander: Expander, text: string): string {
  const r = resolveSpecialAlias(text.replace(/ /g, '_'));
  const name = r ? fixSpecialName(text.replace(/ /g, '_')) : ucfirst(text.replace(/ /g, '_'));
  return `${expander.nsName(-1)}:${name.replace(/_/g, ' ')}`;
}

/** {{anchorencode:}}: the legacy (HTML4) section anchor of a heading text. */
function anchorEncode(text: string): string {
  let t = text.replace(/[ _]+/g, ' ').trim();
  // Links in headings leave only their label.
  t = t.replace(/\[\[:?([^\]|]*)(?:\|([^\]]*))?\]\]/g, (_m, target: string, label?: string) => label ?? target);
  t = decodeCharReferences(t).replace(/[ _]+/g, ' ').trim();
  return phpUrlencode(t.replace(/ /g, '_')).replace(/%3A/g, ':').replace(/%/g, '.');
}
