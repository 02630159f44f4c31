/** list=pagepropnames (ApiQueryPagePropNames of 1.25): the page property names in use, in byte order; continuation is the next name. */
import { continueParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { continueParts } from './shared.js';

export const pagepropnamesModule = queryModule({
  kind: 'list',
  name: 'pagepropnames',
  prefix: 'ppn',
  description: 'List all page prop names in use on the wiki.',
  params: {
    continue: continueParam(),
    limit: limitParam(10, 'The maximum number of names to return.'),
  },
  examples: ['action=query&list=pagepropnames'],
  async run(ctx) {
    const cont = continueParts(ctx, 1);
    const limit = ctx.params.limit as number;
    const names = await ctx.store.relations.propNames({ from: cont?.[0], limit: limit + 1 });
    const list = ctx.result.queryList('pagepropnames');
    names.forEach((name, i) => {
      if (i >= limit) return ctx.setContinue('continue', name);
      list.push({ propname: name });
    });
  },
});
