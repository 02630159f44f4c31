/** Interface messages: the i18n catalogs of each language and the wiki's local overrides. */

export interface MessageStore {
  /**
   * The text of a message in a language as the wiki shows it: the local override (MediaWiki: page) if
   * any, else the catalog text, following the language's fallback chain. undefined if unknown.
   */
  text(key: string, lang: string): string | undefined;

  /** The catalog text of one language, without fallback; undefined when that catalog lacks the key. */
  catalogText(lang: string, key: string): string | undefined;
  /**
   * The local override MessageCache reads for one language, without fallback: for the content language
   * the page MediaWiki:Key, for another language L the page MediaWiki:Key/L (`key` is the message key,
   * first letter lowercased).
   */
  overrideText(lang: string, key: string): string | undefined;
  /**
   * Keys of one language's catalog in byte order, limited to a key range: an index range scan on
   * message(msg_lang, msg_key), never the whole table unless the range is open.
   */
  catalogKeys(lang: string, range: KeyRange): string[];
  /** Keys of one language's overrides (message_override) in byte order, limited to a key range. */
  overrideKeys(lang: string, range: KeyRange): string[];
  /** Whether a page MediaWiki:<title> exists (title as DB key, e.g. 'August' or 'August/ru'). */
  mediaWikiPageExists(title: string): boolean;
}

/** A range of message keys in byte order; every bound is optional. */
export interface KeyRange {
  /** keys >= min */
  min?: string;
  /** keys < below (exclusive) */
  below?: string;
  /** keys <= max (inclusive) */
  max?: string;
}
