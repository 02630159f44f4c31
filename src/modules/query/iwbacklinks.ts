/** list=iwbacklinks (ApiQueryIWBacklinks of 1.25): the pages that link to an interwiki prefix, or to a title there; also a generator. */
import { queryModule } from '../../api/types.js';
import { foreignBacklinkParams, runForeignBacklinks, type ForeignLinkKind } from './foreign-backlinks-shared.js';

const KIND: ForeignLinkKind = {
  list: 'iwbacklinks',
  codeParam: 'prefix',
  props: ['iwprefix', 'iwtitle'],
  read: (ctx, o) => ctx.store.relations.iwBacklinks(o),
};

export const iwbacklinksModule = queryModule({
  kind: 'list',
  name: 'iwbacklinks',
  prefix: 'iwbl',
  generator: true,
  description: 'Find all pages that link to the given interwiki link.',
  params: foreignBacklinkParams('prefix', 'Prefix for the interwiki.', ['iwprefix', 'iwtitle']),
  examples: [
    'action=query&list=iwbacklinks&iwbltitle=Test&iwblprefix=wikibooks',
    'action=query&generator=iwbacklinks&giwbltitle=Test&giwblprefix=wikibooks&prop=info',
  ],
  run: (ctx) => runForeignBacklinks(ctx, KIND),
});
