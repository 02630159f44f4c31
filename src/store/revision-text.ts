/**
 * How revision_text keeps a revision's text (both stores read the same rows: PostgreSQL's are copied from
 * the SQLite file): rt_data holds the UTF-8 bytes of the text as they are, or, for a text of at least
 * DEFLATE_FROM_BYTES bytes, their raw deflate (rt_deflated 1).
 *
 * MediaWiki keeps every text as it is by default ($wgCompressRevisions = false). Short texts, most of a
 * wiki's revisions, are kept so here too: a fresh zlib stream costs ~15-20 µs, most of what importing a
 * ~600-byte text cost (about 20 CPU s of a 1,000,000-page import) for ~300 bytes saved each; a long text
 * costs zlib little per byte and saves many.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';

/** UTF-8 bytes from which a text is kept deflated */
export const DEFLATE_FROM_BYTES = 4096;

/** whether a text of `bytes` UTF-8 bytes is kept deflated: the form follows from the length alone */
export function isDeflatedLength(bytes: number): boolean {
  return bytes >= DEFLATE_FROM_BYTES;
}

/**
 * A revision text as revision_text keeps it (rt_data; rt_deflated is isDeflatedLength of its UTF-8
 * length), in an ArrayBuffer of its own (it can be transferred to another thread). A fresh zlib stream
 * per deflated text: reusing one with deflateReset is faster but node's zlib then, rarely, picks other
 * matches (the same text, other bytes), and an import must give the same database.
 */
export function encodeRevisionText(text: string): Uint8Array {
  const bytes = ENCODER.encode(text);
  return isDeflatedLength(bytes.length) ? new Uint8Array(deflateRevisionBytes(bytes)) : bytes;
}
const ENCODER = new TextEncoder();

/**
 * rt_data and rt_deflated for a text given as a string: a text kept as it is stays a string (SQLite stores
 * it as its UTF-8 bytes through `CAST(? AS BLOB)`: no Buffer per text); a long one is deflated.
 */
export function revisionTextColumns(text: string): [data: string | Buffer, deflated: 0 | 1] {
  return isDeflatedLength(Buffer.byteLength(text, 'utf8')) ? [deflateRevisionBytes(Buffer.from(text, 'utf8')), 1] : [text, 0];
}

/** the text of a revision_text row */
export function decodeRevisionText(data: Uint8Array, deflated: number): string {
  const bytes = deflated ? inflateRawSync(data) : Buffer.from(data.buffer, data.byteOffset, data.byteLength);
  return bytes.toString('utf8');
}

/** zlib's MIN_LOOKAHEAD: a window of 2^w bytes lets a match reach back 2^w - 262 bytes */
const MIN_LOOKAHEAD = 262;
const WINDOW_OPTIONS = Array.from({ length: 16 }, (_, w) => ({ windowBits: w, memLevel: 8 }));

/**
 * The raw deflate of a revision text's bytes, with the smallest window (2^9 .. 2^15 bytes) that reaches
 * back over the whole text. zlib clears its window and hash chains when a stream starts; the default
 * 32 KB window made that a tenth of a ~600-byte text's deflate. With the window covering the text every
 * match of the default window is still in reach and the hash table is the same (memLevel 8), so the
 * bytes are the default's; any raw inflater reads them (the window size is not in the stream).
 */
export function deflateRevisionBytes(bytes: Uint8Array): Buffer {
  let w = 9;
  while (w < 15 && (1 << w) - MIN_LOOKAHEAD < bytes.length) w++;
  return deflateRawSync(bytes, WINDOW_OPTIONS[w]);
}
