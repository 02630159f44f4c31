/** action=userrights (ApiUserrights of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule, TOKEN_IN_PLACE } from './write-module.js';
import { EXPLICIT_GROUPS } from '../../wiki/user-groups.js';

export const userrightsModule = writeModule({
  name: 'userrights',
  className: 'ApiUserrights',
  description: "Change a user's group membership.",
  needsToken: 'userrights',
  params: {
    user: { type: 'string', help: 'User name.' },
    userid: { type: 'integer', help: 'User ID.' },
    add: { type: EXPLICIT_GROUPS, multi: true, help: 'Add the user to these groups.' },
    remove: { type: EXPLICIT_GROUPS, multi: true, help: 'Remove the user from these groups.' },
    reason: { type: 'string', default: '', help: 'Reason for the change.' },
    token: TOKEN_IN_PLACE,
  },
});
