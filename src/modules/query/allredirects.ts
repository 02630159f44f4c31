/** list=allredirects (ApiQueryAllLinks of 1.25 over redirect): see alllinks-shared.ts. */
import { defineAllLinksModule } from './alllinks-shared.js';

export const allredirectsModule = defineAllLinksModule({
  name: 'allredirects',
  prefix: 'ar',
  table: 'redirect',
  defaultNs: 0,
  what: 'redirected',
  extraProps: ['fragment', 'interwiki'],
  description: 'List all redirects to a namespace.',
  examples: [
    'action=query&list=allredirects&arfrom=B&arprop=ids|title',
    'action=query&list=allredirects&arunique=&arfrom=B',
    'action=query&generator=allredirects&garunique=&garfrom=B',
  ],
});
