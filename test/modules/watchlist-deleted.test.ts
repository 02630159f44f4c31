/**
 * The modules 1.25 keeps from anonymous readers: list=watchlist and list=watchlistraw (and their
 * generators), list=deletedrevs, list=alldeletedrevisions, prop=deletedrevisions and list=filearchive.
 * Every reader here is anonymous, so each answers with 1.25's error after checking its parameters
 * (ApiQuery extracts a module's parameters before running it: ApiQuery.php:283-286 at 1.25.4). The
 * codes carry the module prefix, as 1.25's dieUsage adds it (ApiBase.php:1308-1315); MediaWiki 1.39 on
 * the reference wiki answers `notloggedin`/`permissiondenied` unprefixed, with other texts, and lists
 * filearchive to anyone: the 1.25 source wins.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const q = (params: Record<string, string | number>) => s.get(Object.assign({ action: 'query', format: 'json', continue: '' }, params));

const NOT_LOGGED_IN = 'You must be logged-in to have a watchlist';
const BAD_TOKEN = 'Incorrect watchlist token provided -- please set a correct token in Special:Preferences';
const DELETED_REVISIONS = "You don't have permission to view deleted revision information";

describe('list=watchlist and list=watchlistraw', () => {
  it('an anonymous reader has no watchlist: notloggedin (ApiBase::getWatchlistUser)', async () => {
    assertApiError(s, await q({ list: 'watchlist' }), 'wlnotloggedin', NOT_LOGGED_IN);
    assertApiError(s, await q({ list: 'watchlistraw' }), 'wrnotloggedin', NOT_LOGGED_IN);
    assertApiError(s, await q({ generator: 'watchlist', prop: 'info' }), 'gwlnotloggedin', NOT_LOGGED_IN);
    assertApiError(s, await q({ generator: 'watchlistraw', prop: 'info' }), 'gwrnotloggedin', NOT_LOGGED_IN);
    // owner without token is still the reader's own watchlist
    assertApiError(s, await q({ list: 'watchlist', wlowner: 'Адміністратор' }), 'wlnotloggedin', NOT_LOGGED_IN);
  });
  it('owner and token: an unknown owner is bad_wlowner, a known one bad_wltoken (no token preference in a dump)', async () => {
    assertApiError(s, await q({ list: 'watchlist', wlowner: 'Адміністратор', wltoken: '123ABC' }), 'wlbad_wltoken', BAD_TOKEN);
    assertApiError(s, await q({ list: 'watchlistraw', wrowner: 'адміністратор', wrtoken: '' }), 'wrbad_wltoken', BAD_TOKEN);
    assertApiError(
      s,
      await q({ list: 'watchlist', wlowner: 'Нема Такого Користувача', wltoken: '123ABC' }),
      'wlbad_wlowner',
      'Specified user does not exist',
    );
  });
  it('checks its parameters first', async () => {
    const r = await q({ list: 'watchlist', wlprop: 'ids|nonsense' });
    assert.equal(r.json.warnings.watchlist['*'], "Unrecognized value for parameter 'wlprop': nonsense");
    assert.equal(r.json.error.code, 'wlnotloggedin');
    const bad = await q({ list: 'watchlist', wlstart: 'yesterday' });
    assert.equal(bad.json.error.code, 'wlbadtimestamp_wlstart');
  });
});

describe('the deleted-revision modules and list=filearchive', () => {
  it('refuse an anonymous reader, who lacks the deletedhistory right', async () => {
    assertApiError(s, await q({ list: 'deletedrevs' }), 'drpermissiondenied', DELETED_REVISIONS);
    assertApiError(s, await q({ list: 'alldeletedrevisions', adruser: 'Адміністратор' }), 'adrpermissiondenied', DELETED_REVISIONS);
    assertApiError(s, await q({ generator: 'alldeletedrevisions' }), 'gadrpermissiondenied', DELETED_REVISIONS);
    assertApiError(s, await q({ prop: 'deletedrevisions', titles: 'Київ' }), 'drvpermissiondenied', DELETED_REVISIONS);
    // even without pages (ApiQueryDeletedRevisions.php:40-47 checks before reading the page set)
    assertApiError(s, await q({ prop: 'deletedrevisions' }), 'drvpermissiondenied', DELETED_REVISIONS);
    assertApiError(s, await q({ list: 'filearchive' }), 'fapermissiondenied', "You don't have permission to view deleted file information");
  });
  it('paraminfo describes them as 1.25 does', async () => {
    const r = await s.get({
      action: 'paraminfo',
      modules: 'query+deletedrevs|query+filearchive|query+watchlistraw|query+deletedrevisions',
      format: 'json',
    });
    const [dr, fa, wr, drv] = r.json.paraminfo.modules;
    assert.equal(dr.classname, 'ApiQueryDeletedrevs');
    assert.equal(dr.deprecated, '');
    assert.deepEqual(
      dr.parameters.map((p: any) => p.name),
      ['start', 'end', 'dir', 'from', 'to', 'prefix', 'unique', 'namespace', 'tag', 'user', 'excludeuser', 'prop', 'limit', 'continue'],
    );
    assert.deepEqual(
      fa.parameters.map((p: any) => p.name),
      ['from', 'to', 'prefix', 'dir', 'sha1', 'sha1base36', 'prop', 'limit', 'continue'],
    );
    assert.equal(wr.classname, 'ApiQueryWatchlistRaw');
    assert.equal(wr.generator, '');
    assert.deepEqual(
      drv.parameters.map((p: any) => p.name),
      [
        'prop',
        'limit',
        'expandtemplates',
        'generatexml',
        'parse',
        'section',
        'diffto',
        'difftotext',
        'contentformat',
        'start',
        'end',
        'dir',
        'tag',
        'user',
        'excludeuser',
        'continue',
      ],
    );
  });
});
