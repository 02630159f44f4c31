/** action=filerevert (ApiFileRevert of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const filerevertModule = writeModule({
  name: 'filerevert',
  className: 'ApiFileRevert',
  description: 'Revert a file to an old version.',
  needsToken: 'csrf',
  params: {
    filename: { type: 'string', required: true, help: 'Target filename, without the File: prefix.' },
    comment: { type: 'string', default: '', help: 'Upload comment.' },
    archivename: { type: 'string', required: true, help: 'Archive name of the revision to revert to.' },
  },
});
