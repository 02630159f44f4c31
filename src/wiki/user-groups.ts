/**
 * MediaWiki 1.25's default user groups and their rights ($wgGroupPermissions of DefaultSettings.php, plus
 * Semantic MediaWiki 2.2's smw-admin), and user name rules (User::getCanonicalName). A dump says who
 * edited but not who belongs to which group, so the dump's users have the implicit groups only.
 */
import type { TitleCodec } from './titles.js';
import { NS_USER } from './namespaces.js';

export const GROUP_PERMISSIONS: ReadonlyArray<readonly [string, readonly string[]]> = [
  ['*', ['createaccount', 'read', 'edit', 'createpage', 'createtalk', 'writeapi', 'editmyusercss', 'editmyuserjs', 'viewmywatchlist', 'editmywatchlist', 'viewmyprivateinfo', 'editmyprivateinfo', 'editmyoptions']],
  ['user', ['move', 'move-subpages', 'move-rootuserpages', 'move-categorypages', 'movefile', 'read', 'edit', 'createpage', 'createtalk', 'writeapi', 'upload', 'reupload', 'reupload-shared', 'minoredit', 'purge', 'sendemail']],
  ['autoconfirmed', ['autoconfirmed', 'editsemiprotected']],
  ['bot', ['bot', 'autoconfirmed', 'editsemiprotected', 'nominornewtalk', 'autopatrol', 'suppressredirect', 'apihighlimits', 'writeapi']],
  ['sysop', ['block', 'createaccount', 'delete', 'bigdelete', 'deletedhistory', 'deletedtext', 'undelete', 'editinterface', 'editusercss', 'edituserjs', 'import', 'importupload', 'move', 'move-subpages', 'move-rootuserpages', 'patrol', 'autopatrol', 'protect', 'editprotected', 'proxyunbannable', 'rollback', 'upload', 'reupload', 'reupload-shared', 'unwatchedpages', 'autoconfirmed', 'editsemiprotected', 'ipblock-exempt', 'blockemail', 'markbotedits', 'apihighlimits', 'browsearchive', 'noratelimit', 'movefile', 'unblockself', 'suppressredirect', 'mergehistory', 'managechangetags', 'smw-admin']],
  ['bureaucrat', ['userrights', 'noratelimit']],
  ['smwadministrator', ['smw-admin']],
];

/** Groups every registered user is in (User::getAutomaticGroups with $wgAutoConfirmAge = 0, $wgAutoConfirmCount = 0). */
export const IMPLICIT_USER_GROUPS = ['*', 'user', 'autoconfirmed'];

/** Groups a user can be made a member of (User::getAllGroups): the non-implicit ones. */
export const EXPLICIT_GROUPS = GROUP_PERMISSIONS.map(([g]) => g).filter((g) => !IMPLICIT_USER_GROUPS.includes(g));

/** Every right some group has (the enum of the rights parameters). */
export const ALL_RIGHTS = [...new Set(GROUP_PERMISSIONS.flatMap(([, r]) => r))].sort();

/** User::getGroupPermissions: the rights of these groups, first occurrence first. */
export function groupRights(groups: readonly string[]): string[] {
  const out = new Set<string>();
  for (const g of groups) for (const r of GROUP_PERMISSIONS.find(([name]) => name === g)?.[1] ?? []) out.add(r);
  return [...out];
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9A-Fa-f:]+$/;

export function isIp(name: string): boolean {
  return IPV4.test(name) || (name.includes(':') && IPV6.test(name) && name.split(':').length >= 3);
}

/**
 * User::getCanonicalName($name, 'valid'): the name with spaces and its first letter uppercased, or
 * null when it cannot be a registered user's name (IP addresses, '#', '@', ':', a namespace prefix, …).
 */
export function canonicalUserName(codec: TitleCodec, name: string): string | null {
  if (name.includes('#')) return null;
  const t = codec.parse(name.replace(/_/g, ' '), NS_USER);
  if (t === null || t.ns !== NS_USER || t.fragment) return null;
  const canonical = t.dbkey.replace(/_/g, ' ');
  if (canonical === '') return null;
  if (isIp(canonical) || /[@:]/.test(canonical) || Buffer.byteLength(canonical, 'utf8') > 255) return null;
  return canonical;
}
