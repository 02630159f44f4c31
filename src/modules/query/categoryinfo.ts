/**
 * prop=categoryinfo (ApiQueryCategoryInfo of 1.25): member counts of the category pages in the page set,
 * existing or not, from the category table; categories without a row get nothing. `cicontinue` (a
 * category DB key) restarts the list there, as MediaWiki does when its result is full.
 */
import { continueParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { compareBytes } from '../../wiki/collation.js';

export const categoryinfoModule = queryModule({
  kind: 'prop',
  name: 'categoryinfo',
  prefix: 'ci',
  description: 'Returns information about the given categories.',
  params: {
    continue: continueParam(),
  },
  examples: ['action=query&prop=categoryinfo&titles=Категорія:Міста|Категорія:Столиці'],
  async run(ctx) {
    const ids = new Map<string, number>();
    for (const t of ctx.pageSet.titlesInNamespace(NS_CATEGORY)) ids.set(t.dbkey, t.id);
    const from = ctx.params.continue as string | undefined;
    const titles = [...ids.keys()].filter((t) => from === undefined || compareBytes(t, from) >= 0);
    for (const row of await ctx.store.categories.byTitles(titles)) {
      const entry = ctx.pageSet.entry(ids.get(row.title)!);
      if (!entry) continue;
      entry.categoryinfo = {
        size: row.pages,
        pages: row.pages - row.subcats - row.files,
        files: row.files,
        subcats: row.subcats,
        hidden: row.hidden,
      };
    }
  },
});
