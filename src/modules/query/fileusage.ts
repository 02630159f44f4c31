/**
 * prop=fileusage (ApiQueryBacklinksprop of 1.25 in its fileusage mode): for every file title of the
 * page set (with or without a description page), the pages that use the file. Rows come in
 * ([file], [namespace of the using page], page id) order, where the file is part of the order only when
 * the page set has several file titles and the namespace only when several were asked for; the
 * continuation value lists exactly those fields, `|`-joined (`<page id>`, `<file>|<page id>`,
 * `<file>|<ns>|<page id>`). As a generator it yields the using pages.
 */
import { continueParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import type { QueryModule } from '../../api/types.js';
import { compareBytes } from '../../wiki/collation.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { continueParts, dieBadContinue } from './shared.js';

export const fileusageModule: QueryModule = {
  kind: 'prop',
  name: 'fileusage',
  prefix: 'fu',
  generator: true,
  description: 'Find all pages that use the given files.',
  params: {
    prop: { type: ['pageid', 'title', 'redirect'], multi: true, default: 'pageid|title|redirect', help: 'Which properties to get.' },
    namespace: namespaceParam('Only include pages in these namespaces.', { multi: true }),
    show: { type: ['redirect', '!redirect'], multi: true, help: 'Show only items that meet these criteria.' },
    limit: limitParam(10, 'How many to return.'),
    continue: continueParam(),
  },
  examples: ['action=query&prop=fileusage&titles=File:Linux_logo.png', 'action=query&generator=fileusage&titles=File:Linux_logo.png&prop=info'],
  cacheMode: () => 'public',
  async run(ctx) {
    const p = ctx.params;
    const props = new Set(p.prop as string[]);
    // one entry per file name (a title given twice is one title)
    const byKey = new Map<string, number>();
    for (const t of ctx.pageSet.titlesInNamespace(NS_FILE)) if (!byKey.has(t.dbkey)) byKey.set(t.dbkey, t.id);
    if (byKey.size === 0) return;
    const namespaces = p.namespace as number[] | undefined;
    if (namespaces !== undefined && namespaces.length === 0) return;
    const byTitle = byKey.size > 1;
    const nsList = namespaces === undefined ? [undefined] : [...new Set(namespaces)].sort((a, b) => a - b);
    const byNs = nsList.length > 1;

    let contTitle: string | undefined;
    let contNs: number | undefined;
    let contFrom: number | undefined;
    const cont = continueParts(ctx, 1 + (byTitle ? 1 : 0) + (byNs ? 1 : 0));
    if (cont) {
      const int = (v: string): number => {
        if (!/^-?\d+$/.test(v.trim())) dieBadContinue(ctx);
        return Number.parseInt(v, 10);
      };
      let i = 0;
      if (byTitle) contTitle = cont[i++];
      if (byNs) contNs = int(cont[i++]);
      contFrom = int(cont[i]);
    }

    const show = new Set((p.show as string[] | undefined) ?? []);
    if (show.has('redirect') && show.has('!redirect')) ctx.die('show', 'Incorrect parameter - mutually exclusive values may not be supplied');
    const redirect = show.has('redirect') ? true : show.has('!redirect') ? false : undefined;

    const limit = p.limit as number;
    let count = 0;
    const files = [...byKey.keys()].sort(compareBytes);
    for (const file of files) {
      // rows before the continuation point, in (file, ns, page id) order, are skipped
      const fileCmp = contTitle === undefined ? 0 : compareBytes(file, contTitle);
      if (fileCmp < 0) continue;
      for (const ns of nsList) {
        let fromId: number | undefined;
        if (p.continue !== undefined && fileCmp === 0) {
          if (contNs !== undefined && ns! < contNs) continue;
          if (contNs === undefined || ns === contNs) fromId = contFrom;
        }
        const rows = await ctx.store.links.fileUsers({ target: file, namespace: ns, fromId, redirect, descending: false, limit: limit - count + 1 });
        for (const row of rows) {
          if (++count > limit) {
            const parts: Array<string | number> = [];
            if (byTitle) parts.push(file);
            if (byNs) parts.push(ns!);
            parts.push(row.pageid);
            ctx.setContinue('continue', parts.join('|'));
            return;
          }
          if (ctx.generator) {
            ctx.generator.add({ ns: row.ns, dbkey: row.title });
            continue;
          }
          const entry = ctx.pageSet.entry(byKey.get(file)!);
          if (!entry) continue;
          const item: Record<string, unknown> = {};
          if (props.has('pageid')) item.pageid = row.pageid;
          if (props.has('title')) {
            item.ns = row.ns;
            item.title = ctx.wiki.titleText(row.ns, row.title);
          }
          if (props.has('redirect')) item.redirect = row.isRedirect;
          ((entry.fileusage ??= []) as unknown[]).push(item);
        }
      }
    }
  },
};
