/**
 * ApiQueryBacklinks of 1.25 for list=backlinks (pagelinks), list=embeddedin (templatelinks) and
 * list=imageusage (imagelinks): the pages that link to / transclude / use one title (`title` or
 * `pageid`), in page id order -- (namespace, page id) order when several namespaces are asked for.
 * Continuation `<namespace>|<page id>` of the next page. With blredirect, the pages that link to a
 * redirect found among them are listed under that redirect's `redirlinks`, with the two-level
 * continuation `<first ns>|<first id>|<redirect ns>|<redirect title>|<ns>|<page id>`.
 *
 * imagelinks stores file names without a namespace (1.25's $this->hasNS is false): the title must be a
 * file, only redirects in the file namespace are followed, and the second level's continuation compares
 * the redirect title only when several were found. Where 1.25 deviates from itself this follows the
 * intent: the redirect flag of a redirlinks entry belongs to that entry alone.
 */
import { continueParam, dirParam, limitParam, namespaceParam } from '../../api/param-presets.js';
import type { ParamDecls, QueryModule, QueryModuleContext } from '../../api/types.js';
import { texts } from '../../api/errors.js';
import { compareBytes } from '../../wiki/collation.js';
import type { LinkTable, LinkerRow } from '../../store/relation-store.js';
import type { FileUserRow } from '../../store/link-store.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { dieBadContinue, generatePageRows, moduleFromSpec, type ModuleSpec, titleOrPageId } from './shared.js';

interface Entry {
  pageid: number;
  ns: number;
  title: string;
  redirect?: boolean;
  redirlinks?: Entry[];
}

/** What one of the modules is: its name (also its result key), prefix, table, redirect option and help. */
export interface BacklinksSpec extends ModuleSpec {
  table: LinkTable | 'imagelinks';
  /** whether the module has the `redirect` parameter (list=embeddedin has not) */
  withRedirect: boolean;
}

/** The module the spec describes: ApiQueryBacklinks' parameters and run over the spec's table. */
export function defineBacklinksModule(spec: BacklinksSpec): QueryModule {
  return moduleFromSpec('list', spec, backlinksParams(spec.prefix, spec.withRedirect), runBacklinks);
}

function backlinksParams(code: string, withRedirect: boolean): ParamDecls {
  const p: ParamDecls = {
    title: { type: 'string', help: `Title to search. Cannot be used together with ${code}pageid.` },
    pageid: { type: 'integer', help: `Page ID to search. Cannot be used together with ${code}title.` },
    continue: continueParam(),
    namespace: namespaceParam('The namespace to enumerate.', { multi: true }),
    dir: dirParam(),
    filterredir: { type: ['all', 'redirects', 'nonredirects'], default: 'all', help: 'How to filter for redirects.' },
    limit: limitParam(
      10,
      withRedirect
        ? `How many total pages to return. If ${code}redirect is enabled, the limit applies to each level separately (which means up to 2 * ${code}limit results may be returned).`
        : 'How many total pages to return.',
    ),
  };
  if (withRedirect)
    p.redirect = {
      type: 'boolean',
      default: false,
      help: 'If linking page is a redirect, find all pages that link to that redirect as well. Maximum limit is halved.',
    };
  return p;
}

async function runBacklinks(ctx: QueryModuleContext, o: BacklinksSpec): Promise<void> {
  const p = ctx.params;
  const redirectMode = p.redirect === true;
  const limit = redirectMode ? halvedLimit(ctx, o.name) : (p.limit as number);
  const files = o.table === 'imagelinks';
  const given = await titleOrPageId(ctx);
  const rootTitle = 'title' in given ? ctx.wiki.codec.parse(given.title, 0) : { ns: given.page.ns, dbkey: given.page.title };
  if (!rootTitle) return ctx.die('invalidtitle', texts.invalidTitle(p.title as string));
  if (files && rootTitle.ns !== NS_FILE) ctx.die('bad_image_title', 'The title for imageusage query must be a file');
  const root = { ns: rootTitle.ns, title: rootTitle.dbkey };
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
  const generated: number[] = [];
  const pageMap = new Map<string, number>();
  const redirTitles: Array<{ ns: number; title: string }> = [];

  // first level: pages that link to the title itself (bug 22245: no nonredirects filter with redirect)
  const firstRedirect = filter === 'redirects' ? true : filter === 'nonredirects' && !redirectMode ? false : undefined;
  const firstCont = cont.length >= 2;
  const secondCont = cont.length >= 6;
  // first level: one range per namespace asked for (or one for all), the continuation's first
  const firstRanges: Range[] = [];
  pushFromNsRanges(firstRanges, root, nsList, byNs, cmp, firstCont ? (cont[0] as number) : undefined, cont[1] as number);
  let count = 0;
  for (const row of await readRanges(ctx, o.table, firstRanges, firstRedirect, descending, limit + 1)) {
    if (++count > limit) {
      continueStr = `${row.fromNs}|${row.pageid}`;
      break;
    }
    if (cont.length < 2) cont.push(row.fromNs, row.pageid);
    // imagelinks holds file names: only a file redirect has pages that use it
    if (row.isRedirect && (!files || row.ns === NS_FILE)) {
      redirTitles.push({ ns: row.ns, title: row.title });
      pageMap.set(`${row.ns}|${row.title}`, row.pageid);
    }
    if (ctx.generator) generated.push(row.pageid);
    else results.set(row.pageid, entryOf(ctx, row));
  }

  // second level: pages that link to one of the redirects found above, in (ns, title, [from ns,] id) order
  if (redirectMode && redirTitles.length) {
    const key = (t: { ns: number; title: string }) => `${t.ns}|${t.title}`;
    const unique = [...new Map(redirTitles.map((t) => [key(t), t])).values()];
    unique.sort((a, b) => (a.ns !== b.ns ? cmp(a.ns, b.ns) : descending ? compareBytes(b.title, a.title) : compareBytes(a.title, b.title)));
    const secondRedirect = filter === 'redirects' ? true : filter === 'nonredirects' ? false : undefined;
    const ranges: Range[] = [];
    const byTitle = unique.length > 1;
    for (const t of unique) {
      let titleCmp = 0;
      if (secondCont && (!files || byTitle)) {
        const cNs = cont[2] as number;
        titleCmp =
          !files && t.ns !== cNs
            ? cmp(t.ns, cNs)
            : descending
              ? compareBytes(cont[3] as string, t.title)
              : compareBytes(t.title, cont[3] as string);
        if (titleCmp < 0) continue;
      }
      // the linking page's namespace is its from namespace: the same filter as 1.25's page_namespace
      pushFromNsRanges(ranges, t, nsList, byNs, cmp, secondCont && titleCmp === 0 ? (cont[4] as number) : undefined, cont[5] as number);
    }
    let n = 0;
    for (const row of await readRanges(ctx, o.table, ranges, secondRedirect, descending, limit + 1)) {
      const t = ranges[row.target];
      if (++n > limit) {
        continueStr = `${cont[0]}|${cont[1]}|${t.ns}|${t.title}|${row.ns}|${row.pageid}`;
        break;
      }
      if (cont.length < 6) cont.push(t.ns, t.title, row.ns, row.pageid);
      if (ctx.generator) {
        generated.push(row.pageid);
        continue;
      }
      const parentId = pageMap.get(key(t))!;
      let parent = results.get(parentId);
      if (!parent) results.set(parentId, (parent = { pageid: parentId } as Entry));
      (parent.redirlinks ??= []).push(entryOf(ctx, row));
    }
  }

  if (ctx.generator) await generatePageRows(ctx, generated);
  else {
    const list = ctx.result.queryList(o.name);
    for (const e of results.values()) list.push(e);
  }
  if (continueStr !== null) ctx.setContinue('continue', continueStr);
}

interface Range {
  ns: number;
  title: string;
  fromNs?: number;
  fromId?: number;
}

/**
 * The ranges of one target, one per from namespace of `nsList` (undefined: all), in output order; with
 * a continuation at `contNs` the ranges before it are left out and its own starts at page `contId`.
 */
function pushFromNsRanges(
  ranges: Range[],
  target: { ns: number; title: string },
  nsList: Array<number | undefined>,
  byNs: boolean,
  cmp: (a: number, b: number) => number,
  contNs: number | undefined,
  contId: number,
): void {
  for (const fromNs of nsList) {
    let fromId: number | undefined;
    if (contNs !== undefined) {
      if (byNs && fromNs !== contNs) {
        if (cmp(fromNs!, contNs) < 0) continue;
      } else fromId = contId;
    }
    ranges.push({ ns: target.ns, title: target.title, fromNs, fromId });
  }
}

/** A linking page of one of the ranges read (`target`: the range's index). */
type RangeRow = Pick<LinkerRow, 'pageid' | 'ns' | 'title' | 'isRedirect' | 'fromNs'> & { target: number };

/**
 * The rows of several (target, from namespace) ranges, one after the other, at most `limit`: one store
 * call for the batch when ascending; descending, one per range (each a range scan read backwards).
 * imagelinks is read one range at a time, its linking pages' namespace standing for the from namespace.
 */
async function readRanges(
  ctx: QueryModuleContext,
  table: LinkTable | 'imagelinks',
  ranges: Range[],
  redirect: boolean | undefined,
  descending: boolean,
  limit: number,
): Promise<RangeRow[]> {
  if (ranges.length === 0) return [];
  if (table === 'imagelinks') return readFileUsers(ctx, ranges, redirect, descending, limit);
  const all = ranges.every((r) => r.fromNs !== undefined);
  if (!descending && (all || ranges.every((r) => r.fromNs === undefined)))
    return ctx.store.relations.linkersOf({ table, targets: ranges, redirect, limit });
  const out: RangeRow[] = [];
  for (let i = 0; i < ranges.length && out.length < limit; i++) {
    const r = ranges[i];
    const rows = await ctx.store.relations.linkers({
      table,
      ns: r.ns,
      title: r.title,
      fromNs: r.fromNs,
      fromId: r.fromId,
      redirect,
      descending,
      limit: limit - out.length,
    });
    for (const row of rows) {
      (row as LinkerRow & { target: number }).target = i;
      out.push(row as LinkerRow & { target: number });
    }
  }
  return out;
}

async function readFileUsers(
  ctx: QueryModuleContext,
  ranges: Range[],
  redirect: boolean | undefined,
  descending: boolean,
  limit: number,
): Promise<RangeRow[]> {
  const out: RangeRow[] = [];
  for (let i = 0; i < ranges.length && out.length < limit; i++) {
    const r = ranges[i];
    const rows = await ctx.store.links.fileUsers({
      target: r.title,
      namespace: r.fromNs,
      fromId: r.fromId,
      redirect,
      descending,
      limit: limit - out.length,
    });
    for (const row of rows as Array<FileUserRow & Partial<RangeRow>>) {
      row.fromNs = row.ns;
      row.target = i;
      out.push(row as RangeRow);
    }
  }
  return out;
}

function entryOf(ctx: QueryModuleContext, row: RangeRow): Entry {
  const e: Entry = { pageid: row.pageid, ns: row.ns, title: ctx.wiki.titleText(row.ns, row.title) };
  if (row.isRedirect) e.redirect = true;
  return e;
}

/**
 * The continuation: [from_ns, from_id] for the first level, then [ns, title, from_ns, from_id] for the
 * redirects (empty without a continue parameter).
 */
function parseBacklinksContinue(ctx: QueryModuleContext): Array<number | string> {
  const p = ctx.params;
  const cont: Array<number | string> = [];
  if (p.continue !== undefined) {
    const parts = (p.continue as string).split('|');
    // each number must be written as PHP writes an int ("07" and "+7" are refused)
    const int = (v: string): number => {
      const n = Number.parseInt(v, 10);
      if (String(n) !== v) dieBadContinue(ctx);
      return n;
    };
    if (![2, 6, 7, 8].includes(parts.length)) dieBadContinue(ctx);
    if (parts.length >= 6) {
      cont[2] = int(parts[2]);
      cont[3] = parts[3];
      cont[4] = int(parts[4]);
      cont[5] = int(parts[5]);
    }
    cont[0] = int(parts[0]);
    cont[1] = int(parts[1]);
    for (let i = 6; i < parts.length; i++) int(parts[i]);
  }
  return cont;
}

/** With the redirect option the limit is validated against half the usual maxima (250 for users). */
function halvedLimit(ctx: QueryModuleContext, module: string): number {
  const enc = ctx.encodeParamName('limit');
  const max = 250;
  if (ctx.request.raw[enc] === 'max') {
    (ctx.result.object('limits') as Record<string, unknown>)[module] = max;
    return max;
  }
  const v = ctx.params.limit as number;
  if (v > max) {
    ctx.warn(texts.overForUsers(enc, max, v));
    return max;
  }
  return v;
}
