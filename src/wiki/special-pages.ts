/**
 * Special pages of a Ukrainian MediaWiki 1.25 and their aliases (SpecialPageFactory + the
 * specialPageAliases of MessagesUk.php, merged with its fallbacks ru and en as LocalisationCache does):
 * the first alias is the local canonical name that Title::fixSpecialName puts in titles.
 * Data: `data/special-page-aliases.json` (see `data/README.md`).
 */
import aliasData from './data/special-page-aliases.json' with { type: 'json' };

export interface SpecialPageAliases {
  realname: string;
  aliases: string[];
}

export const SPECIAL_PAGE_ALIASES: readonly SpecialPageAliases[] = aliasData as SpecialPageAliases[];

/** case-folded alias (underscores) → the special page's real name; the first page claiming an alias wins */
const byAlias = new Map<string, SpecialPageAliases>();
for (const page of SPECIAL_PAGE_ALIASES) {
  for (const alias of [...page.aliases, page.realname]) {
    const key = caseFold(alias);
    if (!byAlias.has(key)) byAlias.set(key, page);
  }
}

/** Language::caseFold of uk (lower case) with spaces as underscores, as SpecialPageFactory keys aliases. */
function caseFold(s: string): string {
  return s.replace(/ /g, '_').toLowerCase();
}

/** SpecialPageFactory::resolveAlias: the page named by `Name/sub` (DB key) and the subpage, if any. */
export function resolveSpecialAlias(dbkey: string): { page: SpecialPageAliases; subpage: string | null } | null {
  const slash = dbkey.indexOf('/');
  const name = slash < 0 ? dbkey : dbkey.slice(0, slash);
  const page = byAlias.get(caseFold(name));
  if (!page) return null;
  return { page, subpage: slash < 0 ? null : dbkey.slice(slash + 1) };
}

/** Title::fixSpecialName: the DB key with the page's local canonical name; unknown pages are left as they are. */
export function fixSpecialName(dbkey: string): string {
  const r = resolveSpecialAlias(dbkey);
  if (!r) return dbkey;
  const local = r.page.aliases[0] ?? r.page.realname;
  return r.subpage === null ? local : `${local}/${r.subpage}`;
}

/** SpecialPageFactory::exists */
export function specialPageExists(dbkey: string): boolean {
  return resolveSpecialAlias(dbkey) !== null;
}
