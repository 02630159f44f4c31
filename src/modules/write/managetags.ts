/** action=managetags (ApiManageTags of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const managetagsModule = writeModule({
  name: 'managetags',
  className: 'ApiManageTags',
  description: 'Perform management tasks relating to change tags.',
  needsToken: 'csrf',
  params: {
    operation: { type: ['create', 'delete', 'activate', 'deactivate'], required: true, help: 'Which operation to perform.' },
    tag: { type: 'string', required: true, help: 'Tag to create, delete, activate or deactivate.' },
    reason: { type: 'string', help: 'An optional reason for creating, deleting, activating or deactivating the tag.' },
    ignorewarnings: { type: 'boolean', default: false, help: 'Whether to ignore any warnings that are issued during the operation.' },
  },
});
