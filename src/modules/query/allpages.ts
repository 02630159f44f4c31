/** list=allpages (ApiQueryAllPages of 1.25): pages of one namespace in title order; also a generator. */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { titlePartOrDie } from './shared.js';

export const allpagesModule = queryModule({
  kind: 'list',
  name: 'allpages',
  prefix: 'ap',
  generator: true,
  description: 'Enumerate all pages sequentially in a given namespace.',
  params: {
    from: { type: 'string', help: 'The page title to start enumerating from.' },
    continue: continueParam(),
    to: { type: 'string', help: 'The page title to stop enumerating at.' },
    prefix: { type: 'string', help: 'Search for all page titles that begin with this value.' },
    namespace: namespaceParam('The namespace to enumerate.', { default: 0 }),
    filterredir: { type: ['all', 'redirects', 'nonredirects'], default: 'all', help: 'Which pages to list.' },
    minsize: { type: 'integer', help: 'Limit to pages with at least this many bytes.' },
    maxsize: { type: 'integer', help: 'Limit to pages with at most this many bytes.' },
    prtype: { type: ['edit', 'move', 'upload'], multi: true, help: 'Limit to protected pages only (no page is protected here).' },
    // $wgRestrictionLevels as it is, '' included
    prlevel: {
      type: ['', 'autoconfirmed', 'sysop'],
      multi: true,
      help: 'Filter protections based on protection level (must be used with apprtype= parameter).',
    },
    prfiltercascade: {
      type: ['cascading', 'noncascading', 'all'],
      default: 'all',
      help: 'Filter protections based on cascadingness (ignored when apprtype is not set).',
    },
    limit: limitParam(10, 'How many total pages to return.'),
    dir: dirParam('The direction in which to list.'),
    filterlanglinks: {
      type: ['withlanglinks', 'withoutlanglinks', 'all'],
      default: 'all',
      help: 'Filter based on whether a page has langlinks.',
    },
    prexpiry: {
      type: ['indefinite', 'definite', 'all'],
      default: 'all',
      help: 'Which protection expiry to filter the page on: indefinite, definite or all.',
    },
  },
  examples: ['action=query&list=allpages&apfrom=К', 'action=query&generator=allpages&gaplimit=4&gapfrom=К&prop=info'],
  async run(ctx) {
    const p = ctx.params;
    // ApiQueryAllPages.php:50-57 of 1.25: allpages as a generator refuses to have its redirects resolved
    if (ctx.generator?.resolvesRedirects)
      ctx.die('params', 'Use "gapfilterredir=nonredirects" option instead of "redirects" when using allpages as a generator');
    const ns = p.namespace as number;
    const descending = p.dir === 'descending';
    const from = p.continue !== undefined ? (p.continue as string) : titlePartOrDie(ctx, p.from, ns);
    const to = titlePartOrDie(ctx, p.to, ns);
    const prefix = titlePartOrDie(ctx, p.prefix, ns);
    // a dump carries no page_restrictions: a protection filter leaves nothing (ApiQueryAllPages::run)
    if ((p.prtype as string[] | undefined)?.length || p.prexpiry !== 'all') {
      if (!ctx.generator) ctx.result.queryList('allpages');
      return;
    }
    if (p.prlevel !== undefined) ctx.die('params', `prlevel may not be used without prtype`);
    const limit = p.limit as number;
    const rows = await ctx.store.pages.range({
      ns,
      from,
      to,
      prefix,
      redirects: p.filterredir,
      minSize: p.minsize,
      maxSize: p.maxsize,
      langLinks: p.filterlanglinks,
      descending,
      limit: limit + 1,
    });
    const out = ctx.generator ? null : ctx.result.queryList('allpages');
    rows.forEach((r, i) => {
      if (i === limit) ctx.setContinue('continue', r.title);
      else if (ctx.generator) ctx.generator.add({ row: r });
      else out!.push({ pageid: r.pageid, ns: r.ns, title: ctx.wiki.titleText(r.ns, r.title) });
    });
  },
});
