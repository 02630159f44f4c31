/**
 * The magic words the importer's link analysis and the renderer share, with their uk synonyms (MessagesUk.php, which
 * also accepts the ru and English spellings): the redirect marker and the double-underscore switches
 * that become page properties. (DEFAULTSORT and the other brace magic words are the preprocessor's.)
 */
import { escapeRegExp } from './regexp.js';

/** #REDIRECT and its synonyms; matched case-insensitively at the start of the text. */
export const REDIRECT_WORDS = ['#REDIRECT', '#ПЕРЕНАПРАВЛЕННЯ', '#ПЕРЕНАПР', '#ПЕРЕАДРЕСАЦІЯ', '#ПЕРЕНАПРАВЛЕНИЕ'];

/**
 * Double-underscore switches: the property name (as page_props stores it), whether the word is
 * case-sensitive, then its synonyms. MediaWiki stores every switch found on the page as a page property
 * with the empty value. Matched case-insensitively except where MediaWiki's magic word is case-sensitive
 * (hiddencat, index, noindex, staticredirect…).
 */
export const DOUBLE_UNDERSCORES: ReadonlyArray<readonly [prop: string, caseSensitive: boolean, ...words: string[]]> = [
  ['notoc', false, '__NOTOC__', '__БЕЗЗМІСТУ__', '__БЕЗ_ЗМІСТУ__', '__БЕЗ_ОГЛАВЛЕНИЯ__'],
  ['nogallery', false, '__NOGALLERY__', '__БЕЗГАЛЕРЕЇ__', '__БЕЗ_ГАЛЕРЕИ__'],
  ['forcetoc', false, '__FORCETOC__', '__ОБОВ_ЗМІСТ__', '__ОБЯЗАТЕЛЬНОЕ_ОГЛАВЛЕНИЕ__'],
  ['toc', false, '__TOC__', '__ЗМІСТ__', '__ОГЛАВЛЕНИЕ__'],
  ['noeditsection', false, '__NOEDITSECTION__', '__БЕЗ_РЕДАГУВ_РОЗДІЛУ__', '__БЕЗ_РЕДАКТИРОВАНИЯ_РАЗДЕЛА__'],
  ['newsectionlink', true, '__NEWSECTIONLINK__', '__ПОСИЛАННЯ_НА_НОВИЙ_РОЗДІЛ__', '__ССЫЛКА_НА_НОВЫЙ_РАЗДЕЛ__'],
  ['nonewsectionlink', true, '__NONEWSECTIONLINK__', '__БЕЗ_ПОСИЛАННЯ_НА_НОВИЙ_РОЗДІЛ__', '__БЕЗ_ССЫЛКИ_НА_НОВЫЙ_РАЗДЕЛ__'],
  ['hiddencat', true, '__HIDDENCAT__', '__ПРИХОВАНА_КАТЕГОРІЯ__', '__СКРЫТАЯ_КАТЕГОРИЯ__'],
  ['index', true, '__INDEX__', '__ІНДЕКС__', '__ИНДЕКС__'],
  ['noindex', true, '__NOINDEX__', '__БЕЗ_ІНДЕКСУ__', '__БЕЗ_ИНДЕКСА__'],
  ['staticredirect', true, '__STATICREDIRECT__', '__СТАТИЧНЕ_ПЕРЕНАПРАВЛЕННЯ__', '__СТАТИЧЕСКОЕ_ПЕРЕНАПРАВЛЕНИЕ__'],
  ['notitleconvert', false, '__NOTITLECONVERT__', '__NOTC__'],
  ['nocontentconvert', false, '__NOCONTENTCONVERT__', '__NOCC__'],
  ['disambiguation', false, '__DISAMBIG__', '__НЕОДНОЗНАЧНІСТЬ__'],
];

const BY_WORD = new Map<string, { prop: string; caseSensitive: boolean; word: string }>();
for (const [prop, caseSensitive, ...words] of DOUBLE_UNDERSCORES)
  for (const w of words) BY_WORD.set(w.toUpperCase(), { prop, caseSensitive, word: w });

/** Every double-underscore word, case-insensitively (global: for replace/matchAll); see doubleUnderscoreProp. */
export const DOUBLE_UNDERSCORE_RE = new RegExp(
  DOUBLE_UNDERSCORES.flatMap(([, , ...words]) => words)
    .map(escapeRegExp)
    .join('|'),
  'gi',
);

/** The property a match of DOUBLE_UNDERSCORE_RE switches on; undefined for a case-sensitive word in another case. */
export function doubleUnderscoreProp(match: string): string | undefined {
  const d = BY_WORD.get(match.toUpperCase());
  return d && (!d.caseSensitive || match === d.word) ? d.prop : undefined;
}
