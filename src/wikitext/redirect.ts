/**
 * Redirect targets (WikitextContent::getRedirectTarget of 1.25): the redirect magic word at the start
 * of the text (any case, after leading whitespace), then optionally ':' and the first [[link]] on the
 * same line. Invalid titles and the special pages MediaWiki refuses as targets give no redirect.
 */
import type { Title, TitleCodec } from '../wiki/titles.js';
import { NS_SPECIAL } from '../wiki/namespaces.js';
import { REDIRECT_WORDS } from './magic-words.js';
import { rawUrlDecode } from './links.js';
import type { InterwikiMap } from '../wiki/interwiki.js';

const REDIRECT_AND_TEXT_RE = new RegExp(`^\\s*(?:${REDIRECT_WORDS.join('|')})\\s*:?\\s*\\[\\[(.*?)(?:\\|.*?)?\\]\\]\\s*`, 'i');
// $wgInvalidRedirectTargets plus Userlogout (Title::isValidRedirectTarget)
const INVALID_SPECIAL_TARGETS = new Set(['Filepath', 'Mypage', 'Mytalk', 'Redirect', 'Userlogout']);

/** A redirect's target: a title of this wiki, or one on another wiki (`interwiki` its prefix). */
export type RedirectTarget = Title & { interwiki?: string };

export function redirectTarget(text: string, codec: TitleCodec, interwiki?: InterwikiMap): RedirectTarget | null {
  return redirectTargetAndText(text, codec, interwiki)?.target ?? null;
}

/**
 * WikitextContent::getRedirectTargetAndText: the target and the text after the redirect link -- what the
 * parser renders of a redirect page (its own links, categories), while the target itself becomes a page
 * link (WikitextContent::fillParserOutput's addLink), never an image or category link. Null when the text
 * is no redirect MediaWiki reads.
 */
export function redirectTargetAndText(
  text: string,
  codec: TitleCodec,
  interwiki?: InterwikiMap,
): { target: RedirectTarget; rest: string } | null {
  const m = REDIRECT_AND_TEXT_RE.exec(text);
  if (!m) return null;
  let target = m[1];
  if (target.includes('%')) target = rawUrlDecode(target.replace(/^:+/, ''));
  const t = parseTarget(target, codec, interwiki);
  return t === null ? null : { target: t, rest: text.slice(m[0].length) };
}

/** The dump's <redirect title="…"/>, for pages whose text does not say it (or not parseably). */
export function redirectTargetFromTitle(title: string, codec: TitleCodec, interwiki?: InterwikiMap): RedirectTarget | null {
  return parseTarget(title, codec, interwiki);
}

/**
 * An interwiki prefix (not a namespace) makes the rest the title on the other wiki: rd_interwiki, with
 * rd_namespace 0 and the title as written, its fragment apart (MediaWikiTitleCodec::splitTitle).
 */
function parseTarget(target: string, codec: TitleCodec, interwiki: InterwikiMap | undefined): RedirectTarget | null {
  const pm = /^[ _]*:?[ _]*([A-Za-z0-9][A-Za-z0-9_.-]*?)[ _]*:([\s\S]*)$/.exec(target);
  if (pm && interwiki?.get(pm[1]) && codec.nsIdFromPrefix(pm[1]) === undefined) {
    let rest = pm[2].replace(/[ _]+/g, '_').replace(/^_+|_+$/g, '');
    let fragment = '';
    const hash = rest.indexOf('#');
    if (hash >= 0) {
      fragment = rest.slice(hash + 1).replace(/_/g, ' ');
      rest = rest.slice(0, hash).replace(/_+$/, '');
    }
    if (/[\u0000-\u001f<>[\]|{}\u007f\ufffd]/.test(rest)) return null;
    return { ns: 0, dbkey: rest, fragment, interwiki: pm[1].toLowerCase() };
  }
  return validTarget(codec.parse(target, 0));
}

function validTarget(t: Title | null): Title | null {
  if (t === null) return null;
  if (t.ns === NS_SPECIAL && INVALID_SPECIAL_TARGETS.has(t.dbkey.split('/')[0])) return null;
  return t;
}
