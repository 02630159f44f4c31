/** list=alltransclusions (ApiQueryAllLinks of 1.25 over templatelinks): see alllinks-shared.ts. */
import { defineAllLinksModule } from './alllinks-shared.js';

export const alltransclusionsModule = defineAllLinksModule({
  name: 'alltransclusions',
  prefix: 'at',
  table: 'templatelinks',
  defaultNs: 10,
  what: 'transcluded',
  extraProps: [],
  description: 'List all transclusions (pages embedded using {{x}}), including non-existing.',
  examples: [
    'action=query&list=alltransclusions&atfrom=B&atprop=ids|title',
    'action=query&list=alltransclusions&atunique=&atfrom=B',
    'action=query&generator=alltransclusions&gatunique=&gatfrom=B',
  ],
});
