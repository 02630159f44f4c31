/**
 * Link extraction (wikitext/links.ts) on the constructs the parser treats specially: unclosed and nested
 * links, files, interwikis, DISPLAYTITLE.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { extractLinks } from '../../src/wikitext/links.js';
import { TitleCodec } from '../../src/wiki/titles.js';
import { InterwikiMap } from '../../src/wiki/interwiki.js';
import { displayTitleProp } from '../../src/wikitext/display-title.js';

describe('link extraction details', () => {
  const codec = TitleCodec.forSite('Тестовікі');
  const links = (text: string) => extractLinks(text, { codec, ns: 0, dbkey: 'Тест' });
  it('follows the parser on unclosed and nested constructs', () => {
    assert.deepEqual([...links('[[A|x [[B]] y]]').pages.keys()], ['0|B']); // a label cannot hold [[
    assert.deepEqual([...links('[[Файл:X.png|thumb|[[A]] і [[B]]]]').files], ['X.png']);
    assert.deepEqual([...links('[[Файл:X.png|thumb|[[A]] без кінця').files], []); // the image never closes
    assert.deepEqual([...links('[[http://example.org]] [[A<nowiki/>B]] [[#розділ]] [[Спеціальна:Пошук]]').pages.keys()], []);
    assert.deepEqual([...links('[[A%20B]] [[a&amp;b]]').pages.keys()], ['0|A_B', '0|A&b']);
    assert.deepEqual([...links('[[Категорія:X|1]] [[Категорія:X|2]]').categories], [['X', '2']]);
  });
  it('DISPLAYTITLE applies only when it names the page itself (quotes and inline tags kept, block tags escaped)', () => {
    const codec = TitleCodec.forSite('Тестовікі');
    const page = { ns: 0, dbkey: 'Київ' };
    assert.equal(displayTitleProp("''Київ''", page, codec), '<i>Київ</i>');
    assert.equal(displayTitleProp('<span style="color:red">к</span>иїв', page, codec), '<span style="color:red">к</span>иїв');
    assert.equal(displayTitleProp('Львів', page, codec), null);
    assert.equal(displayTitleProp('<div>Київ</div>', page, codec), null);
    assert.equal(displayTitleProp('Київ#Історія', page, codec), null);
  });
  it('reads prefixes with the interwiki map it is given: unknown prefixes are page links, language codes language links', () => {
    const map = new InterwikiMap([
      { prefix: 'w', url: 'https://uk.wikipedia.org/wiki/$1', local: false },
      { prefix: 'de', url: 'https://de.wikipedia.org/wiki/$1', local: false },
    ]);
    const l = extractLinks('[[w:Київ]] [[de:Kiew]] [[en:Kyiv]] [[Talk:x]]', { codec, ns: 0, dbkey: 'Тест', interwiki: map });
    assert.deepEqual([...l.interwikis.values()], [{ prefix: 'w', title: 'Київ' }]);
    assert.deepEqual([...l.langs], [['de', 'Kiew']]);
    assert.deepEqual([...l.pages.keys()], ['0|En:Kyiv', '1|X']);
    // on a talk page a language prefix makes an interwiki link
    const talk = extractLinks('[[de:Kiew]]', { codec, ns: 1, dbkey: 'Тест', interwiki: map });
    assert.deepEqual([...talk.interwikis.values()], [{ prefix: 'de', title: 'Kiew' }]);
  });
  it('decodes every HTML5 named entity in titles; unknown names and invalid code points as MediaWiki', () => {
    assert.deepEqual([...links('[[Категорія:Caf&eacute;]] [[Категорія:&Uuml;ber&nbsp;alles]]').categories.keys()], ['Café', 'Über_alles']);
    // &NotNestedGreaterGreater; is HTML5 only (two code points); &bogus; stays text; &#0; is U+FFFD, no title character
    assert.deepEqual(
      [...links('[[A&NotNestedGreaterGreater;]] [[B&bogus;]] [[C&#0;]] [[D&#x44;]]').pages.keys()],
      ['0|A⪢̸', '0|B&bogus;', '0|DD'],
    );
  });
});
