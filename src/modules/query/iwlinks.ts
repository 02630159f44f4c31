/**
 * prop=iwlinks (ApiQueryIWLinks of 1.25): the interwiki links of each page, in (page, prefix, title)
 * order; continuation `<page id>|<prefix>|<title>`. `iwprefix` (with `iwtitle`) filters; `iwprop=url`
 * (or the deprecated `iwurl`) gives the URL from the interwiki map.
 */
import { continueParam, dirParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import type { IwLinksOfOptions } from '../../store/relation-store.js';
import { type ForeignLinkKind, runForeignLinks } from './foreign-links-shared.js';

const KIND: ForeignLinkKind<{ from: number; prefix: string; title: string }, IwLinksOfOptions> = {
  member: 'iwlinks',
  codeParam: 'prefix',
  noCode: 'noprefix',
  continueMembers: ['prefix', 'title'],
  read: (ctx, o) => ctx.store.relations.iwLinksOf(o),
  code: (row) => row.prefix,
  continueAt: (row) => `${row.from}|${row.prefix}|${row.title}`,
};

export const iwlinksModule = queryModule({
  kind: 'prop',
  name: 'iwlinks',
  prefix: 'iw',
  description: 'Returns all interwiki links from the given pages.',
  params: {
    url: {
      type: 'boolean',
      default: false,
      deprecated: true,
      help: 'Whether to get the full URL (cannot be used with iwprop). Deprecated.',
    },
    prop: { type: ['url'], multi: true, help: 'Which additional properties to get for each interlanguage link.' },
    limit: limitParam(10, 'How many interwiki links to return.'),
    continue: continueParam(),
    prefix: { type: 'string', help: 'Prefix for the interwiki.' },
    title: { type: 'string', help: 'Interwiki link to search for. Must be used with iwprefix.' },
    dir: dirParam(),
  },
  examples: ['action=query&prop=iwlinks&titles=Головна сторінка'],
  run: (ctx) => runForeignLinks(ctx, KIND),
});
