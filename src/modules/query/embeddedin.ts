/** list=embeddedin (ApiQueryBacklinks of 1.25 over templatelinks, without the redirect option): see backlinks-shared.ts. */
import type { QueryModule } from '../../api/types.js';
import { backlinksParams, runBacklinks } from './backlinks-shared.js';

export const embeddedinModule: QueryModule = {
  kind: 'list',
  name: 'embeddedin',
  prefix: 'ei',
  generator: true,
  description: 'Find all pages that embed (transclude) the given title.',
  params: backlinksParams('ei', false),
  examples: ['action=query&list=embeddedin&eititle=Шаблон:Stub', 'action=query&generator=embeddedin&geititle=Шаблон:Stub&prop=info'],
  cacheMode: () => 'public',
  run: (ctx) => runBacklinks(ctx, { table: 'templatelinks', module: 'embeddedin' }),
};
