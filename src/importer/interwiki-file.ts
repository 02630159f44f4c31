/**
 * The interwiki map of an import: the operator's list (`--interwiki FILE`, the JSON shape of
 * src/wiki/data/interwiki.json, as `serve --interwiki` takes it) or MediaWiki's default list plus the
 * interlanguage prefixes of a Wikipedia-family wiki. The import stores it in the interwiki table, and the
 * server answers with it unless told otherwise.
 */
import { InterwikiMap, defaultInterwikiMap } from '../wiki/interwiki.js';

export { defaultInterwikiMap };

export function loadInterwikiMap(file: string | undefined): InterwikiMap {
  if (file === undefined) return defaultInterwikiMap();
  try {
    return InterwikiMap.fromFile(file);
  } catch (e) {
    throw new Error(`--interwiki ${file}: ${(e as Error).message}`);
  }
}
