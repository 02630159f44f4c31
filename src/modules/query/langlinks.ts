/**
 * prop=langlinks (ApiQueryLangLinks of 1.25): the interlanguage links of each page, in (page, language)
 * order; continuation `<page id>|<language>`. `lllang` (with `lltitle`) filters; `llprop=url` gives the
 * link's URL from the interwiki map, `langname` the language's name in `llinlanguagecode` (default the
 * user language; a stock 1.25 without the cldr extension gives the autonym there too), `autonym` its name in itself. The deprecated `llurl` is `llprop=url`.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { intval } from '../../api/params.js';
import { queryModule } from '../../api/types.js';
import { withContent } from '../../api/result.js';
import { InterwikiMap, languageName } from '../../wiki/interwiki.js';
import { addInterwikiUrl, continueParts, interwikiLinkPageIds } from './shared.js';

export const langlinksModule = queryModule({
  kind: 'prop',
  name: 'langlinks',
  prefix: 'll',
  description: 'Returns all interlanguage links from the given pages.',
  params: {
    limit: limitParam(10, 'How many langlinks to return.'),
    continue: continueParam(),
    url: { type: 'boolean', default: false, help: 'Whether to get the full URL (cannot be used with llprop). Deprecated.' },
    prop: { type: ['url', 'langname', 'autonym'], multi: true, help: 'Which additional properties to get for each interlanguage link.' },
    lang: { type: 'string', help: 'Language code.' },
    title: { type: 'string', help: 'Link to search for. Must be used with lllang.' },
    dir: dirParam(),
    inlanguagecode: { type: 'string', help: 'Language code for localised language names.' },
  },
  examples: ['action=query&prop=langlinks&titles=Київ&redirects='],
  async run(ctx) {
    const p = ctx.params;
    const pageids = interwikiLinkPageIds(ctx, 'lang', 'nolang');
    if (pageids.length === 0) return;
    const prop = new Set(p.url ? ['url'] : ((p.prop as string[] | undefined) ?? []));
    const descending = p.dir === 'descending';
    const cont = continueParts(ctx, 2);
    const limit = p.limit as number;
    const rows = await ctx.store.relations.langLinksOf({
      pageids,
      lang: p.lang as string | undefined,
      title: p.title as string | undefined,
      continueAt: cont ? { from: intval(cont[0]), lang: cont[1] } : undefined,
      descending,
      limit: limit + 1,
    });
    const map = prop.has('url') ? new InterwikiMap(await ctx.store.relations.interwikiMap()) : null;
    rows.forEach((row, i) => {
      if (i >= limit) return ctx.setContinue('continue', `${row.from}|${row.lang}`);
      const entry = ctx.pageSet.entry(row.from);
      if (!entry) return;
      const item: Record<string, unknown> = { lang: row.lang };
      if (map) addInterwikiUrl(item, map, row.lang, row.title);
      // without the cldr extension 1.25 knows only autonyms, whatever llinlanguagecode says
      if (prop.has('langname')) item.langname = languageName(row.lang);
      if (prop.has('autonym')) item.autonym = languageName(row.lang);
      ((entry.langlinks ??= []) as unknown[]).push(withContent(item, 'title', row.title));
    });
  },
});
