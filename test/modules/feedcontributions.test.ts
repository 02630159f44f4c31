/**
 * action=feedcontributions over HTTP on the demo wiki: ApiFeedContributions of 1.25 (ContribsPager's
 * rows, FeedItem's fields, feedItemDesc's description) through the RSS and Atom writers checked byte for
 * byte in test/wiki/feed.test.ts. The rows are list=usercontribs' (the same store query), newest first, at
 * most $wgFeedLimit (50). The 1.39 oracle names imported users "imported>…", so it is not compared here.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const USER = 'Ivan Petrenko';

interface Contribution {
  revid: number;
  title: string;
  timestamp: string;
  comment: string;
  ns: number;
}
/** the user's latest 50 contributions, and all of them */
let contribs: Contribution[];
let all: Contribution[];

async function feed(params: Record<string, string>) {
  const res = await s.get(Object.assign({ action: 'feedcontributions', user: USER }, params));
  return { status: res.status, type: res.headers.get('content-type'), text: res.text };
}
const items = (xml: string) => [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => m[1]);
const unescape = (t: string) =>
  t
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

describe('action=feedcontributions', () => {
  before(async () => {
    const res = await s.get({ action: 'query', list: 'usercontribs', ucuser: USER, uclimit: 500, continue: '' });
    all = res.json.query.usercontribs;
    contribs = all.slice(0, 50);
    assert.ok(all.length > 50, 'more contributions than one feed holds');
  });

  it('answers RSS 2.0 as application/xml, one item per contribution, newest first', async () => {
    const { status, type, text } = await feed({});
    assert.equal(status, 200);
    assert.equal(type, 'application/xml; charset=UTF-8');
    assert.match(
      text,
      /^<\?xml version="1.0"\?>\n<rss version="2.0" xmlns:dc="http:\/\/purl.org\/dc\/elements\/1.1\/">\n\t<channel>\n\t\t<title>Демовікі - Внесок користувача \[uk\]<\/title>\n/,
    );
    const server = new URL(s.url).origin;
    assert.ok(
      text.includes(
        `\t\t<link>${server}/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:%D0%92%D0%BD%D0%B5%D1%81%D0%BE%D0%BA/Ivan_Petrenko</link>\n`,
      ),
    );
    const list = items(text);
    assert.equal(list.length, contribs.length);
    for (const [i, item] of list.entries()) {
      const c = contribs[i];
      assert.ok(item.includes(`<title>${c.title.replace(/&/g, '&amp;')}</title>`), item.slice(0, 200));
      assert.match(item, new RegExp(`<link>${server}/index\\.php\\?title=[^<]*&amp;diff=${c.revid}</link>`));
      const description = unescape(unescape(/<description>([\s\S]*?)<\/description>/.exec(item)![1]));
      assert.ok(
        description.startsWith(`<p>${USER}: ${c.comment.replace(/\[\[([^\]]*\|)?([^\]]+)\]\]/g, '$2')}</p>\n<hr />\n<div>`),
        description.slice(0, 200),
      );
      assert.ok(item.includes(`<dc:creator>${USER}</dc:creator>`));
    }
  });

  it('puts the revision text in the description, line ends as <br />', async () => {
    const latest = contribs[0];
    const rev = await s.get({ action: 'query', prop: 'revisions', revids: latest.revid, rvprop: 'content' });
    const text: string = Object.values<any>(rev.json.query.pages)[0].revisions[0]['*'];
    const item = items((await feed({})).text)[0];
    const description = unescape(unescape(/<description>([\s\S]*?)<\/description>/.exec(item)![1]));
    const html = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '<br />\n');
    assert.ok(description.endsWith(`<div>${html}</div>`));
  });

  it('answers Atom, and the ctype MediaWiki allows', async () => {
    const { type, text } = await feed({ feedformat: 'atom', ctype: 'application/atom+xml' });
    assert.equal(type, 'application/atom+xml; charset=UTF-8');
    assert.match(text, /^<\?xml version="1.0"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom" xml:lang="uk">\n\t\t<id>http:/);
    assert.equal((text.match(/<entry>/g) ?? []).length, contribs.length);
    assert.equal((await feed({ ctype: 'text/html' })).type, 'application/xml; charset=UTF-8');
  });

  it('filters as ContribsPager: namespace, toponly, newonly, year and month', async () => {
    const count = async (params: Record<string, string>) => items((await feed(params)).text).length;
    const main = Math.min(50, all.filter((c) => c.ns === 0).length);
    assert.equal(await count({ namespace: '0' }), main);
    const top = (await s.get({ action: 'query', list: 'usercontribs', ucuser: USER, uclimit: 50, ucshow: 'top' })).json.query.usercontribs;
    assert.equal(await count({ toponly: '' }), top.length);
    const created = (await s.get({ action: 'query', list: 'usercontribs', ucuser: USER, uclimit: 50, ucshow: 'new' })).json.query
      .usercontribs;
    assert.equal(await count({ newonly: '' }), created.length);
    // before the month after the oldest contribution's: that month and all before it
    const oldest = all[all.length - 1].timestamp;
    const year = oldest.slice(0, 4);
    const month = String(Number(oldest.slice(5, 7)));
    const upTo = Math.min(50, all.filter((c) => c.timestamp.slice(0, 7) <= oldest.slice(0, 7)).length);
    assert.equal(await count({ year, month }), upTo);
    assert.equal(await count({ year: '2000' }), 0);
  });

  it('a user without contributions gets an empty channel; a missing user is an error', async () => {
    const { text } = await feed({ user: 'Немає Такого' });
    assert.ok(
      text.endsWith(
        '\t\t<lastBuildDate>' + /<lastBuildDate>(.*)<\/lastBuildDate>/.exec(text)![1] + '</lastBuildDate>\n\t</channel>\n</rss>',
      ),
    );
    const res = await s.get({ action: 'feedcontributions' });
    assert.equal(res.json.error.code, 'nouser');
    const bad = await s.get({ action: 'feedcontributions', user: 'A|B' });
    assert.deepEqual(bad.json.error.code, 'baduser_user');
  });
});
