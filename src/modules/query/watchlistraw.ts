/**
 * list=watchlistraw (ApiQueryWatchlistRaw of 1.25): the pages on a user's watchlist. A dump carries no
 * watchlists and every reader here is anonymous: the parameters are checked, then
 * ApiBase::getWatchlistUser refuses the request, as 1.25 refuses an anonymous client.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { dieWithoutWatchlist } from './restricted-shared.js';

export const watchlistrawModule = queryModule({
  kind: 'list',
  name: 'watchlistraw',
  prefix: 'wr',
  generator: true,
  className: 'ApiQueryWatchlistRaw',
  helpUrls: ['https://www.mediawiki.org/wiki/API:Watchlistraw'],
  description: "Get all pages on the current user's watchlist.",
  cacheMode: () => 'private',
  params: {
    continue: continueParam(),
    namespace: namespaceParam('Only list pages in the given namespaces.', { multi: true }),
    limit: limitParam(10, 'How many total results to return per request.'),
    prop: { type: ['changed'], multi: true, help: 'Which additional properties to get.' },
    show: { type: ['changed', '!changed'], multi: true, help: 'Only list items that meet these criteria.' },
    owner: { type: 'user', help: "Used along with wrtoken to access a different user's watchlist." },
    token: {
      type: 'string',
      help: "A security token (available in the user's preferences) to allow access to another user's watchlist.",
    },
    dir: dirParam('The direction in which to list.'),
  },
  examples: ['action=query&list=watchlistraw', 'action=query&generator=watchlistraw&gwrshow=changed&prop=info'],
  async run(ctx) {
    await dieWithoutWatchlist(ctx);
  },
});
