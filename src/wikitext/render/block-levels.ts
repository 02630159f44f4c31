/**
 * Parser::doBlockLevels of MediaWiki 1.25: list prefixes (* # : ;) become lists, lines with a leading
 * space <pre>, other text paragraphs (<p>, and <br /> for a second blank line), line by line.
 */
import { MARKER_PREFIX } from './strip.js';

const OPEN_MATCH = /(?:<table|<h1|<h2|<h3|<h4|<h5|<h6|<pre|<tr|<p|<ul|<ol|<dl|<li|<\/tr|<\/td|<\/th)/i;
const CLOSE_MATCH = new RegExp(
  `(?:<\\/table|<\\/h1|<\\/h2|<\\/h3|<\\/h4|<\\/h5|<\\/h6|<td|<th|<\\/?blockquote|<\\/?div|<hr|<\\/pre|<\\/p|<\\/mw:|${MARKER_PREFIX}-pre|<\\/li|<\\/ul|<\\/ol|<\\/dl|<\\/?center)`,
  'i',
);

class BlockLevels {
  lastSection = '';
  dtOpen = false;
  inPre = false;

  closeParagraph(): string {
    let r = '';
    if (this.lastSection !== '') r = `</${this.lastSection}>\n`;
    this.lastSection = '';
    return r;
  }

  openList(c: string): string {
    let r = this.closeParagraph();
    if (c === '*') r += '<ul><li>';
    else if (c === '#') r += '<ol><li>';
    else if (c === ':') r += '<dl><dd>';
    else if (c === ';') {
      r += '<dl><dt>';
      this.dtOpen = true;
    } else r = '<!-- ERR 1 -->';
    return r;
  }

  nextItem(c: string): string {
    if (c === '*' || c === '#') return '</li>\n<li>';
    if (c === ':' || c === ';') {
      let close = '</dd>\n';
      if (this.dtOpen) close = '</dt>\n';
      if (c === ';') {
        this.dtOpen = true;
        return close + '<dt>';
      }
      this.dtOpen = false;
      return close + '<dd>';
    }
    return '<!-- ERR 2 -->';
  }

  closeList(c: string): string {
    if (c === '*') return '</li></ul>';
    if (c === '#') return '</li></ol>';
    if (c === ':') {
      if (this.dtOpen) {
        this.dtOpen = false;
        return '</dt></dl>';
      }
      return '</dd></dl>';
    }
    return '<!-- ERR 3 -->';
  }
}

/**
 * Parser::findColonNoLinks: the ":" that ends a "; term : definition" term, not one inside a tag or a
 * link; returns [term, rest] or null.
 */
export function findColonNoLinks(str: string): [string, string] | null {
  const pos = str.indexOf(':');
  if (pos < 0) return null;
  const lt = str.indexOf('<');
  if (lt < 0 || lt > pos) return [str.slice(0, pos), str.slice(pos + 1)];
  // a colon inside tags: walk the text, skipping tags
  let state: 'text' | 'tag' | 'tagstart' | 'closetag' | 'tagattr' | 'comment' | 'commentdash' = 'text';
  let level = 0;
  for (let i = 0; i < str.length; i++) {
    const c = str[i];
    switch (state) {
      case 'text':
        if (c === '<') state = 'tagstart';
        else if (c === ':') {
          if (level === 0) return [str.slice(0, i), str.slice(i + 1)];
        }
        break;
      case 'tagstart':
        if (c === '/') state = 'closetag';
        else if (c === '!') state = 'comment';
        else if (c === '>') state = 'text';
        else state = 'tag';
        break;
      case 'tag':
        if (c === '>') {
          level++;
          state = 'text';
        } else if (c === '/') state = 'tagattr';
        break;
      case 'tagattr':
        if (c === '>') state = 'text';
        else if (c !== '/') state = 'tag';
        break;
      case 'closetag':
        if (c === '>') {
          level--;
          if (level < 0) return null;
          state = 'text';
        }
        break;
      case 'comment':
        if (c === '-') state = 'commentdash';
        break;
      case 'commentdash':
        if (c === '>') state = 'text';
        else if (c !== '-') state = 'comment';
        break;
    }
  }
  return null;
}

function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n) {
    if (a[i] !== b[i]) break;
    i++;
  }
  return i;
}

export function doBlockLevels(text: string, lineStart: boolean): string {
  const s = new BlockLevels();
  const lines = text.split('\n');
  let lastPrefix = '';
  let output = '';
  let inBlockElem = false;
  let prefixLength = 0;
  let prefix = '';
  let prefix2 = '';
  let paragraphStack: string | false = false;
  let inBlockquote = false;
  let first = !lineStart;
  for (const oLine of lines) {
    if (first) {
      output += oLine;
      first = false;
      continue;
    }
    let lastPrefixLength = lastPrefix.length;
    const preCloseMatch = /<\/pre/i.test(oLine);
    const preOpenMatch = /<pre/i.test(oLine);
    let t: string;
    if (!s.inPre) {
      prefixLength = /^[*#:;]*/.exec(oLine)![0].length;
      prefix = oLine.slice(0, prefixLength);
      prefix2 = prefix.replace(/;/g, ':');
      t = oLine.slice(prefixLength);
      s.inPre = preOpenMatch;
    } else {
      prefixLength = 0;
      prefix = prefix2 = '';
      t = oLine;
    }
    if (prefixLength && lastPrefix === prefix2) {
      output += s.nextItem(prefix.slice(-1));
      paragraphStack = false;
      if (prefix.slice(-1) === ';') {
        const split = findColonNoLinks(t);
        if (split) {
          t = split[1];
          output += split[0] + s.nextItem(':');
        }
      }
    } else if (prefixLength || lastPrefixLength) {
      let common = commonPrefixLength(prefix, lastPrefix);
      paragraphStack = false;
      while (common < lastPrefixLength) {
        output += s.closeList(lastPrefix[lastPrefixLength - 1]);
        --lastPrefixLength;
      }
      if (prefixLength <= common && common > 0) output += s.nextItem(prefix[common - 1]);
      if (lastPrefix && prefixLength > common) output += '\n';
      while (prefixLength > common) {
        const c = prefix.slice(common, common + 1);
        output += s.openList(c);
        if (c === ';') {
          const split = findColonNoLinks(t);
          if (split) {
            t = split[1];
            output += split[0] + s.nextItem(':');
          }
        }
        ++common;
      }
      if (!prefixLength && lastPrefix) output += '\n';
      lastPrefix = prefix2;
    }
    if (prefixLength === 0) {
      const openmatch = OPEN_MATCH.test(t);
      const closematch = CLOSE_MATCH.test(t);
      if (openmatch || closematch) {
        paragraphStack = false;
        output += s.closeParagraph();
        if (preOpenMatch && !preCloseMatch) s.inPre = true;
        for (const bq of t.matchAll(/<(\/?)blockquote[\s>]/gi)) inBlockquote = !bq[1];
        inBlockElem = !closematch;
      } else if (!inBlockElem && !s.inPre) {
        if (t.startsWith(' ') && (s.lastSection === 'pre' || t.trim() !== '') && !inBlockquote) {
          if (s.lastSection !== 'pre') {
            paragraphStack = false;
            output += s.closeParagraph() + '<pre>';
            s.lastSection = 'pre';
          }
          t = t.slice(1);
        } else if (t.trim() === '') {
          if (paragraphStack) {
            output += paragraphStack + '<br />';
            paragraphStack = false;
            s.lastSection = 'p';
          } else if (s.lastSection !== 'p') {
            output += s.closeParagraph();
            s.lastSection = '';
            paragraphStack = '<p>';
          } else paragraphStack = '</p><p>';
        } else if (paragraphStack) {
          output += paragraphStack;
          paragraphStack = false;
          s.lastSection = 'p';
        } else if (s.lastSection !== 'p') {
          output += s.closeParagraph() + '<p>';
          s.lastSection = 'p';
        }
      }
    }
    if (preCloseMatch && s.inPre) s.inPre = false;
    if (paragraphStack === false) {
      output += t;
      if (prefixLength === 0) output += '\n';
    }
  }
  while (prefixLength) {
    output += s.closeList(prefix2[prefixLength - 1]);
    --prefixLength;
    if (!prefixLength) output += '\n';
  }
  if (s.lastSection !== '') output += `</${s.lastSection}>`;
  return output;
}
