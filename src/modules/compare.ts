/**
 * action=compare (ApiComparePages of 1.25): the diff body of two revisions, each named by a revision id,
 * a title (its latest revision) or a page id, as 1.25's DifferenceEngine writes it.
 */
import type { ModuleContext, PlainActionModule } from '../api/types.js';
import { withContent } from '../api/result.js';
import { texts } from '../api/errors.js';
import { revisionDiffBody } from './difference-engine.js';

const BADDIFF_MISSING = 'The diff cannot be retrieved, one revision does not exist or you do not have permission to view it.';
const BADDIFF = 'The diff cannot be retrieved. Maybe one or both revisions do not exist or you do not have permission to view them.';

export const compareModule: PlainActionModule = {
  kind: 'action',
  name: 'compare',
  prefix: '',
  description:
    'Get the difference between two pages. A revision number, a page title, or a page ID for both "from" and "to" must be passed.',
  params: {
    fromtitle: { type: 'string', help: 'First title to compare.' },
    fromid: { type: 'integer', help: 'First page ID to compare.' },
    fromrev: { type: 'integer', help: 'First revision to compare.' },
    totitle: { type: 'string', help: 'Second title to compare.' },
    toid: { type: 'integer', help: 'Second page ID to compare.' },
    torev: { type: 'integer', help: 'Second revision to compare.' },
  },
  examples: ['action=compare&fromrev=1&torev=2'],
  className: 'ApiComparePages',
  async run(ctx) {
    const p = ctx.params;
    const rev1 = await revisionOrTitleOrId(ctx, p.fromrev, p.fromtitle, p.fromid);
    const rev2 = await revisionOrTitleOrId(ctx, p.torev, p.totitle, p.toid);
    const revision = rev1 ? (await ctx.store.history.revisionsByIds([rev1]))[0] : undefined;
    if (!revision) ctx.die('baddiff', BADDIFF_MISSING);
    const vals: Record<string, unknown> = {};
    if (p.fromtitle !== undefined) vals.fromtitle = p.fromtitle;
    if (p.fromid !== undefined) vals.fromid = p.fromid;
    vals.fromrevid = rev1;
    if (p.totitle !== undefined) vals.totitle = p.totitle;
    if (p.toid !== undefined) vals.toid = p.toid;
    vals.torevid = rev2;
    // a "to" revision of 0 (a title without a page) is DifferenceEngine's "current revision of the
    // context title", and the API's context title is "API"
    const currentOf = rev2 ? null : await pageIdOf(ctx, 'API');
    const { body } = await revisionDiffBody(ctx, { oldid: rev1, newid: rev2 }, currentOf);
    if (body === null) ctx.die('baddiff', BADDIFF);
    ctx.result.set('compare', withContent(vals, 'body', body!));
  },
};

/** ApiComparePages::revisionOrTitleOrId: PHP's truthiness decides which of the three is used */
async function revisionOrTitleOrId(
  ctx: ModuleContext,
  revision: number | undefined,
  titleText: string | undefined,
  pageId: number | undefined,
): Promise<number> {
  if (revision) return revision;
  if (titleText && titleText !== '0') {
    const title = ctx.wiki.codec.parse(titleText);
    if (!title || isExternal(ctx, titleText, title.ns)) ctx.die('invalidtitle', texts.invalidTitle(titleText));
    const row = (await ctx.store.pages.byTitles([{ ns: title!.ns, dbkey: title!.dbkey }]))[0];
    return row ? row.latestRevId : 0;
  }
  if (pageId) {
    const row = (await ctx.store.pages.byIds([pageId]))[0];
    if (!row) ctx.die('nosuchpageid', `There is no page with ID ${pageId}`);
    return row!.latestRevId;
  }
  return ctx.die('inputneeded', 'A title, a page ID, or a revision number is needed for both the from and the to parameters');
}

/** Title::isExternal: the text starts with an interwiki prefix (not a namespace) */
function isExternal(ctx: ModuleContext, text: string, ns: number): boolean {
  if (ns !== 0) return false;
  const colon = text.indexOf(':');
  return colon > 0 && ctx.wiki.interwiki.get(text.slice(0, colon).trim().replace(/[ _]+/g, '_')) !== undefined;
}

async function pageIdOf(ctx: ModuleContext, text: string): Promise<number | null> {
  const title = ctx.wiki.codec.parse(text);
  if (!title) return null;
  const row = (await ctx.store.pages.byTitles([{ ns: title.ns, dbkey: title.dbkey }]))[0];
  return row ? row.pageid : null;
}
