/** prop=categories (ApiQueryCategories of 1.25): the categories of each page; continuation `<page id>|<category>`. */
import { limitParam, continueParam, dirParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { dieBadContinue, sortkeyHex } from './shared.js';

export const categoriesModule = queryModule({
  kind: 'prop',
  name: 'categories',
  prefix: 'cl',
  generator: true,
  description: 'List all categories the pages belong to.',
  params: {
    prop: { type: ['sortkey', 'timestamp', 'hidden'], multi: true, help: 'Which additional properties to get for each category.' },
    show: { type: ['hidden', '!hidden'], multi: true, help: 'Which kind of categories to show.' },
    limit: limitParam(10, 'How many categories to return.'),
    continue: continueParam(),
    categories: {
      type: 'string',
      multi: true,
      help: 'Only list these categories. Useful for checking whether a certain page is in a certain category.',
    },
    dir: dirParam('The direction in which to list.'),
  },
  examples: ['action=query&prop=categories&titles=Київ'],
  async run(ctx) {
    const p = ctx.params;
    const show = new Set((p.show as string[] | undefined) ?? []);
    if (show.has('hidden') && show.has('!hidden')) ctx.die('show', 'Incorrect parameter - mutually exclusive values may not be supplied');
    const props = new Set((p.prop as string[] | undefined) ?? []);
    const descending = p.dir === 'descending';
    // ApiQueryCategories.php:72-81 of 1.25: each value is a title of its own (main namespace by default); one
    // that is not a category is warned about and dropped, and when none is left every category is listed
    let only: Set<string> | null = null;
    if (p.categories) {
      only = new Set();
      for (const c of p.categories as string[]) {
        const t = ctx.wiki.codec.parse(c, 0);
        if (t === null || t.ns !== NS_CATEGORY) ctx.warn(`"${c}" is not a category`);
        else only.add(t.dbkey);
      }
      if (only.size === 0) only = null;
    }
    const pages = ctx.pageSet.good.map((pg) => pg.pageid);
    let start: { pageid: number; to: string } | undefined;
    if (p.continue !== undefined) {
      const m = /^(\d+)\|(.*)$/s.exec(p.continue);
      if (!m) dieBadContinue(ctx);
      start = { pageid: Number(m![1]), to: m![2] };
    }
    const limit = p.limit as number;
    // one store call for the whole page set (ApiQueryCategories: cl_from IN (…) ORDER BY cl_from, cl_to)
    const rows = await ctx.store.categoryLinks.categoriesOf({
      pageids: pages,
      start,
      only: only ? [...only] : undefined,
      hidden: show.has('hidden') ? true : show.has('!hidden') ? false : undefined,
      descending,
      limit: limit + 1,
    });
    let count = 0;
    for (const r of rows) {
      if (++count > limit) {
        ctx.setContinue('continue', `${r.from}|${r.to}`);
        return;
      }
      if (ctx.generator) {
        ctx.generator.add({ ns: NS_CATEGORY, dbkey: r.to });
        continue;
      }
      const item: Record<string, unknown> = { ns: NS_CATEGORY, title: ctx.wiki.titleText(NS_CATEGORY, r.to) };
      if (props.has('sortkey')) {
        item.sortkey = sortkeyHex(r.sortkey);
        item.sortkeyprefix = r.sortkeyPrefix;
      }
      if (props.has('timestamp')) item.timestamp = mwToIso(r.timestamp);
      if (props.has('hidden') && r.hidden) item.hidden = true;
      const entry = ctx.pageSet.entry(r.from)!;
      ((entry.categories ??= []) as unknown[]).push(item);
    }
  },
});
