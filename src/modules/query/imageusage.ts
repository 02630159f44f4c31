/**
 * list=imageusage (ApiQueryBacklinks of 1.25 in its imageusage mode), also a generator: the pages that
 * use one file (iutitle or iupageid), in page id order -- (namespace, page id) order when several
 * namespaces are asked for. Continuation is `<namespace>|<page id>` of the next page. With iuredirect,
 * pages that use a file redirect found among them are listed under that redirect's `redirlinks`, and
 * their continuation is `<first query's namespace>|<page id>|6|<redirect>|<namespace>|<page id>`.
 *
 * Where 1.25 deviates from itself this follows the intent: only redirects in the file namespace are
 * followed (their names are what imagelinks stores), and the redirect flag of a redirlinks entry belongs
 * to that entry alone.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import type { QueryModule, QueryModuleContext } from '../../api/types.js';
import { texts } from '../../api/errors.js';
import { compareBytes } from '../../wiki/collation.js';
import type { FileUserRow } from '../../store/link-store.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { halvedLimit, parseBacklinksContinue } from './backlinks-shared.js';
import { generatePageRows, titleOrPageId } from './shared.js';

interface Entry {
  pageid: number;
  ns: number;
  title: string;
  redirect?: boolean;
  redirlinks?: Entry[];
}

export const imageusageModule: QueryModule = {
  kind: 'list',
  name: 'imageusage',
  prefix: 'iu',
  generator: true,
  description: 'Find all pages that use the given image title.',
  params: {
    title: { type: 'string', help: 'Title to search. Cannot be used together with iupageid.' },
    pageid: { type: 'integer', help: 'Page ID to search. Cannot be used together with iutitle.' },
    continue: continueParam(),
    namespace: namespaceParam('The namespace to enumerate.', { multi: true }),
    dir: dirParam('The direction in which to list.'),
    filterredir: { type: ['all', 'redirects', 'nonredirects'], default: 'all', help: 'How to filter for redirects.' },
    limit: limitParam(10, 'How many total pages to return. If iuredirect is enabled, the limit applies to each level separately (which means up to 2 * iulimit results may be returned).'),
    redirect: { type: 'boolean', default: false, help: 'If linking page is a redirect, find all pages that link to that redirect as well. Maximum limit is halved.' },
  },
  examples: ['action=query&list=imageusage&iutitle=File:Linux_logo.png', 'action=query&generator=imageusage&giutitle=File:Linux_logo.png&prop=info'],
  cacheMode: () => 'public',
  async run(ctx) {
    const p = ctx.params;
    const redirectMode = p.redirect === true;
    const limit = redirectMode ? halvedLimit(ctx, 'imageusage') : (p.limit as number);
    const root = await rootFile(ctx);
    const descending = p.dir === 'descending';
    const cmp = (a: number, b: number) => (descending ? b - a : a - b);

    const cont = parseBacklinksContinue(ctx);

    // an empty namespace list filters nothing (ApiQueryBase::addWhereFld skips empty lists)
    const asked = p.namespace as number[] | undefined;
    const nsList = asked === undefined || asked.length === 0 ? [undefined] : [...new Set(asked)].sort(cmp);
    const byNs = nsList.length > 1;
    const filter = p.filterredir as string;
    let continueStr: string | null = null;
    const results = new Map<number, Entry>();
    /** generator mode: page ids in output order */
    const generated: number[] = [];
    const pageMap = new Map<string, number>();
    const redirTitles: string[] = [];

    // first level: pages that use the file itself
    const firstRedirect = filter === 'redirects' ? true : filter === 'nonredirects' && !redirectMode ? false : undefined;
    const firstCont = cont.length >= 2;
    const secondCont = cont.length >= 6;
    let count = 0;
    outer: for (const ns of nsList) {
      let fromId: number | undefined;
      if (firstCont) {
        const cNs = cont[0] as number;
        if (byNs && ns !== cNs) {
          if (cmp(ns!, cNs) < 0) continue;
        } else fromId = cont[1] as number;
      }
      const rows = await ctx.store.links.fileUsers({ target: root, namespace: ns, fromId, redirect: firstRedirect, descending, limit: limit - count + 1 });
      for (const row of rows) {
        if (++count > limit) {
          continueStr = `${row.ns}|${row.pageid}`;
          break outer;
        }
        if (cont.length < 2) cont.push(row.ns, row.pageid);
        if (row.isRedirect) {
          if (row.ns === NS_FILE) redirTitles.push(row.title);
          pageMap.set(row.title, row.pageid);
        }
        if (ctx.generator) generated.push(row.pageid);
        else results.set(row.pageid, entryOf(ctx, row));
      }
    }

    // second level: pages that use one of the file redirects found above
    if (redirectMode && redirTitles.length) {
      const titles = [...new Set(redirTitles)].sort((a, b) => (descending ? compareBytes(b, a) : compareBytes(a, b)));
      const byTitle = titles.length > 1;
      const secondRedirect = filter === 'redirects' ? true : filter === 'nonredirects' ? false : undefined;
      let n = 0;
      second: for (const title of titles) {
        let titleCmp = 0;
        if (secondCont && byTitle) {
          titleCmp = descending ? compareBytes(cont[3] as string, title) : compareBytes(title, cont[3] as string);
          if (titleCmp < 0) continue;
        }
        for (const ns of nsList) {
          let fromId: number | undefined;
          if (secondCont && titleCmp === 0) {
            const cNs = cont[4] as number;
            if (byNs && ns !== cNs) {
              if (cmp(ns!, cNs) < 0) continue;
            } else fromId = cont[5] as number;
          }
          const rows = await ctx.store.links.fileUsers({ target: title, namespace: ns, fromId, redirect: secondRedirect, descending, limit: limit - n + 1 });
          for (const row of rows) {
            if (++n > limit) {
              continueStr = `${cont[0]}|${cont[1]}|${NS_FILE}|${title}|${row.ns}|${row.pageid}`;
              break second;
            }
            if (cont.length < 6) cont.push(NS_FILE, title, row.ns, row.pageid);
            if (ctx.generator) {
              generated.push(row.pageid);
              continue;
            }
            const parentId = pageMap.get(title)!;
            let parent = results.get(parentId);
            if (!parent) results.set(parentId, (parent = { pageid: parentId } as Entry));
            (parent.redirlinks ??= []).push(entryOf(ctx, row));
          }
        }
      }
    }

    if (ctx.generator) await generatePageRows(ctx, generated);
    else {
      const list = ctx.result.queryList('imageusage');
      for (const e of results.values()) list.push(e);
    }
    if (continueStr !== null) ctx.setContinue('continue', continueStr);
  },
};

function entryOf(ctx: QueryModuleContext, row: FileUserRow): Entry {
  const e: Entry = { pageid: row.pageid, ns: row.ns, title: ctx.wiki.titleText(row.ns, row.title) };
  if (row.isRedirect) e.redirect = true;
  return e;
}

/** The file whose users are listed: iutitle or iupageid, in the file namespace (ApiBase::getTitleOrPageId). */
async function rootFile(ctx: QueryModuleContext): Promise<string> {
  const given = await titleOrPageId(ctx);
  const t = 'title' in given ? ctx.wiki.codec.parse(given.title, 0) : { ns: given.page.ns, dbkey: given.page.title };
  if (!t) return ctx.die('invalidtitle', texts.invalidTitle(ctx.params.title));
  if (t.ns !== NS_FILE) ctx.die('bad_image_title', 'The title for imageusage query must be a file');
  return t.dbkey;
}
