/** list=alllinks (ApiQueryAllLinks of 1.25 over pagelinks): see alllinks-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { allLinksParams, runAllLinks, type AllLinksSpec } from './alllinks-shared.js';

const spec: AllLinksSpec = { module: 'alllinks', prefix: 'al', table: 'pagelinks', defaultNs: 0, what: 'link', extraProps: [] };

export const alllinksModule: QueryModule = {
  kind: 'list',
  name: 'alllinks',
  prefix: 'al',
  generator: true,
  description: 'Enumerate all links that point to a given namespace.',
  params: allLinksParams(spec),
  examples: ['action=query&list=alllinks&alfrom=B&alprop=ids|title', 'action=query&list=alllinks&alunique=&alfrom=B', 'action=query&generator=alllinks&galunique=&galfrom=B'],
  cacheMode: () => 'public',
  run: (ctx) => runAllLinks(ctx, spec),
};
