/**
 * action=feedrecentchanges over HTTP on the demo wiki: ApiFeedRecentChanges of 1.25 — the rows of
 * SpecialRecentchanges::getRows (the same recentchanges table list=recentchanges reads), merged and
 * described by ChangesFeed::buildItems and FeedUtils::formatDiffRow, through the RSS and Atom writers
 * checked byte for byte in test/wiki/feed.test.ts. The demo's edits are of 2016, so `days` reaches them
 * only when large: 1.25 counts the days back from now and caps them nowhere.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const ALL_DAYS = '100000';

interface Change {
  type: string;
  ns: number;
  title: string;
  pageid: number;
  revid: number;
  old_revid: number;
  user: string;
  timestamp: string;
  comment: string;
  anon?: string;
  minor?: string;
  bot?: string;
}

async function feed(params: Record<string, string>) {
  const res = await s.get(Object.assign({ action: 'feedrecentchanges', days: ALL_DAYS }, params));
  return { status: res.status, type: res.headers.get('content-type'), text: res.text };
}
const unescape = (t: string) =>
  t
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
function items(xml: string) {
  return [...xml.matchAll(/<item>([\s\S]*?)<\/item>/g)].map((m) => {
    const field = (name: string) => {
      const f = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(m[1]);
      return f ? unescape(f[1]) : undefined;
    };
    return { title: field('title')!, link: field('link')!, description: field('description')!, creator: field('dc:creator') };
  });
}

/** list=recentchanges' rows (bots left out, as the special page does by default), newest first */
async function changes(params: Record<string, string> = {}): Promise<Change[]> {
  const res = await s.get(
    Object.assign(
      { action: 'query', list: 'recentchanges', rclimit: 500, rcshow: '!bot', rcprop: 'title|ids|user|timestamp|comment|flags' },
      params,
    ),
  );
  return res.json.query.recentchanges;
}

/** ChangesFeed::buildItems' merge of adjacent edits of one page by one user: [title, revid, old revid] */
function merged(rows: readonly Change[], limit = 50): Array<[string, number, number]> {
  const out: Array<[string, number, number, Change]> = [];
  for (const r of rows.slice(0, limit)) {
    const last = out[out.length - 1];
    if (last && r.type === 'edit' && r.pageid === last[3].pageid && r.user === last[3].user) last[2] = r.old_revid;
    else out.push([r.title, r.revid, r.old_revid, r]);
  }
  return out.map(([t, a, b]) => [t, a, b]);
}
const shown = (xml: string) =>
  items(xml).map((i): [string, number, number] => {
    const m = /diff=(\d+)&oldid=(\d+)$/.exec(i.link);
    return [i.title, m ? Number(m[1]) : 0, m ? Number(m[2]) : 0];
  });

let all: Change[];

describe('action=feedrecentchanges', () => {
  before(async () => {
    all = await changes();
    assert.ok(all.length > 10, 'enough changes to filter');
  });

  it('answers RSS 2.0 with the channel of Special:RecentChanges in the content language', async () => {
    const { status, type, text } = await feed({});
    assert.equal(status, 200);
    assert.equal(type, 'application/xml; charset=UTF-8');
    const server = new URL(s.url).origin;
    // ChangesFeed::getFeedObject writes two spaces before the dash
    assert.ok(
      text.startsWith(
        '<?xml version="1.0"?>\n<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/">\n\t<channel>\n' +
          '\t\t<title>Демовікі  - Нові редагування [uk]</title>\n' +
          `\t\t<link>${server}/index.php/%D0%A1%D0%BF%D0%B5%D1%86%D1%96%D0%B0%D0%BB%D1%8C%D0%BD%D0%B0:%D0%9D%D0%BE%D0%B2%D1%96_%D1%80%D0%B5%D0%B4%D0%B0%D0%B3%D1%83%D0%B2%D0%B0%D0%BD%D0%BD%D1%8F</link>\n` +
          '\t\t<description>Відстежувати останні зміни у вікі в цьому потоці.</description>\n\t\t<language>uk</language>\n',
      ),
      text.slice(0, 600),
    );
    assert.ok(text.endsWith('\t</channel>\n</rss>'));
  });

  it("is publicly cacheable for 15 seconds, or for smaxage (ApiFeedRecentChanges::execute's setCacheMaxAge(15), bug 63249)", async () => {
    const before = Math.floor(Date.now() / 1000);
    const r = await s.get({ action: 'feedrecentchanges', days: ALL_DAYS });
    assert.equal(r.headers.get('cache-control'), 'max-age=15, s-maxage=15, public');
    const expires = Date.parse(r.headers.get('expires')!) / 1000;
    assert.ok(expires >= before + 15 && expires <= Math.floor(Date.now() / 1000) + 15, r.headers.get('expires')!);
    const own = await s.get({ action: 'feedrecentchanges', days: ALL_DAYS, smaxage: 600, maxage: 30 });
    assert.equal(own.headers.get('cache-control'), 's-maxage=600, max-age=30, public');
    const shared = await s.get({ action: 'feedrecentchanges', days: ALL_DAYS, smaxage: 600 });
    assert.equal(shared.headers.get('cache-control'), 's-maxage=600, max-age=0, public');
    assert.equal(shared.headers.get('expires'), 'Thu, 01 Jan 1970 00:00:01 GMT');
    // an error is private, as every error
    const bad = await s.get({ action: 'feedrecentchanges', feedformat: 'x' });
    assert.equal(bad.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
  });

  it('shows the latest 50 changes, newest first, adjacent edits of a page by one user as one', async () => {
    const { text } = await feed({});
    assert.deepEqual(
      shown(text),
      merged(all).map(([t, a, b]) => [t, a, a ? b : 0]),
    );
  });

  it('counts `days` back from the start of a day before now: the 2016 edits are older than a week', async () => {
    const { status, text } = await feed({ days: '7' });
    assert.equal(status, 200);
    assert.equal(items(text).length, 0);
    assert.equal(items((await s.get({ action: 'feedrecentchanges' })).text).length, 0);
    // days past the year 1 leave no cutoff at all
    assert.deepEqual(shown((await feed({ days: '99999999999' })).text), shown((await feed({})).text));
  });

  it('takes `from` (a TS_MW) as the cutoff when it is later', async () => {
    const cut = all[9].timestamp.replace(/[-:TZ]/g, '');
    const expected = merged(all.filter((c) => c.timestamp.replace(/[-:TZ]/g, '') >= cut));
    const { text } = await feed({ from: cut });
    assert.deepEqual(
      shown(text).map((x) => x[0]),
      expected.map((x) => x[0]),
    );
    assert.ok(expected.length < merged(all).length);
  });

  it('reads at most `limit` rows, 50 at most', async () => {
    assert.deepEqual(
      shown((await feed({ limit: '5' })).text).map((x) => x[0]),
      merged(all, 5).map((x) => x[0]),
    );
    const over = await s.get({ action: 'feedrecentchanges', days: ALL_DAYS, limit: '80' });
    assert.equal(items(over.text).length, merged(all).length);
  });

  it('filters by namespace, inverted, with the associated namespace', async () => {
    const ns0 = (await feed({ namespace: '0' })).text;
    assert.deepEqual(
      shown(ns0).map((x) => x[0]),
      merged(all.filter((c) => c.ns === 0)).map((x) => x[0]),
    );
    const inverted = shown((await feed({ namespace: '0', invert: '1' })).text).map((x) => x[0]);
    assert.deepEqual(
      inverted,
      merged(all.filter((c) => c.ns !== 0)).map((x) => x[0]),
    );
    const assoc = shown((await feed({ namespace: '0', associated: '1' })).text).map((x) => x[0]);
    assert.deepEqual(
      assoc,
      merged(all.filter((c) => c.ns === 0 || c.ns === 1)).map((x) => x[0]),
    );
  });

  it('hides minor edits, anonymous or registered users as asked', async () => {
    const cases: Array<[string, (c: Change) => boolean]> = [
      ['hideminor', (c) => c.minor === undefined],
      ['hideanons', (c) => c.anon === undefined],
      ['hideliu', (c) => c.anon !== undefined],
    ];
    for (const [param, kept] of cases) {
      const expected = merged(all.filter(kept)).map((x) => x[0]);
      assert.ok(expected.length < merged(all).length, `${param} hides some changes`);
      assert.deepEqual(
        shown((await feed({ [param]: '1' })).text).map((x) => x[0]),
        expected,
        param,
      );
    }
    // ChangesListSpecialPage: hideanons and hideliu together, with bots hidden, drop hideanons
    assert.deepEqual(shown((await feed({ hideanons: '1', hideliu: '1' })).text), shown((await feed({ hideliu: '1' })).text));
    // and with bots shown they leave the bots only (none in a dump rebuilt by rebuildrecentchanges)
    assert.equal(
      items((await feed({ hideanons: '1', hideliu: '1', hidebots: '0' })).text).length,
      all.filter((c) => c.bot !== undefined).length,
    );
  });

  it('finds nothing for a tag: a dump has no change tags', async () => {
    assert.equal(items((await feed({ tagfilter: 'visualeditor' })).text).length, 0);
  });

  it('describes an edit by its comment and the diff with the previous revision, styled inline', async () => {
    const list = items((await feed({ namespace: '0' })).text);
    const edit = all.find((c) => c.type === 'edit' && c.ns === 0)!;
    const item = list.find((i) => i.title === edit.title)!;
    assert.equal(item.creator, edit.user);
    const d = new Date(edit.timestamp);
    const months = [
      'січня',
      'лютого',
      'березня',
      'квітня',
      'травня',
      'червня',
      'липня',
      'серпня',
      'вересня',
      'жовтня',
      'листопада',
      'грудня',
    ];
    const asOf = `Версія за ${edit.timestamp.slice(11, 16)}, ${d.getUTCDate()} ${months[d.getUTCMonth()]} ${d.getUTCFullYear()}`;
    const white = 'background-color: white; color:black; text-align: center;';
    assert.ok(
      item.description.startsWith(
        `<p>${edit.comment}</p>\n<table class='diff diff-contentalign-left'>\n\t\t\t\t<col class='diff-marker' />\n\t\t\t\t<col class='diff-content' />` +
          `\n\t\t\t\t<col class='diff-marker' />\n\t\t\t\t<col class='diff-content' />\n\t\t\t\t<tr style='vertical-align: top;'>\n` +
          `\t\t\t\t<td colspan='2' style="${white}">← Попередня версія</td>\n\t\t\t\t<td colspan='2' style="${white}">${asOf}</td>\n\t\t\t\t</tr>`,
      ),
      item.description.slice(0, 800),
    );
    assert.ok(item.description.endsWith('</table>'));
    // the body is action=compare's, its classes replaced by FeedUtils::applyDiffStyle's styles
    const compare = await s.get({ action: 'compare', fromrev: String(edit.old_revid), torev: String(edit.revid) });
    const body: string = compare.json.compare['*'];
    const styled = body
      .replace(
        /class='diff-context'/g,
        'style="background-color: #f9f9f9; color: #333333; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #e6e6e6; vertical-align: top; white-space: pre-wrap;"',
      )
      .replace(
        /class='diff-addedline'/g,
        'style="color:black; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #a3d3ff; vertical-align: top; white-space: pre-wrap;"',
      )
      .replace(
        /class='diff-deletedline'/g,
        'style="color:black; font-size: 88%; border-style: solid; border-width: 1px 1px 1px 4px; border-radius: 0.33em; border-color: #ffe49c; vertical-align: top; white-space: pre-wrap;"',
      )
      .replace(/class=(['"])diffchange\1/g, 'style="font-weight: bold; text-decoration: none;"');
    assert.ok(item.description.endsWith(`</tr>${styled}</table>`), 'the compare body, styled');
  });

  it('describes a new page by its text, lines broken with <br />', async () => {
    const created = all.find((c) => c.type === 'new')!;
    const item = items((await feed({})).text).find((i) => i.title === created.title)!;
    const rev = await s.get({ action: 'query', revids: String(created.revid), prop: 'revisions', rvprop: 'content' });
    const text: string = (Object.values(rev.json.query.pages)[0] as any).revisions[0]['*'];
    const html = text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/\n/g, '<br />\n');
    assert.equal(item.description, `<p>${created.comment}</p>\n<p><b>Нова сторінка</b></p><div>${html}</div>`);
    assert.ok(item.link.endsWith(`diff=${created.revid}&oldid=0`), 'wfArrayToCgi keeps oldid=0');
  });

  it('answers Atom with feedformat=atom', async () => {
    const { status, text } = await feed({ feedformat: 'atom', limit: '3' });
    assert.equal(status, 200);
    assert.match(text, /^<\?xml version="1.0"\?>\n<feed xmlns="http:\/\/www.w3.org\/2005\/Atom" xml:lang="uk">/);
    assert.equal([...text.matchAll(/<entry>/g)].length, merged(all, 3).length);
  });

  it('refuses a limit below 1 and a bad namespace as the API does', async () => {
    const res = await s.get({ action: 'feedrecentchanges', namespace: '12345' });
    assert.equal(res.headers.get('mediawiki-api-error'), 'unknown_namespace');
  });
});
