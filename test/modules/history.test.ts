/**
 * History, users, contributions, the log and recent changes over HTTP on the demo wiki. Expected values
 * come from the demo dump itself (read here with a regular expression, independently of the importer)
 * or from the hand-written log items of the demo generator. The 1.39 oracle renumbers imported
 * revisions and names imported users "imported>…", so it cannot be compared row for row here; these
 * follow 1.25's ApiQueryRevisions, ApiQueryContributors, ApiQueryUsers, ApiQueryAllUsers,
 * ApiQueryContributions, ApiQueryLogEvents and ApiQueryRecentChanges.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { RAW_CONTINUE_WARNING, startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { Db } from '../../src/store/sqlite/db.js';
import { queryLog, type QueryLogEntry } from '../../src/store/query-log.js';
import { SqliteHistoryStore } from '../../src/store/sqlite/history.js';

let s: DemoServer;

interface DumpRev {
  page: string;
  pageid: number;
  id: number;
  parentid: number;
  timestamp: string;
  user: string;
  userid: number;
  minor: boolean;
  comment: string;
  text: string;
  sha1hex: string;
}

const unescape = (t: string) =>
  t
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');

/** Every revision of the demo dump, read straight from the XML. */
function dumpRevisions(file: string): DumpRev[] {
  const xml = fs.readFileSync(file, 'utf8');
  const out: DumpRev[] = [];
  for (const pm of xml.matchAll(/<page>\s*<title>([^<]*)<\/title>\s*<ns>\d+<\/ns>\s*<id>(\d+)<\/id>([\s\S]*?)<\/page>/g)) {
    for (const rm of pm[3].matchAll(/<revision>([\s\S]*?)<\/revision>/g)) {
      const r = rm[1];
      const get = (re: RegExp) => re.exec(r)?.[1];
      const text = unescape(get(/<text[^>]*>([\s\S]*?)<\/text>/) ?? '');
      out.push({
        page: unescape(pm[1]),
        pageid: Number(pm[2]),
        id: Number(get(/^\s*<id>(\d+)<\/id>/)),
        parentid: Number(get(/<parentid>(\d+)<\/parentid>/) ?? 0),
        timestamp: get(/<timestamp>([^<]+)<\/timestamp>/)!,
        user: unescape(get(/<username>([^<]*)<\/username>/) ?? get(/<ip>([^<]*)<\/ip>/) ?? ''),
        userid: Number(get(/<contributor>\s*<username>[^<]*<\/username>\s*<id>(\d+)<\/id>/) ?? 0),
        minor: /<minor\s*\/>/.test(r),
        comment: unescape(get(/<comment>([^<]*)<\/comment>/) ?? ''),
        text,
        sha1hex: crypto.createHash('sha1').update(text).digest('hex'),
      });
    }
  }
  return out;
}

let revs: DumpRev[];

before(async () => {
  s = await startDemoServer();
  revs = dumpRevisions(path.join(s.dir, 'demo', 'dump.xml'));
});
after(async () => {
  await s?.close();
});

const q = async (params: Record<string, string | number>) => {
  const r = await s.get({ action: 'query', ...params });
  assert.equal(r.status, 200);
  return r.json;
};

/** The page of the demo with the longest history (ties: the smaller page id). */
function busiestPage(): { title: string; pageid: number; revs: DumpRev[] } {
  const by = new Map<number, DumpRev[]>();
  for (const r of revs) by.set(r.pageid, [...(by.get(r.pageid) ?? []), r]);
  const [pageid, list] = [...by.entries()].sort((a, b) => b[1].length - a[1].length || a[0] - b[0])[0];
  return { title: list[0].page, pageid, revs: list };
}

/** The error's code and text (without the help text of '*'). */
const err = (j: any) => ({ code: j.error?.code, info: j.error?.info });

const newestFirst = (a: DumpRev, b: DumpRev) => (a.timestamp < b.timestamp ? 1 : a.timestamp > b.timestamp ? -1 : b.id - a.id);

describe('prop=revisions: history', () => {
  it('the import keeps every revision of the dump, with its text', async () => {
    assert.ok(revs.length > 600);
    const ids = revs.map((r) => r.id);
    // revids= in batches of 50 (the multi-value limit): every revision comes back with its own text and metadata
    for (let i = 0; i < ids.length; i += 50) {
      const batch = revs.slice(i, i + 50);
      const j = await q({
        prop: 'revisions',
        revids: batch.map((r) => r.id).join('|'),
        rvprop: 'ids|flags|timestamp|user|userid|size|sha1|comment|content',
        formatversion: 2,
      });
      const got = new Map<number, any>();
      for (const p of j.query.pages) for (const rv of p.revisions) got.set(rv.revid, { ...rv, pageid: p.pageid });
      for (const r of batch) {
        const g = got.get(r.id);
        assert.ok(g, `revision ${r.id}`);
        assert.equal(g.pageid, r.pageid);
        assert.equal(g.parentid, r.parentid);
        assert.equal(g.timestamp, r.timestamp);
        assert.equal(g.user, r.user);
        assert.equal(g.userid, r.userid);
        assert.equal(g.minor ?? false, r.minor);
        assert.equal(g.comment, r.comment);
        assert.equal(g.content, r.text);
        assert.equal(g.size, Buffer.byteLength(r.text, 'utf8'));
        assert.equal(g.sha1, r.sha1hex);
      }
    }
  });

  it('enumeration mode: newest first by default, rvdir=newer oldest first, rvcontinue is the next revision id', async () => {
    const page = busiestPage();
    assert.ok(page.revs.length >= 4);
    const sorted = [...page.revs].sort(newestFirst);
    const j = await q({ prop: 'revisions', titles: page.title, rvlimit: 2, rvprop: 'ids|timestamp', continue: '' });
    assert.deepEqual(
      j.query.pages[page.pageid].revisions,
      sorted.slice(0, 2).map((r) => ({ revid: r.id, parentid: r.parentid, timestamp: r.timestamp })),
    );
    assert.deepEqual(j.continue, { rvcontinue: sorted[2].id, continue: '||' });
    const n = await q({ prop: 'revisions', titles: page.title, rvdir: 'newer', rvlimit: 'max', rvprop: 'ids' });
    assert.deepEqual(
      n.query.pages[page.pageid].revisions.map((r: any) => r.revid),
      [...sorted].reverse().map((r) => r.id),
    );
    assert.deepEqual(n.limits, { revisions: 500 });
  });

  it('rvstart/rvend, rvstartid/rvendid, rvuser and rvexcludeuser select within the page', async () => {
    const page = busiestPage();
    const sorted = [...page.revs].sort(newestFirst);
    const ids = (j: any) => (j.query.pages[page.pageid].revisions ?? []).map((r: any) => r.revid);
    const mid = sorted[1];
    const last = sorted[sorted.length - 2];
    // older: start is the newer bound
    assert.deepEqual(
      ids(await q({ prop: 'revisions', titles: page.title, rvprop: 'ids', rvstart: mid.timestamp, rvend: last.timestamp })),
      sorted.slice(1, sorted.length - 1).map((r) => r.id),
    );
    assert.deepEqual(
      ids(await q({ prop: 'revisions', titles: page.title, rvprop: 'ids', rvstartid: mid.id, rvendid: last.id })),
      sorted.slice(1, sorted.length - 1).map((r) => r.id),
    );
    const user = sorted[0].user;
    assert.deepEqual(
      ids(await q({ prop: 'revisions', titles: page.title, rvprop: 'ids', rvuser: user })),
      sorted.filter((r) => r.user === user).map((r) => r.id),
    );
    assert.deepEqual(
      ids(await q({ prop: 'revisions', titles: page.title, rvprop: 'ids', rvexcludeuser: user })),
      sorted.filter((r) => r.user !== user).map((r) => r.id),
    );
  });

  it('errors of 1.25: several pages, revids with list options, start with startid; content limits rvlimit to 50', async () => {
    const multi = await q({ prop: 'revisions', titles: 'Київ|Львів', rvlimit: 2 });
    assert.equal(multi.error.code, 'rvmultpages');
    const revids = await q({ prop: 'revisions', revids: revs[0].id, rvlimit: 2 });
    assert.equal(revids.error.code, 'rvrevids');
    const both = await q({ prop: 'revisions', titles: 'Київ', rvstart: '2015-01-01T00:00:00Z', rvstartid: 1 });
    assert.deepEqual(err(both), { code: 'rvbadparams', info: 'start and startid cannot be used together' });
    const content = await q({ prop: 'revisions', titles: 'Київ', rvlimit: 'max', rvprop: 'content' });
    assert.deepEqual(content.limits, { revisions: 50 });
    const over = await q({ prop: 'revisions', titles: 'Київ', rvlimit: 60, rvprop: 'content' });
    assert.equal(over.warnings.revisions['*'], 'rvlimit may not be over 50 (set to 60) for users');
    const badcont = await q({ prop: 'revisions', titles: 'Київ', rvlimit: 1, rvcontinue: 'x' });
    assert.equal(badcont.error.code, 'rvbadcontinue');
  });

  it('revids=: the pages of the revisions, badrevids for ids of no revision (an object in both formats)', async () => {
    const [a, b] = [revs[0], revs[revs.length - 1]];
    const j = await q({ prop: 'revisions', revids: `${b.id}|999999|${a.id}`, rvprop: 'ids' });
    assert.deepEqual(j.query.badrevids, { 999999: { revid: 999999 } });
    assert.deepEqual(Object.keys(j.query), ['badrevids', 'pages']);
    const byPage = Object.values(j.query.pages).map((p: any) => [p.pageid, p.revisions.map((r: any) => r.revid)]);
    assert.deepEqual(
      byPage.sort((x: any, y: any) => x[0] - y[0]),
      [
        [a.pageid, [a.id]],
        [b.pageid, [b.id]],
      ].sort((x: any, y: any) => x[0] - y[0]),
    );
    const only = await q({ prop: 'revisions', revids: '999998', formatversion: 2 });
    assert.deepEqual(only.query, { badrevids: { 999998: { revid: 999998 } } });
    const mix = await q({ revids: '1', titles: 'Київ' });
    assert.deepEqual(err(mix), { code: 'multisource', info: "Cannot use 'revids' at the same time as 'titles'" });
  });
});

describe('prop=contributors', () => {
  it('registered contributors by user id, the number of distinct anonymous ones', async () => {
    const byPage = new Map<number, DumpRev[]>();
    for (const r of revs) byPage.set(r.pageid, [...(byPage.get(r.pageid) ?? []), r]);
    // a page with both kinds of contributors
    const [pageid, list] = [...byPage.entries()].find(
      ([, l]) => l.some((r) => r.userid === 0) && new Set(l.filter((r) => r.userid).map((r) => r.userid)).size >= 2,
    )!;
    const j = await q({ prop: 'contributors', pageids: pageid });
    const users = [...new Map(list.filter((r) => r.userid > 0).map((r) => [r.userid, r.user])).entries()].sort((a, b) => a[0] - b[0]);
    assert.deepEqual(j.query.pages[pageid], {
      pageid,
      ns: j.query.pages[pageid].ns,
      title: j.query.pages[pageid].title,
      anoncontributors: new Set(list.filter((r) => r.userid === 0).map((r) => r.user)).size,
      contributors: users.map(([userid, name]) => ({ userid, name })),
    });
    // no explicit groups: pcgroup leaves no registered contributor, pcexcludegroup keeps them all
    const g = await q({ prop: 'contributors', pageids: pageid, pcgroup: 'sysop' });
    assert.equal(g.query.pages[pageid].contributors, undefined);
    const x = await q({ prop: 'contributors', pageids: pageid, pcexcludegroup: 'sysop' });
    assert.equal(x.query.pages[pageid].contributors.length, users.length);
  });
});

describe('list=users and list=allusers', () => {
  it("list=users: the dump's contributors, invalid names and missing users", async () => {
    const mine = revs.filter((r) => r.user === 'Тарас');
    const j = await q({
      list: 'users',
      ususers: 'Нікого_нема|тарас|192.0.2.15|Шаблон:Х',
      usprop: 'editcount|registration|groups|implicitgroups|emailable|gender',
    });
    assert.deepEqual(j.query.users, [
      { name: '192.0.2.15', invalid: '' },
      { name: 'Шаблон:Х', invalid: '' },
      { name: 'Нікого нема', missing: '' },
      {
        userid: 3,
        name: 'Тарас',
        editcount: mine.length,
        // the first of the account creation log entry and the first edit
        registration: [...mine.map((r) => r.timestamp), '2009-06-15T10:00:00Z'].sort()[0],
        groups: ['*', 'user', 'autoconfirmed'],
        implicitgroups: ['*', 'user', 'autoconfirmed'],
        gender: 'unknown',
      },
    ]);
    const rights = await q({ list: 'users', ususers: 'Тарас', usprop: 'rights' });
    assert.ok(rights.query.users[0].rights.includes('edit') && rights.query.users[0].rights.includes('autoconfirmed'));
    assert.ok(!rights.query.users[0].rights.includes('delete'));
  });

  it('list=allusers: every registered contributor in binary name order, with edit counts', async () => {
    const names = [...new Set(revs.filter((r) => r.userid > 0).map((r) => r.user))].sort((a, b) =>
      Buffer.compare(Buffer.from(a), Buffer.from(b)),
    );
    const j = await q({ list: 'allusers', aulimit: 'max', auprop: 'editcount' });
    assert.deepEqual(
      j.query.allusers.map((u: any) => u.name),
      names,
    );
    for (const u of j.query.allusers) assert.equal(u.editcount, revs.filter((r) => r.user === u.name).length);
    const prefix = await q({ list: 'allusers', auprefix: 'о' });
    assert.deepEqual(
      prefix.query.allusers.map((u: any) => u.name),
      names.filter((n) => n.startsWith('О')),
    );
    const desc = await q({ list: 'allusers', aulimit: 2, audir: 'descending', continue: '' });
    assert.deepEqual(
      desc.query.allusers.map((u: any) => u.name),
      [...names].reverse().slice(0, 2),
    );
    assert.deepEqual(desc.continue, { aufrom: [...names].reverse()[2], continue: '-||' });
    assert.deepEqual((await q({ list: 'allusers', augroup: 'sysop' })).query.allusers, []);
  });
});

describe('list=usercontribs', () => {
  it('one user: newest first with ids, title, flags, size and sizediff', async () => {
    const mine = revs.filter((r) => r.user === 'Олена Коваль').sort(newestFirst);
    const latest = new Map<number, number>();
    for (const r of revs)
      if (!latest.has(r.pageid) || newestFirst(r, revs.find((x) => x.id === latest.get(r.pageid))!) < 0) latest.set(r.pageid, r.id);
    const size = (id: number) => Buffer.byteLength(revs.find((r) => r.id === id)?.text ?? '', 'utf8');
    const j = await q({
      list: 'usercontribs',
      ucuser: 'Олена_Коваль',
      uclimit: 'max',
      ucprop: 'ids|title|timestamp|comment|size|sizediff|flags',
      formatversion: 2,
    });
    assert.equal(j.query.usercontribs.length, mine.length);
    j.query.usercontribs.forEach((c: any, i: number) => {
      const r = mine[i];
      assert.deepEqual(c, {
        // 1.25 outputs rev_user as the database gave it: a string
        userid: '2',
        user: 'Олена Коваль',
        pageid: r.pageid,
        revid: r.id,
        parentid: r.parentid,
        ns: c.ns,
        title: r.page,
        timestamp: r.timestamp,
        new: r.parentid === 0,
        minor: r.minor,
        top: latest.get(r.pageid) === r.id,
        comment: r.comment,
        size: size(r.id),
        sizediff: size(r.id) - (r.parentid ? size(r.parentid) : 0),
      });
    });
  });

  it('several users, a prefix, namespaces and show filters', async () => {
    const pair = await q({ list: 'usercontribs', ucuser: 'Тарас|Ivan Petrenko', uclimit: 'max', ucprop: 'ids', formatversion: 2 });
    // (user, timestamp, id) order, newest first: the user names in descending byte order
    const want = [
      ...revs.filter((r) => r.user === 'Тарас').sort(newestFirst),
      ...revs.filter((r) => r.user === 'Ivan Petrenko').sort(newestFirst),
    ];
    assert.deepEqual(
      pair.query.usercontribs.map((c: any) => c.revid),
      want.map((r) => r.id),
    );
    const ip = await q({ list: 'usercontribs', ucuserprefix: '192.0.2.', uclimit: 'max', ucprop: 'ids', formatversion: 2 });
    assert.deepEqual(
      ip.query.usercontribs.map((c: any) => c.revid).sort(),
      revs
        .filter((r) => r.user.startsWith('192.0.2.'))
        .map((r) => r.id)
        .sort(),
    );
    const ns = await q({
      list: 'usercontribs',
      ucuser: 'Адміністратор',
      ucnamespace: '8|14',
      uclimit: 'max',
      ucprop: 'title|timestamp',
      formatversion: 2,
    });
    assert.ok(ns.query.usercontribs.length > 0);
    assert.ok(ns.query.usercontribs.every((c: any) => c.ns === 8 || c.ns === 14));
    const ts = ns.query.usercontribs.map((c: any) => c.timestamp);
    assert.deepEqual(ts, [...ts].sort().reverse());
    const minor = await q({
      list: 'usercontribs',
      ucuser: 'Олена Коваль',
      ucshow: 'minor|!top',
      uclimit: 'max',
      ucprop: 'flags',
      formatversion: 2,
    });
    assert.ok(minor.query.usercontribs.length > 0 && minor.query.usercontribs.every((c: any) => c.minor && !c.top));
  });

  it('errors: no user, an invalid name, conflicting show values, the patrolled flag', async () => {
    assert.equal((await q({ list: 'usercontribs' })).error.code, 'ucparam_user');
    assert.deepEqual(err(await q({ list: 'usercontribs', ucuser: 'Шаблон:Х' })), {
      code: 'ucparam_user',
      info: 'User name Шаблон:Х is not valid',
    });
    assert.equal((await q({ list: 'usercontribs', ucuser: 'Тарас', ucshow: 'top|!top' })).error.code, 'ucshow');
    assert.equal((await q({ list: 'usercontribs', ucuser: 'Тарас', ucprop: 'patrolled' })).error.code, 'ucpermissiondenied');
    assert.equal(
      (await q({ list: 'usercontribs', ucuser: 'Тарас|Олена Коваль', uccontinue: '20160101000000|5' })).error.code,
      'ucbadcontinue',
    );
  });
});

describe('list=logevents', () => {
  it('letitle with leprefix is leinvalidparammix (ApiQueryLogEvents.php:46, ApiBase.php:612-626 of 1.25)', async () => {
    const j = await q({ list: 'logevents', letitle: 'Київ', leprefix: 'К' });
    assert.deepEqual(err(j), { code: 'leinvalidparammix', info: 'The parameters letitle, leprefix can not be used together' });
    assert.equal(err(await q({ list: 'logevents', letitle: 'Київ' })).code, undefined);
  });
  // 1.25 shows parameters under `params` as LogFormatter::formatParametersForApi makes them (addLogParams,
  // which put them under the log type's name, is deprecated there)
  it("the dump's log items, newest first, with the parameters of each type as 1.25 shows them", async () => {
    const j = await q({ list: 'logevents', lelimit: 'max', continue: '' });
    const byId = new Map(j.query.logevents.map((e: any) => [e.logid, e]));
    assert.deepEqual(
      j.query.logevents.map((e: any) => e.logid),
      [8, 7, 6, 5, 4, 3, 2, 1],
    );
    assert.deepEqual(byId.get(8), {
      logid: 8,
      ns: 0,
      title: 'Київ (місто)',
      pageid: 0,
      logpage: 0,
      params: { target_ns: 0, target_title: 'Київ', suppressredirect: '' },
      type: 'move',
      action: 'move',
      user: 'Тарас',
      timestamp: '2016-09-10T11:45:00Z',
      comment: 'точніша назва',
    });
    // the block of an address: duration and flags from the legacy parameters, expiry from the duration
    assert.deepEqual((byId.get(6) as any).params, { duration: '3 days', flags: ['anononly', 'nocreate'], expiry: '2016-08-28T14:00:00Z' });
    assert.deepEqual((byId.get(5) as any).params, { oldgroups: [], newgroups: ['bot'] });
    assert.deepEqual((byId.get(2) as any).params, { userid: 3 });
    // legacy parameters of a type without a formatter of its own: an object of numeric keys
    assert.deepEqual((byId.get(4) as any).params, { 0: '\u200e[edit=sysop] (безстроково) \u200e[move=sysop] (безстроково)', 1: '' });
    assert.equal((byId.get(4) as any).pageid, 1);
    // a deletion without parameters: an empty object
    assert.deepEqual((byId.get(7) as any).params, {});
    const up = byId.get(3) as any;
    const flag = fs.readFileSync(path.join(s.dir, 'demo', 'files', 'Прапор_України.png'));
    assert.equal(
      BigInt('0x' + crypto.createHash('sha1').update(flag).digest('hex'))
        .toString(36)
        .padStart(31, '0'),
      up.params.img_sha1,
    );
    assert.equal(up.params.img_timestamp, up.timestamp);
  });

  it('filters: type, action, user, title, prefix, start/end, direction', async () => {
    const ids = async (p: Record<string, string | number>) =>
      (await q({ list: 'logevents', lelimit: 'max', leprop: 'ids', ...p })).query.logevents.map((e: any) => e.logid);
    assert.deepEqual(await ids({ letype: 'newusers' }), [2, 1]);
    assert.deepEqual(await ids({ leaction: 'newusers/create2' }), [2]);
    assert.deepEqual(await ids({ leuser: 'тарас' }), [8]);
    assert.deepEqual(await ids({ letitle: 'Головна_сторінка' }), [4]);
    assert.deepEqual(await ids({ leprefix: 'Користувач:О' }), [1]);
    assert.equal((await q({ list: 'logevents', leprefix: 'Користувач:' })).error.code, 'leparam_prefix');
    assert.deepEqual(await ids({ lestart: '2016-01-01T00:00:00Z', ledir: 'newer' }), [6, 7, 8]);
    assert.deepEqual(await ids({ lestart: '2015-12-31T00:00:00Z', leend: '2011-01-01T00:00:00Z' }), [5, 4, 3]);
    assert.equal((await q({ list: 'logevents', leaction: 'create/create' })).error.code, 'leunknown_leaction');
  });
});

describe('list=recentchanges', () => {
  it('the 90 days before the newest edit: revisions and log entries, newest first', async () => {
    const newest = revs
      .map((r) => r.timestamp)
      .sort()
      .at(-1)!;
    const cutoff = new Date(Date.parse(newest) - 90 * 86400 * 1000).toISOString().replace(/\.000Z$/, 'Z');
    const j = await q({ list: 'recentchanges', rclimit: 'max', rcprop: 'title|ids|timestamp|sizes|flags|user|loginfo', formatversion: 2 });
    const rc = j.query.recentchanges;
    const edits = revs.filter((r) => r.timestamp > cutoff).sort(newestFirst);
    assert.deepEqual(
      rc.filter((c: any) => c.type !== 'log').map((c: any) => c.revid),
      edits.map((r) => r.id),
    );
    assert.deepEqual(
      rc.filter((c: any) => c.type === 'log').map((c: any) => c.logid),
      [8, 7, 6],
    );
    const ts = rc.map((c: any) => c.timestamp);
    assert.deepEqual(ts, [...ts].sort().reverse());
    assert.equal(ts[0], newest);
    const e = rc.find((c: any) => c.revid === edits[0].id);
    const prev = revs.filter((r) => r.pageid === edits[0].pageid && r.timestamp < edits[0].timestamp).sort(newestFirst)[0];
    assert.deepEqual(e, {
      type: prev ? 'edit' : 'new',
      ns: e.ns,
      title: edits[0].page,
      pageid: edits[0].pageid,
      revid: edits[0].id,
      old_revid: prev?.id ?? 0,
      rcid: e.rcid,
      user: edits[0].user,
      ...(edits[0].userid ? {} : { anon: true }),
      bot: false,
      new: !prev,
      minor: edits[0].minor,
      oldlen: prev ? Buffer.byteLength(prev.text) : 0,
      newlen: Buffer.byteLength(edits[0].text),
      timestamp: edits[0].timestamp,
    });
    const move = rc.find((c: any) => c.logid === 8);
    assert.deepEqual(
      [move.logtype, move.logaction, move.logparams],
      ['move', 'move', { target_ns: 0, target_title: 'Київ', suppressredirect: true }],
    );
  });

  it('rctype, rcshow, rcuser, rcnamespace, rcdir; errors of 1.25', async () => {
    const all = (await q({ list: 'recentchanges', rclimit: 'max', rcprop: 'user|flags|ids', formatversion: 2 })).query.recentchanges;
    const get = async (p: Record<string, string | number>) =>
      (await q({ list: 'recentchanges', rclimit: 'max', rcprop: 'user|flags|ids', formatversion: 2, ...p })).query.recentchanges;
    assert.deepEqual(
      await get({ rctype: 'log' }),
      all.filter((c: any) => c.type === 'log'),
    );
    assert.deepEqual(
      await get({ rcshow: 'minor' }),
      all.filter((c: any) => c.minor),
    );
    assert.deepEqual(
      await get({ rcshow: '!anon' }),
      all.filter((c: any) => !c.anon),
    );
    assert.deepEqual(
      await get({ rcuser: 'Адміністратор' }),
      all.filter((c: any) => c.user === 'Адміністратор'),
    );
    const user = await get({ rcnamespace: 2, rcprop: 'loginfo' });
    assert.deepEqual(
      user.map((c: any) => [c.type, c.logid]),
      [['log', 6]],
    );
    assert.deepEqual(await get({ rcdir: 'newer' }), [...all].reverse());
    assert.equal((await q({ list: 'recentchanges', rcshow: 'minor|!minor' })).error.code, 'rcshow');
    assert.equal((await q({ list: 'recentchanges', rcshow: '!patrolled' })).error.code, 'rcpermissiondenied');
    assert.equal((await q({ list: 'recentchanges', rcuser: 'A', rcexcludeuser: 'B' })).error.code, 'rcuser-excludeuser');
  });

  it('as a generator: the changed pages', async () => {
    const j = await q({ generator: 'recentchanges', grclimit: 3, grctype: 'edit|new', prop: 'info', continue: '' });
    const list = (await q({ list: 'recentchanges', rclimit: 3, rctype: 'edit|new' })).query.recentchanges;
    assert.deepEqual(
      Object.values(j.query.pages)
        .map((p: any) => p.title)
        .sort(),
      [...new Set(list.map((c: any) => c.title))].sort(),
    );
    assert.match(j.continue.grccontinue, /^\d{14}\|\d+$/);
  });
});

// ---- continuation joins: limits 1, 2, 3 in the three forms give the one-shot limit=max answer

type Params = Record<string, string | number>;
interface Walk {
  name: string;
  params: Params;
  limit: string;
  /** the items of one response */
  items: (json: any) => unknown[];
}

const list = (name: string) => (j: any) => j.query?.[name] ?? [];
const sub = (member: string) => (j: any) =>
  Object.values(j.query?.pages ?? {}).flatMap((p: any) => (p[member] ?? []).map((x: any) => ({ page: p.pageid, ...x })));

const WALKS: Walk[] = [
  {
    name: 'prop=revisions older',
    params: { prop: 'revisions', titles: 'Демовікі:Пісочниця', rvprop: 'ids|timestamp|user' },
    limit: 'rvlimit',
    items: sub('revisions'),
  },
  {
    name: 'prop=revisions newer, rvexcludeuser',
    params: { prop: 'revisions', titles: 'Демовікі:Пісочниця', rvdir: 'newer', rvexcludeuser: 'ДемоБот' },
    limit: 'rvlimit',
    items: sub('revisions'),
  },
  {
    name: 'prop=revisions rvstart',
    params: { prop: 'revisions', titles: 'Демовікі:Пісочниця', rvstart: '2016-11-10T00:00:00Z', rvprop: 'ids|size' },
    limit: 'rvlimit',
    items: sub('revisions'),
  },
  {
    name: 'prop=contributors',
    params: { prop: 'contributors', titles: 'Київ|Львів|Головна сторінка|Харків' },
    limit: 'pclimit',
    items: sub('contributors'),
  },
  { name: 'list=allusers', params: { list: 'allusers', auprop: 'editcount' }, limit: 'aulimit', items: list('allusers') },
  { name: 'list=allusers descending', params: { list: 'allusers', audir: 'descending' }, limit: 'aulimit', items: list('allusers') },
  { name: 'list=usercontribs one user', params: { list: 'usercontribs', ucuser: 'Тарас' }, limit: 'uclimit', items: list('usercontribs') },
  {
    name: 'list=usercontribs two users, newer',
    params: { list: 'usercontribs', ucuser: 'Тарас|Марʼяна', ucdir: 'newer' },
    limit: 'uclimit',
    items: list('usercontribs'),
  },
  { name: 'list=usercontribs prefix', params: { list: 'usercontribs', ucuserprefix: '1' }, limit: 'uclimit', items: list('usercontribs') },
  {
    name: 'list=usercontribs namespaces',
    params: { list: 'usercontribs', ucuser: 'Адміністратор', ucnamespace: '0|8|14' },
    limit: 'uclimit',
    items: list('usercontribs'),
  },
  { name: 'list=logevents', params: { list: 'logevents' }, limit: 'lelimit', items: list('logevents') },
  {
    name: 'list=logevents newer, end',
    params: { list: 'logevents', ledir: 'newer', leend: '2016-08-30T00:00:00Z' },
    limit: 'lelimit',
    items: list('logevents'),
  },
  {
    name: 'list=recentchanges',
    params: { list: 'recentchanges', rcprop: 'ids|title|user' },
    limit: 'rclimit',
    items: list('recentchanges'),
  },
  {
    name: 'list=recentchanges newer, edits',
    params: { list: 'recentchanges', rcdir: 'newer', rctype: 'edit|new' },
    limit: 'rclimit',
    items: list('recentchanges'),
  },
];

async function walkAll(w: Walk, n: number, form: 'raw' | 'rawcontinue' | 'new'): Promise<unknown[][]> {
  const base: Params = { action: 'query', ...w.params, [w.limit]: n };
  const out: unknown[][] = [];
  let extra: Params = form === 'new' ? { continue: '' } : {};
  for (let i = 0; i < 500; i++) {
    const r = await s.get({ ...base, ...extra, ...(form === 'rawcontinue' ? { rawcontinue: 1 } : {}) });
    assert.equal(r.json.error, undefined, JSON.stringify(r.json.error));
    out.push(w.items(r.json));
    if (form === 'new') {
      assert.equal(r.json['query-continue'], undefined);
      if (!r.json.continue) return out;
      extra = r.json.continue;
    } else {
      assert.equal(r.json.continue, undefined);
      const qc = r.json['query-continue'];
      if (form === 'raw' && qc) assert.equal(r.json.warnings.query['*'], RAW_CONTINUE_WARNING);
      if (!qc) return out;
      extra = Object.assign({}, ...Object.values(qc as Record<string, Params>));
    }
  }
  assert.fail('no end');
}

describe('continuation joins', () => {
  for (const w of WALKS) {
    describe(w.name, () => {
      let all: unknown[];
      before(async () => {
        const r = await s.get({ action: 'query', ...w.params, [w.limit]: 'max', rawcontinue: 1 });
        assert.equal(r.json['query-continue'], undefined);
        all = w.items(r.json);
      });
      for (const form of ['raw', 'rawcontinue', 'new'] as const) {
        for (const n of [1, 2, 3]) {
          it(`${form}, limit ${n}`, async () => {
            assert.ok(all.length > n, 'more items than one batch');
            const batches = await walkAll(w, n, form);
            for (const b of batches) assert.ok(b.length <= n);
            assert.deepEqual(batches.flat(), all);
          });
        }
      }
    });
  }
});

describe('history store: every query is an index seek or an ordered, LIMITed index range', () => {
  it('no whole-table scan and no sort in any variant', async () => {
    const db = new Db(path.join(s.dir, 'demo.sqlite'), { debug: true });
    try {
      const h = new SqliteHistoryStore(db);
      const log: QueryLogEntry[] = [];
      await queryLog.run(log, async () => {
        await h.revisionsByIds([1, 2]);
        await h.latestRevisions([1, 2]);
        await h.texts([1]);
        await h.contributors([1, 2], { pageid: 1, userid: 2 }, 3);
        await h.anonContributors([1]);
        await h.usersByName(['Тарас']);
        for (const descending of [false, true]) {
          const dir = descending ? 'older' : 'newer';
          await h.pageHistory({ pageid: 1, dir, orderBy: 'timestamp', start: '2010', end: '2020', user: 'Тарас', limit: 3 });
          await h.pageHistory({ pageid: 1, dir, orderBy: 'id', startId: 1, endId: 9, excludeUser: 'Тарас', limit: 3 });
          await h.userRange({ descending, from: 'А', to: 'Я', prefix: 'Т', withEditsOnly: true, limit: 3 });
          await h.userRange({ descending, withEditsOnly: false, limit: 3 });
          await h.contributions({ descending, users: ['Тарас'], limit: 3 });
          await h.contributions({
            descending,
            users: ['Тарас', 'Олена Коваль'],
            namespaces: [0, 2],
            start: '2010',
            end: '2020',
            from: { user: 'Тарас', timestamp: '2015', revid: 9 },
            minor: true,
            top: false,
            isNew: false,
            limit: 3,
          });
          await h.contributions({ descending, prefix: '1', namespaces: [0], from: { user: '1', timestamp: '2015', revid: 9 }, limit: 3 });
          await h.logEvents({ descending, limit: 3 });
          await h.logEvents({
            descending,
            type: 'move',
            action: 'move',
            user: 'Тарас',
            start: '2010',
            end: '2020',
            from: { timestamp: '2015', logid: 3 },
            limit: 3,
          });
          await h.logEvents({ descending, title: { ns: 0, dbkey: 'X' }, limit: 3 });
          await h.logEvents({ descending, prefix: { ns: 2, dbkey: 'X' }, limit: 3 });
          await h.recentChanges({ descending, limit: 3 });
          await h.recentChanges({
            descending,
            start: '2010',
            end: '2020',
            from: { timestamp: '2015', rcid: 3 },
            namespaces: [0, 2],
            user: 'Тарас',
            types: [0, 1],
            minor: true,
            bot: false,
            anon: false,
            redirect: false,
            topOnly: true,
            limit: 3,
          });
        }
      });
      const seen = new Set<string>();
      for (const { sql } of log) {
        if (seen.has(sql)) continue;
        seen.add(sql);
        const names = [...new Set([...sql.matchAll(/@(\w+)/g)].map((m) => m[1]))];
        const args = names.length
          ? [Object.fromEntries(names.map((n) => [n, n === 'limit' ? 3 : 'x']))]
          : (sql.match(/\?/g) ?? []).map(() => 1);
        const plan = (db.raw.prepare('EXPLAIN QUERY PLAN ' + sql).all(...args) as Array<{ detail: string }>).map((r) => r.detail);
        for (const step of plan) {
          // a list read column by column (jsonColumnsSql): the ordered, LIMITed range feeds the aggregate as a co-routine
          if (/^(CO-ROUTINE|SCAN) \(subquery-\d+\)$/.test(step)) continue;
          const ok =
            /^SEARCH /.test(step) ||
            /^CORRELATED SCALAR SUBQUERY \d+$/.test(step) ||
            /^SCAN (user|logging|recentchanges) USING (COVERING )?INDEX \w+$/.test(step);
          assert.ok(ok, `${step}\n  in ${sql}`);
          if (/^SCAN /.test(step)) assert.match(sql, /ORDER BY .* LIMIT @?\w+\)?$/, sql);
        }
      }
      assert.ok(seen.size >= 20, String(seen.size));
    } finally {
      db.close();
    }
  });
});
