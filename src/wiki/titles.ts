/**
 * Titles: the one place that knows how a user's text becomes a page title (MediaWikiTitleCodec::splitTitle
 * of 1.25): namespace prefixes in any case (local names, aliases, English canonical names), whitespace and
 * underscore folding, illegal characters, first-letter uppercasing with Unicode rules.
 */
import {
  DEFAULT_ALIASES,
  NS_FILE,
  NS_MEDIA,
  NS_MEDIAWIKI,
  NS_SPECIAL,
  NS_USER,
  defaultNamespaces,
  type NamespaceInfo,
} from './namespaces.js';
import { ucfirst } from './language.js';
import { decodeHTMLStrict } from 'entities';

export interface Title {
  ns: number;
  /** title without the namespace prefix, with underscores */
  dbkey: string;
  /** fragment after '#', with spaces ('' when none) */
  fragment: string;
}

/** $wgLegalTitleChars of MediaWiki, as siteinfo reports it. */
export const LEGAL_TITLE_CHARS = ' %!"$&\'()*,\\-.\\/0-9:;=?@A-Z\\\\^_`a-z~\\x80-\\xFF+';

// Characters that may never appear in a title: ASCII outside $wgLegalTitleChars, and U+FFFD.
const ILLEGAL = /[\u0000-\u001f#<>[\]|{}\u007f\ufffd]/;
const BIDI = /[\u200e\u200f\u202a-\u202e]/g;
const WHITESPACE_RUN = /[ _\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/;
/** parse() answers kept per codec */
const PARSE_MEMO = 8192;
const RELATIVE_PATH = /^(\.\.?(\/|$))|\/\.\.?(\/|$)/;

export interface SiteNamespaces {
  namespaces: NamespaceInfo[];
  aliases: Array<{ id: number; alias: string }>;
}

/**
 * Sanitizer::decodeCharReferences: numeric references and named entities, case-sensitive as in HTML. Named
 * ones come from the complete HTML5 table of `entities` (only the forms with a semicolon, as MediaWiki's
 * regex requires one); an unknown name stays as written. A code point MediaWiki's validateCodepoint refuses
 * (NUL, other C0 controls but tab/newline/CR, surrogates, U+FFFE/FFFF, beyond U+10FFFF) becomes U+FFFD, as
 * Sanitizer::decodeChar does -- which makes such a title invalid.
 */
export function decodeCharReferences(s: string): string {
  if (!s.includes('&')) return s;
  return s.replace(/&(?:#(\d+)|#[xX]([0-9a-fA-F]+)|([A-Za-z][A-Za-z0-9]*));/g, (m, dec?: string, hex?: string, named?: string) => {
    if (named !== undefined) return decodeHTMLStrict(m);
    const cp = dec !== undefined ? Number(dec) : parseInt(hex as string, 16);
    return validCodepoint(cp) ? String.fromCodePoint(cp) : '\ufffd';
  });
}

function validCodepoint(cp: number): boolean {
  return (
    cp === 0x09 ||
    cp === 0x0a ||
    cp === 0x0d ||
    (cp >= 0x20 && cp <= 0xd7ff) ||
    (cp >= 0xe000 && cp <= 0xfffd) ||
    (cp >= 0x10000 && cp <= 0x10ffff)
  );
}

/**
 * A copy of `s` that shares no memory with the string it was cut from. V8 makes a substring of 13 or more
 * characters a view of its parent, and a concatenation keeps its parts: a link target cut from a page's
 * text, kept as a key of a memo that lives across pages, kept the whole text alive (the import's analysis
 * promoted every page's text to the old generation this way). Concatenating and slicing again makes V8
 * flatten the pair into a new string of the target's length plus one.
 */
export function detached<T extends string | undefined>(s: T): T {
  return (s === undefined || s.length < 13 ? s : (' ' + s).slice(1)) as T;
}

export class TitleCodec {
  readonly namespaces: Map<number, NamespaceInfo>;
  readonly aliases: Array<{ id: number; alias: string }>;
  private readonly byLowerName = new Map<string, number>();
  /** parse()'s memo: by default namespace, then text (no key string built per call) */
  private readonly parsed = new Map<number, Map<string, Title | null>>();
  private parsedCount = 0;

  constructor(ns: SiteNamespaces) {
    this.namespaces = new Map(ns.namespaces.map((n) => [n.id, n]));
    this.aliases = ns.aliases;
    // canonical names first, then aliases, then local names: later entries win on a clash
    for (const n of ns.namespaces) if (n.canonical) this.byLowerName.set(key(n.canonical), n.id);
    for (const a of ns.aliases) this.byLowerName.set(key(a.alias), a.id);
    for (const n of ns.namespaces) if (n.name !== '' || n.id === 0) this.byLowerName.set(key(n.name), n.id);
    this.byLowerName.delete('');
  }

  static forSite(siteName: string, fromDump?: NamespaceInfo[]): TitleCodec {
    const defaults = defaultNamespaces(siteName);
    const merged = new Map(defaults.map((n) => [n.id, n]));
    for (const n of fromDump ?? []) {
      const d = merged.get(n.id);
      // once per process: a spread copy given more members is fine here
      merged.set(n.id, { ...d, ...n, canonical: n.canonical ?? d?.canonical });
    }
    return new TitleCodec({ namespaces: [...merged.values()].sort((a, b) => a.id - b.id), aliases: DEFAULT_ALIASES });
  }

  nsName(id: number): string | undefined {
    return this.namespaces.get(id)?.name;
  }

  /** Namespace id for a prefix as typed (any case, spaces or underscores), or undefined. */
  nsIdFromPrefix(prefix: string): number | undefined {
    return this.byLowerName.get(key(prefix));
  }

  isCapitalized(ns: number): boolean {
    if (ns === NS_SPECIAL || ns === NS_USER || ns === NS_USER + 1 || ns === NS_MEDIAWIKI || ns === NS_MEDIAWIKI + 1) return true;
    const info = this.namespaces.get(ns === NS_MEDIA ? NS_FILE : ns);
    return (info?.case ?? 'first-letter') === 'first-letter';
  }

  /**
   * Parse user text into a title; null when the text is not a valid title.
   * defaultNs is used when the text has no namespace prefix (e.g. 10 for template calls).
   */
  parse(text: string, defaultNs = 0): Title | null {
    // the same link targets, categories and property values come back page after page (the import parses
    // millions): a bounded memo of the answers, each handed out as a copy of its own
    let memo = this.parsed.get(defaultNs);
    const known = memo?.get(text);
    if (known !== undefined) return known && { ns: known.ns, dbkey: known.dbkey, fragment: known.fragment };
    const t = this.parseUncached(text, defaultNs);
    if (this.parsedCount >= PARSE_MEMO) {
      this.parsed.clear();
      this.parsedCount = 0;
      memo = undefined;
    }
    if (memo === undefined) this.parsed.set(defaultNs, (memo = new Map()));
    memo.set(detached(text), t && { ns: t.ns, dbkey: detached(t.dbkey), fragment: detached(t.fragment) });
    this.parsedCount++;
    return t;
  }

  private parseUncached(text: string, defaultNs: number): Title | null {
    let s = decodeCharReferences(text).normalize('NFC').replace(BIDI, '').replace(WHITESPACE_RUN, '_');
    s = s.replace(/^_+|_+$/g, '');
    if (s === '') return null;
    let ns = defaultNs;
    if (s.startsWith(':')) {
      ns = 0;
      s = s.slice(1).replace(/^_+/, '');
    }
    const m = /^(.+?)_*:_*(.*)$/s.exec(s);
    if (m) {
      const id = this.nsIdFromPrefix(m[1]);
      if (id !== undefined) {
        ns = id;
        s = m[2];
      }
    }
    let fragment = '';
    const hash = s.indexOf('#');
    if (hash >= 0) {
      fragment = s.slice(hash + 1).replace(/_/g, ' ');
      s = s.slice(0, hash).replace(/_+$/, '');
    }
    if (s === '' || ILLEGAL.test(s) || PERCENT_ESCAPE.test(s) || RELATIVE_PATH.test(s) || s.includes('~~~')) return null;
    if (s.startsWith(':')) return null;
    if (ns !== NS_SPECIAL && Buffer.byteLength(s, 'utf8') > 255) return null;
    if (this.isCapitalized(ns)) s = ucfirst(s);
    return { ns, dbkey: s, fragment };
  }

  /** Title text as shown to users: localized prefix, spaces. */
  prefixedText(ns: number, dbkey: string): string {
    const name = this.namespaces.get(ns)?.name ?? '';
    let text = name === '' ? '' : name + ':';
    // the underscores by slices, not a global RegExp replace: a third less time a title, and every
    // answer lists titles
    let from = 0;
    for (let i = dbkey.indexOf('_'); i >= 0; i = dbkey.indexOf('_', from)) {
      text += dbkey.slice(from, i) + ' ';
      from = i + 1;
    }
    return from === 0 ? text + dbkey : text + dbkey.slice(from);
  }

  /**
   * The namespace's prefix in DB key form: '' for a namespace printed without one, else its name with
   * underscores for spaces and a colon. prefix + dbkey with every '_' shown as ' ' is prefixedText's
   * text; undefined for a name with an underscore of its own, which prefixedText keeps.
   */
  keyPrefix(ns: number): string | undefined {
    let p = this.keyPrefixes.get(ns);
    if (p === undefined && !this.keyPrefixes.has(ns)) {
      const name = this.namespaces.get(ns)?.name ?? '';
      p = name === '' ? '' : name.includes('_') ? undefined : name.replace(/ /g, '_') + ':';
      this.keyPrefixes.set(ns, p);
    }
    return p;
  }

  private readonly keyPrefixes = new Map<number, string | undefined>();

  /** Prefixed DB key: localized prefix with underscores. */
  prefixedDbKey(ns: number, dbkey: string): string {
    return this.prefixedText(ns, dbkey).replace(/ /g, '_');
  }

  /**
   * ApiQueryBase::titlePartToKey: a from/to/prefix value within a namespace (Title::makeTitleSafe of the
   * text plus 'x', then the 'x' cut off, so trailing spaces survive). null when it cannot be title text,
   * including text that looks like another namespace's prefix.
   */
  titlePartToKey(text: string, ns: number): string | null {
    const name = this.namespaces.get(ns)?.name ?? '';
    const t = this.parse((name === '' ? '' : name + ':') + text + 'x', 0);
    if (t === null || t.fragment !== '' || t.ns !== ns) return null;
    return t.dbkey.slice(0, -1);
  }
}

function key(name: string): string {
  return name.replace(/ /g, '_').toLowerCase();
}
