/** prop=templates (ApiQueryLinks of 1.25 over templatelinks): see links-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { linksParams, runLinks } from './links-shared.js';

export const templatesModule: QueryModule = {
  kind: 'prop',
  name: 'templates',
  prefix: 'tl',
  generator: true,
  description: 'Returns all pages transcluded on the given pages.',
  params: linksParams('templates', 'templates'),
  examples: ['action=query&prop=templates&titles=Головна', 'action=query&generator=templates&titles=Головна&prop=info', 'action=query&prop=templates&titles=Головна&tlnamespace=3|0'],
  cacheMode: () => 'public',
  run: (ctx) => runLinks(ctx, { table: 'templatelinks', key: 'templates', titlesParam: 'templates' }),
};
