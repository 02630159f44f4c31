/**
 * list=filearchive (ApiQueryFilearchive of 1.25): the deleted files. 1.25 checks the `deletedhistory`
 * right before anything else, which an anonymous reader lacks: the parameters are checked, then the
 * request is refused.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { DELETED_FILES_DENIED, requireRight } from './restricted-shared.js';

export const filearchiveModule = queryModule({
  kind: 'list',
  name: 'filearchive',
  prefix: 'fa',
  className: 'ApiQueryFilearchive',
  helpUrls: ['https://www.mediawiki.org/wiki/API:Filearchive'],
  description: 'Enumerate all deleted files sequentially.',
  cacheMode: () => 'private',
  params: {
    from: { type: 'string', help: 'The image title to start enumerating from.' },
    to: { type: 'string', help: 'The image title to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all image titles that begin with this value.' },
    dir: dirParam('The direction in which to list.'),
    sha1: { type: 'string', help: 'SHA1 hash of image. Overrides fasha1base36.' },
    sha1base36: { type: 'string', help: 'SHA1 hash of image in base 36 (used in MediaWiki).' },
    prop: {
      type: [
        'sha1',
        'timestamp',
        'user',
        'size',
        'dimensions',
        'description',
        'parseddescription',
        'mime',
        'mediatype',
        'metadata',
        'bitdepth',
        'archivename',
      ],
      multi: true,
      default: 'timestamp',
      help: 'Which image information to get.',
    },
    limit: limitParam(10, 'How many images to return in total.'),
    continue: continueParam(),
  },
  examples: ['action=query&list=filearchive'],
  run(ctx) {
    // ApiQueryFilearchive.php:41-48: before doing anything at all
    requireRight(ctx, 'deletedhistory', DELETED_FILES_DENIED);
  },
});
