/** prop=redirects (ApiQueryBacklinksprop of 1.25 over redirect): see backlinksprop-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { backlinkspropParams, runBacklinksprop } from './backlinksprop-shared.js';

export const redirectsModule: QueryModule = {
  kind: 'prop',
  name: 'redirects',
  prefix: 'rd',
  generator: true,
  description: 'Returns all redirects to the given pages.',
  params: backlinkspropParams(true),
  examples: ['action=query&prop=redirects&titles=Головна', 'action=query&generator=redirects&titles=Головна&prop=info'],
  cacheMode: () => 'public',
  run: (ctx) => runBacklinksprop(ctx, { table: 'redirect', key: 'redirects' }),
};
