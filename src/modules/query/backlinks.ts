/** list=backlinks (ApiQueryBacklinks of 1.25 over pagelinks): see backlinks-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { backlinksParams, runBacklinks } from './backlinks-shared.js';

export const backlinksModule: QueryModule = {
  kind: 'list',
  name: 'backlinks',
  prefix: 'bl',
  generator: true,
  description: 'Find all pages that link to the given page.',
  params: backlinksParams('bl', true),
  examples: ['action=query&list=backlinks&bltitle=Головна', 'action=query&generator=backlinks&gbltitle=Головна&prop=info'],
  cacheMode: () => 'public',
  run: (ctx) => runBacklinks(ctx, { table: 'pagelinks', module: 'backlinks' }),
};
