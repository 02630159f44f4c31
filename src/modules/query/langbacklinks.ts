/** list=langbacklinks (ApiQueryLangBacklinks of 1.25): the pages that link to a language, or to a title in it; also a generator. */
import { queryModule } from '../../api/types.js';
import { foreignBacklinkParams, runForeignBacklinks, type ForeignLinkKind } from './foreign-backlinks-shared.js';

const KIND: ForeignLinkKind = {
  list: 'langbacklinks',
  codeParam: 'lang',
  props: ['lllang', 'lltitle'],
  read: (ctx, o) => ctx.store.relations.langBacklinks(o),
};

export const langbacklinksModule = queryModule({
  kind: 'list',
  name: 'langbacklinks',
  prefix: 'lbl',
  generator: true,
  description: 'Find all pages that link to the given language link.',
  params: foreignBacklinkParams('lang', 'Language for the language link.', ['lllang', 'lltitle']),
  examples: [
    'action=query&list=langbacklinks&lbltitle=Test&lbllang=fr',
    'action=query&generator=langbacklinks&glbltitle=Test&glbllang=fr&prop=info',
  ],
  run: (ctx) => runForeignBacklinks(ctx, KIND),
});
