/**
 * The interwiki map (MediaWiki's `interwiki` table): prefix → URL pattern. Title parsing consults it after
 * the namespaces (MediaWikiTitleCodec::splitTitle): `[[wikipedia:X]]` is an interwiki link; a prefix that
 * is also a language code MediaWiki has a name for is an interlanguage link (Parser::replaceInternalLinks2,
 * `Language::fetchLanguageName`).
 */
import { wfUrlencode } from './files.js';

export interface InterwikiEntry {
  prefix: string;
  url: string;
  api: string;
  local: boolean;
}

const LANGUAGE_NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });

/** Whether MediaWiki would know a language of this code (Intl's table stands in for Names.php). */
export function isLanguageCode(code: string): boolean {
  if (!/^[a-z]{2,3}(?:-[a-z0-9]+)*$/.test(code)) return false;
  // MediaWiki's own codes that are no BCP 47 tags
  if (code === 'simple' || code === 'be-tarask' || code === 'zh-min-nan' || code === 'zh-yue') return true;
  try {
    return LANGUAGE_NAMES.of(code) !== undefined;
  } catch {
    return false;
  }
}

export class InterwikiMap {
  private readonly byPrefix = new Map<string, InterwikiEntry>();

  constructor(entries: Iterable<InterwikiEntry>) {
    for (const e of entries) this.byPrefix.set(e.prefix.toLowerCase(), { ...e, prefix: e.prefix.toLowerCase() });
  }

  /**
   * MediaWiki's maintenance/interwiki.list format: `prefix|url|local|api` per line, '#' comments. Throws
   * on a line that is not of that form (naming its number).
   */
  static parseList(text: string): InterwikiMap {
    const entries: InterwikiEntry[] = [];
    text.split('\n').forEach((raw, i) => {
      const line = raw.trim();
      if (line === '' || line.startsWith('#')) return;
      const [prefix, url, local = '0', api = ''] = line.split('|');
      if (!prefix || !/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(prefix) || !url) throw new Error(`interwiki list line ${i + 1}: expected prefix|url|local|api`);
      entries.push({ prefix, url, api, local: local === '1' });
    });
    return new InterwikiMap(entries);
  }

  get(prefix: string): InterwikiEntry | undefined {
    return this.byPrefix.get(prefix.toLowerCase());
  }

  /** an interlanguage prefix: in the map and a language code */
  isLanguage(prefix: string): boolean {
    const p = prefix.toLowerCase();
    return this.byPrefix.has(p) && isLanguageCode(p);
  }

  entries(): InterwikiEntry[] {
    return [...this.byPrefix.values()];
  }

  /** The URL of a title on the wiki of `prefix` (Title::getFullURL of an interwiki title). */
  url(prefix: string, title: string): string | undefined {
    const e = this.get(prefix);
    if (!e) return undefined;
    return e.url.replace('$1', wfUrlencode(title.replace(/ /g, '_')));
  }
}


/**
 * Language::fetchLanguageName: the name of `code` in language `inLanguage`, or its autonym when
 * `inLanguage` is not given ('' when unknown). Intl's CLDR names stand in for MediaWiki's Names.php and
 * the cldr extension.
 */
export function languageName(code: string, inLanguage?: string): string {
  try {
    const names = new Intl.DisplayNames([inLanguage ?? code], { type: 'language', fallback: 'none' });
    return names.of(code) ?? '';
  } catch {
    return '';
  }
}
