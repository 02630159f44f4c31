/**
 * What the modules 1.25 keeps from anonymous readers share: the watchlist owner check
 * (ApiBase::getWatchlistUser) and the deleted-history right check the deleted-revision and file-archive
 * modules make before anything else. Every reader here is anonymous (ANON_RIGHTS), so these end the
 * request with 1.25's error; the checks still read the wiki's rights and users rather than assume it.
 */
import { CONTENT_FORMATS } from '../../wiki/content-models.js';
import type { ParamDecls, QueryModuleContext } from '../../api/types.js';
import { limitParam } from '../../api/param-presets.js';
import { ANON_RIGHTS } from '../../wiki/users.js';
import { canonicalUserName } from '../../wiki/user-groups.js';

/** 1.25's texts of the permission errors of the deleted-revision and file-archive modules */
export const DELETED_REVISIONS_DENIED = "You don't have permission to view deleted revision information";
export const DELETED_FILES_DENIED = "You don't have permission to view deleted file information";

/**
 * `$user->isAllowed( $right )` or `dieUsage( $text, 'permissiondenied' )` (prefixed, as dieUsage
 * prefixes: `drpermissiondenied`).
 */
export function requireRight(ctx: QueryModuleContext, right: string, text: string): void {
  if (!ANON_RIGHTS.includes(right)) ctx.die('permissiondenied', text);
}

/**
 * ApiBase::getWatchlistUser of 1.25 (ApiBase.php:1188-1212): another user's watchlist needs `owner`
 * and `token`, else the current user's, which an anonymous reader does not have. The owner's
 * `watchlisttoken` preference is not in a dump; 1.25 compares with the preference and refuses an unset
 * one (`$token == ''`) as a wrong token, so a known owner gets `bad_wltoken`.
 */
export async function dieWithoutWatchlist(ctx: QueryModuleContext): Promise<never> {
  const p = ctx.params;
  if (p.owner !== undefined && p.token !== undefined) {
    // User::newFromName( $owner, false ): any text but an empty or unusable one names a user
    const name = canonicalUserName(ctx.wiki.codec, p.owner as string);
    const known = name === null ? [] : await ctx.store.history.usersByName([name]);
    if (known.length === 0) ctx.die('bad_wlowner', 'Specified user does not exist');
    ctx.die('bad_wltoken', 'Incorrect watchlist token provided -- please set a correct token in Special:Preferences');
  }
  return ctx.die('notloggedin', 'You must be logged-in to have a watchlist');
}

/** ApiQueryRevisionsBase::getAllowedParams of 1.25: the parameters prop=deletedrevisions and list=alldeletedrevisions share */
export function revisionsBaseParams(prefix: string): ParamDecls {
  return {
    prop: {
      type: ['ids', 'flags', 'timestamp', 'user', 'userid', 'size', 'sha1', 'contentmodel', 'comment', 'parsedcomment', 'content', 'tags'],
      multi: true,
      default: 'ids|timestamp|flags|comment|user',
      help: 'Which properties to get for each revision.',
    },
    limit: limitParam(undefined, 'Limit how many revisions will be returned.'),
    expandtemplates: { type: 'boolean', default: false, help: `Expand templates in revision content (requires ${prefix}prop=content).` },
    generatexml: {
      type: 'boolean',
      default: false,
      help: `Generate XML parse tree for revision content (requires ${prefix}prop=content).`,
    },
    parse: {
      type: 'boolean',
      default: false,
      help: `Parse revision content (requires ${prefix}prop=content). For performance reasons, if this option is used, ${prefix}limit is enforced to 1.`,
    },
    section: { type: 'string', help: 'Only retrieve the content of this section number.' },
    diffto: {
      type: 'string',
      help: 'Revision ID to diff each revision to. Use prev, next and cur for the previous, next and current revision respectively.',
    },
    difftotext: {
      type: 'text',
      help: `Text to diff each revision to. Only diffs a limited number of revisions. Overrides ${prefix}diffto. If ${prefix}section is set, only that section will be diffed against this text`,
    },
    contentformat: {
      type: CONTENT_FORMATS,
      help: `Serialization format used for ${prefix}difftotext and expected for output of content.`,
    },
  };
}
