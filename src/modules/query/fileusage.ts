/** prop=fileusage (ApiQueryBacklinksprop of 1.25 over imagelinks): see backlinksprop-shared.ts. */
import { defineBacklinkspropModule } from './backlinksprop-shared.js';

export const fileusageModule = defineBacklinkspropModule({
  name: 'fileusage',
  prefix: 'fu',
  table: 'imagelinks',
  description: 'Find all pages that use the given files.',
  examples: [
    'action=query&prop=fileusage&titles=File:Linux_logo.png',
    'action=query&generator=fileusage&titles=File:Linux_logo.png&prop=info',
  ],
});
