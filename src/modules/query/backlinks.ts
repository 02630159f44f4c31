/** list=backlinks (ApiQueryBacklinks of 1.25 over pagelinks): see backlinks-shared.ts. */
import { defineBacklinksModule } from './backlinks-shared.js';

export const backlinksModule = defineBacklinksModule({
  name: 'backlinks',
  prefix: 'bl',
  table: 'pagelinks',
  withRedirect: true,
  description: 'Find all pages that link to the given page.',
  examples: ['action=query&list=backlinks&bltitle=Головна', 'action=query&generator=backlinks&gbltitle=Головна&prop=info'],
});
