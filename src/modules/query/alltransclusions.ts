/** list=alltransclusions (ApiQueryAllLinks of 1.25 over templatelinks): see alllinks-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { allLinksParams, runAllLinks, type AllLinksSpec } from './alllinks-shared.js';

const spec: AllLinksSpec = { module: 'alltransclusions', prefix: 'at', table: 'templatelinks', defaultNs: 10, what: 'transcluded', extraProps: [] };

export const alltransclusionsModule: QueryModule = {
  kind: 'list',
  name: 'alltransclusions',
  prefix: 'at',
  generator: true,
  description: 'List all transclusions (pages embedded using {{x}}), including non-existing.',
  params: allLinksParams(spec),
  examples: ['action=query&list=alltransclusions&atfrom=B&atprop=ids|title', 'action=query&list=alltransclusions&atunique=&atfrom=B', 'action=query&generator=alltransclusions&gatunique=&gatfrom=B'],
  cacheMode: () => 'public',
  run: (ctx) => runAllLinks(ctx, spec),
};
