/**
 * What the two feed modules (ApiFeedContributions, ApiFeedRecentChanges) share: ApiFormatFeedWrapper,
 * the printer whose answer is the feed the module made, whatever format= says (errors are the format=
 * printer's), and the channel every feed of the request carries.
 */
import type { CustomPrinter, ModuleContext } from '../api/types.js';
import type { ApiResult } from '../api/result.js';
import { type FeedChannel, type FeedFormat, type FeedItem, feedContentType, nowTimestamp, requestQuery, writeFeed } from '../wiki/feed.js';

/**
 * 1.25's ApiFeedRecentChanges asks for public caching (setCacheMaxAge(15), bug 63249) unless smaxage is
 * given; both feeds answer as private here.
 */
const FEED_HEADERS = { 'Cache-Control': 'private, must-revalidate, max-age=0' };

function renderFeed(result: ApiResult): string {
  return result.get('feed') as string;
}

/** ApiFormatFeedWrapper, typed by ChannelFeed::httpHeaders: the `ctype` request value when it is one of four, else application/xml */
export function feedPrinter(ctx: ModuleContext): CustomPrinter {
  return { contentType: `${feedContentType(ctx.request.raw.ctype)}; charset=UTF-8`, headers: FEED_HEADERS, render: renderFeed };
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
