/**
 * list=pageswithprop (ApiQueryPagesWithProp of 1.25): the pages that have one page property, in page id
 * order; continuation is the next page id. As a generator it yields those pages.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { intval } from '../../api/params.js';
import { queryModule } from '../../api/types.js';
import { continueParts, generatePageRows, pageItem } from './shared.js';

export const pageswithpropModule = queryModule({
  kind: 'list',
  name: 'pageswithprop',
  prefix: 'pwp',
  generator: true,
  description: 'List all pages using a given page prop.',
  params: {
    propname: { type: 'string', required: true, help: 'Page prop for which to enumerate pages.' },
    prop: { type: ['ids', 'title', 'value'], multi: true, default: 'ids|title', help: 'Which pieces of information to include.' },
    continue: continueParam(),
    limit: limitParam(10, 'The maximum number of pages to return.'),
    dir: dirParam('In which direction to sort.'),
  },
  examples: [
    'action=query&list=pageswithprop&pwppropname=hiddencat&pwpprop=title|value',
    'action=query&generator=pageswithprop&gpwppropname=notoc&prop=info',
  ],
  async run(ctx) {
    const p = ctx.params;
    const prop = new Set(p.prop as string[]);
    const cont = continueParts(ctx, 1);
    const descending = p.dir === 'descending';
    const limit = p.limit as number;
    // PHP (int) of the continuation
    const rows = await ctx.store.relations.pagesWithProp({
      name: p.propname as string,
      fromId: cont ? intval(cont[0]) : undefined,
      descending,
      limit: limit + 1,
    });
    const generated: number[] = [];
    const list = ctx.generator ? null : ctx.result.queryList('pageswithprop');
    rows.forEach((row, i) => {
      if (i >= limit) return ctx.setContinue('continue', row.pageid);
      if (ctx.generator) return void generated.push(row.pageid);
      const item = pageItem(ctx, prop, row);
      if (prop.has('value')) item.value = row.value;
      list!.push(item);
    });
    if (ctx.generator) await generatePageRows(ctx, generated);
  },
});
