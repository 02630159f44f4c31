/**
 * ApiQueryBacklinksprop of 1.25 for prop=linkshere (pagelinks), prop=transcludedin (templatelinks),
 * prop=fileusage (imagelinks, File: titles only) and prop=redirects (the redirect table): for every title
 * of the page set (existing or missing), the pages linking to it. Rows come in ([namespace], [title], [namespace of the linking page], page id) order,
 * where a field is part of the order only when it varies: the namespace when the set's titles span
 * several, the title when there are several, the linking page's namespace when several were asked for
 * (not for redirects). The continuation value lists exactly those fields, '|'-joined. As a generator it
 * yields the linking pages. The whole page set is one store call.
 */
import { continueParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import type { ParamDecls, QueryModule, QueryModuleContext } from '../../api/types.js';
import { compareBytes } from '../../wiki/collation.js';
import type { BacklinkTable } from '../../store/relation-store.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { dieBadContinue, moduleFromSpec, type ModuleSpec } from './shared.js';

/** What one of the four modules is: its name (also its key under each page), prefix, table and help. */
export interface BacklinkspropSpec extends ModuleSpec {
  table: BacklinkTable;
}

/** The module the spec describes: ApiQueryBacklinksprop's parameters and run over the spec's table. */
export function defineBacklinkspropModule(spec: BacklinkspropSpec): QueryModule {
  return moduleFromSpec('prop', spec, backlinkspropParams(spec.table === 'redirect'), runBacklinksprop);
}

function backlinkspropParams(redirects: boolean): ParamDecls {
  return {
    prop: redirects
      ? { type: ['pageid', 'title', 'fragment'], multi: true, default: 'pageid|title', help: 'Which properties to get.' }
      : { type: ['pageid', 'title', 'redirect'], multi: true, default: 'pageid|title|redirect', help: 'Which properties to get.' },
    namespace: namespaceParam('Only include pages in these namespaces.', { multi: true }),
    show: redirects
      ? { type: ['fragment', '!fragment'], multi: true, help: 'Show only items that meet these criteria.' }
      : { type: ['redirect', '!redirect'], multi: true, help: 'Show only items that meet these criteria.' },
    limit: limitParam(10, 'How many to return.'),
    continue: continueParam(),
  };
}

async function runBacklinksprop(ctx: QueryModuleContext, o: BacklinkspropSpec): Promise<void> {
  const p = ctx.params;
  const props = new Set(p.prop as string[]);
  const isRedirects = o.table === 'redirect';
  // the page set's titles, existing and missing, each once (special and invalid ones have no links;
  // imagelinks only has File: targets)
  const wanted = (ns: number): boolean => (o.table === 'imagelinks' ? ns === NS_FILE : ns >= 0);
  const byKey = new Map<string, { ns: number; title: string; id: number }>();
  for (const g of ctx.pageSet.good)
    if (wanted(g.ns) && !byKey.has(`${g.ns}|${g.title}`)) byKey.set(`${g.ns}|${g.title}`, { ns: g.ns, title: g.title, id: g.pageid });
  for (const m of ctx.pageSet.missing)
    if (wanted(m.ns) && !byKey.has(`${m.ns}|${m.dbkey}`)) byKey.set(`${m.ns}|${m.dbkey}`, { ns: m.ns, title: m.dbkey, id: m.fakeId });
  if (byKey.size === 0) return;
  const targets = [...byKey.values()].sort((a, b) => a.ns - b.ns || compareBytes(a.title, b.title));
  const byNsField = new Set(targets.map((t) => t.ns)).size > 1;
  const byTitleField = new Set(targets.map((t) => t.title)).size > 1;
  const namespaces = p.namespace as number[] | undefined;
  if (namespaces !== undefined && namespaces.length === 0) return;
  const fromNsList = namespaces === undefined ? [undefined] : [...new Set(namespaces)].sort((a, b) => a - b);
  // redirects filter the page namespace without ordering by it; link tables order by pl_from_namespace
  const byFromNs = !isRedirects && fromNsList.length > 1;

  const show = new Set((p.show as string[] | undefined) ?? []);
  if ((show.has('redirect') && show.has('!redirect')) || (show.has('fragment') && show.has('!fragment'))) {
    ctx.die('show', 'Incorrect parameter - mutually exclusive values may not be supplied');
  }
  const redirect = show.has('redirect') ? true : show.has('!redirect') ? false : undefined;
  const fragment = show.has('fragment') ? true : show.has('!fragment') ? false : undefined;

  let cont: { ns?: number; title?: string; fromNs?: number; from: number } | undefined;
  if (p.continue !== undefined) {
    const parts = (p.continue as string).split('|');
    const fields = (byNsField ? 1 : 0) + (byTitleField ? 1 : 0) + (byFromNs ? 1 : 0) + 1;
    if (parts.length !== fields) dieBadContinue(ctx);
    const int = (v: string): number => {
      const n = Number.parseInt(v, 10);
      // PHP compares (int)$v != $v loosely: "07" passes, "x" does not
      if (Number.isNaN(n) || Number(v.trim()) !== n) dieBadContinue(ctx);
      return n;
    };
    let i = 0;
    cont = { from: 0 };
    if (byNsField) cont.ns = int(parts[i++]);
    if (byTitleField) cont.title = parts[i++];
    if (byFromNs) cont.fromNs = int(parts[i++]);
    cont.from = int(parts[i]);
  }

  // the (target, [from namespace]) ranges still to read, in output order, the continuation's first
  const ranges: Array<{ t: (typeof targets)[number]; ns: number; title: string; fromNs?: number; fromId?: number }> = [];
  for (const t of targets) {
    let cmpTarget = 0;
    if (cont) {
      if (cont.ns !== undefined && t.ns !== cont.ns) cmpTarget = t.ns - cont.ns;
      else if (cont.title !== undefined) cmpTarget = compareBytes(t.title, cont.title);
      if (cmpTarget < 0) continue;
    }
    for (const fromNs of isRedirects ? [undefined] : fromNsList) {
      let fromId: number | undefined;
      if (cont && cmpTarget === 0) {
        if (cont.fromNs !== undefined && fromNs! < cont.fromNs) continue;
        if (cont.fromNs === undefined || fromNs === cont.fromNs) fromId = cont.from;
      }
      ranges.push({ t, ns: t.ns, title: t.title, fromNs, fromId });
    }
  }
  const limit = p.limit as number;
  // one store call for the whole page set
  const rows = await ctx.store.relations.linkersOf({
    table: o.table,
    targets: ranges.map(({ ns, title, fromNs, fromId }) => ({ ns, title, fromNs, fromId })),
    redirect,
    fragment,
    pageNamespaces: isRedirects ? namespaces : undefined,
    limit: limit + 1,
  });
  rows.forEach((row, i) => {
    const { t } = ranges[row.target];
    if (i >= limit) {
      const parts: Array<string | number> = [];
      if (byNsField) parts.push(t.ns);
      if (byTitleField) parts.push(t.title);
      if (byFromNs) parts.push(row.fromNs);
      parts.push(row.pageid);
      ctx.setContinue('continue', parts.join('|'));
      return;
    }
    if (ctx.generator) return ctx.generator.add({ ns: row.ns, dbkey: row.title });
    const entry = ctx.pageSet.entry(t.id);
    if (!entry) return;
    const item: Record<string, unknown> = {};
    if (props.has('pageid')) item.pageid = row.pageid;
    if (props.has('title')) {
      item.ns = row.ns;
      item.title = ctx.wiki.titleText(row.ns, row.title);
    }
    if (props.has('fragment') && row.fragment !== '') item.fragment = row.fragment;
    // a boolean either way: formatversion=1 leaves false out, 2 shows it
    if (props.has('redirect')) item.redirect = row.isRedirect;
    ((entry[o.name] ??= []) as unknown[]).push(item);
  });
}
