/** prop=info (ApiQueryInfo of 1.25): basic page information, protection and URLs. */
import { continueParam } from '../../api/param-presets.js';
import { queryModule, type QueryModuleContext } from '../../api/types.js';
import type { Obj } from '../../api/result.js';
import { mwToIso } from '../../wiki/timestamps.js';
import { NS_FILE } from '../../wiki/namespaces.js';
import { pageUrl, serverOf, wfUrlencode } from '../../wiki/files.js';
import { compareBytes } from '../../wiki/collation.js';
import { intval } from '../../api/params.js';
import { dieBadContinue } from './shared.js';

const PROPS = [
  'protection',
  'talkid',
  'watched',
  'watchers',
  'notificationtimestamp',
  'subjectid',
  'url',
  'readable',
  'preload',
  'displaytitle',
];

/** ApiQueryInfo::getCacheMode: the properties every user gets alike */
const PUBLIC_PROPS = new Set(['protection', 'talkid', 'subjectid', 'url', 'preload', 'displaytitle']);

export const infoModule = queryModule({
  kind: 'prop',
  name: 'info',
  cacheMode: (params) =>
    params.token !== undefined || ((params.prop as string[] | undefined) ?? []).some((p) => !PUBLIC_PROPS.has(p)) ? 'private' : 'public',
  prefix: 'in',
  needsPageRows: true,
  description: 'Get basic page information.',
  params: {
    prop: { type: PROPS, multi: true, help: 'Which additional properties to get.' },
    token: {
      type: ['edit', 'delete', 'protect', 'move', 'block', 'unblock', 'email', 'import', 'watch'],
      multi: true,
      deprecated: true,
      help: 'Use action=query&meta=tokens instead.',
    },
    continue: continueParam(),
  },
  examples: ['action=query&prop=info&titles=Київ', 'action=query&prop=info&inprop=protection|url&titles=Київ'],
  async run(ctx) {
    const props = new Set((ctx.params.prop as string[] | undefined) ?? []);
    // intoken's starttimestamp is the time of the request
    if (ctx.params.token !== undefined) ctx.markVolatile('clock');
    const from = continueFrom(ctx);
    const associated = await associatedPageIds(ctx, props);
    // ApiQueryInfo::getDisplayTitle: the displaytitle page property of the set's pages, in one call
    const displayTitles = new Map<number, string>();
    if (props.has('displaytitle') && ctx.pageSet.good.length) {
      for (const row of await ctx.store.relations.propsOf({ pageids: ctx.pageSet.good.map((p) => p.pageid), names: ['displaytitle'] }))
        displayTitles.set(row.page, row.value);
    }
    // a generator's pages may have come without these fields: one read by id then
    for (const page of await ctx.pageSet.rows()) {
      if (from !== null && titleBefore(page.ns, page.title, from)) continue;
      const e = ctx.pageSet.entry(page.pageid)!;
      e.contentmodel = page.contentModel;
      e.pagelanguage = ctx.wiki.lang;
      e.touched = mwToIso(page.touched);
      e.lastrevid = page.latestRevId;
      e.length = page.length;
      if (page.isRedirect) e.redirect = true;
      if (page.revCount === 1) e.new = true;
      extras(ctx, e, page.ns, page.title, props, true, associated, displayTitles.get(page.pageid));
    }
    for (const m of ctx.pageSet.missing) {
      if (from !== null && titleBefore(m.ns, m.dbkey, from)) continue;
      const e = ctx.pageSet.entry(m.fakeId)!;
      e.contentmodel = 'wikitext';
      e.pagelanguage = ctx.wiki.lang;
      extras(ctx, e, m.ns, m.dbkey, props, false, associated);
    }
  },
});

/**
 * ApiQueryInfo.php:311-324 of 1.25: `incontinue` is "ns|title"; the pages before that title (Title::compare:
 * namespace, then DB key) get no info. Another shape is `badcontinue`; so is a title that cannot be one,
 * where 1.25 compared with null and failed.
 */
function continueFrom(ctx: QueryModuleContext): { ns: number; dbkey: string } | null {
  const value = ctx.params.continue as string | undefined;
  if (value === undefined) return null;
  const cont = value.split('|');
  if (cont.length !== 2) dieBadContinue(ctx);
  const ns = intval(cont[0]!);
  const dbkey = ctx.wiki.codec.titlePartToKey(cont[1]!, ns);
  if (dbkey === null || dbkey === '') dieBadContinue(ctx);
  return { ns, dbkey };
}

function titleBefore(ns: number, dbkey: string, from: { ns: number; dbkey: string }): boolean {
  return ns < from.ns || (ns === from.ns && compareBytes(dbkey, from.dbkey) < 0);
}

/**
 * The talk pages (talkid) and subject pages (subjectid) of every page in the set that exist, as
 * "ns:dbkey" → page id: one store call for the whole set.
 */
async function associatedPageIds(ctx: QueryModuleContext, props: Set<string>): Promise<Map<string, number>> {
  const wanted: Array<{ ns: number; dbkey: string }> = [];
  const all = [...ctx.pageSet.good.map((p) => ({ ns: p.ns, dbkey: p.title })), ...ctx.pageSet.missing];
  for (const { ns, dbkey } of all) {
    if (props.has('talkid') && ns >= 0 && ns % 2 === 0) wanted.push({ ns: ns + 1, dbkey });
    if (props.has('subjectid') && ns > 0 && ns % 2 === 1) wanted.push({ ns: ns - 1, dbkey });
  }
  const rows = wanted.length ? await ctx.store.pages.byTitles(wanted) : [];
  return new Map(rows.map((r) => [r.ns + ':' + r.title, r.pageid]));
}

function extras(
  ctx: QueryModuleContext,
  e: Obj,
  ns: number,
  dbkey: string,
  props: Set<string>,
  exists: boolean,
  associated: Map<string, number>,
  displayTitle?: string,
): void {
  const tokens = ctx.params.token as string[] | undefined;
  if (tokens !== undefined) {
    // the deprecated intoken: every token function refuses an anonymous reader (no edit, delete, …
    // right; watch needs a login); without same-origin security there are none, and PHP's call gives null
    e.starttimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
    for (const t of tokens) {
      if (ctx.lacksSameOriginSecurity) e[t + 'token'] = null;
      else ctx.warn(`Action '${t}' is not allowed for the current user`);
    }
  }
  if (props.has('protection')) {
    // nothing is protected on this wiki; the restriction types are those MediaWiki offers
    e.protection = [];
    e.restrictiontypes = exists ? (ns === NS_FILE ? ['edit', 'move', 'upload'] : ['edit', 'move']) : ['create'];
  }
  if (props.has('talkid') && ns >= 0 && ns % 2 === 0) {
    const talk = associated.get(ns + 1 + ':' + dbkey);
    if (talk !== undefined) e.talkid = talk;
  }
  if (props.has('subjectid') && ns > 0 && ns % 2 === 1) {
    const subject = associated.get(ns - 1 + ':' + dbkey);
    if (subject !== undefined) e.subjectid = subject;
  }
  if (props.has('url')) {
    const server = serverOf(ctx.request.apiUrl);
    const key = ctx.wiki.codec.prefixedDbKey(ns, dbkey);
    e.fullurl = pageUrl(server, key);
    e.editurl = `${server}/index.php?title=${wfUrlencode(key)}&action=edit`;
    e.canonicalurl = e.fullurl;
  }
  if (props.has('readable')) e.readable = true;
  if (props.has('preload')) e.preload = exists ? '' : null;
  if (props.has('displaytitle')) e.displaytitle = displayTitle ?? ctx.wiki.titleText(ns, dbkey);
  // watched, watchers, notificationtimestamp: anonymous users have no watchlist, MediaWiki adds nothing
}
