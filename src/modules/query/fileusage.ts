/** prop=fileusage (ApiQueryBacklinksprop of 1.25 over imagelinks): see backlinksprop-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { backlinkspropParams, runBacklinksprop } from './backlinksprop-shared.js';

export const fileusageModule: QueryModule = {
  kind: 'prop',
  name: 'fileusage',
  prefix: 'fu',
  generator: true,
  description: 'Find all pages that use the given files.',
  params: backlinkspropParams(false),
  examples: ['action=query&prop=fileusage&titles=File:Linux_logo.png', 'action=query&generator=fileusage&titles=File:Linux_logo.png&prop=info'],
  cacheMode: () => 'public',
  run: (ctx) => runBacklinksprop(ctx, { table: 'imagelinks', key: 'fileusage' }),
};
