/** action=undelete (ApiUndelete of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule, WATCHLIST_PARAM } from './write-module.js';

export const undeleteModule = writeModule({
  name: 'undelete',
  className: 'ApiUndelete',
  description: 'Restore revisions of a deleted page.',
  needsToken: 'csrf',
  params: {
    title: { type: 'string', required: true, help: 'Title of the page to restore.' },
    reason: { type: 'string', default: '', help: 'Reason for restoring.' },
    timestamps: {
      type: 'timestamp',
      multi: true,
      help: 'Timestamps of the revisions to restore. If both timestamps and fileids are empty, all will be restored.',
    },
    fileids: {
      type: 'integer',
      multi: true,
      help: 'IDs of the file revisions to restore. If both timestamps and fileids are empty, all will be restored.',
    },
    watchlist: WATCHLIST_PARAM,
  },
});
