/** action=watch (ApiWatch of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';
import { PAGESET_PARAMS } from '../../api/query.js';

export const watchModule = writeModule({
  name: 'watch',
  className: 'ApiWatch',
  description: "Add or remove pages from the current user's watchlist.",
  needsToken: 'watch',
  params: Object.assign(
    {
      title: { type: 'string', deprecated: true, help: 'The page to (un)watch. Use titles instead.' },
      unwatch: { type: 'boolean', default: false, help: 'If set the page will be unwatched rather than watched.' },
      continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    },
    PAGESET_PARAMS,
  ),
});
