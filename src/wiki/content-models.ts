/**
 * The content models of MediaWiki 1.25's core ($wgContentHandlers in DefaultSettings.php) and the one
 * serialization format each handler supports (its TextContentHandler constructor's format list).
 */
export const FORMAT_OF_MODEL: ReadonlyMap<string, string> = new Map([
  ['wikitext', 'text/x-wiki'],
  ['javascript', 'text/javascript'],
  ['json', 'application/json'],
  ['css', 'text/css'],
  ['text', 'text/plain'],
]);

/** ContentHandler::getAllContentFormats: every handler's formats, in $wgContentHandlers order. */
export const CONTENT_FORMATS: readonly string[] = [...FORMAT_OF_MODEL.values()];

/** Does the model's handler read and write this format? (a model 1.25's core lacks: only its own) */
export function isSupportedFormat(model: string, ownFormat: string, format: string): boolean {
  return (FORMAT_OF_MODEL.get(model) ?? ownFormat) === format;
}
