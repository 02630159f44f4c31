/** prop=templates (ApiQueryLinks of 1.25 over templatelinks): see links-shared.ts. */
import { defineLinksModule } from './links-shared.js';

export const templatesModule = defineLinksModule({
  name: 'templates',
  prefix: 'tl',
  table: 'templatelinks',
  titlesParam: 'templates',
  description: 'Returns all pages transcluded on the given pages.',
  examples: [
    'action=query&prop=templates&titles=Головна',
    'action=query&generator=templates&titles=Головна&prop=info',
    'action=query&prop=templates&titles=Головна&tlnamespace=3|0',
  ],
});
