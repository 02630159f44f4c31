/**
 * list=protectedtitles (ApiQueryProtectedTitles of 1.25): titles protected from creation. A dump carries
 * no `protected_titles` table, so the list is empty (and the generator yields nothing), as on a 1.25
 * wiki where no title is protected; the parameters are validated all the same.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { dieBadContinue } from './shared.js';

/** $wgRestrictionLevels of 1.25 without '' */
export const RESTRICTION_LEVELS = ['autoconfirmed', 'sysop'];

export const protectedtitlesModule = queryModule({
  kind: 'list',
  name: 'protectedtitles',
  prefix: 'pt',
  generator: true,
  description: 'List all titles protected from creation.',
  params: {
    namespace: namespaceParam('Only list titles in these namespaces.', { multi: true }),
    level: { type: RESTRICTION_LEVELS, multi: true, help: 'Only list titles with these protection levels.' },
    limit: limitParam(10, 'How many total pages to return.'),
    dir: dirParam('In which direction to enumerate.', ['newer', 'older'], 'older'),
    start: { type: 'timestamp', help: 'Start listing at this protection timestamp.' },
    end: { type: 'timestamp', help: 'Stop listing at this protection timestamp.' },
    prop: {
      type: ['timestamp', 'user', 'userid', 'comment', 'parsedcomment', 'expiry', 'level'],
      multi: true,
      default: 'timestamp|level',
      help: 'Which properties to get.',
    },
    continue: continueParam(),
  },
  examples: ['action=query&list=protectedtitles', 'action=query&generator=protectedtitles&gptnamespace=0&prop=linkshere'],
  run(ctx) {
    const cont = ctx.params.continue as string | undefined;
    // ApiQueryProtectedTitles: "<timestamp>|<namespace>|<title>"
    if (cont !== undefined && cont.split('|').length !== 3) dieBadContinue(ctx);
    if (ctx.generator === null) ctx.result.queryList('protectedtitles');
  },
});
