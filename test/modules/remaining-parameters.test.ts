/**
 * Parameters of existing modules that were missing or ignored, each checked against MediaWiki 1.25's
 * source (archlinux/archwiki 15e69f7b): generator=revisions (ApiQueryRevisionsBase is a generator,
 * ApiQueryRevisions.php:87-362), rvexpandtemplates and rvgeneratexml (ApiQueryRevisionsBase.php:250-320),
 * allpages' protection filters (ApiQueryAllPages.php:127-163), cmstartsortkey/cmendsortkey,
 * logevents' namespace and the `tag` log type, help's wrap (ApiHelp.php:55-70, 628-637), the legacy
 * token parameters (ApiQueryInfo.php:405-416, ApiQueryRecentChanges.php:552-562,
 * ApiQueryUsers.php:216-226) and the deprecation warning of every deprecated parameter
 * (ApiBase.php:949-951).
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const q = (params: Record<string, string | number>) =>
  s.get(Object.assign({ action: 'query', format: 'json', utf8: 1, continue: '' }, params));

describe('generator=revisions', () => {
  it('yields the pages of the latest revisions of the page set', async () => {
    const r = await q({ generator: 'revisions', titles: 'Київ|Львів|Немає такої', prop: 'info' });
    assert.deepEqual(
      Object.values(r.json.query.pages).map((p: any) => p.title),
      ['Київ', 'Львів'],
    );
  });
  it('in enumeration mode yields the page once, its revisions known to prop=revisions, continuing by revision id', async () => {
    const r = await q({ generator: 'revisions', titles: 'Київ', grvlimit: 2, prop: 'revisions', rvprop: 'ids' });
    const page: any = Object.values(r.json.query.pages)[0];
    assert.equal(page.title, 'Київ');
    assert.equal(page.revisions.length, 2);
    assert.match(String(r.json.continue.grvcontinue), /^\d+$/);
    assert.equal(r.json.continue.continue, 'grvcontinue||');
  });
  it('continues "page|revision" past rvlimit pages (10 by default)', async () => {
    const titles = (await q({ list: 'allpages', aplimit: 12 })).json.query.allpages.map((p: any) => p.title).join('|');
    const r = await q({ generator: 'revisions', titles, prop: 'info' });
    assert.equal(Object.keys(r.json.query.pages).length, 10);
    assert.match(r.json.continue.grvcontinue, /^\d+\|\d+$/);
  });
});

describe('rvexpandtemplates and rvgeneratexml', () => {
  it('the content expanded as action=expandtemplates expands the same text on the same page', async () => {
    const raw: any = Object.values((await q({ titles: 'Київ', prop: 'revisions', rvprop: 'content' })).json.query.pages)[0];
    const text = raw.revisions[0]['*'];
    const expanded: any = Object.values(
      (await q({ titles: 'Київ', prop: 'revisions', rvprop: 'content', rvexpandtemplates: 1 })).json.query.pages,
    )[0];
    const direct = await s.get({ action: 'expandtemplates', title: 'Київ', text, prop: 'wikitext', format: 'json', utf8: 1 });
    assert.notEqual(expanded.revisions[0]['*'], text);
    assert.equal(expanded.revisions[0]['*'], direct.json.expandtemplates.wikitext);
  });
  it('rvgeneratexml adds the preprocessor tree before the content', async () => {
    const r: any = Object.values((await q({ titles: 'Київ', prop: 'revisions', rvprop: 'content', rvgeneratexml: 1 })).json.query.pages)[0];
    const rev = r.revisions[0];
    assert.deepEqual(Object.keys(rev), ['parsetree', 'contentformat', 'contentmodel', '*']);
    assert.match(rev.parsetree, /^<root><template><title>Місто<\/title>/);
  });
});

describe('rvcontentformat', () => {
  // ApiQueryRevisionsBase.php:469-472 (every core format) and 330-350 (the format checked against the model)
  it("any format of 1.25 core; the stored text only in its model's format, else a warning and badcontentformat", async () => {
    const rev = async (params: Record<string, string | number>) => {
      const r = await q({ titles: 'Київ', prop: 'revisions', rvprop: 'ids|content', ...params });
      return { rev: (Object.values(r.json.query.pages)[0] as any).revisions[0], warnings: r.json.warnings };
    };
    const plain = await rev({});
    assert.equal(plain.rev.contentformat, 'text/x-wiki');
    assert.deepEqual(await rev({ rvcontentformat: 'text/x-wiki' }), plain);
    const other = await rev({ rvcontentformat: 'text/plain' });
    assert.deepEqual(other.rev, { revid: plain.rev.revid, parentid: plain.rev.parentid, badcontentformat: '' });
    assert.deepEqual(other.warnings, {
      revisions: { '*': 'The requested format text/plain is not supported for content model wikitext used by Київ' },
    });
    // an expanded (or rendered) text comes without contentformat and contentmodel
    const expanded = await rev({ rvexpandtemplates: 1, rvcontentformat: 'text/css' });
    assert.deepEqual(Object.keys(expanded.rev), ['revid', 'parentid', '*']);
    assert.equal(expanded.warnings, undefined);
    const bad = await s.get({ action: 'query', titles: 'Київ', prop: 'revisions', rvcontentformat: 'text/html', format: 'json' });
    assertApiError(s, bad, 'rvunknown_rvcontentformat', "Unrecognized value for parameter 'rvcontentformat': text/html");
  });
});

describe('allpages protection filters', () => {
  it('apprtype or apprexpiry: an empty list (a dump carries no page_restrictions), not a bare []', async () => {
    assert.equal(
      (await q({ list: 'allpages', apprtype: 'edit', apprlevel: 'sysop', apprfiltercascade: 'cascading' })).text,
      '{"batchcomplete":"","query":{"allpages":[]}}',
    );
    assert.equal((await q({ list: 'allpages', apprexpiry: 'indefinite' })).text, '{"batchcomplete":"","query":{"allpages":[]}}');
    assert.equal((await q({ generator: 'allpages', gapprtype: 'move' })).text, '{"batchcomplete":""}');
  });
  it('apprlevel without apprtype: apparams', async () => {
    assertApiError(
      s,
      await s.get({ action: 'query', list: 'allpages', apprlevel: 'sysop', format: 'json' }),
      'apparams',
      'prlevel may not be used without prtype',
    );
  });
});

describe('categorymembers cmstartsortkey and cmendsortkey', () => {
  it('start and end at stored sort keys, with the deprecation warning', async () => {
    const r = await q({ list: 'categorymembers', cmtitle: 'Категорія:Міста', cmstartsortkey: 'Л', cmendsortkey: 'ЛУГ', cmprop: 'title' });
    assert.equal(
      r.json.warnings.categorymembers['*'],
      'The cmstartsortkey parameter has been deprecated.\nThe cmendsortkey parameter has been deprecated.',
    );
    assert.deepEqual(
      r.json.query.categorymembers.map((m: any) => m.title),
      ['Лисичанськ'],
    );
  });
});

describe('logevents namespace and the tag log type', () => {
  it('lenamespace keeps the entries about pages of that namespace', async () => {
    const r = await q({ list: 'logevents', lenamespace: 6, lelimit: 50, leprop: 'title' });
    assert.ok(r.json.query.logevents.length > 0);
    assert.ok(r.json.query.logevents.every((e: any) => e.ns === 6));
  });
  it('title, prefix and namespace exclude each other (requireMaxOneParameter)', async () => {
    const r = await s.get({ action: 'query', list: 'logevents', letitle: 'Київ', lenamespace: 0, format: 'json' });
    assertApiError(s, r, 'leinvalidparammix', 'The parameters letitle, lenamespace can not be used together');
  });
  it('letype=tag and leaction=tag/update are 1.25 values', async () => {
    assert.equal((await q({ list: 'logevents', letype: 'tag' })).text, '{"batchcomplete":"","query":{"logevents":[]}}');
    assert.equal((await q({ list: 'logevents', leaction: 'tag/update' })).text, '{"batchcomplete":"","query":{"logevents":[]}}');
  });
});

describe('help wrap', () => {
  it('without wrap the page is the answer whatever the format; with wrap it is inside the result', async () => {
    const raw = await s.get({ action: 'help', modules: 'query+tags', format: 'json' });
    assert.equal(raw.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.match(raw.text, /^<!DOCTYPE html>/);
    const wrapped = await s.get({ action: 'help', modules: 'query+tags', format: 'json', wrap: 1 });
    assert.equal(wrapped.json.help.mime, 'text/html');
    assert.equal(wrapped.json.help.help, raw.text);
  });
});

describe('legacy token parameters', () => {
  it('intoken: starttimestamp and a warning per refused token type, on missing pages too', async () => {
    const r = await q({ titles: 'Київ|Немає такої', prop: 'info', intoken: 'edit|watch' });
    assert.equal(
      r.json.warnings.info['*'],
      "The intoken parameter has been deprecated.\nAction 'edit' is not allowed for the current user\nAction 'watch' is not allowed for the current user",
    );
    for (const page of Object.values(r.json.query.pages) as any[]) assert.match(page.starttimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(r.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
  });
  it('ustoken=userrights gives each existing user the anonymous token', async () => {
    const r = await q({ list: 'users', ususers: 'Адміністратор|Нікого Немає', ustoken: 'userrights' });
    assert.equal(
      r.text,
      '{"batchcomplete":"","warnings":{"users":{"*":"The ustoken parameter has been deprecated."}},"query":{"users":[{"userid":1,"name":"Адміністратор","userrightstoken":"+\\\\"},{"name":"Нікого Немає","missing":""}]}}',
    );
  });
  it('rctoken=patrol is refused with a warning (anonymous readers do not patrol)', async () => {
    const r = await q({ list: 'recentchanges', rclimit: 1, rctoken: 'patrol', rcprop: 'ids' });
    assert.equal(
      r.json.warnings.recentchanges['*'],
      "The rctoken parameter has been deprecated.\nAction 'patrol' is not allowed for the current user",
    );
    assert.equal(r.json.query.recentchanges[0].patroltoken, undefined);
  });
  it('rvtoken=rollback is refused with one warning for every revision listed, and makes the answer private', async () => {
    // ApiQueryRevisions.php:331-341 (getRollbackToken: no rollback right) and 364-369 (getCacheMode)
    const r = await q({ titles: 'Київ|Львів', prop: 'revisions', rvtoken: 'rollback', rvprop: 'ids' });
    assert.equal(
      r.json.warnings.revisions['*'],
      "The rvtoken parameter has been deprecated.\nAction 'rollback' is not allowed for the current user",
    );
    const revs = Object.values(r.json.query.pages).map((page: any) => page.revisions[0]);
    assert.equal(revs.length, 2);
    assert.ok(revs.every((rev: any) => rev.rollbacktoken === undefined));
    assert.equal(r.headers.get('cache-control'), 'private, must-revalidate, max-age=0');
    assert.equal(
      (await q({ titles: 'Київ', prop: 'revisions', rvprop: 'ids', smaxage: 60 })).headers.get('cache-control')?.includes('public'),
      true,
    );
  });
});

describe('deprecated parameters', () => {
  it('each is warned about when given, under its module', async () => {
    const r = await q({ list: 'usercontribs', ucuser: 'Адміністратор', uctoponly: 1, uclimit: 1 });
    assert.equal(r.json.warnings.usercontribs['*'], 'The uctoponly parameter has been deprecated.');
    const p = await s.get({ action: 'paraminfo', querymodules: 'tags', format: 'json' });
    assert.equal(p.json.warnings.paraminfo['*'], 'The querymodules parameter has been deprecated.');
  });
});

describe('prop=info incontinue', () => {
  // ApiQueryInfo.php:311-324 of 1.25: "ns|title"; the pages before it (namespace, then DB key) get no info
  it('leaves the pages before the continuation title without info', async () => {
    const r = await q({ prop: 'info', titles: 'Київ|Львів|Шаблон:Місто|Немає такої', incontinue: '0|Львів' });
    const pages = Object.values(r.json.query.pages) as any[];
    const withInfo = pages.filter((p) => p.contentmodel !== undefined).map((p) => p.title);
    assert.deepEqual(withInfo.sort(), ['Львів', 'Немає такої', 'Шаблон:Місто'].sort());
    const kyiv = pages.find((p) => p.title === 'Київ');
    assert.deepEqual(Object.keys(kyiv), ['pageid', 'ns', 'title']);
  });
  it('another shape is badcontinue', async () => {
    assertApiError(
      s,
      await q({ prop: 'info', titles: 'Київ', incontinue: 'Київ' }),
      'inbadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
  });
});
