/**
 * The write and login modules answer as a read-only MediaWiki 1.25 wiki does ($wgReadOnly set), in the
 * order ApiMain::executeAction checks them (ApiMain.php:1080-1099 at 1.25.4): the module's parameters
 * with its required token (`notoken`), setupModule's token checks (`mustposttoken`, `badtoken`,
 * ApiMain.php:949-967), checkExecutePermissions' `readonly` with `readonlyreason` (1005-1022), then the
 * POST check (`mustbeposted`, 1059-1063). The reference MediaWiki 1.39 is not read-only, so these are
 * checked against the 1.25 source rather than its answers. Also action=checktoken and action=login.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, demoServerForFile } from '../helpers/demo-server.js';
import { DEFAULT_READ_ONLY_REASON } from '../../src/wiki/users.js';

const s = demoServerForFile();
const json = { format: 'json' };

function assertReadOnly(r: { json: any; headers: Headers }): void {
  assert.deepEqual(r.json, {
    error: {
      code: 'readonly',
      info: 'The wiki is currently in read-only mode',
      readonlyreason: DEFAULT_READ_ONLY_REASON,
      '*': `See ${s.url} for API usage`,
    },
  });
  assert.equal(r.headers.get('mediawiki-api-error'), 'readonly');
}

describe('write modules on a read-only wiki', () => {
  it('edit by GET without a token: notoken (the token parameter is required)', async () => {
    const r = await s.get({ action: 'edit', title: 'Київ', text: 'x', format: 'json' });
    assertApiError(s, r, 'notoken', 'The token parameter must be set');
  });
  it('a token in the query string: mustposttoken, even in a POST', async () => {
    const r = await s.post({ action: 'edit', title: 'Київ', text: 'x' }, { format: 'json', token: '+\\' });
    assertApiError(s, r, 'mustposttoken', "The 'token' parameter was found in the query string, but must be in the POST body");
  });
  it('a wrong token: badtoken; the anonymous token: readonly with readonlyreason', async () => {
    assertApiError(s, await s.post({ action: 'edit', title: 'Київ', token: 'abc' }, json), 'badtoken', 'Invalid token');
    assertReadOnly(await s.post({ action: 'edit', title: 'Київ', text: 'x', token: '+\\' }, json));
  });
  it('watch by GET: notoken; POSTed with its token: readonly', async () => {
    assertApiError(s, await s.get({ action: 'watch', titles: 'Київ', format: 'json' }), 'notoken', 'The token parameter must be set');
    assertReadOnly(await s.post({ action: 'watch', titles: 'Київ', token: '+\\' }, json));
  });
  it('modules without a token are refused as writes before the POST check (purge by GET, clearhasmsg)', async () => {
    assertReadOnly(await s.get({ action: 'purge', titles: 'Київ', format: 'json' }));
    assertReadOnly(await s.get({ action: 'clearhasmsg', format: 'json' }));
  });
  it('parameters are validated before the token: a missing required parameter comes first', async () => {
    // ApiMove's `to` (required) precedes the token ApiBase::getFinalParams appends
    assertApiError(s, await s.get({ action: 'move', from: 'Київ', format: 'json' }), 'noto', 'The to parameter must be set');
  });
  it('the --read-only-reason of serve is the readonlyreason', async () => {
    const { startDemoServer } = await import('../helpers/demo-server.js');
    const other = await startDemoServer({ server: { readOnlyReason: 'Технічні роботи' } });
    try {
      const r = await other.post({ action: 'delete', title: 'Київ', token: '+\\' }, { format: 'json', utf8: '1' });
      assert.equal(r.json.error.readonlyreason, 'Технічні роботи');
    } finally {
      await other.close();
    }
  });
  it('assert=user is checked after the write checks, as in ApiMain::executeAction', async () => {
    const r = await s.get({ action: 'edit', title: 'Київ', assert: 'user', format: 'json' });
    assert.equal(r.json.error.code, 'notoken');
  });
  it('paraminfo lists them with their flags and the token type', async () => {
    const r = await s.get({ action: 'paraminfo', modules: 'edit|watch|login|stashedit', format: 'json' });
    const [edit, watch, login, stashedit] = r.json.paraminfo.modules;
    assert.deepEqual([edit.readrights, edit.writerights, edit.mustbeposted], ['', '', '']);
    assert.equal(edit.classname, 'ApiEditPage');
    const token = edit.parameters.find((p: any) => p.name === 'token');
    // formatversion 1 leaves out false booleans (multi)
    assert.equal(JSON.stringify(token), '{"name":"token","required":"","tokentype":"csrf","type":"string"}');
    // the token keeps the place ApiEditPage declares it in: last
    assert.equal(edit.parameters.at(-1).name, 'token');
    assert.equal(watch.parameters.find((p: any) => p.name === 'token').tokentype, 'watch');
    assert.ok(
      watch.parameters.some((p: any) => p.name === 'titles'),
      'watch takes a page set',
    );
    assert.equal(login.prefix, 'lg');
    assert.equal(login.mustbeposted, '');
    assert.equal(login.readrights, undefined);
    assert.equal(stashedit.internal, '');
  });
});

describe('action=login and logout', () => {
  it('by GET: mustbeposted', async () => {
    const r = await s.get({ action: 'login', lgname: 'Адміністратор', lgpassword: 'x', format: 'json' });
    assertApiError(s, r, 'mustbeposted', 'The login module requires a POST request');
  });
  it('POSTed: NoName, NeedToken, WrongToken, then NotExists / EmptyPass / WrongPass (no one logs in here)', async () => {
    assert.deepEqual((await s.post({ action: 'login' }, json)).json, { login: { result: 'NoName' } });
    const first = (await s.post({ action: 'login', lgname: 'Адміністратор', lgpassword: 'x' }, json)).json.login;
    assert.equal(first.result, 'NeedToken');
    assert.match(first.token, /^[0-9a-f]{32}$/);
    assert.equal(typeof first.cookieprefix, 'string');
    const again = (lgname: string, lgpassword: string, lgtoken: string) =>
      s.post({ action: 'login', lgname, lgpassword, lgtoken }, json).then((r) => r.json.login.result);
    assert.equal(await again('Адміністратор', 'x', 'abc'), 'WrongToken');
    assert.equal(await again('Адміністратор', 'x', first.token), 'WrongPass');
    assert.equal(await again('Адміністратор', '', first.token), 'EmptyPass');
    const nobody = (await s.post({ action: 'login', lgname: 'Нікого Немає' }, json)).json.login.token;
    assert.equal(await again('Нікого Немає', 'x', nobody), 'NotExists');
  });
  it('without same-origin security (JSONP): Aborted', async () => {
    const r = await s.post({ action: 'login', lgname: 'X' }, { format: 'json', callback: 'cb' });
    assert.equal(r.text, '/**/cb({"login":{"result":"Aborted","reason":"Cannot log in when the same-origin policy is not applied"}})');
  });
  it('logout answers the empty result', async () => {
    assert.equal((await s.get({ action: 'logout', format: 'json' })).text, '[]');
  });
});

describe('action=checktoken', () => {
  it('the anonymous token is valid for every type, anything else invalid (User::matchEditToken)', async () => {
    assert.equal(
      (await s.get({ action: 'checktoken', type: 'csrf', token: '+\\', format: 'json' })).text,
      '{"checktoken":{"result":"valid"}}',
    );
    assert.equal(
      (await s.get({ action: 'checktoken', type: 'watch', token: '+\\', maxtokenage: 5, format: 'json' })).text,
      '{"checktoken":{"result":"valid"}}',
    );
    assert.equal(
      (await s.get({ action: 'checktoken', type: 'csrf', token: 'abc', format: 'json' })).text,
      '{"checktoken":{"result":"invalid"}}',
    );
  });
  it('a token with a timestamp after its 32 hex digits reports when it was generated', async () => {
    const token = '0123456789abcdef0123456789abcdef' + (1420070400).toString(16) + '+\\';
    const r = await s.get({ action: 'checktoken', type: 'csrf', token, format: 'json' });
    assert.equal(r.text, '{"checktoken":{"result":"invalid","generated":"2015-01-01T00:00:00Z"}}');
  });
  it('type and token are required', async () => {
    assertApiError(s, await s.get({ action: 'checktoken', token: 'x', format: 'json' }), 'notype', 'The type parameter must be set');
    assertApiError(s, await s.get({ action: 'checktoken', type: 'csrf', format: 'json' }), 'notoken', 'The token parameter must be set');
  });
});
