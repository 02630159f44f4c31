/** Interface messages: the i18n catalogs of each language and the wiki's local overrides. */

export interface MessageStore {
  /**
   * The text of a message in a language as the wiki shows it: the local override (MediaWiki: page) if
   * any, else the catalog text, following the language's fallback chain. undefined if unknown.
   */
  text(key: string, lang: string): string | undefined;
}
