/** list=embeddedin (ApiQueryBacklinks of 1.25 over templatelinks, without the redirect option): see backlinks-shared.ts. */
import { defineBacklinksModule } from './backlinks-shared.js';

export const embeddedinModule = defineBacklinksModule({
  name: 'embeddedin',
  prefix: 'ei',
  table: 'templatelinks',
  withRedirect: false,
  description: 'Find all pages that embed (transclude) the given title.',
  examples: ['action=query&list=embeddedin&eititle=Шаблон:Stub', 'action=query&generator=embeddedin&geititle=Шаблон:Stub&prop=info'],
});
