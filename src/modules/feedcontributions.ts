/**
 * action=feedcontributions (ApiFeedContributions of 1.25): a user's contributions as an RSS 2.0 or Atom
 * feed, as ContribsPager finds them (newest first, at most $wgFeedLimit = 50) and FeedItem writes them:
 * each item the page, the user and comment, and the revision's wikitext. The answer is the feed itself
 * (ApiFormatFeedWrapper), whatever format= says; errors are the format= printer's.
 */
import type { PlainActionModule } from '../api/types.js';
import { namespaceParam } from '../api/param-presets.js';
import type { ContributionRecord } from '../store/history-store.js';
import { pageUrl, serverOf } from '../wiki/files.js';
import type { FeedItem } from '../wiki/feed.js';
import { nl2br } from '../php/strings.js';
import { htmlspecialchars } from '../wiki/html.js';
import { fixSpecialName } from '../wiki/special-pages.js';
import { messageText } from '../wikitext/message-transform.js';
import { feedPrinter, setFeed } from './feed-wrapper.js';
import { MessageLoader } from './message-loader.js';

/** $wgFeedLimit */
const FEED_LIMIT = 50;

export const feedcontributionsModule: PlainActionModule = {
  kind: 'action',
  name: 'feedcontributions',
  prefix: '',
  description: 'Returns a user contributions feed.',
  params: {
    feedformat: { type: ['rss', 'atom'], default: 'rss', help: 'The format of the feed.' },
    user: { type: 'user', required: true, help: 'What users to get the contributions for.' },
    namespace: namespaceParam('Which namespace to filter the contributions by.'),
    year: { type: 'integer', help: 'From year (and earlier).' },
    month: { type: 'integer', help: 'From month (and earlier).' },
    // ChangeTags::listDefinedTags(): a dump defines no change tags
    tagfilter: { type: [], multi: true, default: '', help: 'Filter contributions that have these tags.' },
    deletedonly: { type: 'boolean', default: false, help: 'Show only deleted contributions.' },
    toponly: { type: 'boolean', default: false, help: 'Only show edits that are latest revisions.' },
    newonly: { type: 'boolean', default: false, help: 'Only show edits that are page creations.' },
    showsizediff: { type: 'boolean', default: false, help: 'Show the size difference between revisions.' },
  },
  examples: ['action=feedcontributions&user=Example'],
  className: 'ApiFeedContributions',
  customPrinter: feedPrinter,
  async run(ctx) {
    const p = ctx.params;
    ctx.markVolatile('clock');
    const user = p.user as string;
    // ApiBase::validateUser: Title::makeTitleSafe(NS_USER, …) must give a title
    const userKey = ctx.wiki.codec.titlePartToKey(user, 2);
    if (!userKey) ctx.die('baduser_user', 'Invalid value for user parameter user');
    const lang = ctx.wiki.lang;
    const loader = new MessageLoader(ctx.store, ctx.wiki);
    await loader.prefetch(['contributions', 'colon-separator'], lang);
    const title = { ns: -1, dbkey: 'Contributions' };
    const [msg, colon] = await loader.render((m) => [
      messageText(m, 'contributions', [], lang, title),
      m.exists('colon-separator', lang) ? messageText(m, 'colon-separator', [], lang, title) : ': ',
    ]);
    const server = serverOf(ctx.request.apiUrl);

    const end = dateCondition(p.year as number | undefined, p.month as number | undefined);
    let rows: ContributionRecord[] = [];
    if (!(p.tagfilter as string[]).some((t) => t !== '')) {
      rows = await ctx.store.history.contributions({
        users: [user],
        namespaces: p.namespace !== undefined ? [p.namespace as number] : undefined,
        descending: true,
        start: end,
        top: p.toponly ? true : undefined,
        isNew: p.newonly ? true : undefined,
        limit: FEED_LIMIT,
      });
    }
    // ContribsPager's deletedOnly: revisions with any rev_deleted bit
    if (p.deletedonly) rows = rows.filter((r) => r.textHidden || r.commentHidden || r.userHidden);
    const texts = await ctx.store.history.texts(rows.filter((r) => !r.textHidden).map((r) => r.revid));
    const items: FeedItem[] = rows.map((r) => {
      const prefixed = ctx.wiki.codec.prefixedDbKey(r.ns, r.title);
      const talkNs = r.ns % 2 === 0 ? r.ns + 1 : r.ns;
      const text = texts.get(r.revid);
      // ApiFeedContributions::feedItemDesc: the user, the comment without its links' targets, the text
      const html = text === undefined ? '' : nl2br(htmlspecialchars(text));
      return {
        title: ctx.wiki.titleText(r.ns, r.title),
        description: `<p>${htmlspecialchars(r.user)}${colon}${htmlspecialchars(stripComment(r.comment))}</p>\n<hr />\n<div>${html}</div>`,
        url: pageUrl(server, prefixed, `diff=${r.revid}`),
        date: r.timestamp,
        author: r.user,
        comments: pageUrl(server, ctx.wiki.codec.prefixedDbKey(talkNs, r.title)),
      };
    });
    setFeed(
      ctx,
      {
        title: `${ctx.wiki.info.sitename} - ${msg} [${lang}]`,
        description: htmlspecialchars(msg),
        url: pageUrl(server, ctx.wiki.codec.prefixedDbKey(-1, fixSpecialName(`Contributions/${userKey}`))),
      },
      items,
    );
  },
};

/** FeedItem::stripComment: [[target|text]] and [[text]] as their text */
function stripComment(text: string): string {
  return text.replace(/\[\[([^\]]*\|)?([^\]]+)\]\]/g, '$2');
}

/**
 * ReverseChronologicalPager::getDateCond: contributions before the month after `month` of `year` (the
 * year after `year` without a month; the latest such month without a year), as the TS_MW of the last
 * second before it; undefined without either.
 */
function dateCondition(yearParam: number | undefined, monthParam: number | undefined): string | undefined {
  const y = yearParam !== undefined && yearParam > 0 ? yearParam : 0;
  const m = monthParam !== undefined && monthParam > 0 && monthParam < 13 ? monthParam : 0;
  if (!y && !m) return undefined;
  let year = y;
  if (!year) {
    const now = new Date();
    year = now.getUTCFullYear();
    if (m > now.getUTCMonth() + 1) year--;
  }
  let month: number;
  if (m) {
    month = m + 1;
    if (month > 12) {
      month = 1;
      year++;
    }
  } else {
    month = 1;
    year++;
  }
  if (year > 2032) year = 2032;
  let ymd = year * 10000 + month * 100 + 1;
  if (ymd > 20320101) ymd = 20320101;
  const offset = Date.UTC(Math.floor(ymd / 10000), (Math.floor(ymd / 100) % 100) - 1, 1) - 1000;
  return new Date(offset).toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
