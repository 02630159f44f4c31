/**
 * What the parser removes before it looks for links: comments, the contents of tags whose body is not
 * wikitext (<nowiki>, <pre>, <math>, <syntaxhighlight>, …), <includeonly> sections (they only exist
 * when the page is transcluded), and the <noinclude>/<onlyinclude> markers themselves. <gallery> bodies
 * are taken out and returned apart: their lines are file names, not links.
 *
 * One regex with alternatives, applied left to right, so that whichever construct opens first wins,
 * as in MediaWiki's preprocessor (a "<nowiki>" inside a comment is just comment text, and vice versa).
 */

// Extension tags whose body is not parsed as wikitext (core + the common extensions of uk wikis).
const OPAQUE_TAGS = 'nowiki|pre|math|source|syntaxhighlight|timeline|hiero|score|templatedata|chem|ce|graph|inputbox|categorytree';

const STRIP_RE = new RegExp(
  [
    '<!--[\\s\\S]*?(?:-->|$)', // comment (an unterminated one runs to the end, as in MediaWiki)
    `<(${OPAQUE_TAGS})(?:\\s[^>]*)?(?:/>|>[\\s\\S]*?</\\1\\s*>)`, // opaque extension tag with its body
    '<includeonly\\s*>[\\s\\S]*?(?:</includeonly\\s*>|$)', // transclusion-only text
    '</?(?:noinclude|onlyinclude)\\s*/?>', // markers only; their content stays
    '<gallery(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</gallery\\s*>)', // gallery: body returned apart
  ].join('|'),
  'gi',
);

export interface StrippedText {
  /** the text with the constructs above removed */
  text: string;
  /** bodies of the <gallery> tags, in order */
  galleries: string[];
}

/**
 * Semantic MediaWiki's inline queries stay in the expanded text as `{{#ask:…}}` / `{{#show:…}}`; their
 * arguments are query conditions (`[[Категорія:Міста]]` selects pages, it does not categorize this one),
 * so the whole call is cut out before links are looked for. Braces are matched by depth.
 */
function stripInlineQueries(text: string): string {
  const open = /\{\{\s*#(?:ask|show)\s*:/gi;
  if (!open.test(text)) return text;
  open.lastIndex = 0;
  let out = '';
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = open.exec(text)) !== null) {
    let depth = 1;
    let i = m.index + 2;
    while (i < text.length && depth > 0) {
      if (text.startsWith('{{', i)) {
        depth++;
        i += 2;
      } else if (text.startsWith('}}', i)) {
        depth--;
        i += 2;
      } else i++;
    }
    out += text.slice(last, m.index) + '\u007f';
    last = i;
    open.lastIndex = i;
  }
  return out + text.slice(last);
}

export function stripForLinks(input: string): StrippedText {
  const galleries: string[] = [];
  const text = stripInlineQueries(input);
  if (!text.includes('<')) return { text, galleries };
  const out = text.replace(STRIP_RE, (all: string, _tag: string | undefined, gallery: string | undefined) => {
    if (gallery !== undefined) galleries.push(gallery);
    // Comments and markers vanish; a removed body leaves a DEL character, like MediaWiki's strip marker
    // (\x7f is no title character, so "[[A<nowiki/>B]]" stays no link, as there).
    if (all.startsWith('<!--') || /^<\/?(?:noinclude|onlyinclude)/i.test(all)) return '';
    return '\u007f';
  });
  return { text: out, galleries };
}
