/**
 * Linear-time helpers for scanning wikitext for HTML-like tags. A regex such as
 * `<(pre)(\s[^>]*)?>[\s\S]*?</\1>` costs O(rest of text) at every opening tag that is not closed, so a
 * page of 100,000 unclosed `<pre>` takes minutes. These lookups remember their last answer: the scan
 * moves forward, each search resumes past the last one, and the whole pass stays linear.
 */
export class TagScanner {
  private gtFrom = -1;
  private gtAt = -1;
  private readonly closes = new Map<string, { from: number; start: number; end: number; re: RegExp }>();

  constructor(readonly text: string) {}

  /** Position of the first '>' at or after `from` (non-decreasing `from`), or -1. */
  nextGt(from: number): number {
    if (this.gtFrom >= 0 && this.gtFrom <= from && (this.gtAt < 0 || this.gtAt >= from)) return this.gtAt;
    this.gtFrom = from;
    this.gtAt = this.text.indexOf('>', from);
    return this.gtAt;
  }

  /** The first `</name\s*>` (any case) at or after `from`, or null. */
  closingTag(name: string, from: number): { start: number; end: number } | null {
    const key = name.toLowerCase();
    let c = this.closes.get(key);
    if (c === undefined) {
      c = { from: -1, start: -1, end: -1, re: new RegExp(`</${key}\\s*>`, 'gi') };
      this.closes.set(key, c);
    }
    if (!(c.from >= 0 && c.from <= from && (c.start < 0 || c.start >= from))) {
      c.from = from;
      c.re.lastIndex = from;
      const m = c.re.exec(this.text);
      c.start = m ? m.index : -1;
      c.end = m ? m.index + m[0].length : -1;
    }
    return c.start < 0 ? null : { start: c.start, end: c.end };
  }

  /**
   * The opening tag `<name …>` or `<name …/>` at `pos` when its name is one of `names` (lower case): the
   * name as written lowercased, where its attributes end and whether it closes itself. The attributes run
   * to the next '>' (MediaWiki's preprocessor reads them as `[^>]*`).
   */
  openingTag(pos: number, names: ReadonlySet<string>): { name: string; attrs: string; end: number; selfClosing: boolean } | null {
    const text = this.text;
    let i = pos + 1;
    while (i < text.length && isNameChar(text.charCodeAt(i))) i++;
    if (i === pos + 1) return null;
    const name = text.slice(pos + 1, i).toLowerCase();
    if (!names.has(name)) return null;
    const next = text[i];
    if (next !== '>' && next !== '/' && !/\s/.test(next ?? '')) return null;
    const gt = this.nextGt(i);
    if (gt < 0) return null;
    const attrs = text.slice(i, gt);
    if (attrs !== '' && attrs !== '/' && !/^\s/.test(attrs)) return null;
    return { name, attrs, end: gt + 1, selfClosing: attrs.endsWith('/') };
  }
}

function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 95;
}
