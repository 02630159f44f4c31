/** action=unblock (ApiUnblock of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const unblockModule = writeModule({
  name: 'unblock',
  className: 'ApiUnblock',
  description: 'Unblock a user.',
  needsToken: 'csrf',
  params: {
    id: { type: 'integer', help: 'ID of the block to unblock (obtained through list=blocks). Cannot be used together with user.' },
    user: { type: 'string', help: 'Username, IP address or IP range to unblock. Cannot be used together with id.' },
    reason: { type: 'string', default: '', help: 'Reason for unblock.' },
  },
});
