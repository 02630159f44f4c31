/** prop=transcludedin (ApiQueryBacklinksprop of 1.25 over templatelinks): see backlinksprop-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { backlinkspropParams, runBacklinksprop } from './backlinksprop-shared.js';

export const transcludedinModule: QueryModule = {
  kind: 'prop',
  name: 'transcludedin',
  prefix: 'ti',
  generator: true,
  description: 'Find all pages that transclude the given pages.',
  params: backlinkspropParams(false),
  examples: ['action=query&prop=transcludedin&titles=Головна', 'action=query&generator=transcludedin&titles=Головна&prop=info'],
  cacheMode: () => 'public',
  run: (ctx) => runBacklinksprop(ctx, { table: 'templatelinks', key: 'transcludedin' }),
};
