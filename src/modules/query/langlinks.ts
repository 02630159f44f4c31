/**
 * prop=langlinks (ApiQueryLangLinks of 1.25): the interlanguage links of each page, in (page, language)
 * order; continuation `<page id>|<language>`. `lllang` (with `lltitle`) filters; `llprop=url` gives the
 * link's URL from the interwiki map, `langname` the language's name in `llinlanguagecode` (default the
 * user language; a stock 1.25 without the cldr extension gives the autonym there too), `autonym` its name in itself. The deprecated `llurl` is `llprop=url`.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import type { LangLinksOfOptions } from '../../store/relation-store.js';
import { languageName } from '../../wiki/interwiki.js';
import { type ForeignLinkKind, runForeignLinks } from './foreign-links-shared.js';

const KIND: ForeignLinkKind<{ from: number; lang: string; title: string }, LangLinksOfOptions> = {
  member: 'langlinks',
  codeParam: 'lang',
  noCode: 'nolang',
  continueMembers: ['lang'],
  read: (ctx, o) => ctx.store.relations.langLinksOf(o),
  code: (row) => row.lang,
  continueAt: (row) => `${row.from}|${row.lang}`,
  addMembers: (item, row, prop) => {
    // without the cldr extension 1.25 knows only autonyms, whatever llinlanguagecode says
    if (prop.has('langname')) item.langname = languageName(row.lang);
    if (prop.has('autonym')) item.autonym = languageName(row.lang);
  },
};

export const langlinksModule = queryModule({
  kind: 'prop',
  name: 'langlinks',
  prefix: 'll',
  description: 'Returns all interlanguage links from the given pages.',
  params: {
    limit: limitParam(10, 'How many langlinks to return.'),
    continue: continueParam(),
    url: {
      type: 'boolean',
      default: false,
      deprecated: true,
      help: 'Whether to get the full URL (cannot be used with llprop). Deprecated.',
    },
    prop: { type: ['url', 'langname', 'autonym'], multi: true, help: 'Which additional properties to get for each interlanguage link.' },
    lang: { type: 'string', help: 'Language code.' },
    title: { type: 'string', help: 'Link to search for. Must be used with lllang.' },
    dir: dirParam(),
    inlanguagecode: { type: 'string', help: 'Language code for localised language names.' },
  },
  examples: ['action=query&prop=langlinks&titles=Київ&redirects='],
  run: (ctx) => runForeignLinks(ctx, KIND),
});
