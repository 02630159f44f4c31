/**
 * User groups and their rights: MediaWiki 1.25's $wgGroupPermissions defaults (DefaultSettings.php) with
 * what Semantic MediaWiki 2.2 and Semantic Forms 3.3 add, except the '*' group: this wiki serves only
 * reads, so anonymous users (everyone here) have the read right alone (ANON_RIGHTS).
 */
import { ANON_RIGHTS } from './users.js';

export interface UserGroup {
  name: string;
  rights: readonly string[];
}

export const USER_GROUPS: readonly UserGroup[] = [
  { name: '*', rights: ANON_RIGHTS },
  {
    name: 'user',
    rights: ['move', 'move-subpages', 'move-rootuserpages', 'movefile', 'read', 'edit', 'createpage', 'createtalk', 'writeapi', 'upload', 'reupload', 'reupload-shared', 'minoredit', 'purge', 'sendemail', 'applychangetags', 'changetags'],
  },
  { name: 'autoconfirmed', rights: ['autoconfirmed', 'editsemiprotected'] },
  { name: 'bot', rights: ['bot', 'autoconfirmed', 'editsemiprotected', 'nominornewtalk', 'autopatrol', 'suppressredirect', 'apihighlimits', 'writeapi'] },
  {
    name: 'sysop',
    rights: [
      'block', 'createaccount', 'delete', 'bigdelete', 'deletedhistory', 'deletedtext', 'undelete', 'editinterface', 'editusercss', 'edituserjs', 'import',
      'importupload', 'move', 'move-subpages', 'move-rootuserpages', 'patrol', 'autopatrol', 'protect', 'editprotected', 'rollback', 'upload', 'reupload',
      'reupload-shared', 'unwatchedpages', 'autoconfirmed', 'editsemiprotected', 'ipblock-exempt', 'blockemail', 'markbotedits', 'apihighlimits', 'browsearchive',
      'noratelimit', 'movefile', 'unblockself', 'suppressredirect', 'mergehistory', 'managechangetags', 'smw-admin',
    ],
  },
  { name: 'bureaucrat', rights: ['userrights', 'noratelimit'] },
  { name: 'smwadministrator', rights: ['smw-admin'] },
];

/** Groups every account is in by itself (User::getImplicitGroups): * and user; autoconfirmed by autopromotion. */
export const IMPLICIT_GROUPS = ['*', 'user', 'autoconfirmed'];
