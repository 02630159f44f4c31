/**
 * Parser::doDoubleUnderscore of MediaWiki 1.25 (with the uk synonyms): __NOTOC__, __FORCETOC__,
 * __NOEDITSECTION__, __NOGALLERY__, __HIDDENCAT__, __INDEX__/__NOINDEX__, … are removed from the text
 * and recorded (the page properties of prop=properties); the first __TOC__ marks where the TOC goes.
 * Also the Semantic MediaWiki 2.2 constructs the preprocessor leaves in the text: [[Property::value]]
 * shows its value, {{#set:}} / {{#subobject:}} show nothing.
 */
import { DOUBLE_UNDERSCORE_RE, doubleUnderscoreProp } from '../magic-words.js';
import type { RenderOutput } from './env.js';
import { TOC_MARKER } from './headings.js';

/** returns the text and whether __TOC__ placed the table of contents */
export function doDoubleUnderscore(text: string, out: RenderOutput): { text: string; forceTocPosition: boolean } {
  let forceTocPosition = false;
  const t = text.replace(DOUBLE_UNDERSCORE_RE, (m) => {
    const prop = doubleUnderscoreProp(m);
    if (prop === undefined) return m;
    out.switches.add(prop);
    if (prop === 'toc') {
      if (forceTocPosition) return '';
      forceTocPosition = true;
      return TOC_MARKER;
    }
    // every double-underscore word but __TOC__ is a page property
    out.properties.set(prop, '');
    return '';
  });
  if (out.switches.has('notoc')) forceTocPosition = false;
  return { text: t, forceTocPosition };
}

/** {{#set:…}} and {{#subobject:…}} calls (matched by brace depth) removed; [[P::V|T]] → T, [[P::V]] → V */
export function renderSemantic(text: string): string {
  // SMW's markers around a template printer's output (annotations off inside) show nothing
  let out = text.includes('[[SMW::') ? text.replace(/\[\[SMW::(?:off|on)\]\]/g, '') : text;
  if (/\{\{\s*#(?:set|subobject|declare)\s*:/i.test(out)) {
    const open = /\{\{\s*#(?:set|subobject|declare)\s*:/gi;
    let s = '';
    let last = 0;
    for (let m = open.exec(out); m; m = open.exec(out)) {
      if (m.index < last) continue;
      let depth = 0;
      let i = m.index;
      for (; i < out.length; i++) {
        if (out.startsWith('{{', i)) {
          depth++;
          i++;
        } else if (out.startsWith('}}', i)) {
          depth--;
          i++;
          if (depth === 0) break;
        }
      }
      if (depth !== 0) break;
      s += out.slice(last, m.index);
      last = i + 1;
      open.lastIndex = last;
    }
    out = s + out.slice(last);
  }
  return out.replace(/\[\[([^[\]|:]+?)::([^[\]|]*)(?:\|([^[\]]*))?\]\]/g, (_m, _p: string, v: string, t?: string) =>
    t !== undefined ? t : v,
  );
}
