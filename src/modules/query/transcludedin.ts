/** prop=transcludedin (ApiQueryBacklinksprop of 1.25 over templatelinks): see backlinksprop-shared.ts. */
import { defineBacklinkspropModule } from './backlinksprop-shared.js';

export const transcludedinModule = defineBacklinkspropModule({
  name: 'transcludedin',
  prefix: 'ti',
  table: 'templatelinks',
  description: 'Find all pages that transclude the given pages.',
  examples: ['action=query&prop=transcludedin&titles=Головна', 'action=query&generator=transcludedin&titles=Головна&prop=info'],
});
