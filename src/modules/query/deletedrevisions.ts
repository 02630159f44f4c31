/**
 * prop=deletedrevisions (ApiQueryDeletedRevisions of 1.25): the deleted revisions of the page set. A dump
 * carries no archive, and 1.25 checks the `deletedhistory` right before anything else, which an
 * anonymous reader lacks: the parameters are checked, then the request is refused.
 */
import { continueParam, dirParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { DELETED_REVISIONS_DENIED, requireRight, revisionsBaseParams } from './restricted-shared.js';

export const deletedrevisionsModule = queryModule({
  kind: 'prop',
  name: 'deletedrevisions',
  prefix: 'drv',
  generator: true,
  className: 'ApiQueryDeletedRevisions',
  helpUrls: ['https://www.mediawiki.org/wiki/API:Properties#deletedrevisions_.2F_drv'],
  description:
    'Get deleted revision information.\n\nMay be used in several ways:\n# Get deleted revisions for a set of pages, by setting titles or pageids. Ordered by title and timestamp.\n# Get data about a set of deleted revisions by setting their IDs with revids. Ordered by revision ID.',
  cacheMode: () => 'private',
  params: {
    ...revisionsBaseParams('drv'),
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from. Ignored when processing a list of revision IDs.' },
    end: { type: 'timestamp', help: 'The timestamp to stop enumerating at. Ignored when processing a list of revision IDs.' },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    tag: { type: 'string', help: 'Only list revisions tagged with this tag.' },
    user: { type: 'user', help: 'Only list revisions by this user.' },
    excludeuser: { type: 'user', help: "Don't list revisions by this user." },
    continue: continueParam(),
  },
  examples: [
    'action=query&prop=deletedrevisions&titles=Головна сторінка&drvprop=user|comment|content',
    'action=query&prop=deletedrevisions&revids=123456',
  ],
  run(ctx) {
    // ApiQueryDeletedRevisions.php:40-47: before doing anything at all
    requireRight(ctx, 'deletedhistory', DELETED_REVISIONS_DENIED);
  },
});
