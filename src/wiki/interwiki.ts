/**
 * The interwiki map: MediaWiki's default interwiki list (maintenance/interwiki.list as the installer loads
 * it into the interwiki table), or an operator's own list in the same JSON shape.
 * Data: `data/interwiki.json` (see `data/README.md`).
 */
import { readFileSync } from 'node:fs';
import defaultMap from './data/interwiki.json' with { type: 'json' };

export interface InterwikiEntry {
  /** lower-case prefix, as iw_prefix */
  prefix: string;
  /** URL with $1 for the page name (iw_url) */
  url: string;
  /** iw_local: links from other wikis may be forwarded through this one */
  local: boolean;
  /** iw_trans: templates may be transcluded from it */
  trans?: boolean;
  /** iw_api */
  api?: string;
  /** iw_wikiid */
  wikiid?: string;
}

export class InterwikiMap {
  private readonly byPrefix: Map<string, InterwikiEntry>;

  constructor(readonly entries: readonly InterwikiEntry[]) {
    // the table's primary key is the prefix; listings come in prefix order
    this.entries = [...entries].sort((a, b) => (a.prefix < b.prefix ? -1 : a.prefix > b.prefix ? 1 : 0));
    this.byPrefix = new Map(this.entries.map((e) => [e.prefix, e]));
  }

  /** Interwiki prefixes are case-insensitive (Interwiki::fetch lower-cases them). */
  get(prefix: string): InterwikiEntry | undefined {
    return this.byPrefix.get(prefix.toLowerCase());
  }

  /** The URL of a page on the other wiki (Interwiki::getURL: the title is URL-encoded into $1). */
  url(prefix: string, title: string): string | undefined {
    const e = this.get(prefix);
    if (!e) return undefined;
    return e.url.replace('$1', encodeURIComponent(title.replace(/ /g, '_')).replace(/%2F/g, '/').replace(/%3A/g, ':'));
  }

  /** The built-in default list. */
  static defaults(): InterwikiMap {
    return new InterwikiMap(defaultMap as InterwikiEntry[]);
  }

  /** An operator's list: a JSON array of entries (prefix, url, local, optional trans/api/wikiid). */
  static fromFile(path: string): InterwikiMap {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!Array.isArray(data)) throw new Error(`${path}: expected a JSON array of interwiki entries`);
    const entries: InterwikiEntry[] = data.map((e, i) => {
      if (typeof e?.prefix !== 'string' || typeof e?.url !== 'string') throw new Error(`${path}: entry ${i} needs a prefix and a url`);
      return { prefix: e.prefix.toLowerCase(), url: e.url, local: !!e.local, trans: e.trans ? true : undefined, api: e.api, wikiid: e.wikiid };
    });
    return new InterwikiMap(entries);
  }
}
