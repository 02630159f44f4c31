/**
 * prop=categoryinfo (ApiQueryCategoryInfo of 1.25): for the category titles of the page set -- existing
 * pages or not -- the member counts of the category table: size (all members), pages, files, subcats,
 * and `hidden` when the category page has __HIDDENCAT__. A category without a row (no members ever)
 * gets nothing. Continuation (`cicontinue`, a category DB key) only when the answer would be too big.
 */
import type { QueryModule } from '../../api/types.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { compareBytes } from '../../api/pageset.js';

export const categoryinfoModule: QueryModule = {
  kind: 'prop',
  name: 'categoryinfo',
  prefix: 'ci',
  description: 'Returns information about the given categories.',
  params: {
    continue: { type: 'string', help: 'When more results are available, use this to continue.' },
  },
  examples: ['action=query&prop=categoryinfo&titles=Категорія:Міста|Категорія:Річки'],
  cacheMode: () => 'public',
  async run(ctx) {
    const ids = new Map<string, number>();
    for (const t of ctx.pageSet.titlesInNamespace(NS_CATEGORY)) if (!ids.has(t.dbkey)) ids.set(t.dbkey, t.id);
    if (ids.size === 0) return;
    const cont = ctx.params.continue as string | undefined;
    const titles = [...ids.keys()].filter((t) => cont === undefined || compareBytes(t, cont) >= 0);
    for (const row of await ctx.store.relations.categoryInfo(titles)) {
      const entry = ctx.pageSet.entry(ids.get(row.title)!);
      if (!entry) continue;
      const info: Record<string, unknown> = { size: row.pages, pages: row.pages - row.subcats - row.files, files: row.files, subcats: row.subcats };
      if (row.hidden) info.hidden = true;
      entry.categoryinfo = info;
    }
  },
};
