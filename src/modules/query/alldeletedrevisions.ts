/**
 * list=alldeletedrevisions (ApiQueryAllDeletedRevisions of 1.25): every deleted revision by a user or in
 * a namespace. 1.25 checks the `deletedhistory` right before anything else, which an anonymous reader
 * lacks: the parameters are checked, then the request is refused.
 */
import { continueParam, dirParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { DELETED_REVISIONS_DENIED, requireRight, revisionsBaseParams } from './restricted-shared.js';

export const alldeletedrevisionsModule = queryModule({
  kind: 'list',
  name: 'alldeletedrevisions',
  prefix: 'adr',
  generator: true,
  className: 'ApiQueryAllDeletedRevisions',
  helpUrls: ['https://www.mediawiki.org/wiki/API:Alldeletedrevisions'],
  description: 'List all deleted revisions by a user or in a namespace.',
  cacheMode: () => 'private',
  params: {
    ...revisionsBaseParams('adr'),
    user: { type: 'user', help: 'Only list revisions by this user.' },
    namespace: { type: 'namespace', multi: true, help: 'Only list pages in this namespace.' },
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from. May only be used with adruser.' },
    end: { type: 'timestamp', help: 'The timestamp to stop enumerating at. May only be used with adruser.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    from: { type: 'string', help: 'Start listing at this title. Cannot be used with adruser.' },
    to: { type: 'string', help: 'Stop listing at this title. Cannot be used with adruser.' },
    prefix: { type: 'string', help: 'Search for all page titles that begin with this value. Cannot be used with adruser.' },
    excludeuser: { type: 'user', help: "Don't list revisions by this user. Cannot be used with adruser." },
    tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
    continue: continueParam(),
    generatetitles: { type: 'boolean', default: false, help: 'When being used as a generator, generate titles rather than revision IDs.' },
  },
  examples: [
    'action=query&list=alldeletedrevisions&adruser=Example&adrlimit=50',
    'action=query&list=alldeletedrevisions&adrdir=newer&adrlimit=50',
  ],
  run(ctx) {
    // ApiQueryAllDeletedRevisions.php:44-51: before doing anything at all
    requireRight(ctx, 'deletedhistory', DELETED_REVISIONS_DENIED);
  },
});
