/**
 * Deleted parts of history rows (rev_deleted, log_deleted, rc_deleted bits: 1 the text or the action, 2 the
 * comment, 4 the user) as 1.25's ApiQueryRevisions, ApiQueryLogEvents and ApiQueryRecentChanges show
 * them to a reader: the `…hidden` member in the place of what it hides, the members in the order 1.25
 * adds them. The demo wiki has no deleted rows: a copy of its SQLite file gets the bits here.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { demoDatabase, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import Database from 'better-sqlite3';

let s: DemoServer;
let dir: string;
/** the newest log change of the demo's recent changes, and its log entry */
let change: { rcid: number; timestamp: string; logid: number };

const iso = (ts: string) =>
  `${ts.slice(0, 4)}-${ts.slice(4, 6)}-${ts.slice(6, 8)}T${ts.slice(8, 10)}:${ts.slice(10, 12)}:${ts.slice(12, 14)}Z`;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wikiquery-hidden-'));
  const file = join(dir, 'hidden.sqlite');
  copyFileSync((await demoDatabase()).db, file);
  const db = new Database(file);
  const row = db
    .prepare('SELECT rc_id, rc_timestamp, rc_logid FROM recentchanges WHERE rc_type = 3 ORDER BY rc_timestamp DESC, rc_id DESC LIMIT 1')
    .raw(true)
    .get() as [number, string, number];
  change = { rcid: row[0], timestamp: row[1], logid: row[2] };
  // the action (and the title with it) hidden on the log change and its entry
  db.prepare('UPDATE recentchanges SET rc_deleted = 1 WHERE rc_id = ?').run(change.rcid);
  db.prepare('UPDATE logging SET log_deleted = 1 WHERE log_id = ?').run(change.logid);
  // the main page's oldest revision: its user and comment hidden; the next one its text
  db.prepare('UPDATE revision SET rev_deleted = 6 WHERE rev_id = 1').run();
  db.prepare('UPDATE revision SET rev_deleted = 1 WHERE rev_id = 16').run();
  db.close();
  s = await startDemoServer({ db: file });
});
after(async () => {
  await s?.close();
  rmSync(dir, { recursive: true, force: true });
});

const q = async (params: Record<string, string | number>) => {
  const r = await s.get({ action: 'query', formatversion: 2, ...params });
  assert.equal(r.status, 200);
  return r.json;
};

describe('list=recentchanges: a hidden action', () => {
  it('stands in the title’s place when the title or the ids are asked for', async () => {
    const j = await q({ list: 'recentchanges', rcprop: 'ids|loginfo|timestamp', rctype: 'log', rclimit: 1 });
    assert.equal(
      JSON.stringify(j.query.recentchanges[0]),
      JSON.stringify({ type: 'log', actionhidden: true, rcid: change.rcid, timestamp: iso(change.timestamp) }),
    );
  });

  it('stands among the log members when only those are asked for', async () => {
    const j = await q({ list: 'recentchanges', rcprop: 'loginfo|timestamp', rctype: 'log', rclimit: 1 });
    assert.equal(
      JSON.stringify(j.query.recentchanges[0]),
      JSON.stringify({ type: 'log', timestamp: iso(change.timestamp), actionhidden: true }),
    );
  });

  it('prints as "" in formatversion 1, in the same place', async () => {
    const r = await s.get({ action: 'query', list: 'recentchanges', rcprop: 'loginfo|timestamp', rctype: 'log', rclimit: 1 });
    assert.equal(
      JSON.stringify(r.json.query.recentchanges[0]),
      JSON.stringify({ type: 'log', timestamp: iso(change.timestamp), actionhidden: '' }),
    );
  });
});

describe('list=logevents: a hidden action', () => {
  it('hides the title, the page ids and the details, and keeps type, user and time', async () => {
    const j = await q({ list: 'logevents', leprop: 'ids|title|type|details|timestamp', lelimit: 50 });
    const entry = j.query.logevents.find((e: { logid: number }) => e.logid === change.logid);
    assert.deepEqual(Object.keys(entry), ['logid', 'actionhidden', 'type', 'action', 'timestamp']);
    assert.equal(entry.actionhidden, true);
  });
});

describe('prop=revisions and list=usercontribs: hidden user, comment and text', () => {
  it('a history walk shows userhidden and commenthidden in their places, sha1hidden for a hidden text', async () => {
    const j = await q({
      prop: 'revisions',
      titles: 'Головна сторінка',
      rvlimit: 50,
      rvdir: 'newer',
      rvprop: 'ids|user|timestamp|sha1|comment',
    });
    const [first, second] = j.query.pages[0].revisions;
    assert.deepEqual(Object.keys(first), ['revid', 'parentid', 'userhidden', 'timestamp', 'sha1', 'commenthidden']);
    assert.deepEqual(Object.keys(second), ['revid', 'parentid', 'user', 'timestamp', 'sha1hidden', 'comment']);
  });

  it('contributions flag a hidden user and text and leave out a hidden comment', async () => {
    const j = await q({ list: 'usercontribs', ucuser: 'Адміністратор', ucdir: 'newer', uclimit: 50, ucprop: 'ids|comment|size' });
    const byId = (id: number) => j.query.usercontribs.find((c: { revid: number }) => c.revid === id);
    assert.deepEqual(Object.keys(byId(1)), ['userid', 'user', 'userhidden', 'pageid', 'revid', 'parentid', 'size']);
    assert.deepEqual(Object.keys(byId(16)), ['texthidden', 'userid', 'user', 'pageid', 'revid', 'parentid', 'comment', 'size']);
  });
});
