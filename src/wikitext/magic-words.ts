/**
 * The magic words the importer's link analysis and the renderer share, with their uk synonyms (MessagesUk.php, which
 * also accepts the ru and English spellings): the redirect marker and the double-underscore switches
 * that become page properties. (DEFAULTSORT and the other brace magic words are the preprocessor's.)
 */
import { escapeRegExp } from './regexp.js';

/** #REDIRECT and its synonyms; matched case-insensitively at the start of the text. */
export const REDIRECT_WORDS = ['#REDIRECT', '#ПЕРЕНАПРАВЛЕННЯ', '#ПЕРЕНАПР', '#ПЕРЕАДРЕСАЦІЯ', '#ПЕРЕНАПРАВЛЕНИЕ'];

/**
 * Double-underscore switches: property name (as page_props stores it) → synonyms. MediaWiki stores
 * every switch found on the page as a page property with the empty value. Matched case-insensitively
 * except where MediaWiki's magic word is case-sensitive (hiddencat, index, noindex, staticredirect…).
 */
export const DOUBLE_UNDERSCORES: Array<{ prop: string; caseSensitive: boolean; words: string[] }> = [
  { prop: 'notoc', caseSensitive: false, words: ['__NOTOC__', '__БЕЗЗМІСТУ__', '__БЕЗ_ЗМІСТУ__', '__БЕЗ_ОГЛАВЛЕНИЯ__'] },
  { prop: 'nogallery', caseSensitive: false, words: ['__NOGALLERY__', '__БЕЗГАЛЕРЕЇ__', '__БЕЗ_ГАЛЕРЕИ__'] },
  { prop: 'forcetoc', caseSensitive: false, words: ['__FORCETOC__', '__ОБОВ_ЗМІСТ__', '__ОБЯЗАТЕЛЬНОЕ_ОГЛАВЛЕНИЕ__'] },
  { prop: 'toc', caseSensitive: false, words: ['__TOC__', '__ЗМІСТ__', '__ОГЛАВЛЕНИЕ__'] },
  {
    prop: 'noeditsection',
    caseSensitive: false,
    words: ['__NOEDITSECTION__', '__БЕЗ_РЕДАГУВ_РОЗДІЛУ__', '__БЕЗ_РЕДАКТИРОВАНИЯ_РАЗДЕЛА__'],
  },
  {
    prop: 'newsectionlink',
    caseSensitive: true,
    words: ['__NEWSECTIONLINK__', '__ПОСИЛАННЯ_НА_НОВИЙ_РОЗДІЛ__', '__ССЫЛКА_НА_НОВЫЙ_РАЗДЕЛ__'],
  },
  {
    prop: 'nonewsectionlink',
    caseSensitive: true,
    words: ['__NONEWSECTIONLINK__', '__БЕЗ_ПОСИЛАННЯ_НА_НОВИЙ_РОЗДІЛ__', '__БЕЗ_ССЫЛКИ_НА_НОВЫЙ_РАЗДЕЛ__'],
  },
  { prop: 'hiddencat', caseSensitive: true, words: ['__HIDDENCAT__', '__ПРИХОВАНА_КАТЕГОРІЯ__', '__СКРЫТАЯ_КАТЕГОРИЯ__'] },
  { prop: 'index', caseSensitive: true, words: ['__INDEX__', '__ІНДЕКС__', '__ИНДЕКС__'] },
  { prop: 'noindex', caseSensitive: true, words: ['__NOINDEX__', '__БЕЗ_ІНДЕКСУ__', '__БЕЗ_ИНДЕКСА__'] },
  {
    prop: 'staticredirect',
    caseSensitive: true,
    words: ['__STATICREDIRECT__', '__СТАТИЧНЕ_ПЕРЕНАПРАВЛЕННЯ__', '__СТАТИЧЕСКОЕ_ПЕРЕНАПРАВЛЕНИЕ__'],
  },
  { prop: 'notitleconvert', caseSensitive: false, words: ['__NOTITLECONVERT__', '__NOTC__'] },
  { prop: 'nocontentconvert', caseSensitive: false, words: ['__NOCONTENTCONVERT__', '__NOCC__'] },
  { prop: 'disambiguation', caseSensitive: false, words: ['__DISAMBIG__', '__НЕОДНОЗНАЧНІСТЬ__'] },
];

const BY_WORD = new Map<string, { prop: string; caseSensitive: boolean; word: string }>();
for (const d of DOUBLE_UNDERSCORES)
  for (const w of d.words) BY_WORD.set(w.toUpperCase(), { prop: d.prop, caseSensitive: d.caseSensitive, word: w });

/** Every double-underscore word, case-insensitively (global: for replace/matchAll); see doubleUnderscoreProp. */
export const DOUBLE_UNDERSCORE_RE = new RegExp(
  DOUBLE_UNDERSCORES.flatMap((d) => d.words)
    .map(escapeRegExp)
    .join('|'),
  'gi',
);

/** The property a match of DOUBLE_UNDERSCORE_RE switches on; undefined for a case-sensitive word in another case. */
export function doubleUnderscoreProp(match: string): string | undefined {
  const d = BY_WORD.get(match.toUpperCase());
  return d && (!d.caseSensitive || match === d.word) ? d.prop : undefined;
}
