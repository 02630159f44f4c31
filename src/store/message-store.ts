/** Interface messages: the i18n catalogs of each language and the wiki's local overrides. */

/** One stored message text: from a language's catalog or from the wiki's local override of it. */
export interface StoredMessage {
  source: 'catalog' | 'override';
  lang: string;
  key: string;
  text: string;
}

export interface MessageStore {
  /**
   * Every stored text of these keys in these languages, catalogs and overrides alike, in no particular
   * order: one round trip for a whole page of messages. An override of language L is what MessageCache
   * reads for L: for the content language the page MediaWiki:Key, for another the page MediaWiki:Key/L
   * (`key` is the message key, first letter lowercased). Which text wins (fallback chains, overrides
   * before catalogs) is the caller's decision (src/wiki/messages.ts).
   */
  texts(langs: readonly string[], keys: readonly string[]): Promise<StoredMessage[]>;
  /**
   * The keys of these languages' catalogs, plus those of one language's overrides when `overrideLang` is
   * given, limited to a key range, in no particular order and possibly more than once: index range scans on
   * message(msg_lang, msg_key) and message_override(mo_lang, mo_key).
   */
  keys(catalogLangs: readonly string[], overrideLang: string | null, range: KeyRange): Promise<string[]>;
  /**
   * keys() and texts() of those keys in one round trip, for a list of messages read from a key range:
   * `keys` as keys() gives them (here each once), `texts` every stored text of them in `langs`, and in
   * `fallbackLangs` those of only the keys that no catalog of `langs` holds (the keys a lookup goes on
   * to the fallbacks for). Rows in no particular order.
   */
  rangeTexts(
    catalogLangs: readonly string[],
    overrideLang: string | null,
    range: KeyRange,
    langs: readonly string[],
    fallbackLangs: readonly string[],
  ): Promise<{ keys: string[]; texts: StoredMessage[] }>;
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
