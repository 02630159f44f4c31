/** action=tag (ApiTag of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const tagModule = writeModule({
  name: 'tag',
  className: 'ApiTag',
  description: 'Add or remove change tags from individual revisions or log entries.',
  needsToken: 'csrf',
  params: {
    rcid: { type: 'integer', multi: true, help: 'One or more recent changes IDs from which to add or remove the tag.' },
    revid: { type: 'integer', multi: true, help: 'One or more revision IDs from which to add or remove the tag.' },
    logid: { type: 'integer', multi: true, help: 'One or more log entry IDs from which to add or remove the tag.' },
    add: { type: [], multi: true, help: 'Tags to add. Only manually defined tags can be added.' },
    remove: {
      type: 'string',
      multi: true,
      help: 'Tags to remove. Only tags that are either manually defined or completely undefined can be removed.',
    },
    reason: { type: 'string', default: '', help: 'Reason for the change.' },
  },
});
