/** Small pieces several query modules use the same way. */
import { queryModule, type ParamDecls, type QueryModule, type QueryModuleContext } from '../../api/types.js';
import { texts } from '../../api/errors.js';
import type { PageRow } from '../../store/page-store.js';
import type { InterwikiMap } from '../../wiki/interwiki.js';

/** What a module of a family that shares one implementation is: its name, prefix and help (and more for the family). */
export interface ModuleSpec {
  name: string;
  prefix: string;
  description: string;
  examples: string[];
}

/**
 * A public generator module whose parameters and run come from its family's shared code, as one
 * MediaWiki class (ApiQueryBacklinks, ApiQueryAllLinks...) serves several module names.
 */
export function moduleFromSpec<S extends ModuleSpec>(
  kind: 'prop' | 'list',
  spec: S,
  params: ParamDecls,
  run: (ctx: QueryModuleContext, spec: S) => Promise<void>,
): QueryModule {
  return queryModule({
    kind,
    name: spec.name,
    prefix: spec.prefix,
    generator: true,
    description: spec.description,
    params,
    examples: spec.examples,
    run: (ctx) => run(ctx, spec),
  });
}

/**
 * ApiQueryBase::titlePartToKey with MediaWiki's error: a from/to/prefix value as a DB key within `ns`;
 * undefined stays undefined, text that cannot be a title ends the request with the prefixed
 * `invalidtitle` (dieUsageMsg goes through dieUsage, which prefixes the code: `acinvalidtitle`).
 */
export function titlePartOrDie(ctx: QueryModuleContext, text: string | undefined, ns: number): string | undefined {
  if (text === undefined) return undefined;
  const key = ctx.wiki.codec.titlePartToKey(text, ns);
  if (key === null) ctx.die('invalidtitle', texts.invalidTitle(text));
  return key;
}

/** End the request with the prefixed `badcontinue` error. */
export function dieBadContinue(ctx: QueryModuleContext): never {
  return ctx.die('badcontinue', texts.badContinue());
}

/**
 * The module's `continue` value split at '|', or undefined when the client sent none; a value that
 * does not have exactly `count` parts ends the request with `badcontinue`.
 */
export function continueParts(ctx: QueryModuleContext, count: number): string[] | undefined {
  const value = ctx.params.continue as string | undefined;
  if (value === undefined) return undefined;
  const parts = value.split('|');
  if (parts.length !== count) dieBadContinue(ctx);
  return parts;
}

/**
 * Hand pages to the generator as whole page rows (prop=info reads touched, lastrevid, length), in the
 * order of `ids`, which the page set keeps; ids without a page are left out.
 */
export async function generatePageRows(ctx: QueryModuleContext, ids: number[]): Promise<void> {
  const rows = new Map((await ctx.store.pages.byIds(ids)).map((r) => [r.pageid, r]));
  for (const id of ids) {
    const row = rows.get(id);
    if (row) ctx.generator!.add({ row });
  }
}

/**
 * ApiBase::requireOnlyOneParameter and getTitleOrPageId for the module's `title` and `pageid`: the
 * title as the client sent it, or the page of the page id (`nosuchpageid` when there is none).
 */
export async function titleOrPageId(ctx: QueryModuleContext): Promise<{ title: string } | { page: PageRow }> {
  const p = ctx.params;
  const t = ctx.encodeParamName('title');
  const id = ctx.encodeParamName('pageid');
  if (p.title !== undefined && p.pageid !== undefined) ctx.die('invalidparammix', `The parameters ${t}, ${id} can not be used together`);
  if (p.title === undefined && p.pageid === undefined) ctx.die('missingparam', `One of the parameters ${t}, ${id} is required`);
  if (p.title !== undefined) return { title: p.title as string };
  const page = (await ctx.store.pages.byIds([p.pageid as number]))[0];
  if (!page) ctx.die('nosuchpageid', `There is no page with ID ${p.pageid}`);
  return { page };
}

/**
 * The checks prop=iwlinks and prop=langlinks make alike: the page set's page ids, each once (none:
 * nothing to list); `title` only with the filter parameter (`filterParam`, else the error `code`); the
 * deprecated `url` not together with `prop`.
 */
export function interwikiLinkPageIds(ctx: QueryModuleContext, filterParam: 'prefix' | 'lang', code: 'noprefix' | 'nolang'): number[] {
  const p = ctx.params;
  const pageids = [...new Set(ctx.pageSet.good.map((g) => g.pageid))];
  if (pageids.length === 0) return pageids;
  if (p.title !== undefined && p[filterParam] === undefined) ctx.die(code, `The ${filterParam} parameter must be set`);
  if (p.url && p.prop !== undefined) {
    ctx.die('invalidparammix', `The parameters ${ctx.encodeParamName('url')}, ${ctx.encodeParamName('prop')} can not be used together`);
  }
  return pageids;
}

/** An interwiki or interlanguage link's `url` from the interwiki map (none for an unknown prefix). */
export function addInterwikiUrl(item: Record<string, unknown>, map: InterwikiMap, prefix: string, title: string): void {
  const url = map.url(prefix, title);
  if (url !== undefined) item.url = url;
}

/** A listed page as `prop=ids|title` shows it: its page id, its namespace and title, as asked for. */
export function pageItem(
  ctx: QueryModuleContext,
  prop: Set<string>,
  row: { pageid: number; ns: number; title: string },
): Record<string, unknown> {
  const item: Record<string, unknown> = {};
  if (prop.has('ids')) item.pageid = row.pageid;
  addTitleFields(ctx, item, prop, row.ns, row.title);
  return item;
}

/** A row's page as `prop=title` shows it: its namespace and title text. */
export function addTitleFields(ctx: QueryModuleContext, item: Record<string, unknown>, prop: Set<string>, ns: number, dbkey: string): void {
  if (prop.has('title')) {
    item.ns = ns;
    item.title = ctx.wiki.titleText(ns, dbkey);
  }
}

/** A sort key as the API shows it: its UTF-8 bytes in hex. */
export function sortkeyHex(sortkey: string): string {
  return Buffer.from(sortkey, 'utf8').toString('hex');
}
