/**
 * ApiQueryLinks of 1.25, shared by prop=links (pagelinks) and prop=templates (templatelinks): the
 * targets each page of the set links to, in (page id, namespace, title) order; continuation
 * `<page id>|<namespace>|<title>`. `pltitles`/`tltemplates` keep only the given targets (invalid ones are
 * warned about). As a generator it yields the targets, missing ones included.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import { intval } from '../../api/params.js';
import type { ParamDecl, QueryModule, QueryModuleContext } from '../../api/types.js';
import type { LinkTable, TitleKey } from '../../store/relation-store.js';
import { continueParts, moduleFromSpec, type ModuleSpec } from './shared.js';

/** What one of the two modules is: its name (also its key under each page and in the help), prefix, table and help. */
export interface LinksSpec extends ModuleSpec {
  name: 'links' | 'templates';
  table: LinkTable;
  /** the parameter that keeps only the given targets */
  titlesParam: 'titles' | 'templates';
}

/** The module the spec describes: ApiQueryLinks' parameters and run over the spec's table. */
export function defineLinksModule(spec: LinksSpec): QueryModule {
  return moduleFromSpec('prop', spec, linksParams(spec.titlesParam, spec.name), runLinks);
}

function linksParams(titlesParam: 'titles' | 'templates', what: string): Record<string, ParamDecl> {
  return {
    namespace: namespaceParam(`Show ${what} in these namespaces only.`, { multi: true }),
    limit: limitParam(10, `How many ${what} to return.`),
    continue: continueParam(),
    [titlesParam]: {
      type: 'string',
      multi: true,
      help: `Only list ${what} to these titles. Useful for checking whether a certain page ${titlesParam === 'titles' ? 'links to' : 'uses'} a certain title.`,
    },
    dir: dirParam(),
  };
}

async function runLinks(ctx: QueryModuleContext, o: LinksSpec): Promise<void> {
  const p = ctx.params;
  const pageids = ctx.pageSet.good.map((g) => g.pageid);
  if (pageids.length === 0) return;
  const descending = p.dir === 'descending';
  let continueAt: { from: number; ns: number; title: string } | undefined;
  const cont = continueParts(ctx, 3);
  if (cont) continueAt = { from: intval(cont[0]), ns: intval(cont[1]), title: cont[2] };
  let only: TitleKey[] | undefined;
  const asked = p[o.titlesParam] as string[] | undefined;
  if (asked !== undefined && asked.length > 0) {
    only = [];
    for (const text of asked) {
      const t = ctx.wiki.codec.parse(text, 0);
      if (t === null) ctx.warn(`"${text}" is not a valid title`);
      else only.push({ ns: t.ns, title: t.dbkey });
    }
    // LinkBatch::constructSet of nothing adds no condition
    if (only.length === 0) only = undefined;
  }
  const namespaces = p.namespace as number[] | undefined;
  const limit = p.limit as number;
  const rows = await ctx.store.relations.linksOf({
    table: o.table,
    pageids,
    namespaces: namespaces && namespaces.length > 0 ? namespaces : undefined,
    only,
    continueAt,
    descending,
    limit: limit + 1,
  });
  rows.forEach((row, i) => {
    if (i >= limit) return ctx.setContinue('continue', `${row.from}|${row.ns}|${row.title}`);
    if (ctx.generator) return ctx.generator.add({ ns: row.ns, dbkey: row.title });
    const entry = ctx.pageSet.entry(row.from);
    if (!entry) return;
    ((entry[o.name] ??= []) as unknown[]).push({ ns: row.ns, title: ctx.wiki.titleText(row.ns, row.title) });
  });
}
