/** action=setnotificationtimestamp (ApiSetNotificationTimestamp of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';
import { PAGESET_PARAMS } from '../../api/query.js';

export const setnotificationtimestampModule = writeModule({
  name: 'setnotificationtimestamp',
  className: 'ApiSetNotificationTimestamp',
  description: 'Update the notification timestamp for watched pages.',
  needsToken: 'csrf',
  params: Object.assign(
    {
      entirewatchlist: { type: 'boolean', default: false, help: 'Work on all watched pages.' },
      timestamp: { type: 'timestamp', help: 'Timestamp to which to set the notification timestamp.' },
      torevid: { type: 'integer', help: 'Revision to set the notification timestamp to (one page only).' },
      newerthanrevid: { type: 'integer', help: 'Revision to set the notification timestamp newer than (one page only).' },
      continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    },
    PAGESET_PARAMS,
  ),
});
