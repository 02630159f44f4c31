/**
 * list=langbacklinks and list=iwbacklinks (ApiQueryLangBacklinks / ApiQueryIWBacklinks of 1.25, also
 * generators): the pages linking to a language or interwiki prefix, in (code, title, page) order,
 * continued by "code|title|page id"; a title without the code is `<prefix>nolang` / `<prefix>noprefix`.
 * The demo wiki has language links and no interwiki links: iwbacklinks is an empty list there.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { assertApiError, demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const q = (params: Record<string, string | number>) =>
  s.get(Object.assign({ action: 'query', format: 'json', utf8: 1, continue: '' }, params));

describe('list=langbacklinks', () => {
  it('lists the linking pages in language, title, page order, with lllang and lltitle', async () => {
    const r = await q({ list: 'langbacklinks', lbllimit: 3, lblprop: 'lllang|lltitle' });
    assert.equal(
      r.text,
      '{"batchcomplete":"","continue":{"lblcontinue":"de|Ukraine|346","continue":"-||"},"query":{"langbacklinks":[' +
        '{"pageid":305,"ns":0,"title":"Борщ","lllang":"de","lltitle":"Borschtsch"},' +
        '{"pageid":336,"ns":0,"title":"Київ","lllang":"de","lltitle":"Kiew"},' +
        '{"pageid":407,"ns":0,"title":"Львів","lllang":"de","lltitle":"Lemberg"}]}}',
    );
  });
  it('continues without loss or repetition, ascending and descending', async () => {
    for (const dir of ['ascending', 'descending']) {
      const all = (await q({ list: 'langbacklinks', lbllimit: 500, lbldir: dir, lblprop: 'lllang|lltitle' })).json.query.langbacklinks;
      const paged: unknown[] = [];
      let cont: Record<string, string> = { continue: '' };
      for (let i = 0; i < 100; i++) {
        const r = await q(Object.assign({ list: 'langbacklinks', lbllimit: 4, lbldir: dir, lblprop: 'lllang|lltitle' }, cont));
        paged.push(...r.json.query.langbacklinks);
        if (!r.json.continue) break;
        cont = r.json.continue;
      }
      assert.ok(all.length > 8);
      assert.deepEqual(paged, all);
    }
  });
  it('filters by language and by title in it', async () => {
    const en = (await q({ list: 'langbacklinks', lbllang: 'en', lbllimit: 500, lblprop: 'lllang' })).json.query.langbacklinks;
    assert.ok(en.length > 0 && en.every((e: any) => e.lllang === 'en'));
    const kyiv = await q({ list: 'langbacklinks', lbllang: 'en', lbltitle: 'Kyiv' });
    assert.equal(kyiv.text, '{"batchcomplete":"","query":{"langbacklinks":[{"pageid":336,"ns":0,"title":"Київ"}]}}');
  });
  it('as a generator gives the linking pages', async () => {
    const r = await q({ generator: 'langbacklinks', glbllang: 'en', glbltitle: 'Kyiv', prop: 'info' });
    assert.deepEqual(
      Object.values(r.json.query.pages).map((p: any) => p.title),
      ['Київ'],
    );
  });
  it('a title without a language, or a bad continuation, is an error', async () => {
    assertApiError(
      s,
      await s.get({ action: 'query', list: 'langbacklinks', lbltitle: 'Kyiv', format: 'json' }),
      'lblnolang',
      'The lang parameter must be set',
    );
    assertApiError(
      s,
      await s.get({ action: 'query', list: 'langbacklinks', lblcontinue: 'en|x', format: 'json' }),
      'lblbadcontinue',
      'Invalid continue param. You should pass the original value returned by the previous query',
    );
  });
});

describe('list=iwbacklinks', () => {
  it('is an empty list on a wiki without interwiki links, and checks its parameters', async () => {
    assert.equal(
      (await q({ list: 'iwbacklinks', iwblprefix: 'wikipedia', iwblprop: 'iwprefix|iwtitle' })).text,
      '{"batchcomplete":"","query":{"iwbacklinks":[]}}',
    );
    assertApiError(
      s,
      await s.get({ action: 'query', list: 'iwbacklinks', iwbltitle: 'X', format: 'json' }),
      'iwblnoprefix',
      'The prefix parameter must be set',
    );
  });
});
