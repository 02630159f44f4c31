/** action=emailuser (ApiEmailUser of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const emailuserModule = writeModule({
  name: 'emailuser',
  className: 'ApiEmailUser',
  description: 'Email a user.',
  needsToken: 'csrf',
  params: {
    target: { type: 'string', required: true, help: 'User to send email to.' },
    subject: { type: 'string', help: 'Subject header.' },
    text: { type: 'string', required: true, help: 'Mail body.' },
    ccme: { type: 'boolean', default: false, help: 'Send a copy of this mail to me.' },
  },
});
