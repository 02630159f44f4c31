/**
 * The interwiki map: MediaWiki's default interwiki list (maintenance/interwiki.list as the installer loads
 * it into the interwiki table), or an operator's own list in the same JSON shape.
 * Data: `data/interwiki.json` (see `data/README.md`).
 */
import { readFileSync } from 'node:fs';
import defaultMap from './data/interwiki.json' with { type: 'json' };
import { LANGUAGE_NAMES } from './site-facts.js';
import { LANGUAGE_CODES as LANGUAGE_CODES_LIST } from './language-codes.js';

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

  /**
   * The map an import reads links with unless the operator gives one: MediaWiki's default list plus the
   * interlanguage prefixes of a Wikipedia-family wiki (without them every [[en:X]] would be a page link).
   */
  static importDefaults(): InterwikiMap {
    return new InterwikiMap([...(defaultMap as InterwikiEntry[]), ...interlanguageEntries()]);
  }

  /** an interlanguage prefix: in the map and a language code (Parser::replaceInternalLinks2) */
  isLanguage(prefix: string): boolean {
    return this.get(prefix) !== undefined && isLanguageCode(prefix);
  }

  /** An operator's list: a JSON array of entries (prefix, url, local, optional trans/api/wikiid). */
  static fromFile(path: string): InterwikiMap {
    const data = JSON.parse(readFileSync(path, 'utf8')) as unknown;
    if (!Array.isArray(data)) throw new Error(`${path}: expected a JSON array of interwiki entries`);
    const entries: InterwikiEntry[] = data.map((e, i) => {
      if (typeof e?.prefix !== 'string' || typeof e?.url !== 'string') throw new Error(`${path}: entry ${i} needs a prefix and a url`);
      return {
        prefix: e.prefix.toLowerCase(),
        url: e.url,
        local: !!e.local,
        trans: e.trans ? true : undefined,
        api: e.api,
        wikiid: e.wikiid,
      };
    });
    return new InterwikiMap(entries);
  }
}

const LANGUAGE_CODES = new Map(LANGUAGE_NAMES.map(([code, name]) => [code, name]));

/** Language::fetchLanguageName($code, null, 'mw') !== '': a code of Names.php. */
export function isLanguageCode(code: string): boolean {
  return LANGUAGE_CODES.has(code.toLowerCase());
}

/**
 * Language::fetchLanguageName of 1.25 core: the autonym of Names.php ('' when unknown). Names in another
 * language come only from the cldr extension, which a stock 1.25 lacks: there, too, the autonym.
 */
export function languageName(code: string): string {
  return LANGUAGE_CODES.get(code.toLowerCase()) ?? '';
}

/**
 * The interlanguage prefixes a Ukrainian Wikipedia-family wiki has in its interwiki table besides
 * MediaWiki's default list: the languages it links to in practice (language-codes.ts).
 */
export function interlanguageEntries(): InterwikiEntry[] {
  return [...LANGUAGE_CODES_LIST].map((code) => ({
    prefix: code,
    url: `https://${code}.wikipedia.org/wiki/$1`,
    local: false,
    api: `https://${code}.wikipedia.org/w/api.php`,
  }));
}

let importDefault: InterwikiMap | undefined;

/** The map an import uses when the operator gives none (MediaWiki's list plus interlanguage prefixes), built once. */
export function defaultInterwikiMap(): InterwikiMap {
  return (importDefault ??= InterwikiMap.importDefaults());
}
