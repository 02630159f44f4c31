/**
 * Redirect targets (WikitextContent::getRedirectTarget of 1.25): the redirect magic word at the start
 * of the text (any case, after leading whitespace), then optionally ':' and the first [[link]] on the
 * same line. Invalid titles and the special pages MediaWiki refuses as targets give no redirect.
 */
import type { Title, TitleCodec } from '../../wiki/titles.js';
import { NS_SPECIAL } from '../../wiki/namespaces.js';
import { REDIRECT_WORDS } from './magic-words.js';
import { rawUrlDecode } from './links.js';

const REDIRECT_RE = new RegExp(`^\\s*(?:${REDIRECT_WORDS.join('|')})\\s*:?\\s*\\[\\[(.*?)(?:\\|.*?)?\\]\\]`, 'i');
// $wgInvalidRedirectTargets plus Userlogout (Title::isValidRedirectTarget)
const INVALID_SPECIAL_TARGETS = new Set(['Filepath', 'Mypage', 'Mytalk', 'Redirect', 'Userlogout']);

export function redirectTarget(text: string, codec: TitleCodec): Title | null {
  const m = REDIRECT_RE.exec(text);
  if (!m) return null;
  let target = m[1];
  if (target.includes('%')) target = rawUrlDecode(target.replace(/^:+/, ''));
  return validTarget(codec.parse(target, 0));
}

/** The dump's <redirect title="…"/>, for pages whose text does not say it (or not parseably). */
export function redirectTargetFromTitle(title: string, codec: TitleCodec): Title | null {
  return validTarget(codec.parse(title, 0));
}

function validTarget(t: Title | null): Title | null {
  if (t === null) return null;
  if (t.ns === NS_SPECIAL && INVALID_SPECIAL_TARGETS.has(t.dbkey.split('/')[0])) return null;
  return t;
}
