/**
 * Full-text search (list=search), prefix search (list=prefixsearch) and action=opensearch on the demo
 * wiki: Cyrillic words, case and apostrophe variants, ё/е and ї/і kept apart, phrases, exclusions,
 * ranking, snippets, bad input, and the Latin-word answers of the reference MediaWiki on the same dump.
 * (Continuation joins of these modules are in continuation.test.ts.)
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { demoDatabase, demoServerForFile } from '../helpers/demo-server.js';
import {
  foldForSearch,
  foldGeneral,
  highlightAll,
  stripMarkup,
  stripOptions,
  termMatcher,
  textSnippet,
} from '../../src/wiki/search-text.js';
import { TitleCodec } from '../../src/wiki/titles.js';
import { LANGUAGE_CODES } from '../../src/wiki/language-codes.js';
import { lemmasOf } from '../../src/wiki/morphology.js';

const s = demoServerForFile();

async function search(params: Record<string, string | number>): Promise<any> {
  const r = await s.get({ action: 'query', list: 'search', continue: '', utf8: 1, ...params });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.error, undefined, r.text);
  return r.json;
}

async function titles(srsearch: string, extra: Record<string, string | number> = {}): Promise<string[]> {
  const j = await search({ srsearch, srlimit: 'max', srprop: '', ...extra });
  return j.query.search.map((x: any) => x.title);
}

/** Every result of a search, following sroffset past srlimit=max. */
async function allTitles(srsearch: string): Promise<string[]> {
  const out: string[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const j = await search({ srsearch, srlimit: 'max', srprop: '', sroffset: offset });
    for (const x of j.query.search) out.push(x.title);
    offset = j.continue?.sroffset;
  }
  return out;
}

/**
 * Main-namespace pages (not redirects) whose title, a redirect's title or text with markup stripped has
 * this folded word or another form of one of its lemmas (a word typed as it is finds its other forms).
 */
async function pagesWithWord(word: string): Promise<string[]> {
  const { db } = await demoDatabase();
  const conn = new Database(db, { readonly: true });
  try {
    const codec = TitleCodec.forSite('Демовікі');
    const opts = stripOptions(codec, LANGUAGE_CODES);
    const rows = conn
      .prepare(
        'SELECT p.page_title AS title, t.old_text AS text FROM page p JOIN page_text t USING (page_id) WHERE p.page_namespace = 0 AND p.page_is_redirect = 0',
      )
      .all() as Array<{ title: string; text: string }>;
    const redirects = conn
      .prepare(
        'SELECT p.page_title AS source, r.rd_title AS target FROM redirect r JOIN page p ON p.page_id = r.rd_from WHERE r.rd_namespace = 0',
      )
      .all() as Array<{ source: string; target: string }>;
    const lemmas = new Set(lemmasOf(word));
    const has = (text: string) =>
      foldForSearch(text)
        .split(' ')
        .some((w) => w === word || lemmasOf(w).some((l) => lemmas.has(l)));
    return rows
      .filter(
        (r) =>
          has(r.title.replace(/_/g, ' ')) ||
          has(stripMarkup(r.text, opts)) ||
          redirects.some((d) => d.target === r.title && has(d.source.replace(/_/g, ' '))),
      )
      .map((r) => r.title.replace(/_/g, ' '))
      .sort();
  } finally {
    conn.close();
  }
}

describe('list=search', () => {
  it('a missing srsearch is srnosearch, its text naming the unprefixed parameter (ApiBase.php:954, 1311, 1617 of 1.25)', async () => {
    // dieUsageMsg( array( 'missingparam', 'search' ) ): code 'no$1' → 'nosearch', which dieUsage prefixes
    // with the module's prefix (encodeParamName, ApiBase.php:1311); the text keeps the unprefixed name
    const r = await s.get({ action: 'query', list: 'search', srwhat: 'title' });
    assert.equal(r.headers.get('mediawiki-api-error'), 'srnosearch');
    assert.deepEqual(r.json.error, { code: 'srnosearch', info: 'The search parameter must be set', '*': `See ${s.url} for API usage` });
  });
  it('finds the pages whose text has a Cyrillic word (which MediaWiki’s SQLite search cannot)', async () => {
    const expected = await pagesWithWord('річка');
    assert.ok(expected.length > 5, 'the demo has pages about rivers');
    const found = await allTitles('річка');
    assert.deepEqual([...found].sort(), expected);
  });

  it('finds the same pages for case and apostrophe variants', async () => {
    const variants = ["пам'ятник", 'пам’ятник', 'памʼятник', 'пам‘ятник', "ПАМ'ЯТНИК", 'Пам’Ятник'];
    const answers = await Promise.all(variants.map((v) => titles(v)));
    const expected = await pagesWithWord('памʼятник');
    assert.ok(expected.length > 10);
    for (const [i, a] of answers.entries()) assert.deepEqual([...a].sort(), expected, variants[i]);
  });

  it('keeps ё/е and ї/і apart, folds Latin diacritics', async () => {
    assert.ok((await titles('ёлка')).includes('Ёлка'));
    assert.ok(!(await titles('елка')).includes('Ёлка'));
    assert.ok((await titles('їжак')).includes('Їжак'));
    assert.ok(!(await titles('іжак')).includes('Їжак'));
    assert.deepEqual(await titles('zóó'), await titles('zoo'));
  });

  it('narrows with a phrase and with an exclusion', async () => {
    const all = await titles('памʼятник');
    const phrase = await titles('"стоїть памʼятник"');
    assert.ok(phrase.length > 0 && phrase.length < all.length);
    assert.ok(phrase.every((t) => all.includes(t)));
    // an excluded word excludes its other forms too (Котигорошко, Котигорошка, …)
    const excluded = await titles('памʼятник -Котигорошкові');
    const withWord = await pagesWithWord('котигорошкові');
    assert.ok(withWord.includes('Пам’ятник Котигорошкові'));
    assert.deepEqual([...excluded].sort(), all.filter((t) => !withWord.includes(t)).sort());
    // OR widens, prefix matches more words
    const either = await titles('памʼятник OR Котигорошкові');
    assert.ok(either.length >= all.length);
    assert.ok((await titles('памʼят*')).length >= all.length);
  });

  it('ranks title matches first, the exact title before all', async () => {
    assert.equal((await titles('памʼятник'))[0], 'Пам’ятник Котигорошкові');
    assert.equal((await titles('київ'))[0], 'Київ');
    // a redirect's title finds its target first
    const kyiv = await search({ srsearch: 'Kyiv', srprop: 'redirecttitle|redirectsnippet' });
    assert.deepEqual(kyiv.query.search[0], {
      ns: 0,
      title: 'Київ',
      redirecttitle: 'Kyiv',
      redirectsnippet: '<span class="searchmatch">Kyiv</span>',
    });
  });

  it('gives 1.25’s items, snippets with searchmatch spans, totalhits', async () => {
    const j = await search({ srsearch: 'памʼятник', srprop: 'size|wordcount|timestamp|snippet|titlesnippet', srlimit: 1 });
    assert.equal(j.query.searchinfo.totalhits > 1, true);
    const item = j.query.search[0];
    assert.deepEqual(Object.keys(item), ['ns', 'title', 'snippet', 'size', 'wordcount', 'timestamp', 'titlesnippet']);
    assert.equal(item.title, 'Пам’ятник Котигорошкові');
    assert.equal(item.titlesnippet, '<span class="searchmatch">Пам’ятник</span> Котигорошкові');
    assert.equal(item.snippet, '<span class="searchmatch">Пам’ятник</span> Котигорошкові стоїть у Їжаковому.\n');
    assert.match(item.timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.equal(j.continue.sroffset, 1);
  });

  it('searches titles only, text only, and resolves a near match ignoring case', async () => {
    const inTitle = await titles('памʼятник', { srwhat: 'title' });
    assert.deepEqual(inTitle, ['Пам’ятник Котигорошкові']);
    assert.deepEqual(await titles('intitle:памʼятник'), inTitle);
    const inText = await search({ srsearch: 'Котигорошкові', srwhat: 'text', srlimit: 'max', srprop: 'snippet' });
    assert.ok(inText.query.search.length > 0);
    // every form of the word is marked; the pages with the very form typed come first
    for (const x of inText.query.search) assert.match(x.snippet, /<span class="searchmatch">Котигорошк\p{L}*<\/span>/u);
    const exact = inText.query.search.map((x: any) => /searchmatch">Котигорошкові</.test(x.snippet));
    assert.ok(exact[0] && exact.includes(false), 'exact forms first, then the other forms');
    const near = await search({ srsearch: 'КИЇВ', srwhat: 'nearmatch', srprop: '' });
    assert.deepEqual(near.query, { search: [{ ns: 0, title: 'Київ' }] });
    const none = await search({ srsearch: 'Немає такої сторінки', srwhat: 'nearmatch', srprop: '' });
    assert.deepEqual(none.query, { search: [] });
  });

  it('picks namespaces: srnamespace and a namespace prefix in the query', async () => {
    const cats = await search({ srsearch: 'міста', srnamespace: 14, srprop: '' });
    assert.ok(cats.query.search.length > 0);
    assert.ok(cats.query.search.every((x: any) => x.ns === 14));
    const prefixed = await search({ srsearch: 'Категорія:міста', srprop: '' });
    assert.deepEqual(prefixed.query.search, cats.query.search);
  });

  it('works as a generator', async () => {
    const r = await s.get({ action: 'query', generator: 'search', gsrsearch: 'памʼятник', gsrlimit: 'max', continue: '' });
    // each page carries its place in the results (1.25's generator data 'index'), after ns and title
    const pages = Object.values(r.json.query.pages) as any[];
    assert.deepEqual(Object.keys(pages[0]), ['pageid', 'ns', 'title', 'index']);
    const byIndex = pages.sort((a, b) => a.index - b.index).map((p) => p.title);
    assert.deepEqual(byIndex, await titles('памʼятник'));
    const next = await s.get({ action: 'query', generator: 'search', gsrsearch: 'памʼятник', gsroffset: 3, gsrlimit: 2, continue: '' });
    assert.deepEqual((Object.values(next.json.query.pages) as any[]).map((p) => p.index).sort(), [4, 5]);
    const ps = await s.get({ action: 'query', generator: 'prefixsearch', gpssearch: 'Ки', gpslimit: 3, continue: '' });
    assert.deepEqual((Object.values(ps.json.query.pages) as any[]).map((p) => p.index).sort(), [1, 2, 3]);
  });

  it('answers bad input as MediaWiki: an error for no search, never an SQL error for odd syntax', async () => {
    const empty = await s.get({ action: 'query', list: 'search', srsearch: '' });
    assert.equal(empty.json.error.code, 'srnosearch');
    const missing = await s.get({ action: 'query', list: 'search' });
    assert.equal(missing.json.error.code, 'srnosearch');
    const odd = [
      '"unbalanced',
      '*',
      'OR',
      '-',
      '- OR -',
      'a\u0000b',
      'NOT AND NEAR(',
      '"',
      'intitle:',
      '{ns}:n0',
      'памʼятник"',
      '^',
      ':',
      '""*',
      'x'.repeat(10240),
      'слово '.repeat(2000),
    ];
    for (const q of odd) {
      // POST: a 10 KB query does not fit in a URL
      const r = await s.post({ action: 'query', list: 'search', srsearch: q, continue: '', format: 'json' });
      assert.equal(r.status, 200, q.slice(0, 20));
      assert.equal(r.json.error, undefined, `${q.slice(0, 20)}: ${r.text.slice(0, 200)}`);
      assert.ok(Array.isArray(r.json.query.search));
    }
    // an unbalanced quote runs to the end of the query
    assert.deepEqual(await titles('"стоїть памʼятник'), await titles('"стоїть памʼятник"'));
  });

  it('warns about the deprecated srprop values as 1.25', async () => {
    const j = await search({ srsearch: 'Котигорошкові', srprop: 'score|hasrelated', srlimit: 1 });
    assert.equal(j.warnings.search['*'], 'srprop=hasrelated has been deprecated\nsrprop=score has been deprecated');
  });
});

describe('list=prefixsearch and action=opensearch', () => {
  it('lists titles by prefix, case-insensitive on the first letter', async () => {
    const a = await s.get({ action: 'query', list: 'prefixsearch', pssearch: 'ки', utf8: 1 });
    const b = await s.get({ action: 'query', list: 'prefixsearch', pssearch: 'Ки', utf8: 1 });
    assert.deepEqual(a.json, b.json);
    const items = a.json.query.prefixsearch;
    assert.ok(items.length > 0);
    for (const i of items) {
      assert.deepEqual(Object.keys(i), ['ns', 'title', 'pageid']);
      assert.ok(i.title.startsWith('Ки'));
    }
    const cat = await s.get({ action: 'query', list: 'prefixsearch', pssearch: 'категорія:м', utf8: 1 });
    assert.ok(cat.json.query.prefixsearch.length > 0);
    assert.ok(cat.json.query.prefixsearch.every((i: any) => i.ns === 14 && i.title.startsWith('Категорія:М')));
  });

  it('opensearch answers [query, titles, descriptions, urls] in JSON by default', async () => {
    const raw = await fetch(`${s.url}?action=opensearch&search=${encodeURIComponent('Київськ')}`);
    assert.match(raw.headers.get('content-type') ?? '', /^application\/json/);
    const j = JSON.parse(await raw.text());
    assert.deepEqual(j, [
      'Київськ',
      ['Київська область'],
      [''],
      [`${new URL(s.url).origin}/index.php/${encodeURIComponent('Київська_область')}`],
    ]);
    const ps = await s.get({ action: 'query', list: 'prefixsearch', pssearch: 'Ки', pslimit: 5 });
    const os = await s.get({ action: 'opensearch', search: 'Ки', limit: 5 });
    assert.deepEqual(
      os.json[1],
      ps.json.query.prefixsearch.map((i: any) => i.title),
    );
  });

  it('opensearch returns or resolves redirects', async () => {
    const ret = await s.get({ action: 'opensearch', search: 'Kyi' });
    assert.deepEqual(ret.json[1], ['Kyiv']);
    const res = await s.get({ action: 'opensearch', search: 'Kyi', redirects: 'resolve' });
    assert.deepEqual(res.json[1], ['Київ']);
  });

  it('opensearch drops warnings, or fails with them when asked', async () => {
    const r = await s.get({ action: 'opensearch', search: 'Ки', bogus: 1 });
    assert.equal(r.json[0], 'Ки');
    const e = await s.get({ action: 'opensearch', search: 'Ки', bogus: 1, warningsaserror: 1 });
    assert.equal(e.json.error.code, 'warnings');
    const fm = await fetch(`${s.url}?action=opensearch&search=Ki&format=jsonfm`);
    assert.match(fm.headers.get('content-type') ?? '', /^text\/html/);
  });
});

/**
 * The reference MediaWiki loaded with the same dump (see ../shared/reference/mediawiki-oracle), when
 * WIKIQUERY_TEST_ORACLE names its api.php (e.g. http://127.0.0.1:8081/api.php): the suite contacts no
 * server it did not start unless told to.
 */
const ORACLE = process.env.WIKIQUERY_TEST_ORACLE;

describe('Latin words: what the reference MediaWiki finds', async () => {
  const up = ORACLE
    ? await fetch(`${ORACLE}?action=query&meta=siteinfo&format=json`).then(
        (r) => r.ok,
        () => false,
      )
    : false;
  const skip = !ORACLE
    ? "WIKIQUERY_TEST_ORACLE (the reference MediaWiki's api.php) is not set"
    : up
      ? false
      : `the reference MediaWiki at ${ORACLE} is not running`;
  it('finds every page MediaWiki finds (its redirect pages as their targets)', { skip }, async () => {
    for (const word of ['Linux', 'Zoo', 'logo', 'Kyiv', 'Borscht', 'Ukraine', 'Lviv', 'Dnieper', 'iPhone', 'Town']) {
      const q = `action=query&list=search&srsearch=${encodeURIComponent(word)}&srnamespace=0&srlimit=500&srprop=&format=json`;
      const theirs = ((await (await fetch(`${ORACLE}?${q}`)).json()).query.search as any[]).map((x) => x.title as string);
      if (theirs.length === 0) continue;
      // MediaWiki's SQL search lists a redirect page itself; this search finds its target
      const resolved = await s.get({ action: 'query', titles: theirs.join('|'), redirects: '', utf8: 1 });
      const targets = new Map<string, string>((resolved.json.query.redirects ?? []).map((r: any) => [r.from, r.to]));
      const ours = new Set(await titles(word, { srnamespace: 0 }));
      for (const t of theirs) assert.ok(ours.has(targets.get(t) ?? t), `${word}: ${t}`);
    }
  });
});

describe('search text', () => {
  it('folds case, diacritics and apostrophes, keeping й, ї, ё', () => {
    assert.equal(
      foldForSearch("Пам'ять ПАМ’ЯТЬ памʼять пам‘ять zóó Ёлка мі́сто İstanbul 'цитата' Їжак й"),
      'памʼять памʼять памʼять памʼять zoo ёлка місто istanbul цитата їжак й',
    );
  });

  it('folds common-script text by its fast path exactly as by the general one', () => {
    // every UTF-16 unit alone and inside words, and mixes of apostrophes, case pairs, marks and the kept letters
    const samples: string[] = ["Пам'ять ПАМ’ЯТЬ 'а' а'' ''б в'’г ʼд' Є'є Ґ’Ї ЙЇЁЎ ӑѐ Ⱥ ǅ ẞ ß Σσς", ' \t\n«Київ» — 2001 р.  '];
    for (let c = 0; c < 0x10000; c++) {
      const ch = String.fromCharCode(c);
      samples.push(ch, 'ab' + ch + 'cd', 'Я' + ch, ch + "'х", "ж'" + ch);
    }
    for (const t of samples) assert.equal(foldForSearch(t), foldGeneral(t), JSON.stringify(t));
  });

  it('strips markup, keeping what a reader sees', () => {
    const opts = stripOptions(TitleCodec.forSite('Демовікі'), LANGUAGE_CODES);
    const text =
      "== Історія ==\n'''Київ''' — [[столиця]] [[Україна|України]].<ref>Джерело [http://x.org Сайт]</ref>\n" +
      '<gallery>\nФайл:Kyiv coat of arms.png|Герб\nFile:X.png\n</gallery>\n' +
      "{| class=wikitable\n|-\n! Рік !! Населення\n|-\n| style='x' | 2001 || 2 611 327\n|}\n" +
      '[[Файл:A.png|thumb|200px|Вид на [[Дніпро]]]]\n{{Infobox|a={{b}}}}&nbsp;текст<!-- c -->\n[[Категорія:Міста]]\n[[en:Kyiv]]';
    assert.deepEqual(foldForSearch(stripMarkup(text, opts)).split(' '), [
      'історія',
      'київ',
      'столиця',
      'україни',
      'джерело',
      'сайт',
      'герб',
      'рік',
      'населення',
      '2001',
      '2',
      '611',
      '327',
      'вид',
      'на',
      'дніпро',
      'текст',
    ]);
  });
});

describe('snippets', () => {
  it('wrap matches in searchmatch spans and escape the HTML around them', () => {
    const match = termMatcher([
      { token: 'памʼять', prefix: false },
      { token: 'кот', prefix: true },
    ]);
    assert.equal(
      highlightAll('<b> & "Пам\'ять" котик', match),
      '&lt;b&gt; &amp; &quot;<span class="searchmatch">Пам\'ять</span>&quot; <span class="searchmatch">котик</span>',
    );
    const long = 'слово '.repeat(30) + 'пам’ять ' + 'слово '.repeat(30);
    const snippet = textSnippet(`перший рядок\n${long}\nще пам'ять\nі пам'ять втретє`, match);
    const lines = snippet.split('\n');
    assert.equal(lines.length, 3, 'two lines with matches, each ending with a newline');
    assert.match(lines[0], /^\.\.\.(слово ){10,}<span class="searchmatch">пам’ять<\/span>( слово){10,}\.\.\.$/);
    assert.equal(lines[1], 'ще <span class="searchmatch">пам\'ять</span>');
  });
});
