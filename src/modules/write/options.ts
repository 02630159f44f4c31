/** action=options (ApiOptions of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const optionsModule = writeModule({
  name: 'options',
  className: 'ApiOptions',
  description: 'Change preferences of the current user.',
  needsToken: 'csrf',
  params: {
    reset: { type: 'boolean', default: false, help: 'Resets preferences to the site defaults.' },
    resetkinds: {
      type: ['registered', 'registered-multiselect', 'registered-checkmatrix', 'userjs', 'special', 'unused', 'all'],
      default: 'all',
      multi: true,
      help: 'List of types of options to reset when the reset option is set.',
    },
    change: { type: 'string', multi: true, help: 'List of changes, formatted name=value (e.g. skin=vector).' },
    optionname: { type: 'string', help: 'A name of a option which should have an optionvalue set.' },
    optionvalue: { type: 'string', help: 'A value of the option specified by optionname, can contain pipe characters.' },
  },
});
