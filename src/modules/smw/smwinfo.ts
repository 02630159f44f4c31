/**
 * action=smwinfo (Semantic MediaWiki 2.2, SMW\MediaWiki\Api\Info): the wiki's semantic usage statistics,
 * SMW's UsageStatisticsListLookup counts (kept by the store: sqlite/semantic-statistics.ts). The answer
 * holds the requested counts in the module's own order, whatever the order of `info`; `formatcount` maps
 * each inline query result format to its number of queries, the most used first. Info.php names
 * `errorcount` in its map but not in its parameter's values, so it cannot be asked for (SMW 2.2.3).
 */
import type { ActionModule } from '../../api/types.js';

/** Info.php's $map: the answer's member → SMW's statistic, in the order the answer lists them */
const COUNTS: ReadonlyArray<[member: string, statistic: string]> = [
  ['propcount', 'PROPUSES'],
  ['usedpropcount', 'USEDPROPS'],
  ['declaredpropcount', 'DECLPROPS'],
  ['proppagecount', 'OWNPAGE'],
  ['querycount', 'QUERY'],
  ['querysize', 'QUERYSIZE'],
  ['conceptcount', 'CONCEPTS'],
  ['subobjectcount', 'SUBOBJECTS'],
];

export const smwinfoModule: ActionModule = {
  kind: 'action',
  name: 'smwinfo',
  prefix: '',
  className: 'SMW\\MediaWiki\\Api\\Info',
  helpUrls: [],
  description: 'API module get info about this SMW install.',
  params: {
    info: {
      type: [
        'propcount',
        'usedpropcount',
        'declaredpropcount',
        'proppagecount',
        'querycount',
        'querysize',
        'formatcount',
        'conceptcount',
        'subobjectcount',
      ],
      multi: true,
      default: 'propcount|usedpropcount|declaredpropcount',
      help: 'The info to provide.',
    },
  },
  examples: ['action=smwinfo&info=proppagecount|propcount'],
  async run(ctx) {
    const requested = new Set((ctx.params.info as string[] | undefined) ?? []);
    // PHP's empty array() prints as a list: `"info":[]`, `"formatcount":[]`
    let info: Record<string, unknown> | never[] = [];
    if (requested.size > 0) {
      const found: Record<string, unknown> = {};
      const stats = await ctx.store.semantic.statistics();
      for (const [member, statistic] of COUNTS) if (requested.has(member)) found[member] = stats.counts[statistic] ?? 0;
      if (requested.has('formatcount')) {
        const formats: Record<string, number> = {};
        for (const [format, count] of stats.formats) formats[format] = count;
        found.formatcount = stats.formats.length > 0 ? formats : [];
      }
      info = found;
    }
    ctx.result.set('info', info);
  },
};
