/**
 * list=deletedrevs (ApiQueryDeletedrevs of 1.25, deprecated there for prop=deletedrevisions and
 * list=alldeletedrevisions). 1.25 checks the `deletedhistory` right before anything else, which an
 * anonymous reader lacks: the parameters are checked, then the request is refused.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { DELETED_REVISIONS_DENIED, requireRight } from './restricted-shared.js';

export const deletedrevsModule = queryModule({
  kind: 'list',
  name: 'deletedrevs',
  prefix: 'dr',
  deprecated: true,
  className: 'ApiQueryDeletedrevs',
  helpUrls: ['https://www.mediawiki.org/wiki/API:Deletedrevs'],
  description:
    'List deleted revisions.\n\nOperates in three modes:\n# List deleted revisions for the given titles, sorted by timestamp.\n# List deleted contributions for the given user, sorted by timestamp (no titles specified).\n# List all deleted revisions in the given namespace, sorted by title and timestamp (no titles specified, druser not set).\n\nCertain parameters only apply to some modes and are ignored in others.',
  cacheMode: () => 'private',
  params: {
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from. Modes: 1, 2' },
    end: { type: 'timestamp', help: 'The timestamp to stop enumerating at. Modes: 1, 2' },
    dir: dirParam('In which direction to enumerate. Modes: 1, 3', ['newer', 'older'], 'older'),
    from: { type: 'string', help: 'Start listing at this title. Mode: 3' },
    to: { type: 'string', help: 'Stop listing at this title. Mode: 3' },
    prefix: { type: 'string', help: 'Search for all page titles that begin with this value. Mode: 3' },
    unique: { type: 'boolean', default: false, help: 'List only one revision for each page. Mode: 3' },
    namespace: { type: 'namespace', default: 0, help: 'Only list pages in this namespace. Mode: 3' },
    tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
    user: { type: 'user', help: 'Only list revisions by this user.' },
    excludeuser: { type: 'user', help: "Don't list revisions by this user." },
    prop: {
      type: ['revid', 'parentid', 'user', 'userid', 'comment', 'parsedcomment', 'minor', 'len', 'sha1', 'content', 'token', 'tags'],
      multi: true,
      default: 'user|comment',
      help: 'Which properties to get.',
    },
    limit: limitParam(10, 'The maximum amount of revisions to list.'),
    continue: continueParam(),
  },
  examples: [
    'action=query&list=deletedrevs&titles=Головна сторінка&drprop=user|comment|content',
    'action=query&list=deletedrevs&druser=Bob&drlimit=50',
    'action=query&list=deletedrevs&drdir=newer&drlimit=50',
  ],
  run(ctx) {
    // ApiQueryDeletedrevs.php:40-47: before doing anything at all, even before its deprecation warning
    requireRight(ctx, 'deletedhistory', DELETED_REVISIONS_DENIED);
  },
});
