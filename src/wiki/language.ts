/**
 * Language rules of the content language (uk) that the API needs: Unicode case mapping of the first
 * letter, plural forms, number and size formatting, and the message fallback chain.
 */
import { ukGenitive } from './namespaces.js';

/** MediaWiki's Language::ucfirst: multibyte-aware uppercasing of the first character only. */
export function ucfirst(s: string): string {
  if (s === '') return s;
  const first = String.fromCodePoint(s.codePointAt(0)!);
  const upper = first.toUpperCase();
  // A few characters uppercase to several (ß → SS); MediaWiki's mb_strtoupper keeps them single.
  const mapped = [...upper].length === 1 ? upper : first;
  return mapped + s.slice(first.length);
}

export function lcfirst(s: string): string {
  if (s === '') return s;
  const first = String.fromCodePoint(s.codePointAt(0)!);
  return first.toLowerCase() + s.slice(first.length);
}

/** Unicode-aware lowercasing, as Language::lc. */
export function lc(s: string): string {
  return s.toLowerCase();
}

/**
 * Case folding for case-insensitive matching: lowercase for all of Unicode, and the apostrophes
 * ', ’ and ʼ made one character (Ukrainian writes all three).
 */
export function foldForMatch(s: string): string {
  return s.toLowerCase().replace(/[’ʼ`]/g, "'");
}

/** Ukrainian plural form index (CLDR: one, few, many, other) as used by {{PLURAL:n|one|few|many}}. */
export function ukPluralIndex(n: number): number {
  if (!Number.isInteger(n)) return 3;
  const abs = Math.abs(n);
  const mod10 = abs % 10;
  const mod100 = abs % 100;
  if (mod10 === 1 && mod100 !== 11) return 0;
  if (mod10 >= 2 && mod10 <= 4 && (mod100 < 12 || mod100 > 14)) return 1;
  return 2;
}

/**
 * Language::convertPlural of MediaWiki 1.25 (CLDR 26 rules; uk, ru and be have no special two-form
 * rule any more: {{PLURAL:21|a|b}} is "a"). Explicit "N=text" forms are found as PHP does it: any form
 * containing digits followed by "=" is an explicit form; it is used when the text before the first "="
 * equals the number as PHP prints it, and dropped otherwise. The remaining forms are indexed by the
 * plural category (one, few, many, other for uk/ru/be; one, other elsewhere), the index capped by the
 * number of forms.
 */
export function convertPlural(n: number, forms: string[], lang = 'uk'): string {
  const plain: string[] = [];
  const asPhpString = String(n);
  for (const f of forms) {
    if (/\d+=/.test(f)) {
      const eq = f.indexOf('=');
      if (f.slice(0, eq) === asPhpString) return f.slice(eq + 1);
      continue;
    }
    plain.push(f);
  }
  if (plain.length === 0) return '';
  let idx: number;
  if (lang === 'uk' || lang === 'ru' || lang === 'be' || lang === 'be-tarask' || lang === 'rue') {
    idx = ukPluralIndex(n);
  } else {
    idx = Number.isInteger(n) && Math.abs(n) === 1 ? 0 : 1;
  }
  return plain[Math.min(idx, plain.length - 1)];
}

/** uk number formatting: decimal comma, NBSP thousands separator, no grouping up to 4 integer digits. */
export function formatNum(n: number, decimals?: number): string {
  let s = decimals === undefined ? String(n) : n.toFixed(decimals);
  let [int, frac] = s.split('.');
  const neg = int.startsWith('-');
  if (neg) int = int.slice(1);
  if (int.length > 4) int = int.replace(/\B(?=(\d{3})+(?!\d))/g, '\u00a0');
  s = (neg ? '-' : '') + int + (frac !== undefined ? ',' + frac : '');
  return s;
}

/** Languages whose numbers group with a non-breaking space and take a decimal comma (their separatorTransformTable). */
function usesSpaceSeparators(lang: string): boolean {
  return lang === 'uk' || lang === 'ru' || lang === 'be' || lang === 'rue';
}

/** Language::parseFormattedNumber of a language: its separators back to "," and "." , then the "," dropped. */
export function parseFormattedNumber(s: string, lang: string): string {
  let out = s;
  if (usesSpaceSeparators(lang)) out = out.replace(/[,\u00a0]/g, (c) => (c === ',' ? '.' : ','));
  return out.replace(/,/g, '');
}

/**
 * Language::formatNum of a string as written ({{formatnum:}}): commafy (any string, as PHP's regex on the
 * reversed text does), then the language's separator table; uk and ru leave up to four integer digits ungrouped.
 */
export function formatNumText(s: string, lang: string): string {
  const commafy = (x: string) =>
    [
      ...[...x]
        .reverse()
        .join('')
        .replace(/(\d{3})(?=\d)(?!\d*\.)/g, '$1,'),
    ]
      .reverse()
      .join('');
  if (usesSpaceSeparators(lang)) {
    const grouped = /^-?\d{1,4}(\.\d+)?$/.test(s) ? s : commafy(s);
    return grouped.replace(/[,.]/g, (c) => (c === ',' ? '\u00a0' : ','));
  }
  return commafy(s);
}

/** Language::convertGrammar: LanguageUk's genitive and accusative; other languages keep the word. */
export function convertGrammar(word: string, grammarCase: string, lang: string): string {
  if (lang !== 'uk') return word;
  if (/[a-zA-Z_]/.test(word)) return word;
  if (grammarCase === 'genitive') return ukGenitive(word);
  if (grammarCase === 'accusative') {
    if (/[вВ]ікі$/.test(word)) return word;
    if (word.endsWith('ія')) return word.slice(0, -2) + 'ію';
  }
  return word;
}

/** Language::formatSize with the uk messages size-bytes/-kilobytes/-megabytes/-gigabytes. */
export function formatSize(bytes: number): string {
  const units = ['$1 байтів', '$1 КБ', '$1 МБ', '$1 ГБ', '$1 ТБ'];
  let i = 0;
  let size = bytes;
  while (size >= 1024 && i < units.length - 1) {
    size /= 1024;
    i++;
  }
  // MediaWiki rounds to 0 decimals for bytes and KB, 2 decimals from MB up
  const text = i <= 1 ? formatNum(Math.round(size)) : formatNum(Math.round(size * 100) / 100);
  return units[i].replace('$1', text);
}

/** MediaWiki's language fallback chains for the languages we know; everything ends in en. */
const FALLBACKS: ReadonlyMap<string, string[]> = new Map(
  Object.entries({
    uk: ['ru'],
    be: ['ru'],
    'be-tarask': ['be', 'ru'],
    rue: ['uk', 'ru'],
    crh: ['crh-latn'],
    ru: [],
    en: [],
  }),
);

export function fallbackChain(lang: string): string[] {
  // a Map: the code comes from the request (amlang=constructor is a code, not Object.prototype's)
  const chain = [lang, ...(FALLBACKS.get(lang) ?? [])];
  if (!chain.includes('en')) chain.push('en');
  return chain;
}

/** Language::isValidCode: no path or markup characters. */
export function isValidLanguageCode(code: string): boolean {
  return code.length > 0 && !/[:/\\\x00&<>'"]/.test(code) && /^[a-z0-9-]+$/i.test(code);
}

/**
 * Language::isValidCode of MediaWiki 1.25: no path or markup characters, nothing a title may not
 * contain (ASCII controls, # < > [ ] { | }, DEL) and no %XX escape. The empty string is valid.
 */
export function isValidCodeMw(code: string): boolean {
  return !/[:/\\\x00&<>'"]/.test(code) && !/[\x00-\x1f#<>[\]{|}\x7f]|%[0-9A-Fa-f]{2}/.test(code);
}

/** Language::isValidBuiltInCode: the form of a code that can have its own message file (PHP's "$" allows a final newline). */
export function isValidBuiltInCode(code: string): boolean {
  return /^[a-z0-9-]{2,}\n?$/.test(code);
}
