/**
 * prop=pageprops (ApiQueryPageProps of 1.25): the page_props of each existing page of the set, as one
 * object per page (name → value, in name order); `ppprop` keeps only the listed names. `ppcontinue` (a
 * page id, written exactly as PHP writes an int) only when the answer would be too big.
 */
import { continueParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { dieBadContinue } from './shared.js';

export const pagepropsModule = queryModule({
  kind: 'prop',
  name: 'pageprops',
  prefix: 'pp',
  description: 'Get various properties defined in the page content.',
  params: {
    continue: continueParam(),
    prop: {
      type: 'string',
      multi: true,
      help: 'Only list these props. Useful for checking whether a certain page uses a certain page prop.',
    },
  },
  examples: ['action=query&prop=pageprops&titles=Категорія:Статті без джерел|Київ'],
  async run(ctx) {
    let ids = [...new Set(ctx.pageSet.good.map((g) => g.pageid))];
    const cont = ctx.params.continue as string | undefined;
    if (cont !== undefined) {
      const n = Number.parseInt(cont, 10);
      if (String(n) !== cont) dieBadContinue(ctx);
      ids = ids.filter((id) => id >= n);
    }
    if (ids.length === 0) return;
    const names = ctx.params.prop as string[] | undefined;
    const byPage = new Map<number, Record<string, string>>();
    for (const row of await ctx.store.relations.propsOf({ pageids: ids, names: names?.length ? names : undefined })) {
      let props = byPage.get(row.page);
      if (!props) byPage.set(row.page, (props = {}));
      props[row.name] = row.value;
    }
    for (const [page, props] of byPage) {
      const entry = ctx.pageSet.entry(page);
      if (entry) entry.pageprops = props;
    }
  },
});
