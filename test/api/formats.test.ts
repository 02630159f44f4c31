/**
 * The output formats of MediaWiki 1.25 (ApiMain::$Formats) over HTTP: each printer's bytes, Content-Type
 * and parameters, the deprecated formats' warning, errors in every format, the …fm pages, xslt and
 * includexmlnamespace, opensearch&format=xml. What MediaWiki itself wrote is compared in
 * formats-reference.test.ts; every module in xml and php in formats-walk.test.ts.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { importHooks, importInlineQueries } from '../../src/cli/import-command.js';
import { importWiki } from '../../src/importer/import.js';
import { type DemoServer, demoServerForFile, startDemoServer } from '../helpers/demo-server.js';
import { dumpXml, page } from '../helpers/dump-pages.js';

const s = demoServerForFile();

const ONE_PAGE = { action: 'query', list: 'allpages', aplimit: 1, continue: '' };
const ONE_PAGE_TREE = {
  batchcomplete: '',
  continue: { apcontinue: '2014_в_Україні', continue: '-||' },
  query: { allpages: [{ pageid: 64, ns: 0, title: '1991 рік' }] },
};

describe('format=xml', () => {
  it('prints the tree as ApiFormatXml: scalars as attributes, lists under their tag names', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'xml' });
    assert.equal(r.headers.get('content-type'), 'text/xml; charset=utf-8');
    assert.equal(
      r.text,
      '<?xml version="1.0"?><api batchcomplete=""><continue apcontinue="2014_в_Україні" continue="-||" />' +
        '<query><allpages><p pageid="64" ns="0" title="1991 рік" /></allpages></query></api>',
    );
  });

  it('prints an error as <error code info xml:space="preserve">docref</error>, with the error header', async () => {
    const r = await s.get({ action: 'nope', format: 'xml' });
    assert.equal(r.headers.get('mediawiki-api-error'), 'unknown_action');
    assert.equal(
      r.text,
      `<?xml version="1.0"?><api><error code="unknown_action" info="Unrecognized value for parameter &#039;action&#039;: nope" xml:space="preserve">See ${s.url} for API usage</error></api>`,
    );
  });

  it('reads only its own parameters: callback and formatversion are unrecognized', async () => {
    const r = await s.get({ action: 'query', meta: 'userinfo', format: 'xml', callback: 'f', formatversion: 2 });
    // element text escapes as htmlspecialchars' ENT_COMPAT (includes/Xml.php:52): ' stays, unlike in attributes
    assert.match(r.text, /<warnings><main xml:space="preserve">Unrecognized parameters: 'callback', 'formatversion'<\/main><\/warnings>/);
    assert.match(r.text, /<userinfo id="0" name="127.0.0.1" anon="" \/>/);
  });

  it('adds the API namespace with includexmlnamespace, last among the root attributes', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'xml', includexmlnamespace: '' });
    assert.ok(r.text.startsWith('<?xml version="1.0"?><api batchcomplete="" xmlns="http://www.mediawiki.org/xml/api/">'), r.text);
  });

  it('checks xslt as ApiFormatXml::addXslt: an existing MediaWiki: page ending in .xsl, else a warning', async () => {
    const missing = await s.get({ ...ONE_PAGE, format: 'xml', xslt: 'MediaWiki:Nope.xsl' });
    assert.match(missing.text, /<warnings><xml xml:space="preserve">Invalid or non-existent stylesheet specified<\/xml><\/warnings>/);
    const notMediaWiki = await s.get({ ...ONE_PAGE, format: 'xml', xslt: 'Київ' });
    assert.match(notMediaWiki.text, /<xml xml:space="preserve">Stylesheet should be in the MediaWiki namespace.<\/xml>/);
    const invalid = await s.get({ ...ONE_PAGE, format: 'xmlfm', xslt: '[[' });
    assert.match(invalid.text, /&lt;xmlfm xml:space="preserve">Invalid or non-existent stylesheet specified/);
  });

  it('xmlfm is the HTML page around the indented XML (recXmlPrint with $indent = -2), & and < escaped (Html::element)', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'xmlfm' });
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(
      r.text.includes(
        '<pre class="api-pretty-content">&lt;?xml version="1.0"?>\n&lt;api batchcomplete="">\n' +
          '  &lt;continue apcontinue="2014_в_Україні" continue="-||" />\n  &lt;query>\n    &lt;allpages>\n' +
          '      &lt;p pageid="64" ns="0" title="1991 рік" />\n    &lt;/allpages>\n  &lt;/query>\n&lt;/api></pre>',
      ),
      r.text,
    );
    assert.match(r.text, /у форматі XML, додайте до запиту <code>format=xml<\/code>/);
  });

  it('gives int keys of an assoc node as _idx: query.pages keyed by page id', async () => {
    const r = await s.get({ action: 'query', titles: 'Київ|Немає такої', format: 'xml' });
    assert.match(
      r.text,
      /<pages><page _idx="-1" ns="0" title="Немає такої" missing="" \/><page _idx="336" pageid="336" ns="0" title="Київ" \/><\/pages>/,
    );
  });
});

describe('format=php', () => {
  it('is PHP serialize() of the formatversion 1 tree', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'php' });
    assert.equal(r.headers.get('content-type'), 'application/vnd.php.serialized; charset=utf-8');
    assert.equal(
      r.text,
      'a:3:{s:13:"batchcomplete";s:0:"";s:8:"continue";a:2:{s:10:"apcontinue";s:22:"2014_в_Україні";s:8:"continue";s:3:"-||";}' +
        's:5:"query";a:1:{s:8:"allpages";a:1:{i:0;a:3:{s:6:"pageid";i:64;s:2:"ns";i:0;s:5:"title";s:11:"1991 рік";}}}}',
    );
  });

  it('formatversion=2 keeps real booleans and content under its own name', async () => {
    const r = await s.get({ action: 'query', meta: 'userinfo', format: 'php', formatversion: 2, continue: '' });
    assert.equal(
      r.text,
      'a:2:{s:13:"batchcomplete";b:1;s:5:"query";a:1:{s:8:"userinfo";a:3:{s:2:"id";i:0;s:4:"name";s:9:"127.0.0.1";s:4:"anon";b:1;}}}',
    );
  });

  it('keys query.pages by page id as PHP ints in formatversion 1, as a list in 2', async () => {
    const fv1 = await s.get({ action: 'query', titles: 'Київ|Немає', format: 'php' });
    assert.match(fv1.text, /s:5:"pages";a:2:\{i:-1;a:3:\{.*\}i:336;a:3:\{/);
    const fv2 = await s.get({ action: 'query', titles: 'Київ|Немає', format: 'php', formatversion: 2 });
    assert.match(fv2.text, /s:5:"pages";a:2:\{i:0;a:3:\{s:2:"ns";i:0;s:5:"title";s:10:"Немає";s:7:"missing";b:1;\}i:1;/);
  });

  it('a bad formatversion is the unknown_formatversion error, printed in php with default parameters', async () => {
    const r = await s.get({ action: 'query', format: 'php', formatversion: 7 });
    assert.equal(r.headers.get('mediawiki-api-error'), 'unknown_formatversion');
    assert.ok(r.text.startsWith('a:2:{s:8:"warnings";a:1:{s:4:"main";a:1:{s:1:"*";s:101:"Error printer failed'), r.text);
  });
});

describe('the deprecated formats (ApiFormatBase::markDeprecated)', () => {
  const warning = (name: string, fm = '') => `format=${name} has been deprecated. Please use format=json${fm} instead.`;

  it('txt is print_r() of the formatversion 1 tree, as text/text', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'txt' });
    assert.equal(r.headers.get('content-type'), 'text/text; charset=utf-8');
    assert.equal(
      r.text,
      `Array\n(\n    [warnings] => Array\n        (\n            [txt] => Array\n                (\n                    [*] => ${warning('txt')}\n                )\n\n        )\n\n` +
        '    [batchcomplete] => \n    [continue] => Array\n        (\n            [apcontinue] => 2014_в_Україні\n            [continue] => -||\n        )\n\n' +
        '    [query] => Array\n        (\n            [allpages] => Array\n                (\n                    [0] => Array\n                        (\n' +
        '                            [pageid] => 64\n                            [ns] => 0\n                            [title] => 1991 рік\n                        )\n\n' +
        '                )\n\n        )\n\n)\n',
    );
  });

  it('dbg is var_export()', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'dbg' });
    assert.equal(
      r.text,
      `array (\n  'warnings' => \n  array (\n    'dbg' => \n    array (\n      '*' => '${warning('dbg')}',\n    ),\n  ),\n  'batchcomplete' => '',\n` +
        "  'continue' => \n  array (\n    'apcontinue' => '2014_в_Україні',\n    'continue' => '-||',\n  ),\n  'query' => \n  array (\n" +
        "    'allpages' => \n    array (\n      0 => \n      array (\n        'pageid' => 64,\n        'ns' => 0,\n        'title' => '1991 рік',\n      ),\n    ),\n  ),\n)",
    );
  });

  it('dump is var_dump(), string lengths in bytes', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'dump' });
    assert.ok(
      r.text.startsWith(
        `array(4) {\n  ["warnings"]=>\n  array(1) {\n    ["dump"]=>\n    array(1) {\n      ["*"]=>\n      string(64) "${warning('dump')}"\n    }\n  }\n  ["batchcomplete"]=>\n  string(0) ""\n`,
      ),
      r.text,
    );
    assert.ok(r.text.includes('["title"]=>\n        string(11) "1991 рік"\n'), r.text);
  });

  it('yaml is ApiFormatJson with the YAML type, and takes JSON parameters', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'yaml', utf8: '' });
    assert.equal(r.headers.get('content-type'), 'application/yaml; charset=utf-8');
    assert.deepEqual(JSON.parse(r.text), Object.assign({ warnings: { yaml: { '*': warning('yaml') } } }, ONE_PAGE_TREE));
    assert.ok(r.text.includes('1991 рік'));
  });

  it('wddx is the WDDX packet of ApiFormatWddx::slowWddxPrinter', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'wddx' });
    assert.equal(r.headers.get('content-type'), 'text/xml; charset=utf-8');
    assert.equal(
      r.text,
      '<?xml version="1.0"?><wddxPacket version="1.0"><header /><data><struct>' +
        `<var name="warnings"><struct><var name="wddx"><struct><var name="*"><string>${warning('wddx')}</string></var></struct></var></struct></var>` +
        '<var name="batchcomplete"><string></string></var><var name="continue"><struct><var name="apcontinue"><string>2014_в_Україні</string></var>' +
        '<var name="continue"><string>-||</string></var></struct></var><var name="query"><struct><var name="allpages"><array length="1"><struct>' +
        '<var name="pageid"><number>64</number></var><var name="ns"><number>0</number></var><var name="title"><string>1991 рік</string></var>' +
        '</struct></array></var></struct></var></struct></data></wddxPacket>',
    );
  });

  it('the fm forms warn under their own name and point at jsonfm', async () => {
    for (const name of ['txtfm', 'dbgfm', 'dumpfm', 'yamlfm', 'wddxfm']) {
      const r = await s.get({ ...ONE_PAGE, format: name });
      assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8', name);
      assert.ok(r.text.includes(warning(name, 'fm')), name);
    }
  });

  it('an error carries the deprecation warning too: the printer runs for it', async () => {
    const r = await s.get({ action: 'nope', format: 'txt' });
    assert.equal(r.headers.get('mediawiki-api-error'), 'unknown_action');
    assert.ok(r.text.startsWith(`Array\n(\n    [warnings] => Array\n        (\n            [txt] => Array\n`), r.text);
    assert.ok(r.text.includes("[code] => unknown_action\n            [info] => Unrecognized value for parameter 'action': nope\n"), r.text);
  });
});

describe('format=none, rawfm', () => {
  it('none prints nothing, as text/plain', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'none' });
    assert.equal(r.status, 200);
    assert.equal(r.headers.get('content-type'), 'text/plain; charset=utf-8');
    assert.equal(r.text, '');
  });

  it('none prints nothing for an error either: the error header tells it', async () => {
    const r = await s.get({ action: 'nope', format: 'none' });
    assert.equal(r.headers.get('mediawiki-api-error'), 'unknown_action');
    assert.equal(r.text, '');
  });

  it('rawfm shows the tree with its metadata: the tag names of lists', async () => {
    const r = await s.get({ ...ONE_PAGE, format: 'rawfm' });
    assert.equal(r.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.ok(r.text.includes('"allpages": {\n            "0": {'), r.text);
    assert.ok(r.text.includes('"_element": "p"'), r.text);
  });
});

describe('action=opensearch&format=xml (ApiOpenSearch::populateResult)', () => {
  it('is the OpenSearch XML of search providers, redirects resolved', async () => {
    const r = await s.get({ action: 'opensearch', search: 'Ки', limit: 2, format: 'xml' });
    assert.equal(r.headers.get('content-type'), 'text/xml; charset=utf-8');
    const host = new URL(s.url).host;
    assert.equal(
      r.text,
      '<?xml version="1.0"?><SearchSuggestion version="2.0" xmlns="http://opensearch.org/searchsuggest2"><Query xml:space="preserve">Ки</Query><Section>' +
        `<Item><Text xml:space="preserve">Кирило Кожумʼяка</Text><Url xml:space="preserve">http://${host}/index.php/%D0%9A%D0%B8%D1%80%D0%B8%D0%BB%D0%BE_%D0%9A%D0%BE%D0%B6%D1%83%D0%BC%CA%BC%D1%8F%D0%BA%D0%B0</Url></Item>` +
        `<Item><Text xml:space="preserve">Київ</Text><Url xml:space="preserve">http://${host}/index.php/%D0%9A%D0%B8%D1%97%D0%B2</Url></Item></Section></SearchSuggestion>`,
    );
  });

  it('prints warnings in the XML, and errors as the xml printer does', async () => {
    const w = await s.get({ action: 'opensearch', search: 'Ки', limit: 1, format: 'xml', foo: 1 });
    assert.match(
      w.text,
      /^<\?xml version="1.0"\?><SearchSuggestion version="2.0" xmlns="http:\/\/opensearch.org\/searchsuggest2"><warnings><main xml:space="preserve">Unrecognized parameter: 'foo'<\/main><\/warnings><Query/,
    );
    // the xml printer's parameters are its own: JSON's callback is not
    const callback = await s.get({ action: 'opensearch', search: 'Ки', limit: 1, format: 'xml', callback: 'f', includexmlnamespace: '' });
    assert.match(callback.text, /<warnings><main xml:space="preserve">Unrecognized parameter: 'callback'<\/main><\/warnings>/);
    const e = await s.get({ action: 'opensearch', search: 'Ки', redirects: 'bad', format: 'xml' });
    assert.equal(e.headers.get('mediawiki-api-error'), 'unknown_redirects');
    assert.match(e.text, /^<\?xml version="1.0"\?><api><error code="unknown_redirects"/);
  });
});

describe('the format modules in paraminfo', () => {
  it('describes each printer with its own parameters, class and deprecation, as 1.25 lists them', async () => {
    const r = await s.get({ action: 'paraminfo', modules: 'xml|php|txtfm|none', formatversion: 2 });
    const [xml, php, txtfm, none] = r.json.paraminfo.modules;
    assert.deepEqual(
      xml.parameters.map((p: any) => [p.name, p.type]),
      [
        ['xslt', 'string'],
        ['includexmlnamespace', 'boolean'],
      ],
    );
    assert.equal(xml.classname, 'ApiFormatXml');
    assert.deepEqual(xml.helpurls, ['https://www.mediawiki.org/wiki/API:Data_formats']);
    assert.deepEqual(
      php.parameters.map((p: any) => [p.name, p.type]),
      [['formatversion', ['1', '2', 'latest']]],
    );
    assert.equal(txtfm.classname, 'ApiFormatTxt');
    assert.equal(txtfm.deprecated, true);
    assert.ok(!xml.deprecated);
    assert.deepEqual(none.parameters, []);
  });
});

describe("the flash policy tag (1.25's wfOutputHandler, bug 66776)", () => {
  const titles = 'Київ|<cross-domain-policy>';
  it('is mangled in the printers that write text unescaped', async () => {
    for (const format of ['txt', 'dbg', 'dump']) {
      const r = await s.get({ action: 'query', titles, format });
      assert.ok(r.text.includes('<NOT-cross-domain-policy>'), format);
      assert.ok(!r.text.includes('<cross-domain-policy>'), format);
    }
    const xml = await s.get({ action: 'query', titles, format: 'xml' });
    assert.ok(xml.text.includes('title="&lt;cross-domain-policy&gt;"'), xml.text);
  });
  it('makes format=php fail with internalerror, as ApiFormatPhp does', async () => {
    const r = await s.get({ action: 'query', titles, format: 'php' });
    assert.equal(r.headers.get('mediawiki-api-error'), 'internalerror');
    assert.ok(
      r.text.startsWith(
        'a:1:{s:5:"error";a:3:{s:4:"code";s:13:"internalerror";s:4:"info";s:110:"This response cannot be represented using format=php.',
      ),
      r.text,
    );
    // an error that carries the tag itself is printed by the default printer
    const again = await s.get({ action: 'query', titles, format: 'php', requestid: '<cross-domain-policy>' });
    assert.equal(again.headers.get('mediawiki-api-error'), 'internalerror');
    assert.match(again.headers.get('content-type')!, /^text\/html/);
  });
});

describe('format=xml&xslt= with the stylesheet page in the wiki', () => {
  let wiki: DemoServer;
  const dir = mkdtempSync(join(tmpdir(), 'wikiquery-xslt-'));
  before(async () => {
    writeFileSync(
      join(dir, 'dump.xml'),
      dumpXml([page('MediaWiki:Api.xsl', 8, '<xsl:stylesheet/>'), page('MediaWiki:Api.css', 8, 'p{}'), page('Головна', 0, 'Текст')]),
    );
    await importWiki({
      dump: join(dir, 'dump.xml'),
      db: join(dir, 'wiki.sqlite'),
      lang: 'uk',
      hooks: importHooks(),
      inlineQueries: importInlineQueries(),
      progress: false,
      log: () => {},
    });
    wiki = await startDemoServer({ db: join(dir, 'wiki.sqlite') });
  });
  after(async () => {
    await wiki?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("adds the xml-stylesheet instruction pointing at the page's raw text (ApiFormatXml::addXslt)", async () => {
    const r = await wiki.get({ action: 'query', meta: 'userinfo', format: 'xml', xslt: 'MediaWiki:Api.xsl' });
    assert.ok(
      r.text.startsWith(
        '<?xml version="1.0"?><?xml-stylesheet href="/index.php?title=MediaWiki:Api.xsl&amp;action=raw" type="text/xsl" ?><api>',
      ),
      r.text,
    );
    assert.ok(!r.text.includes('<warnings>'), r.text);
  });

  it('refuses a page without the .xsl extension', async () => {
    const r = await wiki.get({ action: 'query', meta: 'userinfo', format: 'xml', xslt: 'MediaWiki:Api.css' });
    assert.ok(
      r.text.startsWith('<?xml version="1.0"?><api><warnings><xml xml:space="preserve">Stylesheet should have .xsl extension.</xml>'),
      r.text,
    );
  });
});
