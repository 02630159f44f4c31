/** action=move (ApiMove of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule, WATCHLIST_PARAM } from './write-module.js';

export const moveModule = writeModule({
  name: 'move',
  className: 'ApiMove',
  description: 'Move a page.',
  needsToken: 'csrf',
  params: {
    from: { type: 'string', help: 'Title of the page to rename. Cannot be used together with fromid.' },
    fromid: { type: 'integer', help: 'Page ID of the page to rename. Cannot be used together with from.' },
    to: { type: 'string', required: true, help: 'Title to rename the page to.' },
    reason: { type: 'string', default: '', help: 'Reason for the rename.' },
    movetalk: { type: 'boolean', default: false, help: 'Rename the talk page, if it exists.' },
    movesubpages: { type: 'boolean', default: false, help: 'Rename subpages, if applicable.' },
    noredirect: { type: 'boolean', default: false, help: "Don't create a redirect." },
    watch: { type: 'boolean', default: false, deprecated: true, help: "Add the page and the redirect to the current user's watchlist." },
    unwatch: {
      type: 'boolean',
      default: false,
      deprecated: true,
      help: "Remove the page and the redirect from the current user's watchlist.",
    },
    watchlist: WATCHLIST_PARAM,
    ignorewarnings: { type: 'boolean', default: false, help: 'Ignore any warnings.' },
  },
});
