/**
 * list=allfileusages (ApiQueryAllLinks of 1.25 over imagelinks): every file link of the wiki in order of
 * the file name, then of the using page's id; red links (files that do not exist) included. As a
 * generator it yields the using pages (by page id; a page that uses several files of one batch appears
 * once, so a batch of 10 links may give fewer pages), or with `unique` the file pages. Its parameters
 * and range are ApiQueryAllLinks' (alllinks-shared.ts); its rows are read and printed its own way.
 */
import { limitParam, continueParam, dirParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import type { PageRef } from '../../store/page-store.js';
import { RowShape } from '../../api/result.js';
import { allLinksRange, refuseUniqueWith } from './alllinks-shared.js';

/** an item: the using page's id (afprop=ids), the file's title (afprop=title) */
const ITEM = new RowShape(['fromid', 'ns', 'title']);
/** the same, the title given as its prefixed DB key (printed as text) */
const ITEM_KEYS = new RowShape(ITEM.keys, undefined, ['title']);

/** afprop has no props beyond ids and title */
const NO_EXTRA_PROPS: readonly string[] = [];

export const allfileusagesModule = queryModule({
  kind: 'list',
  name: 'allfileusages',
  prefix: 'af',
  generator: true,
  description: 'List all file usages, including non-existing.',
  params: {
    continue: continueParam(),
    from: { type: 'string', help: 'The title of the file to start enumerating from.' },
    to: { type: 'string', help: 'The title of the file to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all file titles that begin with this value.' },
    unique: {
      type: 'boolean',
      default: false,
      help: 'Only show distinct file titles. Cannot be used with afprop=ids. When used as a generator, yields target pages instead of source pages.',
    },
    prop: {
      type: ['ids', 'title'],
      multi: true,
      default: 'title',
      help: 'Which pieces of information to include: ids (the page ID of the using page), title (the title of the file).',
    },
    limit: limitParam(10, 'How many total items to return.'),
    dir: dirParam('The direction in which to list.'),
  },
  examples: [
    'action=query&list=allfileusages&affrom=B&afprop=ids|title',
    'action=query&list=allfileusages&afunique=&affrom=B',
    'action=query&generator=allfileusages&gafunique=&gaffrom=B',
    'action=query&generator=allfileusages&gaffrom=B',
  ],
  async run(ctx) {
    const p = ctx.params;
    const prop = new Set(p.prop as string[]);
    const unique = p.unique as boolean;
    refuseUniqueWith(ctx, allfileusagesModule.prefix, NO_EXTRA_PROPS, prop, unique);
    const { descending, contTitle: contTarget, contFrom, from, to, prefix } = allLinksRange(ctx, NS_FILE, unique);
    const limit = p.limit as number;
    if (unique) {
      const list = ctx.generator ? null : ctx.result.queryRows('allfileusages', ITEM).values;
      const targets = await ctx.store.links.fileUsageTargets({ from, to, prefix, descending, limit: limit + 1, continueAt: contTarget });
      targets.forEach((target, i) => {
        if (i >= limit) return ctx.setContinue('continue', target);
        if (ctx.generator) ctx.generator.add({ ns: NS_FILE, dbkey: target });
        else list!.push(undefined, NS_FILE, ctx.wiki.titleText(NS_FILE, target));
      });
      return;
    }
    const usageRange = {
      from,
      to,
      prefix,
      descending,
      limit: limit + 1,
      continueAt: contTarget !== undefined ? { target: contTarget, from: contFrom } : undefined,
    };
    if (ctx.generator) {
      // the using pages come with the rows: the page set gets them in page id order, each once, as it
      // would have read them by id; a page id without a page is still looked up (and reported missing,
      // in the order of the rows)
      const rows = await ctx.store.links.fileUsagePages(usageRange, ctx.generator.fullRows);
      const pages = new Map<number, PageRef | null>();
      for (let i = 0; i < rows.from.length; i++) {
        const from = rows.from[i]!;
        // the row past the limit is the last one
        if (i >= limit) {
          ctx.setContinue('continue', `${rows.lastTarget}|${from}`);
          break;
        }
        if (!pages.has(from)) pages.set(from, rows.page[i]!);
      }
      const found: PageRef[] = [];
      for (const [pageid, page] of pages) {
        if (page) found.push(page);
        else ctx.generator.add({ pageid });
      }
      for (const page of found.sort((a, b) => a.pageid - b.pageid)) ctx.generator.add({ row: page });
      return;
    }
    const rows = await ctx.store.links.fileUsages(usageRange);
    const filePrefix = ctx.wiki.keyPrefix(NS_FILE);
    const list = ctx.result.queryRows('allfileusages', filePrefix === undefined ? ITEM : ITEM_KEYS).values;
    const ids = prop.has('ids');
    const title = prop.has('title');
    rows.forEach((row, i) => {
      if (i >= limit) return ctx.setContinue('continue', `${row.target}|${row.from}`);
      list.push(
        ids ? row.from : undefined,
        title ? NS_FILE : undefined,
        !title ? undefined : filePrefix === undefined ? ctx.wiki.titleText(NS_FILE, row.target) : filePrefix + row.target,
      );
    });
  },
});
