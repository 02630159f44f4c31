/** list=allredirects (ApiQueryAllLinks of 1.25 over redirect): see alllinks-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { allLinksParams, runAllLinks, type AllLinksSpec } from './alllinks-shared.js';

const spec: AllLinksSpec = { module: 'allredirects', prefix: 'ar', table: 'redirect', defaultNs: 0, what: 'redirected', extraProps: ['fragment', 'interwiki'] };

export const allredirectsModule: QueryModule = {
  kind: 'list',
  name: 'allredirects',
  prefix: 'ar',
  generator: true,
  description: 'List all redirects to a namespace.',
  params: allLinksParams(spec),
  examples: ['action=query&list=allredirects&arfrom=B&arprop=ids|title', 'action=query&list=allredirects&arunique=&arfrom=B', 'action=query&generator=allredirects&garunique=&garfrom=B'],
  cacheMode: () => 'public',
  run: (ctx) => runAllLinks(ctx, spec),
};
