/** action=upload (ApiUpload of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const uploadModule = writeModule({
  name: 'upload',
  className: 'ApiUpload',
  description: 'Upload a file, or get the status of pending uploads.',
  needsToken: 'csrf',
  params: {
    filename: { type: 'string', help: 'Target filename.' },
    comment: {
      type: 'string',
      default: '',
      help: 'Upload comment. Also used as the initial page text for new files if text is not specified.',
    },
    text: { type: 'string', help: 'Initial page text for new files.' },
    watch: { type: 'boolean', default: false, deprecated: true, help: 'Watch the page.' },
    watchlist: {
      type: ['watch', 'preferences', 'nochange'],
      default: 'preferences',
      help: "Unconditionally add or remove the page from the current user's watchlist, use preferences or do not change watch.",
    },
    ignorewarnings: { type: 'boolean', default: false, help: 'Ignore any warnings.' },
    file: { type: 'upload', help: 'File contents.' },
    url: { type: 'string', help: 'URL to fetch the file from.' },
    filekey: { type: 'string', help: 'Key that identifies a previous upload that was stashed temporarily.' },
    sessionkey: { type: 'string', deprecated: true, help: 'Same as filekey, maintained for backward compatibility.' },
    stash: {
      type: 'boolean',
      default: false,
      help: 'If set, the server will stash the file temporarily instead of adding it to the repository.',
    },
    filesize: { type: 'integer', min: 0, max: 104857600, help: 'Filesize of entire upload.' },
    offset: { type: 'integer', min: 0, help: 'Offset of chunk in bytes.' },
    chunk: { type: 'upload', help: 'Chunk contents.' },
    async: { type: 'boolean', default: false, help: 'Make potentially large file operations asynchronous when possible.' },
    asyncdownload: { type: 'boolean', default: false, help: 'Make fetching a URL asynchronous.' },
    leavemessage: { type: 'boolean', default: false, help: 'If asyncdownload is used, leave a message on the user talk page if finished.' },
    statuskey: { type: 'string', help: 'Fetch the upload status for this file key (upload by URL).' },
    checkstatus: { type: 'boolean', default: false, help: 'Only fetch the upload status for the given file key.' },
  },
});
