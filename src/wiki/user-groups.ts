/**
 * User groups and their rights: MediaWiki 1.25's $wgGroupPermissions defaults (DefaultSettings.php) with
 * what Semantic MediaWiki 2.2 and Semantic Forms 3.3 add, except the '*' group: this wiki serves only
 * reads, so anonymous users (everyone here) have the read right alone (ANON_RIGHTS).
 */
import { ANON_RIGHTS } from './users.js';
import type { TitleCodec } from './titles.js';
import { NS_USER } from './namespaces.js';

export interface UserGroup {
  name: string;
  rights: readonly string[];
}

export const USER_GROUPS: readonly UserGroup[] = [
  { name: '*', rights: ANON_RIGHTS },
  {
    name: 'user',
    rights: [
      'move',
      'move-subpages',
      'move-rootuserpages',
      'movefile',
      'read',
      'edit',
      'createpage',
      'createtalk',
      'writeapi',
      'upload',
      'reupload',
      'reupload-shared',
      'minoredit',
      'purge',
      'sendemail',
      'applychangetags',
      'changetags',
    ],
  },
  { name: 'autoconfirmed', rights: ['autoconfirmed', 'editsemiprotected'] },
  {
    name: 'bot',
    rights: ['bot', 'autoconfirmed', 'editsemiprotected', 'nominornewtalk', 'autopatrol', 'suppressredirect', 'apihighlimits', 'writeapi'],
  },
  {
    name: 'sysop',
    rights: [
      'block',
      'createaccount',
      'delete',
      'bigdelete',
      'deletedhistory',
      'deletedtext',
      'undelete',
      'editinterface',
      'editusercss',
      'edituserjs',
      'import',
      'importupload',
      'move',
      'move-subpages',
      'move-rootuserpages',
      'patrol',
      'autopatrol',
      'protect',
      'editprotected',
      'rollback',
      'upload',
      'reupload',
      'reupload-shared',
      'unwatchedpages',
      'autoconfirmed',
      'editsemiprotected',
      'ipblock-exempt',
      'blockemail',
      'markbotedits',
      'apihighlimits',
      'browsearchive',
      'noratelimit',
      'movefile',
      'unblockself',
      'suppressredirect',
      'mergehistory',
      'managechangetags',
      'smw-admin',
    ],
  },
  { name: 'bureaucrat', rights: ['userrights', 'noratelimit'] },
  { name: 'smwadministrator', rights: ['smw-admin'] },
];

/** Groups every account is in by itself (User::getImplicitGroups): * and user; autoconfirmed by autopromotion. */
export const IMPLICIT_GROUPS = ['*', 'user', 'autoconfirmed'];

/** Groups a user can be made a member of (User::getAllGroups): the non-implicit ones. */
export const EXPLICIT_GROUPS = USER_GROUPS.map((g) => g.name).filter((g) => !IMPLICIT_GROUPS.includes(g));

/** Every right some group has (the enum of the rights parameters). */
export const ALL_RIGHTS = [...new Set(USER_GROUPS.flatMap((g) => g.rights))].sort();

/**
 * User::getGroupPermissions: the rights of these groups, first occurrence first. A dump says nothing of
 * group memberships, so its users have the implicit groups only.
 */
export function groupRights(groups: readonly string[]): string[] {
  const out = new Set<string>();
  for (const g of groups) for (const r of USER_GROUPS.find((u) => u.name === g)?.rights ?? []) out.add(r);
  return [...out];
}

const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9A-Fa-f:]+$/;

/** IP::isIPAddress: an IPv4 or IPv6 address (the names of anonymous contributors). */
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
