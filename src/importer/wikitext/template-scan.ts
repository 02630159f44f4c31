/**
 * Transclusions and DEFAULTSORT read from unexpanded wikitext: the fallback used while no template
 * preprocessor is available. It finds {{Name|…}} calls (any nesting depth), skips variables, parser
 * functions and {{{parameters}}}, and resolves each name as MediaWiki would (Template: by default,
 * ':' for the main namespace). Templates called only by other templates are not seen -- that needs
 * expansion.
 */
import type { TitleCodec } from '../../wiki/titles.js';
import { NS_SPECIAL, NS_TEMPLATE } from '../../wiki/namespaces.js';
import { DEFAULTSORT_WORDS, MAGIC_VARIABLES, PARSER_FUNCTIONS } from './magic-words.js';
import { stripForLinks } from './strip.js';

export interface ScannedTemplates {
  templates: Array<{ ns: number; dbkey: string }>;
  defaultSort?: string;
}

// {{ not preceded by another { (that would be a {{{parameter}}}), then the name up to | or }}
const CALL = /(?<!\{)\{\{(?!\{)\s*([^{}|\n]*?)\s*(?=\||\}\})/g;
const MODIFIERS = /^(?:subst|safesubst|msg|msgnw|raw)\s*:\s*/i;
const DEFAULTSORT = new RegExp(`\\{\\{\\s*(?:${DEFAULTSORT_WORDS.join('|')})\\s*:([^{}|]*)(?:\\|[^{}]*)?\\}\\}`, 'g');

export function scanTemplates(text: string, codec: TitleCodec): ScannedTemplates {
  const result: ScannedTemplates = { templates: [] };
  if (!text.includes('{{')) return result;
  const body = stripForLinks(text).text;
  const seen = new Set<string>();
  for (const m of body.matchAll(CALL)) {
    let name = m[1];
    for (let mod = MODIFIERS.exec(name); mod; mod = MODIFIERS.exec(name)) name = name.slice(mod[0].length);
    if (name === '' || name.startsWith('#') || MAGIC_VARIABLES.has(name)) continue;
    const colon = name.indexOf(':');
    if (colon > 0 && PARSER_FUNCTIONS.has(name.slice(0, colon).trim().toLowerCase())) continue;
    if (colon < 0 && PARSER_FUNCTIONS.has(name.toLowerCase()) && name === name.toUpperCase()) continue;
    const t = codec.parse(name, NS_TEMPLATE);
    if (t === null || t.ns === NS_SPECIAL) continue;
    const key = `${t.ns}|${t.dbkey}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.templates.push({ ns: t.ns, dbkey: t.dbkey });
  }
  for (const m of body.matchAll(DEFAULTSORT)) result.defaultSort = m[1].trim();
  return result;
}
