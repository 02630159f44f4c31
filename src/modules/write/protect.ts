/** action=protect (ApiProtect of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule, WATCHLIST_PARAM } from './write-module.js';

export const protectModule = writeModule({
  name: 'protect',
  className: 'ApiProtect',
  description: 'Change the protection level of a page.',
  needsToken: 'csrf',
  params: {
    title: { type: 'string', help: 'Title of the page to (un)protect. Cannot be used together with pageid.' },
    pageid: { type: 'integer', help: 'ID of the page to (un)protect. Cannot be used together with title.' },
    protections: {
      type: 'string',
      multi: true,
      required: true,
      help: 'List of protection levels, formatted action=level (e.g. edit=sysop).',
    },
    expiry: { type: 'string', default: 'infinite', multi: true, allowDuplicates: true, help: 'Expiry timestamps.' },
    reason: { type: 'string', default: '', help: 'Reason for (un)protecting.' },
    cascade: { type: 'boolean', default: false, help: 'Enable cascading protection.' },
    watch: {
      type: 'boolean',
      default: false,
      deprecated: true,
      help: "If set, add the page being (un)protected to the current user's watchlist.",
    },
    watchlist: WATCHLIST_PARAM,
  },
});
