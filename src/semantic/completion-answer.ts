/**
 * Semantic Forms' autocompletion answer list, `[{"title":"…"},…]`, printed once at import for the
 * precomputed prefixes (smw_ac_node) in the two compact forms MediaWiki's JSON output has: UTF-8 text
 * (formatversion=2, utf8=1) and every non-ASCII UTF-16 unit as lowercase `\uXXXX` (the default). A request
 * for a heavy prefix then copies its answer instead of escaping ~100 kB of Cyrillic: the escaping was
 * two thirds of its cost. The bytes are the JSON writer's (src/api/format/json.ts; test/completion-answer
 * compares them); the list prints the same in both formatversions (plain objects of strings).
 */
import { transcode } from 'node:buffer';

/** How many values a precomputed list keeps: Semantic Forms' $sfgMaxAutocompleteValues. */
export const COMPLETION_LIST_VALUES = 1000;

const HEX = [48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 97, 98, 99, 100, 101, 102];

/**
 * A JSON text with every non-ASCII UTF-16 unit escaped. On JSON.stringify's output this is PHP
 * json_encode's default: JSON.stringify already escapes the control characters (short forms and
 * lowercase \u00XX) and lone surrogates the same way, and leaves every other non-ASCII unit (astral
 * characters as their two units) for this pass.
 */
export function escapeNonAscii(json: string): string {
  const n = json.length;
  const b = Buffer.allocUnsafe(6 * n);
  let o = 0;
  for (let i = 0; i < n; i++) {
    const c = json.charCodeAt(i);
    if (c < 0x80) {
      b[o++] = c;
      continue;
    }
    b[o] = 92;
    b[o + 1] = 117;
    b[o + 2] = HEX[c >> 12]!;
    b[o + 3] = HEX[(c >> 8) & 15]!;
    b[o + 4] = HEX[(c >> 4) & 15]!;
    b[o + 5] = HEX[c & 15]!;
    o += 6;
  }
  return b.toString('latin1', 0, o);
}

/** The answer list of these values (already cut to the answer), in both compact forms. */
export function printCompletionAnswer(values: readonly string[]): { utf8: Buffer; ascii: string } {
  const json = JSON.stringify(values.map((title) => ({ title })));
  return { utf8: Buffer.from(json, 'utf8'), ascii: escapeNonAscii(json) };
}

/** The values of a printed answer list (either form). */
export function completionAnswerValues(json: string | Uint8Array): string[] {
  // UTF-8 through UTF-16: ICU's transcoding is 6× faster than V8's UTF-8 decoder on Cyrillic
  const text = typeof json === 'string' ? json : transcode(json, 'utf8', 'utf16le').toString('utf16le');
  return (JSON.parse(text) as Array<{ title: string }>).map((o) => o.title);
}
