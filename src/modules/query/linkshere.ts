/** prop=linkshere (ApiQueryBacklinksprop of 1.25 over pagelinks): see backlinksprop-shared.ts. */
import { defineBacklinkspropModule } from './backlinksprop-shared.js';

export const linkshereModule = defineBacklinkspropModule({
  name: 'linkshere',
  prefix: 'lh',
  table: 'pagelinks',
  description: 'Find all pages that link to the given pages.',
  examples: ['action=query&prop=linkshere&titles=Головна', 'action=query&generator=linkshere&titles=Головна&prop=info'],
});
