/**
 * The import's search pass: every page's source text with markup stripped goes into the full-text
 * index (written by the import writer), after pass 2.
 */
import type { TitleCodec } from '../wiki/titles.js';
import { stripMarkup, stripOptions } from '../wiki/search-text.js';
import { LANGUAGE_CODES } from '../wikitext/links.js';
import type { ImportWriter, SearchIndexResult } from '../store/import-writer.js';

export async function buildSearchIndex(
  w: ImportWriter,
  codec: TitleCodec,
  opts: { checkAbort: () => void; onProgress?: (done: number) => void },
): Promise<SearchIndexResult> {
  const strip = stripOptions(codec, LANGUAGE_CODES);
  return w.buildSearchIndex(
    {
      plainText: (text, model) => (model === 'wikitext' ? stripMarkup(text, strip) : text),
      titleText: (dbkey) => dbkey.replace(/_/g, ' '),
    },
    opts,
  );
}
