/**
 * prop=iwlinks (ApiQueryIWLinks of 1.25): the interwiki links of each page, in (page, prefix, title)
 * order; continuation `<page id>|<prefix>|<title>`. `iwprefix` (with `iwtitle`) filters; `iwprop=url`
 * (or the deprecated `iwurl`) gives the URL from the interwiki map.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { intval } from '../../api/params.js';
import { queryModule } from '../../api/types.js';
import { withContent } from '../../api/result.js';
import { InterwikiMap } from '../../wiki/interwiki.js';
import { addInterwikiUrl, continueParts, interwikiLinkPageIds } from './shared.js';

export const iwlinksModule = queryModule({
  kind: 'prop',
  name: 'iwlinks',
  prefix: 'iw',
  description: 'Returns all interwiki links from the given pages.',
  params: {
    url: { type: 'boolean', default: false, help: 'Whether to get the full URL (cannot be used with iwprop). Deprecated.' },
    prop: { type: ['url'], multi: true, help: 'Which additional properties to get for each interlanguage link.' },
    limit: limitParam(10, 'How many interwiki links to return.'),
    continue: continueParam(),
    prefix: { type: 'string', help: 'Prefix for the interwiki.' },
    title: { type: 'string', help: 'Interwiki link to search for. Must be used with iwprefix.' },
    dir: dirParam(),
  },
  examples: ['action=query&prop=iwlinks&titles=Головна сторінка'],
  async run(ctx) {
    const p = ctx.params;
    const pageids = interwikiLinkPageIds(ctx, 'prefix', 'noprefix');
    if (pageids.length === 0) return;
    const withUrl = p.url === true || ((p.prop as string[] | undefined) ?? []).includes('url');
    const cont = continueParts(ctx, 3);
    const limit = p.limit as number;
    const rows = await ctx.store.relations.iwLinksOf({
      pageids,
      prefix: p.prefix as string | undefined,
      title: p.title as string | undefined,
      continueAt: cont ? { from: intval(cont[0]), prefix: cont[1], title: cont[2] } : undefined,
      descending: p.dir === 'descending',
      limit: limit + 1,
    });
    const map = withUrl ? new InterwikiMap(await ctx.store.relations.interwikiMap()) : null;
    rows.forEach((row, i) => {
      if (i >= limit) return ctx.setContinue('continue', `${row.from}|${row.prefix}|${row.title}`);
      const entry = ctx.pageSet.entry(row.from);
      if (!entry) return;
      const item: Record<string, unknown> = { prefix: row.prefix };
      if (map) addInterwikiUrl(item, map, row.prefix, row.title);
      ((entry.iwlinks ??= []) as unknown[]).push(withContent(item, 'title', row.title));
    });
  },
});
