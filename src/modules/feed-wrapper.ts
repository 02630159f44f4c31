/**
 * What the two feed modules (ApiFeedContributions, ApiFeedRecentChanges) share: ApiFormatFeedWrapper,
 * the printer whose answer is the feed the module made, whatever format= says (errors are the format=
 * printer's), and the channel every feed of the request carries.
 */
import type { CustomPrinter, ModuleContext } from '../api/types.js';
import type { ApiResult } from '../api/result.js';
import { intval } from '../api/params.js';
import { expiresHeader } from '../api/main.js';
import { type FeedChannel, type FeedFormat, type FeedItem, feedContentType, nowTimestamp, requestQuery, writeFeed } from '../wiki/feed.js';

/** ApiFeedContributions sets no cache mode: private */
const FEED_HEADERS = { 'Cache-Control': 'private, must-revalidate, max-age=0' };

/**
 * ApiFeedRecentChanges::execute's setCacheMode('public'), with setCacheMaxAge(15) unless smaxage is given
 * (bug 63249), as ApiMain::sendCacheHeaders writes them: the cache-control members in the order they were
 * set, `public` last, and Expires at the smaller age (the epoch's first second for 0).
 */
function recentChangesCacheHeaders(raw: Record<string, string>): Record<string, string> {
  const smaxage = raw.smaxage === undefined ? 0 : intval(raw.smaxage);
  if (smaxage === 0) return { 'Cache-Control': 'max-age=15, s-maxage=15, public', Expires: expiresHeader(15) };
  const maxage = raw.maxage === undefined ? 0 : intval(raw.maxage);
  return { 'Cache-Control': `s-maxage=${smaxage}, max-age=${maxage}, public`, Expires: expiresHeader(Math.min(smaxage, maxage)) };
}

function renderFeed(result: ApiResult): string {
  return result.get('feed') as string;
}

/** ApiFormatFeedWrapper, typed by ChannelFeed::httpHeaders: the `ctype` request value when it is one of four, else application/xml */
export function feedPrinter(ctx: ModuleContext): CustomPrinter {
  return { contentType: `${feedContentType(ctx.request.raw.ctype)}; charset=UTF-8`, headers: FEED_HEADERS, render: renderFeed };
}

/** feedrecentchanges' printer: the feed printer with ApiFeedRecentChanges' public cache headers */
export function recentChangesFeedPrinter(ctx: ModuleContext): CustomPrinter {
  return {
    contentType: `${feedContentType(ctx.request.raw.ctype)}; charset=UTF-8`,
    headers: recentChangesCacheHeaders(ctx.request.raw),
    render: renderFeed,
  };
}

/** The answer: the feed of `items` in the requested `feedformat`, its channel in the wiki's language. */
export function setFeed(ctx: ModuleContext, channel: Pick<FeedChannel, 'title' | 'description' | 'url'>, items: readonly FeedItem[]): void {
  const feed = writeFeed(
    ctx.params.feedformat as FeedFormat,
    {
      title: channel.title,
      description: channel.description,
      url: channel.url,
      lang: ctx.wiki.lang,
      // Atom's self link and id: the request's own URL
      selfUrl: ctx.request.apiUrl + requestQuery(ctx.request.url),
      now: nowTimestamp(),
    },
    items,
  );
  ctx.result.set('feed', feed);
}
