/**
 * prop=extlinks (ApiQueryExternalLinks of 1.25): the external URLs of each page, in page order; with
 * elprotocol/elquery only those matching (by their reversed-host index); elexpandurl makes
 * protocol-relative URLs absolute. Continuation is an offset (`eloffset`), as in 1.25.
 */
import { limitParam } from '../../api/param-presets.js';
import { queryModule } from '../../api/types.js';
import { PROTOCOL_NAMES, expandUrl } from '../../wiki/external-urls.js';
import { withContent } from '../../api/result.js';
import { indexPrefixOf, offsetOf } from './extlinks-shared.js';

export const extlinksModule = queryModule({
  kind: 'prop',
  name: 'extlinks',
  prefix: 'el',
  description: 'Returns all external URLs (not interwikis) from the given pages.',
  params: {
    limit: limitParam(10, 'How many links to return.'),
    offset: { type: 'integer', help: 'When more results are available, use this to continue.' },
    protocol: {
      type: PROTOCOL_NAMES,
      default: '',
      help: 'Protocol of the URL. If empty and elquery set, the protocol is http. Leave both this and elquery empty to list all external links.',
    },
    query: {
      type: 'string',
      help: 'Search string without protocol. Useful for checking whether a certain page contains a certain external url.',
    },
    expandurl: { type: 'boolean', default: false, help: 'Expand protocol-relative URLs with the canonical protocol.' },
  },
  examples: ['action=query&prop=extlinks&titles=Київ'],
  async run(ctx) {
    const pageids = [...new Set(ctx.pageSet.good.map((g) => g.pageid))];
    if (pageids.length === 0) return;
    const indexPrefix = indexPrefixOf(ctx);
    const limit = ctx.params.limit as number;
    const offset = offsetOf(ctx);
    const rows = await ctx.store.relations.extLinksOf({ pageids, indexPrefix, offset, limit: limit + 1 });
    rows.forEach((row, i) => {
      if (i >= limit) return ctx.setContinue('offset', offset + limit);
      const entry = ctx.pageSet.entry(row.from);
      if (!entry) return;
      const url = ctx.params.expandurl ? expandUrl(row.url) : row.url;
      ((entry.extlinks ??= []) as unknown[]).push(withContent({}, 'url', url));
    });
  },
});
