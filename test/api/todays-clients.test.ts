/**
 * What clients written for today's MediaWiki send and expect: `origin=*` answered as MediaWiki 1.30+
 * answers it (anonymous CORS; 1.25 refused it with a 403), `formatversion=latest` as 2 in every module,
 * and `serve --new-continuation`, which gives a query without `continue=` the continuation of 1.26+.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile, startDemoServer, type DemoServer } from '../helpers/demo-server.js';

const s = demoServerForFile();

describe('origin=* (anonymous CORS, MediaWiki 1.30+)', () => {
  it('allows any origin without credentials, without Vary, and hands out no tokens', async () => {
    // the reference MediaWiki 1.39 answers these headers and this body too
    const r = await fetch(`${s.url}?action=query&meta=tokens&format=json&origin=*`, { headers: { Origin: 'https://app.example' } });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.equal(r.headers.get('access-control-allow-credentials'), 'false');
    assert.equal(
      r.headers.get('access-control-expose-headers'),
      'MediaWiki-API-Error, Retry-After, X-Database-Lag, MediaWiki-Login-Suppressed',
    );
    assert.equal(r.headers.get('mediawiki-login-suppressed'), 'true');
    assert.equal(r.headers.get('vary'), null);
    assert.equal(await r.text(), '{"warnings":{"tokens":{"*":"Tokens may not be obtained when the same-origin policy is not applied"}}}');
  });
  it('works without an Origin header (wikijs from Node sends none)', async () => {
    const r = await fetch(`${s.url}?action=query&titles=%D0%9A%D0%B8%D1%97%D0%B2&format=json&origin=*`);
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('access-control-allow-origin'), '*');
    assert.match(await r.text(), /"title":"\\u041a\\u0438\\u0457\\u0432"/);
  });
  it('answers a preflight for GET and POST with the requested headers it allows', async () => {
    const ok = await fetch(`${s.url}?action=query&format=json&origin=*`, {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'Api-User-Agent' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get('access-control-allow-methods'), 'POST, GET');
    assert.equal(ok.headers.get('access-control-allow-headers'), 'Api-User-Agent');
    assert.equal(ok.headers.get('access-control-allow-origin'), '*');
    const refused = await fetch(`${s.url}?action=query&format=json&origin=*`, {
      method: 'OPTIONS',
      headers: { 'Access-Control-Request-Method': 'PUT' },
    });
    assert.equal(refused.headers.get('access-control-allow-origin'), null);
    assert.equal(refused.headers.get('mediawiki-cors-rejection'), 'Unsupported method requested in preflight');
  });
  it('a login without same-origin security is aborted', async () => {
    const r = await s.post({ action: 'login', lgname: 'X', origin: '*' }, { format: 'json' });
    assert.equal(r.json.login.result, 'Aborted');
  });
});

describe('formatversion=latest', () => {
  it('is formatversion 2 in the printer and in modules that shape values by version (parse wikitext)', async () => {
    const latest = await s.get({ action: 'parse', text: "''a''", prop: 'wikitext', format: 'json', formatversion: 'latest' });
    const two = await s.get({ action: 'parse', text: "''a''", prop: 'wikitext', format: 'json', formatversion: 2 });
    assert.equal(latest.text, two.text);
    assert.equal(latest.json.parse.wikitext, "''a''");
  });
  it('expandtemplates parsetree is a string too', async () => {
    const r = await s.get({ action: 'expandtemplates', text: 'x', prop: 'parsetree', format: 'json', formatversion: 'latest' });
    assert.equal(typeof r.json.expandtemplates.parsetree, 'string');
  });
});

describe('serve --new-continuation', () => {
  let modern: DemoServer;
  before(async () => {
    modern = await startDemoServer({ server: { newContinuation: true } });
  });
  after(async () => {
    await modern.close();
  });
  it('continues a query without continue= as 1.26+ does, with batchcomplete', async () => {
    const q = { action: 'query', list: 'allpages', aplimit: 2, format: 'json' };
    const r = await modern.get(q);
    const explicit = await s.get(Object.assign({ continue: '' }, q));
    assert.equal(r.text, explicit.text);
    assert.ok(r.json.continue.apcontinue);
    assert.equal(r.json.warnings, undefined);
  });
  it('rawcontinue still gives query-continue, without the warning', async () => {
    const r = await modern.get({ action: 'query', list: 'allpages', aplimit: 2, format: 'json', rawcontinue: 1 });
    assert.ok(r.json['query-continue'].allpages.apcontinue);
    assert.equal(r.json.warnings, undefined);
  });
  it('without the option a query without continue= keeps 1.25 raw continuation', async () => {
    const r = await s.get({ action: 'query', list: 'allpages', aplimit: 2, format: 'json' });
    assert.ok(r.json['query-continue']);
  });
});
