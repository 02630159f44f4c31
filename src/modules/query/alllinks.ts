/** list=alllinks (ApiQueryAllLinks of 1.25 over pagelinks): see alllinks-shared.ts. */
import { defineAllLinksModule } from './alllinks-shared.js';

export const alllinksModule = defineAllLinksModule({
  name: 'alllinks',
  prefix: 'al',
  table: 'pagelinks',
  defaultNs: 0,
  what: 'link',
  extraProps: [],
  description: 'Enumerate all links that point to a given namespace.',
  examples: [
    'action=query&list=alllinks&alfrom=B&alprop=ids|title',
    'action=query&list=alllinks&alunique=&alfrom=B',
    'action=query&generator=alllinks&galunique=&galfrom=B',
  ],
});
