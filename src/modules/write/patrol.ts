/** action=patrol (ApiPatrol of 1.25): refused on this read-only wiki, with its 1.25 parameters declared. */
import { writeModule } from './write-module.js';

export const patrolModule = writeModule({
  name: 'patrol',
  className: 'ApiPatrol',
  description: 'Patrol a page or revision.',
  needsToken: 'patrol',
  params: {
    rcid: { type: 'integer', help: 'Recentchanges ID to patrol.' },
    revid: { type: 'integer', help: 'Revision ID to patrol.' },
  },
});
