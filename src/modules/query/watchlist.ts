/**
 * list=watchlist (ApiQueryWatchlist of 1.25): the recent changes of the pages on a user's watchlist. A
 * dump carries no watchlists and every reader here is anonymous, so the module answers as 1.25 answers an
 * anonymous client: its parameters are checked, then ApiBase::getWatchlistUser refuses the request.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { dieWithoutWatchlist } from './restricted-shared.js';

export const watchlistModule = queryModule({
  kind: 'list',
  name: 'watchlist',
  prefix: 'wl',
  generator: true,
  className: 'ApiQueryWatchlist',
  helpUrls: ['https://www.mediawiki.org/wiki/API:Watchlist'],
  description: "Get recent changes to pages in the current user's watchlist.",
  // ApiQueryBase::getCacheMode: a user's own list
  cacheMode: () => 'private',
  params: {
    allrev: { type: 'boolean', default: false, help: 'Include multiple revisions of the same page within given timeframe.' },
    start: { type: 'timestamp', help: 'The timestamp to start enumerating from.' },
    end: { type: 'timestamp', help: 'The timestamp to end enumerating.' },
    namespace: namespaceParam('Filter changes to only the given namespaces.', { multi: true }),
    user: { type: 'user', help: 'Only list changes by this user.' },
    excludeuser: { type: 'user', help: "Don't list changes by this user." },
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    limit: limitParam(10, 'How many total results to return per request.'),
    prop: {
      type: [
        'ids',
        'title',
        'flags',
        'user',
        'userid',
        'comment',
        'parsedcomment',
        'timestamp',
        'patrol',
        'sizes',
        'notificationtimestamp',
        'loginfo',
      ],
      multi: true,
      default: 'ids|title|flags',
      help: 'Which additional items to get.',
    },
    show: {
      type: ['minor', '!minor', 'bot', '!bot', 'anon', '!anon', 'patrolled', '!patrolled', 'unread', '!unread'],
      multi: true,
      help: 'Show only items that meet these criteria. For example, to see only minor edits done by logged-in users, set wlshow=minor|!anon.',
    },
    type: {
      type: ['edit', 'external', 'new', 'log'],
      multi: true,
      default: 'edit|new|log',
      help: 'Which types of changes to show.',
    },
    owner: { type: 'user', help: "Used along with wltoken to access a different user's watchlist." },
    token: {
      type: 'string',
      help: "A security token (available in the user's preferences) to allow access to another user's watchlist.",
    },
    continue: continueParam(),
  },
  examples: [
    'action=query&list=watchlist',
    'action=query&list=watchlist&wlprop=ids|title|timestamp|user|comment',
    'action=query&generator=watchlist&prop=info',
    'action=query&list=watchlist&wlowner=Example&wltoken=123ABC',
  ],
  async run(ctx) {
    await dieWithoutWatchlist(ctx);
  },
});
