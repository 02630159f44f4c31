/**
 * action=parse of a redirect, as WikitextContent::fillParserOutput of 1.25 makes it
 * (WikitextContent.php:327-348): the text after the redirect link is rendered, under
 * Article::getRedirectHeaderHtml's header (Article.php:1480-1506: the `redirectto` message and a
 * Linker::link to the target with redirect=no), and the target is a page link of the output.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();
const parse = async (params: Record<string, string>) =>
  (await s.get(Object.assign({ action: 'parse', format: 'json', utf8: 1, disablepp: 1 }, params))).json.parse;

const HEADER = '<div class="redirectMsg"><p>Перенаправити на:</p><ul class="redirectText"><li>';

describe('action=parse of a redirect', () => {
  it('starts with the redirect header and lists the target in links', async () => {
    const r = await parse({ page: 'Kyiv', prop: 'text|links' });
    assert.deepEqual(r, {
      title: 'Kyiv',
      pageid: 32,
      text: {
        '*': `${HEADER}<a href="/index.php?title=%D0%9A%D0%B8%D1%97%D0%B2&amp;redirect=no" title="Київ">Київ</a></li></ul></div>`,
      },
      links: [{ ns: 0, exists: '', '*': 'Київ' }],
    });
  });

  it('renders what follows the redirect link; a missing target is a red link without its fragment', async () => {
    const r = await parse({ title: 'X', text: '#REDIRECT [[Немає такої#Розділ]]\n[[Категорія:Міста]]', prop: 'text|links|categories' });
    assert.equal(
      r.text['*'],
      `${HEADER}<a href="/index.php?title=%D0%9D%D0%B5%D0%BC%D0%B0%D1%94_%D1%82%D0%B0%D0%BA%D0%BE%D1%97&amp;redirect=no&amp;action=edit&amp;redlink=1" class="new" title="Немає такої (такої сторінки не існує)">Немає такої#Розділ</a></li></ul></div>`,
    );
    assert.deepEqual(r.links, [{ ns: 0, '*': 'Немає такої' }]);
    assert.deepEqual(r.categories, [{ sortkey: '', '*': 'Міста' }]);
  });

  it('links an existing target with its fragment, and one on another wiki as an interwiki link', async () => {
    const local = await parse({ title: 'X', text: '#REDIRECT [[Київ#Історія]]', prop: 'text' });
    assert.equal(
      local.text['*'],
      `${HEADER}<a href="/index.php?title=%D0%9A%D0%B8%D1%97%D0%B2&amp;redirect=no#.D0.86.D1.81.D1.82.D0.BE.D1.80.D1.96.D1.8F" title="Київ">Київ#Історія</a></li></ul></div>`,
    );
    const remote = await parse({ title: 'X', text: '#REDIRECT [[wikipedia:Europe]]', prop: 'text|links|iwlinks' });
    assert.equal(
      remote.text['*'],
      `${HEADER}<a href="https://en.wikipedia.org/wiki/Europe?redirect=no" class="extiw" title="wikipedia:Europe">wikipedia:Europe</a></li></ul></div>`,
    );
    assert.deepEqual(remote.links, []);
    assert.deepEqual(remote.iwlinks, [{ prefix: 'wikipedia', url: 'https://en.wikipedia.org/wiki/Europe', '*': 'wikipedia:Europe' }]);
  });

  it('a page that is no redirect has no header', async () => {
    assert.ok(!(await parse({ page: 'Київ', prop: 'text' })).text['*'].includes('redirectMsg'));
  });
});
