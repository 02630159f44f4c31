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
  table.registerCaseInsensitive(['lc', 'НР', 'НИЖНІЙ_РЕГІСТР', 'МАЛИМИ_БУКВАМИ', 'МАЛЕНЬКИМИ_БУКВАМИ'], (_ex, c) => c.first.toLowerCase());

  table.registerCaseInsensitive(['uc', 'ВР', 'ВЕРХНІЙ_РЕГІСТР', 'ВЕЛИКИМИ_БУКВАМИ', 'БОЛЬШИМИ_БУКВАМИ'], (_ex, c) => c.first.toUpperCase());

  table.registerCaseInsensitive(['lcfirst', 'НР_ПЕРША', 'ПЕРША_БУКВА_МАЛА', 'ПЕРВАЯ_БУКВА_МАЛЕНЬКАЯ'], (_ex, c) => lcfirst(c.first));

  table.registerCaseInsensitive(['ucfirst', 'ВР_ПЕРША', 'ПЕРША_БУКВА_ВЕЛИКА', 'ПЕРВАЯ_БУКВА_БОЛЬШАЯ'], (_ex, c) => ucfirst(c.first));

  table.registerCaseInsensitive(['urlencode', 'ЗАКОДОВАНА_АДРЕСА', 'ЗАКОДИРОВАННЫЙ_АДРЕС'], (ex, c) => {
    const mode = ex.trimmedArg(c, 1).toUpperCase();
    if (mode === 'WIKI') return wfUrlencode(c.first.replace(/ /g, '_'));
    if (mode === 'PATH') return rawUrlEncode(c.first);
    return phpUrlencode(c.first);
  });

  table.registerCaseInsensitive(['anchorencode', 'КОДУВАТИ_МІТКУ', 'КОДИРОВАТЬ_МЕТКУ'], (_ex, c) => anchorEncode(c.first));

  table.registerCaseInsensitive(['padleft', 'ЗАПОВНИТИ_ЛІВОРУЧ', 'ЗАПОЛНИТЬ_СЛЕВА'], (ex, c) => pad(ex, c, true));

  table.registerCaseInsensitive(['padright', 'ЗАПОВНИТИ_ПРАВОРУЧ', 'ЗАПОЛНИТЬ_СПРАВА'], (ex, c) => pad(ex, c, false));

  table.registerCaseInsensitive(['ns', 'ПН', 'ПИ'], (ex, c) => {
    const ns = namespaceOf(ex, c.first);
    return ns === undefined ? NOT_FOUND : formattedNsText(ex, ns);
  });

  table.registerCaseInsensitive(['nse', 'ПН_2', 'ПИК'], (ex, c) => {
    const ns = namespaceOf(ex, c.first);
    return ns === undefined ? NOT_FOUND : wfUrlencode(formattedNsText(ex, ns).replace(/ /g, '_'));
  });


  table.registerCaseInsensitive(['#titleparts'], (ex, c) => {
    const [title, partsArg, offsetArg] = [c.first, ex.trimmedArg(c, 1), ex.trimmedArg(c, 2)];
    const t = ex.titleInfo(title);
    if (!t) return title;
    const parts = phpIntval(partsArg);
    let offset = phpIntval(offsetArg);
    const bits = phpExplodeLimit(ex.prefixedText(t.ns, t.text, t.nsText), '/', 25);
    if (offset > 0) offset--;
    return phpArraySlice(bits, offset, parts === 0 ? undefined : parts).join('/');
  });

  // {{PAGENAME:title}} and friends
  for (const [word, names] of Object.entries(TITLE_WORDS) as Array<[TitleWord, string[]]>) {
    table.registerCaseSensitive(names, (ex, c) => {
      const t = c.first === '' ? null : ex.titleInfo(c.first);
      return t ? titleWord(ex, word, t) : '';
    });
  }

  table.registerCaseInsensitive(['#special'], (ex, c) => specialTitle(ex, c.first));

  table.registerCaseInsensitive(['#speciale'], (ex, c) => wfUrlencode(specialTitle(ex, c.first).replace(/ /g, '_')));
}

function pad(ex: Expander, c: Call, left: boolean): string {
  const [s, lengthArg] = [c.first, ex.trimmedArg(c, 1)];
  const padding = ex.hasArg(c, 2) ? ex.trimmedArg(c, 2) : '0';
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
function namespaceOf(ex: Expander, arg: string): number | undefined {
  const n = phpIntval(arg);
  if (n !== 0 || phpLooseEquals(arg, '0')) return n;
  return ex.nsIndex(arg);
}

/** Language::getFormattedNsText: '' for a number no namespace has */
function formattedNsText(ex: Expander, ns: number): string {
  return ns === NS_MAIN ? '' : ex.knownNsName(ns) ?? '';
}

/** CoreParserFunctions::special: the local name of a special page (an unknown one as written) */
function specialTitle(ex: Expander, text: string): string {
  const r = resolveSpecialAlias(text.replace(/ /g, '_'));
  const name = r ? fixSpecialName(text.replace(/ /g, '_')) : ucfirst(text.replace(/ /g, '_'));
  return `${ex.nsName(-1)}:${name.replace(/_/g, ' ')}`;
}

/** {{anchorencode:}}: the legacy (HTML4) section anchor of a heading text. */
function anchorEncode(text: string): string {
  let t = text.replace(/[ _]+/g, ' ').trim();
  // Links in headings leave only their label.
  t = t.replace(/\[\[:?([^\]|]*)(?:\|([^\]]*))?\]\]/g, (_m, target: string, label?: string) => label ?? target);
  t = decodeCharReferences(t).replace(/[ _]+/g, ' ').trim();
  return phpUrlencode(t.replace(/ /g, '_')).replace(/%3A/g, ':').replace(/%/g, '.');
}
