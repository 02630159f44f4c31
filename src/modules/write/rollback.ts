/** action=rollback (ApiRollback of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule, WATCHLIST_PARAM, TOKEN_IN_PLACE } from './write-module.js';

export const rollbackModule = writeModule({
  name: 'rollback',
  className: 'ApiRollback',
  description:
    'Undo the last edit to the page. If the last user who edited the page made multiple edits in a row, they will all be rolled back.',
  needsToken: 'rollback',
  params: {
    title: { type: 'string', help: 'Title of the page to roll back. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'Page ID of the page to roll back. Cannot be used together with title.' },
    user: { type: 'string', required: true, help: 'Name of the user whose edits are to be rolled back.' },
    summary: { type: 'string', default: '', help: 'Custom edit summary. If empty, default summary will be used.' },
    markbot: { type: 'boolean', default: false, help: 'Mark the reverted edits and the revert as bot edits.' },
    watchlist: WATCHLIST_PARAM,
    token: TOKEN_IN_PLACE,
  },
});
