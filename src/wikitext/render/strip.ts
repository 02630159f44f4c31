/**
 * Parser's StripState: the output of extension tags (<nowiki>, <pre>, <gallery>) is held apart behind
 * markers while the wikitext passes run over the rest, and put back at the end (MediaWiki 1.25:
 * "\x7fUNIQ…-QINU\x7f"). Nowiki items return after doBlockLevels, general items before it.
 */
export const MARKER_PREFIX = '\x7fUNIQ';
export const MARKER_SUFFIX = '-QINU\x7f';
/** any marker StripState.add makes */
const MARKER_RE = new RegExp(`${MARKER_PREFIX}-[a-z]+-[0-9a-f]{8}${MARKER_SUFFIX}`, 'g');

export class StripState {
  private readonly items = new Map<string, string>();
  private readonly nowiki = new Set<string>();
  private n = 0;

  add(kind: 'nowiki' | 'general', name: string, html: string): string {
    const marker = `${MARKER_PREFIX}-${name}-${(this.n++).toString(16).padStart(8, '0')}${MARKER_SUFFIX}`;
    this.items.set(marker, html);
    if (kind === 'nowiki') this.nowiki.add(marker);
    return marker;
  }

  private unstrip(text: string, which: 'nowiki' | 'general'): string {
    // items may hold markers of other items; bounded by the number of items
    for (let round = 0; round <= this.items.size && text.includes(MARKER_PREFIX); round++) {
      const next = text.replace(MARKER_RE, (m) => {
        const v = this.items.get(m);
        if (v === undefined) return m;
        return this.nowiki.has(m) === (which === 'nowiki') ? v : m;
      });
      if (next === text) break;
      text = next;
    }
    return text;
  }

  unstripNoWiki(text: string): string {
    return this.unstrip(text, 'nowiki');
  }

  unstripGeneral(text: string): string {
    return this.unstrip(text, 'general');
  }

  /** both kinds (headline texts for the TOC, alt texts) */
  unstripBoth(text: string): string {
    return this.unstripGeneral(this.unstripNoWiki(this.unstripGeneral(text)));
  }

  /** the text without any marker (Sanitizer::stripAllTags input for tooltips) */
  killMarkers(text: string): string {
    return text.replace(MARKER_RE, '');
  }
}
