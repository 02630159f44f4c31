/**
 * The xml and php printers against answers MediaWiki wrote: test/data/formats/mediawiki-1.39 holds, for
 * each request of its requests.txt, the reference MediaWiki's (1.39, see its README) answer in json, xml
 * and php. Each JSON answer (formatversion 1: content under '*', booleans as "") is read back into a
 * result tree, and our printers must write exactly the xml and php MediaWiki wrote for it — whatever the
 * data, so this holds for every module the reference serves. The requests whose data the demo wiki shares
 * with the reference are also asked of our server, whose json, xml and php must be those same bytes, whose
 * xmlfm, phpfm and jsonfm pages must show the text MediaWiki's showed (N.xmlfm, N.phpfm, N.jsonfm), and
 * whose none must be empty. rawfm is left out: 1.39 shows its result metadata in another form than 1.25.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { toXml } from '../../src/api/format/xml.js';
import { toPhpValue } from '../../src/api/format/php-values.js';
import { phpSerialize } from '../../src/php/values.js';
import { BC_BOOLS, bcAssoc } from '../../src/api/result.js';
import { parseOrderedJson } from '../helpers/ordered-json.js';
import { demoServerForFile } from '../helpers/demo-server.js';
import { escapeElementText } from '../../src/wiki/html.js';

const here = dirname(fileURLToPath(import.meta.url));
// dist/test/api → the sources' test/data
const DATA = join(here, '..', '..', '..', 'test', 'data', 'formats', 'mediawiki-1.39');
const requests = readFileSync(join(DATA, 'requests.txt'), 'utf8').trim().split('\n');
const answer = (n: number, format: string) => readFileSync(join(DATA, `${n}.${format}`), 'utf8');

/**
 * Lists MediaWiki marks BCassoc (ApiResult::setArrayType): formatversion 1's JSON prints them as lists, so
 * the JSON answer cannot tell; in XML their items carry _idx. ApiQuerySiteinfo::appendGeneralInfo.
 */
const BC_ASSOC_PATHS = [
  ['query', 'general', 'thumblimits'],
  ['query', 'general', 'imagelimits'],
];

/**
 * formatversion 1 prints a boolean as "" or leaves it out, except the members ApiResult::META_BC_BOOLS
 * names: every boolean in the answer is one of those, and is marked so again.
 */
function markBcBools(node: unknown): void {
  if (Array.isArray(node)) node.forEach(markBcBools);
  if (!(node instanceof Map)) return;
  const bools: string[] = [];
  for (const [k, v] of node) {
    if (typeof v === 'boolean') bools.push(k);
    else markBcBools(v);
  }
  if (bools.length) (node as Map<string, unknown> & { [BC_BOOLS]?: string[] })[BC_BOOLS] = bools;
}

function treeOf(n: number): unknown {
  const tree = parseOrderedJson(answer(n, 'json'));
  markBcBools(tree);
  for (const path of BC_ASSOC_PATHS) {
    let node: unknown = tree;
    for (const key of path.slice(0, -1)) node = node instanceof Map ? node.get(key) : undefined;
    const list = node instanceof Map ? node.get(path.at(-1)!) : undefined;
    if (Array.isArray(list)) bcAssoc(list);
  }
  return tree;
}

/**
 * MediaWiki 1.39's Xml::element escapes element text with ENT_NOQUOTES; 1.25's escaped '"' in it too:
 * includes/Xml.php:52 calls htmlspecialchars( $contents ) with PHP's default flags (ENT_COMPAT). The
 * 1.25 form is asserted. Attributes are escaped alike in both (Sanitizer::encodeAttribute, ENT_QUOTES).
 */
function as125(xml: string): string {
  return xml.replace(/>([^<]*)</g, (_m, text: string) => `>${text.replaceAll('"', '&quot;')}<`);
}

describe('the xml and php printers write what MediaWiki wrote for the same result', () => {
  requests.forEach((request, i) => {
    const n = i + 1;
    it(`${request}: xml`, () => {
      assert.equal(toXml(treeOf(n), { rootName: 'api', pretty: false }), as125(answer(n, 'xml')));
    });
    it(`${request}: php`, () => {
      assert.equal(phpSerialize(toPhpValue(treeOf(n), true)), answer(n, 'php'));
    });
  });
});

/** requests.txt lines whose data the demo wiki and the reference share (the rest differ in data only) */
const SHARED_DATA = [1, 3, 5, 7, 8, 9, 22, 27];

/** the text of an …fm page: what its printer wrote, in the page's <pre> (Html::element: & and < escaped) */
function preText(page: string): string {
  const m = /<pre class="api-pretty-content">([\s\S]*?)<\/pre>/.exec(page);
  assert.ok(m, page.slice(0, 300));
  return m[1]!.replaceAll('&lt;', '<').replaceAll('&amp;', '&');
}

describe('our server answers these requests in json, the …fm pages and none as MediaWiki did', () => {
  const s = demoServerForFile();
  const get = async (request: string, format: string) => {
    const r = await fetch(`${s.url}?${request}&format=${format}`, { signal: AbortSignal.timeout(10_000) });
    return { type: r.headers.get('content-type'), text: (await r.text()).replaceAll(s.url, 'http://127.0.0.1:8081/api.php') };
  };
  for (const n of SHARED_DATA) {
    const request = requests[n - 1]!;
    it(`${request}&format=json`, async () => {
      const r = await get(request, 'json');
      assert.equal(r.text, answer(n, 'json'));
      assert.equal(r.type, 'application/json; charset=utf-8');
    });
    // N.xmlfm, N.phpfm, N.jsonfm hold the <pre> of MediaWiki's page: the page around it is 1.25's
    // ApiFormatBase::closePrinter in MediaWiki and wikiquery's own here, the printed text the same
    for (const format of ['xmlfm', 'phpfm', 'jsonfm']) {
      it(`${request}&format=${format}`, async () => {
        const r = await get(request, format);
        assert.equal(r.type, 'text/html; charset=utf-8');
        const expected = preText(`<pre class="api-pretty-content">${answer(n, format)}</pre>`);
        assert.equal(preText(r.text), format === 'xmlfm' ? as125(expected) : expected);
        // escaped as Html::element escapes (1.25's Html.php:241-248), & and < only
        assert.ok(r.text.includes(`<pre class="api-pretty-content">${escapeElementText(preText(r.text))}</pre>`));
      });
    }
    it(`${request}&format=none`, async () => {
      assert.deepEqual(await get(request, 'none'), { type: 'text/plain; charset=utf-8', text: '' });
    });
  }
});

describe('our server answers these requests in xml and php with the bytes MediaWiki wrote', () => {
  const s = demoServerForFile();
  for (const n of SHARED_DATA) {
    const request = requests[n - 1]!;
    for (const format of ['xml', 'php']) {
      it(`${request}&format=${format}`, async () => {
        const r = await fetch(`${s.url}?${request}&format=${format}`, { signal: AbortSignal.timeout(10_000) });
        const text = (await r.text()).replaceAll(s.url, 'http://127.0.0.1:8081/api.php');
        assert.equal(text, as125(answer(n, format)));
        assert.equal(
          r.headers.get('content-type'),
          format === 'xml' ? 'text/xml; charset=utf-8' : 'application/vnd.php.serialized; charset=utf-8',
        );
      });
    }
  }
});
