/** action=purge (ApiPurge of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';
import { PAGESET_PARAMS } from '../../api/query.js';

export const purgeModule = writeModule({
  name: 'purge',
  className: 'ApiPurge',
  description: 'Purge the cache for the given titles. Requires a POST request if the user is not logged in.',
  params: Object.assign(
    {
      forcelinkupdate: { type: 'boolean', default: false, help: 'Update the links tables.' },
      forcerecursivelinkupdate: {
        type: 'boolean',
        default: false,
        help: 'Update the links table, and update the links tables for any page that uses this page as a template.',
      },
      continue: { type: 'string', help: 'When more results are available, use this to continue.' },
    },
    PAGESET_PARAMS,
  ),
});
