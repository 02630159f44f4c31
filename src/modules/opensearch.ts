/**
 * action=opensearch (ApiOpenSearch of 1.25): title suggestions in the OpenSearch JSON form
 * `[query, [titles], [descriptions], [urls]]`, from the same prefix search as list=prefixsearch.
 * Its `format` defaults to json (not jsonfm), and warnings cannot be shown in that form: they are
 * dropped, or with `warningsaserror` end the request with the `warnings` error.
 */
import type { ActionModule } from '../api/types.js';
import { pageUrl, serverOf } from '../wiki/files.js';
import { prefixSearchTitles, type PrefixMatch } from './query/prefixsearch.js';
import { namespaceList } from './query/search.js';

export const opensearchModule: ActionModule = {
  kind: 'action',
  name: 'opensearch',
  prefix: '',
  description: 'Search the wiki using the OpenSearch protocol.',
  defaultFormat: 'json',
  params: {
    search: { type: 'string', help: 'Search string.' },
    limit: { type: 'limit', default: 10, min: 1, max: 100, highmax: 100, help: 'Maximum number of results to return.' },
    namespace: { type: 'namespace', multi: true, default: '0', help: 'Namespaces to search.' },
    suggest: { type: 'boolean', default: false, help: 'Do nothing if $wgEnableOpenSearchSuggest is false.' },
    redirects: { type: ['return', 'resolve'], help: 'How to handle redirects: return the redirect itself, or resolve it to its target (default: return for json, as 1.25 keeps it for compatibility).' },
    format: { type: ['json', 'jsonfm'], default: 'json', help: 'The format of the output.' },
    warningsaserror: { type: 'boolean', default: false, help: 'If warnings are raised with format=json, return an API error instead of ignoring them.' },
  },
  examples: ['action=opensearch&search=Ки'],
  async run(ctx) {
    const p = ctx.params;
    const search = (p.search as string | undefined) ?? '';
    // redirects are resolved by default only in formats other than json (none here)
    const resolve = p.redirects === 'resolve';
    let titles: PrefixMatch[] = await prefixSearchTitles(ctx, search, p.limit as number, namespaceList(p.namespace), 0);
    if (resolve && titles.length) {
      const targets = await ctx.store.search.redirectTargets(titles.filter((t) => t.pageid !== null).map((t) => t.pageid!));
      const seen = new Set<string>();
      const resolved: PrefixMatch[] = [];
      for (const t of titles) {
        const r = t.pageid !== null ? targets.get(t.pageid) : undefined;
        const to = r ? { ns: r.ns, dbkey: r.dbkey, pageid: r.pageid } : t;
        const key = `${to.ns}|${to.dbkey}`;
        if (seen.has(key)) continue;
        seen.add(key);
        resolved.push(to);
      }
      titles = resolved;
    }
    const server = serverOf(ctx.request.apiUrl);
    ctx.result.setRoot([
      search,
      titles.map((t) => ctx.wiki.titleText(t.ns, t.dbkey)),
      titles.map(() => ''),
      titles.map((t) => pageUrl(server, ctx.wiki.codec.prefixedDbKey(t.ns, t.dbkey))),
    ]);
  },
};
