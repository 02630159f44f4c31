/**
 * Syndication feeds as MediaWiki 1.25 writes them (includes/Feed.php: FeedItem, RSSFeed, AtomFeed, their
 * PHP templates whitespace and all). Pure text making: the caller gathers the channel and its items.
 */
import { htmlspecialchars } from './html.js';
import { MEDIAWIKI_VERSION } from './wiki.js';

export type FeedFormat = 'rss' | 'atom';

export interface FeedItem {
  title: string;
  /** HTML (escaped once more in the feed) */
  description: string;
  /** absolute URL; also the item's unique id */
  url: string;
  /** TS_MW, '' for none */
  date: string;
  author: string;
  /** absolute URL of the talk page, '' for none */
  comments: string;
}

export interface FeedChannel {
  title: string;
  /** as ChannelFeed is constructed with it: already HTML-escaped once */
  description: string;
  url: string;
  lang: string;
  /** Atom's self link and id: the request's full URL */
  selfUrl: string;
  /** the feed's build time, TS_MW */
  now: string;
}

/** FeedItem::xmlEncode: CRLF as LF, control characters dropped, then htmlspecialchars */
function xmlEncode(s: string): string {
  return htmlspecialchars(s.replace(/\r\n/g, '\n').replace(/[\x00-\x08\x0b\x0c\x0e-\x1f]/g, ''));
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

function dateOf(ts: string): Date {
  return new Date(Date.UTC(+ts.slice(0, 4), +ts.slice(4, 6) - 1, +ts.slice(6, 8), +ts.slice(8, 10), +ts.slice(10, 12), +ts.slice(12, 14)));
}
const two = (n: number) => String(n).padStart(2, '0');

/** RSSFeed::formatTime: gmdate('D, d M Y H:i:s \G\M\T') */
function rssTime(ts: string): string {
  const d = dateOf(ts);
  return `${DAYS[d.getUTCDay()]}, ${two(d.getUTCDate())} ${MONTHS[d.getUTCMonth()]} ${d.getUTCFullYear()} ${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} GMT`;
}

/** AtomFeed::formatTime: gmdate('Y-m-d\TH:i:s') */
function atomTime(ts: string): string {
  return `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}`;
}

/** outHeader, outItem for each item, outFooter of RSSFeed or AtomFeed */
export function writeFeed(format: FeedFormat, channel: FeedChannel, items: readonly FeedItem[]): string {
  return format === 'rss' ? writeRss(channel, items) : writeAtom(channel, items);
}

function writeRss(c: FeedChannel, items: readonly FeedItem[]): string {
  let out =
    '<?xml version="1.0"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n\t<channel>\n' +
    `\t\t<title>${xmlEncode(c.title)}</title>\n\t\t<link>${xmlEncode(c.url)}</link>\n` +
    `\t\t<description>${xmlEncode(c.description)}</description>\n\t\t<language>${c.lang}</language>\n` +
    `\t\t<generator>MediaWiki ${MEDIAWIKI_VERSION}</generator>\n\t\t<lastBuildDate>${rssTime(c.now)}</lastBuildDate>\n`;
  for (const item of items) {
    // the template's `?>` eats the line end after each optional element
    out +=
      `\t\t<item>\n\t\t\t<title>${xmlEncode(item.title)}</title>\n\t\t\t<link>${xmlEncode(item.url)}</link>\n` +
      `\t\t\t<guid isPermaLink="false">${xmlEncode(item.url)}</guid>\n` +
      `\t\t\t<description>${xmlEncode(item.description)}</description>\n` +
      `\t\t\t${item.date ? `<pubDate>${rssTime(item.date)}</pubDate>` : ''}` +
      `\t\t\t${item.author ? `<dc:creator>${xmlEncode(item.author)}</dc:creator>` : ''}` +
      `\t\t\t${item.comments ? `<comments>${xmlEncode(item.comments)}</comments>` : ''}` +
      '\t\t</item>\n';
  }
  return out + '\t</channel>\n</rss>';
}

function writeAtom(c: FeedChannel, items: readonly FeedItem[]): string {
  const self = htmlspecialchars(c.selfUrl);
  let out =
    `<?xml version="1.0"?>\n<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="${c.lang}">\n\t\t<id>${self}</id>\n` +
    `\t\t<title>${xmlEncode(c.title)}</title>\n\t\t<link rel="self" type="application/atom+xml" href="${self}"/>\n` +
    `\t\t<link rel="alternate" type="text/html" href="${xmlEncode(c.url)}"/>\n\t\t<updated>${atomTime(c.now)}Z</updated>\n` +
    `\t\t<subtitle>${xmlEncode(c.description)}</subtitle>\n\t\t<generator>MediaWiki ${MEDIAWIKI_VERSION}</generator>\n`;
  for (const item of items) {
    // the template's line ends, as PHP leaves them around its `<?php … ?>` blocks
    out +=
      `\n\t<entry>\n\t\t<id>${xmlEncode(item.url)}</id>\n\t\t<title>${xmlEncode(item.title)}</title>\n` +
      `\t\t<link rel="alternate" type="text/html" href="${xmlEncode(item.url)}"/>\n` +
      `\t\t${item.date ? `\t\t<updated>${atomTime(item.date)}Z</updated>\n\t\t` : ''}` +
      `\n\t\t<summary type="html">${xmlEncode(item.description)}</summary>\n` +
      `\t\t${item.author ? `<author><name>${xmlEncode(item.author)}</name></author>` : ''}\t</entry>\n`;
  }
  return out + '\n\t</feed>';
}

const FEED_TYPES = ['application/xml', 'text/xml', 'application/rss+xml', 'application/atom+xml'];

/** ChannelFeed::httpHeaders: the `ctype` request value when it is one of four, else application/xml */
export function feedContentType(ctype: string | undefined): string {
  return ctype !== undefined && FEED_TYPES.includes(ctype) ? ctype : 'application/xml';
}

/** the query string of a request URL, with its "?" ('' without one): Atom's self link */
export function requestQuery(url: string): string {
  const i = url.indexOf('?');
  return i < 0 ? '' : url.slice(i);
}

/** the feed's build time: now, TS_MW */
export function nowTimestamp(): string {
  return new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
}
