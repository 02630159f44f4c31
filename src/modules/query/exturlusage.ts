/**
 * list=exturlusage (ApiQueryExtLinksUsage of 1.25): the pages that link to URLs of a protocol and
 * domain (`euquery` with an optional leading `*.`), in the order of the reversed-host index; all external
 * links without euquery/euprotocol. Continuation is an offset (`euoffset`), as in 1.25. As a generator it
 * yields the linking pages.
 */
import { limitParam, namespaceParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { PROTOCOL_NAMES, expandUrl } from '../../wiki/external-urls.js';
import { generatePageRows, pageItem } from './shared.js';
import { indexPrefixOf, offsetOf } from './extlinks-shared.js';

export const exturlusageModule = queryModule({
  kind: 'list',
  name: 'exturlusage',
  prefix: 'eu',
  generator: true,
  description: 'Enumerate pages that contain a given URL.',
  params: {
    prop: { type: ['ids', 'title', 'url'], multi: true, default: 'ids|title|url', help: 'Which pieces of information to include.' },
    offset: { type: 'integer', help: 'When more results are available, use this to continue.' },
    protocol: {
      type: PROTOCOL_NAMES,
      default: '',
      help: 'Protocol of the URL. If empty and euquery set, the protocol is http. Leave both this and euquery empty to list all external links.',
    },
    query: { type: 'string', help: 'Search string without protocol. See Special:LinkSearch. Leave empty to list all external links.' },
    namespace: namespaceParam('The page namespaces to enumerate.', { multi: true }),
    limit: limitParam(10, 'How many pages to return.'),
    expandurl: { type: 'boolean', default: false, help: 'Expand protocol-relative URLs with the canonical protocol.' },
  },
  examples: ['action=query&list=exturlusage&euquery=www.mediawiki.org'],
  async run(ctx) {
    const p = ctx.params;
    const prop = new Set(p.prop as string[]);
    const indexPrefix = indexPrefixOf(ctx);
    const limit = p.limit as number;
    const offset = offsetOf(ctx);
    const namespaces = p.namespace as number[] | undefined;
    const rows = await ctx.store.relations.extUrlUsage({
      indexPrefix,
      namespaces: namespaces?.length ? namespaces : undefined,
      offset,
      limit: limit + 1,
    });
    const generated: number[] = [];
    const list = ctx.generator ? null : ctx.result.queryList('exturlusage');
    rows.forEach((row, i) => {
      if (i >= limit) return ctx.setContinue('offset', offset + limit);
      if (ctx.generator) return void generated.push(row.pageid);
      const item = pageItem(ctx, prop, row);
      if (prop.has('url')) item.url = p.expandurl ? expandUrl(row.url) : row.url;
      list!.push(item);
    });
    if (ctx.generator) await generatePageRows(ctx, generated);
  },
});
