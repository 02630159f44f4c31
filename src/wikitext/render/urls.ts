/** Title::getLocalURL with wikiquery's article path (/index.php/$1) and script (/index.php). */
import { localArticlePath, wfUrlencode } from '../../wiki/files.js';

/** the page's URL; a title holding "?" goes through index.php?title= as MediaWiki does */
export function articleUrl(prefixedDbKey: string, fragment = ''): string {
  const enc = wfUrlencode(prefixedDbKey);
  const base = prefixedDbKey.includes('?') ? `/index.php?title=${enc}` : localArticlePath(enc);
  return fragment ? `${base}#${fragment}` : base;
}

/** index.php?title=…&action=edit[&redlink=1], HTML-escaped for an attribute */
export function editUrl(prefixedDbKey: string, redlink: boolean, section?: string): string {
  return `/index.php?title=${wfUrlencode(prefixedDbKey)}&amp;action=edit${section !== undefined ? `&amp;section=${section}` : ''}${redlink ? '&amp;redlink=1' : ''}`;
}
