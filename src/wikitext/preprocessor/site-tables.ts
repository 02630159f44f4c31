/**
 * What an expansion knows of the wiki besides the page: namespace names and aliases, namespaces with
 * subpages, extension tags; and the built-in title resolver that uses them.
 */
import { ucfirst } from '../../wiki/language.js';
import { NS_MAIN } from '../../wiki/namespaces.js';
import { decodeCharReferences } from '../../wiki/titles.js';
import { utf8Length } from '../../php/strings.js';
import type { PreprocessContext } from './context.js';
import { DEFAULT_EXTENSION_TAGS } from './tokenizer.js';

/** Local namespace names of a Ukrainian MediaWiki (MessagesUk.php) plus SMW/SF canonical names. */
const DEFAULT_NAMESPACE_NAMES: Record<number, string> = {
  [-2]: 'Медіа',
  [-1]: 'Спеціальна',
  1: 'Обговорення',
  2: 'Користувач',
  3: 'Обговорення користувача',
  4: 'Project',
  5: 'Project talk',
  6: 'Файл',
  7: 'Обговорення файлу',
  8: 'MediaWiki',
  9: 'Обговорення MediaWiki',
  10: 'Шаблон',
  11: 'Обговорення шаблону',
  12: 'Довідка',
  13: 'Обговорення довідки',
  14: 'Категорія',
  15: 'Обговорення категорії',
  102: 'Property',
  103: 'Property talk',
  106: 'Form',
  107: 'Form talk',
  108: 'Concept',
  109: 'Concept talk',
};

/** Canonical English names and the uk aliases, accepted as prefixes by the built-in resolver. */
const NAMESPACE_ALIASES: Array<[string, number]> = [
  ['Media', -2],
  ['Special', -1],
  ['Talk', 1],
  ['User', 2],
  ['User talk', 3],
  ['Project', 4],
  ['Project talk', 5],
  ['File', 6],
  ['File talk', 7],
  ['Image', 6],
  ['Image talk', 7],
  ['MediaWiki', 8],
  ['MediaWiki talk', 9],
  ['Template', 10],
  ['Template talk', 11],
  ['Help', 12],
  ['Help talk', 13],
  ['Category', 14],
  ['Category talk', 15],
  ['Property', 102],
  ['Property talk', 103],
  ['Form', 106],
  ['Form talk', 107],
  ['Concept', 108],
  ['Concept talk', 109],
  ['Спеціальні', -1],
  ['Зображення', 6],
  ['Обговорення зображення', 7],
  ['Обговорення шаблона', 11],
];

/** $wgNamespacesWithSubpages of MediaWiki's defaults */
const DEFAULT_SUBPAGE_NAMESPACES = [1, 2, 3, 4, 5, 7, 8, 9, 10, 11, 12, 13, 15];

export function normalizeNsName(name: string): string {
  return name.replace(/[_ ]+/g, ' ').trim().toLowerCase();
}

/**
 * What an Expander knows of the wiki besides the page: namespace names and prefixes, namespaces with
 * subpages, extension tags. They depend only on the context's namespaceNames, namespacesWithSubpages
 * and extensionTags, which an import passes unchanged (the same objects) for every page, so the tables
 * of the last configuration are reused: building them costs more than expanding a short page.
 */
export class SiteTables {
  private static last: { key: Pick<PreprocessContext, SiteKey>; tables: SiteTables } | null = null;
  readonly extTagSet: ReadonlySet<string>;
  /** the extension tag list as TemplateTreeCache keys trees by it */
  readonly extTagsKey: string;

  private constructor(
    readonly nsNames: Map<number, string>,
    readonly nsIndexes: Map<string, number>,
    readonly extTags: readonly string[],
    readonly subpageNs: ReadonlySet<number>,
  ) {
    this.extTagSet = new Set(extTags);
    this.extTagsKey = extTags.join('|');
  }

  static of(ctx: PreprocessContext): SiteTables {
    const last = SiteTables.last;
    if (last && SITE_KEYS.every((k) => last.key[k] === ctx[k])) return last.tables;
    const tables = new SiteTables(
      new Map(),
      new Map(),
      (ctx.extensionTags ?? DEFAULT_EXTENSION_TAGS).map((t) => t.toLowerCase()),
      new Set(ctx.namespacesWithSubpages ?? DEFAULT_SUBPAGE_NAMESPACES),
    );
    for (const [name, ns] of NAMESPACE_ALIASES) tables.nsIndexes.set(normalizeNsName(name), ns);
    for (const [ns, name] of Object.entries(DEFAULT_NAMESPACE_NAMES)) tables.setNamespace(Number(ns), name);
    for (const [ns, name] of Object.entries(ctx.namespaceNames ?? {})) tables.setNamespace(Number(ns), name);
    SiteTables.last = {
      key: { namespaceNames: ctx.namespaceNames, namespacesWithSubpages: ctx.namespacesWithSubpages, extensionTags: ctx.extensionTags },
      tables,
    };
    return tables;
  }

  /** These tables with `name` as the name of `ns`: themselves when they say so already, else a copy. */
  withNamespace(ns: number, name: string): SiteTables {
    const spaced = name.replace(/_/g, ' ');
    if (ns !== NS_MAIN && spaced === '') return this;
    if (this.nsNames.get(ns) === spaced && this.nsIndexes.get(normalizeNsName(spaced)) === ns) return this;
    const copy = new SiteTables(new Map(this.nsNames), new Map(this.nsIndexes), this.extTags, this.subpageNs);
    copy.setNamespace(ns, name);
    return copy;
  }

  private setNamespace(ns: number, name: string): void {
    const spaced = name.replace(/_/g, ' ');
    if (ns !== NS_MAIN && spaced === '') return;
    this.nsNames.set(ns, spaced);
    this.nsIndexes.set(normalizeNsName(spaced), ns);
  }
}

type SiteKey = 'namespaceNames' | 'namespacesWithSubpages' | 'extensionTags';
const SITE_KEYS: readonly SiteKey[] = ['namespaceNames', 'namespacesWithSubpages', 'extensionTags'];

const INVALID_TITLE_CHARS = /[[\]{}|<>\u0000-\u001f\u007f\ufffd]|%[0-9A-Fa-f]{2}/;
/** what Title::secureAndSplit turns into one "_" */
const TITLE_WHITESPACE = /[ _\u00a0\u1680\u180e\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]+/g;

/**
 * A minimal Title::newFromText: entities decoded, "_" as space, a leading ":" for main, a known
 * namespace prefix, the fragment dropped, first letter upper-cased. Null for an invalid title.
 */
export function resolveTitle(
  target: string,
  defaultNs: number,
  names: { nsIndex(name: string): number | undefined; nsName(ns: number): string },
): { ns: number; dbkey: string; nsText: string } | null {
  let t = decodeCharReferences(target)
    .replace(/[\u200e\u200f\u202a-\u202e]/g, '')
    .replace(TITLE_WHITESPACE, ' ')
    .trim();
  const hash = t.indexOf('#');
  if (hash >= 0) t = t.slice(0, hash).trim();
  let ns = defaultNs;
  if (t.startsWith(':')) {
    ns = NS_MAIN;
    t = t.slice(1).trim();
  }
  const colon = t.indexOf(':');
  if (colon > 0) {
    const idx = names.nsIndex(t.slice(0, colon));
    if (idx !== undefined) {
      ns = idx;
      t = t.slice(colon + 1).trim();
    }
  }
  if (t === '' || INVALID_TITLE_CHARS.test(t) || t.includes('~~~') || utf8Length(t) > 255) return null;
  if (t === '.' || t === '..' || t.startsWith('./') || t.startsWith('../') || t.includes('/./') || t.includes('/../')) return null;
  t = ucfirst(t);
  return { ns, dbkey: t.replace(/ /g, '_'), nsText: names.nsName(ns) };
}
