/**
 * action=rsd: ApiRsd's document through ApiFormatXmlRsd, whatever format= asks for. MediaWiki 1.39 (the
 * reference wiki) writes the same document with another docs link (Special:MyLanguage/API); 1.25's
 * ApiRsd::getRsdApiList has https://www.mediawiki.org/wiki/API, and 1.25's source wins.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { demoServerForFile } from '../helpers/demo-server.js';

const s = demoServerForFile();

describe('action=rsd', () => {
  it('answers the RSD document as application/rsd+xml, in any format', async () => {
    const server = new URL(s.url).origin;
    const expected =
      '<?xml version="1.0"?><rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd"><service><apis>' +
      `<api name="MediaWiki" preferred="true" apiLink="${s.url}" blogID=""><settings>` +
      '<docs xml:space="preserve">https://www.mediawiki.org/wiki/API</docs>' +
      '<setting name="OAuth" xml:space="preserve">false</setting></settings></api></apis>' +
      '<engineName xml:space="preserve">MediaWiki</engineName><engineLink xml:space="preserve">https://www.mediawiki.org/</engineLink>' +
      `<homePageLink xml:space="preserve">${server}/index.php/%D0%93%D0%BE%D0%BB%D0%BE%D0%B2%D0%BD%D0%B0_%D1%81%D1%82%D0%BE%D1%80%D1%96%D0%BD%D0%BA%D0%B0</homePageLink>` +
      '</service></rsd>';
    for (const format of ['json', 'jsonfm']) {
      const res = await s.get({ action: 'rsd', format });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/rsd+xml; charset=utf-8');
      assert.equal(res.text, expected);
    }
  });
});
