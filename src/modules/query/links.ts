/** prop=links (ApiQueryLinks of 1.25 over pagelinks): see links-shared.ts. */
import { defineLinksModule } from './links-shared.js';

export const linksModule = defineLinksModule({
  name: 'links',
  prefix: 'pl',
  table: 'pagelinks',
  titlesParam: 'titles',
  description: 'Returns all links from the given pages.',
  examples: [
    'action=query&prop=links&titles=Головна',
    'action=query&generator=links&titles=Головна&prop=info',
    'action=query&prop=links&titles=Головна&plnamespace=2|10',
  ],
});
