/** prop=links (ApiQueryLinks of 1.25 over pagelinks): see links-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { linksParams, runLinks } from './links-shared.js';

export const linksModule: QueryModule = {
  kind: 'prop',
  name: 'links',
  prefix: 'pl',
  generator: true,
  description: 'Returns all links from the given pages.',
  params: linksParams('titles', 'links'),
  examples: ['action=query&prop=links&titles=Головна', 'action=query&generator=links&titles=Головна&prop=info', 'action=query&prop=links&titles=Головна&plnamespace=2|10'],
  cacheMode: () => 'public',
  run: (ctx) => runLinks(ctx, { table: 'pagelinks', key: 'links', titlesParam: 'titles' }),
};
