/**
 * list=blocks, list=protectedtitles (list and generator) and list=tags: a dump carries no ipblocks,
 * protected_titles or change-tag tables, so each answers as a 1.25 wiki without them does, an empty
 * list (the reference MediaWiki 1.39 answers `"blocks":[]` and `"protectedtitles":[]` alike; its
 * list=tags names the mw-* tags of 1.28+, which 1.25 did not have). Their parameters are validated
 * in ApiQueryBlocks' order (ApiQueryBlocks.php:40-160 at 1.25.4).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const q = (params: Record<string, string | number>) => s.get(Object.assign({ action: 'query', format: 'json', continue: '' }, params));

describe('list=blocks', () => {
  it('is an empty list', async () => {
    assert.equal((await q({ list: 'blocks' })).text, '{"batchcomplete":"","query":{"blocks":[]}}');
    assert.equal(
      (await q({ list: 'blocks', bkusers: 'Адміністратор|127.0.0.1', bkprop: 'id|user|range' })).text,
      '{"batchcomplete":"","query":{"blocks":[]}}',
    );
  });
  it('bkusers and bkip together: invalidparammix', async () => {
    const r = await q({ list: 'blocks', bkusers: 'Адміністратор', bkip: '127.0.0.1' });
    assertApiError(s, r, 'bkinvalidparammix', 'The parameters bkusers, bkip can not be used together');
  });
  it('an invalid user name, IP or CIDR range is refused', async () => {
    assertApiError(s, await q({ list: 'blocks', bkusers: 'A#b' }), 'bkparam_user', 'User name A#b is not valid');
    assertApiError(s, await q({ list: 'blocks', bkip: 'foo' }), 'bkparam_ip', 'IP parameter is not valid');
    assertApiError(
      s,
      await q({ list: 'blocks', bkip: '10.0.0.0/8' }),
      'bkcidrtoobroad',
      'IPv4 CIDR ranges broader than /16 are not accepted',
    );
    assertApiError(
      s,
      await q({ list: 'blocks', bkip: '2001:db8::/16' }),
      'bkcidrtoobroad',
      'IPv6 CIDR ranges broader than /19 are not accepted',
    );
    assert.equal((await q({ list: 'blocks', bkip: '10.1.0.0/16' })).json.query.blocks.length, 0);
  });
  it('mutually exclusive bkshow values and a bad continuation are errors', async () => {
    assertApiError(
      s,
      await q({ list: 'blocks', bkshow: 'ip|!ip' }),
      'bkshow',
      'Incorrect parameter - mutually exclusive values may not be supplied',
    );
    assertApiError(
      s,
      await q({ list: 'blocks', bkcontinue: 'x' }),
      'bkbadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
  });
});

describe('list=protectedtitles', () => {
  it('is an empty list, and an empty generator', async () => {
    assert.equal(
      (await q({ list: 'protectedtitles', ptnamespace: 0, ptlevel: 'sysop' })).text,
      '{"batchcomplete":"","query":{"protectedtitles":[]}}',
    );
    assert.equal((await q({ generator: 'protectedtitles', prop: 'info' })).text, '{"batchcomplete":""}');
  });
  it('validates its levels and namespaces', async () => {
    const r = await q({ list: 'protectedtitles', ptlevel: 'superuser' });
    assert.equal(r.json.warnings.protectedtitles['*'], "Unrecognized value for parameter 'ptlevel': superuser");
  });
});

describe('list=tags', () => {
  it('is empty: 1.25 defines no tags and a dump applies none', async () => {
    assert.equal((await q({ list: 'tags', tgprop: 'name|hitcount|defined' })).text, '{"batchcomplete":"","query":{"tags":[]}}');
  });
});
