/**
 * action=rsd (ApiRsd of 1.25): the Really Simple Discovery document that tells blog clients where the API
 * is. Whatever format= says, the answer is ApiFormatXmlRsd's: the XML printer's output for ApiRsd's result
 * tree under an <rsd> root, as application/rsd+xml.
 */
import type { PlainActionModule } from '../api/types.js';
import { pageUrl, serverOf } from '../wiki/files.js';
import { htmlspecialchars } from '../wiki/html.js';
import { MessageLoader } from './message-loader.js';

export const rsdModule: PlainActionModule = {
  kind: 'action',
  name: 'rsd',
  prefix: '',
  description: 'Export an RSD (Really Simple Discovery) schema.',
  params: {},
  examples: ['action=rsd'],
  readRights: false,
  customPrinter() {
    return {
      contentType: 'application/rsd+xml; charset=utf-8',
      headers: { 'Content-Disposition': 'inline; filename=api-result.xml', 'Cache-Control': 'private, must-revalidate, max-age=0' },
      render: (result) => result.get('rsd') as string,
    };
  },
  async run(ctx) {
    const main = await new MessageLoader(ctx.store, ctx.wiki).get('mainpage', ctx.wiki.lang);
    // Title::newMainPage: the `mainpage` message as a title, "Main Page" when it is none
    const title = (main !== false && ctx.wiki.codec.parse(main)) || ctx.wiki.codec.parse('Main Page')!;
    const home = pageUrl(serverOf(ctx.request.apiUrl), ctx.wiki.codec.prefixedDbKey(title.ns, title.dbkey));
    const attr = (s: string) => htmlspecialchars(s);
    ctx.result.set(
      'rsd',
      '<?xml version="1.0"?><rsd version="1.0" xmlns="http://archipelago.phrasewise.com/rsd"><service><apis>' +
        `<api name="MediaWiki" preferred="true" apiLink="${attr(ctx.request.apiUrl)}" blogID="">` +
        '<settings><docs xml:space="preserve">https://www.mediawiki.org/wiki/API</docs>' +
        '<setting name="OAuth" xml:space="preserve">false</setting></settings></api></apis>' +
        '<engineName xml:space="preserve">MediaWiki</engineName>' +
        '<engineLink xml:space="preserve">https://www.mediawiki.org/</engineLink>' +
        `<homePageLink xml:space="preserve">${htmlspecialchars(home)}</homePageLink></service></rsd>`,
    );
  },
};
