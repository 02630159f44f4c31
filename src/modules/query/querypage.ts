/**
 * list=querypage (ApiQueryQueryPage of MediaWiki 1.25), also a generator: the results of a QueryPage
 * special page, read from the reports the importer computed (querycache, in final result order), as a
 * range scan from qpoffset.
 *
 * Output as 1.25 prints a live (non-miser-mode) report: query.querypage = {name, results}, each result
 * {value, timestamp (reports whose value is a time), ns, title, databaseResult (the extra columns of the
 * report's query, where it has any)}. In generator mode query.querypage holds only the name and the
 * result titles become the page set. Continuation: qpoffset = offset + limit, an integer.
 */
import { limitParam } from '../../api/param-presets.js';
import type { QueryModule } from '../../api/types.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { RowList, RowShape } from '../../api/result.js';

/** $wgQueryPages of 1.25 core minus $wgAPIUselessQueryPages (MIMEsearch, LinkSearch, FileDuplicateSearch), in its order. */
export const QUERY_PAGES = [
  'Ancientpages',
  'BrokenRedirects',
  'Deadendpages',
  'DoubleRedirects',
  'ListDuplicatedFiles',
  'Listredirects',
  'Lonelypages',
  'Longpages',
  'MediaStatistics',
  'Mostcategories',
  'Mostimages',
  'Mostinterwikis',
  'Mostlinkedcategories',
  'Mostlinkedtemplates',
  'Mostlinked',
  'Mostrevisions',
  'Fewestrevisions',
  'Shortpages',
  'Uncategorizedcategories',
  'Uncategorizedpages',
  'Uncategorizedimages',
  'Uncategorizedtemplates',
  'Unusedcategories',
  'Unusedimages',
  'Wantedcategories',
  'Wantedfiles',
  'Wantedpages',
  'Wantedtemplates',
  'Unwatchedpages',
  'Unusedtemplates',
  'Withoutinterwiki',
] as const;

/** Reports whose value is a timestamp (QueryPage::usesTimestamps). */
const TIMESTAMP_REPORTS = new Set(['Ancientpages', 'Unusedimages']);

/** Reports restricted to a user right (QueryPage::getRestriction): nobody here has 'unwatchedpages'. */
const RESTRICTED_REPORTS = new Set(['Unwatchedpages']);

/** a result: its value (and as a time, for reports of timestamps), the title, the report's extra columns */
const RESULT = new RowShape(['value', 'timestamp', 'ns', 'title', 'databaseResult']);
/** the same, the title given as its prefixed DB key (printed as text) */
const RESULT_KEYS = new RowShape(RESULT.keys, undefined, ['title']);

export const querypageModule: QueryModule = {
  kind: 'list',
  name: 'querypage',
  prefix: 'qp',
  generator: true,
  description: 'Get a list provided by a QueryPage-based special page.',
  params: {
    page: { type: QUERY_PAGES, required: true, help: 'The name of the special page. Note, this is case sensitive.' },
    offset: { type: 'integer', default: 0, help: 'When more results are available, use this to continue.' },
    limit: limitParam(10, 'Number of results to return.'),
  },
  examples: ['action=query&list=querypage&qppage=Ancientpages'],
  cacheMode(params) {
    return RESTRICTED_REPORTS.has(params.page) ? 'private' : 'public';
  },
  async run(ctx) {
    const page = ctx.params.page as string;
    const offset = ctx.params.offset as number;
    const limit = ctx.params.limit as number;
    if (RESTRICTED_REPORTS.has(page)) {
      ctx.die('specialpage-cantexecute', "You don't have permission to view the results of this special page");
    }
    const report: Record<string, unknown> = { name: page };
    ctx.result.object('query').querypage = report;
    // A negative offset reads from the start (SQLite's OFFSET) but still counts in the continuation.
    const rows = await ctx.store.reports.rows(page, Math.max(0, offset), limit + 1);
    const more = rows.length > limit;
    if (more) rows.length = limit;
    if (ctx.generator) {
      for (const r of rows) ctx.generator.add({ ns: r.ns, dbkey: r.title });
    } else {
      let keys = true;
      for (const r of rows) if (ctx.wiki.keyPrefix(r.ns) === undefined) keys = false;
      const results = new RowList(keys ? RESULT_KEYS : RESULT);
      const timestamps = TIMESTAMP_REPORTS.has(page);
      for (const r of rows) {
        const title = keys ? ctx.wiki.keyPrefix(r.ns)! + r.title : ctx.wiki.titleText(r.ns, r.title);
        results.values.push(r.value, timestamps ? mwToIso(r.value) : undefined, r.ns, title, r.extra ? { ...r.extra } : undefined);
      }
      report.results = results;
    }
    if (more) ctx.setContinue('offset', offset + limit);
  },
};
