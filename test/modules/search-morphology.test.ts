/**
 * Search as a Ukrainian reader expects (issue 32): every inflected form of a word finds the pages written
 * with its other forms. The corpus (test/data/ukrainian-morphology.json) lists over 300 forms of 60 lemmas
 * -- nouns, adjectives, verbs, proper names -- and pages written with them; it is imported as a wiki of its
 * own (into PostgreSQL too in that pass) and each form is searched over HTTP.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importWiki } from '../../src/importer/import.js';
import { foldForSearch } from '../../src/wiki/search-text.js';
import { dumpXml, page } from '../helpers/dump-pages.js';
import { startDemoServer, type DemoServer } from '../helpers/demo-server.js';
import { TEST_DB, freshPostgresDatabase } from '../helpers/test-db.js';

interface Corpus {
  lemmas: Array<{ lemma: string; kind: string; forms: string[] }>;
  pages: Array<{ title: string; text: string }>;
}

const corpus = JSON.parse(readFileSync(new URL('../../../test/data/ukrainian-morphology.json', import.meta.url), 'utf8')) as Corpus;

/** the folded tokens of each page (title and text), by title */
const pageTokens = new Map(corpus.pages.map((p) => [p.title, new Set(foldForSearch(`${p.title}\n${p.text}`).split(' '))]));

/** the pages written with one of these forms */
function pagesWith(forms: string[]): Set<string> {
  const folded = forms.map(foldForSearch);
  return new Set([...pageTokens].filter(([, tokens]) => folded.some((f) => tokens.has(f))).map(([title]) => title));
}

let server: DemoServer;
let dir: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'wikiquery-morphology-'));
  const dump = join(dir, 'dump.xml');
  writeFileSync(dump, dumpXml(corpus.pages.map((p) => page(p.title, 0, p.text))));
  const db = TEST_DB === 'postgres' ? await freshPostgresDatabase('morphology') : join(dir, 'wiki.sqlite');
  await importWiki({ dump, db, lang: 'uk', progress: false, log: () => {} });
  server = await startDemoServer({ db });
});

after(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Every result of a search, in order, following sroffset. */
async function results(srsearch: string): Promise<string[]> {
  const out: string[] = [];
  let offset: number | undefined = 0;
  while (offset !== undefined) {
    const r = await server.get({ action: 'query', list: 'search', srsearch, srlimit: 50, sroffset: offset, srprop: '', continue: '' });
    assert.equal(r.json.error, undefined, r.text);
    for (const x of r.json.query.search) out.push(x.title);
    offset = r.json.continue?.sroffset;
  }
  return out;
}

describe('Ukrainian morphology in list=search', () => {
  it('the corpus: at least 300 forms of 60 lemmas of each kind, each lemma on pages in several forms', () => {
    assert.ok(corpus.lemmas.length >= 60);
    assert.ok(corpus.lemmas.reduce((n, l) => n + l.forms.length, 0) >= 300);
    for (const kind of ['noun', 'adjective', 'verb', 'proper name'])
      assert.ok(corpus.lemmas.filter((l) => l.kind === kind).length >= 10, kind);
    for (const l of corpus.lemmas) {
      const used = l.forms.filter((f) => pagesWith([f]).size > 0);
      assert.ok(used.length >= 2, `${l.lemma} is written in ${used.length} of its forms`);
    }
  });

  it('each form finds the pages written with any form of its lemma, and only such pages in its top 10', async (t) => {
    let expectedTotal = 0;
    let foundTotal = 0;
    const missed: string[] = [];
    const strangers: string[] = [];
    for (const l of corpus.lemmas) {
      const expected = pagesWith(l.forms);
      for (const form of l.forms) {
        const found = await results(form);
        expectedTotal += expected.size;
        for (const t of expected) {
          if (found.includes(t)) foundTotal++;
          else missed.push(`${form} → ${t}`);
        }
        for (const t of found.slice(0, 10)) if (!expected.has(t)) strangers.push(`${form} → ${t}`);
      }
    }
    const recall = foundTotal / expectedTotal;
    t.diagnostic(`recall ${foundTotal}/${expectedTotal} = ${recall.toFixed(4)}`);
    assert.ok(recall >= 0.95, `recall ${recall.toFixed(3)}; missed: ${missed.slice(0, 30).join('; ')}`);
    assert.deepEqual(strangers, [], 'pages without a form of the lemma in a top 10');
  });

  it('a quoted form finds exactly the pages written with that form', async () => {
    for (const l of corpus.lemmas) {
      for (const form of l.forms) {
        assert.deepEqual(new Set(await results(`"${form}"`)), pagesWith([form]), form);
      }
    }
  });

  it('puts the page titled by the lemma first for any of its forms', async () => {
    for (const [form, title] of [
      ['Києві', 'Київ'],
      ['Києва', 'Київ'],
      ['Одесою', 'Одеса'],
      ['Полтаві', 'Полтава'],
      ['Харкові', 'Харків'],
      ['Дністром', 'Дністер'],
      ['Богданові', 'Богдан'],
      ['зимою', 'Зима'],
    ]) {
      assert.equal((await results(form))[0], title, form);
    }
  });

  it('suggests the closest words of the index for a query that found nothing (srinfo=suggestion)', async () => {
    const info = async (srsearch: string) =>
      (await server.get({ action: 'query', list: 'search', srsearch, srprop: '', continue: '' })).json.query.searchinfo;
    assert.deepEqual(await info('Полтву'), { totalhits: 0, suggestion: 'полтаву' });
    assert.deepEqual(await info('Карпатти'), { totalhits: 0, suggestion: 'карпати' });
    // only the unknown word is replaced; a word the index holds in another form stays
    assert.deepEqual(await info('Києвом шкла'), { totalhits: 0, suggestion: 'києвом школа' });
    // found something, or nothing close: no suggestion
    const poltava = corpus.lemmas.find((l) => l.lemma === 'Полтава')!;
    assert.deepEqual(await info('Полтава'), { totalhits: pagesWith(poltava.forms).size });
    assert.deepEqual(await info('Ґдзщьх'), { totalhits: 0 });
    const noTotal = await server.get({ action: 'query', list: 'search', srsearch: 'Карпатти', srinfo: 'suggestion', continue: '' });
    assert.deepEqual(noTotal.json.query.searchinfo, { suggestion: 'карпати' });
  });

  it('prefixsearch and opensearch read titles as search does when none begins with the text as typed', async () => {
    const prefix = async (pssearch: string, extra: Record<string, string | number> = {}) =>
      (await server.get({ action: 'query', list: 'prefixsearch', pssearch, continue: '', ...extra })).json.query.prefixsearch.map(
        (x: any) => x.title,
      );
    // as typed first: the binary title prefix, case-insensitive on the first letter only
    assert.deepEqual(await prefix('Ки'), ['Київ']);
    assert.deepEqual(await prefix('КИЇВ'), ['Київ']);
    assert.deepEqual(await prefix('ШИРОКІ'), ['Широкі поля']);
    // other forms of the words: the lemmas of the titles
    assert.deepEqual(await prefix('Києві'), ['Київ']);
    assert.deepEqual(await prefix('Одесою'), ['Одеса']);
    assert.deepEqual(await prefix('старих книг'), ['Старі книги']);
    // continuation walks the same list
    const all = await prefix('Птах');
    assert.deepEqual(all, ['Птах', 'Птахи']);
    assert.deepEqual(await prefix('птахами', { pslimit: 1 }), ['Птах']);
    assert.deepEqual(await prefix('птахами', { pslimit: 1, psoffset: 1 }), ['Птахи']);
    const open = await server.get({ action: 'opensearch', search: 'Полтаві', format: 'json' });
    assert.deepEqual(open.json[1], ['Полтава']);
  });

  it('marks the inflected forms in snippets and title snippets', async () => {
    const r = await server.get({
      action: 'query',
      list: 'search',
      srsearch: 'Києві',
      srprop: 'snippet|titlesnippet',
      srlimit: 50,
      continue: '',
    });
    const kyiv = r.json.query.search.find((x: any) => x.title === 'Київ');
    assert.equal(kyiv.titlesnippet, '<span class="searchmatch">Київ</span>');
    assert.match(kyiv.snippet, /^<span class="searchmatch">Київ<\/span> стоїть над Дніпром\./);
    assert.match(kyiv.snippet, /бібліотеках <span class="searchmatch">Києва<\/span>\./);
    // the section whose heading holds a form of the word
    const sections = await server.get({
      action: 'query',
      list: 'search',
      srsearch: 'Київ',
      srprop: 'sectiontitle|sectionsnippet',
      srlimit: 50,
      continue: '',
    });
    const history = sections.json.query.search.find((x: any) => x.title === 'Історія міста');
    assert.deepEqual(history, {
      ns: 0,
      title: 'Історія міста',
      sectiontitle: 'Історія Києва',
      sectionsnippet: 'Історія <span class="searchmatch">Києва</span>',
    });
  });
});
