/** prop=linkshere (ApiQueryBacklinksprop of 1.25 over pagelinks): see backlinksprop-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { backlinkspropParams, runBacklinksprop } from './backlinksprop-shared.js';

export const linkshereModule: QueryModule = {
  kind: 'prop',
  name: 'linkshere',
  prefix: 'lh',
  generator: true,
  description: 'Find all pages that link to the given pages.',
  params: backlinkspropParams(false),
  examples: ['action=query&prop=linkshere&titles=Головна', 'action=query&generator=linkshere&titles=Головна&prop=info'],
  cacheMode: () => 'public',
  run: (ctx) => runBacklinksprop(ctx, { table: 'pagelinks', key: 'linkshere' }),
};
