/**
 * The RSS 2.0 and Atom writers (src/wiki/feed.ts) against what MediaWiki 1.25.4's own Feed.php wrote for
 * the same channel and items (test/data/feed-cases.json): the PHP templates' whitespace included.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFeed } from '../../src/wiki/feed.js';

const here = dirname(fileURLToPath(import.meta.url));
const data = JSON.parse(readFileSync(join(here, '../../../test/data/feed-cases.json'), 'utf8'));

describe('writeFeed: Feed.php of 1.25', () => {
  it('writes RSS 2.0 as RSSFeed does', () => {
    assert.equal(writeFeed('rss', data.channel, data.items), data.rss);
  });
  it('writes Atom as AtomFeed does', () => {
    assert.equal(writeFeed('atom', data.channel, data.items), data.atom);
  });
  it('drops control characters and escapes what it prints (FeedItem::xmlEncode)', () => {
    const out = writeFeed('rss', data.channel, [
      { title: 'a\u0001b<', description: 'x\r\ny', url: 'http://h/?a=1&b=2', date: '', author: '', comments: '' },
    ]);
    assert.ok(out.includes('<title>ab&lt;</title>'));
    assert.ok(out.includes('<description>x\ny</description>'));
    assert.ok(out.includes('<link>http://h/?a=1&amp;b=2</link>'));
  });
});
