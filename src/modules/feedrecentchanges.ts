/**
 * action=feedrecentchanges (ApiFeedRecentChanges of 1.25): Special:RecentChanges' rows as an RSS 2.0 or
 * Atom feed. The rows are those SpecialRecentchanges::getRows reads (ChangesListSpecialPage's filters,
 * the days cutoff, newest first, at most `limit`); ChangesFeed::buildItems merges adjacent edits of a
 * page by one user and FeedUtils::formatDiffRow describes each: the comment, then the diff with the
 * previous revision (or a new page's text). The answer is the feed itself, whatever format= says.
 */
import type { ModuleContext, PlainActionModule } from '../api/types.js';
import { namespaceParam } from '../api/param-presets.js';
import type { RecentChangeOptions, RecentChangeRecord, RevisionRecord } from '../store/history-store.js';
import { addDiffHeader, applyDiffStyle, ukTimeAndDate } from '../wiki/feed-diff.js';
import { pageUrl, serverOf } from '../wiki/files.js';
import type { FeedItem } from '../wiki/feed.js';
import { nl2br } from '../php/strings.js';
import { htmlspecialchars } from '../wiki/html.js';
import { formatNumText } from '../wiki/language.js';
import { userLanguage } from '../wiki/messages.js';
import { fixSpecialName } from '../wiki/special-pages.js';
import { dateToMw } from '../wiki/timestamps.js';
import { messageText } from '../wikitext/message-transform.js';
import { diffBody } from './difference-engine.js';
import { recentChangesFeedPrinter, setFeed } from './feed-wrapper.js';
import { MessageLoader } from './message-loader.js';
import { commentLinks, formatComment } from './query/comments.js';

/** 0001-01-01T00:00:00Z in Unix seconds: the earliest cutoff a TS_MW can write */
const FIRST_YEAR_UNIX = -62135596800;
/** $wgFeedLimit */
const FEED_LIMIT = 50;
/** $wgFeedDiffCutoff: longer diffs (and new pages' texts) are a link instead */
const FEED_DIFF_CUTOFF = 32768;
/** DifferenceEngine::getMultiNotice counts at most this many intermediate revisions, and their authors up to 100 */
const MULTI_MAX_EDITS = 1000;
const MULTI_MAX_USERS = 100;
const MONTH_GEN = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
].map((m) => `${m}-gen`);
const MESSAGES = [
  'recentchanges',
  'recentchanges-feed-description',
  'previousrevision',
  'revisionasof',
  'newpage',
  'showdiff',
  'diff-empty',
  'diff-multi-sameuser',
  'diff-multi-otherusers',
  'diff-multi-manyusers',
  'rev-deleted-comment',
  ...MONTH_GEN,
];

export const feedrecentchangesModule: PlainActionModule = {
  kind: 'action',
  name: 'feedrecentchanges',
  prefix: '',
  description: 'Returns a recent changes feed.',
  params: {
    feedformat: { type: ['rss', 'atom'], default: 'rss', help: 'The format of the feed.' },
    namespace: namespaceParam('Namespace to limit the results to.'),
    invert: { type: 'boolean', default: false, help: 'All namespaces but the selected one.' },
    associated: { type: 'boolean', default: false, help: 'Include associated (talk or main) namespace.' },
    days: { type: 'integer', default: 7, min: 1, help: 'Days to limit the results to.' },
    limit: { type: 'integer', default: 50, min: 1, max: FEED_LIMIT, help: 'Maximum number of results to return.' },
    from: { type: 'timestamp', help: 'Show changes since then.' },
    hideminor: { type: 'boolean', default: false, help: 'Hide minor changes.' },
    hidebots: { type: 'boolean', default: false, help: 'Hide changes made by bots.' },
    hideanons: { type: 'boolean', default: false, help: 'Hide changes made by anonymous users.' },
    hideliu: { type: 'boolean', default: false, help: 'Hide changes made by registered users.' },
    hidepatrolled: { type: 'boolean', default: false, help: 'Hide patrolled changes.' },
    hidemyself: { type: 'boolean', default: false, help: 'Hide changes made by the current user.' },
    tagfilter: { type: 'string', help: 'Filter by tag.' },
  },
  examples: ['action=feedrecentchanges', 'action=feedrecentchanges&days=30'],
  className: 'ApiFeedRecentChanges',
  customPrinter: recentChangesFeedPrinter,
  async run(ctx) {
    const p = ctx.params;
    ctx.markVolatile('clock');
    const lang = ctx.wiki.lang;
    const userLang = userLanguage(ctx.request.raw.uselang, lang);
    const loader = new MessageLoader(ctx.store, ctx.wiki);
    await loader.prefetchAll([
      { keys: MESSAGES, code: lang },
      { keys: MESSAGES, code: userLang },
    ]);
    const rows = await recentChangeRows(ctx, p);
    const sorted = mergeAdjacentEdits(rows).filter((r) => r.deleted === 0);
    const links = await commentLinks(
      ctx,
      sorted.map((r) => r.comment),
    );
    const server = serverOf(ctx.request.apiUrl);

    // the diffs and texts the items show, each read and made once
    const bodies = new Map<RecentChangeRecord, ItemDiff>();
    const newTexts = new Map<number, string>();
    const newIds = sorted.filter((r) => r.ns >= 0 && r.revid && !r.oldRevid).map((r) => r.revid);
    for (const [id, text] of await ctx.store.history.texts(newIds)) newTexts.set(id, text);
    const edits = sorted.filter((r) => r.ns >= 0 && r.revid && r.oldRevid);
    // the revisions and texts of all diffs in one store call each
    const revs = new Map<number, RevisionRecord>();
    for (const v of await ctx.store.history.revisionsByIds(edits.flatMap((r) => [r.oldRevid, r.revid]))) revs.set(v.revid, v);
    const diffTexts = await ctx.store.history.texts([...revs.values()].filter((v) => !v.textHidden).map((v) => v.revid));
    for (const r of edits) bodies.set(r, await itemDiff(ctx, revs.get(r.oldRevid), revs.get(r.revid), diffTexts));

    const title = { ns: -1, dbkey: 'RecentChanges' };
    const texts = await loader.render((m) => {
      const text = (key: string, code: string, args: string[] = []) => messageText(m, key, args, code, title);
      const monthGen = (n: number) => text(MONTH_GEN[n - 1], userLang);
      const multi = new Map<RecentChangeRecord, string>();
      for (const [r, d] of bodies) {
        if (d.body === null || d.edits === 0) continue;
        // DifferenceEngine::intermediateEditsMsg, its message parsed
        const key = d.users === 0 ? 'diff-multi-sameuser' : d.users > MULTI_MAX_USERS ? 'diff-multi-manyusers' : 'diff-multi-otherusers';
        const users = Math.min(d.users, MULTI_MAX_USERS);
        multi.set(r, text(key, userLang, [formatNumText(String(d.edits), userLang), formatNumText(String(users), userLang)]));
      }
      return {
        feedTitle: text('recentchanges', lang),
        feedDescription: text('recentchanges-feed-description', lang),
        previous: text('previousrevision', userLang),
        asOf: (ts: string) => {
          const [both, date, time] = ukTimeAndDate(ts, monthGen);
          return text('revisionasof', userLang, [both, date, time]);
        },
        newpage: text('newpage', userLang),
        showdiff: text('showdiff', lang),
        empty: text('diff-empty', userLang),
        multi,
      };
    });
    const items: FeedItem[] = sorted.map((r) => {
      const prefixed = ctx.wiki.codec.prefixedDbKey(r.ns, r.title);
      const canTalk = r.ns >= 0;
      const talkNs = r.ns % 2 === 0 ? r.ns + 1 : r.ns;
      const url = r.revid ? pageUrl(server, prefixed, `diff=${r.revid}&oldid=${r.oldRevid}`) : pageUrl(server, prefixed);
      let description = r.comment === '' ? '<p></p>\n' : `<p>${formatComment(ctx, r.comment, links)}</p>\n`;
      if (r.ns >= 0 && r.revid) {
        const diffLink = (query: string) =>
          `<a href="${htmlspecialchars(pageUrl(server, prefixed, query))}">${htmlspecialchars(texts.showdiff)}</a>`;
        if (r.oldRevid) {
          const body = bodies.get(r)?.body;
          let diffText: string;
          if (body === null || body === undefined) diffText = `<p>Can't load revision ${r.revid}</p>`;
          else {
            const notice = body === '' ? `<div class="mw-diff-empty">${texts.empty}</div>\n` : '';
            const full = addDiffHeader(body, texts.previous, texts.asOf(r.timestamp), texts.multi.get(r) ?? '', notice);
            diffText = Buffer.byteLength(full) > FEED_DIFF_CUTOFF ? diffLink(`diff=${r.revid}&oldid=${r.oldRevid}`) : applyDiffStyle(full);
          }
          description += diffText;
        } else {
          const text = newTexts.get(r.revid) ?? '';
          description +=
            Buffer.byteLength(text) > FEED_DIFF_CUTOFF
              ? diffLink(`diff=${r.revid}`)
              : `<p><b>${texts.newpage}</b></p><div>${nl2br(htmlspecialchars(text))}</div>`;
        }
      }
      return {
        title: ctx.wiki.titleText(r.ns, r.title),
        description,
        url,
        date: r.timestamp,
        author: r.user,
        comments: canTalk ? pageUrl(server, ctx.wiki.codec.prefixedDbKey(talkNs, r.title)) : '',
      };
    });
    setFeed(
      ctx,
      {
        // ChangesFeed::getFeedObject: "$wgSitename  - $title [$wgLanguageCode]", two spaces and all
        title: `${ctx.wiki.info.sitename}  - ${texts.feedTitle} [${lang}]`,
        description: htmlspecialchars(texts.feedDescription),
        url: pageUrl(server, ctx.wiki.codec.prefixedDbKey(-1, fixSpecialName('Recentchanges'))),
      },
      items,
    );
  },
};

interface ItemDiff {
  /** the diff body; null where getDiffBody gives false */
  body: string | null;
  /** getMultiNotice's count of the revisions between the two, and of their authors (0: only the new one's) */
  edits: number;
  users: number;
}

/**
 * DifferenceEngine::getDiffBody and getMultiNotice's counts for a change's revision and the one before
 * it; the revisions between are read only when there are some (a merged item's), the new revision's
 * parent not being the old one.
 */
async function itemDiff(
  ctx: ModuleContext,
  oldRev: RevisionRecord | undefined,
  newRev: RevisionRecord | undefined,
  texts: Map<number, string>,
): Promise<ItemDiff> {
  if (!oldRev || !newRev || oldRev.textHidden || newRev.textHidden) return { body: null, edits: 0, users: 0 };
  const oldText = texts.get(oldRev.revid);
  const newText = texts.get(newRev.revid);
  if (oldText === undefined || newText === undefined) return { body: null, edits: 0, users: 0 };
  const body = oldRev.revid === newRev.revid ? '' : await diffBody(ctx, oldText, newText);
  if (oldRev.pageid !== newRev.pageid || oldRev.revid === newRev.revid || newRev.parentid === oldRev.revid)
    return { body, edits: 0, users: 0 };
  const [lo, hi] = oldRev.timestamp > newRev.timestamp ? [newRev, oldRev] : [oldRev, newRev];
  const between = (
    await ctx.store.history.pageHistory({
      pageid: hi.pageid,
      dir: 'newer',
      orderBy: 'id',
      startId: Math.min(lo.revid, hi.revid) + 1,
      endId: Math.max(lo.revid, hi.revid) - 1,
      limit: MULTI_MAX_EDITS + 1,
    })
  ).filter((v) => v.timestamp > lo.timestamp && v.timestamp < hi.timestamp);
  if (between.length === 0 || between.length > MULTI_MAX_EDITS) return { body, edits: 0, users: 0 };
  const authors = new Set(between.map((v) => v.user));
  let users = authors.size;
  if (users === 1 && authors.has(hi.user)) users = 0;
  return { body, edits: between.length, users };
}

/**
 * SpecialRecentchanges::getRows for the API's parameters: ChangesListSpecialPage's filters (hidebots
 * is on unless the request says otherwise, as the special page's default), rc_timestamp from the start
 * of the day `days` before now (or from `from` when later), newest first.
 */
async function recentChangeRows(ctx: ModuleContext, p: Record<string, unknown>): Promise<RecentChangeRecord[]> {
  // ChangeTags::modifyDisplayQuery joins change_tag on the tag: a dump has no change tags
  if (typeof p.tagfilter === 'string' && p.tagfilter !== '') return [];
  const raw = ctx.request.raw;
  // FormOptions::fetchValuesFromRequest reads the booleans with WebRequest::getBool over the defaults
  const flag = (name: string, dflt: boolean) => (raw[name] === undefined ? dflt : phpBool(raw[name]));
  const hideminor = flag('hideminor', false);
  const hidebots = flag('hidebots', true);
  let hideanons = flag('hideanons', false);
  const hideliu = flag('hideliu', false);
  const opts: RecentChangeOptions = { descending: true, limit: p.limit as number };
  let botsOnly = false;
  if (hideanons && hideliu) {
    if (hidebots) hideanons = false;
    else botsOnly = true;
  }
  if (hideminor) opts.minor = false;
  if (hidebots) opts.bot = false;
  // hidepatrolled needs User::useRCPatrol, which an anonymous reader lacks
  if (botsOnly) opts.bot = true;
  else if (hideliu) opts.anon = true;
  else if (hideanons) opts.anon = false;
  // an anonymous reader is its address
  if (flag('hidemyself', false)) opts.excludeUser = ctx.request.ip;
  if (p.namespace !== undefined) {
    const ns = p.namespace as number;
    const selected = p.associated ? [ns, ns < 0 ? ns : ns % 2 === 0 ? ns + 1 : ns - 1] : [ns];
    opts.namespaces = p.invert ? ctx.wiki.namespaceIds.map(Number).filter((n) => !selected.includes(n)) : selected;
  }
  const now = Math.floor(Date.now() / 1000);
  let cutoffUnix = now - (p.days as number) * 86400;
  cutoffUnix -= ((cutoffUnix % 86400) + 86400) % 86400;
  // a cutoff before the year 1 (days in the millions) is before every change: PHP's negative TS_MW sorts first
  let cutoff = Number.isFinite(cutoffUnix) && cutoffUnix >= FIRST_YEAR_UNIX ? dateToMw(new Date(cutoffUnix * 1000)) : '00000000000000';
  // the special page reads `from` from the request itself, and takes only a TS_MW
  const from = raw.from;
  if (from !== undefined && /^[0-9]{14}$/.test(from) && from > cutoff) cutoff = from;
  opts.end = cutoff;
  return ctx.store.history.recentChanges(opts);
}

/** WebRequest::getBool: PHP's (bool) cast of the string, with "false" false as well */
function phpBool(v: string): boolean {
  return v !== '' && v !== '0' && v.toLowerCase() !== 'false';
}

/** ChangesFeed::buildItems' merge: an edit of the same page by the same user as the row before joins it */
function mergeAdjacentEdits(rows: readonly RecentChangeRecord[]): RecentChangeRecord[] {
  const sorted: RecentChangeRecord[] = [];
  for (const r of rows) {
    const last = sorted[sorted.length - 1];
    if (last !== undefined && r.type === 0 && r.ns >= 0 && r.pageid === last.pageid && r.user === last.user) {
      // the store's rows are this request's own: merged in place, as 1.25 changes its row object
      last.oldRevid = r.oldRevid;
    } else sorted.push(r);
  }
  return sorted;
}
