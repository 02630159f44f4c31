/**
 * The import's search pass: every page's source text with markup stripped goes into the full-text
 * index (written by SearchIndexWriter in the store layer), after pass 2.
 */
import type Database from 'better-sqlite3';
import type { TitleCodec } from '../wiki/titles.js';
import { stripMarkup, stripOptions } from '../wiki/search-text.js';
import { SearchIndexWriter, type SearchIndexCounts } from '../store/sqlite/search-writer.js';
import { LANGUAGE_CODES } from '../wikitext/links.js';

export async function buildSearchIndex(
  db: Database.Database,
  codec: TitleCodec,
  opts: { checkAbort: () => void; onProgress?: (done: number) => void },
): Promise<SearchIndexCounts & { indexBytes: number; databaseBytes: number }> {
  const strip = stripOptions(codec, LANGUAGE_CODES);
  const writer = new SearchIndexWriter(db);
  const counts = await writer.build(
    {
      plainText: (text, model) => (model === 'wikitext' ? stripMarkup(text, strip) : text),
      titleText: (dbkey) => dbkey.replace(/_/g, ' '),
    },
    opts,
  );
  const size = writer.sizeBytes();
  return { ...counts, indexBytes: size.index, databaseBytes: size.database };
}
