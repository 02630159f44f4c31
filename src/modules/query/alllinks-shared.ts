/**
 * ApiQueryAllLinks of 1.25 for list=alllinks (pagelinks), list=alltransclusions (templatelinks) and
 * list=allredirects (the redirect table): every row in order of the target title (in one namespace), then
 * of the linking page's id; red links included. Continuation `<title>|<page id>`, or `<title>` with
 * `unique`. As a generator it yields the linking pages (by page id), or with `unique` the targets.
 * (list=allfileusages is the same over imagelinks, in allfileusages.ts.)
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import type { ParamDecls, QueryModule, QueryModuleContext } from '../../api/types.js';
import { intval } from '../../api/params.js';
import type { AllLinksOptions, TargetTable } from '../../store/relation-store.js';
import { continueParts, moduleFromSpec, type ModuleSpec, titlePartOrDie } from './shared.js';

/** What one of the modules is: its name, prefix, table, namespace default and help. */
export interface AllLinksSpec extends ModuleSpec {
  table: TargetTable;
  /** the namespace parameter's default */
  defaultNs: number;
  /** what the things listed are called in the help texts */
  what: string;
  /** allredirects: fragment and interwiki */
  extraProps: string[];
}

/** The module the spec describes: ApiQueryAllLinks' parameters and run over the spec's table. */
export function defineAllLinksModule(spec: AllLinksSpec): QueryModule {
  return moduleFromSpec('list', spec, allLinksParams(spec), runAllLinks);
}

function allLinksParams(s: AllLinksSpec): ParamDecls {
  return {
    continue: continueParam(),
    from: { type: 'string', help: `The title of the ${s.what} to start enumerating from.` },
    to: { type: 'string', help: `The title of the ${s.what} to stop enumerating at.` },
    prefix: { type: 'string', help: `Search for all ${s.what} titles that begin with this value.` },
    unique: {
      type: 'boolean',
      default: false,
      help: `Only show distinct ${s.what} titles. Cannot be used with ${s.prefix}prop=ids${s.extraProps.map((p) => '|' + p).join('')}. When used as a generator, yields target pages instead of source pages.`,
    },
    prop: { type: ['ids', 'title', ...s.extraProps], multi: true, default: 'title', help: 'Which pieces of information to include.' },
    namespace: namespaceParam('The namespace to enumerate.', { default: String(s.defaultNs) }),
    limit: limitParam(10, 'How many total items to return.'),
    dir: dirParam(),
  };
}

async function runAllLinks(ctx: QueryModuleContext, s: AllLinksSpec): Promise<void> {
  const p = ctx.params;
  const prop = new Set(p.prop as string[]);
  const unique = p.unique as boolean;
  refuseUniqueWith(ctx, s.prefix, s.extraProps, prop, unique);
  const ns = Number(p.namespace);
  const { descending, contTitle, contFrom, from, to, prefix } = allLinksRange(ctx, ns, unique);
  const limit = p.limit as number;
  const list = ctx.generator ? null : ctx.result.queryList(s.name);
  const range: AllLinksOptions = { table: s.table, ns, from, to, prefix, descending, limit: limit + 1 };
  if (unique) {
    const titles = await ctx.store.relations.allLinkTitles(Object.assign(range, { continueAt: contTitle }));
    titles.forEach((title, i) => {
      if (i >= limit) return ctx.setContinue('continue', title);
      if (ctx.generator) ctx.generator.add({ ns, dbkey: title });
      else list!.push({ ns, title: ctx.wiki.titleText(ns, title) });
    });
    return;
  }
  const rows = await ctx.store.relations.allLinks(
    Object.assign(range, { continueAt: contTitle !== undefined ? { title: contTitle, from: contFrom } : undefined }),
  );
  rows.forEach((row, i) => {
    if (i >= limit) return ctx.setContinue('continue', `${row.title}|${row.from}`);
    if (ctx.generator) return ctx.generator.add({ pageid: row.from });
    const item: Record<string, unknown> = {};
    if (prop.has('ids')) item.fromid = row.from;
    if (prop.has('title')) {
      item.ns = ns;
      item.title = ctx.wiki.titleText(ns, row.title);
    }
    if (prop.has('fragment') && row.fragment !== '') item.fragment = row.fragment;
    if (prop.has('interwiki') && row.interwiki !== '') item.interwiki = row.interwiki;
    list!.push(item);
  });
}

/**
 * With `unique`, the props of a single link (ids and the module's extra props) are refused; the text
 * names them with the module prefix itself (never the generator's g).
 */
export function refuseUniqueWith(
  ctx: QueryModuleContext,
  modulePrefix: string,
  extraProps: readonly string[],
  prop: Set<string>,
  unique: boolean,
): void {
  if (!unique) return;
  const clash = ['ids', ...extraProps].filter((x) => prop.has(x));
  if (clash.length) ctx.die('params', `Cannot use ${modulePrefix}prop=${clash.join('|')} with ${modulePrefix}unique`);
}

/** The part of the targets a request reads: its direction, continuation and from/to/prefix as DB keys in `ns`. */
export interface AllLinksRange {
  descending: boolean;
  /** the target to continue at (`continue` always overrides `from`) */
  contTitle: string | undefined;
  /** the linking page id to continue at within contTitle (0 with `unique`) */
  contFrom: number;
  from: string | undefined;
  to: string | undefined;
  prefix: string | undefined;
}

export function allLinksRange(ctx: QueryModuleContext, ns: number, unique: boolean): AllLinksRange {
  const p = ctx.params;
  const descending = p.dir === 'descending';
  let contTitle: string | undefined;
  let contFrom = 0;
  const cont = continueParts(ctx, unique ? 1 : 2);
  if (cont) {
    contTitle = cont[0];
    if (!unique) contFrom = intval(cont[1]);
  }
  const from = contTitle !== undefined ? undefined : titlePartOrDie(ctx, p.from as string | undefined, ns);
  const to = titlePartOrDie(ctx, p.to as string | undefined, ns);
  const prefix = titlePartOrDie(ctx, p.prefix as string | undefined, ns);
  return { descending, contTitle, contFrom, from, to, prefix };
}
