/** action=delete (ApiDelete of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule, WATCHLIST_PARAM } from './write-module.js';

export const deleteModule = writeModule({
  name: 'delete',
  className: 'ApiDelete',
  description: 'Delete a page.',
  needsToken: 'csrf',
  params: {
    title: { type: 'string', help: 'Title of the page to delete. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'Page ID of the page to delete. Cannot be used together with title.' },
    reason: { type: 'string', help: 'Reason for the deletion. If not set, an automatically generated reason will be used.' },
    watch: { type: 'boolean', default: false, deprecated: true, help: "Add the page to the current user's watchlist." },
    watchlist: WATCHLIST_PARAM,
    unwatch: { type: 'boolean', default: false, deprecated: true, help: "Remove the page from the current user's watchlist." },
    oldimage: {
      type: 'string',
      help: 'The name of the old image to delete as provided by action=query&prop=imageinfo&iiprop=archivename.',
    },
  },
});
