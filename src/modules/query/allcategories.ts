/**
 * list=allcategories (ApiQueryAllCategories of 1.25): the rows of the category table in byte order of
 * their titles, so categories that have members but no page are listed too. Also a generator (the
 * category pages, ns 14).
 *
 * Invalid from/to/prefix text: ApiQueryBase::titlePartToKey calls dieUsageMsg('invalidtitle'), and in
 * 1.25 dieUsageMsg hands the code to dieUsage, which passes it through encodeParamName -- so the code
 * carries the module prefix like every other module error: `acinvalidtitle` (`gacinvalidtitle` as a
 * generator), info `Bad title "<text as sent>"`.
 */
import { limitParam, continueParam, dirParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { RowShape } from '../../api/result.js';
import { NS_CATEGORY } from '../../wiki/namespaces.js';
import { continueParts, titlePartOrDie } from './shared.js';

/** an item: the title (fv1's content member, its DB key printed as text), then the counts (acprop=size) and the hidden flag */
const ITEM = new RowShape(['category', 'size', 'pages', 'files', 'subcats', 'hidden'], 'category', ['category']);

export const allcategoriesModule = queryModule({
  kind: 'list',
  name: 'allcategories',
  prefix: 'ac',
  generator: true,
  description: 'Enumerate all categories.',
  params: {
    from: { type: 'string', help: 'The category to start enumerating from.' },
    continue: continueParam(),
    to: { type: 'string', help: 'The category to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all category titles that begin with this value.' },
    dir: dirParam('Direction to sort in.'),
    min: { type: 'integer', help: 'Only return categories with at least this many members.' },
    max: { type: 'integer', help: 'Only return categories with at most this many members.' },
    limit: limitParam(10, 'How many categories to return.'),
    prop: {
      type: ['size', 'hidden'],
      multi: true,
      default: '',
      help: 'Which properties to get: size (number of pages, files and subcategories), hidden (categories hidden with __HIDDENCAT__).',
    },
  },
  examples: ['action=query&list=allcategories&acprop=size', 'action=query&generator=allcategories&gacprefix=List&prop=info'],
  async run(ctx) {
    const p = ctx.params;
    const descending = p.dir === 'descending';
    const continueFrom = continueParts(ctx, 1)?.[0];
    const from = titlePartOrDie(ctx, p.from, NS_CATEGORY);
    const to = titlePartOrDie(ctx, p.to, NS_CATEGORY);
    const prefix = titlePartOrDie(ctx, p.prefix, NS_CATEGORY);
    const prop = new Set(p.prop as string[]);
    const limit = p.limit as number;
    const rows = await ctx.store.categories.list({
      descending,
      from,
      to,
      prefix,
      continueFrom,
      min: p.min,
      max: p.max,
      hidden: prop.has('hidden'),
      limit: limit + 1,
    });
    const list = ctx.generator ? null : ctx.result.queryRows('allcategories', ITEM).values;
    const size = prop.has('size');
    const hidden = prop.has('hidden');
    let count = 0;
    for (const row of rows) {
      if (++count > limit) {
        ctx.setContinue('continue', row.title);
        break;
      }
      if (ctx.generator) {
        ctx.generator.add({ ns: NS_CATEGORY, dbkey: row.title });
        continue;
      }
      const title = row.title;
      if (size) list!.push(title, row.pages, row.pages - row.subcats - row.files, row.files, row.subcats, hidden ? row.hidden : undefined);
      else list!.push(title, undefined, undefined, undefined, undefined, hidden ? row.hidden : undefined);
    }
  },
});
