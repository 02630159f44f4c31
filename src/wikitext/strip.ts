/**
 * What the parser removes before it looks for links: comments, the contents of tags whose body is not
 * wikitext (<nowiki>, <pre>, <math>, <syntaxhighlight>, …), <includeonly> sections (they only exist
 * when the page is transcluded), and the <noinclude>/<onlyinclude> markers themselves. <gallery> bodies
 * are taken out and returned apart: their lines are file names, not links.
 *
 * Whichever construct opens first wins, as in MediaWiki's preprocessor (a "<nowiki>" inside a comment is
 * just comment text, and vice versa).
 */
import { TagScanner } from '../wiki/tag-scan.js';

// Extension tags whose body is not parsed as wikitext (core + the common extensions of uk wikis).
const OPAQUE_TAGS = new Set(
  'nowiki pre math source syntaxhighlight timeline hiero score templatedata chem ce graph inputbox categorytree'.split(' '),
);
const MARKERS = new Set(['noinclude', 'onlyinclude']);
const OPENERS = new Set([...OPAQUE_TAGS, ...MARKERS, 'includeonly', 'gallery']);

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
  const open = /\{\{\s*#(?:ask|show|concept)\s*:/gi;
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

/**
 * Left to right over the '<' of the text, whichever construct opens first wins (one pass, linear: see
 * TagScanner). An opening tag that is never closed is plain text, except <includeonly> and comments, which
 * run to the end of the text as in MediaWiki.
 */
export function stripForLinks(input: string): StrippedText {
  const galleries: string[] = [];
  const text = stripInlineQueries(input);
  if (!text.includes('<')) return { text, galleries };
  const scan = new TagScanner(text);
  let out = '';
  let last = 0;
  let pos = text.indexOf('<');
  while (pos >= 0) {
    let end = -1;
    // Comments and markers vanish; a removed body leaves a DEL character, like MediaWiki's strip marker
    // (\x7f is no title character, so "[[A<nowiki/>B]]" stays no link, as there).
    let replacement = '\u007f';
    if (text.startsWith('<!--', pos)) {
      const close = text.indexOf('-->', pos + 4);
      end = close < 0 ? text.length : close + 3;
      replacement = '';
    } else if (text[pos + 1] === '/') {
      const tag = scan.openingTag(pos + 1, MARKERS);
      if (tag && /^\s*$/.test(tag.attrs)) {
        end = tag.end;
        replacement = '';
      }
    } else {
      const tag = scan.openingTag(pos, OPENERS);
      if (tag === null) {
        // not one of ours
      } else if (MARKERS.has(tag.name)) {
        if (/^\s*\/?$/.test(tag.attrs)) {
          end = tag.end;
          replacement = '';
        }
      } else if (tag.name === 'includeonly') {
        if (/^\s*$/.test(tag.attrs)) end = scan.closingTag('includeonly', tag.end)?.end ?? text.length;
      } else if (tag.selfClosing) {
        end = tag.end;
      } else {
        const close = scan.closingTag(tag.name, tag.end);
        if (close) {
          end = close.end;
          if (tag.name === 'gallery') galleries.push(text.slice(tag.end, close.start));
        }
      }
    }
    if (end < 0) {
      pos = text.indexOf('<', pos + 1);
      continue;
    }
    out += text.slice(last, pos) + replacement;
    last = end;
    pos = text.indexOf('<', end);
  }
  return { text: out + text.slice(last), galleries };
}
