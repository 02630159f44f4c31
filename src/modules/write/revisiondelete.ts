/** action=revisiondelete (ApiRevisionDelete of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const revisiondeleteModule = writeModule({
  name: 'revisiondelete',
  className: 'ApiRevisionDelete',
  description: 'Delete and undelete revisions.',
  needsToken: 'csrf',
  params: {
    type: {
      type: ['revision', 'archive', 'oldimage', 'filearchive', 'logging'],
      required: true,
      help: 'Type of revision deletion being performed.',
    },
    target: { type: 'string', help: 'Page title for the revision deletion, if required for the type.' },
    ids: { type: 'string', multi: true, required: true, help: 'Identifiers for the revisions to be deleted.' },
    hide: { type: ['content', 'comment', 'user'], multi: true, help: 'What to hide for each revision.' },
    show: { type: ['content', 'comment', 'user'], multi: true, help: 'What to unhide for each revision.' },
    suppress: {
      type: ['yes', 'no', 'nochange'],
      default: 'nochange',
      help: 'Whether to suppress data from administrators as well as others.',
    },
    reason: { type: 'string', help: 'Reason for the deletion or undeletion.' },
  },
});
