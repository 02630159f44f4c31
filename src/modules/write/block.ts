/** action=block (ApiBlock of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const blockModule = writeModule({
  name: 'block',
  className: 'ApiBlock',
  description: 'Block a user.',
  needsToken: 'csrf',
  params: {
    user: { type: 'string', required: true, help: 'Username, IP address or IP range to block.' },
    expiry: { type: 'string', default: 'never', help: 'Expiry time.' },
    reason: { type: 'string', default: '', help: 'Reason for block.' },
    anononly: { type: 'boolean', default: false, help: 'Block anonymous users only.' },
    nocreate: { type: 'boolean', default: false, help: 'Prevent account creation.' },
    autoblock: {
      type: 'boolean',
      default: false,
      help: 'Automatically block the last used IP address, and any subsequent IP addresses they try to login from.',
    },
    noemail: { type: 'boolean', default: false, help: 'Prevent user from sending email through the wiki.' },
    hidename: { type: 'boolean', default: false, help: 'Hide the username from the block log.' },
    allowusertalk: { type: 'boolean', default: false, help: 'Allow the user to edit their own talk page.' },
    reblock: { type: 'boolean', default: false, help: 'If the user is already blocked, overwrite the existing block.' },
    watchuser: { type: 'boolean', default: false, help: "Watch the user's or IP address's user and talk pages." },
  },
});
