/** prop=redirects (ApiQueryBacklinksprop of 1.25 over redirect): see backlinksprop-shared.ts. */
import { defineBacklinkspropModule } from './backlinksprop-shared.js';

export const redirectsModule = defineBacklinkspropModule({
  name: 'redirects',
  prefix: 'rd',
  table: 'redirect',
  description: 'Returns all redirects to the given pages.',
  examples: ['action=query&prop=redirects&titles=Головна', 'action=query&generator=redirects&titles=Головна&prop=info'],
});
