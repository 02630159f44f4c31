/**
 * list=tags (ApiQueryTags of 1.25): the change tags in use, defined or registered by extensions. A dump
 * carries no change_tag or valid_tag rows and neither 1.25's core nor SMW 2.2 and SF 3.3 define tags
 * (the mw-* tags came with later versions), so the list is empty.
 */
import { continueParam, limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';

export const tagsModule = queryModule({
  kind: 'list',
  name: 'tags',
  prefix: 'tg',
  description: 'List change tags.',
  params: {
    continue: continueParam(),
    limit: limitParam(10, 'The maximum number of tags to list.'),
    prop: {
      type: ['name', 'displayname', 'description', 'hitcount', 'defined', 'source', 'active'],
      multi: true,
      default: 'name',
      help: 'Which properties to get.',
    },
  },
  examples: ['action=query&list=tags&tgprop=displayname|description|hitcount|defined'],
  run(ctx) {
    ctx.result.queryList('tags');
  },
});
