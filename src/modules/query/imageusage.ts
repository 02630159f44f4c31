/** list=imageusage (ApiQueryBacklinks of 1.25 in its imageusage mode, over imagelinks): see backlinks-shared.ts. */
import { defineBacklinksModule } from './backlinks-shared.js';

export const imageusageModule = defineBacklinksModule({
  name: 'imageusage',
  prefix: 'iu',
  table: 'imagelinks',
  withRedirect: true,
  description: 'Find all pages that use the given image title.',
  examples: [
    'action=query&list=imageusage&iutitle=File:Linux_logo.png',
    'action=query&generator=imageusage&giutitle=File:Linux_logo.png&prop=info',
  ],
});
