/** action=createaccount (ApiCreateAccount of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const createaccountModule = writeModule({
  name: 'createaccount',
  className: 'ApiCreateAccount',
  description: 'Create a new user account.',
  readRights: false,
  params: {
    name: { type: 'user', required: true, help: 'Username.' },
    password: { type: 'string', help: 'Password (ignored if mailpassword is set).' },
    domain: { type: 'string', help: 'Domain for external authentication (optional).' },
    token: { type: 'string', help: 'Account creation token obtained in first request.' },
    email: { type: 'string', help: 'Email address of user (optional).' },
    realname: { type: 'string', help: 'Real name of user (optional).' },
    mailpassword: { type: 'boolean', default: false, help: 'If set to any value, a random password will be emailed to the user.' },
    reason: { type: 'string', help: 'Optional reason for creating the account to be put in the logs.' },
    language: { type: 'string', help: 'Language code to set as default for the user (optional, defaults to content language).' },
  },
});
