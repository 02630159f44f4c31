/** action=clearhasmsg (ApiClearHasMsg of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const clearhasmsgModule = writeModule({
  name: 'clearhasmsg',
  className: 'ApiClearHasMsg',
  description: 'Clears the hasmsg flag for the current user.',
  mustBePosted: false,
  params: {},
});
