/**
 * action=compare and prop=revisions' rvdiffto / rvdifftotext over HTTP on the demo wiki, as 1.25's
 * ApiComparePages, DifferenceEngine and ApiQueryRevisionsBase answer. The table rows themselves are
 * checked byte for byte against 1.25's own code in test/wiki/diff.test.ts; here the body must be that
 * table for the two revisions' texts, with the line numbers in the user language ("Рядок N:", uk.json's
 * `lineno`). The 1.39 oracle answers compare with another table (diff-side-added, data-marker, ids
 * mw-diff-left-l…) and renumbers imported revisions: 1.25's source wins, and revisions are found by title.
 */
import { before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, demoServerForFile } from '../helpers/demo-server.js';
import { tableDiffBody } from '../../src/wiki/diff/table.js';

const s = demoServerForFile();
const SANDBOX = 'Демовікі:Пісочниця';

interface Rev {
  revid: number;
  parentid: number;
  text: string;
}
/** the sandbox's history, oldest first */
let history: Rev[];
let latestOfKyiv: Rev;

const localised = (body: string, lineno = 'Рядок') => body.replace(/<!--LINE (\d+)-->/g, (_m, n) => `${lineno} ${n}:`);
const bodyOf = (from: Rev, to: Rev) => localised(tableDiffBody(from.text, to.text));

async function loadRevisions(): Promise<void> {
  const h = await s.get({ action: 'query', prop: 'revisions', titles: SANDBOX, rvprop: 'ids|content', rvlimit: 50, rvdir: 'newer' });
  history = Object.values<any>(h.json.query.pages)[0].revisions.map((r: any) => ({ revid: r.revid, parentid: r.parentid, text: r['*'] }));
  assert.ok(history.length >= 4, 'the sandbox has a history');
  const k = await s.get({ action: 'query', prop: 'revisions', titles: 'Київ', rvprop: 'ids|content' });
  const r = Object.values<any>(k.json.query.pages)[0].revisions[0];
  latestOfKyiv = { revid: r.revid, parentid: r.parentid, text: r['*'] };
}

describe('action=compare', () => {
  before(loadRevisions);

  it('compares two revisions by id: fromrevid, torevid and the body', async () => {
    const [a, b] = [history[1], history[2]];
    const res = await s.get({ action: 'compare', fromrev: a.revid, torev: b.revid });
    assert.deepEqual(res.json, { compare: { fromrevid: a.revid, torevid: b.revid, '*': bodyOf(a, b) } });
    assert.match(res.json.compare['*'], /^<tr><td colspan="2" class="diff-lineno" id="L\d+" >Рядок \d+:<\/td>\n/);
  });

  it('takes titles and page ids (their latest revisions) and echoes them; formatversion=2 names the body', async () => {
    const latest = history[history.length - 1];
    const pageid = Object.keys((await s.get({ action: 'query', titles: SANDBOX })).json.query.pages)[0];
    const res = await s.get({ action: 'compare', fromtitle: 'Київ', toid: pageid, formatversion: 2 });
    assert.deepEqual(res.json, {
      compare: {
        fromtitle: 'Київ',
        fromrevid: latestOfKyiv.revid,
        toid: Number(pageid),
        torevid: latest.revid,
        body: bodyOf(latestOfKyiv, latest),
      },
    });
  });

  it('answers an empty body for a revision compared with itself', async () => {
    const r = history[0].revid;
    assert.deepEqual((await s.get({ action: 'compare', fromrev: r, torev: r })).json, { compare: { fromrevid: r, torevid: r, '*': '' } });
  });

  it('localises the line numbers in the user language (uselang)', async () => {
    const [a, b] = [history[1], history[2]];
    const res = await s.get({ action: 'compare', fromrev: a.revid, torev: b.revid, uselang: 'en' });
    assert.equal(res.json.compare['*'], localised(tableDiffBody(a.text, b.text), 'Line'));
  });

  it('refuses what 1.25 refuses', async () => {
    const none = 99999999;
    assertApiError(
      s,
      await s.get({ action: 'compare', torev: history[0].revid }),
      'inputneeded',
      'A title, a page ID, or a revision number is needed for both the from and the to parameters',
    );
    assertApiError(
      s,
      await s.get({ action: 'compare', fromrev: none, torev: history[0].revid }),
      'baddiff',
      'The diff cannot be retrieved, one revision does not exist or you do not have permission to view it.',
    );
    assertApiError(
      s,
      await s.get({ action: 'compare', fromrev: history[0].revid, torev: none }),
      'baddiff',
      'The diff cannot be retrieved. Maybe one or both revisions do not exist or you do not have permission to view them.',
    );
    // a title without a page has no latest revision: 0, which is no revision
    assertApiError(
      s,
      await s.get({ action: 'compare', fromtitle: 'Немає такої сторінки', torev: history[0].revid }),
      'baddiff',
      'The diff cannot be retrieved, one revision does not exist or you do not have permission to view it.',
    );
    assertApiError(s, await s.get({ action: 'compare', fromtitle: 'A|B', torev: history[0].revid }), 'invalidtitle', 'Bad title "A|B"');
    assertApiError(
      s,
      await s.get({ action: 'compare', fromtitle: 'wikipedia:Київ', torev: history[0].revid }),
      'invalidtitle',
      'Bad title "wikipedia:Київ"',
    );
    assertApiError(
      s,
      await s.get({ action: 'compare', fromid: none, torev: history[0].revid }),
      'nosuchpageid',
      `There is no page with ID ${none}`,
    );
  });
});

describe('prop=revisions&rvdiffto', () => {
  before(loadRevisions);

  const revs = async (params: Record<string, string | number>) =>
    Object.values<any>((await s.get({ action: 'query', prop: 'revisions', rvprop: 'ids', continue: '', ...params })).json.query.pages)[0]
      .revisions;

  it('diffs each revision to the previous one; only the first diff is made (notcached after it)', async () => {
    const newest = history.length - 1;
    const [latest, before] = [history[newest], history[newest - 1]];
    assert.deepEqual(await revs({ titles: SANDBOX, rvlimit: 3, rvdiffto: 'prev' }), [
      { revid: latest.revid, parentid: before.revid, diff: { from: before.revid, to: latest.revid, '*': bodyOf(before, latest) } },
      { revid: before.revid, parentid: history[newest - 2].revid, diff: { notcached: '' } },
      { revid: history[newest - 2].revid, parentid: history[newest - 3].revid, diff: { notcached: '' } },
    ]);
  });

  it('the first revision has no previous one: from is false (left out in formatversion 1), the body empty and no diff is counted', async () => {
    const [first, second] = [history[0], history[1]];
    assert.deepEqual(await revs({ revids: `${first.revid}|${second.revid}`, rvdiffto: 'prev' }), [
      { revid: first.revid, parentid: 0, diff: { to: first.revid, '*': '' } },
      { revid: second.revid, parentid: first.revid, diff: { from: first.revid, to: second.revid, '*': bodyOf(first, second) } },
    ]);
    const fv2 = await s.get({ action: 'query', prop: 'revisions', rvprop: 'ids', revids: first.revid, rvdiffto: 'prev', formatversion: 2 });
    assert.deepEqual(fv2.json.query.pages[0].revisions[0].diff, { from: false, to: first.revid, body: '' });
  });

  it('next, cur (to 0: the current revision) and a revision id', async () => {
    const [a, b] = [history[0], history[1]];
    const latest = history[history.length - 1];
    assert.deepEqual((await revs({ revids: a.revid, rvdiffto: 'next' }))[0].diff, { from: a.revid, to: b.revid, '*': bodyOf(a, b) });
    assert.deepEqual((await revs({ revids: a.revid, rvdiffto: 'cur' }))[0].diff, { from: a.revid, to: 0, '*': bodyOf(a, latest) });
    // the revision is "from", the given one "to", whichever is older
    assert.deepEqual((await revs({ revids: b.revid, rvdiffto: a.revid }))[0].diff, { from: b.revid, to: a.revid, '*': bodyOf(b, a) });
    // the latest revision's next is the current one: itself
    assert.deepEqual((await revs({ revids: latest.revid, rvdiffto: 'next' }))[0].diff, { from: latest.revid, to: 0, '*': '' });
  });

  it('rvdifftotext diffs to a text (the section with rvsection), without from and to', async () => {
    const text = 'Ця сторінка — для випробувань.\nНовий рядок.';
    assert.deepEqual((await revs({ titles: 'Київ', rvdifftotext: text }))[0].diff, {
      '*': localised(tableDiffBody(latestOfKyiv.text, text)),
    });
    const content = await revs({ titles: SANDBOX, rvdifftotext: 'x', rvprop: 'ids|content' });
    assert.equal(content[0]['*'], history[history.length - 1].text, 'the content stays, before the diff');
  });

  it('fetches content: the smaller limits apply', async () => {
    const res = await s.get({ action: 'query', prop: 'revisions', titles: SANDBOX, rvlimit: 'max', rvdiffto: 'prev', continue: '' });
    assert.equal(res.json.limits.revisions, 50);
  });

  it('refuses a bad rvdiffto and a revision that does not exist', async () => {
    const bad = await s.get({ action: 'query', prop: 'revisions', titles: SANDBOX, rvdiffto: '-1' });
    assertApiError(s, bad, 'rvdiffto', 'rvdiffto must be set to a non-negative number, "prev", "next" or "cur"');
    const none = await s.get({ action: 'query', prop: 'revisions', titles: SANDBOX, rvdiffto: '99999999' });
    assertApiError(s, none, 'rvnosuchrevid', 'There is no revision with ID 99999999');
  });
});
